package chart

import (
	"fmt"
	"math"
)

// ROCChart draws reversed ROC curves (docs/formats.md §2):
// rROC(u) = sum_x w_x · 1[u > 1 - C_x] for u in [0, 1], as step functions,
// with each series' rAUC (its area, StepArea) in the legend and the
// diagonal rROC(u) = u of a classifier at chance as a grey reference.
type ROCChart struct {
	// Width and Height are the chart size in CSS pixels (at least 160 x 140).
	Width, Height float64
	// Series are the curves' corner points, X = u increasing from 0 to 1 and
	// Y = rROC(u) just after u (as accuracy.ReversedROC returns them).
	Series []Series
	// LogU draws u on a logarithmic axis, from the decade below the smallest
	// positive u of the series (at least 1e-6) to 1, which spreads out the
	// points whose C_x is very close to 1.
	LogU bool
	// Theme is the chart's colours (the zero value: Light).
	Theme Theme
}

// minLogU is the smallest u a logarithmic u axis shows.
const minLogU = 1e-6

// uRange returns the u axis: [0, 1], or for LogU [10^floor(log10(umin)), 1].
func (r *ROCChart) uRange() axis {
	if !r.LogU {
		return axis{lo: 0, hi: 1, title: rocXTitle}
	}
	lo := 1.0
	for _, s := range r.Series {
		for _, u := range s.X {
			if u > 0 && u < lo && finite(u) {
				lo = u
			}
		}
	}
	lo = math.Max(minLogU, math.Pow(10, math.Floor(math.Log10(lo))))
	if lo >= 1 {
		lo = 0.1
	}
	return axis{lo: lo, hi: 1, log: true, title: rocXTitle + " (log scale)"}
}

// Axis titles of the ROC chart.
const (
	rocXTitle = "u"
	rocYTitle = "reversed ROC"
)

// Draw paints the chart area in the theme's background and draws the whole chart on c. It
// returns an error (drawing nothing) if the size is too small or a series' X
// and Y differ in length, and otherwise c.Err().
func (r *ROCChart) Draw(c Canvas) error {
	if err := checkSeries(r.Series); err != nil {
		return err
	}
	th := r.Theme.orLight()
	f, err := layout(c, th, r.Width, r.Height,
		r.uRange(),
		axis{lo: 0, hi: 1, title: rocYTitle},
		legendOf(r.Series, func(s Series) string {
			return fmt.Sprintf("%s  rAUC %.3f", s.Name, StepArea(s.X, s.Y))
		}, th), 0)
	if err != nil {
		return err
	}
	c.Save()
	f.drawBackground(c)
	f.drawAxes(c)
	c.Save()
	f.clip(c)
	c.SetStrokeStyle(th.Reference)
	c.SetLineWidth(1)
	c.SetLineDash([]float64{3, 3})
	c.BeginPath()
	if r.LogU { // the diagonal rROC(u) = u is a curve on a log u axis
		lo := f.x.lo
		for i := 0; i <= 64; i++ {
			u := lo * math.Pow(1/lo, float64(i)/64)
			if i == 0 {
				c.MoveTo(f.xs.pix(u), f.ys.pix(u))
			} else {
				c.LineTo(f.xs.pix(u), f.ys.pix(u))
			}
		}
	} else {
		c.MoveTo(f.xs.pix(0), f.ys.pix(0))
		c.LineTo(f.xs.pix(1), f.ys.pix(1))
	}
	c.Stroke()
	for _, s := range r.Series {
		f.drawSeries(c, s, true)
	}
	c.Restore()
	f.drawLegend(c)
	c.Restore()
	return c.Err()
}

// StepArea returns the area under the step function through the points
// (x_i, y_i) that keeps y_{i-1} on (x_{i-1}, x_i]:
// sum_i (x_i - x_{i-1}) · y_{i-1}, skipping points with a non-finite
// coordinate. For a reversed ROC this is the rAUC, sum_x w_x C_x = E_2[A].
func StepArea(x, y []float64) float64 {
	area, px, py, have := 0.0, 0.0, 0.0, false
	for i := range min(len(x), len(y)) {
		if !finite(x[i]) || !finite(y[i]) {
			continue
		}
		if have {
			area += (x[i] - px) * py
		}
		px, py, have = x[i], y[i], true
	}
	if math.IsNaN(area) {
		return 0
	}
	return area
}
