{% load static %}// Shoebook's service worker (Workbox 7, served from this site: no CDN). The table page opens
// without a connection: it is fetched from the network first and kept, and the copy kept is
// shown when the network is gone; the hands saved meanwhile wait in the page's outbox.
importScripts(
  "{% static 'vendor/workbox-7.4.1/workbox-core.prod.js' %}",
  "{% static 'vendor/workbox-7.4.1/workbox-routing.prod.js' %}",
  "{% static 'vendor/workbox-7.4.1/workbox-strategies.prod.js' %}"
);

workbox.core.skipWaiting();
workbox.core.clientsClaim();

const TABLE_PAGE = /^\/shoes\/\d+\/$/;

workbox.routing.registerRoute(
  ({ request, url }) => request.mode === "navigate" && TABLE_PAGE.test(url.pathname),
  new workbox.strategies.NetworkFirst({ cacheName: "shoebook-table-pages", networkTimeoutSeconds: 5 })
);
workbox.routing.registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith("{{ static_prefix }}"),
  new workbox.strategies.StaleWhileRevalidate({ cacheName: "shoebook-static" })
);
