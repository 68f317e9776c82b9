// A mutant of the table's state (static/js/table_state.js): its source with ``from`` replaced
// by ``to``, loaded as a module of its own, for the model tests to catch.
"use strict";

const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");

const SOURCE = path.join(__dirname, "../../static/js/table_state.js");

function mutant(from, to) {
  const source = fs.readFileSync(SOURCE, "utf8");
  assert.ok(source.includes(from), `the mutation's target is in the source: ${from}`);
  const module = new Module(SOURCE);
  module._compile(source.replace(from, to), SOURCE);
  return module.exports;
}

module.exports = { mutant };
