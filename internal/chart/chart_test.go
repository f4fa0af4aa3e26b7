package chart

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/methods"
)

func TestScaleClosedForm(t *testing.T) {
	for _, tc := range []struct {
		name    string
		s       scale
		v, want float64
	}{
		{"log middle", newScale(10, 1000, 0, 200, true), 100, 100},
		{"log quarter", newScale(1, 1e4, 0, 400, true), 10, 100},
		{"log reversed", newScale(0.01, 1, 300, 100, true), 0.1, 200},
		{"linear", newScale(0, 1, 250, 50, false), 0.25, 200},
		{"linear offset", newScale(2, 2000, 100, 1098, false), 1001, 599},
	} {
		if got := tc.s.pix(tc.v); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: pix(%g) = %g, want %g", tc.name, tc.v, got, tc.want)
		}
		if back := tc.s.val(tc.want); math.Abs(back-tc.v) > 1e-9*tc.v {
			t.Errorf("%s: val(%g) = %g, want %g", tc.name, tc.want, back, tc.v)
		}
	}
}

// plotOf returns the clip rectangle the chart drew its curves in.
func clipRect(t *testing.T, s stroked) rect {
	t.Helper()
	if len(s.clip) != 2 {
		t.Fatalf("curve stroked without a rectangular clip")
	}
	return rect{s.clip[0].x, s.clip[0].y, s.clip[1].x, s.clip[1].y}
}

func TestAccuracyChartDrawsEverySeriesInsidePlot(t *testing.T) {
	for _, logX := range []bool{true, false} {
		ss := realistic()
		ch := &AccuracyChart{Width: 720, Height: 420, LogX: logX, Series: ss, K1: 100, K2: 2000}
		r := &recorder{}
		if err := ch.Draw(r); err != nil {
			t.Fatal(err)
		}
		for _, s := range ss {
			var curves, swatches int
			for _, st := range r.strokesOf(s.color(Light())) {
				if st.clip == nil { // legend swatch: one short segment
					swatches++
					continue
				}
				curves++
				if st.dashed != s.Dashed {
					t.Errorf("%s: dashed = %v, want %v", s.Name, st.dashed, s.Dashed)
				}
				cr := clipRect(t, st)
				n := 0
				for _, sub := range st.subs {
					for _, p := range sub {
						n++
						if !cr.contains(p.x, p.y, 0) {
							t.Fatalf("%s: point %v outside the plot %v", s.Name, p, cr)
						}
					}
				}
				if n < 2 {
					t.Errorf("%s: path has %d points", s.Name, n)
				}
			}
			if curves != 1 || swatches != 1 {
				t.Errorf("logX=%v %s: %d curve paths and %d legend swatches, want 1 and 1", logX, s.Name, curves, swatches)
			}
			if got := r.textCount(s.Name); got != 1 {
				t.Errorf("legend shows %q %d times, want once", s.Name, got)
			}
		}
		for _, title := range []string{accuracyXTitle, accuracyYTitle, "k1 = 100", "k2 = 2,000"} {
			if r.textCount(title) != 1 {
				t.Errorf("%q drawn %d times, want once", title, r.textCount(title))
			}
		}
		if len(r.saved) != 0 {
			t.Errorf("%d Save calls without Restore", len(r.saved))
		}
	}
}

// TestAccuracyTickLabels checks the labels drawn on a log and a linear axis.
func TestAccuracyTickLabels(t *testing.T) {
	for _, tc := range []struct {
		logX bool
		want []string
	}{
		{true, []string{"2", "5", "10", "20", "50", "100", "200", "500", "1,000", "2,000"}},
		{false, []string{"200", "400", "600", "800", "1,000", "1,200", "1,400", "1,600", "1,800", "2,000"}},
	} {
		ch := &AccuracyChart{Width: 720, Height: 420, LogX: tc.logX, Series: realistic()}
		if err := ch.Draw(&recorder{}); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, v := range ch.last.xticks {
			got = append(got, FormatTick(v))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("logX=%v: x ticks %v, want %v", tc.logX, got, tc.want)
		}
		if want := LinearTicks(0, 1, 11); !slices.Equal(ch.last.yticks, want) {
			t.Errorf("y ticks %v, want %v", ch.last.yticks, want)
		}
	}
}

func TestAccuracyHover(t *testing.T) {
	ss := realistic()
	ch := &AccuracyChart{Width: 720, Height: 420, LogX: true, Series: ss, K1: 100}
	if _, ok := ch.Hover(300, 200); ok {
		t.Error("Hover before Draw reported a value")
	}
	if err := ch.Draw(&recorder{}); err != nil {
		t.Fatal(err)
	}
	p := ch.last.plot
	for _, k := range []int{2, 37, 100, 101, 500, 1999, 2000} {
		// A little off k's pixel, by less than half the distance to k ± 1/2.
		off := 0.3 * (ch.last.xs.pix(float64(k)+0.5) - ch.last.xs.pix(float64(k)))
		if k == 2000 {
			off = -off
		}
		px := ch.last.xs.pix(float64(k)) + off
		info, ok := ch.Hover(px, (p.y0+p.y1)/2)
		if !ok || info.K != k {
			t.Fatalf("Hover at k=%d's pixel: k=%d ok=%v", k, info.K, ok)
		}
		var names []string
		for _, v := range info.Values {
			names = append(names, v.Name)
			for _, s := range ss {
				if s.Name == v.Name && v.Y != s.Y[k-2] {
					t.Errorf("k=%d %s: %g, want %g", k, s.Name, v.Y, s.Y[k-2])
				}
				if s.Name == v.Name && !slices.Equal(v.Dash, s.dash()) {
					t.Errorf("k=%d %s: dash %v, want the legend's %v", k, s.Name, v.Dash, s.dash())
				}
			}
		}
		want := []string{"plugin", "kde", "regression", "cleanex", "truth"}
		if k <= 100 {
			want = append([]string{"observed"}, want...)
		}
		if !slices.Equal(names, want) {
			t.Errorf("k=%d: series %v, want %v", k, names, want)
		}
		r := &recorder{}
		if err := ch.DrawHover(r, info); err != nil {
			t.Fatal(err)
		}
		if r.textCount("k = "+itoa(k)) != 1 {
			t.Errorf("DrawHover did not write k = %d", k)
		}
	}
	for _, pos := range [][2]float64{{p.x0 - 1, 200}, {p.x1 + 1, 200}, {300, p.y0 - 1}, {300, p.y1 + 1}, {math.NaN(), 200}} {
		if _, ok := ch.Hover(pos[0], pos[1]); ok {
			t.Errorf("Hover%v outside the plot %v reported a value", pos, p)
		}
	}
}

func itoa(k int) string { return FormatTick(float64(k)) }

func TestThin(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 10, 1000, 100000} {
		xs, ys := make([]float64, n), make([]float64, n)
		for i := range n {
			xs[i] = 10 + 500*float64(i)/float64(max(n, 1)) // increasing, 500 columns
			ys[i] = 200 + 100*math.Sin(float64(i)/50) + 20*rng.NormFloat64()
		}
		id := newScale(0, 1, 0, 1, false) // pixels = data
		tx, ty := thin(xs, ys, id, id, nil, nil)
		if n == 0 {
			if len(tx) != 0 {
				t.Errorf("n=0: %d points", len(tx))
			}
			continue
		}
		if tx[0] != xs[0] || ty[0] != ys[0] || tx[len(tx)-1] != xs[n-1] || ty[len(ty)-1] != ys[n-1] {
			t.Errorf("n=%d: first or last point lost", n)
		}
		// Per column: at most 2 points (3 in the end columns), and the same
		// lowest and highest y as the input.
		type ext struct {
			lo, hi float64
			n      int
		}
		in, out := map[float64]ext{}, map[float64]ext{}
		for _, m := range []struct {
			x, y []float64
			e    map[float64]ext
		}{{xs, ys, in}, {tx, ty, out}} {
			for i := range m.x {
				c := math.Floor(m.x[i])
				e, seen := m.e[c]
				if !seen {
					e = ext{math.Inf(1), math.Inf(-1), 0}
				}
				m.e[c] = ext{math.Min(e.lo, m.y[i]), math.Max(e.hi, m.y[i]), e.n + 1}
			}
		}
		first, last := math.Floor(xs[0]), math.Floor(xs[n-1])
		for c, e := range in {
			o := out[c]
			limit := 2
			if c == first || c == last {
				limit = 3
			}
			if o.n > limit || o.lo != e.lo || o.hi != e.hi {
				t.Fatalf("n=%d column %g: %d points, y in [%g, %g]; want <= %d points, y in [%g, %g]", n, c, o.n, o.lo, o.hi, limit, e.lo, e.hi)
			}
		}
		if n <= 3 && len(tx) != n {
			t.Errorf("n=%d: thinned sparse points to %d", n, len(tx))
		}
	}
}

// TestDrawThinsLongSeries draws k up to 10^5 and counts the segments.
func TestDrawThinsLongSeries(t *testing.T) {
	x, y := curve(100000, 1.1, 0.08)
	for _, logX := range []bool{true, false} {
		ch := &AccuracyChart{Width: 600, Height: 300, LogX: logX, Series: []Series{{Name: "cleanex", X: x, Y: y}}}
		r := &recorder{}
		if err := ch.Draw(r); err != nil {
			t.Fatal(err)
		}
		width := ch.last.plot.x1 - ch.last.plot.x0
		for _, st := range r.strokesOf(methodColor("cleanex")) {
			if st.clip == nil {
				continue
			}
			n := 0
			for _, sub := range st.subs {
				n += len(sub)
			}
			if n > int(2*width)+4 {
				t.Errorf("logX=%v: %d points drawn for a %g px wide plot", logX, n, width)
			}
			last := st.subs[len(st.subs)-1]
			if end := last[len(last)-1]; math.Abs(end.x-ch.last.plot.x1) > 1e-9 {
				t.Errorf("logX=%v: curve ends at x=%g, want the plot's right edge %g", logX, end.x, ch.last.plot.x1)
			}
		}
	}
}

// TestBadValuesNeverReachCanvas feeds degenerate series to every chart; the
// recorder fails on any non-finite number.
func TestBadValuesNeverReachCanvas(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := map[string][]Series{
		"none":         nil,
		"empty":        {{Name: "cleanex"}},
		"single point": {{Name: "cleanex", X: []float64{5}, Y: []float64{0.5}}},
		"all NaN":      {{Name: "kde", X: []float64{2, 3, 4}, Y: []float64{nan, nan, nan}}},
		"mixed": {{Name: "plugin", X: []float64{nan, 2, 3, 4, inf, 6, 7, 8, 9},
			Y: []float64{0.9, 0.8, nan, 0.7, 0.6, -inf, 0.5, 1e300, -1e300}}},
		"non-positive x": {{Name: "observed", X: []float64{-1, 0, 1, 2}, Y: []float64{1, 1, 1, 0.9}}},
		"zero loss":      {{Name: "cleanex", X: []float64{1, 2, 3, 4}, Y: []float64{0, 0.5, 0, 0.25}}},
		"huge":           {{Name: "cleanex", X: []float64{1, 1e308}, Y: []float64{1e-308, 1e308}}},
	}
	for name, ss := range cases {
		for kind, ch := range map[string]interface{ Draw(Canvas) error }{
			"accuracy log": &AccuracyChart{Width: 400, Height: 300, LogX: true, Series: ss},
			"accuracy lin": &AccuracyChart{Width: 400, Height: 300, Series: ss, K1: 3},
			"roc":          &ROCChart{Width: 400, Height: 300, Series: ss},
			"loss":         &LossChart{Width: 400, Height: 300, Series: ss},
		} {
			r := &recorder{}
			if err := ch.Draw(r); err != nil {
				t.Errorf("%s, %s: %v", kind, name, err)
			}
		}
	}
	acc := &AccuracyChart{Width: 400, Height: 300, LogX: true, Series: cases["mixed"]}
	if err := acc.Draw(&recorder{}); err != nil {
		t.Fatal(err)
	}
	for px := 0.0; px < 400; px += 7 {
		if h, ok := acc.Hover(px, 150); ok {
			if err := acc.DrawHover(&recorder{}, h); err != nil {
				t.Fatalf("hover at %g: %v", px, err)
			}
		}
	}
}

func TestDrawErrors(t *testing.T) {
	for name, ch := range map[string]interface{ Draw(Canvas) error }{
		"lengths":   &AccuracyChart{Width: 400, Height: 300, Series: []Series{{Name: "kde", X: []float64{1, 2}, Y: []float64{1}}}},
		"NaN width": &AccuracyChart{Width: math.NaN(), Height: 300},
		"tiny":      &ROCChart{Width: 50, Height: 300},
		"flat":      &LossChart{Width: 400, Height: 20},
	} {
		r := &recorder{}
		if err := ch.Draw(r); err == nil || !strings.HasPrefix(err.Error(), "chart: ") {
			t.Errorf("%s: error %v, want a chart error", name, err)
		}
		if len(r.ops) > 1 { // layout may set the font before failing
			t.Errorf("%s: drew %d operations before failing", name, len(r.ops))
		}
	}
}

// TestROCLegendArea checks StepArea against accuracy.RAUC = sum_x w_x C_x
// on a reversed ROC built by the accuracy package, and the legend text.
func TestROCLegendArea(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 500
	cx, w := make([]float64, n), make([]float64, n)
	sum := 0.0
	for i := range n {
		cx[i] = math.Round(rng.Float64()*50) / 50 // ties, as from R_x / (K-1)
		w[i] = 0.5 + rng.Float64()
		sum += w[i]
	}
	for i := range w {
		w[i] /= sum
	}
	pts := accuracy.ReversedROC(cx, w)
	x, y := make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		x[i], y[i] = p.U, p.Value
	}
	want := accuracy.RAUC(cx, w)
	if got := StepArea(x, y); math.Abs(got-want) > 1e-12 {
		t.Fatalf("StepArea = %.15f, RAUC = %.15f", got, want)
	}
	r := &recorder{}
	ch := &ROCChart{Width: 480, Height: 400, Series: []Series{{Name: "plugin", X: x, Y: y}}}
	if err := ch.Draw(r); err != nil {
		t.Fatal(err)
	}
	if label := fmt.Sprintf("plugin  rAUC %.3f", want); r.textCount(label) != 1 {
		t.Errorf("legend lacks %q", label)
	}
	if got := StepArea([]float64{0, 0.5, 1}, []float64{0, 1, 1}); got != 0.5 {
		t.Errorf("StepArea of a unit step at 0.5 = %g, want 0.5", got)
	}
}

// TestLossChartGrowing checks that with XMax set the x ticks do not change
// as the series grows, and that every point count draws.
func TestLossChartGrowing(t *testing.T) {
	x, y := loss(5000)
	var firstTicks []string
	for _, n := range []int{1, 2, 10, 100, 1000, 5000} {
		ch := &LossChart{Width: 480, Height: 300, XMax: 5000, Series: []Series{{Name: "cleanex", X: x[:n], Y: y[:n]}}}
		r := &recorder{}
		if err := ch.Draw(r); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		var ticks []string
		for _, tx := range r.texts {
			if tx.y > 256 && tx.s != lossXTitle { // x tick labels sit under the plot
				ticks = append(ticks, tx.s)
			}
		}
		if len(ticks) < 3 {
			t.Fatalf("n=%d: x tick labels %v", n, ticks)
		}
		if firstTicks == nil {
			firstTicks = ticks
		} else if !slices.Equal(ticks, firstTicks) {
			t.Errorf("n=%d: x tick positions %v changed from %v", n, ticks, firstTicks)
		}
		if len(r.strokesOf(methodColor("cleanex"))) != 2 {
			t.Errorf("n=%d: want a curve and a swatch", n)
		}
	}
}

func TestNiceLogBounds(t *testing.T) {
	for _, tc := range []struct{ lo, hi, wlo, whi float64 }{
		{0.03, 0.69, 0.02, 1},
		{0.3, 0.9, 0.2, 1},
		{1, 1, 0.5, 2},
		{1.5e-5, 3e-3, 1e-5, 5e-3},
		{2, 2000, 2, 2000},
	} {
		lo, hi := niceLogBounds(tc.lo, tc.hi)
		if math.Abs(lo/tc.wlo-1) > 1e-12 || math.Abs(hi/tc.whi-1) > 1e-12 {
			t.Errorf("niceLogBounds(%g, %g) = %g, %g; want %g, %g", tc.lo, tc.hi, lo, hi, tc.wlo, tc.whi)
		}
	}
}

func TestPalette(t *testing.T) {
	seen := map[string]string{}
	for name, c := range Palette() {
		if len(c) != 7 || c[0] != '#' || strings.ToLower(c) != c || strings.Trim(c[1:], "0123456789abcdef") != "" {
			t.Errorf("%s: colour %q is not #rrggbb", name, c)
		}
		if other, dup := seen[c]; dup {
			t.Errorf("%s and %s share %s", name, other, c)
		}
		seen[c] = name
		if th := Light(); c == th.Text || c == th.Axis || c == th.Grid {
			t.Errorf("%s uses a text/axis colour", name)
		}
	}
	if len(seen) != 3+len(methods.All) || Color("CleaneX") != methodColor("cleanex") || Color("lda") != ColorOther {
		t.Errorf("palette %v", Palette())
	}
}

// TestLossChartEmpty checks the Empty message: written at the plot's centre
// when no series has a drawable point, and not at all once one has.
func TestLossChartEmpty(t *testing.T) {
	const msg = "CleaneX was not run"
	for _, tc := range []struct {
		name   string
		series []Series
		want   bool
	}{
		{"no series", nil, true},
		{"only NaN and zero", []Series{{Name: "cleanex", X: []float64{1, 2}, Y: []float64{math.NaN(), 0}}}, true},
		{"data", []Series{{Name: "cleanex", X: []float64{1, 2}, Y: []float64{0.5, 0.1}}}, false},
	} {
		r := &recorder{}
		ch := &LossChart{Width: 400, Height: 300, Series: tc.series, Empty: msg}
		if err := ch.Draw(r); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		found := false
		for _, tx := range r.texts {
			if tx.s == msg {
				found = true
				if math.Abs(tx.x-200) > 60 || math.Abs(tx.y-150) > 60 {
					t.Errorf("%s: message at (%.0f, %.0f), want near the centre (200, 150)", tc.name, tx.x, tx.y)
				}
			}
		}
		if found != tc.want {
			t.Errorf("%s: message drawn = %v, want %v", tc.name, found, tc.want)
		}
	}
}

// methodColor is a registered method's light-theme colour ("" for a name
// that is not registered, which no stroke has).
func methodColor(name string) string {
	m, _ := methods.Get(name)
	return m.Color
}

func TestAccuracyYLow(t *testing.T) {
	for _, tc := range []struct {
		ys   []float64
		want float64
	}{
		{[]float64{1, 0.9, 0.3}, 0},           // a low curve: the whole axis
		{[]float64{1, 0.5}, 0},                // not above 0.5
		{[]float64{1, 0.97, 0.93}, 0.8},       // easy task: from 0.8
		{[]float64{1, 0.6}, 0.5},              // 0.6 exactly: 0.1 below it
		{[]float64{1, 0.51, math.NaN()}, 0.4}, // NaN ignored
		{nil, 0},
	} {
		s := Series{Y: tc.ys}
		for i := range tc.ys {
			s.X = append(s.X, float64(i+1))
		}
		if got := accuracyYLow([]Series{s}); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("accuracyYLow(%v) = %v, want %v", tc.ys, got, tc.want)
		}
	}
}

// The hover lists each band's bounds at k, and DrawHover writes them.
func TestAccuracyHoverBand(t *testing.T) {
	ss := realistic()
	var b Band
	b.Name = "80% interval"
	for k := 2; k <= 2000; k++ {
		b.X = append(b.X, float64(k))
		b.Lo = append(b.Lo, 0.3)
		b.Hi = append(b.Hi, 0.5+float64(k)/1e5)
	}
	ch := &AccuracyChart{Width: 720, Height: 420, LogX: true, Series: ss, Bands: []Band{b}, K1: 100}
	if err := ch.Draw(&recorder{}); err != nil {
		t.Fatal(err)
	}
	info, ok := ch.Hover(ch.last.xs.pix(500), (ch.last.plot.y0+ch.last.plot.y1)/2)
	if !ok || info.K != 500 || len(info.Bands) != 1 {
		t.Fatalf("Hover at k = 500: %+v, %v", info, ok)
	}
	if got := info.Bands[0]; got.Name != b.Name || got.Lo != 0.3 || got.Hi != 0.505 {
		t.Errorf("band at k = 500: %+v, want 0.3 to 0.505", got)
	}
	r := &recorder{}
	if err := ch.DrawHover(r, info); err != nil {
		t.Fatal(err)
	}
	if r.textCount("0.3000–0.5050") != 1 || r.textCount(b.Name) != 1 {
		t.Error("DrawHover did not write the band's bounds")
	}
}

// A title is written above the chart, one line per part, and moves the plot
// down; a titled chart has no hover.
func TestAccuracyTitle(t *testing.T) {
	plain := &AccuracyChart{Width: 720, Height: 420, Series: realistic(), K1: 100}
	titled := &AccuracyChart{Width: 720, Height: 420, Series: realistic(), K1: 100, Title: "pilot.csv\nAt 2,000 classes: 0.47"}
	r := &recorder{}
	if err := plain.Draw(&recorder{}); err != nil {
		t.Fatal(err)
	}
	if err := titled.Draw(r); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"pilot.csv", "At 2,000 classes: 0.47"} {
		if r.textCount(line) != 1 {
			t.Errorf("title line %q drawn %d times", line, r.textCount(line))
		}
	}
	if _, ok := titled.Hover(300, 200); ok {
		t.Error("a titled chart reported a hover")
	}
	if len(r.saved) != 0 {
		t.Error("unbalanced Save/Restore")
	}
}

// The keyboard's readout at k is the pointer's at k's pixel; the arrow keys
// move it by a fiftieth of the plot's width and at least one class, Home and
// End to the axis' ends; other keys, and a chart not drawn yet, do nothing.
func TestAccuracyKeyboard(t *testing.T) {
	for _, logX := range []bool{true, false} {
		ch := &AccuracyChart{Width: 720, Height: 420, LogX: logX, Series: realistic(), K1: 100}
		if _, ok := ch.KeyStep(10, "ArrowRight"); ok {
			t.Fatal("KeyStep before the first Draw")
		}
		if err := ch.Draw(&recorder{}); err != nil {
			t.Fatal(err)
		}
		f := ch.last
		for _, k := range []int{2, 37, 500, 1999} {
			byKey, ok1 := ch.HoverAt(k)
			byPointer, ok2 := ch.Hover(f.xs.pix(float64(k)), (f.plot.y0+f.plot.y1)/2)
			if !ok1 || !ok2 || byKey.K != k || !reflect.DeepEqual(byKey, byPointer) {
				t.Errorf("log %v, k = %d: keyboard %+v, pointer %+v", logX, k, byKey, byPointer)
			}
		}
		lo, hi := max(int(math.Ceil(f.xs.lo)), 2), int(math.Floor(f.xs.hi))
		if k, ok := ch.KeyStep(500, "Home"); !ok || k != lo {
			t.Errorf("Home: %d, want %d", k, lo)
		}
		if k, ok := ch.KeyStep(500, "End"); !ok || k != hi {
			t.Errorf("End: %d, want %d", k, hi)
		}
		if _, ok := ch.KeyStep(500, "a"); ok || IsStepKey("a") || !IsStepKey("PageUp") {
			t.Error("the key a moved the readout, or IsStepKey disagrees with KeyStep")
		}
		// Fifty arrow presses cross the axis; each moves at least one class
		// and about a fiftieth of the width.
		k, presses := lo, 0
		width := f.plot.x1 - f.plot.x0
		for k < hi {
			next, _ := ch.KeyStep(k, "ArrowRight")
			if next <= k || f.xs.pix(float64(next))-f.xs.pix(float64(k)) > width/50+f.xs.pix(float64(k+1))-f.xs.pix(float64(k)) {
				t.Fatalf("log %v: ArrowRight from %d to %d", logX, k, next)
			}
			k, presses = next, presses+1
		}
		if presses > 52 || presses < 20 {
			t.Errorf("log %v: %d presses from %d to %d, want about 50", logX, presses, lo, hi)
		}
		if back, _ := ch.KeyStep(hi, "ArrowLeft"); back >= hi {
			t.Errorf("ArrowLeft from %d: %d", hi, back)
		}
		if page, _ := ch.KeyStep(500, "PageDown"); page >= 500 {
			t.Errorf("PageDown from 500: %d", page)
		}
	}
}

// On a chart as narrow as a phone's the hover box, which would cover half
// the plot, is left out (the line and the dots stay); a desktop chart has it.
func TestAccuracyHoverBoxOnNarrowChart(t *testing.T) {
	for _, tc := range []struct {
		width float64
		box   bool
	}{{340, false}, {720, true}} {
		ch := &AccuracyChart{Width: tc.width, Height: 300, LogX: true, Series: realistic(), K1: 100}
		if err := ch.Draw(&recorder{}); err != nil {
			t.Fatal(err)
		}
		info, ok := ch.HoverAt(500)
		if !ok {
			t.Fatal("no hover")
		}
		r := &recorder{}
		if err := ch.DrawHover(r, info); err != nil {
			t.Fatal(err)
		}
		if got := r.textCount("k = 500") == 1; got != tc.box {
			t.Errorf("width %v: hover box drawn %v, want %v", tc.width, got, tc.box)
		}
		if len(r.saved) != 0 {
			t.Errorf("width %v: unbalanced Save/Restore", tc.width)
		}
	}
}

// A title line wider than the chart is wrapped at spaces: every word is
// written, no line is wider than the chart, and the plot moves down further.
func TestAccuracyTitleWraps(t *testing.T) {
	long := "You extrapolate 50× beyond your pilot (20 classes to 1,000); the interval was calibrated on test pilots extrapolated at most 40×, so here it is likely too narrow."
	short := &AccuracyChart{Width: 400, Height: 420, Series: realistic(), K1: 100, Title: "pilot.csv"}
	wrapped := &AccuracyChart{Width: 400, Height: 420, Series: realistic(), K1: 100, Title: "pilot.csv\n" + long}
	if err := short.Draw(&recorder{}); err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	if err := wrapped.Draw(r); err != nil {
		t.Fatal(err)
	}
	// The title's lines are the first texts drawn.
	if len(r.texts) < 3 || r.texts[0].s != "pilot.csv" {
		t.Fatalf("first texts %+v", r.texts[:min(3, len(r.texts))])
	}
	var words []string
	for _, tx := range r.texts[1:] {
		if !strings.Contains(long, tx.s) || len(tx.s) < 2 {
			break
		}
		if r.MeasureText(tx.s) > 400-2*pad {
			t.Errorf("title line %q is wider than the chart", tx.s)
		}
		words = append(words, strings.Fields(tx.s)...)
	}
	if strings.Join(words, " ") != long || len(words) == 0 {
		t.Errorf("title words %q, want %q", strings.Join(words, " "), long)
	}
	if wrapped.Draw(&recorder{}); wrapped.last != nil || short.last != nil {
		t.Error("titled charts kept a hover layout")
	}
}

// The hover box sits away from the values at k: at the bottom of the plot
// where they are high (small k), at the top where they are low (large k).
func TestAccuracyHoverBoxAwayFromTheCurves(t *testing.T) {
	ch := &AccuracyChart{Width: 720, Height: 420, LogX: true, Series: realistic(), K1: 100}
	if err := ch.Draw(&recorder{}); err != nil {
		t.Fatal(err)
	}
	mid := (ch.last.plot.y0 + ch.last.plot.y1) / 2
	for _, tc := range []struct {
		k      int
		bottom bool
	}{{3, true}, {2000, false}} {
		info, ok := ch.HoverAt(tc.k)
		if !ok {
			t.Fatal("no hover")
		}
		r := &recorder{}
		if err := ch.DrawHover(r, info); err != nil {
			t.Fatal(err)
		}
		var box *op
		for i := range r.ops {
			if r.ops[i].name == "fillRect" {
				box = &r.ops[i]
			}
		}
		if box == nil {
			t.Fatalf("k = %d: no box", tc.k)
		}
		if got := box.args[1] > mid; got != tc.bottom {
			t.Errorf("k = %d: box at y = %v (plot middle %v), bottom %v, want %v", tc.k, box.args[1], mid, got, tc.bottom)
		}
	}
}

// Every x tick label stays inside the canvas: the last one of a range up
// to 10,000,000, centred on the plot's right edge, moves left to fit.
func TestAccuracyTickLabelsInsideCanvas(t *testing.T) {
	x := []float64{1, 10, 1e3, 1e5, 1e7}
	for _, w := range []float64{480, 1000} {
		ch := &AccuracyChart{Width: w, Height: 300, LogX: true, Series: []Series{{Name: "estimate", X: x, Y: []float64{1, 0.9, 0.7, 0.5, 0.3}}}}
		r := &recorder{}
		if err := ch.Draw(r); err != nil {
			t.Fatal(err)
		}
		labels := map[string]bool{}
		for _, v := range ch.last.xticks {
			labels[FormatTick(v)] = true
		}
		drawn := 0
		for _, tx := range r.texts {
			if !labels[tx.s] || tx.y < ch.last.plot.y1 {
				continue
			}
			drawn++
			if half := r.MeasureText(tx.s) / 2; tx.x-half < 0 || tx.x+half > w {
				t.Errorf("width %v: label %q centred at x = %.1f runs outside the canvas", w, tx.s, tx.x)
			}
		}
		if drawn != len(labels) {
			t.Errorf("width %v: %d of the x tick labels %v drawn", w, drawn, ch.last.xticks)
		}
		if w == 1000 && !labels["10,000,000"] {
			t.Errorf("width 1000: x ticks %v lack 10,000,000", ch.last.xticks)
		}
	}
}
