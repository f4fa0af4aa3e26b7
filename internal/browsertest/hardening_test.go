//go:build browser

package browsertest

import (
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/cleanex/cleanex/internal/chart"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/web"
)

// onScreen is what a person sees of a finished run: the data set's summary,
// the results table's rows and the inked pixels of the accuracy chart.
type onScreen struct {
	summary string
	rows    []string
	ink     int
}

// screen reads what is on screen now.
func (p *page) screen() onScreen {
	p.t.Helper()
	return onScreen{
		summary: mustEval[string](p, `document.querySelector("#summary").textContent`, 5*time.Second),
		rows:    mustEval[[]string](p, `[...document.querySelectorAll("#results tbody tr")].map(r => r.className)`, 5*time.Second),
		ink:     p.inkPixels("chart-acc"),
	}
}

// pixelsJS is a JavaScript expression counting the opaque pixels of canvas
// #id within 40 of the colour hex in each channel (a curve under the
// interval's translucent band keeps its hue).
func pixelsJS(id, hex string) string {
	return fmt.Sprintf(`(() => {
		const c = [1, 3, 5].map(i => parseInt(%[2]s.slice(i, i + 2), 16));
		const cv = document.getElementById(%[1]s), d = cv.getContext("2d").getImageData(0, 0, cv.width, cv.height).data;
		let n = 0;
		for (let i = 0; i < d.length; i += 4) {
			if (d[i + 3] === 255 && Math.abs(d[i] - c[0]) <= 40 && Math.abs(d[i + 1] - c[1]) <= 40 && Math.abs(d[i + 2] - c[2]) <= 40) n++;
		}
		return n;
	})()`, jsString(id), jsString(hex))
}

// inkPixels counts the opaque pixels of canvas #id that are not near white
// (curves, band, axes and text).
func (p *page) inkPixels(id string) int {
	p.t.Helper()
	return mustEval[int](p, fmt.Sprintf(`(() => {
		const cv = document.getElementById(%s), d = cv.getContext("2d").getImageData(0, 0, cv.width, cv.height).data;
		let n = 0;
		for (let i = 0; i < d.length; i += 4) if (d[i + 3] === 255 && (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200)) n++;
		return n;
	})()`, jsString(id)), 10*time.Second)
}

// withResults opens the app, simulates a small pilot and runs the plug-in
// on it, and returns what is then on screen.
func withResults(t *testing.T) (*page, onScreen) {
	p := openPage(t, "example=0")
	mustEval[map[string]any](p, `window.cleanex.simulate({k1: 20, k2: 100, r: 5, d: 5, sigma2: 0.1, seed: 4})`, 60*time.Second)
	p.run(100, []string{"plugin"}, "fast", 1, 120*time.Second)
	// Once the chart with the recommendation and the plug-in curve is drawn.
	p.waitJS(`(document.querySelector("#headline") || {textContent: ""}).textContent.startsWith("At 100 classes")`, 30*time.Second)
	p.shot("20-before-" + sanitize(t.Name()))
	p.waitJS(pixelsJS("chart-acc", chart.Color("plugin"))+` > 20`, 30*time.Second)
	before := p.screen()
	if before.ink < 1000 || len(before.rows) < 2 {
		t.Fatalf("the first run shows %d inked pixels and rows %v", before.ink, before.rows)
	}
	return p, before
}

// checkKept checks that the tab is alive and shows what it showed before:
// the same summary and table rows, and the chart with the plug-in curve
// still drawn. It saves a screenshot named shot first, which also lets the
// tab draw a frame (a headless tab in the background draws none, and the
// charts are drawn at the next frame after a render).
func (p *page) checkKept(before onScreen, what, shot string) {
	p.t.Helper()
	if mustEval[int](p, `1 + 1`, 10*time.Second) != 2 {
		p.t.Fatalf("%s: the tab does not answer", what)
	}
	p.shot(shot)
	after := p.screen()
	if px := mustEval[int](p, pixelsJS("chart-acc", chart.Color("plugin")), 5*time.Second); px < 20 {
		p.t.Errorf("%s: the plug-in curve is gone from the chart (%d pixels of its colour)", what, px)
	}
	if after.summary != before.summary {
		p.t.Errorf("%s: the summary changed:\n%q\n%q", what, before.summary, after.summary)
	}
	if strings.Join(after.rows, " ") != strings.Join(before.rows, " ") {
		p.t.Errorf("%s: the table's rows changed from %v to %v", what, before.rows, after.rows)
	}
	if after.ink < before.ink*9/10 {
		p.t.Errorf("%s: the chart lost its curves: %d inked pixels before, %d after", what, before.ink, after.ink)
	}
}

// errorText returns the page's error line, waiting for it to contain want.
func (p *page) errorText(want string) string {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`(document.querySelector("#error") || {textContent: ""}).textContent.includes(%s)`, jsString(want)), 60*time.Second)
	return mustEval[string](p, `document.querySelector("#error").textContent`, 5*time.Second)
}

// A k2 beyond the limit, typed in the page or given to window.cleanex.run
// (or given there as a string), is refused with the command line's
// sentence (without its "--") under the k2 box; nothing crashes and the
// previous results stay.
func TestHugeK2KeepsResults(t *testing.T) {
	p, before := withResults(t)
	// The command line's sentence, naming k2 as the page does.
	cli := func(k2 int) string { return strings.ReplaceAll(limits.CheckK2("--k2", k2).Error(), "--k2", "k2") }
	for _, tc := range []struct {
		name, how, value, want string
	}{
		{"api 1e12", "api", "1e12", cli(1_000_000_000_000)},
		{"api above the limit", "api", "10000001", cli(limits.MaxK2 + 1)},
		{"api 1e20", "api", "1e20", "k2 100000000000000000000: too large: the largest k2 accepted is 10,000,000 classes;"},
		{"api a string", "api", `"200"`, `k2 "200" is text: give it as a number, without quotes`},
		{"typed max int", "enter", "9223372036854775807", cli(math.MaxInt)},
		{"typed 1e12, Run", "run", "1000000000000", cli(1_000_000_000_000)},
		{"typed 1e30", "enter", "1e30", "k2 1e30: too large: the largest k2 accepted is 10,000,000 classes;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			switch tc.how {
			case "api":
				got := mustEval[string](p, fmt.Sprintf(`window.cleanex.run({k2: %s, methods: ["plugin"]}).then(() => "resolved", e => e.message)`, tc.value), 30*time.Second)
				if !strings.HasPrefix(got, tc.want) {
					t.Errorf("run({k2: %s}) settled with %q, want %q", tc.value, got, tc.want)
				}
			case "enter":
				// Typed, then Enter (the box's value and its keyup, as typing gives).
				mustEval[bool](p, fmt.Sprintf(`(() => { const k = document.querySelector("#k2"); k.focus(); k.value = %s;
					k.dispatchEvent(new KeyboardEvent("keyup", {key: "Enter", bubbles: true})); return true; })()`, jsString(tc.value)), 5*time.Second)
			case "run":
				// Typed, then the Run button (the box's change event on leaving it).
				mustEval[bool](p, fmt.Sprintf(`(() => { const k = document.querySelector("#k2"); k.value = %s;
					k.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, jsString(tc.value)), 5*time.Second)
				time.Sleep(200 * time.Millisecond)
				mustEval[bool](p, `(() => { document.querySelector("#run").click(); return true; })()`, 5*time.Second)
			}
			// Typed or given to the API: the message sits under the k2 box,
			// which is marked invalid, and not again in the data card's
			// error line.
			p.waitJS(fmt.Sprintf(`document.querySelector("#k2-error").textContent.includes(%s)`, jsString(tc.want[:20])), 60*time.Second)
			msg := mustEval[string](p, `document.querySelector("#k2-error").textContent`, 5*time.Second)
			if inv := mustEval[string](p, `document.querySelector("#k2").getAttribute("aria-invalid") || ""`, 5*time.Second); inv != "true" {
				t.Errorf("the refused k2 box has aria-invalid %q", inv)
			}
			if v := mustEval[string](p, `document.querySelector("#k2").value`, 5*time.Second); v == "" {
				t.Error("the refused k2 box is empty: it should show the k2 refused")
			}
			if e := mustEval[string](p, `(document.querySelector("#error") || {textContent: ""}).textContent`, 5*time.Second); strings.Contains(e, tc.want[:20]) {
				t.Errorf("the refusal is shown twice, also as %q", e)
			}
			if !strings.HasPrefix(msg, tc.want) || strings.Count(msg, "\n") > 0 {
				t.Errorf("the page says %q, want %q", msg, tc.want)
			}
			p.checkKept(before, tc.name, "20-huge-k2-"+sanitize(tc.name))
			if running := mustEval[bool](p, `document.querySelector("#run").getAttribute("aria-disabled") === "true" && !!document.querySelector("#summary")`, 5*time.Second); running {
				t.Error("a run started with the refused k2")
			}
		})
	}
	p.t = t
	// A k2 in range works again.
	r := p.run(50, []string{"plugin"}, "fast", 1, 60*time.Second)
	if len(r.Curves["plugin"]) != 49 {
		t.Errorf("the run after the refusals returned %d plug-in values, want 49", len(r.Curves["plugin"]))
	}
}

// A k2 typed key by key (real key events, each of which redraws the page)
// stays in the box while it is typed, and Enter runs with it; digits grouped
// with commas, as the page writes numbers, are accepted.
func TestK2Typed(t *testing.T) {
	p, _ := withResults(t)
	for _, tc := range []struct{ typed, headline, box string }{
		{"250", "At 250 classes", "250"},
		{"1,000", "At 1,000 classes", "1000"},
	} {
		mustEval[bool](p, `(() => { const k = document.querySelector("#k2"); k.focus(); k.select(); return true; })()`, 5*time.Second)
		if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.ID("k2"), tc.typed)); err != nil {
			t.Fatal(err)
		}
		if v := mustEval[string](p, `document.querySelector("#k2").value`, 5*time.Second); v != tc.typed {
			t.Errorf("after typing %q the k2 box holds %q", tc.typed, v)
		}
		if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.ID("k2"), kb.Enter)); err != nil {
			t.Fatal(err)
		}
		p.waitJS(fmt.Sprintf(`(document.querySelector("#headline") || {textContent: ""}).textContent.startsWith(%s)`, jsString(tc.headline)), 120*time.Second)
		p.waitFinished(120 * time.Second)
		if v := mustEval[string](p, `document.querySelector("#k2").value`, 5*time.Second); v != tc.box {
			t.Errorf("after the run with %q the k2 box holds %q, want %q", tc.typed, v, tc.box)
		}
		p.shot("21-k2-typed-" + sanitize(tc.typed))
	}
}

// dropJS dispatches a drop of the File made by the JavaScript expression
// file on the drop zone.
func dropJS(file string) string { return dropFilesJS(file) }

// dropFilesJS dispatches one drop of the Files made by the JavaScript
// expressions files on the drop zone.
func dropFilesJS(files ...string) string {
	return fmt.Sprintf(`(() => {
		const dt = new DataTransfer();
		for (const file of [%s]) dt.items.add(file);
		document.querySelector("#dropzone").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		return true;
	})()`, strings.Join(files, ", "))
}

// fileJS is a JavaScript expression making a File named name holding b.
func fileJS(name string, b []byte) string {
	return fmt.Sprintf(`new File([Uint8Array.from(atob(%q), c => c.charCodeAt(0))], %s)`, base64.StdEncoding.EncodeToString(b), jsString(name))
}

// xorshiftBytes returns the first n bytes of the file of random bytes that
// TestBinaryDropKeepsResults drops (xorshift32 from 2463534242, the low byte
// of each state).
func xorshiftBytes(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

// A binary file dropped on the page, however large, is refused from its
// first bytes with a sentence naming what is wrong (inputs.Detect's
// words for a file of no format the page reads); so are a lone .npy and
// files dropped together that are not the two .npy files of one pilot. The
// tab stays alive and what was on screen stays.
func TestBinaryDropKeepsResults(t *testing.T) {
	p, before := withResults(t)
	bz2 := append([]byte("BZh91AY&SY"), xorshiftBytes(1000)...)
	detectWords := func(head []byte) string {
		_, err := inputs.Detect(head)
		if err == nil {
			t.Fatalf("inputs.Detect accepts %q", head[:min(len(head), 8)])
		}
		return err.Error()
	}
	csv := simulatedCSV(t, 10, 1)
	npy := npyBytes(t, []int{3}, []float64{0, 1, 2})
	pick := func(names ...string) []web.Picked {
		out := make([]web.Picked, len(names))
		for i, n := range names {
			out[i] = web.Picked{Name: n, Size: 1, Head: npy}
			if strings.HasSuffix(n, ".csv") {
				out[i].Head = csv
			}
		}
		return out
	}
	refusal := func(names ...string) string {
		_, err := web.CheckPicked(pick(names...))
		if err == nil {
			t.Fatalf("web.CheckPicked accepts %v", names)
		}
		return err.Error() + "."
	}
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		// 2 GB of NUL bytes, made of one 1 MB block (the blob parts share it):
		// refused from its first bytes (a large file is not refused on its
		// size alone: the page prepares it in one worker).
		{"2 GB of zeros", []string{`(() => { const z = new Uint8Array(1 << 20); return new File(Array(2048).fill(z), "zeros.bin"); })()`},
			"Could not read zeros.bin: " + detectWords(make([]byte, scores.SniffBytes)) + "."},
		{"200 MB of random bytes", []string{`(() => {
			const b = new Uint8Array(1 << 20); let x = 2463534242;
			for (let i = 0; i < b.length; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; b[i] = x & 255; }
			return new File(Array(200).fill(b), "random.bin"); })()`},
			"Could not read random.bin: " + detectWords(xorshiftBytes(scores.SniffBytes)) + "."},
		{"bzip2", []string{fileJS("scores.csv.bz2", bz2)},
			"Could not read scores.csv.bz2: " + detectWords(bz2) + "."},
		{"a lone npy", []string{fileJS("scores.npy", npy)}, refusal("scores.npy")},
		{"a CSV and an npy", []string{fileJS("a.csv", csv), fileJS("scores.npy", npy)}, refusal("a.csv", "scores.npy")},
		{"three files", []string{fileJS("a.csv", csv), fileJS("b.csv", csv), fileJS("c.csv", csv)}, refusal("a.csv", "b.csv", "c.csv")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			start := time.Now()
			mustEval[bool](p, dropFilesJS(tc.files...), 60*time.Second)
			msg := p.errorText(tc.want[:20])
			t.Logf("%s: refused in %.1f s: %s", tc.name, time.Since(start).Seconds(), msg)
			if msg != tc.want {
				t.Errorf("the page says %q, want %q", msg, tc.want)
			}
			p.checkKept(before, tc.name, "21-binary-drop-"+sanitize(tc.name))
		})
	}
	p.t = t
	// Scores that never vary within a row say nothing: refused, with what to
	// check, and what was on screen stays.
	mustEval[bool](p, dropFilesJS(fileJS("constant.csv", []byte("label,a,b,c\na,.5,.5,.5\nb,.5,.5,.5\nc,.5,.5,.5\n"))), 60*time.Second)
	if msg := p.errorText("constant.csv"); !strings.Contains(msg, "every test point gives all of its classes the same score") {
		t.Errorf("constant scores: the page says %q", msg)
	}
	p.checkKept(before, "constant scores", "21-binary-drop-constant")
	t.Logf("renderer peak memory: %.0f MB", rendererPeakMB())
}

// A file whose read fails after it was dropped (it vanished, or the tab had
// too little memory for it) gives one sentence, and what was on screen stays.
// The File's arrayBuffer() is made to reject as the browser's would; its
// first bytes (read through slice) are a valid CSV.
func TestReadFailureKeepsResults(t *testing.T) {
	p, before := withResults(t)
	for _, tc := range []struct {
		name, reject, want string
	}{
		{"vanished", `new DOMException("The requested file could not be read, typically due to permission problems that have occurred after a reference to a file was acquired.", "NotReadableError")`,
			web.ReadFailed("gone.csv", 22, "NotReadableError", "")},
		{"out of memory", `new RangeError("Array buffer allocation failed")`,
			web.ReadFailed("gone.csv", 22, "RangeError", "")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			mustEval[bool](p, fmt.Sprintf(`(() => {
				const file = new File(["label,a,b\na,1,2\nb,2,1\n"], "gone.csv");
				file.arrayBuffer = () => Promise.reject(%s);
				const ev = new Event("drop", {bubbles: true, cancelable: true});
				Object.defineProperty(ev, "dataTransfer", {value: {files: [file]}});
				document.querySelector("#dropzone").dispatchEvent(ev);
				return true;
			})()`, tc.reject), 10*time.Second)
			msg := p.errorText(tc.want[:30])
			if msg != tc.want {
				t.Errorf("the page says %q, want %q", msg, tc.want)
			}
			if strings.Count(strings.TrimSuffix(msg, "."), ". ") > 0 {
				t.Errorf("%q is more than one sentence", msg)
			}
			if busy := mustEval[string](p, `(document.querySelector("#busy") || {textContent: ""}).textContent`, 5*time.Second); busy != "" {
				t.Errorf("the page still says %q", busy)
			}
			p.checkKept(before, tc.name, "22-read-failure-"+sanitize(tc.name))
		})
	}
	p.t = t
}

// Scores at ±9e307: every method either draws a curve of finite accuracies
// in [0, 1] or is listed as failed with its reason; the others stand.
func TestHugeScoresInPage(t *testing.T) {
	p := openPage(t, "example=0")
	in := "label,a,b,c\na,9e307,-9e307,-9e307\na,9e307,-9e307,9e307\nb,-9e307,9e307,-9e307\nb,9e307,9e307,-9e307\nc,-9e307,-9e307,9e307\nc,-9e307,9e307,9e307\n"
	mustEval[map[string]any](p, fmt.Sprintf(`window.cleanex.load(%s)`, jsString(in)), 30*time.Second)
	expr := `window.cleanex.run({k2: 30, methods: ["plugin", "kde", "pooled", "tail", "regression", "cleanex"]})`
	r := mustEval[runResult](p, expr, 120*time.Second)
	shown := 0
	for _, m := range methods.Names {
		vals, ok := r.Curves[m]
		if !ok || vals == nil {
			if r.Errors[m] == "" {
				t.Errorf("%s has neither a curve nor a reason", m)
			}
			continue
		}
		shown++
		for i, v := range vals {
			if v == nil || !(*v >= 0 && *v <= 1) {
				t.Errorf("%s at k = %d: %v", m, i+2, v)
				break
			}
		}
	}
	t.Logf("curves shown: %d; errors: %v", shown, r.Errors)
	if shown == 0 {
		t.Fatal("no method stands")
	}
	failed := mustEval[[]string](p, `[...document.querySelectorAll("#results td.failed")].map(td => td.parentElement.className + ": " + td.textContent)`, 5*time.Second)
	if len(failed) != len(r.Errors) {
		t.Errorf("the table lists %d failed methods %v, the API %d", len(failed), failed, len(r.Errors))
	}
	for _, row := range failed {
		if !strings.Contains(row, "failed: ") {
			t.Errorf("failed row %q gives no reason", row)
		}
	}
	p.shot("23-huge-scores")
	if px := mustEval[int](p, pixelsJS("chart-acc", chart.Color("plugin")), 5*time.Second); px < 20 {
		t.Errorf("the plug-in curve has %d pixels on the chart", px)
	}
	// A method name the registry does not know (or a repeated one) is
	// refused with the command line's sentence before anything runs; the
	// methods ticked and the table stay.
	ticked := `[...document.querySelectorAll("input[type=checkbox]:checked")].map(c => c.id || c.name || c.value).join(",")`
	before, rows := mustEval[string](p, ticked, 5*time.Second), mustEval[int](p, `document.querySelectorAll("#results tr").length`, 5*time.Second)
	for in, want := range map[string]string{
		`["tail", "nonsense"]`: `unknown method "nonsense": valid methods are plugin, kde, pooled, tail, regression, cleanex`,
		`"tail,tail"`:          `method "tail" is listed twice`,
	} {
		got := mustEval[string](p, fmt.Sprintf(`window.cleanex.run({k2: 30, methods: %s}).then(() => "resolved", e => String(e.message))`, in), 30*time.Second)
		if !strings.Contains(got, want) {
			t.Errorf("run with methods %s: %q, want a rejection saying %q", in, got, want)
		}
	}
	if after := mustEval[string](p, ticked, 5*time.Second); after != before {
		t.Errorf("a refused run changed the ticked boxes from %q to %q", before, after)
	}
	if n := mustEval[int](p, `document.querySelectorAll("#results tr").length`, 5*time.Second); n != rows {
		t.Errorf("a refused run changed the results table from %d rows to %d", rows, n)
	}
}

// A two-class pilot (the documented minimum): the regression, the pooled
// and the tail method, which need three classes, are shown as skipped with the
// command line's reason; the other methods run and the recommendation,
// CleaneX's alone, still appears.
func TestTwoClassPilot(t *testing.T) {
	p := openPage(t, "example=0")
	two := "label,a,b\na,.9,.1\nb,.2,.8\na,.6,.4\nb,.3,.1\n"
	mustEval[bool](p, dropJS(fmt.Sprintf(`new File([%s], "two.csv", {type: "text/csv"})`, jsString(two))), 10*time.Second)
	p.waitJS(`(document.querySelector("#status") || {}).textContent.startsWith("Finished")`, 120*time.Second)
	time.Sleep(300 * time.Millisecond)
	p.shot("24-two-class-pilot")
	why := methods.Applicable("regression", 2).Error()
	row := mustEval[string](p, `(document.querySelector("#results .row-regression td.skipped") || {textContent: ""}).textContent`, 5*time.Second)
	if row != "skipped: "+why {
		t.Errorf("the regression's row says %q, want %q", row, "skipped: "+why)
	}
	bar := mustEval[string](p, `[...document.querySelectorAll(".progress .bar")].map(b => b.textContent).find(t => t.includes("regression")) || ""`, 5*time.Second)
	if !strings.Contains(bar, "skipped: "+why) {
		t.Errorf("the regression's progress bar says %q", bar)
	}
	if n := mustEval[int](p, `document.querySelectorAll("#results td.failed").length`, 5*time.Second); n != 0 {
		t.Errorf("%d methods are shown as failed", n)
	}
	status := mustEval[string](p, `document.querySelector("#status").textContent`, 5*time.Second)
	if !strings.Contains(status, "3 methods skipped: they cannot run on this pilot") || strings.Contains(status, "failed") {
		t.Errorf("status %q", status)
	}
	for _, m := range []string{"plugin", "kde", "cleanex"} {
		if !mustEval[bool](p, fmt.Sprintf(`!!document.querySelector("#results .row-%s") && !document.querySelector("#results .row-%s td.failed")`, m, m), 5*time.Second) {
			t.Errorf("%s has no result row", m)
		}
	}
	for _, m := range []string{"pooled", "tail"} {
		if pr := mustEval[string](p, fmt.Sprintf(`(document.querySelector("#results .row-%s td.skipped") || {textContent: ""}).textContent`, m), 5*time.Second); pr != "skipped: "+methods.Applicable(m, 2).Error() {
			t.Errorf("the %s method's row says %q", m, pr)
		}
	}
	p.checkAnswer("20", "The estimate follows the mean of 4 CleaneX fits")
	for _, m := range []string{"plugin", "kde", "cleanex"} {
		if px := mustEval[int](p, pixelsJS("chart-acc", chart.Color(m)), 5*time.Second); px < 20 {
			t.Errorf("the chart shows %d pixels of the %s curve", px, m)
		}
	}
	// The API says the same.
	r := mustEval[map[string]any](p, `window.cleanex.run({k2: 20}).then(r => ({skipped: r.skipped, errors: r.errors, estimate: r.curves.estimate && r.curves.estimate[18]}))`, 120*time.Second)
	if sk, _ := r["skipped"].(map[string]any); sk["regression"] != why {
		t.Errorf("run().skipped = %v", r["skipped"])
	}
	if _, ok := r["estimate"].(float64); !ok {
		t.Errorf("run() has no estimate at k2: %v", r["estimate"])
	}
}

// A simulation outside the page's bounds (σ² above 1,000) is refused on
// every path, here the API's (the sliders and the form go the same way),
// with the form's message, and nothing is simulated: its link could not
// be opened again.
func TestSimulationBounds(t *testing.T) {
	p := openPage(t, "example=0")
	msg := mustEval[string](p, `window.cleanex.simulate({d: 2, sigma2: 2000, r: 2, k1: 20, k2: 200}).then(() => "resolved", e => e.message)`, 30*time.Second)
	if !strings.Contains(msg, "σ² = 2000: want a number above 0 and at most 1,000") {
		t.Errorf("simulate({sigma2: 2000}) settled with %q", msg)
	}
	if e := p.errorText("The simulation could not be made"); !strings.Contains(e, "σ² = 2000") {
		t.Errorf("the page says %q", e)
	}
	if got := mustEval[bool](p, `!!document.getElementById("summary")`, 5*time.Second); got {
		t.Error("a data set was loaded anyway")
	}
	p.shot("25-simulation-bounds")
}

// window.cleanex.simulate and run take their settings as given or refuse
// them, naming the setting, as the page's fields do: a fraction, a number
// no setting holds, a negative seed or an unknown distribution or preset is
// never truncated or wrapped into another value, and a refused call keeps
// the settings, so that the next call that leaves them out still works. A
// seed the API call leaves out keeps all of its 64 bits.
func TestAPISettingsRefused(t *testing.T) {
	p := openPage(t, "example=0")
	settle := func(js string) string {
		return mustEval[string](p, js+`.then(() => "resolved", e => e.message)`, 60*time.Second)
	}
	for _, tc := range []struct{ call, want string }{
		{`window.cleanex.simulate({d: 2.5, r: 3, k1: 20, k2: 200})`, "simulate: d = 2.5: want a whole number from 1 to 100"},
		{`window.cleanex.simulate({d: 1e30, r: 3, k1: 20, k2: 200})`, "simulate: d = 1e+30: want a whole number from 1 to 100"},
		{`window.cleanex.simulate({seed: -1, r: 3, k1: 20, k2: 200})`, "simulate: seed = -1: want a whole number from 0 to 18446744073709551615"},
		{`window.cleanex.simulate({seed: 1.5, r: 3, k1: 20, k2: 200})`, "simulate: seed = 1.5: want a whole number from 0 to 18446744073709551615"},
		{`window.cleanex.simulate({classes: "gaussian", r: 3, k1: 20, k2: 200})`, `simulate: classes = "gaussian": want normal or uniform`},
	} {
		if got := settle(tc.call); got != tc.want {
			t.Errorf("%s settled with %q, want %q", tc.call, got, tc.want)
		}
	}
	if e := p.errorText("The simulation could not be made"); !strings.Contains(e, `classes = "gaussian"`) {
		t.Errorf("the page says %q", e)
	}
	// The refused calls changed nothing: one that leaves d out gets the
	// form's d = 5.
	if got := settle(`window.cleanex.simulate({r: 3, k1: 20, k2: 200})`); got != "resolved" {
		t.Fatalf("simulate after the refused calls settled with %q", got)
	}
	if src := mustEval[string](p, `document.body.innerText`, 5*time.Second); !strings.Contains(src, "d = 5, σ² = 0.1, r = 3, k1 = 20 of 200 classes, seed 1") {
		t.Errorf("the simulation made is not d = 5, seed 1: %q", src)
	}
	for _, tc := range []struct{ call, want string }{
		{`window.cleanex.run({k2: 300, seed: 2.5, methods: ["plugin"]})`, "run: seed = 2.5: want a whole number from 0 to 18446744073709551615"},
		{`window.cleanex.run({k2: 300, seed: -3, methods: ["plugin"]})`, "run: seed = -3: want a whole number from 0 to 18446744073709551615"},
		{`window.cleanex.run({k2: 300, preset: "slow", methods: ["plugin"]})`, `run: preset "slow": want fast or paper`},
	} {
		if got := settle(tc.call); got != tc.want {
			t.Errorf("%s settled with %q, want %q", tc.call, got, tc.want)
		}
	}
	// A seed above 2^53 in the page's box stays when run leaves it out.
	const big = "18446744073709551615"
	p.typeInto("seed", big)
	time.Sleep(300 * time.Millisecond)
	if got := settle(`window.cleanex.run({k2: 300, methods: ["plugin"]})`); got != "resolved" {
		t.Fatalf("run({k2: 300}) settled with %q", got)
	}
	if v := mustEval[string](p, `document.querySelector("#seed").value`, 5*time.Second); v != big {
		t.Errorf("after a run that left the seed out the seed box shows %q, want %s", v, big)
	}
	if v := mustEval[string](p, `location.hash`, 5*time.Second); !strings.Contains(v, "&seed="+big+"&preset=fast") {
		t.Errorf("the link is %q, want the seed %s and the fast preset", v, big)
	}
}

// A seed keeps all of its 64 bits in its box, and text in a seed's or a
// simulation setting's box that is not a value says so under the data card
// (what was typed, what is kept) instead of being dropped without a word;
// Enter in the seed box with such text starts no run, and a value read
// clears the message.
func TestSeedAndSettingsFieldsRefuseUnreadable(t *testing.T) {
	p := openPage(t, "")
	p.waitFinished(180 * time.Second)
	const big = "18446744073709551615"
	errorText := func() string {
		return mustEval[string](p, `(document.querySelector("#error") || {textContent: ""}).textContent`, 5*time.Second)
	}
	p.typeInto("seed", big)
	p.waitJS(`document.readyState === "complete"`, 5*time.Second)
	time.Sleep(300 * time.Millisecond) // the page redraws after the change
	if v := mustEval[string](p, `document.querySelector("#seed").value`, 5*time.Second); v != big {
		t.Errorf("after typing %s the seed box shows %q", big, v)
	}
	if e := errorText(); e != "" {
		t.Errorf("a valid seed gave the message %q", e)
	}
	// Unreadable text and Enter: a message, the seed kept, no run.
	mustEval[bool](p, `(() => { const s = document.querySelector("#seed"); s.focus(); s.value = "12x";
		s.dispatchEvent(new KeyboardEvent("keyup", {key: "Enter", bubbles: true})); return true; })()`, 5*time.Second)
	p.waitJS(`!!document.querySelector("#error")`, 10*time.Second)
	if e := errorText(); !strings.Contains(e, `random seed: "12x" is not a whole number`) || !strings.Contains(e, "stays "+big) {
		t.Errorf("after 12x and Enter in the seed box the page says %q", e)
	}
	time.Sleep(500 * time.Millisecond)
	if running := mustEval[bool](p, `document.querySelector("#run").getAttribute("aria-disabled") === "true"`, 5*time.Second); running {
		t.Error("Enter with an unreadable seed started a run")
	}
	p.typeInto("seed", "5")
	p.waitJS(`!document.querySelector("#error")`, 10*time.Second)
	// A simulation setting: d = 2.5 is refused with its name and the d kept.
	p.click("show-sim")
	p.waitJS(`!!document.querySelector("#sim-d")`, 10*time.Second)
	p.typeInto("sim-d", "2.5")
	p.waitJS(`!!document.querySelector("#error")`, 10*time.Second)
	if e := errorText(); !strings.Contains(e, `d: "2.5" is not a whole number, so it stays 5`) {
		t.Errorf("after d = 2.5 the page says %q", e)
	}
	p.typeInto("sim-seed", big)
	p.waitJS(`!document.querySelector("#error")`, 10*time.Second)
	time.Sleep(300 * time.Millisecond)
	if v := mustEval[string](p, `document.querySelector("#sim-seed").value`, 5*time.Second); v != big {
		t.Errorf("after typing %s the simulation seed box shows %q", big, v)
	}
	// The box is wide enough to show the whole seed.
	if cut := mustEval[float64](p, `(() => { const e = document.querySelector("#sim-seed"); return e.scrollWidth - e.clientWidth; })()`, 5*time.Second); cut > 0 {
		t.Errorf("the simulation seed box hides %.0f px of %s", cut, big)
	}
	p.elementImage("#simform", "69-sim-form-after-fields")
}

// The keyboard focus ring contrasts with what lies around it by 3:1 or more
// (the contrast asked of focus indicators), in the light and the dark
// scheme: reached with Tab, a button's and a text box's outline colour
// against the card behind them.
func TestFocusRingContrast(t *testing.T) {
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			p := openPage(t, "example=0")
			if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
				t.Fatal(err)
			}
			for _, id := range []string{"example", "k2"} {
				p.tabTo(id)
				got := mustEval[[]float64](p, `(() => {
					const rgb = s => s.match(/[\d.]+/g).slice(0, 3).map(Number);
					const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
						return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
					const e = document.activeElement, st = getComputedStyle(e);
					let bg = e.parentElement;
					while (bg && getComputedStyle(bg).backgroundColor.match(/[\d.]+/g).length === 4 && Number(getComputedStyle(bg).backgroundColor.match(/[\d.]+/g)[3]) === 0) bg = bg.parentElement;
					const a = lum(rgb(st.outlineColor)), b = lum(rgb(getComputedStyle(bg || document.body).backgroundColor));
					return [(Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), parseFloat(st.outlineWidth)];
				})()`, 5*time.Second)
				t.Logf("%s scheme, #%s: focus ring contrast %.2f, width %.0f px", scheme, id, got[0], got[1])
				if id == "example" {
					p.elementImage(".dropzone .actions", "70-focus-ring-"+scheme)
				}
				if got[0] < 3 || got[1] < 2 {
					t.Errorf("%s scheme: the focus ring of #%s has contrast %.2f:1 and width %.0f px against its background, want at least 3:1 and 2 px", scheme, id, got[0], got[1])
				}
			}
		})
	}
}

// The line under the export buttons says what the last action did: "Export
// chart (PNG)" then at once "Save session" leaves the session's note, though
// the image is made (and downloaded) after the session is saved.
func TestActionNoteNamesLastAction(t *testing.T) {
	p := openPage(t, "")
	p.waitFinished(180 * time.Second)
	mustEval[bool](p, `(() => { window.__blobs = []; const o = URL.createObjectURL.bind(URL);
		URL.createObjectURL = b => { window.__blobs.push(b); return o(b); }; return true; })()`, 5*time.Second)
	mustEval[bool](p, `(() => { document.querySelector("#export-png").click(); document.querySelector("#save-session").click(); return true; })()`, 5*time.Second)
	p.waitJS(`window.__blobs.length >= 2 && window.__blobs.some(b => b.type === "image/png")`, 10*time.Second)
	time.Sleep(300 * time.Millisecond) // the page redraws after the image's note
	note := mustEval[string](p, `document.querySelector("#action-note").textContent`, 5*time.Second)
	if !strings.Contains(note, "-session.json") {
		t.Errorf("after Export chart (PNG) then Save session the note is %q, want the session's", note)
	}
}

// The page's own outputs dropped back on it, as a researcher may by
// mistake: the curves of "Export curves (CSV)" and a session of "Save
// session (JSON)" are each refused with a sentence that says what the file
// is and what to give instead (not a complaint about labels or delimiters),
// and what was on screen stays.
func TestOwnOutputsDroppedBack(t *testing.T) {
	p, before := withResults(t)
	mustEval[bool](p, `(() => { window.__blobs = []; const o = URL.createObjectURL.bind(URL);
		URL.createObjectURL = b => { window.__blobs.push(b); return o(b); }; return true; })()`, 5*time.Second)
	p.click("export-csv")
	p.waitJS(`window.__blobs.length === 1`, 10*time.Second)
	p.click("save-session")
	p.waitJS(`window.__blobs.length === 2`, 10*time.Second)
	for _, tc := range []struct {
		name, file string
		blob       int
		want       string
	}{
		{"curves", "pilot-curves.csv", 0, "file of predicted curves (k, observed, estimate, …)"},
		{"session", "pilot-session.json", 1, `a session saved by the page (JSON), which holds settings and results but not the scores; open it with "Open session…"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			text := mustEval[string](p, fmt.Sprintf(`window.__blobs[%d].text()`, tc.blob), 10*time.Second)
			_, err := scores.Parse(strings.NewReader(text))
			if _, derr := inputs.Detect([]byte(text)); derr != nil {
				err = derr
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("natively the %s file gives %v, want %q", tc.name, err, tc.want)
			}
			want := "Could not read " + tc.file + ": " + err.Error()
			mustEval[bool](p, dropJS(fmt.Sprintf(`new File([%s], %s)`, jsString(text), jsString(tc.file))), 5*time.Second)
			// (a file refused from its first bytes, as the session is, gets a final period)
			if msg := p.errorText(tc.want); strings.TrimSuffix(msg, ".") != want {
				t.Errorf("the page says %q, want %q", msg, want)
			}
			p.checkKept(before, tc.name, "23-own-output-"+tc.name)
		})
	}
	p.t = t
}

// A score file picked in "Open session…" by mistake is refused with a
// sentence naming it that says it is not a session and where a score file
// goes (not a JSON parser's words), and what was on screen stays.
func TestScoreFileOpenedAsSession(t *testing.T) {
	p, before := withResults(t)
	path := filepath.Join(t.TempDir(), "pilot.csv")
	if err := os.WriteFile(path, []byte("label,a,b\na,1,2\nb,2,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("open-session"), []string{path})); err != nil {
		t.Fatal(err)
	}
	want := `Could not open pilot.csv as a session: it is not a session saved by this page (a JSON file that "Save session" writes); to analyse a file of scores, drop it on the page or use "Choose a file…".`
	if msg := p.errorText("pilot.csv"); msg != want {
		t.Errorf("the page says %q, want %q", msg, want)
	}
	p.checkKept(before, "a score file opened as a session", "24-score-file-as-session")
}

// A direction chosen for a simulation is refused and the selector shows
// auto again, with the line beside it saying so; the next file dropped is
// read as auto detects it, not under the refused setting. A file read with
// a direction set, then a simulation, shows the simulation read as auto.
func TestDirectionOnSimulation(t *testing.T) {
	p := openPage(t, "")
	p.waitFinished(180 * time.Second)
	line := func() string {
		return mustEval[string](p, `document.querySelector("#direction-line").textContent`, 5*time.Second)
	}
	selector := func() string { return mustEval[string](p, `document.querySelector("#direction").value`, 5*time.Second) }
	p.typeInto("direction", "higher")
	p.errorText("simulated scores are distances")
	if _, err := eval[bool](p, `new Promise(ok => { const f = () => document.querySelector("#direction").value === "auto" ? ok(true) : setTimeout(f, 50); f(); })`, 5*time.Second); err != nil {
		t.Errorf("on a simulation the direction selector shows %q after the refusal, want auto", selector())
	}
	if l := line(); l != "Scores: lower is better (distances), detected automatically." {
		t.Errorf("on a simulation, after the refusal, the direction line says %q", l)
	}
	p.shot("23-sim-direction-refused")
	tiny := filepath.Join(repoRoot(t), "internal", "inputs", "testdata", "tiny.csv")
	p.pickFiles(tiny)
	p.waitJS(`(document.querySelector("#summary")||{textContent:""}).textContent.includes("tiny.csv")`, 60*time.Second)
	p.waitFinished(180 * time.Second)
	if l := line(); !strings.HasPrefix(l, "Scores: lower is better (distances), detected automatically.") {
		t.Errorf("the file dropped after a refused direction is read so: %q", l)
	}
	if s := mustEval[string](p, `document.querySelector("#summary-line").textContent`, 5*time.Second); !strings.Contains(s, "top-1 accuracy at 6 classes: 0.917") {
		t.Errorf("the file dropped after a refused direction: %q", s)
	}
	p.typeInto("direction", "higher")
	p.waitJS(`document.querySelector("#direction-line").textContent.includes("as you set it") && document.querySelector("#status").textContent.startsWith("Finished")`, 60*time.Second)
	p.click("show-sim")
	p.waitJS(`document.getElementById("sim-go") !== null`, 5*time.Second)
	p.click("sim-go")
	p.waitJS(`document.querySelector("#summary").textContent.includes("Simulation (")`, 60*time.Second)
	p.waitFinished(180 * time.Second)
	if l, s := line(), selector(); l != "Scores: lower is better (distances), detected automatically." || s != "auto" {
		t.Errorf("a simulation after a file read as higher: line %q, selector %q", l, s)
	}
	p.shot("23-sim-after-file-direction")
}
