// The Parquet reader: runs parquet.wasm (Go) inside a Web Worker, which the
// page starts only when it is given a Parquet file. Its URLs are relative to
// this script. When the Go program ends or cannot start (a panic, out of
// memory, parquet.wasm not downloaded), a text message tells the page.
"use strict";
importScripts("wasm_exec.js");
const go = new Go();
fetch("../parquet.wasm")
  .then((r) => WebAssembly.instantiateStreaming ? WebAssembly.instantiateStreaming(r, go.importObject)
    : r.arrayBuffer().then((b) => WebAssembly.instantiate(b, go.importObject)))
  .then((r) => go.run(r.instance))
  .then(() => self.postMessage("its program ended unexpectedly"))
  .catch((e) => self.postMessage(String(e && e.message || e)));
