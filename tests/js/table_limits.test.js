// The table's limits checked on the phone, before Save moves the entry on (static/js/table_state.js
// ``limitProblems``): in the server's words (the texts come filled in with the page, as
// ledger.hands.views.table.phone_limits gives them), the boxes marked, nothing sent.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");

const State = require("../../static/js/table_state.js");
const { RULES } = require("./table_model.js");

const TEXTS = {
  on_seat: "Seat {seat} · {bet}: {problem}",
  under_minimum: "{stake} is under the table minimum of 10.",
  over_maximum: "{stake} is over the table maximum of 1,000.",
  not_unit: "{stake} is not a multiple of the bet unit (10).",
  over_stack: "{total} staked in all, over the stack of {stack}.",
  short_out: "The stack of {stack} is under the table minimum of 100: this player is out.",
  short_all_in: "{stake} is under the table minimum of 100: a stack under it bets all of it ({stack}), in one bet.",
};
const BETS = { player: "Player", banker: "Banker", tie: "Tie", player_pair: "Player pair" };
const CASH = { min: 1000, max: 100000, unit: null, stacks: null, stacks_for: 1, short_stack: "all_in",
  bets: BETS, texts: TEXTS };

function table(limits, extra = {}) {
  let state = State.start({ rules: { ...RULES, limits }, next: 1, last: 0, seating: "1:11 2:12 3:13",
    seatCount: 7, key: "k0", ...extra });
  let keys = 0;
  const step = (event) => { state = State.step(state, { key: `k${++keys}`, ...event }); };
  return { get state() { return state; }, step,
    stakes(stakes) { for (const [name, text] of Object.entries(stakes)) step({ type: "stake", name, text }); },
    save(result = "banker") { step({ type: "result", value: result }); step({ type: "save" }); } };
}

test("a stake over the table maximum (3 × 500 chips) is refused before it leaves the entry", () => {
  const phone = table(CASH);
  phone.step({ type: "choose", name: "stake_2_banker" });
  for (let chip = 0; chip < 3; chip++) phone.step({ type: "chip", value: 500 });
  phone.save();
  assert.equal(phone.state.queue.length, 0, "nothing goes to the outbox");
  assert.equal(phone.state.entry.stakes.stake_2_banker, "1500", "the entry keeps the stake");
  assert.deepEqual(phone.state.entry.badStakes, ["stake_2_banker"], "its box is marked");
  assert.deepEqual(State.statusOf(phone.state),
    { text: "Seat 2 · Banker: 1,500 is over the table maximum of 1,000.", problem: true });
  phone.stakes({ stake_2_banker: "1000" });
  assert.equal(State.statusOf(phone.state).problem, false, "a change clears the refusal");
  phone.save();
  assert.equal(phone.state.queue.length, 1, "within the limits, it goes");
});

test("every bet is checked, side bets too, each problem said in the form's order", () => {
  const phone = table(CASH);
  phone.stakes({ stake_3_player_pair: "2,000", stake_1_tie: "5", stake_1_banker: "12.50", stake_2_player: "0" });
  phone.save();
  assert.deepEqual(phone.state.entry.badStakes, ["stake_1_tie", "stake_3_player_pair"]);
  assert.equal(State.statusOf(phone.state).text,
    "Seat 1 · Tie: 5 is under the table minimum of 10. " +
    "Seat 3 · Player pair: 2,000 is over the table maximum of 1,000.");
});

test("a tournament seat's stack, its bet unit, and a short stack's all-in", () => {
  const limits = { ...CASH, min: 10000, unit: 1000, stacks: { 1: 25000, 2: 5000, 3: 100000 },
    stacks_for: 4, short_stack: "all_in" };
  const phone = table(limits, { next: 4, last: 3 });
  phone.stakes({ stake_1_banker: "200", stake_1_player_pair: "100", stake_3_banker: "155" });
  phone.save();
  assert.equal(State.statusOf(phone.state).text,
    "Seat 3 · Banker: 155 is not a multiple of the bet unit (10). " +
    "Seat 1 · Player pair: 300 staked in all, over the stack of 250.");
  const again = table(limits, { next: 4, last: 3 });
  again.stakes({ stake_2_banker: "40" });
  again.save();
  assert.equal(State.statusOf(again.state).text, "Seat 2 · Banker: 40 is under the table minimum " +
    "of 100: a stack under it bets all of it (50), in one bet.");
  again.stakes({ stake_2_banker: "50" });
  again.save();
  assert.equal(again.state.queue.length, 1, "all of a short stack goes, under the minimum");
});

test("under 'out', a short stack's bet is refused; stacks are checked only for their hand", () => {
  const limits = { ...CASH, min: 10000, unit: 1000, stacks: { 1: 25000, 2: 5000 }, stacks_for: 4,
    short_stack: "out" };
  const phone = table(limits, { next: 4, last: 3 });
  phone.stakes({ stake_2_banker: "50" });
  phone.save();
  assert.equal(State.statusOf(phone.state).text,
    "Seat 2 · Banker: The stack of 50 is under the table minimum of 100: this player is out.");
  phone.stakes({ stake_2_banker: "", stake_1_banker: "100" });
  phone.save();
  assert.equal(phone.state.queue.length, 1);
  // Hand 5, hand 4 still here: seat 1 bet on it (its stack is the server's to know now), seat 2
  // did not (its stack is as drawn).
  phone.stakes({ stake_1_banker: "300", stake_2_banker: "50" });
  phone.save();
  assert.equal(State.statusOf(phone.state).text,
    "Seat 2 · Banker: The stack of 50 is under the table minimum of 100: this player is out.");
  phone.stakes({ stake_2_banker: "" });
  phone.save();
  assert.equal(phone.state.queue.length, 2, "the server checks what the phone cannot know");
  phone.stakes({ stake_1_banker: "2,000" });
  phone.save();
  assert.equal(phone.state.queue.length, 2, "the maximum holds whatever the stacks");
});

test("Save again of a hand over the limits puts it in the entry to fix; Clear lets it go", () => {
  const phone = table({ ...CASH, max: 1000000 }); // a limit this phone did not know of
  phone.stakes({ stake_1_banker: "5,000" });
  phone.save();
  phone.step({ type: "sent", id: phone.state.queue[0].id, request: 1 });
  phone.step({ type: "limits", limits: CASH }); // the server's table, drawn afresh with the refusal
  phone.step({ type: "reply", request: 1, outcome: { refused: true, reason: "over", next: 1, last: 0 } });
  assert.equal(phone.state.held.length, 1);
  phone.step({ type: "resend", index: 0 });
  assert.equal(phone.state.held.length, 0);
  assert.equal(phone.state.queue.length, 0, "not sent again as it was: it would be refused again");
  assert.equal(phone.state.entry.stakes.stake_1_banker, "5,000");
  assert.deepEqual(phone.state.entry.badStakes, ["stake_1_banker"]);
  phone.stakes({ stake_1_banker: "1,000" });
  phone.step({ type: "save" });
  assert.equal(phone.state.queue.length, 1, "fixed, hand 1 goes");
  assert.equal(State.due(phone.state).number, 1);

  const other = table({ ...CASH, max: 1000000 });
  other.stakes({ stake_1_banker: "5,000" });
  other.save();
  other.step({ type: "sent", id: other.state.queue[0].id, request: 1 });
  other.step({ type: "reply", request: 1, outcome: { refused: true, reason: "over", next: 1, last: 0 } });
  other.step({ type: "clear" });
  assert.equal(other.state.held.length, 0, "Clear lets the refused hand go");
  other.save();
  assert.equal(State.due(other.state).number, 1, "and the next hand is hand 1");
});
