// Random moves for the coup model (tests/js/coup_model.js): the host typing in the coup's boxes
// and saving at speed, the network's doings, reloads and another device.
"use strict";

const fc = require("fast-check");
const { BOXES } = require("./coup_model.js");

const pick = fc.nat(20);
const typed = fc.constantFrom(...Object.keys(BOXES))
  .chain((name) => fc.tuple(fc.constant("type"), fc.constant(name), fc.constantFrom(...BOXES[name])));
const hostMove = fc.oneof(
  { weight: 10, arbitrary: typed },
  { weight: 5, arbitrary: fc.tuple(fc.constant("save")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("clear")) },
  { weight: 2, arbitrary: fc.tuple(fc.constant("decide"), fc.constantFrom("resend", "edit", "discard"), pick) },
);
const worldMove = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constant("send")) },
  { weight: 5, arbitrary: fc.tuple(fc.constant("arrive")) },
  { weight: 5, arbitrary: fc.tuple(fc.constant("reply"), pick) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("loseRequest"), pick) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("duplicate"), pick) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("loseReply"), pick) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("serverError"), pick) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("retry")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("offline")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("online")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("pushed")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("reload")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("otherDevice")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("pushedFacts")) },
  { weight: 2, arbitrary: fc.tuple(fc.constant("otherPushed")) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("reseat")) },
);
const moves = fc.array(fc.oneof(hostMove, worldMove), { minLength: 30, maxLength: 150, size: "max" });

module.exports = { moves };
