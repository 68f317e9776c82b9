// The model test fails when the client is broken: each mutant below is a bug of the kind the
// table had (an answer applied to the wrong request, a refused hand dropped, a reply that moves
// the entry), and the random interleavings must find every one of them.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");
const fc = require("fast-check");

const { play } = require("./table_model.js");
const { moves } = require("./table_moves.js");

const SOURCE = path.join(__dirname, "../../static/js/table_state.js");

function mutant(from, to) {
  const source = fs.readFileSync(SOURCE, "utf8");
  assert.ok(source.includes(from), `the mutation's target is in the source: ${from}`);
  const module = new Module(SOURCE);
  module._compile(source.replace(from, to), SOURCE);
  return module.exports;
}

const MUTANTS = {
  "any answer is taken for the request in flight": [
    "if (!state.flight || state.flight.request !== request) return state;",
    "if (!state.flight) return state;",
  ],
  "a refused hand is dropped": [
    "return { ...state, held: [...state.held, item], answer: \"\" };",
    "return { ...state, answer: \"\" };",
  ],
  "the queue does not wait for a held hand": [
    "if (state.held.length) return null; // the hands after a held one wait for the decision",
    "",
  ],
  "an answer clears the entry": [
    "return { ...state, answer: outcome.notice };",
    "return { ...state, answer: outcome.notice, entry: emptyEntry(state.entry.key) };",
  ],
  "an undo is not kept across a reload": [
    "return { entry: state.entry, queue: state.queue, held",
    "return { entry: state.entry, queue: state.queue.filter((op) => op.kind !== \"undo\"), held",
  ],
  "a queued hand that left is taken back by Undo": [
    "if (last.tried) return",
    "if (false) return",
  ],
};

for (const [name, [from, to]] of Object.entries(MUTANTS)) {
  test(`the model test catches a mutant: ${name}`, () => {
    const State = mutant(from, to);
    const found = fc.check(fc.property(moves, (list) => { play(State, list); }), { numRuns: 3000 });
    assert.ok(found.failed, "the random interleavings found the bug");
  });
}
