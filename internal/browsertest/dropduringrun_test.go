//go:build browser

package browsertest

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A file dropped while a run goes on is read by the spare worker first: one
// the page cannot read is refused with the run going on (its progress goes
// on, its promise stays pending, the summary is the run's data set); one it
// can read then stops the run (its promise settles as cancelled) and
// becomes the data set.
func TestDropDuringRun(t *testing.T) {
	p := openPage(t, "example=0")
	mustEval[map[string]any](p, `window.cleanex.simulate({k1: 40, k2: 400, r: 5, d: 5, sigma2: 0.1, seed: 5})`, 60*time.Second)
	summary := mustEval[string](p, `document.querySelector("#summary").textContent`, 5*time.Second)
	// CleaneX with the paper's settings runs for minutes here.
	mustEval[chromedp.Void](p, `void (window.__progress = 0, window.__first = new Promise(res => {
		window.__pending = window.cleanex.run({k2: 400, methods: ["cleanex"], preset: "paper", seed: 1, onProgress: e => { window.__progress++; res(e); }})
			.then(() => "resolved", e => String(e.message));
		window.__pending.then(v => { window.__settled = v; });
	}))`, 5*time.Second)
	mustEval[map[string]any](p, `window.__first`, 60*time.Second)
	// The spare worker has started with the page and holds the data set.
	time.Sleep(2 * time.Second)

	bad := []byte("label,a,b,c\na,0.9,0.1,NaN\nb,0.2,0.7,0.1\nc,0.1,0.2,0.8\n")
	mustEval[bool](p, dropFilesJS(fileJS("bad.csv", bad)), 10*time.Second)
	msg := p.errorText("Could not read bad.csv")
	t.Logf("bad file during the run: %q", msg)
	if !strings.Contains(msg, "row 2") {
		t.Errorf("the message %q does not name the row", msg)
	}
	seen := mustEval[int](p, `window.__progress`, 5*time.Second)
	p.waitJS(`window.__progress > `+strconv.Itoa(seen+2), 60*time.Second)
	p.shot("50-bad-drop-during-run")
	if settled := mustEval[bool](p, `window.__settled !== undefined`, 5*time.Second); settled {
		t.Errorf("the run settled (%s) after a file it could not read was dropped", mustEval[string](p, `String(window.__settled)`, 5*time.Second))
	}
	if status := mustEval[string](p, `document.querySelector("#status").textContent`, 5*time.Second); strings.Contains(status, "Cancelled") {
		t.Errorf("status after the bad file: %q", status)
	}
	if got := mustEval[string](p, `document.querySelector("#summary").textContent`, 5*time.Second); got != summary {
		t.Errorf("the summary changed from %q to %q", summary, got)
	}
	if busy := mustEval[string](p, `document.querySelector("#busy").textContent`, 5*time.Second); busy != "" {
		t.Errorf("the busy line still says %q", busy)
	}

	good := []byte("label,a,b,c\na,0.9,0.1,0.2\nb,0.2,0.7,0.1\nc,0.1,0.2,0.8\na,0.6,0.3,0.1\nb,0.1,0.8,0.3\nc,0.3,0.1,0.9\n")
	mustEval[bool](p, dropFilesJS(fileJS("good.csv", good)), 10*time.Second)
	if how := mustEval[string](p, `window.__pending`, 60*time.Second); how != "cancelled" {
		t.Errorf("the run settled with %q after a readable file was dropped, want cancelled", how)
	}
	p.waitJS(`document.querySelector("#summary").textContent !== `+jsString(summary), 60*time.Second)
	p.shot("51-good-drop-during-run")
	t.Logf("summary after the readable file: %q", mustEval[string](p, `document.querySelector("#summary").textContent`, 5*time.Second))
	if e := mustEval[string](p, `(document.querySelector("#error") || {textContent: ""}).textContent`, 5*time.Second); e != "" {
		t.Errorf("the error line still says %q", e)
	}
}
