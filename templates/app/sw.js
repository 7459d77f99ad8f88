{% load static %}/* Blaze's service worker: shows Web Push notices, opens or focuses the table a notice
   names, and shows the offline page when a page cannot be loaded. Served at /sw.js so its
   scope is the whole site. */
const OFFLINE_URL = "{% url 'offline' %}";
const CACHE = "blaze-offline-{{ version }}";
const ICON = "{% static 'img/app-icon-192.png' %}";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll([OFFLINE_URL, ICON]))
      .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(
      keys.filter((key) => key.startsWith("blaze-offline-") && key !== CACHE)
        .map((key) => caches.delete(key))))
      .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return; // pages only: the API and sockets go by
  event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE_URL)));
});

/* The page the notice names, on this site only. */
function ownPage(url) {
  try {
    const parsed = new URL(url || "/", self.location.origin);
    return new URL(parsed.pathname + parsed.search, self.location.origin).href;
  } catch (error) {
    return new URL("/", self.location.origin).href;
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data ? event.data.text() : "" };
  }
  const options = {
    body: data.body || "",
    icon: ICON,
    data: { url: ownPage(data.url) },
  };
  if (data.tag) {
    options.tag = data.tag; // one notice per game and kind on the device too
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(data.title || "Blaze", options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = ownPage(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (client.url === target && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(target);
    }));
});
