// Every page: the dark/light switch, and the service worker that lets the table page open
// without a connection (static/js/service-worker.js, served from the site's root).
(function () {
  "use strict";
  const root = document.documentElement;
  const dark = () =>
    root.dataset.theme ? root.dataset.theme === "dark"
      : window.matchMedia("(prefers-color-scheme: dark)").matches;

  const switcher = document.querySelector("[data-theme-switch]");
  if (switcher) {
    switcher.hidden = false;
    switcher.setAttribute("aria-pressed", String(dark()));
    switcher.addEventListener("click", () => {
      root.dataset.theme = dark() ? "light" : "dark";
      switcher.setAttribute("aria-pressed", String(dark()));
      try { localStorage.setItem("shoebook-theme", root.dataset.theme); } catch (error) { /* */ }
    });
  }

  const script = document.currentScript || document.querySelector("script[data-service-worker]");
  if ("serviceWorker" in navigator && script && script.dataset.serviceWorker) {
    navigator.serviceWorker.register(script.dataset.serviceWorker, { scope: "/" }).catch(() => {});
  }
})();
