// Coups (Chemin de fer, Baccara banque) through the table's one state: random interleavings of
// typing, Save, answers, drops and reloads (tests/js/coup_model.js), and the mutants it catches.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const fc = require("fast-check");

const State = require("../../static/js/table_state.js");
const { play, Night, MOVES, prefillOf } = require("./coup_model.js");
const { moves } = require("./coup_moves.js");
const { mutant } = require("./mutant.js");

const RUNS = Number(process.env.TABLE_MODEL_RUNS || 3000);

test("every cover typed stays in its coup, and every coup reaches the ledger once, as tapped", () => {
  fc.assert(fc.property(moves, (list) => { play(State, list); }), { numRuns: RUNS });
});

function run(night, list) {
  for (const [name, ...args] of list) {
    MOVES[name](night, ...args);
    night.check();
  }
}

test("covers typed while the last coup's save is on its way are kept and stored", () => {
  const night = new Night(State);
  run(night, [["type", "stake_2", "100"], ["type", "result", "banker"], ["save"], ["send"],
    ["type", "stake_3", "50"], ["type", "result", "player"], ["arrive"]]);
  assert.equal(State.coupShown(night.state).bank, undefined, "coup 2's bank is not known yet");
  night.reply(0);
  const shown = State.coupShown(night.state);
  assert.equal(shown.stake_3, "50", "the answer keeps the cover typed meanwhile");
  assert.equal(shown.bank, prefillOf(2).bank, "and fills the bank the host left alone");
  night.save();
  night.drain();
  assert.equal(night.server.coups.length, 2);
  assert.match(night.server.coups[1].content, /"stake_3":"50"/);
});

test("the next coup is saved before the answer, and sent with the bank its answer gives", () => {
  const night = new Night(State);
  run(night, [["type", "stake_2", "100"], ["save"], ["type", "stake_3", "200"], ["save"],
    ["send"]]);
  assert.equal(night.state.queue.length, 2, "both coups wait in the outbox");
  night.drain();
  assert.deepEqual(night.server.coups.map((coup) => JSON.parse(coup.content).bank),
    [prefillOf(1).bank, prefillOf(2).bank]);
});

test("a refused coup is held with the reason, never merged into the next; Fix puts it back", () => {
  const night = new Night(State);
  run(night, [["type", "stake_2", "13"], ["save"], ["send"], ["arrive"], ["reply", 0]]);
  assert.deepEqual(night.state.entry.fields, {}, "the entry stays the next coup's, empty");
  assert.equal(night.state.held.length, 1, "the refused coup is held");
  assert.equal(night.state.held[0].reason, "bad stake");
  assert.deepEqual(night.state.held[0].entry.fields, { stake_2: "13" });
  run(night, [["type", "stake_3", "50"]]); // the next coup's taps stay the next coup's
  assert.deepEqual(night.state.entry.fields, { stake_3: "50" });
  assert.deepEqual(night.state.held[0].entry.fields, { stake_2: "13" });
  run(night, [["clear"], ["decide", "edit", 0]]);
  assert.deepEqual(night.state.entry.fields, { stake_2: "13" }, "Fix in the entry puts it back");
  assert.equal(night.state.answer, "1 refused: bad stake", "with the server's reason");
  run(night, [["type", "stake_2", "100"], ["save"]]);
  night.drain();
  assert.equal(night.server.coups.length, 1);
  assert.match(night.server.coups[0].content, /"stake_2":"100"/);
});

test("a coup waits for its bank: another phone's coup pushed, the prefill asked, then sent", () => {
  const night = new Night(State);
  run(night, [["type", "stake_2", "100"], ["otherDevice"], ["pushedFacts"], ["save"]]);
  assert.equal(night.state.queue[0].number, 2, "saved as the coup after the other phone's");
  assert.equal(State.due(night.state), null, "not sent before coup 2's bank is known");
  assert.ok(State.asksPrefill(night.state), "the page asks for it");
  run(night, [["pushed"]]);
  assert.equal(State.asksPrefill(night.state), false);
  run(night, [["send"], ["arrive"], ["reply", 0]]);
  assert.equal(night.server.coups.length, 2, "recorded with the bank the server left");
  assert.equal(JSON.parse(night.server.coups[1].content).bank, prefillOf(2).bank);
});

test("a coup saved before another phone seated someone else in its seat is never stuck", () => {
  const night = new Night(State);
  run(night, [["offline"], ["type", "stake_2", "100"], ["save"]]);
  night.server.reseat(); // the other phone seats someone else in seat 2, and saves coup 1
  night.server.otherDevice();
  run(night, [["online"], ["send"], ["arrive"], ["reply", 0]]);
  assert.equal(night.state.held.length, 1, "refused as taken: held");
  const renumber = !State.heldLines(night.state)[0].resend;
  assert.ok(renumber, "offered as the next coup");
  run(night, [["decide", "resend", 0], ["send"], ["arrive"], ["reply", 0]]);
  assert.equal(night.state.held[0].reason, "seats", "refused for the seat");
  run(night, [["decide", "resend", 0], ["send"], ["arrive"], ["reply", 0]]);
  assert.equal(night.state.held[0].reason, "seats", "sent again as it was: refused again");
  run(night, [["decide", "edit", 0]]);
  assert.deepEqual(night.state.entry.fields, { stake_2: "100" });
  run(night, [["save"], ["send"], ["arrive"], ["reply", 0]]);
  assert.equal(night.state.held.length, 0);
  assert.equal(night.server.coups.length, 2, "fixed in the entry, saved with the seats as they are");
  // Or let go: Clear, with the coup back in the entry, lets it go and the next coup saves.
  const other = new Night(State);
  run(other, [["offline"], ["type", "stake_2", "100"], ["save"]]);
  other.server.reseat();
  run(other, [["online"], ["send"], ["arrive"], ["reply", 0], ["decide", "edit", 0], ["clear"]]);
  assert.equal(other.state.held.length + other.state.queue.length, 0, "let go");
  run(other, [["type", "stake_3", "50"], ["save"], ["send"], ["arrive"], ["reply", 0]]);
  assert.equal(other.server.coups.length, 1);
  assert.match(other.server.coups[0].content, /"stake_3":"50"/);
});

test("after another screen's undo, the prefill of the coup the server is back to is taken", () => {
  const night = new Night(State);
  run(night, [["otherDevice"], ["otherDevice"], ["pushed"], ["pushedFacts"]]);
  assert.equal(night.state.server.prefill.next, 3);
  night.server.coups.pop(); // undone on the other screen: the server is back to coup 2
  run(night, [["pushedFacts"], ["type", "stake_2", "100"], ["save"]]);
  assert.equal(night.state.queue[0].number, 2);
  assert.ok(State.asksPrefill(night.state), "coup 3's prefill is stale: asked again");
  run(night, [["pushed"]]);
  assert.equal(night.state.server.prefill.next, 2, "the prefill for coup 2 replaces it");
  night.drain();
  assert.equal(night.server.coups.length, 2);
  assert.equal(JSON.parse(night.server.coups[1].content).bank, prefillOf(2).bank);
});

const MUTANTS = {
  "the answer wipes covers typed meanwhile": [
    "const known = withFacts({ ...settled, queue }, serverFacts(outcome));",
    "const known = withFacts({ ...settled, queue, entry: outcome.prefill && state.entry.fields " +
      "? { ...state.entry, fields: {} } : state.entry }, serverFacts(outcome));",
  ],
  "the prefill overwrites what the host typed": [
    "({ ...prefillFor(state, entryNumber(state)), ...state.entry.fields })",
    "({ ...state.entry.fields, ...prefillFor(state, entryNumber(state)) })",
  ],
  "a coup sent again takes the bank of its new number": [
    "const bank = op.bank || prefillFor(state, number);",
    "const bank = prefillFor(state, number);",
  ],
  "a refused coup loses its entry": [
    "return null; // held",
    "return { ...state, answer: outcome.reason };",
  ],
  "a refused coup merges into the next coup": [
    "return null; // held",
    "return { ...state, entry: { ...state.entry, fields: { ...op.entry.fields, ...state.entry.fields } } };",
  ],
  "a coup is sent with the bank the page showed at Save": [
    "fields: { ...bank, ...op.fields, number: String(number) }",
    "fields: { ...op.fields, number: String(number) }",
  ],
  "a coup is sent before its bank is known": [
    "return !fresh;",
    "return false;",
  ],
  "the outbox waits for a bank nobody asks for": [
    "return Boolean(op && op.kind === \"hand\" && op.entry.fields && awaitsBank(state, op));",
    "return false;",
  ],
  "a coup fixed in the entry keeps the seats of its first save": [
    "const seating = item.entry.fields ? undefined : item.seating;",
    "const seating = item.seating;",
  ],
};

for (const [name, [from, to]] of Object.entries(MUTANTS)) {
  test(`the coup model catches a mutant: ${name}`, () => {
    const Mutated = mutant(from, to);
    const found = fc.check(fc.property(moves, (list) => { play(Mutated, list); }), { numRuns: 3000 });
    assert.ok(found.failed, "the random interleavings found the bug");
  });
}
