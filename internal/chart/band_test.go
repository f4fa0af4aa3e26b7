package chart

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

// estimateBand returns a recommended curve and its interval around the
// truth of realistic(), k = 2..2000.
func estimateBand() (Series, Band) {
	x, y := curve(2000, 1.06, 0.1)
	lo, hi := make([]float64, len(y)), make([]float64, len(y))
	for i, v := range y {
		w := 0.002 * math.Log(x[i]) * 3
		lo[i], hi[i] = math.Max(0, v-w), math.Min(1, v+w)
	}
	return Series{Name: "recommended", Color: ColorEstimate, Width: 4, X: x, Y: y},
		Band{Name: "80% interval", Color: Translucent(ColorEstimate, BandAlpha), X: x, Lo: lo, Hi: hi}
}

// The band is one closed polygon inside the plot, filled in its colour
// before any curve is stroked, running along hi and back along lo; its
// legend entry is a filled swatch; the thick curve is stroked 4 px wide.
func TestAccuracyChartBand(t *testing.T) {
	est, band := estimateBand()
	ss := append(realistic(), est)
	ch := &AccuracyChart{Width: 720, Height: 420, LogX: true, Series: ss, Bands: []Band{band}, K1: 100}
	r := &recorder{}
	if err := ch.Draw(r); err != nil {
		t.Fatal(err)
	}
	var inPlot []stroked
	for _, fl := range r.fills {
		if fl.color == band.Color && fl.clip != nil {
			inPlot = append(inPlot, fl)
		}
	}
	if len(inPlot) != 1 || len(inPlot[0].subs) != 1 {
		t.Fatalf("band filled %d times in the plot, want once as one polygon", len(inPlot))
	}
	poly := inPlot[0].subs[0]
	cr := clipRect(t, inPlot[0])
	for _, p := range poly {
		if !cr.contains(p.x, p.y, 0) {
			t.Fatalf("band point %v outside the plot %v", p, cr)
		}
	}
	// Along hi left to right, then along lo right to left: the first and
	// last points sit at the left edge (k = 2), hi above lo.
	f := ch.last
	x2, xEnd := f.xs.pix(2), f.xs.pix(2000)
	first, last := poly[0], poly[len(poly)-1]
	if math.Abs(first.x-x2) > 1e-9 || math.Abs(last.x-x2) > 1e-9 || !(first.y <= last.y) {
		t.Errorf("band starts at %v and ends at %v, want both at x = %.1f with hi above lo", first, last, x2)
	}
	maxX := 0.0
	for _, p := range poly {
		maxX = math.Max(maxX, p.x)
	}
	if math.Abs(maxX-xEnd) > 1e-9 {
		t.Errorf("band reaches x = %.1f, want k = 2000 at %.1f", maxX, xEnd)
	}
	if len(poly) > 4*int(f.plot.x1-f.plot.x0)+8 {
		t.Errorf("band polygon has %d points for a %0.f px plot: not thinned", len(poly), f.plot.x1-f.plot.x0)
	}
	// The band is filled before the first curve is stroked (it lies under them).
	fillAt, strokeAt := -1, -1
	for i, o := range r.ops {
		if o.name == "fillStyle" && o.s == band.Color && fillAt < 0 {
			fillAt = i
		}
		if o.name == "strokeStyle" && o.s == ColorObserved && strokeAt < 0 && fillAt >= 0 {
			strokeAt = i
		}
	}
	if fillAt < 0 || strokeAt < fillAt {
		t.Errorf("band fill at op %d, first curve stroke at op %d: the band must come first", fillAt, strokeAt)
	}
	// Legend: both entries, the band as a filled block.
	for _, name := range []string{"recommended", "80% interval"} {
		if r.textCount(name) != 1 {
			t.Errorf("legend shows %q %d times, want once", name, r.textCount(name))
		}
	}
	swatch := 0
	for i, o := range r.ops {
		if o.name == "fillRect" && i > 0 && r.ops[i-1].name == "fillStyle" && r.ops[i-1].s == band.Color {
			swatch++
		}
	}
	if swatch != 1 {
		t.Errorf("%d filled legend swatches in the band colour, want 1", swatch)
	}
	thick := false
	for i, o := range r.ops {
		if o.name == "lineWidth" && o.args[0] == 4 && i > 0 && r.ops[i-1].name == "fillStyle" && r.ops[i-1].s == ColorEstimate {
			thick = true
		}
	}
	if !thick {
		t.Error("the recommended curve is not stroked 4 px wide")
	}
}

// A band point the axes cannot show (NaN, or k = 0 on a log axis) splits the
// band into separate polygons; bands of unequal lengths are refused.
func TestAccuracyChartBandGapsAndErrors(t *testing.T) {
	x := []float64{0, 2, 3, 4, 5, 6, 7}
	lo := []float64{0.5, 0.5, 0.4, math.NaN(), 0.3, 0.2, 0.1}
	hi := []float64{0.9, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4}
	ch := &AccuracyChart{Width: 400, Height: 300, LogX: true, Bands: []Band{{Name: "estimate", X: x, Lo: lo, Hi: hi}}}
	r := &recorder{}
	if err := ch.Draw(r); err != nil {
		t.Fatal(err)
	}
	want := Translucent(ColorEstimate, BandAlpha)
	n := 0
	for _, fl := range r.fills {
		if fl.color == want && fl.clip != nil {
			n += len(fl.subs)
		}
	}
	if n != 2 {
		t.Errorf("band drawn as %d polygons, want 2 (split at the NaN, k = 0 dropped)", n)
	}
	bad := &AccuracyChart{Width: 400, Height: 300, Bands: []Band{{Name: "b", X: x, Lo: lo[:3], Hi: hi}}}
	if err := bad.Draw(&recorder{}); err == nil || !strings.Contains(err.Error(), "band 0") {
		t.Errorf("unequal band lengths: %v", err)
	}
}

func TestTranslucentAndBlend(t *testing.T) {
	if got := Translucent("#5e3c99", 0.25); got != "rgba(94,60,153,0.25)" {
		t.Errorf("Translucent: %q", got)
	}
	if got := Blend("#000000", 0.5); got != "#808080" {
		t.Errorf("Blend black at 0.5: %q", got)
	}
	if Translucent("red", 0.5) != "red" || Blend("red", 0.5) != "red" {
		t.Error("a colour that is not #rrggbb must pass through")
	}
}

// The box chart draws one box per entry with its name under it, a zero
// line across the plot, and refuses decreasing quantiles.
func TestBoxChart(t *testing.T) {
	boxes := []Box{
		{Name: "plug-in", Color: methodColor("plugin"), Q: [5]float64{0.2, 0.25, 0.3, 0.35, 0.4}},
		{Name: "KDE", Color: methodColor("kde"), Q: [5]float64{-0.05, 0, 0.05, 0.1, 0.15}},
		{Name: "recommended", Color: ColorEstimate, Q: [5]float64{-0.04, -0.02, 0, 0.02, 0.04}, Bold: true},
	}
	bc := &BoxChart{Width: 600, Height: 260, Boxes: boxes, YTitle: "error", ZeroLabel: "no error"}
	r := &recorder{}
	if err := bc.Draw(r); err != nil {
		t.Fatal(err)
	}
	for _, b := range boxes {
		if r.textCount(b.Name) != 1 {
			t.Errorf("label %q drawn %d times", b.Name, r.textCount(b.Name))
		}
		if len(r.strokesOf(b.Color)) != 2 {
			t.Errorf("%s: %d strokes, want box+whiskers and median", b.Name, len(r.strokesOf(b.Color)))
		}
	}
	if r.textCount("no error") != 1 {
		t.Error("zero line unlabelled")
	}
	var zero []stroked
	for _, s := range r.strokesOf(Light().Text) {
		if s.dashed {
			zero = append(zero, s)
		}
	}
	if len(zero) != 1 || len(zero[0].subs) != 1 || zero[0].subs[0][0].y != zero[0].subs[0][1].y {
		t.Fatalf("zero line: %v", zero)
	}
	// The boxes' medians sit where the y scale puts them, relative to zero.
	zy := zero[0].subs[0][0].y
	for _, s := range r.strokesOf(methodColor("plugin")) {
		if len(s.subs) == 1 && s.subs[0][0].y >= zy {
			t.Errorf("plug-in's median (+0.3) is drawn at y = %.1f, not above the zero line at %.1f", s.subs[0][0].y, zy)
		}
	}
	if len(r.saved) != 0 {
		t.Error("unbalanced Save/Restore")
	}
	for _, bad := range [][5]float64{{0.1, 0, 0.2, 0.3, 0.4}, {0, 0, math.NaN(), 0, 0}} {
		if err := (&BoxChart{Width: 600, Height: 260, Boxes: []Box{{Name: "x", Q: bad}}}).Draw(&recorder{}); err == nil {
			t.Errorf("quantiles %v accepted", bad)
		}
	}
	if err := (&BoxChart{Width: 600, Height: 260}).Draw(&recorder{}); err == nil {
		t.Error("an empty box chart was accepted")
	}
	svg := NewSVGCanvas(600, 260)
	if err := bc.Draw(svg); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := svg.WriteTo(&buf); err != nil || !strings.Contains(buf.String(), "recommended") {
		t.Errorf("SVG of the box chart: %v", err)
	}
}

// On a narrow chart, names wider than their column are staggered on two rows
// (or three) so that neighbours on a row keep boxLabelGap apart and do not
// read as one name; on a wide one they share one row. The seven boxes of
// the page's "Why this answer" chart on a 400 px phone (a chart 330 px
// wide) take three rows: on two, "regression" and "recommended" would stand
// a space apart.
func TestBoxChartNarrowLabels(t *testing.T) {
	q := [5]float64{-0.1, -0.05, 0, 0.05, 0.1}
	four := []Box{{Name: "regression", Q: q}, {Name: "CleaneX", Q: q}, {Name: "recommended", Q: q}, {Name: "KDE", Q: q}}
	six := []Box{{Name: "plug-in", Q: q}, {Name: "KDE", Q: q}, {Name: "pooled", Q: q}, {Name: "regression", Q: q}, {Name: "CleaneX", Q: q}, {Name: "recommended", Q: q}}
	seven := []Box{{Name: "plug-in", Q: q}, {Name: "KDE", Q: q}, {Name: "pooled", Q: q}, {Name: "tail", Q: q}, {Name: "regression", Q: q}, {Name: "CleaneX", Q: q}, {Name: "recommended", Q: q}}
	for _, tc := range []struct {
		boxes []Box
		width float64
		rows  int
	}{{four, 700, 1}, {four, 300, 2}, {six, 700, 1}, {six, 380, 2}, {six, 330, 3}, {six, 250, 3}, {seven, 700, 1}, {seven, 330, 3}} {
		boxes := tc.boxes
		r := &recorder{}
		if err := (&BoxChart{Width: tc.width, Height: 240, Boxes: boxes}).Draw(r); err != nil {
			t.Fatal(err)
		}
		ys := map[float64]bool{}
		var labels []text
		for _, tx := range r.texts {
			for _, b := range boxes {
				if tx.s == b.Name {
					ys[tx.y] = true
					labels = append(labels, tx)
				}
			}
		}
		if len(ys) != tc.rows || len(labels) != len(boxes) {
			t.Errorf("%d boxes, width %v: %d labels on %d rows, want %d on %d", len(boxes), tc.width, len(labels), len(ys), len(boxes), tc.rows)
		}
		var bg []float64 // the first filled rectangle: the background
		for _, o := range r.ops {
			if o.name == "fillRect" {
				bg = o.args
				break
			}
		}
		if !slices.Equal(bg, []float64{0, 0, tc.width, 240}) {
			t.Errorf("width %v: the background fills %v, not the whole canvas", tc.width, bg)
		}
		for _, l := range labels {
			if half := r.MeasureText(l.s) / 2; l.x-half < 0 || l.x+half > tc.width || l.y+lineH > 240 {
				t.Errorf("width %v: label %q at (%.0f, %.0f) runs outside the canvas", tc.width, l.s, l.x, l.y)
			}
		}
		// Neighbours on one row keep boxLabelGap apart (the recorder's text
		// is 6.5 px a rune).
		for i := range labels {
			for j := i + 1; j < len(labels); j++ {
				a, b := labels[i], labels[j]
				if gap := math.Abs(a.x-b.x) - (r.MeasureText(a.s)+r.MeasureText(b.s))/2; a.y == b.y && gap < boxLabelGap-1e-9 {
					t.Errorf("width %v: labels %q and %q on one row stand %.1f px apart, want %d or more", tc.width, a.s, b.s, gap, boxLabelGap)
				}
			}
		}
	}
}
