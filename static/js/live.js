// Pushed live (shoebook/base/live.py): the page's stream of what changed, for every screen.
// - The element with [data-live-url] names the page's stream (server-sent events). Each message
//   is dispatched on the document as "shoebook:live" ({topic, what, ...facts}); the stream's
//   state is on <html data-live="open|closed"> with a "shoebook:live-state" event. After a drop
//   and a reopen, one {topic: "*", what: "resync"}: anything may have changed meanwhile.
// - An element with [data-live-refresh] is fetched again (htmx, its "live-refresh" trigger) on
//   each message (of one of its [data-live-topics], kinds of topic such as "guest event", if it
//   names them); [data-live-gap] seconds at least between two of its fetches. While the stream
//   is not open, an element with [data-live-poll] is fetched every that many seconds instead:
//   the polling the page did before, as the fallback. A change saved while the page loaded
//   reached no stream: the stream's address carries ?since=<when the page was drawn>, and the
//   server opens with a resync if one of its topics changed since.
// - A page out of sight (another tab, the phone's screen off) closes its stream and does not
//   poll: a browser keeps at most six connections to a server over HTTP/1.1, and tabs left open
//   would hold them all. Back in sight, it opens the stream again with a resync.
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ShoebookLive = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const REOPEN_MS = 30000; // a stream the server refused (EventSource gives up): tried again
  const hidden = (doc) => doc.visibilityState === "hidden";

  function start(env) {
    const doc = env.document;
    const html = doc.documentElement;
    const now = env.now;
    const last = new Map(); // an element's id → when it was last fetched
    const queued = new Map(); // an element's id → a fetch waiting for its gap
    let source = null;
    let opened = false;

    function setState(state) {
      if (html.dataset.live === state) return;
      html.dataset.live = state;
      doc.dispatchEvent(new env.CustomEvent("shoebook:live-state", { detail: { state: state } }));
    }

    function refresh(element) {
      const id = element.id;
      last.set(id, now());
      queued.delete(id);
      // [data-live-spread]: up to that many seconds later, at random, so that the hundred
      // phones a change reaches do not all ask the server at the same moment.
      const spread = Number(element.dataset.liveSpread || 0) * 1000;
      if (spread) env.setTimeout(() => env.trigger(element, "live-refresh"), env.random() * spread);
      else env.trigger(element, "live-refresh");
    }

    function pushed(detail) {
      doc.dispatchEvent(new env.CustomEvent("shoebook:live", { detail: detail }));
      const kind = String(detail.topic || "").split(":")[0];
      for (const element of doc.querySelectorAll("[data-live-refresh]")) {
        const kinds = (element.dataset.liveTopics || "").split(" ").filter(Boolean);
        if (kind !== "*" && kinds.length && !kinds.includes(kind)) continue;
        const gap = Number(element.dataset.liveGap || 0) * 1000;
        const since = now() - (last.get(element.id) || 0);
        if (since >= gap) refresh(element);
        else queued.set(element.id, true);
      }
    }

    function tick() {
      if (hidden(doc)) return;
      const closed = html.dataset.live !== "open";
      for (const element of doc.querySelectorAll("[data-live-refresh]")) {
        const since = now() - (last.get(element.id) || 0);
        const gap = Number(element.dataset.liveGap || 0) * 1000;
        const poll = Number(element.dataset.livePoll || 0) * 1000;
        if (queued.has(element.id) && since >= gap) refresh(element);
        else if (closed && poll && since >= poll) refresh(element);
      }
    }

    function open() {
      if (source || hidden(doc)) return;
      const holder = doc.querySelector("[data-live-url]");
      if (!holder || !env.EventSource) { setState("closed"); return; }
      source = new env.EventSource(holder.dataset.liveUrl);
      source.onopen = () => {
        setState("open");
        if (opened) pushed({ topic: "*", what: "resync" });
        opened = true;
      };
      source.onerror = () => {
        setState("closed");
        if (source.readyState === 2) { // CLOSED: refused, not retried by the browser
          source = null;
          env.setTimeout(open, REOPEN_MS);
        }
      };
      source.addEventListener("change", (event) => {
        let detail;
        try { detail = JSON.parse(event.data); } catch (error) { return; }
        pushed(detail);
      });
    }

    function sleepOrWake() {
      if (!hidden(doc)) { open(); return; }
      if (!source) return;
      source.close();
      source = null;
      setState("closed");
    }

    for (const element of doc.querySelectorAll("[data-live-refresh]")) last.set(element.id, now());
    setState("closed");
    doc.addEventListener("visibilitychange", sleepOrWake);
    open();
    env.setInterval(tick, 1000);
    return { tick: tick, pushed: pushed };
  }

  if (typeof document !== "undefined" && typeof window !== "undefined") {
    const begin = () => start({
      document: document,
      EventSource: window.EventSource,
      CustomEvent: window.CustomEvent,
      now: () => Date.now(),
      random: Math.random,
      setInterval: (fn, ms) => window.setInterval(fn, ms),
      setTimeout: (fn, ms) => window.setTimeout(fn, ms),
      trigger: (element, name) => {
        if (window.htmx) window.htmx.trigger(element, name);
        else element.dispatchEvent(new CustomEvent(name));
      },
    });
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin);
    else begin();
  }

  return { start: start };
});
