// Every page: the dark/light switch, and the service worker (templates/service-worker.js, served
// from the site's root) that lets a table page open without a connection. On a table page, the
// table is remembered on this device (the offline page lists it) and, when the worker did not
// answer this visit (the first one, before it was installed), the worker is asked to keep a copy
// of the page, so that one visit online is enough.
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

  // --- the tables this device has opened (the offline page lists them) ---------------------

  const TABLE_PAGE = /^\/shoes\/\d+\/$/; // the worker keeps these addresses (see its TABLE_PAGE)
  const TABLES_KEY = "shoebook-tables";
  const TABLES_KEPT = 10;
  const tableUrl = document.querySelector("#table[data-shoe]") && TABLE_PAGE.test(location.pathname)
    ? location.pathname : null;

  function rememberTable(url) {
    let tables;
    try { tables = JSON.parse(localStorage.getItem(TABLES_KEY)); } catch (error) { /* */ }
    tables = (Array.isArray(tables) ? tables : []).filter((table) => table && table.url !== url);
    // A closed shoe has no entry form: no longer a table to open offline.
    if (document.querySelector("#table #hand-form, #table #coup-form")) {
      const title = document.title.replace(/ · Shoebook$/, "");
      tables.unshift({ url: url, title: title, seen: new Date().toISOString() });
    }
    try {
      localStorage.setItem(TABLES_KEY, JSON.stringify(tables.slice(0, TABLES_KEPT)));
    } catch (error) { /* storage refused: the offline page lists nothing */ }
  }

  if (tableUrl) rememberTable(tableUrl);

  // --- logging out forgets the device's copies ------------------------------------------------

  // The server's answer asks the browser to clear the caches and the storage (Clear-Site-Data);
  // a browser that ignores it still holds the table pages the worker kept and each table's
  // outbox: they are cleared here before the form is sent.
  async function forgetThisDevice() {
    for (const storage of [window.localStorage, window.sessionStorage]) {
      try {
        Object.keys(storage).filter((key) => key.startsWith("shoebook-"))
          .forEach((key) => storage.removeItem(key));
      } catch (error) { /* storage refused: nothing kept there */ }
    }
    if (!("caches" in window)) return;
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith("shoebook-"))
      .map((name) => caches.delete(name)));
  }

  // Writes made at a table on this device that the server has not acknowledged yet (each
  // table's outbox, and hands held for the host): logging out would delete them with the rest.
  function unsentHere() {
    let count = 0;
    try {
      Object.keys(localStorage).filter((key) => key.startsWith("shoebook-table-")).forEach((key) => {
        const kept = JSON.parse(localStorage.getItem(key)) || {};
        for (const part of ["queue", "held", "parked"]) {
          if (Array.isArray(kept[part])) count += kept[part].length;
        }
      });
    } catch (error) { /* storage refused or unreadable: nothing to count */ }
    return count;
  }

  document.querySelectorAll("form[data-logout]").forEach((form) => {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const unsent = unsentHere();
      const warning = (form.dataset.unsentWarning || "").replace("{count}", String(unsent));
      if (unsent && !window.confirm(warning)) return; // kept: sent when the network is back
      forgetThisDevice().catch(() => {}).then(() => form.submit()); // submit() fires no event
    });
  });

  // --- a form that makes something is sent once ----------------------------------------------

  // A double tap sends a form twice, and a form that makes something (an invitation, a night, a
  // link) would make two, the page showing only the second. A form marked data-submit-once lets
  // its first submit through and stops the others until the page is shown again. Its button is
  // marked busy, not disabled: a disabled submitter is left out of what the form sends, and
  // "Revoke calendar link" is told from "New calendar link" by its name. (A form sent by htmx
  // uses hx-disabled-elt and hx-sync instead: htmx takes its submit before this sees it.)
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-submit-once")) return;
    if ("sending" in form.dataset) {
      event.preventDefault();
      return;
    }
    if (event.defaultPrevented) return; // another handler took it: nothing is on its way
    form.dataset.sending = "";
    form.setAttribute("aria-busy", "true");
    const button = event.submitter || form.querySelector("button[type=submit], button:not([type])");
    if (button) {
      button.setAttribute("aria-disabled", "true");
      button.dataset.sending = "";
    }
  });

  // Back to the page (the browser's back-forward cache keeps it as it was left): the form may be
  // sent again.
  window.addEventListener("pageshow", () => {
    document.querySelectorAll("[data-sending]").forEach((element) => {
      delete element.dataset.sending;
      element.removeAttribute(element instanceof HTMLFormElement ? "aria-busy" : "aria-disabled");
    });
  });

  // --- the service worker ------------------------------------------------------------------

  const script = document.currentScript || document.querySelector("script[data-service-worker]");
  if (!("serviceWorker" in navigator) || !script || !script.dataset.serviceWorker) return;
  navigator.serviceWorker.register(script.dataset.serviceWorker, { scope: "/" }).catch(() => {});
  if (!tableUrl) return;

  // The files this page loaded: the worker keeps those it does not have yet.
  const assets = Array.from(
    document.querySelectorAll("script[src], link[rel~=stylesheet][href], link[rel~=icon][href]"),
    (element) => element.src || element.href,
  );
  navigator.serviceWorker.addEventListener("message", (event) => {
    const answer = event.data || {};
    if (answer.type === "shoebook:page-kept" && answer.url === tableUrl) {
      root.dataset.offlineCopy = "kept"; // the page opens offline from now on
    }
  });
  navigator.serviceWorker.startMessages();
  // Asked unless a copy is kept already. Whether the worker controls the page says nothing: it
  // may have claimed a page whose load it did not answer (nor keep).
  navigator.serviceWorker.ready
    .then((registration) => caches.match(tableUrl, { ignoreVary: true }).then((kept) => {
      if (kept) root.dataset.offlineCopy = "kept";
      else if (registration.active) {
        registration.active.postMessage({ type: "shoebook:keep-page", url: tableUrl, assets: assets });
      }
    }))
    .catch(() => {});
})();
