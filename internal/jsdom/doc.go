// Package jsdom is the one package of the app that touches JavaScript. Every
// call goes through github.com/hack-pad/safejs, so a failing call is an error
// value, never a panic: the 2D canvas (implementing chart.Canvas, sharp on
// high-DPI screens), reading dropped or picked files, downloads, the window
// (devicePixelRatio, resize, hardwareConcurrency, performance.now), promises
// for the window.cleanex API, and Web Workers that exchange byte messages.
//
// Its files build only for js/wasm; this file keeps the package importable
// (and empty) elsewhere.
package jsdom
