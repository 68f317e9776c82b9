// Sharing a guest's balance and link: the device's share sheet when it has one (Web Share API),
// else a copy button (Clipboard API); the text field stays on the page to select by hand, and
// the LINE link is a plain link. Without JavaScript the page shows the text, the link and the
// LINE link. Also the Print button of receipts and shared results.
(function () {
  "use strict";

  document.querySelectorAll("[data-print]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  });

  document.querySelectorAll("[data-share]").forEach((panel) => {
    const field = panel.querySelector("[data-share-text]");
    const status = panel.querySelector("[data-share-status]");
    const sheet = panel.querySelector("[data-share-sheet]");
    const copy = panel.querySelector("[data-share-copy]");
    if (!field) return;
    const url = panel.dataset.shareUrl || "";
    const full = field.value;
    // The message without the link: the share sheet takes the link as a link of its own.
    const line = url && full.endsWith("\n" + url) ? full.slice(0, -(url.length + 1)) : full;
    const say = (text) => { if (status) status.textContent = text || ""; };

    // Selecting the whole message with one tap: the fallback when nothing else copies.
    field.addEventListener("focus", () => field.select());

    if (sheet && typeof navigator.share === "function") {
      sheet.hidden = false;
      sheet.addEventListener("click", () => {
        const data = { title: panel.dataset.shareTitle || "", text: line };
        if (url) data.url = url;
        say("");
        navigator.share(data).catch(() => { /* cancelled by the user, or refused */ });
      });
    }

    if (copy && navigator.clipboard && typeof navigator.clipboard.writeText === "function") {
      copy.hidden = false;
      copy.addEventListener("click", () => {
        navigator.clipboard.writeText(full).then(
          () => say(panel.dataset.copied),
          () => { field.focus(); field.select(); say(panel.dataset.copyFailed); },
        );
      });
    }
  });
})();
