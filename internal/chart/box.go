package chart

import (
	"errors"
	"fmt"
	"math"
)

// Box is one box of a BoxChart: five quantiles of a quantity.
type Box struct {
	// Name is the label under the box.
	Name string
	// Color is the box's CSS colour; empty means the chart's Theme.Color(Name).
	Color string
	// Q holds the 10%, 25%, 50%, 75% and 90% quantiles, in increasing order.
	Q [5]float64
	// Bold draws the box with thicker lines (the recommended method's).
	Bold bool
}

// color returns the box's colour, defaulting to th.Color(Name).
func (b Box) color(th Theme) string {
	if b.Color != "" {
		return b.Color
	}
	return th.Color(b.Name)
}

// BoxChart draws boxes side by side on a common y axis, as in a box plot of
// errors: a whisker from the 10% to the 90% quantile, a translucent box from
// 25% to 75%, a line at the median, and a dark horizontal line at y = 0 (no
// error). The y axis spans the quantiles and 0.
type BoxChart struct {
	// Width and Height are the chart size in CSS pixels (at least 160 x 140).
	Width, Height float64
	// Boxes are drawn left to right, each with its name underneath.
	Boxes []Box
	// YTitle is the y axis title.
	YTitle string
	// ZeroLabel, if not "", labels the zero line at its right end.
	ZeroLabel string
	// Theme is the chart's colours (the zero value: Light).
	Theme Theme
}

// Draw paints the chart area in the theme's background and draws the whole chart on c. It
// returns an error (drawing nothing) when there is no box, a quantile is
// not finite or the quantiles decrease, or the size is too small; otherwise
// c.Err().
func (bc *BoxChart) Draw(c Canvas) error {
	if len(bc.Boxes) == 0 {
		return errors.New("chart: a box chart needs at least one box")
	}
	lo, hi := 0.0, 0.0
	for _, b := range bc.Boxes {
		for i, q := range b.Q {
			if !finite(q) || (i > 0 && q < b.Q[i-1]) {
				return fmt.Errorf("chart: box %q has quantiles %v: they must be finite and increasing", b.Name, b.Q)
			}
		}
		lo, hi = math.Min(lo, b.Q[0]), math.Max(hi, b.Q[4])
	}
	span := hi - lo
	if span == 0 {
		span = 0.1
	}
	lo, hi = lo-0.08*span, hi+0.08*span
	n := float64(len(bc.Boxes))
	th := bc.Theme.orLight()
	f, err := layout(c, th, bc.Width, bc.Height,
		axis{lo: 0, hi: n},
		axis{lo: lo, hi: hi, title: bc.YTitle}, nil, 0)
	if err != nil {
		return err
	}
	c.SetFont(font)
	rows := bc.labelRows(c, (f.plot.x1-f.plot.x0)/n)
	if rows > 2 {
		// the layout keeps room for two rows of names (its x title's line):
		// a third takes a line off the plot
		if f, err = layout(c, th, bc.Width, bc.Height-lineH*float64(rows-2),
			axis{lo: 0, hi: n}, axis{lo: lo, hi: hi, title: bc.YTitle}, nil, 0); err != nil {
			return err
		}
		f.h = bc.Height // the background still fills the whole canvas
	}
	f.xticks = nil // the x axis is categorical: names under the boxes instead
	c.Save()
	f.drawBackground(c)
	f.drawAxes(c)
	p := f.plot

	zero := crisp(f.ys.pix(0))
	c.SetStrokeStyle(th.Text)
	c.SetLineWidth(1)
	c.SetLineDash([]float64{5, 3})
	c.BeginPath()
	c.MoveTo(p.x0, zero)
	c.LineTo(p.x1, zero)
	c.Stroke()
	c.SetLineDash(nil)
	if bc.ZeroLabel != "" {
		c.SetFont(smallFont)
		c.SetFillStyle(th.Text)
		c.SetTextAlign("right")
		c.SetTextBaseline("bottom")
		c.FillText(bc.ZeroLabel, p.x1-4, zero-2)
	}

	colW := (p.x1 - p.x0) / n
	boxW := math.Min(56, 0.5*colW)
	c.SetFont(font)
	for i, b := range bc.Boxes {
		cx := f.xs.pix(float64(i) + 0.5)
		y := func(j int) float64 { return f.ys.pix(b.Q[j]) }
		col := b.color(th)
		lw := 1.5
		if b.Bold {
			lw = 3
		}
		c.SetFillStyle(Translucent(col, 0.25))
		c.FillRect(cx-boxW/2, y(3), boxW, y(1)-y(3))
		c.SetStrokeStyle(col)
		c.SetLineWidth(lw)
		c.BeginPath()
		c.MoveTo(cx, y(0)) // whiskers
		c.LineTo(cx, y(1))
		c.MoveTo(cx, y(3))
		c.LineTo(cx, y(4))
		c.MoveTo(cx-boxW/4, y(0)) // whisker caps
		c.LineTo(cx+boxW/4, y(0))
		c.MoveTo(cx-boxW/4, y(4))
		c.LineTo(cx+boxW/4, y(4))
		c.Rect(cx-boxW/2, y(3), boxW, y(1)-y(3))
		c.Stroke()
		c.SetLineWidth(lw + 1.5)
		c.BeginPath()
		c.MoveTo(cx-boxW/2, y(2)) // median
		c.LineTo(cx+boxW/2, y(2))
		c.Stroke()

		c.SetFillStyle(th.Text)
		c.SetTextAlign("center")
		c.SetTextBaseline("top")
		ly := p.y1 + tickLen + 3 + lineH*float64(i%rows)
		c.FillText(b.Name, insideCanvas(cx, c.MeasureText(b.Name), bc.Width), ly)
	}
	c.Restore()
	return c.Err()
}

// maxLabelRows is the most rows the names under the boxes go on.
const maxLabelRows = 3

// boxLabelGap is the least room between two names on one row under the
// boxes, in CSS pixels: several spaces' width, so that two names side by
// side ("regression recommended") do not read as one.
const boxLabelGap = 12

// labelRows returns how many rows the names under the boxes need, each
// name centred under its column of width colW and name i on row i mod
// rows, so that names on one row keep boxLabelGap apart: 1 when they all fit side
// by side, up to maxLabelRows (the font must be set on c).
func (bc *BoxChart) labelRows(c Canvas, colW float64) int {
	w := make([]float64, len(bc.Boxes))
	for i, b := range bc.Boxes {
		w[i] = c.MeasureText(b.Name)
	}
	for rows := 1; rows < maxLabelRows; rows++ {
		fits := true
		for i := 0; i+rows < len(w); i++ {
			fits = fits && (w[i]+w[i+rows])/2+boxLabelGap <= float64(rows)*colW
		}
		if fits {
			return rows
		}
	}
	return maxLabelRows
}
