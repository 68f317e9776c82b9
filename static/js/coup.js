// A guest-banked table's coup (Chemin de fer, Baccara banque). The page works without this
// script (htmx sends the coup and asks which choice the cards give); with it:
// - the seat chosen as banker is marked in the stakes at once;
// - a coup that could not be sent (no connection) says so instead of doing nothing. A coup is
//   never kept on the device to send later: the next coup's bank follows from this one.
(function () {
  "use strict";

  const coupForm = () => document.getElementById("coup-form");

  function markBanker() {
    const form = coupForm();
    if (!form || !form.elements.banker_seat) return;
    const banker = form.elements.banker_seat.value;
    form.querySelectorAll("tr[data-seat]").forEach((row) => {
      row.classList.toggle("banker", row.dataset.seat === banker);
    });
  }

  function say(text) {
    const answer = document.querySelector("#coup-form [data-answer]");
    if (!answer || !text) return;
    answer.textContent = text;
    answer.classList.add("saved", "problem");
  }

  document.addEventListener("change", (event) => {
    if (event.target.matches("#coup-form [name=banker_seat]")) markBanker();
  });
  document.addEventListener("htmx:sendError", (event) => {
    const form = coupForm();
    if (form && event.target === form) say(form.dataset.unsent);
  });
  document.addEventListener("htmx:afterSettle", markBanker);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", markBanker);
  else markBanker();
})();
