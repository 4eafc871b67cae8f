// The offline copy: every file of the page (files.json lists them) in one cache per build.
//
// Cache first, for this origin only: once a page has loaded with this worker, it starts with no
// network at all. A new build has a new BUILD (tools/build_web.py writes it here), so the
// browser installs the new worker, which fills a new cache and drops the old ones; the page
// then runs the new build from its next load.
const BUILD = "__BUILD__";
// Caches are shared by a whole site: this gadget's are named after its folder (its scope).
const MINE = "tablemate " + self.registration.scope + " ";
const CACHE = MINE + BUILD;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const res = await fetch("files.json", { cache: "no-cache" });
    const files = await res.json();
    const cache = await caches.open(CACHE);
    await cache.addAll(files.assets);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(MINE) && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(event.request, { ignoreSearch: true });
    return hit || fetch(event.request);
  })());
});
