// Starts the Go program of the page (app.wasm) and registers the service
// worker (sw.js) that keeps the app's files for offline use. URLs are
// relative to the page, so the app works under any sub-path.
(function () {
  "use strict";
  const go = new Go();
  const show = (msg) => {
    const el = document.getElementById("app");
    if (el) el.textContent = msg;
  };
  const start = WebAssembly.instantiateStreaming
    ? WebAssembly.instantiateStreaming(fetch("app.wasm"), go.importObject)
    : fetch("app.wasm").then((r) => r.arrayBuffer()).then((b) => WebAssembly.instantiate(b, go.importObject));
  start
    .then((r) => go.run(r.instance))
    .catch((e) => show("CleaneX could not start: " + e));
  if ("serviceWorker" in navigator && (location.protocol === "https:" || location.protocol === "http:")) {
    navigator.serviceWorker.register("sw.js").catch((e) => console.log("cleanex: offline copy unavailable: " + e));
  }
})();
