// The page's service worker (build.sh copies it next to index.html, so its
// scope is the whole app). On install it stores the app's own files in the
// browser; afterwards every request for them goes to the network first and,
// when the network fails, is answered from that store, so the page, the
// example and simulations work offline. It never sees the user's data:
// files are read in the page and never requested.
//
// The Parquet reader (assets/parquet.js and parquet.wasm) is not stored on
// install: the page fetches it only when given a Parquet file, and few are,
// so a first visit does not download it. Stored then like any response
// (below), it is there offline once a Parquet file was read online.
"use strict";
const CACHE = "cleanex-app";
const FILES = [
  "./", "index.html", "app.wasm", "worker.wasm",
  "assets/app.css", "assets/boot.js", "assets/draw.js", "assets/worker.js",
  "assets/wasm_exec.js", "assets/vugu-render.js", "assets/icon.svg", "assets/example.csv",
];

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (e) => {
  const req = e.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  e.respondWith(
    fetch(req)
      .then((resp) => {
        if (resp.ok && resp.type === "basic") {
          const copy = resp.clone();
          caches.open(CACHE).then((c) => c.put(req, copy)).catch(() => {});
        }
        return resp;
      })
      .catch(() =>
        caches.match(req, { ignoreSearch: true }).then((hit) =>
          hit || (req.mode === "navigate" ? caches.match("index.html") : undefined) ||
          Response.error()))
  );
});
