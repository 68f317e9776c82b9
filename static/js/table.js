// The live table's page. Every part of it also works without this script; with it, the state
// of the table lives in static/js/table_state.js (plain functions, tested without a browser)
// and this file only listens and draws:
// - each tap, chip, card, result, Repeat, Clear, Save, seat and Undo is an event given to the
//   state, and the page is drawn from what it returns, within the same frame;
// - the state's outbox says what to send, one request at a time; each answer is given back with
//   the number of the request it answers, so a late, repeated or stale one changes nothing;
// - what the server draws (a seat's result, the last hand, the board) is put in place part by
//   part, and the entry is drawn again from the state on top of it: no answer owns the entry;
// - the state is kept on this device (localStorage) across reloads and outages.
(function () {
  "use strict";

  const State = window.ShoebookTableState;
  const RESULT_KEYS = { P: "player", B: "banker", T: "tie" };
  const RANK_KEYS = { "0": "10", "1": "A", A: "A", J: "J", Q: "Q", K: "K" };
  const RETRY_MS = 3000;

  let state = null;
  let requests = Date.now(); // request numbers never repeat, even across reloads
  let boardAsked = 0;

  const table = () => document.getElementById("table");
  const handForm = () => document.getElementById("hand-form") || document.getElementById("coup-form");
  const texts = () => state.rules.texts;
  const fill = (template, values) => State.fill(template, values);
  const storeKey = () => "shoebook-table-" + table().dataset.shoe;

  function newKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  // --- what the server drew ------------------------------------------------------------------

  function jsonIn(root, id) {
    const data = root.querySelector("#" + id);
    return data ? JSON.parse(data.textContent) : null;
  }

  // The server's facts in a drawn table (the page, or a whole table in an answer).
  function factsIn(root) {
    const page = root.querySelector("#table");
    if (!page) return {};
    const next = Number(page.dataset.nextHand);
    return {
      next, last: Number(page.dataset.lastHand || next - 1),
      // The seats as they are (a refusal's form carries the seats the refused hand assumed).
      seating: page.dataset.seating,
      repeat: jsonIn(root, "repeat-stakes") || undefined,
      prefill: jsonIn(root, "coup-prefill") || undefined,
      at: Number(page.dataset.factsAt || 0), // when the server read them: the newest win
    };
  }

  // What a refusal says to decide on: each seat whose guest changed under the hand (its bets,
  // who made them, who sits there now), and the other phone's hand under its number.
  function decisionsIn(root) {
    const seats = [...root.querySelectorAll("#hand-form [data-seat-changed]")].map((line) => ({
      seat: Number(line.dataset.seatChanged),
      bets: [...line.querySelectorAll("[data-seat-bet]")].map((bet) => ({
        name: bet.dataset.seatBet, kind: bet.dataset.kind, stake: bet.dataset.stake })),
      was: line.dataset.wasId ? { id: line.dataset.wasId, name: line.dataset.was } : null,
      now: line.dataset.nowId ? { id: line.dataset.nowId, name: line.dataset.now } : null,
    }));
    const other = root.querySelector("#hand-form [data-taken-hand]");
    const taken = other ? { number: Number(other.dataset.takenHand),
      text: other.querySelector("[data-taken-text]").textContent.replace(/\s+/g, " ").trim() } : undefined;
    return { seats, taken };
  }

  // The entry the server drew into a form (an undone hand put back): read as the state keeps it.
  function entryIn(root) {
    if (!root.querySelector("#hand-form")) return { fields: coupFieldsIn(root.querySelector("#coup-form")) };
    const form = root.querySelector("#hand-form");
    const stakes = {};
    form.querySelectorAll("input.stake").forEach((box) => { if (box.value) stakes[box.name] = box.value; });
    const value = (name) => (form.elements[name] ? form.elements[name].value : "");
    const taps = value("taps").split(" ").filter(Boolean);
    const typed = !taps.length && (value("player_cards") || value("banker_cards"))
      ? { player: value("player_cards"), banker: value("banker_cards") } : null;
    const result = form.querySelector("input[name=result]:checked");
    const pairs = {};
    for (const side of ["player_pair", "banker_pair"]) {
      if (form.elements[side] && form.elements[side].checked) pairs[side] = true;
    }
    return { stakes, taps, typed, result: result ? result.value : "", pairs };
  }

  // What a refusal says: the form's problems, or the table's refusal line.
  function reasonIn(root) {
    const lines = [...root.querySelectorAll("#hand-form .errorlist li, #coup-form .errorlist li, #table > .refusal")]
      .filter((line) => !line.matches("[data-taken-hand]")) // shown beside the hand, whole
      .map((line) => {
        const note = line.classList.contains("masked") && line.querySelector(".secret-note");
        const said = line.querySelector(".seat-changed-text"); // not its choices' labels
        return (note || said || line).textContent.replace(/\s+/g, " ").trim(); // a secret bet's stake is never shown
      }).filter(Boolean);
    return lines.join(" ") || texts().refused;
  }

  function parse(html) {
    const reply = document.createElement("template");
    reply.innerHTML = html.trim();
    return reply.content;
  }

  // Each part of an answer takes the place of the part of the page with the same id.
  function replaceParts(content) {
    for (const part of [...content.children].filter((element) => element.id)) {
      const current = document.getElementById(part.id);
      if (!current) continue;
      current.replaceWith(part);
      if (window.htmx) window.htmx.process(part);
    }
  }

  // The newest board asked for is the only one shown; a table drawn whole since outdates it.
  function refreshBoard() {
    const url = table() && table().dataset.boardUrl;
    if (!url) return;
    const number = ++boardAsked;
    fetch(url, { headers: { "HX-Request": "true" } })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => {
        if (number !== boardAsked) return;
        const content = parse(html);
        const facts = content.getElementById("table-facts");
        const repeat = jsonIn(content, "board-repeat-stakes");
        replaceParts(content);
        if (state && facts) { // the table as it is now: another phone's hand, seat, undo
          dispatch({ type: "pushed", next: Number(facts.dataset.nextHand),
            last: Number(facts.dataset.lastHand), seating: facts.dataset.seating,
            at: Number(facts.dataset.factsAt || 0), repeat: repeat || undefined });
        }
        if (state && table()) drawUndo(table()); // the board's undo knows no hand waiting here
      })
      .catch(() => {}); // offline: the board catches up with the next answer
  }

  // The whole table drawn afresh: the box the host was typing in keeps the focus and the caret,
  // so that the next key still goes where it was meant.
  function swapTable(content) {
    boardAsked++;
    const focused = document.activeElement;
    const name = focused && focused.closest && focused.closest("#table") && focused.name;
    const caret = name && typeof focused.selectionStart === "number" ? focused.selectionStart : null;
    replaceParts(content);
    const rules = jsonIn(document, "keypad-rules"); // a tournament's stacks, as they are now
    if (state && rules) state = State.step(state, { type: "limits", limits: rules.limits });
    const again = name && handForm() && handForm().elements[name];
    if (again && typeof again.focus === "function") {
      refocusing = true; // the box the host is typing in: its text is not selected again
      again.focus({ preventScroll: true });
      refocusing = false;
      if (caret !== null) requestAnimationFrame(() => again.setSelectionRange(caret, caret));
    }
    drawnKey = null; // what the server drew beside the entry goes with the next drawing
    drawnAnswer = null;
    drawnOutbox = null;
  }

  // --- the state, kept on the device -----------------------------------------------------------

  function load() {
    try { return JSON.parse(localStorage.getItem(storeKey())); } catch (error) { return null; }
  }

  function keep() {
    try { localStorage.setItem(storeKey(), JSON.stringify(State.kept(state))); } catch (error) { /* full */ }
  }

  function dispatch(event) {
    state = State.step(state, { key: newKey(), ...event });
    keep();
    draw();
    pump();
  }

  // A tap from the host, timed from the input event to the frame that shows it (the benchmark
  // reads these measures: bench/table_in_browser.py).
  function tapped(inputEvent, event) {
    const before = state.queue.length;
    const idle = !state.flight && !state.queue.length;
    const begun = performance.now();
    dispatch(event);
    performance.measure("tap-handled", { start: begun }); // the state, the drawing, the sending
    const start = inputEvent.timeStamp;
    performance.measure("tap-to-screen", { start }); // drawn: the next frame shows it
    requestAnimationFrame(() => performance.measure("tap-to-frame", { start }));
    if (event.type === "save" && state.queue.length > before && idle) saveTapped = start;
  }
  let saveTapped = null;

  // --- talking to the server ------------------------------------------------------------------

  function csrf() {
    const token = document.querySelector("#table [name=csrfmiddlewaretoken]");
    return token ? token.value : "";
  }

  function post(url, fields) {
    return fetch(url, {
      method: "POST",
      body: new URLSearchParams({ csrfmiddlewaretoken: csrf(), ...fields }),
      headers: { "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded" },
    });
  }

  function urlFor(op) {
    if (op.kind === "hand") return handForm().action;
    if (op.kind === "seat") return table().dataset.seatUrl;
    return table().dataset.undoUrl;
  }

  function fieldsFor(op) {
    if (op.kind === "hand") return op.fields;
    if (op.kind === "seat") return { seat: String(op.seat), guest: op.guest };
    return { number: String(op.number), idempotency_key: op.key };
  }

  // Send what the state says is due; its answer goes back to the state with its number.
  function pump() {
    const op = State.due(state);
    if (!op && State.asksPrefill(state)) askPrefill(); // a coup waits for its bank
    if (!op || !table() || !handForm()) return; // a closed shoe's table takes nothing
    const request = ++requests;
    state = State.step(state, { type: "sent", id: op.id, request });
    if (!state.flight || state.flight.request !== request) return;
    keep();
    draw();
    post(urlFor(op), fieldsFor(op))
      .then(
        // An answer the page cannot read is the server's failure, not the network's.
        (response) => answerOf(op, response).catch(() => ({ failed: "server" })),
        () => ({ failed: "network" }),
      )
      .then((outcome) => {
        if (outcome.failed === "server") setTimeout(() => dispatch({ type: "retry" }), RETRY_MS);
        if (op.kind === "hand" && saveTapped !== null && !outcome.failed) {
          performance.measure("save-to-answer", { start: saveTapped });
          saveTapped = null;
        }
        dispatch({ type: "reply", request, outcome });
      });
  }

  async function answerOf(op, response) {
    if (response.status === 403) return { failed: "login" };
    if (response.status >= 400 && response.status < 500) { // sent again, it would fail again
      return { refused: true, reason: fill(texts().refused_status, { status: response.status }) };
    }
    if (!response.ok) return { failed: "server" };
    const content = parse(await response.text());
    if (op.kind === "hand" && response.headers.get("Shoebook-Table-Part") === "saved") {
      replaceParts(content);
      refreshBoard();
      const saved = content.querySelector("[data-saved-hand]"); // not a part: it stays here
      const next = Number(saved.dataset.nextHand);
      return { saved: true, notice: saved.textContent, next, last: next - 1,
        repeat: jsonIn(document, "repeat-stakes") || undefined, at: Number(saved.dataset.factsAt || 0) };
    }
    const facts = factsIn(content);
    const saved = op.kind === "hand" ? response.headers.get("Shoebook-Hand-Saved")
      : !content.querySelector("#table > .refusal");
    const decisions = op.kind === "hand" && !saved ? decisionsIn(content) : {};
    swapTable(content);
    if (!saved) return { refused: true, reason: reasonIn(document), ...decisions, ...facts };
    if (op.kind === "hand") refreshBoard();
    const notice = document.querySelector("[data-answer]");
    const outcome = { saved: true, notice: notice ? notice.textContent.trim() : "", ...facts };
    if (op.kind === "undo") outcome.entry = entryIn(document);
    return outcome;
  }

  // The server's words on cards the page could not read itself (a refused tap, typed cards).
  function askReading() {
    const asked = state.reading;
    const form = handForm();
    if (!asked || asked.text || !form || !navigator.onLine) return;
    const params = asked.typed ? { player_cards: asked.typed.player, banker_cards: asked.typed.banker }
      : { taps: asked.taps };
    fetch(form.dataset.dealUrl + "?" + new URLSearchParams(params), { headers: { "HX-Request": "true" } })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => {
        const status = parse(html).getElementById("deal-status");
        if (!status || !state) return;
        dispatch({ type: "reading", taps: asked.taps, typed: asked.typed,
          text: status.textContent, problem: status.classList.contains("problem") });
      })
      .catch(() => {});
  }

  // --- drawing the state --------------------------------------------------------------------------

  function draw() {
    const page = table();
    const form = handForm();
    if (!page || !form || !state) return;
    if (state.entry.fields) { drawCoup(page, form); return; }
    const entry = state.entry;
    const number = State.entryNumber(state);
    const cards = State.cardsOf(entry, state.rules);
    form.elements.number.value = String(number);
    form.elements.idempotency_key.value = entry.key;
    form.elements.taps.value = entry.typed ? "" : entry.taps.join(" ");
    setValue(form.elements.player_cards, cards.player);
    setValue(form.elements.banker_cards, cards.banker);
    form.querySelectorAll("input.stake").forEach((box) => {
      setValue(box, entry.stakes[box.name] || "");
      box.classList.toggle("chosen", box.name === state.chosen);
    });
    form.querySelectorAll("input[name=result]").forEach((radio) => {
      radio.checked = radio.value === entry.result;
    });
    for (const side of ["player_pair", "banker_pair"]) {
      if (form.elements[side]) form.elements[side].checked = Boolean(entry.pairs[side]);
    }
    const shown = page.querySelector("[data-hand-number]");
    if (shown) shown.textContent = String(number);
    const save = form.querySelector("button.save");
    save.textContent = fill(save.dataset.label, { number });
    const status = document.getElementById("deal-status");
    if (status) {
      const now = State.statusOf(state);
      status.textContent = now.text;
      status.classList.toggle("problem", Boolean(now.problem));
    }
    const answer = page.querySelector("[data-answer]");
    const quiet = !state.answer && State.isEmpty(entry); // the entry's own line, once it is used
    const held = quiet && state.held.length ? State.heldLines(state)[0].text : "";
    if (answer && (state.answer || held) !== drawnAnswer) {
      drawnAnswer = state.answer || held;
      answer.textContent = drawnAnswer;
      answer.classList.toggle("saved", Boolean(state.answer));
      answer.classList.toggle("held-note", Boolean(held));
    }
    if (state.entry.problem || state.entry.key !== drawnKey) clearProblems();
    drawnKey = state.entry.key;
    if (entry.badStake && form.elements[entry.badStake]) {
      form.elements[entry.badStake].setAttribute("aria-invalid", "true");
    }
    for (const name of entry.problem === "limit" ? entry.badStakes || [] : []) {
      if (form.elements[name]) form.elements[name].setAttribute("aria-invalid", "true");
    }
    drawTable(page, answer);
    askReading();
  }

  // The rest changes with the outbox and the server's answers, not with a tap: the state is
  // never changed in place, so the same objects mean nothing to draw.
  function drawTable(page, answer) {
    const outbox = [state.queue, state.flight, state.held, state.server, state.seatNotes,
      state.pickSeat, state.parked, state.entry.seq];
    if (!drawnOutbox || outbox.some((part, index) => part !== drawnOutbox[index])) {
      drawnOutbox = outbox;
      drawOutbox(page);
      drawHeld(page);
      drawUndo(page);
      drawSeats(page);
      page.classList.toggle("outbox-waiting", state.queue.length > 0);
    }
    if (state.stalled === "login" && answer) answer.textContent = texts().log_in;
  }
  let refocusing = false;
  let drawnAnswer = null;
  let drawnKey = null;
  let drawnOutbox = null;

  // A box shows the state's value, except a card box being typed in (the state reads it).
  function setValue(box, value) {
    if (!box || box.value === value) return;
    if (document.activeElement === box && !box.classList.contains("stake")) return;
    box.value = value;
  }

  // A problem drawn by the server beside the entry belongs to the hand it was drawn for.
  function clearProblems() {
    const page = table();
    page.querySelectorAll("#hand-form .errorlist, :scope > .refusal").forEach((line) => line.remove());
    page.querySelectorAll("#hand-form [aria-invalid]").forEach((box) => box.removeAttribute("aria-invalid"));
  }

  function drawOutbox(page) {
    const box = page.querySelector("[data-outbox]");
    if (!box) return;
    const lines = State.waitingLines(state);
    box.querySelector("[data-outbox-list]").replaceChildren(...lines.map((line) => {
      const item = document.createElement("li");
      item.textContent = line.text;
      if (line.sending) item.classList.add("sending");
      return item;
    }));
    box.hidden = lines.length === 0;
  }

  function drawHeld(page) {
    let box = page.querySelector("[data-held]");
    const lines = State.heldLines(state);
    if (!lines.length) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("section");
      box.className = "held";
      box.setAttribute("data-held", "");
      box.setAttribute("role", "alert");
      // Under the seat rows, above the entry bar: the rows stay in sight; the answer line says
      // a hand is held, and a tap on it shows the box.
      const form = handForm();
      form.insertBefore(box, form.querySelector(".entry-bar"));
    }
    box.replaceChildren(...lines.map((line) => {
      const item = document.createElement("div");
      item.className = "held-hand";
      item.dataset.heldHand = String(state.held[line.index].number);
      const words = document.createElement("p");
      words.textContent = line.text;
      item.append(words);
      if (line.taken) item.append(sideBySide(line));
      for (const seat of line.seats) item.append(seatChoices(line.index, seat));
      for (const [choice, label, style] of [["resend", line.resend, ""], ["renumber", line.renumber, ""],
        ["edit", line.edit, "secondary"], ["discard", line.discard, "secondary"]]) {
        if (!label) continue;
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = label;
        if (style) button.className = style;
        button.dataset.heldChoice = choice;
        button.dataset.index = String(line.index);
        item.append(button);
      }
      return item;
    }));
  }

  // The other phone's hand under this number beside this phone's, for the host to compare.
  function sideBySide(line) {
    const pair = document.createElement("div");
    pair.className = "held-pair";
    const theirs = document.createElement("p");
    theirs.dataset.otherHand = String(line.taken.number);
    theirs.textContent = `${fill(texts().held_other, { number: line.taken.number })} ${line.taken.text}`;
    const mine = document.createElement("p");
    mine.dataset.mineHand = "";
    const stakes = Object.entries(line.mine.stakes).map(([name, stake]) => {
      const box = handForm() && handForm().elements[name];
      return `${(box && box.getAttribute("aria-label")) || name} ${stake}`;
    });
    const cards = line.mine.player ? [`P ${line.mine.player}`, `B ${line.mine.banker}`] : [];
    const result = line.mine.result ? [texts()[line.mine.result] || line.mine.result] : [];
    mine.textContent = [fill(texts().held_mine, { number: state.held[line.index].number }),
      [...result, ...cards, ...stakes].join(" · ")].join(" ");
    pair.append(theirs, mine);
    return pair;
  }

  // A seat whose guest changed under the held hand: the bets, who made them, who is there now,
  // and the host's choice.
  function seatChoices(index, seat) {
    const box = document.createElement("fieldset");
    box.className = "held-seat";
    box.dataset.seatChanged = String(seat.seat);
    const legend = document.createElement("legend");
    legend.textContent = seat.text;
    box.append(legend);
    const options = [["drop", texts().seat_drop]];
    if (seat.now) options.unshift(["move", fill(texts().seat_move, { guest: seat.now.name })]);
    for (const [choice, words] of options) {
      const label = document.createElement("label");
      const radio = document.createElement("input");
      radio.type = "radio";
      radio.name = `held-${index}-seat-${seat.seat}`;
      radio.value = choice;
      radio.checked = seat.choice === choice;
      radio.dataset.seatChoice = String(seat.seat);
      radio.dataset.index = String(index);
      label.append(radio, ` ${words}`);
      box.append(label);
    }
    return box;
  }

  function drawUndo(page) {
    const form = page.querySelector("#table-undo form");
    if (!form) return;
    const label = State.undoLabel(state);
    const button = form.querySelector("button");
    form.hidden = !label;
    button.textContent = label;
    form.elements.number.value = String(State.undoTarget(state));
  }

  // The rows of stake boxes follow the seats as this phone knows them (a page the service worker
  // kept long ago has the seats of that time): a seated guest gets boxes, an emptied seat's go.
  function drawRows(page, seats, sheet) {
    const columns = [...page.querySelectorAll("table.bets thead th[data-bet]")];
    if (!columns.length) return;
    page.querySelectorAll("table.bets tbody tr").forEach((row) => {
      const guestLine = row.querySelector("[id^=seat-guest-]");
      if (!guestLine) return; // a tournament's rows are its draw
      const seat = guestLine.id.replace("seat-guest-", "");
      const guest = seats[seat];
      const button = guest && sheet && sheet.querySelector(`button[name=guest][value="${guest}"]`);
      if (button) guestLine.textContent = button.firstChild.textContent.trim();
      else if (!guest) guestLine.textContent = texts().empty_seat;
      row.classList.toggle("empty", !guest);
      row.querySelectorAll("td").forEach((cell, index) => {
        const column = columns[index];
        if (!column) return;
        let box = cell.querySelector("input.stake");
        if (guest && !box) {
          box = document.createElement("input");
          box.type = "text";
          box.name = `stake_${seat}_${column.dataset.bet}`;
          box.className = "stake";
          box.inputMode = "decimal";
          box.autocomplete = "off";
          const label = column.querySelector("abbr");
          box.setAttribute("aria-label", `${seat} · ${label ? label.title : column.dataset.bet}`);
          box.value = state.entry.stakes[box.name] || "";
          cell.replaceChildren(box);
        }
        if (box) box.disabled = !guest && !state.entry.stakes[box.name];
      });
    });
  }

  function drawSeats(page) {
    const sheet = page.querySelector(".quick-seat");
    drawRows(page, State.seatsNow(state), sheet);
    if (!sheet) return;
    const seats = State.seatsNow(state);
    const waiting = new Set(state.queue.filter((op) => op.kind === "seat").map((op) => String(op.seat)));
    sheet.querySelectorAll("input[name=seat]").forEach((radio) => {
      radio.checked = Number(radio.value) === state.pickSeat;
      const label = radio.closest("label");
      label.classList.toggle("waiting", waiting.has(radio.value));
      let note = label.querySelector(".seat-note");
      const said = state.seatNotes[radio.value];
      if (said && !note) {
        note = document.createElement("small");
        note.className = "seat-note problem";
        label.append(note);
      }
      if (note) { if (said) note.textContent = said; else note.remove(); }
      const who = label.querySelector(".who");
      const guest = seats[radio.value];
      if (who && guest) {
        const button = sheet.querySelector(`button[name=guest][value="${guest}"]`);
        if (button) who.textContent = button.firstChild.textContent.trim();
      } else if (who && !guest) {
        who.textContent = texts().empty_seat;
      }
    });
    sheet.querySelectorAll("button[name=guest]").forEach((button) => {
      const seat = Object.keys(seats).find((number) => seats[number] === button.value);
      button.classList.toggle("seated", Boolean(button.value && seat));
    });
  }

  // --- listening ----------------------------------------------------------------------------------

  const inTable = (event, selector) => state && event.target.closest && event.target.closest(selector);

  document.addEventListener("click", (event) => {
    if (!state) return;
    const key = inTable(event, "#hand-form .keypad button");
    if (key) { tapped(event, { type: "tap", rank: key.dataset.rank || null }); return; }
    const chip = inTable(event, "#hand-form [data-chip]");
    if (chip) { chipTapped(Number(chip.dataset.chip), event); return; }
    const tool = inTable(event, "#hand-form [data-repeat], #hand-form [data-clear]");
    if (tool) {
      event.preventDefault();
      const clear = tool.hasAttribute("data-clear");
      const taken = clear && state.entry.seq && !State.isEmpty(state.entry); // a hand to fix
      const letGo = fill(texts().clear_taken_back, { number: State.entryNumber(state) });
      if (taken && !window.confirm(letGo)) return;
      const held = clear && State.isEmpty(state.entry) && !state.parked && state.held.length;
      if (held && !window.confirm(texts().discard_confirm)) return; // Clear lets the refused hand go
      tapped(event, { type: clear ? "clear" : "repeat" });
      return;
    }
    const held = inTable(event, "[data-held-choice]");
    if (held) { heldChoice(held.dataset.heldChoice, Number(held.dataset.index)); return; }
    const note = inTable(event, "[data-answer].held-note");
    const heldBox = note && table().querySelector("[data-held]");
    if (heldBox) { heldBox.scrollIntoView({ block: "start" }); return; }
    const box = event.target;
    if (box.matches && box.matches("#hand-form input.stake") && box === document.activeElement &&
        box === selectOnTap) {
      box.select(); // the tap that opened the keyboard: what is typed replaces the stake
    }
    selectOnTap = null;
  });
  let selectOnTap = null;

  function heldChoice(choice, index) {
    if (choice === "discard" && !window.confirm(texts().discard_confirm)) return;
    if (choice === "edit" && state.parked && !State.isEmpty(state.entry)) {
      dispatch({ type: "choose", name: state.chosen }); // nothing to do: say why
      table().querySelector("[data-answer]").textContent = texts().edit_after_entry;
      return;
    }
    if (choice === "renumber") { dispatch({ type: "resend", index, renumber: true }); return; }
    dispatch({ type: choice, index });
  }

  function chipTapped(value, event) {
    tapped(event, { type: "chip", value });
    if (!state.chosen) {
      table().classList.add("ask-for-box");
      setTimeout(() => table() && table().classList.remove("ask-for-box"), 1200);
    }
  }

  document.addEventListener("change", (event) => {
    if (!state) return;
    const target = event.target;
    if (target.matches("#hand-form input[name=result]")) {
      tapped(event, { type: "result", value: target.checked ? target.value : "" });
    } else if (target.matches("#hand-form input[name$=_pair]")) {
      dispatch({ type: "pair", side: target.name, on: target.checked });
    } else if (target.matches(".quick-seat input[name=seat]")) {
      dispatch({ type: "pickSeat", seat: target.value });
    } else if (target.matches("[data-held] input[data-seat-choice]")) {
      dispatch({ type: "seatChoice", index: Number(target.dataset.index),
        seat: Number(target.dataset.seatChoice), choice: target.value });
    }
  });

  let typing = null;
  document.addEventListener("input", (event) => {
    if (!state) return;
    const box = event.target;
    if (box.matches("#hand-form input.stake")) {
      dispatch({ type: "stake", name: box.name, text: box.value });
      return;
    }
    if (!box.matches("#hand-form [name=player_cards], #hand-form [name=banker_cards]")) return;
    clearTimeout(typing);
    const form = handForm();
    const player = form.elements.player_cards.value;
    const banker = form.elements.banker_cards.value;
    state = State.step(state, { type: "typeCards", player, banker });
    keep();
    typing = setTimeout(draw, 300); // the server reads typed cards once typing pauses
  });

  // The first tap on a stake box chooses it for the chips (no keyboard pops up); a second tap
  // on the chosen box types in it.
  function holdFocus(event) {
    const box = event.target.closest && event.target.closest("#hand-form input.stake");
    if (!box || !state || box.name === state.chosen) return;
    event.preventDefault();
    tapped(event, { type: "choose", name: box.name });
    if (document.activeElement && document.activeElement.matches("input")) document.activeElement.blur();
  }
  document.addEventListener("pointerdown", holdFocus);
  document.addEventListener("mousedown", holdFocus);
  document.addEventListener("focusin", (event) => {
    const box = event.target;
    if (!state || !box.matches("#hand-form input.stake")) return;
    if (state.chosen !== box.name) dispatch({ type: "choose", name: box.name });
    if (refocusing) return;
    selectOnTap = box; // the tap's click selects it again, after the pointer put a caret in
    box.select(); // typing replaces the stake (150, then 35: 35)
  });

  document.addEventListener("submit", (event) => {
    if (!state) return;
    const form = event.target;
    if (form.id === "hand-form") {
      event.preventDefault();
      tapped(event, { type: "save" });
      return;
    }
    if (form.matches(".quick-seat")) {
      event.preventDefault();
      const button = event.submitter;
      if (!button || button.name !== "guest") return;
      dispatch({ type: "seat", seat: state.pickSeat, guest: button.value });
      return;
    }
    if (form.closest("#table-undo")) {
      event.preventDefault();
      const number = Number(form.elements.number.value);
      if (window.confirm(fill(texts().undo_confirm, { number }))) dispatch({ type: "undo", number });
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !state) return;
    if (state.entry.fields) return; // a coup's boxes take what is typed; Enter sends the form
    const form = handForm();
    if (!form) return;
    const target = event.target;
    const inStake = target.matches("input.stake");
    const inText = target.matches("input[type=text]:not(.stake), select, textarea");
    if (event.key === "Escape") {
      if (inStake || inText) { target.blur(); event.preventDefault(); }
      return;
    }
    if (inText) return; // the card boxes and other fields take what is typed
    if (event.key === "Enter") {
      // Enter saves, also on the form's own buttons (a chip just tapped); elsewhere it presses.
      if (target.closest("summary, .quick-seat, [data-held]") ||
          (target.closest("button, a") && !target.closest("#hand-form"))) return;
      event.preventDefault();
      dispatch({ type: "save" });
      return;
    }
    const key = event.key.length === 1 ? event.key.toUpperCase() : event.key;
    if (inStake) {
      if (key.length > 1 || /^[0-9.,]$/.test(key)) return; // amounts and editing keys
      event.preventDefault(); // a letter never lands in a stake box; a shortcut still acts
    }
    if (target.closest(".quick-seat")) return;
    if (RESULT_KEYS[key]) {
      event.preventDefault();
      dispatch({ type: "result", value: RESULT_KEYS[key] });
      return;
    }
    const rank = RANK_KEYS[key] || (/^[2-9]$/.test(key) ? key : null);
    if (rank && !inStake) { event.preventDefault(); dispatch({ type: "tap", rank }); return; }
    if (rank && inStake && /[AJQK]/.test(key)) { dispatch({ type: "tap", rank }); return; }
    if (key === "Backspace" && !inStake) { event.preventDefault(); dispatch({ type: "tap", rank: null }); }
  });

  // The other phones at this table, pushed by the server (static/js/live.js): their hands, seat
  // changes and undos move this phone's view of the server on, never its entry or its outbox;
  // the board (and Repeat's stakes, the seat totals) follows. After the stream was down,
  // anything may have changed: the board says how the table stands.
  document.addEventListener("shoebook:live", (event) => {
    const data = event.detail || {};
    if (!state || !table()) return;
    if (data.topic === "*") { coupPushed(data); refreshBoard(); return; }
    if (data.topic !== `shoe:${table().dataset.shoe}`) return;
    if (data.next !== undefined) {
      dispatch({ type: "pushed", next: Number(data.next), last: Number(data.last),
        seating: data.seating, at: Number(data.at || 0) });
    }
    coupPushed(data); // the next coup's bank first: a coup saved here may wait for it
    refreshBoard();
  });

  window.addEventListener("online", () => { if (state) dispatch({ type: "online" }); });
  window.addEventListener("offline", () => { if (state) dispatch({ type: "offline" }); });
  setInterval(() => { if (state && navigator.onLine && !state.online) dispatch({ type: "online" }); }, RETRY_MS);

  // --- a coup (Chemin de fer, Baccara banque) ---------------------------------------------------
  // The coup form's boxes are the entry (``fields`` in the state): what the host types or picks
  // is an event, and the form is drawn from the state, the bank's boxes the host left alone
  // from the server's prefill. Which choice the cards give is the server's word (``coup_step``),
  // asked for the cards the entry holds, and drawn into ``#coup-step`` only: never the entry.

  const COUP_FIXED = new Set(["csrfmiddlewaretoken", "number", "idempotency_key", "seating"]);
  const STEP_BOXES = ["player_cards", "banker_cards", "second_cards", "ponte_choice",
    "banker_choice", "second_choice"];

  const coupBox = (box) => box.name && !COUP_FIXED.has(box.name) && box.tagName !== "BUTTON" &&
    box.type !== "hidden";

  // A coup the server drew into the form (an undone coup put back), as the state keeps it.
  function coupFieldsIn(form) {
    const fields = {};
    for (const box of form ? form.elements : []) {
      if (!coupBox(box)) continue;
      if (box.type === "radio" || box.type === "checkbox") {
        if (box.checked) fields[box.name] = box.value;
      } else if (box.value) {
        fields[box.name] = box.value;
      }
    }
    return fields;
  }

  function drawCoup(page, form) {
    const entry = state.entry;
    const shown = State.coupShown(state);
    const number = State.entryNumber(state);
    form.elements.number.value = String(number);
    form.elements.idempotency_key.value = entry.key;
    for (const box of form.elements) {
      if (!coupBox(box)) continue;
      const value = shown[box.name] || "";
      if (box.type === "radio" || box.type === "checkbox") {
        box.checked = box.value === value;
      } else if (box.tagName === "SELECT") {
        if (box.value === value) continue;
        box.value = value;
        if (box.selectedIndex < 0) box.selectedIndex = 0; // a kind left alone: its first, as sent
      } else if (box.value !== value) {
        box.value = value;
      }
    }
    form.querySelectorAll("tr[data-seat]").forEach((row) => {
      row.classList.toggle("banker", row.dataset.seat === shown.banker_seat);
    });
    const terms = form.querySelector(".move-terms");
    if (terms) terms.classList.toggle("shown", Boolean(shown.suite_seat || shown.suite_amount || shown.taken));
    // Why the bank is where it is: said of the coup after the last one recorded.
    const prefill = state.server.prefill;
    const note = form.querySelector(".coup-note");
    if (note) note.hidden = !prefill || prefill.next !== number;
    const heading = page.querySelector("[data-hand-number]");
    if (heading) heading.textContent = String(number);
    const save = form.querySelector("button.save");
    save.textContent = fill(save.dataset.label, { number });
    // The server's problems beside the boxes belong to the coup they were drawn for (a refused
    // coup is held, its reason beside it, not in the entry).
    if (entry.key !== drawnKey || entry.problem) clearCoupProblems(page);
    drawnKey = entry.key;
    if (entry.badStake && form.elements[entry.badStake]) {
      form.elements[entry.badStake].setAttribute("aria-invalid", "true");
    }
    const answer = form.querySelector("[data-answer]");
    const said = coupProblem(entry) || state.answer;
    if (answer && said !== drawnAnswer) {
      drawnAnswer = said;
      answer.textContent = said;
      answer.classList.toggle("saved", Boolean(said));
      answer.classList.toggle("problem", Boolean(entry.problem));
    }
    drawTable(page, answer);
    askStep(form, shown);
  }

  function coupProblem(entry) {
    if (entry.problem === "stake") return fill(texts().not_an_amount, { text: entry.fields[entry.badStake] });
    if (entry.problem === "undo_pending") {
      const undo = state.queue.find((op) => op.kind === "undo");
      return fill(texts().save_after_undo, { number: undo ? undo.number : "" });
    }
    return "";
  }

  function clearCoupProblems(page) {
    page.querySelectorAll("#coup-form .errorlist, #coup-form tr.row-errors, :scope > .refusal")
      .forEach((line) => line.remove());
    page.querySelectorAll("#coup-form [aria-invalid]").forEach((box) => box.removeAttribute("aria-invalid"));
  }

  // The server's word on the cards the entry holds: asked once typing pauses, drawn only if the
  // cards are still those; a choice the cards no longer give leaves the entry.
  let stepDrawn = null; // the cards and choices the step on the page was drawn for
  let stepShown = null; // that step's element (a table drawn afresh brings another)
  let stepAsked = null;
  let stepTimer = null;

  function askStep(form, shown) {
    const step = document.getElementById("coup-step");
    if (!step || !form.dataset.stepUrl) return;
    if (step !== stepShown) stepDrawn = null;
    const params = {};
    for (const name of STEP_BOXES) params[name] = shown[name] || "";
    const query = new URLSearchParams(params).toString();
    if (query === stepDrawn || query === stepAsked) return;
    clearTimeout(stepTimer);
    stepAsked = query;
    stepTimer = setTimeout(() => {
      fetch(form.dataset.stepUrl + "?" + query, { headers: { "HX-Request": "true" } })
        .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
        .then((html) => {
          const drawn = parse(html).getElementById("coup-step");
          const now = document.getElementById("coup-step");
          if (stepAsked !== query || !drawn || !now || !state) return;
          now.replaceWith(drawn);
          stepShown = drawn;
          stepDrawn = query;
          stepAsked = null;
          const asked = [...new Set([...drawn.querySelectorAll("input[type=radio]")].map((box) => box.name))];
          dispatch({ type: "coupAsked", asked, shown: params });
        })
        .catch(() => { if (stepAsked === query) stepAsked = null; });
    }, 250);
  }

  const inCoup = (event) => state && state.entry.fields && event.target.closest &&
    event.target.closest("#coup-form") && coupBox(event.target);

  document.addEventListener("input", (event) => {
    if (!inCoup(event) || event.target.tagName !== "INPUT" || event.target.type === "radio") return;
    dispatch({ type: "coupField", name: event.target.name, value: event.target.value });
  });

  document.addEventListener("change", (event) => {
    if (!inCoup(event) || (event.target.tagName === "INPUT" && event.target.type !== "radio")) return;
    tapped(event, { type: "coupField", name: event.target.name, value: event.target.value });
  });

  document.addEventListener("submit", (event) => {
    if (!state || !state.entry.fields || event.target.id !== "coup-form") return;
    event.preventDefault();
    tapped(event, { type: "coupSave" });
  });

  document.addEventListener("click", (event) => {
    const clear = state && state.entry.fields && event.target.closest &&
      event.target.closest("#coup-form [data-clear]");
    if (!clear) return;
    event.preventDefault();
    const taken = state.entry.seq && !State.isEmpty(state.entry); // a coup to fix
    if (taken && !window.confirm(fill(texts().clear_taken_back, { number: State.entryNumber(state) }))) return;
    tapped(event, { type: "coupClear" });
  });

  // Another screen saved a coup (the table's stream): the next coup's bank, asked of the server
  // (before the board: a coup saved here may be waiting for it).
  function coupPushed(data) {
    if (!state || !state.entry.fields) return;
    const known = state.server.prefill;
    // A coup this phone's answer told of already; a seat change may move the bank: asked.
    if (data.what === "hand" && known && known.next === data.next) return;
    askPrefill(true);
  }

  // The server's prefill for the next coup (``?part=prefill``). One ask at a time; the outbox
  // waiting for it asks again for each new next coup, and at the latest every RETRY_MS, so that
  // it never waits forever while online.
  function askPrefill(pushed) {
    const page = table();
    if (!page || !page.dataset.boardUrl) return;
    if (prefillAsking) { prefillAgain = prefillAgain || pushed; return; }
    if (!pushed && prefillAskedFor === state.server.next) {
      if (!prefillTimer) {
        prefillTimer = setTimeout(() => { prefillTimer = null; prefillAskedFor = null; if (state) pump(); },
          RETRY_MS);
      }
      return;
    }
    prefillAsking = true;
    prefillAskedFor = state.server.next;
    const settled = () => {
      prefillAsking = false;
      const again = prefillAgain;
      prefillAgain = false;
      if (again) askPrefill(true); else if (state) pump();
    };
    fetch(page.dataset.boardUrl.replace("part=board", "part=prefill"))
      .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
      .then((prefill) => { prefillAsking = false; dispatch({ type: "coupPrefill", prefill }); settled(); })
      .catch(settled);
  }
  let prefillAsking = false;
  let prefillAgain = false;
  let prefillAskedFor = null;
  let prefillTimer = null;

  // --- start --------------------------------------------------------------------------------------

  function start() {
    const form = handForm();
    const rules = jsonIn(document, "keypad-rules");
    if (!table() || !form || !rules || !State) return;
    const facts = factsIn(document);
    const seats = table().querySelectorAll("input[name=seat]").length || 7;
    state = State.start({ rules, next: facts.next, last: facts.last, seating: facts.seating,
      seatCount: seats, repeat: facts.repeat || {}, key: form.elements.idempotency_key.value,
      online: navigator.onLine, coup: form.id === "coup-form", prefill: facts.prefill,
      at: facts.at }, load());
    keep();
    draw();
    pump();
  }

  // Tests and benchmarks read the page's placing of taps and its own timings through these.
  window.shoebookReadTaps = (taps) => state && State.readTaps(taps, state.rules);
  window.shoebookTableState = () => state;

  // One tab of this device keeps a table's outbox: a second tab on the same shoe (a stale one, or
  // the same page opened twice) says so and waits, inert, taking over when the first one closes.
  function claim() {
    if (!table() || !handForm()) return;
    if (!navigator.locks) { start(); return; }
    navigator.locks.request(storeKey(), { ifAvailable: true }, (lock) => {
      if (lock) { start(); return new Promise(() => {}); } // held while this page lives
      waitForTheOtherTab();
      return null;
    });
  }

  function waitForTheOtherTab() {
    const page = table();
    const rules = jsonIn(document, "keypad-rules");
    const note = document.createElement("p");
    note.className = "refusal other-tab";
    note.setAttribute("role", "alert");
    note.textContent = rules ? rules.texts.other_tab : "";
    page.prepend(note);
    page.querySelectorAll("form").forEach((form) => { form.inert = true; });
    // The other tab has gone: drawn afresh (what it recorded meanwhile), this page takes over.
    navigator.locks.request(storeKey(), () => { location.reload(); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", claim);
  else claim();
})();
