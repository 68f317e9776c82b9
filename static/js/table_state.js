// The live table's state, as plain functions: no DOM, no network, no clock. The page
// (static/js/table.js) feeds every tap and every answer in as an event, and draws what this
// returns; tests/js/ drives the same functions with thousands of random interleavings.
//
// The one owner of the entry. Only the host's own taps change the hand being entered: pressing
// Save moves the entry on at once, here, and puts the hand in the outbox. The outbox sends one
// request at a time, in order (hands, seat changes, undos alike, online or offline), and an
// answer is matched to the request it answers by its request number: a late, duplicated or
// unknown answer changes nothing. A hand refused when sent is held on the device, as an entry
// of its own, and the outbox waits until the host renumbers, edits or discards it.
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ShoebookTableState = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // --- the cards: the rules core's table, sent with the page -------------------------------

  function total(cards, rules) {
    return cards.reduce((sum, rank) => sum + rules.values[rank], 0) % 10;
  }

  function cardsDue(player, banker, rules) {
    const playerTotal = total(player.slice(0, 2), rules);
    const bankerTotal = total(banker.slice(0, 2), rules);
    if (playerTotal >= 8 || bankerTotal >= 8) return [false, false];
    if (rules.player_draws[playerTotal] && player.length < 3) return [true, true];
    const third = player.length === 3 ? String(rules.values[player[2]]) : "none";
    return [false, rules.banker_draws[third][bankerTotal] && banker.length < 3];
  }

  // Ranks in deal order (P1 B1 P2 B2, then the third cards) placed as games.entry.read_taps
  // does; ``taken`` counts the taps read before the first that cannot come next.
  function readTaps(taps, rules) {
    const player = [];
    const banker = [];
    const copies = {};
    let due = [true, true];
    for (let index = 0; index < taps.length; index++) {
      const rank = taps[index];
      let toPlayer;
      if (!(rank in rules.values)) return { player, banker, due, taken: index };
      if (player.length < 2 || banker.length < 2) toPlayer = player.length <= banker.length;
      else if (due[0] || due[1]) toPlayer = due[0];
      else return { player, banker, due, taken: index };
      copies[rank] = (copies[rank] || 0) + 1;
      if (copies[rank] > rules.per_rank) return { player, banker, due, taken: index };
      (toPlayer ? player : banker).push(rank);
      if (player.length >= 2 && banker.length >= 2) due = cardsDue(player, banker, rules);
    }
    return { player, banker, due, taken: taps.length };
  }

  const fill = (template, values) =>
    template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));

  // How the tapped cards stand, in the page's words: the next card, a draw, or the outcome.
  function cardStatus(reading, rules) {
    const T = rules.texts;
    const { player, banker, due } = reading;
    if (!player.length && !banker.length) return { text: T.start, complete: false };
    const firstFour = [[player, 0], [banker, 0], [player, 1], [banker, 1]];
    for (let index = 0; index < 4; index++) {
      const [side, position] = firstFour[index];
      if (side.length <= position) {
        return { text: fill(T.next, { card: T.cards[index] }), complete: false };
      }
    }
    if (due[0]) return { text: T.player_draws, complete: false };
    if (due[1]) return { text: T.banker_draws, complete: false };
    const playerTotal = total(player, rules);
    const bankerTotal = total(banker, rules);
    const natural = total(player.slice(0, 2), rules) >= 8 || total(banker.slice(0, 2), rules) >= 8;
    const high = Math.max(playerTotal, bankerTotal);
    const low = Math.min(playerTotal, bankerTotal);
    if (playerTotal === bankerTotal) {
      return { text: fill(natural ? T.tie_natural : T.tie, { high, low }), complete: true };
    }
    const winner = playerTotal > bankerTotal ? T.player : T.banker;
    return { text: fill(natural ? T.wins_natural : T.wins, { winner, high, low }), complete: true };
  }

  const SUIT_MARKS = /[SHDC♠♤♥♡♦♢♣♧]$/;

  // Typed card boxes as taps, when they read in deal order; null otherwise.
  function typedAsTaps(cards, rules) {
    const side = (text) => text.trim().toUpperCase().split(/[\s,]+/).filter(Boolean)
      .map((card) => card.replace(SUIT_MARKS, "").replace(/^T$/, "10"));
    const player = side(cards.player);
    const banker = side(cards.banker);
    const order = [];
    for (let index = 0; index < 2; index++) {
      if (player[index]) order.push(player[index]);
      if (banker[index]) order.push(banker[index]);
    }
    order.push(...player.slice(2), ...banker.slice(2));
    const replay = readTaps(order, rules);
    const same = replay.taken === order.length &&
      replay.player.join() === player.join() && replay.banker.join() === banker.join();
    return same ? order : null;
  }

  // --- an entry: what the host has entered for one hand ------------------------------------

  // An entry has no number of its own: where it stands is worked out (``entryNumber``).
  function emptyEntry(key) {
    return { key, stakes: {}, taps: [], typed: null, result: "", pairs: {}, problem: "" };
  }

  function isEmpty(entry) {
    if (entry.fields) return !Object.values(entry.fields).some(Boolean); // a coup
    return !Object.values(entry.stakes).some(Boolean) && !entry.taps.length && !entry.typed &&
      !entry.result && !Object.values(entry.pairs).some(Boolean);
  }

  // The cards as the boxes show them: tapped cards as the rules place them, or as typed.
  function cardsOf(entry, rules) {
    if (entry.typed) return { player: entry.typed.player, banker: entry.typed.banker };
    const reading = readTaps(entry.taps, rules);
    return { player: reading.player.join(" "), banker: reading.banker.join(" ") };
  }

  // The form's fields for a hand, as the server's HandForm reads them (its number is added when
  // it is sent: ``due``).
  function fieldsOf(entry, rules, seating) {
    if (entry.fields) return coupFieldsOf(entry, seating);
    const cards = cardsOf(entry, rules);
    const fields = {
      idempotency_key: entry.key,
      seating,
      taps: entry.typed ? "" : entry.taps.join(" "),
      player_cards: cards.player,
      banker_cards: cards.banker,
      result: entry.result,
    };
    for (const side of ["player_pair", "banker_pair"]) if (entry.pairs[side]) fields[side] = "on";
    for (const [name, text] of Object.entries(entry.stakes)) if (text) fields[name] = text;
    return fields;
  }

  function stakesOf(entry) {
    const stakes = {};
    for (const [name, text] of Object.entries(entry.stakes)) if (text) stakes[name] = text;
    return stakes;
  }

  function cents(text) {
    const plain = text.replace(/,/g, "").replace(/[０-９]/g, (d) => String(d.charCodeAt(0) - 0xff10));
    if (plain === "") return 0;
    const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(plain);
    return match ? Number(match[1]) * 100 + Number((match[2] || "0").padEnd(2, "0")) : null;
  }

  // What a stake box keeps of what was typed: full-width digits and points (a Japanese
  // keyboard's "１２．５") read as ASCII, spaces and invisible characters dropped. Anything else
  // stays as typed, for Save to refuse: "1e30" is not quietly 130.
  const cleanStake = (text) => text
    .replace(/[０-９．，]/g, (wide) => String.fromCharCode(wide.charCodeAt(0) - 0xfee0))
    .replace(/[\s\u200b-\u200d\u2060\ufeff]/g, "");

  // --- the table's limits, checked before a hand leaves the entry ----------------------------

  // An amount in cents as the server writes it (games.messages.format_chips): 1,500 or 2,490.75.
  function chipsText(amount) {
    const whole = String(Math.floor(amount / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return amount % 100 ? `${whole}.${String(amount % 100).padStart(2, "0")}` : whole;
  }

  // The stakes the server would refuse for the table's limits, each in the server's words
  // (games.entry's stake checks: the minimum, the maximum, the bet unit, a tournament seat's
  // stack and the rule for a stack under the minimum), in the form's order: [{name, text}].
  // ``rules.limits`` comes with the page; a tournament's stacks are those before hand
  // ``stacks_for``. ``ahead``: the entries of this phone's hands still to be recorded before
  // this one. A seat's stack is known exactly when every hand between is one of those and none
  // has a stake of that seat (what a bet wins is the server's to work out); else the server
  // checks it.
  function limitProblems(entry, rules, number, ahead = []) {
    const limits = rules.limits;
    if (!limits) return [];
    const T = limits.texts;
    const tournament = Boolean(limits.stacks);
    const bets = Object.keys(limits.bets);
    const boxesOf = (stakes) => Object.keys(stakes).map((name) => {
      const match = /^stake_(\d+)_(.+)$/.exec(name);
      return match && { name, seat: Number(match[1]), bet: match[2], stake: cents(stakes[name]) };
    }).filter((box) => box && box.stake > 0 && box.bet in limits.bets);
    const boxes = boxesOf(entry.stakes)
      .sort((a, b) => a.seat - b.seat || bets.indexOf(a.bet) - bets.indexOf(b.bet));
    const betBefore = new Set(ahead.flatMap((earlier) => boxesOf(earlier.stakes).map((box) => box.seat)));
    const inStep = tournament && number - limits.stacks_for === ahead.length;
    const stackOf = (seat) => (inStep && !betBefore.has(seat) ? limits.stacks[seat] || 0 : null);
    const problems = [];
    const say = (box, template, values) => problems.push({ name: box.name, text: fill(T.on_seat,
      { seat: box.seat, bet: limits.bets[box.bet], problem: fill(template, values) }) });
    const staked = {};
    for (const box of boxes) {
      const stake = chipsText(box.stake);
      const stack = stackOf(box.seat);
      const short = stack !== null && stack > 0 && stack < limits.min;
      if (short && limits.short_stack === "out") { say(box, T.short_out, { stack: chipsText(stack) }); continue; }
      if (!(short && box.stake === stack)) {
        const unknownStack = tournament && stack === null; // under the minimum, it may be all of it
        if (box.stake < limits.min && !unknownStack) {
          say(box, short ? T.short_all_in : T.under_minimum, { stake, stack: chipsText(stack || 0) });
          continue;
        }
        if (box.stake > limits.max) { say(box, T.over_maximum, { stake }); continue; }
        if (limits.unit && box.stake % limits.unit && box.stake >= limits.min) {
          say(box, T.not_unit, { stake });
          continue;
        }
      }
      staked[box.seat] = { total: ((staked[box.seat] || {}).total || 0) + box.stake, last: box };
    }
    for (const [seat, { total, last }] of Object.entries(staked)) {
      const stack = stackOf(Number(seat));
      if (stack !== null && total > stack) {
        say(last, T.over_stack, { total: chipsText(total), stack: chipsText(stack) });
      }
    }
    return problems;
  }

  // The entry refused for its limits, here, before Save moves it on: the boxes marked, the
  // server's words said; null when the server would take it.
  function limitRefusal(state, entry, number) {
    const seq = entry.seq || Infinity;
    const ahead = [...state.held.filter((item) => item.seq < seq),
      ...state.queue.filter((op) => op.kind === "hand" && op.seq < seq)].map((item) => item.entry);
    const problems = limitProblems(entry, state.rules, number, ahead);
    if (!problems.length) return null;
    return { ...entry, problem: "limit", badStake: problems[0].name,
      badStakes: problems.map((item) => item.name), limitText: problems.map((item) => item.text).join(" ") };
  }

  // --- seats -----------------------------------------------------------------------------------

  function readSeating(token) {
    const seats = {};
    for (const pair of (token || "").split(/\s+/).filter(Boolean)) {
      const [seat, guest] = pair.split(":");
      seats[seat] = guest;
    }
    return seats;
  }

  const seatingToken = (seats) => Object.keys(seats).map(Number).sort((a, b) => a - b)
    .filter((seat) => seats[seat]).map((seat) => `${seat}:${seats[seat]}`).join(" ");

  // A seat change as ledger.hands.services.seat_guest makes it: a guest seated elsewhere moves, whoever
  // held the seat leaves the table; no guest empties the seat.
  function seatApplied(seats, seat, guest) {
    const next = {};
    for (const [number, who] of Object.entries(seats)) if (who && who !== guest) next[number] = who;
    if (guest) next[seat] = guest;
    else delete next[seat];
    return next;
  }

  // The seat offered next, as ledger.hands.views.table.free_seat: the first empty one after ``after``.
  function freeSeat(seats, count, after) {
    const start = after || 0;
    for (let step = 1; step <= count; step++) {
      const seat = ((start + step - 1) % count) + 1;
      if (!seats[seat]) return seat;
    }
    return after || 1;
  }

  // --- the state --------------------------------------------------------------------------------

  // ``page``: what the page was drawn with — rules (the keypad's table and texts), next (the
  // next hand's number), last (the last hand recorded, 0 if none), seating (the seating token),
  // seatCount, repeat (the last hand's stakes), key (a new idempotency key); ``kept``: what
  // this device kept (``kept(state)``) before a reload, if anything.
  //
  // The server's facts come with a stamp (``at``: when the server read them); the device keeps
  // the newest it learnt (an answer, a push), and a page drawn before them (a copy the service
  // worker kept, a reload that overtook a save) starts from the kept ones instead.
  function start(page, kept) {
    const drawn = {
      next: page.next, last: page.last || 0, seats: readSeating(page.seating),
      repeat: page.repeat || {}, at: page.at || 0,
    };
    const server = kept && kept.server && newer(kept.server, drawn) ? kept.server : drawn;
    const state = {
      rules: page.rules,
      seatCount: page.seatCount || 7,
      server,
      entry: emptyEntry(page.key),
      parked: null, // the entry put aside while a hand taken back is fixed (``edit``, ``undo``)
      chosen: null,
      queue: [], // the outbox: hands, seat changes and undos, sent one at a time, in order
      flight: null, // the request on its way: {id, request}
      held: [], // hands refused when sent, each an entry of its own until the host decides
      seatNotes: {},
      pickSeat: freeSeat(server.seats, page.seatCount || 7, 0),
      answer: "",
      online: page.online !== false,
      stalled: "", // why the outbox waits beyond the network (a login), until the page reloads
      reading: null, // the server's words on the entry's cards (a refused tap, typed cards)
      made: 0,
    };
    if (page.coup) {
      state.entry = emptyCoup(page.key);
      state.server.prefill = page.prefill && page.at ? { ...page.prefill, at: page.at }
        : page.prefill || null;
    }
    if (!kept) return state;
    return { ...state, queue: kept.queue || [], held: kept.held || [], parked: kept.parked || null,
      chosen: kept.chosen || null, made: kept.made || 0, entry: kept.entry || state.entry,
      pickSeat: freeSeat(server.seats, state.seatCount, 0) };
  }

  // Whether facts stamped ``a`` are newer than those stamped ``b`` (an unstamped page loses to
  // anything kept with a stamp).
  const newer = (a, b) => Boolean(a.at) && a.at > (b.at || 0);

  // What the device keeps across a reload (localStorage). A request in flight is sent again,
  // with its idempotency key, so it is made once whatever became of it: a hand is recorded once,
  // an undo answers with the hand it took back the first time.
  function kept(state) {
    return { entry: state.entry, queue: state.queue, held: state.held, parked: state.parked,
      chosen: state.chosen, made: state.made, server: state.server };
  }

  const handsWaiting = (state) => state.queue.filter((op) => op.kind === "hand");

  // A hand keeps the number the host saw when they tapped Save (deal order): the server's next
  // hand as this device last knew it (answers and pushes from the other phones at the table),
  // after the hands waiting or held here. Only the host renumbers a hand (``resend``).
  function nextFree(state, except) {
    const mine = [...handsWaiting(state), ...state.held]
      .filter((item) => item.origin !== except).map((item) => item.number || 0);
    return Math.max(state.server.next, ...mine.map((number) => number + 1));
  }

  // The number a held hand would have in its place now: after the server's last hand and the
  // hands saved before it here.
  function placeOf(state, item) {
    const before = [...handsWaiting(state), ...state.held]
      .filter((one) => one.seq < item.seq && one.origin !== item.origin);
    return Math.max(state.server.next, ...before.map((one) => one.number + 1));
  }

  // The hands saved here after ``seq`` (waiting, held, being fixed or parked), numbered on from
  // ``first`` in the order they were saved: they follow a hand the host renumbered or let go.
  function renumberedAfter(state, seq, first) {
    const later = (one) => one && one.seq > seq && one.number && !one.tried;
    const seqs = [...handsWaiting(state), ...state.held, state.entry, state.parked || {}]
      .filter(later).map((one) => one.seq).sort((a, b) => a - b);
    const numbered = (one) => (later(one)
      ? { ...one, number: first + seqs.indexOf(one.seq), renumbered: true } : one);
    return { ...state, queue: state.queue.map((op) => (op.kind === "hand" ? numbered(op) : op)),
      held: state.held.map(numbered), entry: numbered(state.entry),
      parked: state.parked && numbered(state.parked) };
  }

  // The number a hand saved here has (``seq``: its place in the order of saving).
  function numberOf(state, seq) {
    const item = [...handsWaiting(state), ...state.held].find((one) => one.seq === seq);
    if (item) return item.number;
    if (state.entry.seq === seq && state.entry.number) return state.entry.number;
    return nextFree(state);
  }

  // A hand taken back to fix keeps its number; a new one takes the next free.
  // A hand taken back keeps its number and its place unless a hand waiting or held here has
  // taken that number since (one the server gave back, sent again): then it is saved anew.
  const numberTaken = (state) => Boolean(state.entry.number) && [...handsWaiting(state),
    ...state.held].some((item) => item.number === state.entry.number
      && item.origin !== state.entry.origin);
  const entryNumber = (state) => (numberTaken(state) ? nextFree(state) : state.entry.number
    || nextFree(state));

  // The seats as they will be once every seat change waiting here is made.
  function seatsNow(state) {
    return state.queue.filter((op) => op.kind === "seat")
      .reduce((seats, op) => seatApplied(seats, op.seat, op.guest), state.server.seats);
  }

  // The request to send now, if any: the outbox's first, one at a time, in order; none while a
  // held hand waits for the host's decision, offline, or logged out. A hand gets its number now.
  function due(state) {
    const op = headOf(state);
    if (!op || op.kind !== "hand") return op;
    if (op.entry.fields) return awaitsBank(state, op) ? null : coupDue(state, op, op.number);
    return { ...op, fields: { ...op.fields, number: String(op.number) } };
  }

  // The outbox's first, if it may leave now (before a coup's bank is looked at).
  function headOf(state) {
    if (state.flight || !state.online || state.stalled || state.resting) return null;
    if (!state.queue.length) return null;
    if (state.held.length) return null; // the hands after a held one wait for the decision
    const op = state.queue[0];
    if (op.kind === "hand" && state.entry.seq && op.seq > state.entry.seq) return null; // after the hand being fixed
    return op;
  }

  // The hand Undo takes back: the last one waiting here, else the last recorded (none while an
  // undo is on its way).
  function undoTarget(state) {
    const waiting = handsWaiting(state);
    if (waiting.length) return waiting[waiting.length - 1].number;
    if (state.queue.some((op) => op.kind === "undo")) return 0;
    return state.server.last;
  }

  // --- events ---------------------------------------------------------------------------------

  function step(state, event) {
    const handler = HANDLERS[event.type];
    if (!handler) throw new Error(`unknown event ${event.type}`);
    return handler(state, event);
  }

  // A change to the entry; the last answer gives way to the entry's own status line.
  const withEntry = (state, changes) => ({ ...state,
    entry: { ...state.entry, problem: "", badStake: undefined, ...changes }, reading: null, answer: "" });

  const HANDLERS = {
    tap(state, { rank }) {
      let entry = state.entry;
      if (entry.typed) {
        const order = typedAsTaps(entry.typed, state.rules);
        if (order === null) return withEntry(state, { problem: "out_of_order" });
        entry = { ...entry, taps: order, typed: null };
      }
      const taps = rank ? [...entry.taps, rank] : entry.taps.slice(0, -1);
      const reading = readTaps(taps, state.rules);
      if (reading.taken < taps.length) {
        // Refused: the taps stay as they were; the server says why (``ask``).
        return { ...withEntry(state, { taps: entry.taps, typed: null }),
          reading: { taps: taps.join(" "), text: "", problem: true, asked: true } };
      }
      return withEntry(state, { taps, typed: null });
    },

    typeCards(state, { player, banker }) {
      const typed = player || banker ? { player, banker } : null;
      return { ...withEntry(state, { taps: [], typed }),
        reading: typed ? { taps: "", typed, text: "", problem: false, asked: true } : null };
    },

    // The server's words on cards the page could not read itself; only for those very cards.
    reading(state, { taps, typed, text, problem }) {
      const asked = state.reading;
      if (!asked || asked.text) return state;
      const same = typed
        ? asked.typed && state.entry.typed && asked.typed.player === typed.player &&
          asked.typed.banker === typed.banker &&
          state.entry.typed.player === typed.player && state.entry.typed.banker === typed.banker
        : !asked.typed && asked.taps === taps;
      return same ? { ...state, reading: { ...asked, text, problem } } : state;
    },

    stake(state, { name, text }) {
      const stakes = { ...state.entry.stakes, [name]: cleanStake(text) };
      return withEntry({ ...state, chosen: name }, { stakes });
    },

    choose(state, { name }) {
      return { ...state, chosen: name };
    },

    chip(state, { value }) {
      if (!state.chosen) return { ...state, answer: state.rules.texts.pick_a_box };
      const before = cents(state.entry.stakes[state.chosen] || "");
      if (before === null) return state; // the box holds what is not an amount: typed over
      const after = before + Math.round(value * 100);
      const text = after % 100 ? (after / 100).toFixed(2) : String(after / 100);
      return withEntry(state, { stakes: { ...state.entry.stakes, [state.chosen]: text } });
    },

    result(state, { value }) {
      return withEntry(state, { result: value });
    },

    pair(state, { side, on }) {
      return withEntry(state, { pairs: { ...state.entry.pairs, [side]: Boolean(on) } });
    },

    // Repeat: the last hand's stakes — the last waiting here, else the last recorded.
    repeat(state) {
      const waiting = handsWaiting(state);
      const stakes = waiting.length ? stakesOf(waiting[waiting.length - 1].entry)
        : state.server.repeat;
      return withEntry(state, { stakes: { ...stakes } });
    },

    // Clear empties the entry; an entry parked behind a hand taken back comes back instead (the
    // hand taken back is let go).
    clear(state) {
      // Nothing typed: Clear lets go of the refused hand shown over the entry (the page asks).
      if (isEmpty(state.entry) && !state.parked && state.held.length) return clearHeld(state);
      const entry = state.parked || emptyEntry(state.entry.key);
      return { ...state, entry: { ...entry, problem: "" }, parked: null, answer: "", reading: null };
    },

    // Save: the hand goes to the outbox and the entry moves on to the next hand at once. A
    // hand with neither a result nor its cards is refused here, before it leaves the entry.
    save(state, { key }) {
      const entry = state.entry;
      if (state.queue.some((op) => op.kind === "undo")) {
        return { ...state, entry: { ...entry, problem: "undo_pending" } };
      }
      const unreadable = Object.keys(entry.stakes).find((name) => cents(entry.stakes[name]) === null);
      if (unreadable) return { ...state, entry: { ...entry, problem: "stake", badStake: unreadable } };
      const overLimit = limitRefusal(state, entry, entryNumber(state));
      if (overLimit) return { ...state, entry: overLimit };
      // Cards begun must be finished, with or without a result chosen; typed cards the page
      // cannot read in deal order go to the server, which says why.
      const taps = entry.typed ? typedAsTaps(entry.typed, state.rules) : entry.taps;
      const dealt = taps && taps.length ? cardStatus(readTaps(taps, state.rules), state.rules) : null;
      if ((dealt && !dealt.complete) || (!dealt && !entry.result && !(entry.typed && !taps))) {
        return { ...state, entry: { ...entry, problem: dealt ? "incomplete" : "no_result" } };
      }
      return savedToOutbox(state, { ...entry, problem: "", seq: undefined, origin: undefined,
        number: undefined, seating: undefined }, emptyEntry(key));
    },

    seat(state, { seat, guest }) {
      const made = state.made + 1;
      const op = { kind: "seat", id: `seat-${made}`, seat: Number(seat), guest: guest || "" };
      const queue = [...state.queue, op];
      const seatNotes = { ...state.seatNotes };
      delete seatNotes[op.seat];
      const seats = seatsNow({ ...state, queue });
      return { ...state, queue, made, seatNotes,
        pickSeat: guest ? freeSeat(seats, state.seatCount, op.seat) : op.seat };
    },

    pickSeat(state, { seat }) {
      return { ...state, pickSeat: Number(seat) };
    },

    // Undo takes back the last hand: one still waiting here comes straight back off the outbox
    // (unless it was sent: it may be recorded, so it says so); a recorded one is asked of the
    // server. ``number`` is the hand the button named: anything else is refused.
    undo(state, { number, key }) {
      const T = state.rules.texts;
      const target = undoTarget(state);
      if (!target || target !== number) return { ...state, answer: T.undo_moved };
      if (state.held.length) return { ...state, answer: T.undo_after_held };
      if (state.parked && !isEmpty(state.entry)) {
        return { ...state, answer: fill(T.undo_parked, { number: entryNumber(state) }) };
      }
      const waiting = handsWaiting(state);
      if (!waiting.length) {
        const made = state.made + 1;
        const op = { kind: "undo", id: `undo-${key}`, number: target, key };
        return { ...state, queue: [...state.queue, op], made,
          answer: fill(T.undoing, { number: target }) };
      }
      const last = waiting[waiting.length - 1];
      if (last.tried) return { ...state, answer: fill(T.undo_on_its_way, { number: target }) };
      const queue = state.queue.filter((op) => op.id !== last.id);
      const back = { ...state, queue, answer: fill(T.undone_here, { number: target }) };
      return takeBack(back, { ...last.entry, origin: last.origin, seq: last.seq, number: last.number,
        seating: last.seating }, key, true);
    },

    online(state) {
      return { ...state, online: true };
    },

    retry(state) {
      return { ...state, resting: false };
    },

    offline(state) {
      return { ...state, online: false };
    },

    // A request leaves (``due``'s op): it may reach the server whatever becomes of its answer.
    sent(state, { id, request }) {
      if (state.flight || !state.queue.length || state.queue[0].id !== id) return state;
      const queue = [{ ...state.queue[0], tried: true }, ...state.queue.slice(1)];
      return { ...state, queue, flight: { id, request, number: state.server.next } };
    },

    // The answer to a request: ``outcome`` is saved (with the server's next and last hand and
    // the notice), refused (with the reason and the server's next hand), or failed (network,
    // server, login). Only the request in flight is answered; anything else is stale.
    reply(state, { request, outcome, key }) {
      if (!state.flight || state.flight.request !== request) return state;
      const op = state.queue.find((item) => item.id === state.flight.id);
      const settled = { ...state, flight: null };
      if (outcome.failed === "login") return { ...settled, stalled: "login" };
      if (outcome.failed === "network") return { ...settled, online: false };
      // The server failed (5xx, or an answer the page could not read): the outbox rests until
      // the page's timer says ``retry``, and says so.
      if (outcome.failed) return { ...settled, resting: true, answer: state.rules.texts.server_failed };
      const queue = state.queue.filter((item) => item.id !== op.id);
      const known = withFacts({ ...settled, queue }, serverFacts(outcome));
      return ANSWERED[op.kind](known, op, outcome, key, state.flight);
    },

    // The host's decision on a held hand: send it again (it keeps its place: first), put it in
    // the entry to fix (what the entry held waits, parked, and comes back after the save), or
    // let it go.
    //
    // Sent again, a hand keeps its number and the seats it was saved with, unless the host
    // chose otherwise: ``renumber`` (another phone's hand took its number: it goes as the next
    // hand, and the hands saved after it here follow it), and for each seat whose guest changed
    // (``seatChoice``) the bet goes to the guest there now or is dropped.
    resend(state, { index, renumber, key }) {
      const item = state.held[index];
      if (!item) return state;
      const T = state.rules.texts;
      // Sent again as it was, a hand over the limits is refused again: it goes to the entry,
      // its boxes marked, to fix.
      if (limitRefusal(state, { ...item.entry, seq: item.seq }, item.number)) {
        return fixOverLimit(state, index, key);
      }
      const undo = state.queue.find((op) => op.kind === "undo");
      if (undo) return { ...state, answer: fill(T.save_after_undo, undo) };
      const changed = item.seats || [];
      if (changed.some((seat) => !seat.choice)) return { ...state, answer: T.choose_each_seat };
      let entry = item.entry;
      let seating = item.seating ?? seatingToken(seatsNow(state));
      if (changed.length) {
        const seats = readSeating(seating);
        const stakes = { ...entry.stakes };
        for (const seat of changed) {
          if (seat.choice === "drop") {
            for (const bet of seat.bets) delete stakes[bet.name];
          } else if (seat.now) {
            seats[seat.seat] = String(seat.now.id);
          } else {
            delete seats[seat.seat];
          }
        }
        entry = { ...entry, stakes };
        seating = seatingToken(seats);
      }
      const held = state.held.filter((_, at) => at !== index);
      let number = item.number;
      let after = { ...state, held };
      if (renumber) {
        number = placeOf(after, item);
        after = renumberedAfter(after, item.seq, number + 1);
      }
      const op = { kind: "hand", id: `hand-${entry.key}`, seq: item.seq, origin: item.origin,
        key: entry.key, entry, number, seating, renumbered: Boolean(renumber || item.renumbered) };
      return { ...after, queue: placed(after, op) };
    },

    // The host's choice for a seat whose guest changed under a held hand: ``move`` (the bet
    // goes to the guest there now) or ``drop``.
    seatChoice(state, { index, seat, choice }) {
      const item = state.held[index];
      if (!item || !item.seats) return state;
      const seats = item.seats.map((one) => (one.seat === Number(seat) ? { ...one, choice } : one));
      const held = state.held.map((one, at) => (at === index ? { ...item, seats } : one));
      return { ...state, held };
    },

    // Another phone's doings, pushed by the server (the shoe's next and last hand, its seats):
    // the device's view of the server moves on; the entry and the outbox stay as they are.
    pushed(state, { next, last, seating, repeat, at }) {
      return withFacts(state, serverFacts({ next, last, seating, repeat, at }));
    },

    edit(state, { index, key }) {
      const item = state.held[index];
      if (!item || (state.parked && !isEmpty(state.entry))) return state;
      const held = state.held.filter((_, at) => at !== index);
      const parked = isEmpty(state.entry) ? state.parked : state.entry;
      // A coup fixed in the entry is saved with the seats its form shows: as they are now (a
      // coup refused for a seat that changed hands is fixed so; the server checks it again).
      const seating = item.entry.fields ? undefined : item.seating;
      const entry = { ...item.entry, key, origin: item.origin, seq: item.seq, problem: "",
        number: item.number, seating };
      const fixing = { ...state, held, parked, entry, reading: null };
      if (!item.entry.fields || !item.reason) return fixing;
      return { ...fixing, // the server's reason stays in sight while the coup is fixed
        answer: fill(state.rules.texts.held_refused, { number: item.number, reason: item.reason }) };
    },

    // The limits as a table drawn afresh gives them (a tournament's stacks move with each hand).
    limits(state, { limits }) {
      return limits ? { ...state, rules: { ...state.rules, limits } } : state;
    },

    // A hand let go: if its number is still free, the hands saved after it here close the gap
    // (the host's choice); if another phone's hand has it, they keep theirs.
    discard(state, { index }) {
      const item = state.held[index];
      if (!item) return state;
      const held = state.held.filter((_, at) => at !== index);
      const sent = state.queue.some((op) => op.kind === "hand" && op.seq > item.seq && op.tried);
      if (item.number < state.server.next || sent) return { ...state, held };
      return renumberedAfter({ ...state, held }, item.seq, item.number);
    },
  };

  function clearHeld(state) {
    return { ...state, held: state.held.slice(0, -1), answer: "", reading: null };
  }

  function fixOverLimit(state, index, key) {
    const fixing = HANDLERS.edit(state, { index, key });
    if (fixing === state) return { ...state, answer: state.rules.texts.edit_after_entry || "" };
    return { ...fixing, entry: limitRefusal(fixing, fixing.entry, entryNumber(fixing)) || fixing.entry };
  }

  function serverFacts(outcome) {
    const facts = {};
    if (outcome.next) facts.next = Number(outcome.next);
    if (outcome.last !== undefined && outcome.last !== null) facts.last = Number(outcome.last);
    if (outcome.seating !== undefined && outcome.seating !== null) {
      facts.seats = readSeating(outcome.seating);
    }
    if (outcome.repeat) facts.repeat = outcome.repeat;
    if (outcome.prefill) {
      facts.prefill = outcome.at ? { ...outcome.prefill, at: Number(outcome.at) } : outcome.prefill;
    }
    if (outcome.at) facts.at = Number(outcome.at);
    return facts;
  }

  // The server's facts, unless this device knows newer ones (a late answer, a push overtaken).
  function withFacts(state, facts) {
    if (facts.at && state.server.at && facts.at < state.server.at) return state;
    return { ...state, server: { ...state.server, ...facts } };
  }

  const ANSWERED = {
    hand(state, op, outcome, key, flight) {
      const coup = outcome.refused && op.entry.fields && coupRefused(state, op, outcome, key, flight);
      if (coup) return coup;
      if (outcome.refused) {
        // A new key: the refused submission's key stays the server's, whatever is fixed.
        // ``taken``: the other phone's hand under this number, to show beside this one;
        // ``seats``: each seat with a bet whose guest changed, for the host to decide.
        const item = { origin: op.origin, seq: op.seq, number: op.number, seating: op.seating,
          entry: { ...op.entry, key }, reason: outcome.reason, renumbered: op.renumbered };
        if (outcome.taken) item.taken = outcome.taken;
        if (outcome.seats && outcome.seats.length) {
          item.seats = outcome.seats.map((seat) => ({ ...seat, choice: "" }));
        }
        return { ...state, held: [...state.held, item], answer: "" };
      }
      return { ...state, answer: outcome.notice };
    },
    seat(state, op, outcome) {
      if (!outcome.refused) return { ...state, answer: outcome.notice || state.answer };
      return { ...state, seatNotes: { ...state.seatNotes, [op.seat]: outcome.reason } };
    },
    undo(state, op, outcome, key) {
      if (outcome.refused) return { ...state, answer: outcome.reason };
      const entry = { ...outcome.entry, number: op.number };
      return takeBack({ ...state, answer: outcome.notice || "" }, entry, key, false);
    },
  };

  // Save's last step, for a hand or a coup: ``saved`` (what is sent) goes to the outbox under the
  // number shown and with the seats the host saw at this tap (a hand taken back to fix keeps its
  // own: every later send carries them, so a bet never goes to whoever sits there by then); the
  // entry moves on to ``blank`` (or the entry parked behind a hand taken back) at once.
  function savedToOutbox(state, saved, blank) {
    const T = state.rules.texts;
    const entry = state.entry;
    const made = state.made + 1;
    const number = entryNumber(state);
    const op = {
      kind: "hand", id: `hand-${entry.key}`, seq: (!numberTaken(state) && entry.seq) || made,
      origin: entry.origin || `o${made}-${entry.key}`, key: entry.key, number,
      seating: entry.seating ?? seatingToken(seatsNow(state)), entry: saved,
    };
    const sendsNow = state.online && !state.held.length && !state.resting;
    const answer = fill(sendsNow ? T.sending : state.held.length ? T.waits_for_held : T.queued,
      { number });
    return { ...state, queue: placed(state, op), entry: state.parked || blank, parked: null, made,
      answer, reading: null };
  }

  // A hand taken back (an undo) goes back into the entry, to fix and save again, in its place.
  // Taken back here at the tap (``atOnce``), what the entry held waits, parked, and comes back
  // after that save; an answer that comes while the host may be typing never swaps the entry:
  // unless the entry is empty, the hand is held, as an entry of its own.
  function takeBack(state, entry, key, atOnce) {
    const made = state.made + 1;
    const back = { ...emptyEntry(key), ...entry, key, problem: "", seq: entry.seq || made };
    const taken = { ...state, made };
    if (isEmpty(state.entry)) return { ...taken, entry: back, reading: null };
    if (atOnce && !state.parked) return { ...taken, entry: back, parked: state.entry, reading: null };
    const item = { origin: entry.origin || `o${made}-${key}`, seq: back.seq,
      number: back.number || nextFree(state), seating: back.seating,
      entry: { ...back, number: undefined, seating: undefined }, reason: "" };
    return { ...taken, held: [...state.held, item] };
  }

  // The outbox with a hand put in its place (hands keep the order they were first saved in),
  // its form filled in with the seats the host saw when saving it (the server refuses it if a
  // seat with a bet changed hands meanwhile, and the host decides: ``seatChoice``).
  function placed(state, op) {
    const queue = state.queue;
    let at = queue.findIndex((item) => item.kind === "hand" && item.seq > op.seq);
    if (at < 0) at = queue.length;
    // Never before a request that left: it may be recorded already, under the next number.
    const left = queue.reduce((last, item, index) => (item.tried ? index + 1 : last), 0);
    at = Math.max(at, left);
    const seating = op.seating ?? seatingToken(seatsNow(state));
    const hand = { ...op, seating, tried: false,
      fields: fieldsOf({ ...op.entry, key: op.key }, state.rules, seating) };
    return [...queue.slice(0, at), hand, ...queue.slice(at)];
  }

  // --- a coup (Chemin de fer, Baccara banque) ---------------------------------------------------

  // A coup's entry is the coup form's boxes as a plain map: only what the host typed, chose or
  // cleared is in ``fields``. A coup goes through the outbox as a hand does (kind "hand", its
  // entry with ``fields``): numbered when it is sent, held when refused.
  function emptyCoup(key) {
    return { key, fields: {}, problem: "" };
  }

  // The bank's boxes the server fills from the coup before (games.guest_banked.bank.next_bank):
  // known for the coup after the last one recorded, from the last answer or the page.
  const PREFILLED = ["banker_seat", "bank", "co_banker_seat"];

  function prefillFor(state, number) {
    const prefill = state.server.prefill;
    if (!prefill || prefill.next !== number) return {};
    const fields = {};
    for (const name of PREFILLED) if (prefill[name]) fields[name] = String(prefill[name]);
    return fields;
  }

  // What the coup form shows: what the host touched, over the server's prefill for this coup.
  const coupShown = (state) => ({ ...prefillFor(state, entryNumber(state)), ...state.entry.fields });

  function coupFieldsOf(entry, seating) {
    return { ...entry.fields, idempotency_key: entry.key, seating };
  }

  // Sent: the boxes the host left alone are filled as the server left the bank after the coup
  // before, which has been answered by now (the outbox sends one at a time, in order). Once
  // sent, a coup keeps that bank: sent again with the same key it must be the same coup.
  function coupDue(state, op, number) {
    const bank = op.bank || prefillFor(state, number);
    return { ...op, number, fields: { ...bank, ...op.fields, number: String(number) } };
  }

  // A coup whose bank's boxes the host left alone waits for the server's prefill: for its own
  // number, or one for the server's next as this device knows it, or read after the facts it
  // has (the server's next is another coup: its number is taken, or out of sequence; sent with
  // no bank — never another coup's — it is refused as such, and held for the host to
  // renumber). Each ask's answer is read after them: the wait always ends.
  function awaitsBank(state, op) {
    if (op.bank || !PREFILLED.some((name) => !(name in op.entry.fields))) return false;
    const prefill = state.server.prefill;
    if (!prefill) return true;
    if (prefill.next === op.number) return false;
    const fresh = prefill.next === state.server.next ||
      (Boolean(prefill.at) && prefill.at > (state.server.at || 0));
    return !fresh;
  }

  // Whether the outbox waits for the server's prefill: the page asks for it (``?part=prefill``).
  function asksPrefill(state) {
    const op = headOf(state);
    return Boolean(op && op.kind === "hand" && op.entry.fields && awaitsBank(state, op));
  }

  const handSent = HANDLERS.sent;
  HANDLERS.sent = (state, event) => {
    const after = handSent(state, event);
    const [op, ...rest] = after.queue;
    if (after === state || op.bank || !op.entry || !op.entry.fields) return after;
    const bank = prefillFor(state, op.number);
    if (!Object.keys(bank).length) return after;
    return { ...after, queue: [{ ...op, bank, bankFor: op.number }, ...rest] };
  };

  const AMOUNT_BOX = /^(stake_\d+|bank|taken|suite_amount)$/;

  // A refused coup: sent again at once when it went with the bank of another number (sent
  // before, its fate unknown, it kept its first bank; refused, it is not recorded); else held
  // (null), as a refused hand is, with the server's reason and the host's choices. Never put
  // back into the entry: the next coup's taps would join it there.
  function coupRefused(state, op, outcome, key, flight) {
    const untouched = PREFILLED.some((name) => !(name in op.entry.fields));
    if (op.bank && op.bankFor !== op.number && untouched) {
      const again = { ...op, id: `hand-${key}`, key, bank: undefined, bankFor: undefined,
        entry: { ...op.entry, key } };
      return { ...state, queue: placed(state, again) };
    }
    return null; // held
  }

  Object.assign(HANDLERS, {
    coupField(state, { name, value }) {
      const text = AMOUNT_BOX.test(name) ? cleanStake(value) : value;
      return withEntry(state, { fields: { ...state.entry.fields, [name]: text } });
    },

    // The choices the rules give for the cards shown (the server's ``coup_step``): a choice
    // they no longer give goes. ``shown``: the cards and choices the server read.
    coupAsked(state, { asked, shown }) {
      const fields = state.entry.fields;
      const now = coupShown(state);
      if (!fields || Object.keys(shown).some((name) => (now[name] || "") !== shown[name])) return state;
      const kept = { ...fields };
      for (const name of COUP_CHOICES) if (kept[name] && !asked.includes(name)) delete kept[name];
      if (Object.keys(kept).length === Object.keys(fields).length) return state;
      return { ...state, entry: { ...state.entry, fields: kept } };
    },

    // A coup before the last answer: the server's prefill for the next coup (a push, a fetch).
    coupPrefill(state, { prefill }) {
      const now = state.server.prefill;
      // An older coup's prefill is stale, unless it is the server's newer word (read later) or
      // the server's next went back (an undo).
      if (!prefill) return state;
      const newer = Boolean(prefill.at) && (!now || !now.at || prefill.at >= now.at);
      if (!newer && now && prefill.next < now.next && prefill.next < state.server.next) return state;
      return { ...state, server: { ...state.server, prefill } };
    },

    coupClear(state) {
      const { seq, number } = state.entry;
      const entry = state.parked || emptyCoup(state.entry.key);
      const after = { ...state, entry: { ...entry, problem: "" }, parked: null, answer: "",
        reading: null };
      if (!seq || !number) return after;
      // A coup let go: the coups saved after it here close the gap, as a discarded hand's do.
      const sent = state.queue.some((op) => op.kind === "hand" && op.seq > seq && op.tried);
      return number < state.server.next || sent ? after : renumberedAfter(after, seq, number);
    },

    // Save: the coup goes to the outbox and the entry moves on to the next coup at once.
    coupSave(state, { key }) {
      const entry = state.entry;
      if (state.queue.some((op) => op.kind === "undo")) {
        return { ...state, entry: { ...entry, problem: "undo_pending" } };
      }
      const unreadable = Object.keys(entry.fields)
        .find((name) => AMOUNT_BOX.test(name) && cents(entry.fields[name]) === null);
      if (unreadable) return { ...state, entry: { ...entry, problem: "stake", badStake: unreadable } };
      return savedToOutbox(state, { key: entry.key, fields: { ...entry.fields }, problem: "" },
        emptyCoup(key));
    },
  });

  const COUP_CHOICES = ["ponte_choice", "banker_choice", "second_choice"];

  // --- what the page shows ----------------------------------------------------------------------

  // The entry's status line: a problem, the server's words on cards it had to read, or the
  // cards' own state, worked out here at once.
  function statusOf(state) {
    const T = state.rules.texts;
    const entry = state.entry;
    if (entry.problem === "out_of_order") return { text: T.out_of_order, problem: true };
    if (entry.problem === "no_result") return { text: T.no_result, problem: true };
    if (entry.problem === "stake") {
      return { text: fill(T.not_an_amount, { text: entry.stakes[entry.badStake] }), problem: true };
    }
    if (entry.problem === "limit") return { text: entry.limitText, problem: true };
    if (entry.problem === "undo_pending") {
      const undo = state.queue.find((op) => op.kind === "undo");
      return { text: fill(T.save_after_undo, { number: undo ? undo.number : "" }), problem: true };
    }
    const typedTaps = entry.typed && typedAsTaps(entry.typed, state.rules);
    if (state.reading && state.reading.asked && !typedTaps) {
      if (state.reading.text) return { text: state.reading.text, problem: state.reading.problem };
      if (entry.typed) return { text: state.online ? T.checking : T.offline, problem: false };
    }
    // Typed cards that read in deal order are read here, as taps are.
    const status = cardStatus(readTaps(typedTaps || entry.taps, state.rules), state.rules);
    return { text: status.text, problem: entry.problem === "incomplete" };
  }

  // What each item of the outbox says, with the number each hand will have.
  function waitingLines(state) {
    const T = state.rules.texts;
    return state.queue.map((op) => {
      const template = { hand: T.waiting, seat: T.seat_waiting, undo: T.undo_waiting }[op.kind];
      const number = op.number;
      const sending = Boolean(state.flight && state.flight.id === op.id);
      return { id: op.id, sending, text: fill(template, { number, seat: op.seat }) };
    });
  }

  // What each held hand says, and its choices: send again under its own number, or — when
  // another phone's hand has that number (``taken``: both are shown) — as the next hand; fix it
  // in the entry; discard it. A seat whose guest changed shows the bet, who made it and who sits
  // there now, with its two choices (``seatChoice``).
  function heldLines(state) {
    const T = state.rules.texts;
    return state.held.map((item, index) => {
      const template = item.reason ? T.held_refused : T.held_undone;
      const next = placeOf(state, item);
      const taken = Boolean(item.taken) || item.number !== next;
      return { index, text: fill(template, { number: item.number, reason: item.reason }),
        resend: taken ? "" : fill(T.held_resend, { number: item.number }),
        renumber: taken ? fill(T.held_renumber, { number: next, was: item.number }) : "",
        taken: item.taken || null, mine: summaryOf(item.entry, state.rules),
        seats: (item.seats || []).map((seat) => ({ ...seat,
          text: fill(T.seat_changed, { seat: seat.seat,
            bets: seat.bets.map((bet) => `${bet.kind} ${bet.stake}`).join(", "),
            was: seat.was ? seat.was.name : T.empty_seat, now: seat.now ? seat.now.name : T.empty_seat }),
        })),
        edit: T.held_edit, discard: T.held_discard };
    });
  }

  // A hand in a line, for the host to compare with the other phone's: its result, cards and
  // stakes (by box name; the page names them).
  function summaryOf(entry, rules) {
    if (entry.fields) { // a coup: its boxes as typed
      const boxes = entry.fields;
      const stakes = Object.fromEntries(Object.entries(boxes)
        .filter(([name, text]) => /^stake_\d+$/.test(name) && text));
      return { result: boxes.result || "", player: boxes.player_cards || "",
        banker: boxes.banker_cards || "", stakes };
    }
    const cards = cardsOf(entry, rules);
    return { result: entry.result, player: cards.player, banker: cards.banker,
      stakes: stakesOf(entry) };
  }

  // --- a tournament table's first bet ----------------------------------------------------------

  // Who bets first on hand ``number`` when ``from`` bets first on hand ``drawnFor`` (the hand
  // the page was drawn for): the marker moves on to the next seat in play round the table each
  // hand, as games.tournament.first_bet_among does, so a hand saved here moves it at once,
  // online or not. ``inPlay``: the seats whose players had chips when the page was drawn (who
  // goes out on a hand still waiting here is known once it is recorded).
  function firstBetAt(inPlay, from, drawnFor, number) {
    const order = [...new Set(inPlay.map(Number))].sort((a, b) => a - b);
    if (!order.length || !from) return null;
    let seat = Number(from);
    for (let hand = drawnFor; hand < number; hand++) {
      seat = order.find((next) => next > seat) || order[0];
    }
    return seat;
  }

  // Undo's label always names the hand it takes back.
  function undoLabel(state) {
    const number = undoTarget(state);
    return number ? fill(state.rules.texts.undo, { number }) : "";
  }

  return {
    readTaps, cardStatus, cardsOf, fieldsOf, stakesOf, isEmpty, emptyEntry, readSeating,
    seatingToken, seatApplied, freeSeat, start, kept, step, due, seatsNow, statusOf,
    waitingLines, heldLines, undoLabel, undoTarget, handsWaiting, numberOf, entryNumber, fill,
    nextFree, summaryOf, withFacts,
    firstBetAt, limitProblems, chipsText, emptyCoup, coupShown, prefillFor, asksPrefill,
  };
});
