// static/js/live.js without a browser: a pushed change refreshes what the page shows, and a page
// whose stream cannot open still refreshes by polling. Run with `node --test tests/js/`.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");

const Live = require("../../static/js/live.js");

class FakeEvent {
  constructor(type, init) { this.type = type; this.detail = (init || {}).detail; }
}

function element(id, dataset) {
  return { id: id, dataset: dataset };
}

function page(elements, { eventSource = true } = {}) {
  const listeners = {};
  const doc = {
    documentElement: { dataset: {} },
    querySelector: (selector) =>
      selector === "[data-live-url]" ? elements.find((e) => e.dataset.liveUrl) || null : null,
    querySelectorAll: () => elements.filter((e) => "liveRefresh" in e.dataset),
    dispatchEvent: (event) => (listeners[event.type] || []).forEach((listen) => listen(event)),
    addEventListener: (type, listen) => { (listeners[type] = listeners[type] || []).push(listen); },
  };
  const sources = [];
  class FakeSource {
    constructor(url) {
      this.url = url; this.readyState = 0; this.handlers = {};
      sources.push(this);
    }
    addEventListener(type, handler) { this.handlers[type] = handler; }
    send(data) { this.handlers.change({ data: JSON.stringify(data) }); }
    close() { this.readyState = 2; this.closed = true; }
  }
  const clock = { now: 100000 };
  const later = [];
  const fetched = [];
  const pushed = [];
  doc.addEventListener("shoebook:live", (event) => pushed.push(event.detail));
  const api = Live.start({
    document: doc,
    EventSource: eventSource ? FakeSource : undefined,
    CustomEvent: FakeEvent,
    now: () => clock.now,
    setInterval: () => {},
    setTimeout: (fn, ms) => later.push([ms, fn]),
    random: () => 0.5,
    trigger: (el, name) => fetched.push([el.id, name]),
  });
  return { doc, sources, clock, fetched, pushed, api, later };
}

test("a pushed change is dispatched and fetches the parts that show it again", () => {
  const display = element("display", { liveRefresh: "", livePoll: "5" });
  const holder = element("main", { liveUrl: "/display/1/t/live/" });
  const { doc, sources, fetched, pushed } = page([holder, display]);
  assert.equal(sources[0].url, "/display/1/t/live/");
  sources[0].onopen();
  assert.equal(doc.documentElement.dataset.live, "open");
  assert.deepEqual(fetched, []);
  sources[0].send({ topic: "event:1", what: "hand", next: 2 });
  assert.deepEqual(pushed, [{ topic: "event:1", what: "hand", next: 2 }]);
  assert.deepEqual(fetched, [["display", "live-refresh"]]);
});

test("a page whose stream cannot open still refreshes by polling", () => {
  const display = element("display", { liveRefresh: "", livePoll: "5" });
  const quiet = element("no-poll", { liveRefresh: "" });
  const holder = element("main", { liveUrl: "/display/1/t/live/" });
  const { doc, sources, clock, fetched, api } = page([holder, display, quiet]);
  sources[0].readyState = 2; // refused: the browser gives up on it
  sources[0].onerror();
  assert.equal(doc.documentElement.dataset.live, "closed");
  clock.now += 4000;
  api.tick();
  assert.deepEqual(fetched, []); // not before its interval
  clock.now += 1000;
  api.tick();
  assert.deepEqual(fetched, [["display", "live-refresh"]]);
  clock.now += 5000;
  api.tick();
  assert.equal(fetched.length, 2);
});

test("without EventSource the page polls", () => {
  const live = element("guest-live", { liveRefresh: "", livePoll: "15" });
  const { doc, clock, fetched, api } = page([element("x", { liveUrl: "/me/live/" }), live],
    { eventSource: false });
  assert.equal(doc.documentElement.dataset.live, "closed");
  clock.now += 15000;
  api.tick();
  assert.deepEqual(fetched, [["guest-live", "live-refresh"]]);
});

test("an open stream stops the polling", () => {
  const display = element("display", { liveRefresh: "", livePoll: "5" });
  const { sources, clock, fetched, api } = page([element("m", { liveUrl: "/l/" }), display]);
  sources[0].onopen();
  fetched.length = 0;
  clock.now += 60000;
  api.tick();
  assert.deepEqual(fetched, []);
});

test("a reopened stream asks for everything afresh, once", () => {
  const board = element("board", { liveRefresh: "", liveTopics: "tournament" });
  const { sources, pushed, fetched } = page([element("m", { liveUrl: "/l/" }), board]);
  sources[0].onopen();
  assert.deepEqual(pushed, []); // the first opening is no resync
  fetched.length = 0;
  sources[0].onerror(); // dropped: the browser reconnects by itself
  sources[0].onopen();
  assert.deepEqual(pushed, [{ topic: "*", what: "resync" }]);
  assert.deepEqual(fetched, [["board", "live-refresh"]]);
});

test("an element hears only its kinds of topic, and at most once a gap", () => {
  const mine = element("guest-live", { liveRefresh: "", liveTopics: "guest" });
  const board = element("tournament-now", { liveRefresh: "", liveTopics: "event tournament",
    liveGap: "10" });
  const { sources, clock, fetched, api } = page([element("m", { liveUrl: "/l/" }), mine, board]);
  sources[0].onopen();
  fetched.length = 0;
  clock.now += 20000;
  sources[0].send({ topic: "event:4", what: "hand" });
  sources[0].send({ topic: "event:5", what: "hand" });
  sources[0].send({ topic: "guest:3", what: "hand" });
  assert.deepEqual(fetched, [["tournament-now", "live-refresh"], ["guest-live", "live-refresh"]]);
  clock.now += 10000;
  api.tick(); // the change held back by the gap is fetched once the gap is over
  assert.deepEqual(fetched.at(-1), ["tournament-now", "live-refresh"]);
  assert.equal(fetched.length, 3);
});

test("a page many phones show asks at a moment of its own, within its spread", () => {
  const mine = element("guest-live", { liveRefresh: "", liveSpread: "1" });
  const { sources, fetched, later } = page([element("m", { liveUrl: "/l/" }), mine]);
  sources[0].onopen();
  sources[0].send({ topic: "guest:3", what: "hand" });
  assert.deepEqual(fetched, []);
  assert.equal(later.length, 1);
  assert.equal(later[0][0], 500); // half of its second: the random draw was 0.5
  later[0][1]();
  assert.deepEqual(fetched, [["guest-live", "live-refresh"]]);
});

test("a page out of sight holds no stream and does not poll; back in sight it reads afresh", () => {
  const display = element("display", { liveRefresh: "", livePoll: "5" });
  const { doc, sources, clock, fetched, pushed, api } = page([element("m", { liveUrl: "/l/" }),
    display]);
  sources[0].onopen();
  doc.visibilityState = "hidden"; // another tab, or the screen off
  doc.dispatchEvent(new FakeEvent("visibilitychange"));
  assert.ok(sources[0].closed, "its connection is given back");
  assert.equal(doc.documentElement.dataset.live, "closed");
  clock.now += 60000;
  api.tick();
  assert.deepEqual(fetched, [], "nor does it poll out of sight");
  doc.visibilityState = "visible";
  doc.dispatchEvent(new FakeEvent("visibilitychange"));
  assert.equal(sources.length, 2, "a stream of its own again");
  sources[1].onopen();
  assert.deepEqual(pushed, [{ topic: "*", what: "resync" }]);
  assert.deepEqual(fetched, [["display", "live-refresh"]]);
});
