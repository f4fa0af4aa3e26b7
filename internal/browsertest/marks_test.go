//go:build browser

package browsertest

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// markStripJS is a JavaScript expression that finds, on the accuracy chart,
// the top edge of the plot's frame (the first row drawn in the frame's grey
// across a quarter of the canvas' width) and looks at the strip from 16 to 3
// CSS pixels above it (a curve at accuracy 1 may be drawn whole over the
// frame, up to its line width above it), right of the frame's left edge (the
// y axis' top label "1" reaches into the strip left of it), where the labels
// "k1 = …" and "k2 = …" stand: it counts
// the strip's coloured pixels (a curve's or the band's hue: channels more
// than 60 apart), its dark pixels (text) and the runs of columns holding
// dark pixels, apart by at least 6 CSS pixels (one per label).
const markStripJS = `(() => {
	const cv = document.getElementById("chart-acc"), w = cv.width, h = cv.height, dpr = window.devicePixelRatio || 1;
	const d = cv.getContext("2d").getImageData(0, 0, w, h).data;
	const grey = i => d[i + 3] === 255 && [0, 1, 2].every(c => Math.abs(d[i + c] - 0x88) <= 12);
	let top = -1;
	for (let y = 0; y < h && top < 0; y++) {
		let n = 0;
		for (let x = 0; x < w; x++) if (grey(4 * (y * w + x))) n++;
		if (n > 0.25 * w) top = y;
	}
	if (top < 0) return {top};
	let left = 0;
	while (left < w && !grey(4 * (top * w + left))) left++;
	const y0 = Math.max(0, top - Math.round(16 * dpr)), y1 = top - Math.round(3 * dpr);
	let coloured = 0, dark = 0;
	const cols = new Array(w).fill(false);
	for (let y = y0; y < y1; y++) for (let x = left; x < w; x++) {
		const i = 4 * (y * w + x);
		if (d[i + 3] < 200) continue;
		const hi = Math.max(d[i], d[i + 1], d[i + 2]), lo = Math.min(d[i], d[i + 1], d[i + 2]);
		if (hi - lo > 60) coloured++;
		if (hi < 130) { dark++; cols[x] = true; }
	}
	let runs = 0, gap = Infinity;
	for (let x = 0; x < w; x++) {
		if (cols[x]) { if (gap >= 6 * dpr) runs++; gap = 0; } else gap++;
	}
	return {top: top / dpr, coloured, dark, runs};
})()`

// markStrip is what markStripJS returns.
type markStrip struct {
	Top      float64 `json:"top"`
	Coloured int     `json:"coloured"`
	Dark     int     `json:"dark"`
	Runs     int     `json:"runs"`
}

// Predicting far beyond the pilot (k2 = 100 × k1, where the plug-in levels
// off near the top of the chart and the other methods fall to the bottom),
// the labels "k1 = 20" and "k2 = 2,000" stand apart in a strip of their own
// above the plot: no curve or band colour there, two separate labels, on a
// 400 px phone and on a 1280 px screen.
func TestMarkLabelsClearOfCurves(t *testing.T) {
	for _, width := range []int64{400, 1280} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			p := openPage(t, "example=0")
			if width == 400 {
				if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(400, 860, chromedp.EmulateMobile, chromedp.EmulateScale(2))); err != nil {
					t.Fatal(err)
				}
				defer chromedp.Call(p.ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{})
			}
			mustEval[map[string]any](p, `window.cleanex.simulate({k1: 20, k2: 100, r: 5, d: 5, sigma2: 0.1, seed: 4})`, 60*time.Second)
			p.run(2000, []string{"plugin", "kde", "pooled", "tail"}, "fast", 1, 120*time.Second)
			p.waitJS(`(document.querySelector("#headline") || {textContent: ""}).textContent.startsWith("At 2,000 classes")`, 30*time.Second)
			p.front()
			p.checkChart("k2 = 100 × k1", fmt.Sprintf("60-marks-k2-100k1-%d", width), false)
			s := mustEval[markStrip](p, markStripJS, 10*time.Second)
			t.Logf("strip above the plot (top at %.0f px): %d coloured pixels, %d dark, %d labels", s.Top, s.Coloured, s.Dark, s.Runs)
			if s.Top <= 0 {
				t.Fatal("the plot's frame was not found on the chart")
			}
			if s.Coloured > 0 {
				t.Errorf("%d pixels of a curve's or the band's colour lie among the k1 and k2 labels", s.Coloured)
			}
			if s.Dark < 40 || s.Runs != 2 {
				t.Errorf("the strip above the plot holds %d dark pixels in %d runs, want the two labels k1 and k2 apart", s.Dark, s.Runs)
			}
		})
	}
}
