// Random moves for the table model (tests/js/table_model.js): the host's taps and the world's
// doings, weighted as a night at the table has them.
"use strict";

const fc = require("fast-check");
const { RANKS, STAKES, GUESTS, REFUSED_STAKE } = require("./table_model.js");

const pick = fc.nat(20);
const hostMove = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constant("tap"), fc.constantFrom(...RANKS)) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("back")) },
  { weight: 3, arbitrary: fc.tuple(fc.constant("stake"), fc.constantFrom(...STAKES),
    fc.constantFrom("10", "25", "100", "12.50", REFUSED_STAKE, "")) },
  { weight: 3, arbitrary: fc.tuple(fc.constant("chip"), fc.constantFrom(...STAKES),
    fc.constantFrom(5, 10, 25, 100)) },
  { weight: 3, arbitrary: fc.tuple(fc.constant("result"), fc.constantFrom("player", "banker", "tie", "")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("pair"), fc.constantFrom("player_pair", "banker_pair")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("repeat")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("clear")) },
  { weight: 5, arbitrary: fc.tuple(fc.constant("save")) },
  { weight: 2, arbitrary: fc.tuple(fc.constant("seat"), fc.integer({ min: 1, max: 7 }),
    fc.constantFrom(...GUESTS, "")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("undo")) },
  { weight: 2, arbitrary: fc.tuple(fc.constant("decide"), fc.constantFrom("resend", "edit", "discard"), pick) },
);
const worldMove = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constant("send")) },
  { weight: 5, arbitrary: fc.tuple(fc.constant("arrive"), pick) },
  { weight: 5, arbitrary: fc.tuple(fc.constant("reply"), pick) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("loseRequest"), pick) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("duplicate"), pick) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("loseReply"), pick) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("reading"), fc.constantFrom("9 J 7", "9 J 7 J 10", "K K", "")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("offline")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("online")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("reload")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("otherDevice")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("serverError"), pick) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("retry")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("staleReload"), pick) },
  { weight: 4, arbitrary: fc.tuple(fc.constant("push")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("pushTwice")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("dropPush")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("resync")) },
);
// The second phone at the table: its host's taps and its own network, less often than the first.
const otherMove = fc.tuple(fc.constant("other"), fc.oneof(
  { weight: 3, arbitrary: hostMove },
  { weight: 3, arbitrary: worldMove },
));
const moves = fc.array(fc.oneof(
  { weight: 6, arbitrary: hostMove },
  { weight: 6, arbitrary: worldMove },
  { weight: 3, arbitrary: otherMove },
), { minLength: 30, maxLength: 150, size: "max" });

module.exports = { moves };
