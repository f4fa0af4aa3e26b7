package chart

import "math"

// LossChart draws training loss against the optimisation step on a
// logarithmic y axis. It is redrawn while training runs: Draw reads each
// series once (O(n)) and strokes about two points per pixel column, so a
// series of 10^5 steps still draws in well under a frame.
type LossChart struct {
	// Width and Height are the chart size in CSS pixels (at least 160 x 140).
	Width, Height float64
	// Series are the loss curves, X = step and Y = loss. Points whose loss
	// is NaN, ±Inf or not positive are skipped (they break the line).
	Series []Series
	// XMax, if positive, makes the x axis span at least [0, XMax] (the
	// planned number of steps), so a growing series does not rescale it.
	XMax float64
	// Empty, if not "", is written in the middle of the plot area when no
	// series has a point to draw (e.g. "CleaneX was not run").
	Empty string
	// Theme is the chart's colours (the zero value: Light).
	Theme Theme
}

// Axis titles of the loss chart.
const (
	lossXTitle = "step"
	lossYTitle = "training loss"
)

// Draw paints the chart area in the theme's background and draws the whole chart on c. It
// returns an error (drawing nothing) if the size is too small or a series' X
// and Y differ in length, and otherwise c.Err().
func (l *LossChart) Draw(c Canvas) error {
	if err := checkSeries(l.Series); err != nil {
		return err
	}
	xlo, xhi, ok := dataRange(l.Series, false, false)
	if !ok {
		xlo, xhi = 0, 1
	}
	xlo = math.Min(xlo, 0)
	xhi = math.Max(xhi, l.XMax)
	if xlo == xhi {
		xhi = xlo + 1
	}
	ylo, yhi, hasData := dataRange(l.Series, true, true)
	if !hasData {
		ylo, yhi = 0.1, 1
	}
	ylo, yhi = niceLogBounds(ylo, yhi)
	th := l.Theme.orLight()
	f, err := layout(c, th, l.Width, l.Height,
		axis{lo: xlo, hi: xhi, title: lossXTitle},
		axis{lo: ylo, hi: yhi, log: true, title: lossYTitle},
		legendOf(l.Series, nil, th), 0)
	if err != nil {
		return err
	}
	c.Save()
	f.drawBackground(c)
	f.drawAxes(c)
	c.Save()
	f.clip(c)
	for _, s := range l.Series {
		f.drawSeries(c, s, false)
	}
	c.Restore()
	if !hasData && l.Empty != "" {
		c.SetFillStyle(th.Text)
		c.SetTextAlign("center")
		c.SetTextBaseline("middle")
		c.FillText(l.Empty, (f.plot.x0+f.plot.x1)/2, (f.plot.y0+f.plot.y1)/2)
	}
	f.drawLegend(c)
	c.Restore()
	return c.Err()
}

// niceLogBounds widens [lo, hi] (0 < lo <= hi) outwards to the nearest
// values of the form {1, 2, 5}·10^e, so the axis starts and ends on a tick.
func niceLogBounds(lo, hi float64) (float64, float64) {
	down := func(v float64) float64 {
		e := int(math.Floor(math.Log10(v)))
		for _, m := range []float64{5, 2, 1} {
			if t := mulPow10(m, e); t <= v*(1+1e-12) {
				return t
			}
		}
		return mulPow10(5, e-1)
	}
	up := func(v float64) float64 {
		e := int(math.Floor(math.Log10(v)))
		for _, m := range []float64{1, 2, 5, 10} {
			if t := mulPow10(m, e); t >= v*(1-1e-12) {
				return t
			}
		}
		return mulPow10(1, e+1)
	}
	l, h := down(lo), up(hi)
	if l >= h {
		l, h = l/2, h*2
	}
	return l, h
}
