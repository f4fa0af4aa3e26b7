//go:build browser

package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// onPhone makes the page p a 400 px wide phone screen (two device pixels per
// CSS pixel) until the test ends.
func (p *page) onPhone() {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(400, 860, chromedp.EmulateMobile, chromedp.EmulateScale(2))); err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() { chromedp.Call(p.ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{}) })
}

// elementImage returns a screenshot of the first element matching the CSS
// selector sel (scrolled into view), in device pixels, and saves it as
// artefact name.png.
func (p *page) elementImage(sel, name string) image.Image {
	p.t.Helper()
	time.Sleep(300 * time.Millisecond) // the last render lands
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		p.t.Fatalf("screenshot of %s: %v", sel, err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		p.t.Fatalf("screenshot of %s: %v", sel, err)
	}
	path := filepath.Join(artifacts, name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
	} else {
		p.t.Logf("screenshot: %s", path)
	}
	return img
}

// edgeLightness returns the mean lightness (0 black to 255 white; the mean
// of red, green and blue) of the n rightmost pixel columns of img.
func edgeLightness(img image.Image, n int) float64 {
	b := img.Bounds()
	sum, count := 0.0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Max.X - n; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			sum += float64(r+g+bl) / 3 / 257
			count++
		}
	}
	return sum / float64(count)
}

// tableLayoutJS describes the results table on screen: the page's and the
// table box's widths, where the scroll hint stands, how wide the curve
// names' column is and how many columns of numbers are wholly in view.
const tableLayoutJS = `(() => {
	const w = document.querySelector(".table-wrap"), box = w.getBoundingClientRect();
	const hint = document.querySelector("#scroll-hint"), hr = hint.getBoundingClientRect();
	const names = document.querySelector("#results thead th").getBoundingClientRect();
	const cols = [...document.querySelectorAll("#results thead th")].slice(1).filter(th => { const r = th.getBoundingClientRect(); return r.left >= names.right - 1 && r.right <= box.right + 1; }).length;
	return {page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth,
		box: w.clientWidth, table: w.scrollWidth, hintShown: getComputedStyle(hint).display !== "none" && hr.height > 0,
		hintBottom: hr.bottom, hintRight: hr.right, boxTop: box.top, names: names.width, cols};
})()`

// tableLayout is what tableLayoutJS returns.
type tableLayout struct {
	Page, Screen, Box, Table float64
	HintShown                bool
	HintBottom, HintRight    float64
	BoxTop, Names            float64
	Cols                     int
}

// On a 400 px phone the results table scrolls sideways inside its own box,
// never the page (nor in presentation mode). Before the table, a hint says
// it scrolls; the curve names take at most 40% of the box, leaving three
// columns of numbers or more in view; and while columns are hidden to the
// right a shadow darkens the box's right edge, gone once the table is
// scrolled to its end.
func TestResultsTableOnPhone(t *testing.T) {
	p := openPage(t, "")
	p.onPhone()
	p.waitFinished(180 * time.Second)
	p.front()
	p.shot("61-phone-table")
	l := mustEval[tableLayout](p, tableLayoutJS, 5*time.Second)
	t.Logf("phone table: %+v", l)
	if l.Page > l.Screen {
		t.Errorf("the page is %v px wide on a %v px screen: it scrolls sideways", l.Page, l.Screen)
	}
	if l.Table <= l.Box {
		t.Fatalf("the table (%v px) fits its %v px box: this test needs one that scrolls", l.Table, l.Box)
	}
	if !l.HintShown || l.HintBottom > l.BoxTop || l.HintRight > l.Screen {
		t.Errorf("the scroll hint is not shown above the table within the screen: %+v", l)
	}
	if l.Names > 0.4*l.Box || l.Cols < 3 {
		t.Errorf("the curve names take %v of the table's %v px and %d columns of numbers are in view, want at most 40%% and 3 or more", l.Names, l.Box, l.Cols)
	}
	if edge := edgeLightness(p.elementImage(".table-wrap", "61-phone-table-box"), 6); edge > 230 {
		t.Errorf("with columns hidden to the right, the table's right edge is as light as the card (lightness %.0f): no shadow shows that it scrolls", edge)
	}
	mustEval[bool](p, `(() => { const w = document.querySelector(".table-wrap"); w.scrollLeft = w.scrollWidth; return true; })()`, 5*time.Second)
	p.shot("61-phone-table-scrolled")
	if edge := edgeLightness(p.elementImage(".table-wrap", "61-phone-table-box-scrolled"), 6); edge < 240 {
		t.Errorf("scrolled to its last column, the table's right edge still has a shadow (lightness %.0f)", edge)
	}

	mustEval[bool](p, `(document.querySelector("#presentation").click(), true)`, 5*time.Second)
	p.waitJS(`document.querySelector("#app").classList.contains("presentation")`, 5*time.Second)
	p.shot("61-phone-table-presentation")
	if l := mustEval[tableLayout](p, tableLayoutJS, 5*time.Second); l.Page > l.Screen {
		t.Errorf("in presentation mode the page is %v px wide on a %v px screen: it scrolls sideways", l.Page, l.Screen)
	}
}

// fieldFitJS gives, for the input #id, its width, the width of the settings
// box it stands in, and the room left between its value's text and its
// content box's edges (negative: part of the value is hidden).
const fieldFitJS = `(id => {
	const e = document.getElementById(id), cs = getComputedStyle(e);
	const ctx = document.createElement("canvas").getContext("2d");
	ctx.font = cs.font;
	const inner = e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
	return {width: e.getBoundingClientRect().width, box: e.closest(".settings").clientWidth, room: inner - ctx.measureText(e.value).width};
})`

// fieldFit is what fieldFitJS returns.
type fieldFit struct{ Width, Box, Room float64 }

// On a 400 px phone the k2 and seed boxes span the settings, as the preset
// beside them does, and show the largest k2 and a 16-digit seed whole.
func TestK2AndSeedFieldsOnPhone(t *testing.T) {
	p := openPage(t, "example=0")
	p.onPhone()
	p.typeInto("k2", "10,000,000")
	p.typeInto("seed", "9007199254740991")
	p.front()
	p.elementImage("section[aria-labelledby=h-run] .settings", "65-phone-k2-seed")
	for _, id := range []string{"k2", "seed"} {
		f := mustEval[fieldFit](p, fmt.Sprintf("(%s)(%s)", fieldFitJS, jsString(id)), 5*time.Second)
		t.Logf("#%s on a phone: %+v", id, f)
		if f.Width < 0.9*f.Box {
			t.Errorf("the #%s box is %.0f px wide in the %.0f px settings: want 90%% of them or more", id, f.Width, f.Box)
		}
		if f.Room < 0 {
			t.Errorf("the #%s box hides %.0f px of its value", id, -f.Room)
		}
	}
}

// On a 400 px phone a tap on the chart writes the readout under it in room
// kept for it: the table below stays where it was, whichever k is read
// (below k1 the readout also holds the observed accuracy), and when the
// hint comes back.
func TestReadoutKeepsTableOnPhone(t *testing.T) {
	p := openPage(t, "")
	p.onPhone()
	p.waitFinished(180 * time.Second)
	p.front()
	tableTop := func() float64 {
		return mustEval[float64](p, `document.querySelector(".table-wrap").getBoundingClientRect().top + scrollY`, 5*time.Second)
	}
	before := tableTop()
	for _, at := range []struct {
		x    float64
		want string
	}{{0.25, "observed"}, {0.9, "80% interval"}, {0.5, "observed"}, {0.99, "Point at"}} {
		text := mustEval[string](p, fmt.Sprintf(`(() => { const c = document.getElementById("chart-acc"); c.scrollIntoView({block: "center"}); const b = c.getBoundingClientRect();
			c.dispatchEvent(new PointerEvent("pointerdown", {pointerType: "touch", clientX: b.left + b.width * %v, clientY: b.top + b.height * 0.5, bubbles: true}));
			return new Promise(res => setTimeout(() => res(document.getElementById("hover").textContent), 400)); })()`, at.x), 5*time.Second)
		if !strings.Contains(text, at.want) {
			t.Errorf("after a tap at %.0f%% of the chart's width the readout is %q, want it to hold %q", 100*at.x, text, at.want)
		}
		if at.x == 0.25 {
			p.elementImage("section.results", "67-phone-readout")
		}
		if after := tableTop(); math.Abs(after-before) > 1 {
			t.Errorf("after a tap at %.0f%% of the chart's width (readout %d characters) the table moved from %.0f px to %.0f px", 100*at.x, len([]rune(text)), before, after)
		}
	}
}

// progressLayoutJS describes the progress bars' block: its height, the
// page's and the screen's widths, and for each <progress> the text of the
// label the browser ties to it (its labels), whether that label is shown,
// how many px of the label's and of the bar's text are cut off, the
// label's font size and the bar's width.
const progressLayoutJS = `(() => {
	const b = document.querySelector(".progress");
	if (!b) return {height: 0, page: 0, screen: 0, bars: []};
	const cut = e => e ? Math.max(0, e.scrollWidth - e.clientWidth) : 0;
	const bars = [...b.querySelectorAll("progress")].map(pr => {
		const l = pr.labels.length ? pr.labels[0] : null, lr = l ? l.getBoundingClientRect() : {width: 0, height: 0};
		const text = pr.parentElement.querySelector(".bar-text");
		return {label: l ? l.textContent : "", shown: lr.width > 0 && lr.height > 0, labelCut: cut(l), textCut: cut(text),
			font: l ? parseFloat(getComputedStyle(l).fontSize) : 0, width: pr.getBoundingClientRect().width};
	});
	return {height: b.getBoundingClientRect().height, page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth, bars};
})()`

// progressLayout is what progressLayoutJS returns.
type progressLayout struct {
	Height, Page, Screen float64
	Bars                 []struct {
		Label             string
		Shown             bool
		LabelCut, TextCut float64
		Font, Width       float64
	}
}

// On a 400 px phone the progress bars of a run take at most 200 px of
// height, at every frame of the run and when it has finished, so that the
// results stay near the first screen: every bar keeps a label tied to it
// that is shown whole in readable type, a bar wide enough to read, no text
// cut off, the page does not scroll sideways, and axe-core finds no
// violation while the fits run.
func TestProgressCompactOnPhone(t *testing.T) {
	src := axeSource(t)
	p := openPage(t, "")
	p.onPhone()
	p.waitFinished(180 * time.Second)
	p.front()
	// The tallest block at any frame of the run, on the phone's screen (a
	// full-page screenshot widens the screen for a moment: not counted).
	mustEval[bool](p, fmt.Sprintf(`(() => { const w = window.__progressWatch = {max: 0, at: null, frames: 0, stop: false}, screen = document.documentElement.clientWidth;
		const f = () => { if (w.stop) return; const l = (%s); if (l.screen === screen) { w.frames++; if (l.height > w.max) { w.max = l.height; w.at = l; } } requestAnimationFrame(f); };
		requestAnimationFrame(f); return true; })()`, progressLayoutJS), 5*time.Second)
	p.click("run")
	p.waitJS(`document.querySelector("#status").textContent.startsWith("Running")`, 30*time.Second)
	p.waitJS(`document.querySelectorAll(".progress .bar-text:not(.done)").length > 0 && [...document.querySelectorAll(".progress .bar-text")].some(e => /\d/.test(e.textContent))`, 30*time.Second)
	mustEval[bool](p, `(document.querySelector(".progress").scrollIntoView({block: "center"}), true)`, 5*time.Second)
	p.shot("70-phone-progress-running")
	p.elementImage(".progress", "70-phone-progress-block")
	if v := p.axe(src); len(v) > 0 {
		t.Errorf("axe-core on a phone while the fits run: %d violations:\n%s", len(v), strings.Join(v, "\n"))
	}
	p.waitFinished(180 * time.Second)
	watch := mustEval[struct {
		Max    float64
		At     progressLayout
		Frames int
	}](p, `(() => { const w = window.__progressWatch; w.stop = true; return {max: w.max, at: w.at, frames: w.frames}; })()`, 5*time.Second)
	done := mustEval[progressLayout](p, progressLayoutJS, 5*time.Second)
	p.elementImage(".progress", "70-phone-progress-done")
	t.Logf("phone progress: %d frames watched, tallest %.0f px: %+v; finished: %+v", watch.Frames, watch.Max, watch.At, done)
	for _, l := range []struct {
		when string
		l    progressLayout
	}{{"at the run's tallest frame", watch.At}, {"after the run", done}} {
		if len(l.l.Bars) < 6 {
			t.Fatalf("%s: %d progress bars, want one per method", l.when, len(l.l.Bars))
		}
		if l.l.Height > 200 {
			t.Errorf("%s: the progress bars take %.0f px of height on a 400 px phone, want 200 px or less", l.when, l.l.Height)
		}
		if l.l.Page > l.l.Screen {
			t.Errorf("%s: the page is %v px wide on a %v px screen: it scrolls sideways", l.when, l.l.Page, l.l.Screen)
		}
		for _, b := range l.l.Bars {
			if b.Label == "" || !b.Shown || b.LabelCut > 0 || b.Font < 12 {
				t.Errorf("%s: a bar's label %q is not tied to it, not shown whole or in type under 12 px: %+v", l.when, b.Label, b)
			}
			if b.Width < 80 || b.TextCut > 0 {
				t.Errorf("%s: the bar of %q is %.0f px wide (want 80 or more) or its text is cut by %.0f px", l.when, b.Label, b.Width, b.TextCut)
			}
		}
	}
}
