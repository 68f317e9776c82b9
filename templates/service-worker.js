{% load static %}// Shoebook's service worker (Workbox 7, served from this site: no CDN).
// - Installing, it keeps what a table page loads (scripts, styles, icons: by their hashed names in
//   production) and the offline page. The visit that installs it is one it did not answer, so
//   that page asks it (site.js: "shoebook:keep-page") to fetch and keep the table page as well:
//   a table page seen once online opens offline.
// - A table page comes from the network first; the copy kept is shown when the network is gone,
//   and the hands saved meanwhile wait in the page's outbox.
// - Any other page without a connection: the offline page, which lists the tables kept here.
// - Static files: from the cache, refreshed behind.
importScripts(
  "{% static 'vendor/workbox-7.4.1/workbox-core.prod.js' %}",
  "{% static 'vendor/workbox-7.4.1/workbox-routing.prod.js' %}",
  "{% static 'vendor/workbox-7.4.1/workbox-strategies.prod.js' %}"
);

const TABLE_PAGE = /^\/shoes\/\d+\/$/;
const TABLE_PAGES = "shoebook-table-pages";
const STATIC_FILES = "shoebook-static";
const OFFLINE = "shoebook-offline";
const STATIC_PREFIX = "{{ static_prefix|escapejs }}";
const OFFLINE_PAGE = "{% url 'offline' %}";
const OFFLINE_FILES = {{ offline_files|safe }};

// A live stream (server-sent events: an address ending in /live/) is never answered by the
// worker, let alone kept: registered before Workbox's, this listener stops the event there, so
// the browser fetches it from the server itself, as if no worker were installed.
const STREAM = /\/live\/$/;
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  const accepts = event.request.headers.get("Accept") || "";
  if (STREAM.test(url.pathname) || accepts.includes("text/event-stream")) {
    event.stopImmediatePropagation();
  }
});

workbox.core.skipWaiting();
workbox.core.clientsClaim();

self.addEventListener("install", (event) => {
  // All or nothing, as a precache is: a worker that could not keep them is not installed, and
  // the browser tries again on the next visit.
  event.waitUntil(Promise.all([
    caches.open(STATIC_FILES).then((cache) => cache.addAll(OFFLINE_FILES)),
    caches.open(OFFLINE).then((cache) => cache.add(OFFLINE_PAGE)),
  ]));
});

// Only a whole page is kept: not a redirect (to the login page, when the session ended).
const wholePagesOnly = {
  cacheWillUpdate: async ({ response }) =>
    response && response.status === 200 && !response.redirected ? response : null,
};

async function keepPage(url) {
  const response = await fetch(url, { credentials: "same-origin" });
  if (response.status !== 200 || response.redirected) throw new Error(`${url}: not kept`);
  await (await caches.open(TABLE_PAGES)).put(url, response);
}

async function keepFiles(urls) {
  const cache = await caches.open(STATIC_FILES);
  const ours = urls.map((url) => new URL(url, self.location.origin)).filter(
    (url) => url.origin === self.location.origin && url.pathname.startsWith(STATIC_PREFIX));
  await Promise.all(ours.map(async (url) => {
    if (!(await cache.match(url, { ignoreVary: true }))) await cache.add(url);
  }));
}

// A table page the worker did not answer asks for a copy to be kept: { type, url, assets }.
self.addEventListener("message", (event) => {
  const asked = event.data || {};
  if (asked.type !== "shoebook:keep-page" || typeof asked.url !== "string") return;
  const url = new URL(asked.url, self.location.origin);
  if (url.origin !== self.location.origin || !TABLE_PAGE.test(url.pathname)) return;
  const assets = Array.isArray(asked.assets) ? asked.assets.filter((a) => typeof a === "string") : [];
  const answer = (type) => event.source && event.source.postMessage({ type, url: url.pathname });
  event.waitUntil(
    Promise.all([
      keepPage(url.pathname),
      keepFiles(assets),
      caches.open(OFFLINE).then((cache) => cache.add(OFFLINE_PAGE)), // in today's language
    ]).then(() => answer("shoebook:page-kept"), () => answer("shoebook:page-not-kept"))
  );
});

workbox.routing.registerRoute(
  ({ request, url }) => request.mode === "navigate" && TABLE_PAGE.test(url.pathname),
  new workbox.strategies.NetworkFirst({
    cacheName: TABLE_PAGES,
    networkTimeoutSeconds: 5,
    matchOptions: { ignoreVary: true },
    plugins: [wholePagesOnly],
  })
);
workbox.routing.registerRoute(
  ({ request }) => request.mode === "navigate",
  new workbox.strategies.NetworkOnly()
);
workbox.routing.registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith(STATIC_PREFIX),
  new workbox.strategies.StaleWhileRevalidate({
    cacheName: STATIC_FILES,
    matchOptions: { ignoreVary: true }, // kept at install, asked for by a page: the same file
  })
);
// A page asked for without a connection (and no copy kept): the offline page.
workbox.routing.setCatchHandler(async ({ request }) => {
  if (request.mode === "navigate") {
    const page = await caches.match(OFFLINE_PAGE, { cacheName: OFFLINE, ignoreVary: true });
    if (page) return page;
  }
  return Response.error();
});
