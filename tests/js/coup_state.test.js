// Coups (Chemin de fer, Baccara banque) through the table's one state: random interleavings of
// typing, Save, answers, drops and reloads (tests/js/coup_model.js), and the mutants it catches.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");
const fc = require("fast-check");

const State = require("../../static/js/table_state.js");
const { play, Night, MOVES, prefillOf } = require("./coup_model.js");
const { moves } = require("./coup_moves.js");

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

test("a refused coup comes back into an empty entry with the reason, or is held", () => {
  const night = new Night(State);
  run(night, [["type", "stake_2", "13"], ["save"], ["send"], ["arrive"], ["reply", 0]]);
  assert.deepEqual(night.state.entry.fields, { stake_2: "13" }, "back in the entry to fix");
  assert.equal(night.state.answer, "1 refused: bad stake");
  run(night, [["type", "stake_2", "100"], ["save"], ["type", "stake_3", "13"], ["save"],
    ["type", "stake_2", "250"], ["send"], ["arrive"], ["reply", 0], ["send"], ["arrive"],
    ["reply", 0]]);
  assert.deepEqual(night.state.entry.fields, { stake_2: "250" }, "what is typed stays");
  assert.equal(night.state.held.length, 1, "the refused coup is held");
  assert.equal(night.state.held[0].reason, "bad stake");
  assert.deepEqual(night.state.held[0].entry.fields, { stake_3: "13" });
});

const SOURCE = path.join(__dirname, "../../static/js/table_state.js");

function mutant(from, to) {
  const source = fs.readFileSync(SOURCE, "utf8");
  assert.ok(source.includes(from), `the mutation's target is in the source: ${from}`);
  const module = new Module(SOURCE);
  module._compile(source.replace(from, to), SOURCE);
  return module.exports;
}

const MUTANTS = {
  "the answer wipes covers typed meanwhile": [
    "if (outcome.prefill) facts.prefill = outcome.prefill;",
    "if (outcome.prefill) facts.prefill = outcome.prefill;\n" +
      "    if (outcome.prefill && state.entry.fields) state.entry = { ...state.entry, fields: {} };",
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
    "return coupComesBack(state) ? coupBack(state, op, outcome, key) : null;",
    "return { ...state, answer: outcome.reason };",
  ],
  "a coup is sent with the bank the page showed at Save": [
    "fields: { ...bank, ...op.fields, number: String(number) }",
    "fields: { ...op.fields, number: String(number) }",
  ],
};

for (const [name, [from, to]] of Object.entries(MUTANTS)) {
  test(`the coup model catches a mutant: ${name}`, () => {
    const Mutated = mutant(from, to);
    const found = fc.check(fc.property(moves, (list) => { play(Mutated, list); }), { numRuns: 3000 });
    assert.ok(found.failed, "the random interleavings found the bug");
  });
}
