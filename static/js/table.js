// The live table: chip buttons and keyboard shortcuts. Everything also works without it.
(function () {
  "use strict";
  let activeStake = null;

  document.addEventListener("focusin", function (event) {
    if (event.target.matches("input.stake")) activeStake = event.target;
  });

  // A chip adds its value to the stake box last tapped (or the first one on the page).
  document.addEventListener("click", function (event) {
    const chip = event.target.closest("[data-chip]");
    if (!chip) return;
    const input = activeStake && document.body.contains(activeStake)
      ? activeStake : document.querySelector("input.stake");
    if (!input) return;
    const current = Number(input.value) || 0;
    input.value = String(current + Number(chip.dataset.chip));
    input.focus();
  });

  // Keys when not typing in a box: P/B/T choose the result, digits and J/Q/K enter cards
  // (0 is a ten, 1 an ace), Backspace takes a card back, Enter saves the hand.
  const RESULTS = { P: "player", B: "banker", T: "tie" };
  const RANKS = { "0": "10", "1": "A", J: "J", Q: "Q", K: "K" };

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const form = document.getElementById("hand-form");
    if (!form || event.target.matches("input[type=text], select, textarea")) return;
    const key = event.key.toUpperCase();
    let target = null;
    if (event.key === "Enter") {
      event.preventDefault();
      form.requestSubmit();
      return;
    }
    if (RESULTS[key]) {
      target = form.querySelector('input[name="result"][value="' + RESULTS[key] + '"]');
      if (target) { target.checked = true; event.preventDefault(); }
      return;
    }
    const rank = RANKS[key] || (/^[2-9]$/.test(key) ? key : null);
    if (rank) target = form.querySelector('.keypad [data-rank="' + rank + '"]');
    if (event.key === "Backspace") target = form.querySelector(".keypad [data-back]");
    if (target) { event.preventDefault(); target.click(); }
  });
})();
