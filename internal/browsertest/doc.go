// Package browsertest drives the built app (CLEANEX_DIST) in headless
// Chromium (CLEANEX_CHROMIUM) through chromedp: upload and drop a CSV, run
// every method and compare with the Go engine, the same pilot in every other
// format (gzip, NumPy, Parquet), simulate, bad input, cancel,
// progress, long tasks, network origins, and screenshots of the main states.
// Its tests build only with the `browser` tag (./build.sh test runs them).
package browsertest
