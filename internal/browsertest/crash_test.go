//go:build browser

package browsertest

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A compute worker that dies while it fits (here made to panic through the
// ?debug=1 hook) is reported on the page and replaced; the data set, the
// summary and the other method's result stay, and the next run works.
func TestWorkerCrashIsReplaced(t *testing.T) {
	p := openPage(t, "example=0&debug=1&workers=2")
	mustEval[map[string]any](p, `window.cleanex.simulate({k1: 40, k2: 400, r: 5, d: 5, sigma2: 0.1, seed: 5})`, 60*time.Second)
	// CleaneX (paper, long) goes to worker 0; plug-in to worker 1 and ends at once.
	mustEval[chromedp.Void](p, `void (window.__first = new Promise(res => {
		window.__pending = window.cleanex.run({k2: 400, methods: ["plugin", "cleanex"], preset: "paper", seed: 1,
			onProgress: e => { if (e.method === "cleanex") res(e); }});
	}))`, 5*time.Second)
	mustEval[map[string]any](p, `window.__first`, 60*time.Second)
	p.waitJS(`!!document.querySelector("#results .row-plugin")`, 30*time.Second)
	mustEval[chromedp.Void](p, `window.cleanex._crashWorker(0)`, 5*time.Second)
	res := mustEval[runResult](p, `window.__pending`, 30*time.Second)
	if msg := res.Errors["cleanex"]; !strings.Contains(msg, "stopped") {
		t.Errorf("cleanex's error after the crash is %q, want one saying the worker stopped", msg)
	}
	if len(res.Curves["plugin"]) != 399 {
		t.Errorf("the plug-in result of the crashed run has %d values, want 399", len(res.Curves["plugin"]))
	}
	errText := mustEval[string](p, `(document.querySelector("#error") || {}).textContent || ""`, 5*time.Second)
	if !strings.Contains(errText, "stopped") || !strings.Contains(errText, "kept") {
		t.Errorf("the page shows %q, want a note that a worker stopped and the data is kept", errText)
	}
	if !mustEval[bool](p, `!!document.querySelector("#summary") && !!document.querySelector("#results .row-plugin")`, 5*time.Second) {
		t.Error("the summary or the plug-in row disappeared after the crash")
	}
	p.shot("08-worker-crashed")
	// The replacement has the data: a run on every worker works.
	r := p.run(400, []string{"plugin", "kde"}, "fast", 1, 120*time.Second)
	if len(r.Errors) > 0 || len(r.Curves["plugin"]) != 399 || len(r.Curves["kde"]) != 399 {
		t.Errorf("the run after the crash: errors %v, %d plug-in and %d KDE values", r.Errors, len(r.Curves["plugin"]), len(r.Curves["kde"]))
	}
}
