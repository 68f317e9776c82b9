// The live table. Every part of the page also works without this script; with it:
// - the card keypad's state is the taps, kept here: each tap is placed at once with the rules
//   core's tableau (sent in the page), then the server's reading of *all* the taps is asked for,
//   and only the reply to the newest question is shown, so a late reply never undoes a tap;
// - chips go to the stake box last chosen, which stays chosen across saves;
// - keyboard shortcuts work everywhere, and letters never land in a stake box;
// - a hand saved without a connection waits on this device (the outbox) and is sent, in order,
//   with its idempotency key, when the connection returns;
// - a save is answered with only what the hand changed, put in place part by part, while the
//   entry moves on here; the scoreboard and the latest hands follow in a request of their own.
(function () {
  "use strict";

  const RESULT_KEYS = { P: "player", B: "banker", T: "tie" };
  const RANK_KEYS = { "0": "10", "1": "A", A: "A", J: "J", Q: "Q", K: "K" };
  const SUIT_MARKS = /[SHDC♠♤♥♡♦♢♣♧]$/;

  let chosenBox = null; // the name of the stake box chips go to
  let deal = { taps: [], typed: false };
  let asked = 0; // the number of the newest question put to the server about the cards
  let pending = null; // its AbortController
  let flushing = false;

  const table = () => document.getElementById("table");
  const handForm = () => document.getElementById("hand-form");
  function rules() {
    const data = document.getElementById("keypad-rules");
    return data ? JSON.parse(data.textContent) : null;
  }
  const texts = () => (rules() || { texts: {} }).texts;
  const fill = (template, values) =>
    template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));

  // --- the cards --------------------------------------------------------------------------

  function total(cards, R) {
    return cards.reduce((sum, rank) => sum + R.values[rank], 0) % 10;
  }

  function cardsDue(player, banker, R) {
    const playerTotal = total(player.slice(0, 2), R);
    const bankerTotal = total(banker.slice(0, 2), R);
    if (playerTotal >= 8 || bankerTotal >= 8) return [false, false];
    if (R.player_draws[playerTotal] && player.length < 3) return [true, true];
    const third = player.length === 3 ? String(R.values[player[2]]) : "none";
    return [false, R.banker_draws[third][bankerTotal] && banker.length < 3];
  }

  // Ranks in deal order (P1 B1 P2 B2, then third cards) placed as games.entry.read_taps does.
  function readTaps(taps, R) {
    const player = [];
    const banker = [];
    const copies = {};
    let due = [true, true];
    for (let index = 0; index < taps.length; index++) {
      const rank = taps[index];
      let toPlayer;
      if (!(rank in R.values)) return { player, banker, due, taken: index };
      if (player.length < 2 || banker.length < 2) toPlayer = player.length <= banker.length;
      else if (due[0] || due[1]) toPlayer = due[0];
      else return { player, banker, due, taken: index };
      copies[rank] = (copies[rank] || 0) + 1;
      if (copies[rank] > R.per_rank) return { player, banker, due, taken: index };
      (toPlayer ? player : banker).push(rank);
      if (player.length >= 2 && banker.length >= 2) due = cardsDue(player, banker, R);
    }
    return { player, banker, due, taken: taps.length };
  }

  function localStatus(reading, R) {
    const T = R.texts;
    const { player, banker, due } = reading;
    if (!player.length && !banker.length) return T.start;
    const firstFour = [[player, 0], [banker, 0], [player, 1], [banker, 1]];
    for (let index = 0; index < 4; index++) {
      const [side, position] = firstFour[index];
      if (side.length <= position) return fill(T.next, { card: T.cards[index] });
    }
    if (due[0]) return T.player_draws;
    if (due[1]) return T.banker_draws;
    return navigator.onLine ? T.checking : T.offline;
  }

  function setStatus(text, problem) {
    const status = document.getElementById("deal-status");
    if (!status) return;
    status.textContent = text;
    status.classList.toggle("problem", Boolean(problem));
    hideAnswer();
  }

  function hideAnswer() {
    const answer = document.querySelector("[data-answer]");
    if (answer) answer.classList.remove("saved");
  }

  function say(text) {
    const answer = document.querySelector("[data-answer]");
    if (!answer) return;
    answer.textContent = text;
    answer.classList.add("saved");
  }

  function showCards(reading) {
    const form = handForm();
    form.elements.taps.value = deal.taps.join(" ");
    form.elements.player_cards.value = reading.player.join(" ");
    form.elements.banker_cards.value = reading.banker.join(" ");
  }

  // Typed boxes become taps when they read in deal order; otherwise the tap is refused.
  function typedAsTaps(R) {
    const form = handForm();
    const side = (name) =>
      form.elements[name].value.trim().toUpperCase().split(/[\s,]+/).filter(Boolean)
        .map((card) => card.replace(SUIT_MARKS, "").replace(/^T$/, "10"));
    const player = side("player_cards");
    const banker = side("banker_cards");
    const order = [];
    for (let index = 0; index < 2; index++) {
      if (player[index]) order.push(player[index]);
      if (banker[index]) order.push(banker[index]);
    }
    order.push(...player.slice(2), ...banker.slice(2));
    const replay = readTaps(order, R);
    const same = replay.taken === order.length &&
      replay.player.join() === player.join() && replay.banker.join() === banker.join();
    return same ? order : null;
  }

  function tap(rank) {
    const R = rules();
    if (!R || !handForm()) return;
    if (deal.typed) {
      const order = typedAsTaps(R);
      if (order === null) { setStatus(R.texts.out_of_order, true); return; }
      deal = { taps: order, typed: false };
    }
    const next = rank ? [...deal.taps, rank] : deal.taps.slice(0, -1);
    const reading = readTaps(next, R);
    if (reading.taken < next.length) {
      ask({ taps: next.join(" ") }, false); // the server says why, in the page's words
      return;
    }
    deal.taps = next;
    showCards(reading);
    setStatus(localStatus(reading, R), false);
    ask({ taps: next.join(" ") }, true);
  }

  // Put a question to the server's rules core; only the newest question's answer is shown.
  function ask(params, tapsAreLocal) {
    const form = handForm();
    const number = ++asked;
    if (pending) pending.abort();
    pending = new AbortController();
    const url = form.dataset.dealUrl + "?" + new URLSearchParams(params);
    fetch(url, { headers: { "HX-Request": "true" }, signal: pending.signal })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => { if (number === asked) showReading(html, params, tapsAreLocal); })
      .catch(() => {
        if (number === asked && !navigator.onLine && tapsAreLocal) setStatus(texts().offline);
      });
  }

  function showReading(html, params, tapsAreLocal) {
    const reply = document.createElement("template");
    reply.innerHTML = html;
    const status = reply.content.getElementById("deal-status");
    const form = handForm();
    if (!status || !form) return;
    setStatus(status.textContent, status.classList.contains("problem"));
    if (!("taps" in params)) return; // typed boxes: the words only, never the boxes being typed
    const field = (name) => reply.content.querySelector(`[name="${name}"]`).value;
    if (tapsAreLocal || field("taps").split(" ").filter(Boolean).length <= deal.taps.length) {
      deal.taps = field("taps").split(" ").filter(Boolean);
      form.elements.taps.value = field("taps");
      form.elements.player_cards.value = field("player_cards");
      form.elements.banker_cards.value = field("banker_cards");
    }
  }

  let typing = null;
  document.addEventListener("input", (event) => {
    const box = event.target;
    if (box.matches("#hand-form input.stake")) {
      const clean = box.value.replace(/[^0-9０-９.,]/g, "");
      if (clean !== box.value) box.value = clean;
      return;
    }
    if (!box.matches("#hand-form [name=player_cards], #hand-form [name=banker_cards]")) return;
    deal = { taps: [], typed: true };
    handForm().elements.taps.value = "";
    clearTimeout(typing);
    typing = setTimeout(() => {
      const form = handForm();
      ask({ player_cards: form.elements.player_cards.value,
            banker_cards: form.elements.banker_cards.value }, false);
    }, 300);
  });

  document.addEventListener("click", (event) => {
    const key = event.target.closest("#hand-form .keypad button");
    if (key) { tap(key.dataset.rank || null); return; }
    const chip = event.target.closest("#hand-form [data-chip]");
    if (chip) { addChip(Number(chip.dataset.chip)); return; }
    const tool = event.target.closest("#hand-form [data-repeat], #hand-form [data-clear]");
    if (tool) { event.preventDefault(); betTool(tool); }
  });

  // --- stakes and chips ---------------------------------------------------------------------

  function choose(name) {
    chosenBox = name;
    document.querySelectorAll("#hand-form input.stake").forEach((box) => {
      box.classList.toggle("chosen", box.name === name);
    });
  }

  // The first tap on a stake box chooses it for the chips (no keyboard pops up); a second tap
  // on the chosen box types in it.
  function holdFocus(event) {
    const box = event.target.closest && event.target.closest("#hand-form input.stake");
    if (!box || box.name === chosenBox) return;
    event.preventDefault();
    choose(box.name);
    if (document.activeElement && document.activeElement.matches("input")) {
      document.activeElement.blur();
    }
  }
  document.addEventListener("pointerdown", holdFocus);
  document.addEventListener("mousedown", holdFocus);
  document.addEventListener("focusin", (event) => {
    const box = event.target;
    if (!box.matches("#hand-form input.stake")) return;
    choose(box.name);
    setTimeout(() => box.setSelectionRange(box.value.length, box.value.length)); // type on
  });
  document.addEventListener("click", (event) => {
    const box = event.target;
    if (box.matches("#hand-form input.stake") && box === document.activeElement) {
      box.setSelectionRange(box.value.length, box.value.length);
    }
  });

  function cents(text) {
    const plain = text.replace(/,/g, "").replace(/[０-９]/g, (d) => String(d.charCodeAt(0) - 0xff10));
    if (plain === "") return 0;
    const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(plain);
    return match ? Number(match[1]) * 100 + Number((match[2] || "0").padEnd(2, "0")) : null;
  }

  function addChip(value) {
    const box = chosenBox && handForm().elements[chosenBox];
    if (!box) {
      say(texts().pick_a_box);
      table().classList.add("ask-for-box");
      setTimeout(() => table() && table().classList.remove("ask-for-box"), 1200);
      return;
    }
    const before = cents(box.value);
    if (before === null) { box.focus(); return; }
    const after = before + value * 100;
    box.value = after % 100 ? (after / 100).toFixed(2) : String(after / 100);
  }

  // Repeat and Clear work in the page, at once and offline: a fetch and a swap of the table
  // would drop a tap made while it was on its way.
  function betTool(link) {
    if (link.hasAttribute("data-repeat")) localBets(repeatStakes());
    else clearEntry();
  }

  function repeatStakes() {
    const queued = lastStakes(); // a hand saved here and not yet sent is the last one
    if (Object.keys(queued).length) return queued;
    const page = document.getElementById("repeat-stakes");
    return page ? JSON.parse(page.textContent) : {};
  }

  function clearEntry() {
    const form = handForm();
    if (!form) return;
    localBets({});
    deal = { taps: [], typed: false };
    for (const name of ["taps", "player_cards", "banker_cards"]) form.elements[name].value = "";
    form.querySelectorAll("[name=result], [name=player_pair], [name=banker_pair]")
      .forEach((box) => { box.checked = false; });
    setStatus(texts().start, false);
  }

  function localBets(stakes) {
    document.querySelectorAll("#hand-form input.stake").forEach((box) => {
      box.value = stakes[box.name] || "";
    });
  }

  // --- keyboard ------------------------------------------------------------------------------

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
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
      if (target.closest("summary, .quick-seat") ||
          (target.closest("button, a") && !target.closest("#hand-form"))) return;
      event.preventDefault();
      form.requestSubmit();
      return;
    }
    const key = event.key.length === 1 ? event.key.toUpperCase() : event.key;
    if (inStake) {
      if (key.length > 1 || /^[0-9.,]$/.test(key)) return; // amounts and editing keys
      event.preventDefault(); // a letter never lands in a stake box; a shortcut still acts
    }
    if (target.closest(".quick-seat")) return;
    if (RESULT_KEYS[key]) {
      const radio = form.querySelector(`input[name="result"][value="${RESULT_KEYS[key]}"]`);
      if (radio) { radio.checked = true; event.preventDefault(); }
      return;
    }
    const rank = RANK_KEYS[key] || (/^[2-9]$/.test(key) ? key : null);
    if (rank && !inStake) { event.preventDefault(); tap(rank); return; }
    if (rank && inStake && /[AJQK]/.test(key)) { tap(rank); return; }
    if (key === "Backspace" && !inStake) { event.preventDefault(); tap(null); }
  });

  // --- saving, and the outbox -----------------------------------------------------------------

  const outboxKey = () => "shoebook-outbox-" + table().dataset.shoe;
  function outbox() {
    try { return JSON.parse(localStorage.getItem(outboxKey())) || []; } catch (error) { return []; }
  }
  function keep(items) {
    localStorage.setItem(outboxKey(), JSON.stringify(items));
    showOutbox();
  }

  function showOutbox() {
    const box = document.querySelector("[data-outbox]");
    if (!box) return;
    const items = outbox();
    const list = box.querySelector("[data-outbox-list]");
    list.replaceChildren(...items.map((item) => {
      const line = document.createElement("li");
      line.textContent = fill(texts().waiting, { number: item.number });
      return line;
    }));
    box.hidden = items.length === 0;
    table().classList.toggle("outbox-waiting", items.length > 0);
  }

  function newKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  function lastStakes() {
    const items = outbox();
    const stakes = {};
    if (!items.length) return stakes;
    new URLSearchParams(items[items.length - 1].body).forEach((value, name) => {
      if (name.startsWith("stake_") && value) stakes[name] = value;
    });
    return stakes;
  }

  // The entry moves on to the next hand on this device while the saved one waits to be sent.
  function nextHandHere(number) {
    const form = handForm();
    form.elements.number.value = String(number);
    form.elements.idempotency_key.value = newKey();
    form.querySelectorAll("input.stake, [name=player_cards], [name=banker_cards]")
      .forEach((box) => { box.value = ""; });
    form.querySelectorAll("input[name=result], input[name$=_pair]").forEach((box) => {
      box.checked = false;
    });
    form.elements.taps.value = "";
    deal = { taps: [], typed: false };
    const shown = document.querySelector("[data-hand-number]");
    if (shown) shown.textContent = String(number);
    const save = form.querySelector("button.save");
    save.textContent = fill(save.dataset.label, { number });
    const R = rules();
    if (R) setStatus(R.texts.start);
  }

  function send(item) {
    return fetch(item.url, {
      method: "POST",
      body: item.body,
      headers: { "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded" },
    });
  }

  function entryIsEmpty() {
    const form = handForm();
    return !form || [...form.querySelectorAll("input.stake, [name=player_cards], [name=banker_cards]")]
      .every((box) => !box.value) && !form.querySelector("input[name=result]:checked");
  }

  async function flush() {
    if (flushing || !navigator.onLine || !table() || !outbox().length) return;
    flushing = true;
    try {
      while (outbox().length) {
        const [item, ...rest] = outbox();
        let response;
        try { response = await send(item); } catch (error) { return; } // still offline
        if (response.status === 403) { say(texts().log_in); return; }
        if (!response.ok) return; // the server is not well: try again later
        const html = await response.text();
        if (response.headers.get("Shoebook-Hand-Saved")) {
          keep(rest);
          if (isSavedPart(response)) applySaved(html, false);
          else if (!rest.length && entryIsEmpty()) swapTable(html);
          say(fill(texts().sent, { number: item.number }));
          continue;
        }
        keep(rest); // refused: the page shows why, with the hand back in the entry
        swapTable(html);
        say(fill(texts().stopped, { number: item.number }));
        return;
      }
    } finally {
      flushing = false;
    }
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.id !== "hand-form") return;
    event.preventDefault();
    const save = form.querySelector("button.save");
    if (save.disabled) return;
    const item = {
      number: Number(form.elements.number.value),
      key: form.elements.idempotency_key.value,
      url: form.action,
      body: new URLSearchParams(new FormData(form)).toString(),
    };
    const queue = () => {
      keep([...outbox(), item]);
      nextHandHere(item.number + 1);
      say(fill(texts().queued, { number: item.number }));
    };
    if (outbox().length || !navigator.onLine) { queue(); flush(); return; }
    save.disabled = true;
    const started = performance.now();
    send(item)
      .then((response) => {
        if (response.status === 403) return Promise.reject(new Error("login"));
        if (!response.ok) return Promise.reject(new TypeError("server"));
        return response.text().then((html) => {
          if (isSavedPart(response)) {
            applySaved(html, true);
            save.disabled = false;
          } else {
            swapTable(html);
          }
          window.shoebookLastSave = performance.now() - started;
        });
      })
      .catch((error) => {
        save.disabled = false;
        if (error.message === "login") say(texts().log_in);
        else queue();
      });
  });

  // --- the page after each change -------------------------------------------------------------

  const isSavedPart = (response) => response.headers.get("Shoebook-Table-Part") === "saved";

  // Each part of a reply takes the place of the part of the page with the same id.
  function replaceParts(html) {
    const reply = document.createElement("template");
    reply.innerHTML = html.trim();
    for (const part of [...reply.content.children].filter((element) => element.id)) {
      const current = document.getElementById(part.id);
      if (!current) continue;
      current.replaceWith(part);
      if (window.htmx) window.htmx.process(part);
    }
    return reply.content;
  }

  // A saved hand's answer holds only what the hand changed; with ``moveOn`` (the hand just
  // sent from the entry) the entry moves on to the next hand. The scoreboard and the index
  // of every hand follow.
  function applySaved(html, moveOn) {
    const rest = replaceParts(html);
    const saved = rest.querySelector("[data-saved-hand]");
    const page = table();
    if (!saved || !page) return;
    page.dataset.savedHand = saved.dataset.savedHand;
    page.dataset.nextHand = saved.dataset.nextHand;
    if (moveOn) {
      clearProblems();
      nextHandHere(Number(saved.dataset.nextHand));
      say(saved.textContent);
    }
    refreshBoard();
  }

  function clearProblems() {
    const page = table();
    page.querySelectorAll("#hand-form .errorlist, :scope > .refusal").forEach((line) => line.remove());
    page.querySelectorAll("#hand-form [aria-invalid]").forEach((box) => box.removeAttribute("aria-invalid"));
  }

  // The newest board asked for is the only one shown; a table drawn whole since (an undo, a
  // seat change, a refusal) outdates every board still on its way.
  let boardAsked = 0;
  function refreshBoard() {
    const url = table() && table().dataset.boardUrl;
    if (!url) return;
    const number = ++boardAsked;
    fetch(url, { headers: { "HX-Request": "true" } })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => { if (number === boardAsked) replaceParts(html); })
      .catch(() => {}); // offline: the board catches up with the next save
  }

  // The whole table drawn afresh (a refusal, a full answer): its #table takes the page's place.
  function swapTable(html) {
    boardAsked++;
    replaceParts(html);
    settle();
  }

  function settle() {
    const form = handForm();
    if (!table()) return;
    if (form) {
      const taps = form.elements.taps.value.split(" ").filter(Boolean);
      const typed = !taps.length &&
        Boolean(form.elements.player_cards.value || form.elements.banker_cards.value);
      deal = { taps, typed };
      if (chosenBox && form.elements[chosenBox]) choose(chosenBox);
    }
    showOutbox();
    const items = outbox();
    if (form && items.length) {
      const next = items[items.length - 1].number + 1;
      if (Number(form.elements.number.value) < next) nextHandHere(next);
    }
    flush();
  }

  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.target && event.detail.target.id === "table") boardAsked++;
  });
  document.addEventListener("htmx:afterSettle", settle);
  // Seats and undo wait until the hands kept on this device are recorded.
  document.addEventListener("htmx:confirm", (event) => {
    if (table() && outbox().length) {
      event.preventDefault();
      say(fill(texts().waiting, { number: outbox()[0].number }));
    }
  });
  window.addEventListener("online", flush);
  setInterval(() => { if (navigator.onLine) flush(); }, 5000);
  window.shoebookReadTaps = (taps) => { const R = rules(); return R && readTaps(taps, R); };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", settle);
  else settle();
})();
