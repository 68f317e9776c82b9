// The offline page (the service worker shows it for any page asked for without a connection):
// the tables this device remembers (site.js keeps the list, newest first), each a link to the
// copy of its page the worker keeps. The page tries again when the connection returns.
(function () {
  "use strict";
  const TABLE_PAGE = /^\/shoes\/\d+\/$/; // as site.js and the worker read a table's address

  const list = document.querySelector("[data-offline-tables]");
  const none = document.querySelector("[data-offline-none]");
  if (!list) return;

  function remembered() {
    try {
      const tables = JSON.parse(localStorage.getItem("shoebook-tables"));
      return Array.isArray(tables) ? tables : [];
    } catch (error) {
      return [];
    }
  }

  function kept(url) {
    if (!("caches" in window)) return Promise.resolve(true); // cannot tell: offer the link
    return caches.match(url, { ignoreVary: true }).then(Boolean, () => true);
  }

  function seen(table) {
    const when = new Date(table.seen);
    if (isNaN(when)) return "";
    const time = when.toLocaleString(document.documentElement.lang || undefined, {
      dateStyle: "medium", timeStyle: "short",
    });
    return list.dataset.seen.replace("{time}", time);
  }

  function line(table, isKept) {
    const item = document.createElement("li");
    const name = document.createElement(isKept ? "a" : "span");
    name.textContent = table.title || table.url;
    if (isKept) name.href = table.url;
    item.append(name);
    const note = document.createElement("span");
    note.className = "muted";
    note.textContent = " · " + (isKept ? seen(table) : list.dataset.notKept);
    item.append(note);
    return item;
  }

  // Only addresses of table pages are ever links: the list is the device's, not the server's.
  const tables = remembered().filter((table) => table && TABLE_PAGE.test(String(table.url)));
  Promise.all(tables.map((table) => kept(table.url))).then((found) => {
    list.replaceChildren(...tables.map((table, index) => line(table, found[index])));
    list.hidden = tables.length === 0;
    if (none) none.hidden = tables.length > 0;
  });

  // The connection back: the page asked for, once the connection holds for a second (leaving
  // this page, the browser may report itself online for a moment; a reload then would cancel
  // the page being opened). The offline page itself: nothing to load again.
  const page = document.querySelector("[data-offline-page]");
  const standingIn = !page || page.dataset.offlinePage !== location.pathname;
  window.addEventListener("online", () => {
    if (standingIn) setTimeout(() => { if (navigator.onLine) location.reload(); }, 1000);
  });
})();
