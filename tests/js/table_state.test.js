// The table's client state under random interleavings of taps, answers, failures and reloads
// (a model-based test: tests/js/table_model.js). Run with `npm test` (make test runs it).
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const fc = require("fast-check");

const State = require("../../static/js/table_state.js");
const { play, Night, MOVES, STAKES, REFUSED_STAKE } = require("./table_model.js");
const { moves } = require("./table_moves.js");

const RUNS = Number(process.env.TABLE_MODEL_RUNS || 10000);

test("every tap lands in its hand, and every hand reaches the ledger once, as tapped", () => {
  fc.assert(fc.property(moves, (list) => { play(State, list); }), { numRuns: RUNS });
});

test("a hand taken back and saved again after the server's own is sent again takes the next number", () => {
  // Found by the random interleavings: a hand undone here kept its number in the entry while the
  // server gave back its hand of that number, which the host sent again; saved, the entry took
  // the same number, and two hands waited under one.
  const list = [["otherDevice"], ["tap", "A"], ["tap", "A"], ["tap", "8"], ["tap", "A"], ["save"],
    ["undo"], ["reload"], ["undo"], ["send"], ["tap", "A"], ["arrive", 0], ["arrive", 0],
    ["reply", 0], ["decide", "resend", 0], ["result", "player"], ["save"]];
  const night = play(State, list);
  const numbers = night.server.hands.map((hand) => hand.number);
  assert.equal(new Set(numbers).size, numbers.length);
});

test("eight hands tapped back to back at a slow round trip are recorded as tapped", () => {
  const list = [];
  for (let hand = 0; hand < 8; hand++) {
    list.push(["chip", STAKES[hand % 4], 10], ["tap", "9"], ["tap", "J"], ["tap", "7"],
      ["tap", "J"], ["tap", "10"], ["save"], ["send"]);
    if (hand % 2) list.push(["arrive", 0], ["reply", 0]); // answers come one hand late
  }
  const night = play(State, list);
  assert.equal(night.server.hands.length, 8);
  for (const hand of night.server.hands) {
    assert.equal(JSON.parse(hand.content).player, "9 7");
    assert.equal(JSON.parse(hand.content).banker, "J J 10");
  }
});

test("a hand refused on sending is held with the reason and the hands after it wait", () => {
  const night = new Night(State);
  for (const [name, ...args] of [["stake", "stake_1_banker", REFUSED_STAKE], ["result", "banker"],
    ["save"], ["result", "player"], ["save"], ["tap", "9"], ["send"], ["arrive", 0], ["reply", 0]]) {
    MOVES[name](night, ...args);
    night.check();
  }
  assert.equal(night.state.held.length, 1);
  assert.equal(night.state.held[0].number, 1);
  assert.equal(night.state.held[0].reason, "bad stake");
  assert.equal(State.due(night.state), null, "hand 2 waits for the host's decision");
  assert.deepEqual(night.state.entry.taps, ["9"], "the entry is not overwritten");
  night.decide("discard", 0);
  assert.equal(State.due(night.state).number, 1, "hand 2 closes the gap and goes");
  night.drain();
  assert.equal(night.server.hands.length, 1);
});

test("the seats sheet seats every name tapped, in order, however late the answers", () => {
  const list = [["seat", 3, "13"], ["seat", 4, "11"], ["seat", 5, "12"], ["send"],
    ["seat", 6, "13"], ["arrive", 0], ["send"], ["reply", 0], ["send"], ["arrive", 0]];
  const night = play(State, list);
  assert.deepEqual(night.server.seats, { 4: "11", 5: "12", 6: "13" });
});

test("a stake typed on a Japanese keyboard keeps its decimal point", () => {
  const night = new Night(State);
  night.dispatch({ type: "stake", name: "stake_1_banker", text: "１２．５" });
  assert.equal(night.state.entry.stakes.stake_1_banker, "12.5");
  night.dispatch({ type: "stake", name: "stake_1_banker", text: "1 000\u200b" });
  assert.equal(night.state.entry.stakes.stake_1_banker, "1000");
});

test("a stake that is not an amount is refused at Save, never read as another amount", () => {
  const night = new Night(State);
  night.stake("stake_1_banker", "1e30");
  night.result("banker");
  night.save();
  assert.equal(night.state.queue.length, 0, "nothing left the entry");
  assert.deepEqual(State.statusOf(night.state), { text: "“1e30” is no amount", problem: true });
});

test("an undo answered while the host types holds the hand instead of swapping the entry", () => {
  const night = new Night(State);
  for (const [name, ...args] of [["result", "banker"], ["save"], ["send"], ["arrive"], ["reply", 0],
    ["undo"], ["send"], ["chip", "stake_2_banker", 25], ["arrive"], ["reply", 0]]) {
    MOVES[name](night, ...args);
    night.check();
  }
  assert.equal(night.state.entry.stakes.stake_2_banker, "25", "what was typed stays in the entry");
  assert.equal(night.state.held.length, 1);
  assert.equal(night.state.held[0].entry.result, "banker", "the undone hand is held, whole");
});

test("unfinished cards are refused on the device, even with a result chosen", () => {
  const night = new Night(State);
  for (const rank of ["3", "2", "2", "2", "4"]) night.tap(rank); // Banker must draw on 4
  night.result("player");
  night.save();
  assert.equal(night.state.queue.length, 0, "nothing left the entry");
  assert.equal(night.state.entry.problem, "incomplete");
  assert.deepEqual(State.statusOf(night.state), { text: "B draws", problem: true });
});

test("typed cards that read in deal order are read on the device at once", () => {
  const night = new Night(State);
  night.dispatch({ type: "typeCards", player: "5 5 2", banker: "K Q 7" });
  assert.equal(State.statusOf(night.state).text, "Banker wins 7-2");
});

test("a tournament's first-bet marker moves on with each hand saved here, offline too", () => {
  const night = new Night(State);
  const drawnFor = night.state.server.next;
  const inPlay = [1, 2, 4, 6]; // seats 3 and 5 are out
  const marker = () => State.firstBetAt(inPlay, 2, drawnFor, State.entryNumber(night.state));
  assert.equal(marker(), 2, "as the server drew it for the hand being entered");
  night.network(false);
  night.result("banker");
  night.save();
  assert.equal(night.state.queue.length, 1, "the hand waits here, unsent");
  assert.equal(marker(), 4, "the marker passes seat 3, who is out");
  for (const result of ["player", "banker"]) {
    night.result(result);
    night.save();
  }
  assert.equal(marker(), 1, "round the table, past seat 5");
  assert.equal(State.firstBetAt([], 2, 1, 3), null, "nobody in play: no marker");
});

test("two phones taking turns, told by the stream, never see a refusal nor need a renumber", () => {
  const night = new Night(State);
  const phones = [night, night.other];
  for (let hand = 0; hand < 20; hand++) {
    const phone = phones[hand % 2];
    phone.push(); // the other phone's last hand, pushed
    phone.stake("stake_1_banker", "10");
    phone.result(hand % 3 ? "banker" : "player");
    phone.save();
    phone.send();
    phone.arrive();
    phone.reply(0);
    assert.equal(phone.state.held.length, 0, `hand ${hand + 1} was not refused`);
    const waiting = phones[(hand + 1) % 2];
    while (waiting.stream.length) waiting.push();
  }
  assert.deepEqual(night.server.hands.map((hand) => [hand.number, hand.phone]),
    Array.from({ length: 20 }, (_, index) => [index + 1, index % 2]));
  night.drain();
});

test("a hand renumbered after another phone seated someone else asks who the bet is for", () => {
  const night = new Night(State);
  night.network(false);
  night.stake("stake_2_banker", "50"); // guest 12 sits in seat 2
  night.result("banker");
  night.save();
  night.other.seat(2, "13"); // the other phone seats guest 13 there and logs hand 1
  night.other.send(); night.other.arrive(); night.other.reply(0);
  night.other.result("player"); night.other.save();
  night.other.send(); night.other.arrive(); night.other.reply(0);
  night.network(true);
  night.send(); night.arrive(); night.reply(0);
  assert.equal(night.state.held[0].taken.number, 1, "the other phone's hand 1, to show beside");
  night.decide("renumber", 0);
  night.send(); night.arrive(); night.reply(0);
  const [seat] = night.state.held[0].seats;
  assert.deepEqual([seat.seat, seat.was.id, seat.now.id, seat.bets[0].stake], [2, "12", "13", "50"]);
  assert.equal(night.server.hands.length, 1, "nothing stored for guest 13 unasked");
  night.dispatch({ type: "seatChoice", index: 0, seat: 2, choice: "move" });
  night.dispatch({ type: "resend", index: 0 });
  night.fates.get(night.state.queue[0].origin).seats[2] = "13"; // the host's choice
  night.send(); night.arrive(); night.reply(0);
  assert.deepEqual(night.server.hands[1].guests, { 2: "13" });
  night.drain();
});

test("a page older than what the phone knew starts from what it knew", () => {
  const night = new Night(State);
  night.result("banker");
  night.save();
  night.send(); night.arrive(); night.reply(0);
  night.seat(3, "13");
  night.send(); night.arrive(); night.reply(0);
  night.network(false);
  night.reload(); // offline: the worker's copy, drawn before hand 1 and the seat
  assert.equal(State.entryNumber(night.state), 2);
  assert.equal(State.seatsNow(night.state)[3], "13");
  night.drain();
});
