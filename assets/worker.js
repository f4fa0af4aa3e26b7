// A compute worker: runs worker.wasm (Go) inside a Web Worker. Its URLs are
// relative to this script. When the Go program ends (a panic, out of
// memory), a text message tells the page, which replaces the worker.
"use strict";
importScripts("wasm_exec.js");
const go = new Go();
fetch("../worker.wasm")
  .then((r) => WebAssembly.instantiateStreaming ? WebAssembly.instantiateStreaming(r, go.importObject)
    : r.arrayBuffer().then((b) => WebAssembly.instantiate(b, go.importObject)))
  .then((r) => go.run(r.instance))
  .then(() => self.postMessage("its program ended unexpectedly"))
  .catch((e) => self.postMessage(String(e && e.message || e)));
