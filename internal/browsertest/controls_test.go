//go:build browser

package browsertest

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/cleanex/cleanex/internal/methods"
)

// linesJS is a JavaScript expression giving, for each element matching the
// CSS selector in sel, its text and the number of lines it takes (its
// client rects: one per line of an inline element; for a block, its height
// over its line height).
const linesJS = `[...document.querySelectorAll(%s)].map(e => {
	const cs = getComputedStyle(e), lh = parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.45;
	const n = cs.display === "inline" ? e.getClientRects().length : Math.round(e.getBoundingClientRect().height / lh);
	return e.textContent.trim() + ":" + n;
})`

// On a 1280 px screen the names of the methods beside their notes, and the
// names of the progress bars, each stay on one line (no "plug-" over "in").
func TestMethodNamesOnOneLine(t *testing.T) {
	p := openPage(t, "")
	p.waitFinished(180 * time.Second)
	p.front()
	p.shot("62-wide-method-names")
	for _, sel := range []string{".settings fieldset label > span:not(.note)", ".bar > label"} {
		lines := mustEval[[]string](p, fmt.Sprintf(linesJS, jsString(sel)), 5*time.Second)
		if len(lines) < 6 {
			t.Errorf("%s: %d names, want the six methods'", sel, len(lines))
		}
		for _, l := range lines {
			if l[len(l)-2:] != ":1" {
				t.Errorf("%s: %q takes more than one line", sel, l)
			}
		}
	}
}

// On a 400 px phone the simulation form's sliders each span the form, so
// that a thumb can be moved finely.
func TestSlidersSpanPhone(t *testing.T) {
	p := openPage(t, "example=0")
	p.onPhone()
	p.click("show-sim")
	p.waitJS(`!!document.querySelector("#slide-d")`, 10*time.Second)
	p.front()
	p.shot("63-phone-sliders")
	got := mustEval[map[string]float64](p, `(() => { const f = document.querySelector("#simform").getBoundingClientRect();
		const w = id => document.getElementById(id).getBoundingClientRect().width;
		return {form: f.width, d: w("slide-d"), sigma2: w("slide-sigma2"), k1: w("slide-k1")}; })()`, 5*time.Second)
	t.Logf("phone sliders: %v", got)
	for _, id := range []string{"d", "sigma2", "k1"} {
		if got[id] < 0.8*got["form"] {
			t.Errorf("the %s slider is %.0f px wide in a %.0f px form: want 80%% of it or more", id, got[id], got["form"])
		}
	}
}

// resultsLayoutJS describes the results table as it stands on screen: its
// box's and its own widths, how many lines the recommended value at k2 with
// its interval, each header and each curve name take (lines of text: the
// distinct tops of their text's boxes), and the least room, over the cells
// of numbers, between a cell's text and its edges (negative: cut off).
const resultsLayoutJS = `(() => {
	const w = document.querySelector(".table-wrap"), table = document.querySelector("#results");
	const lines = e => { const r = document.createRange(); r.selectNodeContents(e);
		const tops = [...r.getClientRects()].filter(b => b.width > 0).map(b => b.top).sort((a, b) => a - b);
		return tops.filter((t, i) => i === 0 || t - tops[i - 1] > 5).length; };
	const k2 = [...table.querySelectorAll("tr.row-estimate td")].find(td => td.querySelector(".interval"));
	const heads = [...table.querySelectorAll("thead th")].map(th => th.textContent + ":" + lines(th));
	const names = [...table.querySelectorAll("tbody th")].map(th => th.textContent + ":" + lines(th));
	let room = Infinity;
	for (const td of table.querySelectorAll("tbody td")) {
		if (!td.textContent.trim()) continue;
		const r = document.createRange(); r.selectNodeContents(td);
		const cs = getComputedStyle(td);
		room = Math.min(room, td.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - r.getBoundingClientRect().width);
	}
	return {box: w.clientWidth, table: table.getBoundingClientRect().width, k2Cell: k2.textContent,
		k2Lines: lines(k2), k2Width: k2.getBoundingClientRect().width, heads, names, room};
})()`

// resultsLayout is what resultsLayoutJS returns.
type resultsLayout struct {
	Box, Table   float64
	K2Cell       string
	K2Lines      int
	K2Width      float64
	Heads, Names []string
	Room         float64
}

// On a 1280 px screen, on first open, the recommended value at k2 and its
// 80% interval stand on one line in the results table, which fits its box,
// with every curve name on one line, no header on more than two and every
// number wholly inside its column.
func TestEstimateOnOneLineWide(t *testing.T) {
	p := openPage(t, "")
	p.waitFinished(180 * time.Second)
	p.front()
	p.elementImage(".table-wrap", "64-wide-results-table")
	l := mustEval[resultsLayout](p, resultsLayoutJS, 5*time.Second)
	t.Logf("wide table: %+v", l)
	checkWideTable(t, "on first open", l)
}

// checkWideTable fails the test unless the results table l, on a 1280 px
// screen, keeps the recommended value at k2 and its interval on one line,
// fits its box, keeps every curve name on one line and every header on at
// most two, and cuts no number.
func checkWideTable(t *testing.T, what string, l resultsLayout) {
	t.Helper()
	if l.K2Lines != 1 {
		t.Errorf("%s: the recommended value and interval at k2 %q take %d lines in a %.0f px cell, want 1", what, l.K2Cell, l.K2Lines, l.K2Width)
	}
	if l.Table > l.Box {
		t.Errorf("%s: the table is %.0f px wide in its %.0f px box: it scrolls sideways", what, l.Table, l.Box)
	}
	for _, h := range l.Heads {
		if n := h[strings.LastIndex(h, ":")+1:]; n != "1" && n != "2" {
			t.Errorf("%s: header %q takes more than two lines", what, h)
		}
	}
	for _, n := range l.Names {
		if !strings.HasSuffix(n, ":1") {
			t.Errorf("%s: curve name %q takes more than one line", what, n)
		}
	}
	if l.Room < -1 {
		t.Errorf("%s: a number is %.1f px wider than its column", what, -l.Room)
	}
}

// On a 1280 px screen the results table of a simulated pilot of k1 = 20,
// 30 or 39 classes (k2 = 2000: seven columns of k, 1-2-5 steps from k1),
// as of k1 = 40 or 50 (six), 100 (five) or 500 (three), keeps the
// recommended value at k2 and its interval on one line, fits its box with
// the RMSE column, and the page does not scroll sideways.
func TestEstimateOnOneLineWideAnyK1(t *testing.T) {
	p := openPage(t, "example=0")
	p.front()
	for _, k1 := range []int{20, 30, 39, 40, 50, 100, 500} {
		mustEval[map[string]any](p, fmt.Sprintf(`window.cleanex.simulate({classes: "normal", points: "normal", d: 5, sigma2: 0.1, r: 5, k1: %d, k2: 2000, seed: 1})`, k1), 120*time.Second)
		p.run(2000, methods.Names, "fast", 1, 300*time.Second)
		p.waitJS(`document.querySelectorAll("#results td.rmse").length > 0 && !!document.querySelector("#results tr.row-estimate .interval")`, 30*time.Second)
		what := fmt.Sprintf("k1 = %d", k1)
		p.elementImage(".table-wrap", fmt.Sprintf("69-wide-results-table-k1-%d", k1))
		l := mustEval[resultsLayout](p, resultsLayoutJS, 5*time.Second)
		t.Logf("%s: wide table: %+v", what, l)
		if ks := len(l.Heads) - 3; k1 < 40 && ks != 7 {
			t.Errorf("%s: the table has %d columns of k, want 7", what, ks)
		}
		checkWideTable(t, what, l)
		page := mustEval[map[string]float64](p, `({page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth})`, 5*time.Second)
		if page["page"] > page["screen"] {
			t.Errorf("%s: the page is %v px wide on a %v px screen: it scrolls sideways", what, page["page"], page["screen"])
		}
	}
}

// In the dark scheme the recommended row is one colour from its name to its
// numbers: the name's cell (opaque, as it stays in view when the table
// scrolls sideways) has the colour of the tinted cells beside it.
func TestEstimateRowOneColourDark(t *testing.T) {
	p := openPage(t, "")
	p.waitFinished(180 * time.Second)
	p.front()
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}})
	})
	p.waitJS(`document.getElementById("chart-acc").dataset.theme === "dark"`, 5*time.Second)
	// Where to look, in the row's own pixels: the blank end of the name's
	// cell and the blank start of the first cell of numbers, either side of
	// their common edge.
	at := mustEval[map[string]float64](p, `(() => { const tr = document.querySelector("#results tr.row-estimate"), r = tr.getBoundingClientRect();
		const th = tr.querySelector("th").getBoundingClientRect(), td = tr.querySelector("td").getBoundingClientRect();
		return {nameX: th.right - r.left - 4, cellX: td.left - r.left + 4, y: r.height / 2}; })()`, 5*time.Second)
	img := p.elementImage("#results tr.row-estimate", "66-dark-estimate-row")
	p.elementImage(".table-wrap", "66-dark-results-table")
	b := img.Bounds()
	scale := float64(b.Dx()) / mustEval[float64](p, `document.querySelector("#results tr.row-estimate").getBoundingClientRect().width`, 5*time.Second)
	rgb := func(x float64) [3]int {
		r, g, bl, _ := img.At(b.Min.X+int(x*scale), b.Min.Y+int(at["y"]*scale)).RGBA()
		return [3]int{int(r >> 8), int(g >> 8), int(bl >> 8)}
	}
	name, cell := rgb(at["nameX"]), rgb(at["cellX"])
	t.Logf("dark recommended row: name cell %v, number cell %v", name, cell)
	if name[0]+name[1]+name[2] > 300 {
		t.Fatalf("the recommended row is not dark (%v): is the dark scheme emulated?", name)
	}
	for i := range name {
		if d := name[i] - cell[i]; d > 2 || d < -2 {
			t.Errorf("the recommended row's name cell is %v and the cell beside it %v: a seam of two colours", name, cell)
			break
		}
	}
}

// watchAnswerJS records, at every frame for the next ms milliseconds, where
// the "Example file" button stands on screen, the answer bar's height and
// text, and whether a run is going on (each change of them once).
const watchAnswerJS = `(ms => { window.__frames = []; const t0 = performance.now();
	const f = () => { const b = document.querySelector("#example").getBoundingClientRect(), a = document.querySelector("#answer");
		const s = {button: b.top, answer: a.getBoundingClientRect().height, text: a.textContent,
			running: document.querySelector("#status").textContent.startsWith("Running"), headline: document.querySelector("#headline").textContent};
		const last = window.__frames[window.__frames.length - 1];
		if (!last || JSON.stringify(last) !== JSON.stringify(s)) window.__frames.push(s);
		if (performance.now() - t0 < ms) requestAnimationFrame(f); };
	requestAnimationFrame(f); return true; })`

// answerFrame is one entry of watchAnswerJS's record.
type answerFrame struct {
	Button, Answer float64
	Text, Headline string
	Running        bool
}

// A dropped file is worked out without the page moving under the pointer:
// while the fits run and end one by one, the answer bar at the top keeps
// one line saying which k2 is worked out (what runs is listed under "3.
// Results"), so that at 1280 px the buttons of the drop zone never move,
// and on a 400 px phone the bar keeps its height through the run.
func TestAnswerBarSteadyDuringRun(t *testing.T) {
	csv := simulatedCSV(t, 40, 3)
	for _, phone := range []bool{false, true} {
		p, _ := openFinished(t, phone)
		mustEval[bool](p, `(scrollTo(0, 0), true)`, 5*time.Second)
		mustEval[bool](p, watchAnswerJS+"(12000)", 5*time.Second)
		mustEval[bool](p, dropJS(fileJS("pilot-40.csv", csv)), 10*time.Second)
		p.waitJS(`(document.querySelector("#summary")||{textContent:""}).textContent.includes("pilot-40.csv")`, 30*time.Second)
		p.waitFinished(180 * time.Second)
		time.Sleep(500 * time.Millisecond)
		frames := mustEval[[]answerFrame](p, `window.__frames`, 5*time.Second)
		what := map[bool]string{false: "1280 px", true: "400 px phone"}[phone]
		running, lists := 0, map[string]bool{}
		var heights []float64
		for _, f := range frames {
			t.Logf("%s: button %.0f, answer bar %.0f px %q (running %v; headline %q)", what, f.Button, f.Answer, f.Text, f.Running, f.Headline)
			if f.Running {
				running++
				lists[f.Headline] = true
				if len(heights) == 0 || heights[len(heights)-1] != f.Answer {
					heights = append(heights, f.Answer)
				}
			}
			if !phone && math.Abs(f.Button-frames[0].Button) > 1 {
				t.Errorf("%s: the Example file button moved from %.0f px to %.0f px (answer bar %.0f px: %q)", what, frames[0].Button, f.Button, f.Answer, f.Text)
			}
		}
		if running == 0 || len(lists) < 2 {
			t.Fatalf("%s: %d frames of the run seen, with %d lists of what runs: the run was not watched", what, running, len(lists))
		}
		if len(heights) > 1 {
			t.Errorf("%s: while the fits ran, the answer bar changed height: %v px", what, heights)
		}
		if phone {
			p.shot("68-phone-after-drop")
		} else {
			p.shot("68-wide-after-drop")
		}
	}
}

// watchBusyJS records, for the next ms milliseconds, the busy line's text
// and where the sections under the drop zone stand: the summary's top from
// the data card's top, and the Predict card's top from the summary's bottom
// (each change once). It looks at every frame and after every change of
// the page (a line shown for less than a frame counts too). Measured from
// the data card, the answer bar above it does not count.
const watchBusyJS = `(ms => { window.__busy = []; const t0 = performance.now();
	const look = () => { const data = document.querySelector("section[aria-labelledby=h-data]").getBoundingClientRect();
		const sum = document.querySelector("#summary").getBoundingClientRect(), run = document.querySelector("section[aria-labelledby=h-run]").getBoundingClientRect();
		const s = {busy: (document.querySelector("#busy") || {textContent: ""}).textContent, summary: sum.top - data.top, run: run.top - sum.bottom};
		const last = window.__busy[window.__busy.length - 1];
		if (!last || JSON.stringify(last) !== JSON.stringify(s)) window.__busy.push(s); };
	const mo = new MutationObserver(look);
	mo.observe(document.body, {childList: true, characterData: true, subtree: true, attributes: true});
	const f = () => { look(); if (performance.now() - t0 < ms) requestAnimationFrame(f); else mo.disconnect(); };
	requestAnimationFrame(f); return true; })`

// busyFrame is one entry of watchBusyJS's record.
type busyFrame struct {
	Busy         string
	Summary, Run float64
}

// A dropped file's "Reading …" line stands in room kept for it: at 1280 px
// and on a 400 px phone, the summary under the drop zone and the Predict
// card below it stay where they were while the line comes and goes.
func TestBusyLineKeepsSectionsStill(t *testing.T) {
	csv := simulatedCSVr(t, 100, 10, 3)
	for _, phone := range []bool{false, true} {
		p, what := openFinished(t, phone)
		mustEval[bool](p, watchBusyJS+"(10000)", 5*time.Second)
		mustEval[bool](p, dropJS(fileJS("pilot-100.csv", csv)), 10*time.Second)
		p.waitJS(`(document.querySelector("#summary")||{textContent:""}).textContent.includes("pilot-100.csv")`, 30*time.Second)
		time.Sleep(500 * time.Millisecond)
		frames := mustEval[[]busyFrame](p, `window.__busy`, 5*time.Second)
		seen := false
		for _, f := range frames {
			t.Logf("%s: busy %q, summary at %.1f px, Predict card %.1f px below it", what, f.Busy, f.Summary, f.Run)
			if strings.Contains(f.Busy, "Reading pilot-100.csv") {
				seen = true
			}
			if math.Abs(f.Summary-frames[0].Summary) > 1 || math.Abs(f.Run-frames[0].Run) > 1 {
				t.Errorf("%s: with the busy line %q the summary stands at %.0f px (was %.0f) and the Predict card %.0f px below it (was %.0f)", what, f.Busy, f.Summary, frames[0].Summary, f.Run, frames[0].Run)
			}
		}
		if !seen {
			t.Fatalf("%s: the busy line never said \"Reading pilot-100.csv…\" (%d frames): the drop was not watched", what, len(frames))
		}
		p.waitFinished(180 * time.Second)
	}
}

// Moving a slider of the simulation form does not move the page under the
// pointer: from the preview (the observed curve and the plug-in) to the
// end of the full run that follows, the answer bar at the top keeps one
// line saying which k2 is worked out, at 1280 px and on a 400 px phone, so
// the slider stays where it was.
func TestSliderKeepsPageStill(t *testing.T) {
	for _, phone := range []bool{false, true} {
		p, what := openFinished(t, phone)
		p.click("show-sim")
		p.waitJS(`document.getElementById("slide-d") !== null`, 5*time.Second)
		// At 1280 px the slider is on the first screen, the page scrolled to
		// its top (where the browser's scroll anchoring does not hold the
		// content still); on the phone it is scrolled to.
		if phone {
			mustEval[bool](p, `(document.getElementById("slide-d").scrollIntoView({block: "center"}), true)`, 5*time.Second)
		} else {
			mustEval[bool](p, `(scrollTo(0, 0), true)`, 5*time.Second)
		}
		mustEval[bool](p, strings.Replace(watchAnswerJS, `document.querySelector("#example")`, `document.querySelector("#slide-d")`, 1)+"(15000)", 5*time.Second)
		mustEval[bool](p, `(() => { const e = document.getElementById("slide-d"); e.value = "8"; e.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`, 5*time.Second)
		p.waitJS(`document.querySelector("#summary-line") && document.querySelector("#summary").textContent.includes("d = 8")`, 30*time.Second)
		p.waitJS(`document.querySelector("#headline").textContent.startsWith("At 2,000 classes:") && document.querySelector("#status").textContent.startsWith("Finished")`, 180*time.Second)
		time.Sleep(300 * time.Millisecond)
		frames := mustEval[[]answerFrame](p, `window.__frames`, 5*time.Second)
		if len(frames) < 3 {
			t.Fatalf("%s: %d frames recorded: the slide was not watched", what, len(frames))
		}
		var heights []float64
		for _, f := range frames {
			t.Logf("%s: slider at %.0f px, answer bar %.0f px %q (running %v)", what, f.Button, f.Answer, f.Text, f.Running)
			if strings.TrimSpace(f.Text) == "" {
				t.Errorf("%s: after the slider moved, the answer bar was empty (%.0f px high)", what, f.Answer)
			}
			if math.Abs(f.Button-frames[0].Button) > 1 {
				t.Errorf("%s: the slider moved from %.0f px to %.0f px (answer bar %.0f px: %q)", what, frames[0].Button, f.Button, f.Answer, f.Text)
			}
			if strings.HasPrefix(f.Text, "Working out") && (len(heights) == 0 || heights[len(heights)-1] != f.Answer) {
				heights = append(heights, f.Answer)
			}
		}
		if len(heights) > 1 {
			t.Errorf("%s: while the slide was worked out, the answer bar changed height: %v px", what, heights)
		}
	}
}

// openFinished opens the page with its example, at 1280 px or on a 400 px
// phone, waits for the example's run to finish and brings the tab to the
// front; it returns the page and the size in words for messages.
func openFinished(t *testing.T, phone bool) (*page, string) {
	t.Helper()
	p := openPage(t, "")
	if phone {
		p.onPhone()
	}
	p.waitFinished(180 * time.Second)
	p.front()
	return p, map[bool]string{false: "1280 px", true: "400 px phone"}[phone]
}
