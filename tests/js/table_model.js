// A table night as a model: the page's state (static/js/table_state.js), a server that keeps the
// ledger as ledger.hands.services.record_hand does, and a network that delays, loses, duplicates and
// reorders. ``play`` runs a list of moves — the host's taps, the network's doings, reloads, a
// second device — and checks after each move that nothing the host tapped was lost, moved or
// applied twice; ``drain`` then brings everything home and checks the ledger.
"use strict";

const assert = require("node:assert/strict");

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const VALUES = Object.fromEntries(RANKS.map((rank, index) => [rank, index < 9 ? index + 1 : 0]));

// Punto Banco's drawing rules, written out here from the rulebook (not from the code under
// test): Player draws on 0–5; Banker's draw depends on Player's third card.
function bankerDraws(total, third) {
  if (third === null) return total <= 5;
  if (total <= 2) return true;
  if (total === 3) return third !== 8;
  if (total === 4) return third >= 2 && third <= 7;
  if (total === 5) return third >= 4 && third <= 7;
  if (total === 6) return third === 6 || third === 7;
  return false;
}

const TEXTS = {
  start: "start", next: "next {card}", cards: ["P1", "B1", "P2", "B2"],
  player_draws: "P draws", banker_draws: "B draws", out_of_order: "out of order",
  checking: "checking", offline: "offline", pick_a_box: "pick a box", no_result: "no result",
  wins: "{winner} wins {high}-{low}", wins_natural: "{winner} wins {high}-{low} natural",
  tie: "tie {high}", tie_natural: "tie {high} natural", player: "Player", banker: "Banker",
  waiting: "Hand {number}: waiting", seat_waiting: "Seat {seat}: waiting",
  undo_waiting: "Undo {number}: waiting", queued: "kept {number}", sending: "sending {number}",
  undo: "Undo hand {number}", undo_moved: "moved", undoing: "undoing {number}",
  undo_on_its_way: "on its way {number}", not_an_amount: "“{text}” is no amount", waits_for_held: "waits {number}", server_failed: "server failed", undone_here: "undone here {number}",
  undo_parked: "parked {number}", save_after_undo: "after undo {number}", undo_after_held: "decide first", held_refused: "{number} refused: {reason}",
  held_undone: "{number} undone", held_resend: "save {number}",
  held_renumber: "renumber {was} as {number}", held_edit: "edit {number}", held_discard: "discard",
  choose_each_seat: "choose for each seat", seat_changed: "seat {seat}: {bets} by {was}, now {now}",
  empty_seat: "empty",
};

const RULES = {
  values: VALUES,
  per_rank: 4, // one deck: a shoe that runs out of a rank refuses the next copy
  player_draws: Array.from({ length: 10 }, (_, total) => total <= 5),
  banker_draws: Object.fromEntries([
    ["none", Array.from({ length: 10 }, (_, total) => bankerDraws(total, null))],
    ...Array.from({ length: 10 }, (_, third) =>
      [String(third), Array.from({ length: 10 }, (__, total) => bankerDraws(total, third))]),
  ]),
  texts: TEXTS,
};

const STAKES = ["stake_1_player", "stake_1_banker", "stake_2_banker", "stake_3_tie"];
const GUESTS = ["11", "12", "13", "14"];
const REFUSED_STAKE = "13"; // the server refuses a stake of 13 (a rule the page cannot check)
const REFUSED_GUEST = "14"; // and will not seat guest 14 (over the credit limit, say)

// What a hand is, for the ledger: its bets, its cards as placed, its result and pairs.
function content(State, entry) {
  const cards = State.cardsOf(entry, RULES);
  return JSON.stringify({
    stakes: sortedObject(State.stakesOf(entry)), player: cards.player, banker: cards.banker,
    result: entry.result, pairs: sortedObject(Object.fromEntries(
      Object.entries(entry.pairs).filter(([, on]) => on))),
  });
}

function sortedObject(object) {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)));
}

// The server's side, as ledger.hands.services does it: the next number only, once per idempotency key
// (the same key with other content is refused), the seats the page saw, its own checks.
class Server {
  constructor(State) {
    this.State = State;
    this.hands = []; // {number, key, origin, phone, seq, content, entry, guests}
    this.seats = { 1: "11", 2: "12" };
    this.undos = new Map(); // an undo's key → its answer, given again to the same key
    this.at = 1; // the stamp of the facts: moves on with every write
    this.history = [this.facts()]; // the facts after each write (stale pages are drawn from it)
    this.streams = []; // each phone's stream: the pushes not yet delivered
    this.phones = [];
    this.seatLog = []; // the seat changes made, in order: [phone, seat, guest]
  }

  get next() { return this.hands.length + 1; }
  get last() { return this.hands.length; }

  facts() {
    const last = this.hands[this.hands.length - 1];
    return { next: this.next, last: this.last, seating: this.State.seatingToken(this.seats),
      repeat: last ? this.State.stakesOf(last.entry) : {}, at: this.at };
  }

  // A write committed: every phone's stream gets the shoe's facts (as shoebook.base.live
  // announces them: no Repeat stakes).
  wrote() {
    this.at += 1;
    const facts = this.facts();
    this.history.push(facts);
    const { repeat, ...pushed } = facts;
    for (const stream of this.streams) stream.push(pushed);
  }

  answer(request, phone) {
    const op = request.op;
    if (op.kind === "hand") return this.recordHand(op, phone);
    if (op.kind === "seat") return this.seat(op, phone);
    return this.undo(op);
  }

  recordHand(op, phone) {
    const made = content(this.State, op.entry);
    const repeat = this.hands.find((hand) => hand.key === op.key);
    if (repeat) {
      if (repeat.content !== made) { // the digest is of the hand's content, not its number
        return { refused: true, reason: "key reused", ...this.facts() };
      }
      return { saved: true, notice: `saved ${repeat.number}`, ...this.facts() };
    }
    if (op.number !== this.next) {
      const there = this.hands[op.number - 1];
      const taken = there ? { number: there.number, text: there.content } : undefined;
      return { refused: true, reason: taken ? "taken" : "out of sequence", taken, ...this.facts() };
    }
    // As ledger.hands.services._check_seen_seating: each seat with a bet must still hold the
    // guest the page saw there; the refusal says, per seat, the bets, who made them, who is there.
    const seen = this.State.readSeating(op.fields.seating);
    const seats = [];
    for (const seat of betSeats(this.State, op.entry)) {
      if ((this.seats[seat] || null) === (seen[seat] || null)) continue;
      const guest = (id) => (id ? { id, name: `guest ${id}` } : null);
      const bets = Object.entries(this.State.stakesOf(op.entry))
        .filter(([name]) => seatOf(name) === seat)
        .map(([name, stake]) => ({ name, kind: name.split("_")[2], stake }));
      seats.push({ seat: Number(seat), bets, was: guest(seen[seat]), now: guest(this.seats[seat]) });
    }
    if (seats.length) return { refused: true, reason: "seats changed", seats, ...this.facts() };
    if (Object.entries(op.fields).some(([name, value]) => name.startsWith("stake_") && value === REFUSED_STAKE)) {
      return { refused: true, reason: "bad stake", ...this.facts() };
    }
    assert.equal(op.fields.number, String(op.number), "a hand's form carries its own number");
    const guests = Object.fromEntries(betSeats(this.State, op.entry)
      .map((seat) => [seat, this.seats[seat] || null]));
    this.hands.push({ number: op.number, key: op.key, origin: op.origin, seq: op.seq, phone,
      content: made, entry: op.entry, guests, at: this.at + 1 });
    this.wrote();
    return { saved: true, notice: `saved ${op.number}`, ...this.facts() };
  }

  seat(op, phone) {
    if (op.guest === REFUSED_GUEST) return { refused: true, reason: "no", ...this.facts() };
    this.seats = this.State.seatApplied(this.seats, String(op.seat), op.guest);
    this.seatLog.push([phone, op.seat, op.guest]);
    this.wrote();
    return { saved: true, notice: `seat ${op.seat}`, ...this.facts() };
  }

  undo(op) {
    if (this.undos.has(op.key)) return JSON.parse(JSON.stringify(this.undos.get(op.key)));
    const last = this.hands[this.hands.length - 1];
    if (!last || last.number !== op.number) return { refused: true, reason: "not last", ...this.facts() };
    this.hands.pop();
    this.wrote();
    // The page reads the undone hand back from the server's form: its origin is not in it.
    const entry = { ...last.entry, origin: undefined };
    const answer = { saved: true, notice: `undone ${op.number}`, entry, ...this.facts() };
    this.undos.set(op.key, answer);
    return { ...answer, undone: last };
  }

  // A device with no stream and no model of its own logs the next hand.
  otherDevice() {
    const entry = { stakes: {}, taps: [], typed: null, result: "banker", pairs: {}, problem: "" };
    this.hands.push({ number: this.next, key: `other-${this.next}`, origin: "other", phone: -1,
      content: content(this.State, entry), entry, guests: {}, at: this.at + 1 });
    this.wrote();
  }
}

const seatOf = (name) => name.split("_")[1];
const betSeats = (State, entry) => [...new Set(Object.keys(State.stakesOf(entry)).map(seatOf))];

// One phone at the table: the host's side and the network between, with the checks. Two phones
// share one server; each has its own stream of pushes, which the world delivers, delays, drops
// or duplicates.
class Phone {
  constructor(State, server, index) {
    this.State = State;
    this.server = server;
    this.index = index;
    this.keys = 0;
    this.requests = 0;
    this.onTheWay = []; // requests sent, not yet at the server: {request, op}
    this.answers = []; // answers the server gave, not yet at the page: {request, outcome}
    // origin → {content, where: "device" | "undone" | "discarded", number, guests, renumbered}:
    // the hand as tapped, the number the host saw at Save, who the host saw at each seat with a
    // bet (changed only by the host's choice per seat), whether the host chose another number.
    this.fates = new Map();
    this.stream = [];
    server.streams.push(this.stream);
    server.phones[index] = this;
    this.copy = server.facts(); // the page as the service worker kept it
    this.knownAt = this.copy.at; // the newest facts of the server this phone was given
    this.state = State.start(this.page(), null);
    this.meant = this.entryContent(); // what the host has entered, by their own taps
    this.seatsMeant = []; // the seat changes tapped, in order
    this.undosAnswered = new Set(); // the undos whose hand came back to the device
  }

  key() { return `key-${this.index}-${++this.keys}`; }

  page(facts = this.server.facts()) {
    return { rules: RULES, next: facts.next, last: facts.last, seating: facts.seating,
      seatCount: 7, repeat: facts.repeat, key: this.key(), at: facts.at };
  }

  entryContent() { return content(this.State, this.state.entry); }

  // Every event comes with a new idempotency key, as the page gives one, for what needs one.
  dispatch(event) { this.state = this.State.step(this.state, { key: this.key(), ...event }); }

  // --- the host ---

  tap(rank) {
    const before = this.state.entry.taps;
    const wanted = rank ? [...before, rank] : before.slice(0, -1);
    const placeable = !this.state.entry.typed &&
      this.State.readTaps(wanted, RULES).taken === wanted.length;
    this.dispatch(rank ? { type: "tap", rank } : { type: "tap", rank: null });
    if (placeable) assert.deepEqual(this.state.entry.taps, wanted, "a tap lands where tapped");
    this.meant = this.entryContent();
  }

  stake(name, text) {
    this.dispatch({ type: "stake", name, text });
    assert.equal(this.state.entry.stakes[name], text);
    this.meant = this.entryContent();
  }

  chip(name, value) {
    this.dispatch({ type: "choose", name });
    const before = Number(this.state.entry.stakes[name] || 0);
    this.dispatch({ type: "chip", value });
    assert.equal(Number(this.state.entry.stakes[name]), before + value, "a chip adds once");
    this.meant = this.entryContent();
  }

  result(value) {
    this.dispatch({ type: "result", value });
    this.meant = this.entryContent();
  }

  pair(side) {
    this.dispatch({ type: "pair", side, on: !this.state.entry.pairs[side] });
    this.meant = this.entryContent();
  }

  repeat() {
    this.dispatch({ type: "repeat" });
    this.meant = this.entryContent();
  }

  clear() {
    const parked = this.state.parked;
    const held = this.state.held;
    if (this.State.isEmpty(this.state.entry) && !parked && held.length) { // the refused hand goes
      const item = held[held.length - 1];
      this.dispatch({ type: "clear" });
      assert.equal(this.state.held.length, held.length - 1, "Clear lets the refused hand go");
      if (this.fates.has(item.origin)) this.fates.get(item.origin).where = "discarded";
      this.meant = this.entryContent();
      return;
    }
    this.dispatch({ type: "clear" });
    const expected = parked ? content(this.State, parked) : content(this.State, this.State.emptyEntry(""));
    assert.equal(this.entryContent(), expected, "Clear empties the entry, or brings back the parked one");
    this.meant = this.entryContent();
  }

  // Who the host sees in each seat (the seats sheet draws seatsNow).
  seen() { return { ...this.State.seatsNow(this.state) }; }

  save() {
    const number = this.State.entryNumber(this.state);
    const saved = this.entryContent();
    const entry = this.state.entry;
    const fate = entry.origin && this.fates.get(entry.origin);
    // A hand taken back keeps the seats it was saved with; a new one, the seats shown now.
    const seats = fate ? fate.seats : this.seen();
    const before = new Set(this.state.queue.map((op) => op.id));
    const parked = this.state.parked;
    this.dispatch({ type: "save", key: this.key() });
    const added = this.state.queue.filter((op) => !before.has(op.id));
    if (!added.length) { // refused here: nothing in it may change
      assert.equal(this.entryContent(), saved);
      assert.equal(this.State.entryNumber(this.state), number);
      return;
    }
    const [op] = added;
    assert.equal(op.number, number, "saved under the number shown");
    assert.equal(content(this.State, op.entry), saved, "the hand saved is the hand entered");
    this.fates.set(op.origin, { content: saved, where: "device", number, seats, entry: op.entry,
      renumbered: Boolean(fate && fate.renumbered), seq: op.seq,
      // A hand undone on the server comes back with its number: it may be taken by then.
      knownAt: fate ? fate.knownAt : entry.seq ? -Infinity : this.knownAt });
    const later = [...this.state.queue, ...this.state.held].some((item) => item.seq > op.seq);
    const inPlace = Boolean(op.entry && later); // saved back in its place, before others
    if (!parked && !inPlace) {
      assert.ok(this.State.entryNumber(this.state) > number, "the entry moves on at once");
    }
    const next = parked ? content(this.State, parked) : content(this.State, this.State.emptyEntry(""));
    assert.equal(this.entryContent(), next, "the next hand starts empty (or as it was parked)");
    this.meant = this.entryContent();
  }

  seat(seat, guest) {
    this.dispatch({ type: "seat", seat, guest });
    this.seatsMeant.push([seat, guest]);
    assert.equal(this.State.seatsNow(this.state)[seat], guest || undefined, "seated at once, here");
  }

  undo() {
    const target = this.State.undoTarget(this.state);
    if (!target) return;
    const hands = this.State.handsWaiting(this.state);
    const waiting = hands[hands.length - 1];
    const inFlight = waiting && waiting.tried;
    const blocked = (this.state.parked && !this.State.isEmpty(this.state.entry)) ||
      this.state.held.length > 0;
    const before = this.entryContent();
    this.dispatch({ type: "undo", number: target });
    if (waiting && !inFlight && !blocked) {
      this.fates.get(waiting.origin).where = "undone";
      assert.equal(this.entryContent(), content(this.State, waiting.entry), "undo brings the hand back");
    } else {
      assert.equal(this.entryContent(), before, "an undo asked of the server leaves the entry");
    }
    this.meant = this.entryContent();
  }

  // The numbers of the hands on this device, by origin.
  numbers() {
    const s = this.state;
    const all = [...s.queue.filter((op) => op.kind === "hand"), ...s.held, s.entry, s.parked || {}];
    return new Map(all.filter((one) => one.origin && one.number).map((one) => [one.origin, one.number]));
  }

  // The hands saved here after ``seq`` that the host's choice (a renumber, a discard) moved on
  // or back: they follow that hand.
  renumberedAfter(seq, before) {
    const after = this.numbers();
    for (const [origin, fate] of this.fates) {
      if (fate.seq > seq && after.has(origin) && after.get(origin) !== before.get(origin)) {
        Object.assign(fate, { renumbered: true, knownAt: this.knownAt });
      }
    }
  }

  decide(choice, pick) {
    if (!this.state.held.length) return;
    const index = pick % this.state.held.length;
    const item = this.state.held[index];
    const numbers = this.numbers();
    if (choice === "resend" || choice === "renumber") {
      const undoing = this.state.queue.some((op) => op.kind === "undo");
      const line = this.State.heldLines(this.state)[index];
      const renumber = choice === "renumber" || !line.resend;
      // Each seat whose guest changed: the bet goes to the guest there now, or is dropped.
      let fixed = item.entry;
      for (const [at, seat] of (item.seats || []).entries()) {
        const move = (pick + at) % 3 !== 0;
        this.dispatch({ type: "seatChoice", index, seat: seat.seat, choice: move ? "move" : "drop" });
        if (!move) {
          const stakes = { ...fixed.stakes };
          for (const bet of seat.bets) delete stakes[bet.name];
          fixed = { ...fixed, stakes };
        }
      }
      this.dispatch({ type: "resend", index, renumber });
      const sent = this.state.queue.some((op) => op.origin === item.origin);
      assert.equal(sent, !undoing, "sent again (after the undo on its way)");
      if (!sent) return;
      const fate = this.fates.get(item.origin) || { number: item.number, seats: this.seen(),
        seq: item.seq, knownAt: this.knownAt };
      this.fates.set(item.origin, fate); // a hand undone elsewhere, sent again
      fate.where = "device";
      fate.content = content(this.State, fixed);
      fate.entry = fixed;
      for (const seat of item.seats || []) { // moved: the bet is the guest's there now
        if (seat.now) fate.seats = { ...fate.seats, [seat.seat]: seat.now.id };
        else delete fate.seats[seat.seat];
      }
      if (renumber) {
        Object.assign(fate, { renumbered: true, knownAt: this.knownAt });
        this.renumberedAfter(item.seq, numbers);
      }
    } else if (choice === "edit") {
      const before = this.state.held.length;
      this.dispatch({ type: "edit", index, key: this.key() });
      if (this.state.held.length === before) return;
      assert.equal(this.entryContent(), content(this.State, item.entry), "edited as it was");
      if (this.fates.has(item.origin)) this.fates.get(item.origin).where = "undone";
    } else {
      this.dispatch({ type: "discard", index });
      if (this.fates.has(item.origin)) this.fates.get(item.origin).where = "discarded";
      this.renumberedAfter(item.seq, numbers);
    }
    this.meant = this.entryContent();
  }

  // --- the network and the world ---

  send() {
    const op = this.State.due(this.state);
    if (!op) return;
    const request = ++this.requests;
    this.dispatch({ type: "sent", id: op.id, request });
    this.onTheWay.push({ request, op: JSON.parse(JSON.stringify(op)) });
  }

  // A request reaches the server. Requests arrive in the order sent (one connection, one at a
  // time; a seat change carries no idempotency key, so a stale copy overtaking its resend could
  // seat twice — see docs/operations.md, "Limits"); answers may come in any order, late or twice.
  arrive() {
    if (!this.onTheWay.length) return;
    const [sent] = this.onTheWay.splice(0, 1);
    this.serve(sent);
  }

  serve(sent) {
    const outcome = this.server.answer(sent, this.index);
    const owner = outcome.undone && this.server.phones[outcome.undone.phone];
    if (owner && owner.fates.has(outcome.undone.origin)) { // taken back, by whichever phone
      // Undone by the other phone while its own phone may still send it again (an answer
      // lost): the server does not remember an undone hand's key, so it may be recorded again.
      const again = owner !== this && owner.state.queue.some((op) => op.origin === outcome.undone.origin);
      owner.fates.get(outcome.undone.origin).where = again ? "either" : "undone";
    }
    delete outcome.undone;
    if (outcome.taken) {
      const there = this.server.hands[outcome.taken.number - 1];
      assert.notEqual(there.phone, this.index,
        "a hand is refused as taken only by another device's hand, never this one's");
      // Phones that take turns never need a Renumber: a hand is refused as taken only by a hand
      // this phone had not heard of (by an answer, a push, a page) when the host saved it.
      const fate = this.fates.get(sent.op.origin);
      if (fate) assert.ok(there.at > fate.knownAt, "a hand is numbered after every hand this phone knew of");
    }
    this.answers.push({ request: sent.request, outcome });
  }

  loseRequest(pick) { // the request never arrives: the page sees a network error
    if (!this.onTheWay.length) return;
    const [sent] = this.onTheWay.splice(pick % this.onTheWay.length, 1);
    this.answer({ request: sent.request, outcome: { failed: "network" } });
  }

  // An answer reaches the page: as given, kept to come again (``keep``), or in its place a
  // network error (``lose``) or a server error (``failure``: the request reached the server).
  reply(pick, { keep = false, lose = false, failure = "" } = {}) {
    if (!this.answers.length) return;
    const at = pick % this.answers.length;
    const answer = keep ? this.answers[at] : this.answers.splice(at, 1)[0];
    if (lose || failure) {
      this.answer({ request: answer.request, outcome: { failed: failure || "network" } });
    } else {
      this.answer(answer);
    }
  }

  answer({ request, outcome }) {
    const before = this.entryContent();
    const undo = this.state.flight && this.state.flight.request === request &&
      this.state.queue.find((op) => op.id === this.state.flight.id);
    this.dispatch({ type: "reply", request, outcome: JSON.parse(JSON.stringify(outcome)) });
    if (undo && outcome.at) this.knownAt = Math.max(this.knownAt, outcome.at);
    if (undo && undo.kind === "undo" && !outcome.failed && this.server.undos.has(undo.key)) {
      assert.ok(outcome.saved, "an undo the server made is answered as made, however often sent");
      this.undosAnswered.add(undo.key);
      const back = content(this.State, outcome.entry);
      assert.ok(this.entryContent() === back || this.state.held.some((item) =>
        content(this.State, item.entry) === back), "the undone hand is on the device");
      this.meant = this.entryContent();
      return;
    }
    assert.equal(this.entryContent(), before, "an answer never changes the entry");
    if (undo && undo.kind === "hand" && outcome.refused) {
      assert.ok(this.state.held.some((item) => item.origin === undo.origin),
        "a refused hand is still on the device");
    }
  }

  reading(taps) { // the server's words on some cards, late or not
    const before = this.entryContent();
    this.dispatch({ type: "reading", taps, text: "server words", problem: true });
    assert.equal(this.entryContent(), before, "the server's reading never moves a card");
  }

  network(online) { this.dispatch({ type: online ? "online" : "offline" }); }

  // A reload: online, the page as the server draws it now, or (``stale``) drawn before the last
  // writes (a reload that overtook a save, a network-first page the worker answered from its
  // copy); offline, the copy the service worker kept.
  reload(stale = 0) {
    const kept = JSON.parse(JSON.stringify(this.State.kept(this.state)));
    const before = this.entryContent();
    let facts = this.server.facts();
    if (!this.state.online) facts = this.copy;
    else if (stale) facts = this.server.history[Math.max(0, this.server.history.length - 1 - stale)];
    else this.copy = facts;
    this.state = this.State.start({ ...this.page(facts), online: this.state.online }, kept);
    this.knownAt = Math.max(this.knownAt, facts.at);
    assert.equal(this.entryContent(), before, "a reload keeps the entry");
  }

  // The stream: the first push not yet delivered reaches the page (``keep``: it comes again),
  // or is lost; a stream that opens again says "anything may have changed" (the page asks).
  push({ keep = false, drop = false } = {}) {
    if (!this.stream.length) return;
    const facts = keep ? this.stream[0] : this.stream.shift();
    if (drop) return;
    this.pushed(facts);
  }

  pushed(facts) {
    const before = this.entryContent();
    const queue = this.state.queue;
    this.dispatch({ type: "pushed", ...JSON.parse(JSON.stringify(facts)) });
    this.knownAt = Math.max(this.knownAt, facts.at);
    assert.equal(this.entryContent(), before, "a push never changes the entry");
    assert.equal(this.state.queue, queue, "a push never changes the outbox");
  }

  resync() { // the stream opened again: the page asks for the table's facts afresh
    this.stream.splice(0);
    const { repeat, ...facts } = this.server.facts();
    this.pushed(facts);
  }

  otherDevice() { this.server.otherDevice(); }

  check() {
    assert.equal(this.entryContent(), this.meant, "the entry is what the host entered");
    const mine = this.server.hands.filter((hand) => hand.phone === this.index);
    const origins = mine.map((hand) => hand.origin);
    const seqs = mine.map((hand) => hand.seq);
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), "hands are recorded in the order saved");
    assert.equal(new Set(origins).size, origins.length, "each hand is recorded once");
    for (const hand of mine) {
      const fate = this.fates.get(hand.origin);
      assert.equal(hand.content, fate.content, `hand ${hand.number} is recorded as it was tapped`);
      const guests = Object.fromEntries(betSeats(this.State, fate.entry)
        .map((seat) => [seat, fate.seats[seat] || null]));
      assert.deepEqual(hand.guests, guests,
        `hand ${hand.number}'s bets are on the guests the host saw (or chose)`);
      if (!fate.renumbered) {
        assert.equal(hand.number, fate.number, `hand ${hand.number} is stored under the number shown`);
      }
    }
    // In order of first saving, after the requests that left (which keep their place).
    const hands = this.State.handsWaiting(this.state);
    const order = hands.filter((op) => !op.tried).map((op) => op.seq);
    assert.ok(hands.every((op, index) => !op.tried || hands.slice(0, index).every((o) => o.tried)),
      "the requests that left come first");
    assert.deepEqual(order, [...order].sort((a, b) => a - b), "the outbox keeps hands in order");
    const numbers = hands.map((op) => op.number);
    assert.deepEqual(numbers, [...numbers].sort((a, b) => a - b), "the outbox keeps deal order");
    assert.equal(new Set(numbers).size, numbers.length, "no two hands waiting have one number");
    const lines = this.State.waitingLines(this.state).filter((line) => line.id.startsWith("hand"))
      .map((line) => line.text);
    assert.deepEqual(lines, numbers.map((number) => `Hand ${number}: waiting`),
      "the outbox shows each hand under the number it will have");
  }

  // One round of bringing everything home; true once nothing is left.
  drainRound() {
    this.network(true);
    this.onTheWay.splice(0).forEach((sent) => this.serve(sent));
    if (this.state.flight) {
      const mine = this.answers.find((answer) => answer.request === this.state.flight.request);
      if (!mine) this.answer({ request: this.state.flight.request, outcome: { failed: "network" } });
    }
    this.answers.splice(0).forEach((answer) => this.answer(answer));
    while (this.stream.length) this.push();
    this.network(true);
    this.dispatch({ type: "retry" });
    if (this.state.entry.seq) { // a hand being fixed: saved as it stands, or let go
      this.save();
      if (this.state.entry.seq) this.clear();
    }
    if (this.state.held.length) {
      const item = this.state.held[0];
      this.decide(item.reason === "bad stake" ? "discard" : item.taken ? "renumber" : "resend", 0);
    }
    this.send();
    return !this.state.queue.length && !this.state.held.length && !this.state.flight;
  }

  drained() {
    assert.equal(this.state.queue.length, 0, "the outbox empties");
    for (const key of this.server.undos.keys()) {
      if (key.startsWith(`key-${this.index}-`)) {
        assert.ok(this.undosAnswered.has(key), "every hand the server took back came back here");
      }
    }
    assert.equal(this.state.held.length, 0);
    this.check();
    const recorded = new Set(this.server.hands.filter((hand) => hand.phone === this.index)
      .map((hand) => hand.origin));
    for (const [origin, fate] of this.fates) {
      if (fate.where === "device") assert.ok(recorded.has(origin), `hand ${origin} reached the ledger`);
      else if (fate.where !== "either") assert.ok(!recorded.has(origin), `hand ${origin} was taken back and stays out`);
    }
    // Every seat change tapped here was made, in order, save those the server refused.
    const made = this.server.seatLog.filter(([phone]) => phone === this.index)
      .map(([, seat, guest]) => [seat, guest]);
    const meant = this.seatsMeant.filter(([, guest]) => guest !== REFUSED_GUEST);
    let at = 0;
    for (const change of made) if (at < meant.length && change[0] === meant[at][0] && change[1] === meant[at][1]) at++;
    assert.equal(at, meant.length, "every seat tapped was taken, in order");
  }
}

// The night: one server, this phone (the moves' own) and a second phone at the same table.
class Night extends Phone {
  constructor(State) {
    super(State, new Server(State), 0);
    this.other = new Phone(State, this.server, 1);
    this.phones = [this, this.other];
  }

  check() { this.phones.forEach((phone) => Phone.prototype.check.call(phone)); }

  // Everything home: online, every request answered, every held hand sent again.
  drain() {
    for (let round = 0; round < 500; round++) {
      const done = this.phones.map((phone) => Phone.prototype.drainRound.call(phone));
      if (done.every(Boolean)) break;
    }
    this.phones.forEach((phone) => phone.drained());
    const numbers = this.server.hands.map((hand) => hand.number);
    assert.deepEqual(numbers, numbers.map((_, index) => index + 1), "the ledger's numbers run 1, 2, 3…");
    let seats = { 1: "11", 2: "12" };
    for (const [, seat, guest] of this.server.seatLog) seats = this.State.seatApplied(seats, String(seat), guest);
    assert.deepEqual(this.server.seats, seats, "the seats are the changes made, in order");
  }
}

// A move: [name, ...arguments], played on a Night (``other``: on its second phone).
const MOVES = {
  tap: (night, rank) => night.tap(rank),
  back: (night) => night.tap(null),
  stake: (night, name, text) => night.stake(name, text),
  chip: (night, name, value) => night.chip(name, value),
  result: (night, value) => night.result(value),
  pair: (night, side) => night.pair(side),
  repeat: (night) => night.repeat(),
  clear: (night) => night.clear(),
  save: (night) => night.save(),
  seat: (night, seat, guest) => night.seat(seat, guest),
  undo: (night) => night.undo(),
  decide: (night, choice, pick) => night.decide(choice, pick),
  send: (night) => night.send(),
  arrive: (night, pick) => night.arrive(pick),
  loseRequest: (night, pick) => night.loseRequest(pick),
  reply: (night, pick) => night.reply(pick),
  duplicate: (night, pick) => night.reply(pick, { keep: true }),
  loseReply: (night, pick) => night.reply(pick, { lose: true }),
  reading: (night, taps) => night.reading(taps),
  offline: (night) => night.network(false),
  online: (night) => night.network(true),
  reload: (night) => night.reload(),
  staleReload: (night, pick) => night.reload(1 + (pick % 4)),
  otherDevice: (night) => night.otherDevice(),
  serverError: (night, pick) => night.reply(pick, { failure: "server" }),
  retry: (night) => night.dispatch({ type: "retry" }),
  push: (night) => night.push(),
  pushTwice: (night) => night.push({ keep: true }),
  dropPush: (night) => night.push({ drop: true }),
  resync: (night) => night.resync(),
  other: (night, [name, ...args]) => MOVES[name](night.other, ...args),
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

module.exports = { play, Night, RULES, RANKS, STAKES, GUESTS, REFUSED_STAKE, MOVES };
