package chart

import (
	"fmt"
	"math"
	"testing"
)

// placeLabels centres each label over its line and moves it only to keep
// clear of its neighbour and inside [lo, hi].
func TestPlaceLabels(t *testing.T) {
	for _, tc := range []struct {
		name          string
		lines, widths []float64
		hi            float64
		want          []float64
		ok            bool
	}{
		{"apart", []float64{100, 300}, []float64{40, 60}, 400, []float64{80, 270}, true},
		{"the right one at the edge", []float64{100, 400}, []float64{40, 60}, 400, []float64{80, 340}, true},
		{"the left one at the edge", []float64{0, 300}, []float64{40, 60}, 400, []float64{0, 270}, true},
		{"close: pushed apart", []float64{200, 210}, []float64{40, 60}, 400, []float64{180, 230}, true},
		{"one line at the edge: side by side", []float64{400, 400}, []float64{40, 60}, 400, []float64{290, 340}, true},
		{"too narrow: each alone", []float64{30, 40}, []float64{50, 40}, 80, []float64{5, 20}, false},
	} {
		got, ok := placeLabels(tc.lines, tc.widths, 0, tc.hi)
		if ok != tc.ok || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: placeLabels(%v, %v, 0, %v) = %v, %v; want %v, %v", tc.name, tc.lines, tc.widths, tc.hi, got, ok, tc.want, tc.ok)
		}
	}
}

// farPrediction returns the curves of a pilot of k1 classes predicted out to
// k2 the way the page draws them: the observed curve up to k1, a plug-in
// that levels off high (as it does far beyond the pilot), methods falling
// to near 0.2, the recommended curve and its interval.
func farPrediction(k1, k2 int) ([]Series, []Band) {
	ks := func(lo, hi int) []float64 {
		var x []float64
		for k := float64(lo); k <= float64(hi); k = math.Ceil(k * 1.05) {
			x = append(x, k)
		}
		return append(x, float64(hi))
	}
	fall := func(x []float64, a, b float64) []float64 {
		y := make([]float64, len(x))
		for i, k := range x {
			y[i] = math.Max(0.02, math.Min(1, a-b*math.Log(k)))
		}
		return y
	}
	obs, all := ks(2, k1), ks(2, k2)
	plug := make([]float64, len(all))
	for i, k := range all {
		plug[i] = 0.88 + 0.12*math.Exp(-k/float64(k1))
	}
	est := fall(all, 1.06, 0.1)
	lo, hi := make([]float64, len(all)), make([]float64, len(all))
	for i := range all {
		lo[i], hi[i] = est[i]-0.08, math.Min(1, est[i]+0.06)
	}
	return []Series{
			{Name: "observed", X: obs, Y: fall(obs, 1.07, 0.1)},
			{Name: "estimate", X: all, Y: est, Width: 4},
			{Name: "plugin", X: all, Y: plug},
			{Name: "kde", X: all, Y: fall(all, 1.02, 0.12)},
			{Name: "cleanex", X: all, Y: fall(all, 1.08, 0.095)},
			{Name: "truth", Dashed: true, X: all, Y: fall(all, 1.05, 0.1)},
		}, []Band{
			{Name: "80% interval", X: all, Lo: lo, Hi: hi},
		}
}

// overlap reports whether rectangles a and b share more than a hair.
func overlap(a, b rect) bool {
	return math.Min(a.x1, b.x1)-math.Max(a.x0, b.x0) > 0.5 && math.Min(a.y1, b.y1)-math.Max(a.y0, b.y0) > 0.5
}

// The labels "k1 = …" and "k2 = …" stand in the strip between the legend
// and the plot: no curve, band or text lies under them, they do not touch
// each other, they stay on the canvas, and each stands over (or next to)
// its own dashed line, whether k2 is just above k1 or a thousand times it,
// on a phone's chart or a wide one, on a log or a linear axis.
func TestMarkLabelsClearOfCurvesAndText(t *testing.T) {
	for _, k1 := range []int{30, 100} {
		for _, mult := range []int{10, 100, 1000} {
			for _, width := range []float64{360, 720, 1100} {
				for _, logX := range []bool{true, false} {
					k2 := k1 * mult
					name := fmt.Sprintf("k1=%d k2=%d width=%v log=%v", k1, k2, width, logX)
					ss, bands := farPrediction(k1, k2)
					ch := &AccuracyChart{Width: width, Height: 300, LogX: logX, Series: ss, Bands: bands, K1: k1, K2: k2}
					checkMarkLabels(t, name, ch)
				}
			}
		}
	}
	// k2 just above k1: the two lines coincide, the labels sit side by side.
	ss, bands := farPrediction(100, 101)
	checkMarkLabels(t, "k2 = k1 + 1", &AccuracyChart{Width: 360, Height: 300, LogX: true, Series: ss, Bands: bands, K1: 100, K2: 101})
}

// checkMarkLabels draws ch and checks its k1 and k2 labels as
// TestMarkLabelsClearOfCurvesAndText says.
func checkMarkLabels(t *testing.T, name string, ch *AccuracyChart) {
	t.Helper()
	r := &recorder{}
	if err := ch.Draw(r); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	f := ch.last
	plot := f.plot
	var boxes []rect
	for _, m := range ch.marks() {
		tx, ok := r.textOf(m.label)
		if !ok {
			t.Errorf("%s: label %q not drawn", name, m.label)
			continue
		}
		b := tx.box()
		boxes = append(boxes, b)
		if b.y1 > plot.y0-curveWidth {
			t.Errorf("%s: %q (y %.1f to %.1f) reaches into the plot (top %.1f), where the curves are", name, m.label, b.y0, b.y1, plot.y0)
		}
		if b.x0 < 0 || b.x1 > ch.Width || b.y0 < 0 {
			t.Errorf("%s: %q at %+v leaves the %v px canvas", name, m.label, b, ch.Width)
		}
		if px := f.xs.pix(m.k); b.x0 > px+b.x1-b.x0 || b.x1 < px-(b.x1-b.x0) {
			t.Errorf("%s: %q spans x %.1f to %.1f, more than its width away from its line at %.1f", name, m.label, b.x0, b.x1, px)
		}
		for _, other := range r.texts {
			if other.s == m.label || other.s == accuracyYTitle { // the y title is rotated, at the left edge
				continue
			}
			if overlap(b, other.box()) {
				t.Errorf("%s: %q at %+v overlaps the text %q at %+v", name, m.label, b, other.s, other.box())
			}
		}
		for _, st := range append(r.strokes, r.fills...) {
			for _, sub := range st.subs {
				for i := 1; i < len(sub); i++ {
					if segmentCrosses(sub[i-1], sub[i], b) && st.color != f.th.Axis {
						t.Errorf("%s: %q at %+v lies on a line or fill drawn in %s", name, m.label, b, st.color)
					}
				}
			}
		}
	}
	if len(boxes) == 2 && overlap(boxes[0], boxes[1]) {
		t.Errorf("%s: the labels overlap: %+v and %+v", name, boxes[0], boxes[1])
	}
}

// segmentCrosses reports whether the segment from a to b passes through
// rectangle r (sampled every half pixel).
func segmentCrosses(a, b pt, r rect) bool {
	n := int(math.Ceil(2*math.Hypot(b.x-a.x, b.y-a.y))) + 1
	for i := 0; i <= n; i++ {
		x, y := a.x+(b.x-a.x)*float64(i)/float64(n), a.y+(b.y-a.y)*float64(i)/float64(n)
		if r.contains(x, y, 0) {
			return true
		}
	}
	return false
}

// A k2 below k1 (an answer within the pilot, whose observed curve runs on
// to k1) is marked too, its label left of k1's and as clear of the curves,
// of the other texts and of k1's label as a k2 beyond k1.
func TestMarkLabelK2WithinPilot(t *testing.T) {
	for _, k2 := range []int{2, 10, 50} {
		for _, width := range []float64{360, 1100} {
			for _, logX := range []bool{true, false} {
				name := fmt.Sprintf("k1=100 k2=%d width=%v log=%v", k2, width, logX)
				ss, bands := farPrediction(100, k2)
				ch := &AccuracyChart{Width: width, Height: 300, LogX: logX, Series: ss, Bands: bands, K1: 100, K2: k2}
				r := &recorder{}
				if err := ch.Draw(r); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if _, ok := r.textOf(fmt.Sprintf("k2 = %d", k2)); !ok {
					t.Errorf("%s: k2's label is not drawn", name)
				}
				checkMarkLabels(t, name, ch)
			}
		}
	}
}
