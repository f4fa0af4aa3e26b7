package chart

import (
	"fmt"
	"math"
)

// Series is one curve of a chart.
type Series struct {
	// Name is the legend label; by convention a method or column name of the
	// curves CSV ("observed", "cleanex", "truth", ...).
	Name string
	// Color is a CSS colour; empty means the chart's Theme.Color(Name).
	Color string
	// Dashed draws the curve (and its legend swatch) dashed, as for the truth.
	Dashed bool
	// Dash, when not empty, is the line's dash pattern (on, off, ... in CSS
	// pixels) and takes precedence over Dashed.
	Dash []float64
	// Width is the line width in CSS pixels; 0 means the charts' default (2).
	Width float64
	// X and Y are the points, of equal length. A point with a non-finite
	// coordinate, or a non-positive one on a logarithmic axis, is not drawn
	// and breaks the line, so a CSV column that is empty above k1 can be
	// passed as NaN. X should increase (Hover searches it by bisection).
	X, Y []float64
}

// color returns the series' colour, defaulting to th.Color(Name).
func (s Series) color(th Theme) string {
	if s.Color != "" {
		return s.Color
	}
	return th.Color(s.Name)
}

// dash returns the series' dash pattern (nil: solid).
func (s Series) dash() []float64 {
	if len(s.Dash) > 0 {
		return s.Dash
	}
	return dash(s.Dashed)
}

// width returns the series' line width, defaulting to curveWidth.
func (s Series) width() float64 {
	if s.Width > 0 {
		return s.Width
	}
	return curveWidth
}

// Band is a shaded region between two curves of a chart, such as an
// interval around an estimate.
type Band struct {
	// Name is the legend label.
	Name string
	// Color is the CSS fill colour (usually translucent, see Translucent);
	// empty means Translucent(th.Color(Name), th.BandAlpha) in the chart's
	// Theme th.
	Color string
	// X, Lo and Hi are the points, of equal length: at X[i] the band spans
	// Lo[i] to Hi[i]. A point with a value the axes cannot show breaks the
	// band, as it breaks a Series.
	X, Lo, Hi []float64
}

// color returns the band's fill colour in theme th.
func (b Band) color(th Theme) string {
	if b.Color != "" {
		return b.Color
	}
	return Translucent(th.Color(b.Name), th.BandAlpha)
}

// checkBands returns an error naming the first band whose X, Lo and Hi
// differ in length.
func checkBands(bs []Band) error {
	for i, b := range bs {
		if len(b.X) != len(b.Lo) || len(b.X) != len(b.Hi) {
			return fmt.Errorf("chart: band %d (%q) has %d x, %d lo and %d hi values", i, b.Name, len(b.X), len(b.Lo), len(b.Hi))
		}
	}
	return nil
}

// checkSeries returns an error naming the first series whose X and Y differ
// in length.
func checkSeries(ss []Series) error {
	for i, s := range ss {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("chart: series %d (%q) has %d x values and %d y values", i, s.Name, len(s.X), len(s.Y))
		}
	}
	return nil
}

// scale maps data values on one axis to pixels: v -> a + b·t(v), with
// t(v) = v on a linear axis and ln v on a logarithmic one, so that lo maps to
// p0 and hi to p1.
type scale struct {
	log    bool
	lo, hi float64
	a, b   float64
	floor  float64 // values must exceed it: 0 on a log axis, -Inf on a linear one
}

// newScale returns the scale mapping [lo, hi] onto [p0, p1] (lo < hi, and
// lo > 0 when log).
func newScale(lo, hi, p0, p1 float64, log bool) scale {
	tlo, thi := lo, hi
	if log {
		tlo, thi = math.Log(lo), math.Log(hi)
	}
	b := (p1 - p0) / (thi - tlo)
	floor := math.Inf(-1)
	if log {
		floor = 0
	}
	return scale{log: log, lo: lo, hi: hi, a: p0 - b*tlo, b: b, floor: floor}
}

// ok reports whether v can be placed on the axis.
func (s scale) ok(v float64) bool { return finite(v) && (!s.log || v > 0) }

// pix returns the pixel position of v (which must be ok).
func (s scale) pix(v float64) float64 {
	if s.log {
		v = math.Log(v)
	}
	return s.a + s.b*v
}

// val returns the data value at pixel p, the inverse of pix.
func (s scale) val(p float64) float64 {
	t := (p - s.a) / s.b
	if s.log {
		return math.Exp(t)
	}
	return t
}

// maxPix bounds pixel coordinates handed to a Canvas, so that values far
// outside the axis range (which the clip hides) never reach it as huge numbers.
const maxPix = 1e5

// clampPix limits p to [-maxPix, maxPix].
func clampPix(p float64) float64 {
	if p > maxPix {
		return maxPix
	}
	if p < -maxPix {
		return -maxPix
	}
	return p
}

// thin appends to px, py the pixel positions of the points of a run to draw
// (xs, ys: data values that the scales accept; sx increasing left to right):
// for each pixel column (floor of the x pixel) that consecutive increasing
// points fall in, the lowest and the highest point, in their original order,
// plus the run's first and last points. Every column keeps its full vertical
// extent, so the drawn shape changes by less than a pixel while a curve of
// 10^5 points costs about two line segments per column. Only kept points are
// mapped to pixels (a column's right edge is mapped back to data once), so
// the cost per input point is a few comparisons, not a logarithm.
func thin(xs, ys []float64, sx, sy scale, px, py []float64) ([]float64, []float64) {
	n := len(xs)
	last := -1
	add := func(i int) {
		if i != last {
			px = append(px, clampPix(sx.pix(xs[i])))
			py = append(py, clampPix(sy.pix(ys[i])))
			last = i
		}
	}
	for i := 0; i < n; {
		edge := sx.val(math.Floor(sx.pix(xs[i])) + 1) // data x where the next column starts
		lo, hi, j := i, i, i+1
		for ; j < n && xs[j] >= xs[j-1] && xs[j] < edge; j++ {
			if ys[j] < ys[lo] {
				lo = j
			}
			if ys[j] > ys[hi] {
				hi = j
			}
		}
		if i == 0 {
			add(0)
		}
		add(min(lo, hi))
		add(max(lo, hi))
		if j == n {
			add(n - 1)
		}
		i = j
	}
	return px, py
}
