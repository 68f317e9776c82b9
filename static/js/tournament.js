// A tournament table's page, on top of table.js (loaded only there). Without this script the
// "No bet" links fill the minimum through the table page and "Secret" posts and comes back;
// with it:
// - "No bet" puts the round's minimum in the seat's box on the tournament's side, as if typed;
// - the first-bet marker moves on as soon as a hand is saved here, even one waiting offline;
// - "Secret" hides the seat's stakes at once (even offline) and tells the server in the
//   background, which refuses a second secret bet in a round or one on a hand not allowed;
//   the stakes stay hidden on this device until the hand is saved.
(function () {
  "use strict";

  const table = () => document.getElementById("table");
  const handForm = () => document.getElementById("hand-form");
  const secretForm = () => document.getElementById("secret-bet-form");
  const hand = () => {
    const form = handForm();
    return form ? Number(form.elements.number.value) : 0;
  };

  // Seat -> hidden or not, for the hand being entered, as decided on this device: kept per shoe
  // so that a refreshed table (a refusal, a seat change) still hides what was hidden.
  const key = () => "shoebook-secret-" + (table() ? table().dataset.shoe : "");
  function choices() {
    try {
      const kept = JSON.parse(sessionStorage.getItem(key())) || {};
      return kept.hand === hand() ? kept.seats : {};
    } catch (error) {
      return {};
    }
  }
  function choose(seat, hidden) {
    const seats = { ...choices(), [seat]: hidden };
    sessionStorage.setItem(key(), JSON.stringify({ hand: hand(), seats }));
  }

  function say(text) {
    const answer = document.querySelector("[data-answer]");
    if (!answer) return;
    answer.textContent = text;
    answer.classList.add("saved");
  }

  // The first-bet marker: the server drew it for the page's hand; a hand saved here (sent or
  // still waiting, offline) moves it on to the next seat in play at once.
  function moveMarker() {
    const page = table();
    const State = window.ShoebookTableState;
    if (!page || !handForm() || !State) return;
    const marker = page.querySelector("[data-first-bet]");
    if (!("drawnFirstBet" in page.dataset)) {
      page.dataset.drawnFirstBet = marker ? marker.dataset.firstBet : "";
    }
    if (!marker) return;
    const inPlay = [...page.querySelectorAll("[data-stack]")]
      .filter((stack) => !stack.classList.contains("out"))
      .map((stack) => stack.dataset.stack);
    const seat = State.firstBetAt(inPlay, page.dataset.drawnFirstBet,
      Number(page.dataset.nextHand), hand());
    const results = page.querySelector(`tr[data-seat="${seat}"] .seat-results`);
    if (!results || marker.dataset.firstBet === String(seat)) return;
    marker.dataset.firstBet = String(seat);
    results.append(marker);
  }

  // The server drew each row secret or not for the hand it drew the page for (the table's
  // next hand); this device's choice has the last word.
  function apply() {
    const page = table();
    if (!page || !handForm()) return;
    moveMarker();
    const mine = choices();
    const drawnForThisHand = Number(page.dataset.nextHand) === hand();
    page.querySelectorAll("tr[data-seat]").forEach((row) => {
      if (!row.hasAttribute("data-drawn-secret")) {
        row.setAttribute("data-drawn-secret", row.classList.contains("secret") ? "1" : "0");
      }
      const seat = row.dataset.seat;
      const drawn = drawnForThisHand && row.dataset.drawnSecret === "1";
      const hidden = seat in mine ? mine[seat] : drawn;
      row.classList.toggle("secret", hidden);
      const toggle = row.querySelector("[data-secret-seat]");
      if (toggle) toggle.setAttribute("aria-pressed", String(hidden));
      page.querySelectorAll(`[data-stake-seat="${seat}"]`).forEach((line) => {
        line.classList.toggle("masked", hidden);
      });
    });
  }

  function fillMinimum(link) {
    const box = handForm() && handForm().elements[link.dataset.fill];
    if (!box) return;
    box.value = link.dataset.amount;
    box.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function toggleSecret(button) {
    const seat = button.dataset.secretSeat;
    const row = button.closest("tr[data-seat]");
    const hidden = !(row && row.classList.contains("secret"));
    const number = hand();
    choose(seat, hidden);
    apply();
    const form = secretForm();
    if (!form) return;
    const body = new URLSearchParams({
      csrfmiddlewaretoken: form.elements.csrfmiddlewaretoken.value,
      number: String(number),
      [hidden ? "mark" : "unmark"]: seat,
    });
    fetch(form.action, {
      method: "POST",
      body,
      headers: { "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded" },
    })
      .then((response) => response.json().then((answer) => ({ ok: response.ok, answer })))
      .then(({ ok, answer }) => {
        say(answer.message);
        if (!ok && hand() === number) { // refused: the stake shows again, the reason with it
          choose(seat, false);
          apply();
        }
      })
      .catch(() => {}); // offline: the stake stays hidden here all the same
  }

  document.addEventListener("click", (event) => {
    const link = event.target.closest("#hand-form [data-fill]");
    if (link) { event.preventDefault(); fillMinimum(link); return; }
    const button = event.target.closest("#hand-form [data-secret-seat]");
    if (button) { event.preventDefault(); toggleSecret(button); }
  });

  // Enter on these presses them (table.js would save the hand instead).
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.closest &&
        event.target.closest("#hand-form [data-fill], #hand-form [data-secret-seat]")) {
      event.stopPropagation();
    }
  }, true);

  // table.js swaps the whole table after each save, refusal or seat change, and moves the entry
  // on to the next hand when one waits on this device: hide again whatever is still secret.
  new MutationObserver(apply).observe(document.body, { childList: true, subtree: true });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", apply);
  else apply();
})();
