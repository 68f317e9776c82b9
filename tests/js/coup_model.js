// A guest-banked night (Chemin de fer, Baccara banque) as a model: the page's state
// (static/js/table_state.js) entering coups, a server that records them as
// ledger.hands.services.record_hand does — the next number only, once per key, the bank as the
// coup before left it — and a network that delays, loses, duplicates and reorders. ``play`` runs
// a list of moves and checks after each one that what the host typed is what the entry shows
// (no cover lost to an answer), then ``drain`` brings everything home and checks the ledger:
// every coup stored once, in the order saved, as tapped.
"use strict";

const assert = require("node:assert/strict");

const TEXTS = {
  waiting: "Coup {number}: waiting", seat_waiting: "Seat {seat}: waiting",
  undo_waiting: "Undo {number}: waiting", queued: "kept {number}", sending: "sending {number}",
  waits_for_held: "waits {number}", server_failed: "server failed",
  held_refused: "{number} refused: {reason}", held_undone: "{number} undone",
  held_resend: "save {number}", held_renumber: "renumber {was} as {number}",
  held_edit: "edit", held_discard: "discard", undo: "Undo coup {number}",
};
const RULES = { texts: TEXTS };

// The boxes a host touches, and what may go in them.
const BOXES = {
  stake_2: ["100", "250", "12.50", "13", ""],
  stake_3: ["50", "200", ""],
  kind_2: ["ordinary", "banco_solo", ""],
  bank: ["9", "7"], // never the bank the coup before leaves: refused for its continuity
  banker_seat: ["4", "5"], // nor its banker
  result: ["player", "banker", "tie", ""],
  player_cards: ["2 3", "9 K", ""],
  ponte_choice: ["draw", "stand", ""],
};
const REFUSED_STAKE = "13"; // a cover the server refuses (more than the bank, say)
const NOT_SENT = new Set(["number", "idempotency_key", "seating"]);

// The bank the server prefills for coup ``number`` (as games.guest_banked.bank.next_bank leaves
// it after the coup before): any function of the number will do for the model.
const prefillOf = (number) => ({ next: number, banker_seat: String((number % 3) + 1),
  bank: String(100 + 10 * number) });

function bankOf(number) {
  const { banker_seat, bank } = prefillOf(number);
  return { banker_seat, bank };
}

// A coup the server refuses whatever its number: a bank typed over, a cover refused, or none.
const refusedAlways = (tapped) => "bank" in tapped || "banker_seat" in tapped ||
  [tapped.stake_2, tapped.stake_3].includes(REFUSED_STAKE) || !(tapped.stake_2 || tapped.stake_3);

const tidy = (fields) => JSON.stringify(Object.fromEntries(Object.entries(fields)
  .filter(([name, value]) => !NOT_SENT.has(name) && value !== "").sort(([a], [b]) => a.localeCompare(b))));

// What a coup is once stored: the bank as the server left it where the host left the box
// alone, then everything the host typed.
const stored = (number, tapped) => tidy({ ...bankOf(number), ...tapped });

class Server {
  constructor(State) {
    this.State = State;
    this.coups = []; // {number, key, origin, seq, content}
    this.seats = { 1: "11", 2: "12", 3: "13" };
    this.clock = 0;
  }

  get next() { return this.coups.length + 1; }

  // The server's facts, stamped when read (as ledger.hands.selectors.facts_stamp does).
  facts() {
    const at = ++this.clock;
    return { next: this.next, last: this.coups.length, seating: this.State.seatingToken(this.seats),
      prefill: { ...prefillOf(this.next), at }, at };
  }

  answer({ op }) {
    const content = tidy(op.fields);
    const repeat = this.coups.find((coup) => coup.key === op.key);
    if (repeat) {
      if (repeat.content !== content) return { refused: true, reason: "key reused", ...this.facts() };
      return { saved: true, notice: `saved ${repeat.number}`, ...this.facts() };
    }
    const refuse = (reason) => ({ refused: true, reason, ...this.facts() });
    if (op.number !== this.next) return refuse("taken");
    assert.equal(op.fields.number, String(op.number), "a coup's form carries its own number");
    if (op.fields.seating !== this.State.seatingToken(this.seats)) return refuse("seats");
    const bank = bankOf(op.number);
    // The bank's continuity: the coup before says who banks and with how much.
    if (op.fields.banker_seat !== bank.banker_seat || op.fields.bank !== bank.bank) {
      return refuse("continuity");
    }
    if (!op.fields.stake_2 && !op.fields.stake_3) return refuse("nobody covered the bank");
    if ([op.fields.stake_2, op.fields.stake_3].includes(REFUSED_STAKE)) return refuse("bad stake");
    this.coups.push({ number: op.number, key: op.key, origin: op.origin, seq: op.seq, content });
    return { saved: true, notice: `saved ${op.number}`, ...this.facts() };
  }

  otherDevice() {
    this.coups.push({ number: this.next, key: `other-${this.next}`, origin: "other", seq: 0,
      content: stored(this.next, { stake_3: "50" }) });
  }

  // Another device seats someone else in seat 2: a coup saved with the seats before is refused.
  reseat() {
    this.seats = { ...this.seats, 2: String(Number(this.seats[2]) + 100) };
  }
}

class Night {
  constructor(State) {
    this.State = State;
    this.server = new Server(State);
    this.keys = 0;
    this.requests = 0;
    this.onTheWay = [];
    this.answers = [];
    this.fates = new Map(); // origin → {tapped, where: "device" | "discarded"}
    this.reasons = new Map(); // origin → the server's reason, for a refused coup
    this.state = State.start(this.page(), null);
    this.meant = {}; // what the host typed in the entry, box by box
  }

  key() { return `key-${++this.keys}`; }

  page() {
    const facts = this.server.facts();
    return { rules: RULES, next: facts.next, last: facts.last, seating: facts.seating, seatCount: 7,
      key: this.key(), coup: true, prefill: facts.prefill, at: facts.at };
  }

  dispatch(event) { this.state = this.State.step(this.state, { key: this.key(), ...event }); }

  // --- the host ---

  type(name, value) {
    this.dispatch({ type: "coupField", name, value });
    this.meant = { ...this.state.entry.fields };
    assert.equal(this.State.coupShown(this.state)[name], value, "the box shows what was typed");
  }

  save() {
    const number = this.State.entryNumber(this.state);
    const tapped = { ...this.state.entry.fields };
    const before = new Set(this.state.queue.map((op) => op.id));
    const parked = this.state.parked;
    this.dispatch({ type: "coupSave" });
    const added = this.state.queue.filter((op) => !before.has(op.id));
    if (!added.length) {
      assert.deepEqual(this.state.entry.fields, tapped, "refused here: nothing in it changes");
      return;
    }
    const [op] = added;
    assert.equal(this.State.numberOf(this.state, op.seq), number, "saved under the number shown");
    assert.deepEqual(op.entry.fields, tapped, "the coup saved is the coup entered");
    this.fates.set(op.origin, { tapped, where: "device" });
    this.reasons.delete(op.origin);
    assert.deepEqual(this.state.entry.fields, parked ? parked.fields : {},
      "the next coup starts empty (or as it was parked)");
    this.meant = { ...this.state.entry.fields };
  }

  clear() {
    const origin = this.state.entry.origin;
    this.dispatch({ type: "coupClear" });
    if (origin && this.fates.has(origin)) this.fates.get(origin).where = "discarded";
    this.meant = { ...this.state.entry.fields };
  }

  decide(choice, pick) {
    if (!this.state.held.length) return;
    const index = pick % this.state.held.length;
    const item = this.state.held[index];
    if (choice === "resend") {
      // Another device's coup took its number: the host saves it as the next one.
      const renumber = !this.State.heldLines(this.state)[index].resend;
      this.dispatch({ type: "resend", index, renumber });
      assert.ok(this.state.queue.some((op) => op.origin === item.origin), "sent again");
    } else if (choice === "edit") {
      const before = this.state.held.length;
      this.dispatch({ type: "edit", index, key: this.key() });
      if (this.state.held.length === before) return;
      assert.deepEqual(this.state.entry.fields, item.entry.fields, "back in the entry, whole");
      this.fates.get(item.origin).where = "discarded"; // until saved again
    } else {
      this.dispatch({ type: "discard", index });
      this.fates.get(item.origin).where = "discarded";
    }
    this.meant = { ...this.state.entry.fields };
  }

  // --- the network and the world ---

  send() {
    const op = this.State.due(this.state);
    if (!op) return;
    const request = ++this.requests;
    this.dispatch({ type: "sent", id: op.id, request });
    this.onTheWay.push({ request, op: JSON.parse(JSON.stringify(op)) });
  }

  arrive() {
    if (!this.onTheWay.length) return;
    const sent = this.onTheWay.shift();
    this.answers.push({ request: sent.request, outcome: this.server.answer(sent), op: sent.op });
  }

  loseRequest(pick) {
    if (!this.onTheWay.length) return;
    const [sent] = this.onTheWay.splice(pick % this.onTheWay.length, 1);
    this.answer({ request: sent.request, outcome: { failed: "network" } });
  }

  reply(pick, { keep = false, lose = false, failure = "" } = {}) {
    if (!this.answers.length) return;
    const at = pick % this.answers.length;
    const answer = keep ? this.answers[at] : this.answers.splice(at, 1)[0];
    if (lose || failure) this.answer({ request: answer.request, outcome: { failed: failure || "network" } });
    else this.answer(answer);
  }

  answer({ request, outcome, op }) {
    const before = { ...this.state.entry.fields };
    const mine = this.state.flight && this.state.flight.request === request;
    this.dispatch({ type: "reply", request, outcome: JSON.parse(JSON.stringify(outcome)) });
    if (mine && op && outcome.refused) {
      this.reasons.set(op.origin, outcome.reason);
      const back = this.state.entry.origin === op.origin;
      const again = this.state.queue.some((item) => item.origin === op.origin); // its bank renewed
      if (outcome.reason === "continuity" && !refusedAlways(this.fates.get(op.origin).tapped)) {
        // Sent again with the bank it first went with (its first sending's fate unknown), under
        // a new number: the server says it is not recorded, so it goes again at once.
        assert.ok(op.bankFor !== op.number && again,
          "a coup whose bank the host left alone is sent with the bank the server left");
      }
      assert.ok(!back, "a refused coup is held, never put back into the entry");
      assert.ok(again || this.state.held.some((item) => item.origin === op.origin),
        "a refused coup is still on the device");
    }
    assert.deepEqual(this.state.entry.fields, before, "an answer never changes the entry");
  }

  network(online) { this.dispatch({ type: online ? "online" : "offline" }); }

  // The server's prefill comes by another way (a push, a fetch), late or not.
  pushed() { this.dispatch({ type: "coupPrefill", prefill: this.server.facts().prefill }); }

  // Another device's doings pushed without the prefill (it comes by a fetch of its own, later).
  pushedFacts() {
    const { next, last, seating, at } = this.server.facts();
    this.dispatch({ type: "pushed", next, last, seating, at });
  }

  reload() {
    const kept = JSON.parse(JSON.stringify(this.State.kept(this.state)));
    this.state = this.State.start({ ...this.page(), online: this.state.online }, kept);
    assert.deepEqual(this.state.entry.fields, this.meant, "a reload keeps the entry");
  }

  otherDevice() { this.server.otherDevice(); }

  check() {
    const shown = this.State.coupShown(this.state);
    for (const [name, value] of Object.entries(this.meant)) {
      assert.equal(shown[name], value, `the entry shows ${name} as the host typed it`);
    }
    assert.deepEqual(this.state.entry.fields, this.meant, "the entry is what the host typed");
    const prefill = this.state.server.prefill;
    if (prefill && prefill.next === this.State.entryNumber(this.state)) {
      for (const name of ["banker_seat", "bank"]) {
        if (!(name in this.meant)) assert.equal(shown[name], prefill[name], "an untouched box is prefilled");
      }
    }
    const mine = this.server.coups.filter((coup) => coup.origin !== "other");
    const seqs = mine.map((coup) => coup.seq);
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), "coups are recorded in the order saved");
    assert.equal(new Set(mine.map((coup) => coup.origin)).size, mine.length, "each coup is recorded once");
    for (const coup of mine) {
      assert.equal(coup.content, stored(coup.number, this.fates.get(coup.origin).tapped),
        `coup ${coup.number} is recorded as it was tapped`);
    }
  }

  // Everything home: online, every request answered; a coup refused for what the server will
  // refuse again is let go, one refused for a seat that changed hands is fixed in the entry
  // (saved with the seats as they are now), any other sent again. Whenever the outbox waits for
  // a coup's bank, the page asks the server for it.
  drain() {
    const hopeless = (origin) => refusedAlways(this.fates.get(origin).tapped);
    for (let round = 0; round < 500; round++) {
      this.network(true);
      while (this.onTheWay.length) this.arrive();
      if (this.state.flight && !this.answers.some((a) => a.request === this.state.flight.request)) {
        this.answer({ request: this.state.flight.request, outcome: { failed: "network" } });
      }
      this.answers.splice(0).forEach((answer) => this.answer(answer));
      this.dispatch({ type: "retry" });
      if (this.state.entry.seq) {
        if (hopeless(this.state.entry.origin)) this.clear(); else this.save();
      }
      if (this.state.held.length) {
        const first = this.state.held[0];
        const seats = this.reasons.get(first.origin) === "seats";
        this.decide(hopeless(first.origin) ? "discard" : seats ? "edit" : "resend", 0);
      }
      if (this.State.asksPrefill(this.state)) this.pushed();
      this.send();
      if (!this.state.queue.length && !this.state.held.length && !this.state.flight &&
        !this.state.entry.seq) break;
    }
    assert.equal(this.state.queue.length, 0, "the outbox empties");
    assert.equal(this.state.held.length, 0);
    this.check();
    const recorded = new Set(this.server.coups.map((coup) => coup.origin));
    for (const [origin, fate] of this.fates) {
      if (fate.where === "device") assert.ok(recorded.has(origin), `coup ${origin} reached the ledger`);
      else assert.ok(!recorded.has(origin), `coup ${origin} was let go and stays out`);
    }
    const numbers = this.server.coups.map((coup) => coup.number);
    assert.deepEqual(numbers, numbers.map((_, index) => index + 1), "the ledger's numbers run 1, 2, 3…");
  }
}

const MOVES = {
  type: (night, name, value) => night.type(name, value),
  save: (night) => night.save(),
  clear: (night) => night.clear(),
  decide: (night, choice, pick) => night.decide(choice, pick),
  send: (night) => night.send(),
  arrive: (night) => night.arrive(),
  loseRequest: (night, pick) => night.loseRequest(pick),
  reply: (night, pick) => night.reply(pick),
  duplicate: (night, pick) => night.reply(pick, { keep: true }),
  loseReply: (night, pick) => night.reply(pick, { lose: true }),
  serverError: (night, pick) => night.reply(pick, { failure: "server" }),
  retry: (night) => night.dispatch({ type: "retry" }),
  offline: (night) => night.network(false),
  online: (night) => night.network(true),
  pushed: (night) => night.pushed(),
  pushedFacts: (night) => night.pushedFacts(),
  reseat: (night) => night.server.reseat(),
  // Another screen saves a coup and the push says so before the next coup's bank is known here.
  otherPushed: (night) => { night.otherDevice(); night.pushedFacts(); },
  reload: (night) => night.reload(),
  otherDevice: (night) => night.otherDevice(),
};

function play(State, moves) {
  const night = new Night(State);
  for (const [name, ...args] of moves) {
    MOVES[name](night, ...args);
    night.check();
  }
  night.drain();
  return night;
}

module.exports = { play, Night, MOVES, BOXES, REFUSED_STAKE, prefillOf };
