package chart

import (
	"fmt"
	"math"
)

// Styles shared by the three charts.
const (
	font        = "12px sans-serif"
	smallFont   = "11px sans-serif"
	curveWidth  = 2
	pad         = 8  // outer padding
	tickLen     = 5  // tick mark length
	lineH       = 14 // height of a line of 12px text
	legendRowH  = 18 // height of a legend row
	swatchW     = 22 // length of a legend swatch
	minPlotSize = 40 // smallest plot area side that Draw accepts
)

// rect is an axis-aligned rectangle [x0, x1] x [y0, y1] in CSS pixels.
type rect struct{ x0, y0, x1, y1 float64 }

// contains reports whether (x, y) lies in r grown by m pixels on every side.
func (r rect) contains(x, y, m float64) bool {
	return x >= r.x0-m && x <= r.x1+m && y >= r.y0-m && y <= r.y1+m
}

// axis describes one axis before layout: its data range, scale and title.
type axis struct {
	lo, hi float64
	log    bool
	title  string
}

// legendItem is one legend entry placed at (x, y) (left end of the swatch,
// vertical centre of the row).
type legendItem struct {
	label, color string
	dash         []float64
	// width is the swatch's line width (0: the default); fill, when set,
	// draws the swatch as a filled block of that colour (a band's).
	width float64
	fill  string
	x, y  float64
}

// frame is the laid-out chart: plot area, scales, ticks and legend, and
// the theme it is drawn in.
type frame struct {
	th             Theme
	w, h           float64
	plot           rect
	xs, ys         scale
	x, y           axis
	xticks, yticks []float64
	legend         []legendItem
	bx, by         []float64 // scratch for a step curve's corners
	px, py         []float64 // scratch for a run's pixel coordinates
}

// layout places the legend (rows along the top), the axes with their tick
// labels and titles (left and bottom) and the plot area for a w x h chart
// in theme th, choosing as many nice ticks as fit without overlapping labels.
// It keeps above CSS pixels free between the legend and the plot (the
// accuracy chart's strip of mark labels).
func layout(c Canvas, th Theme, w, h float64, x, y axis, legend []legendItem, above float64) (*frame, error) {
	if !finite(w) || !finite(h) || w < 2*minPlotSize+80 || h < 2*minPlotSize+60 {
		return nil, fmt.Errorf("chart: %gx%g CSS pixels is too small (need at least %dx%d)", w, h, 2*minPlotSize+80, 2*minPlotSize+60)
	}
	f := &frame{th: th, w: w, h: h, x: x, y: y}
	c.SetFont(font)

	// Legend rows, wrapping at the right edge.
	lx, row := float64(pad), 0
	for _, it := range legend {
		iw := swatchW + 6 + c.MeasureText(it.label)
		if lx > pad && lx+iw > w-pad {
			lx, row = pad, row+1
		}
		it.x, it.y = lx, pad+legendRowH*float64(row)+legendRowH/2
		f.legend = append(f.legend, it)
		lx += iw + 18
	}
	top := float64(pad + lineH/2)
	if len(legend) > 0 {
		top = pad + legendRowH*float64(row+1) + 10
	}
	top += above
	bottom := h - (pad + lineH + 6 + lineH + tickLen)
	if bottom-top < minPlotSize {
		return nil, fmt.Errorf("chart: %gx%g CSS pixels leaves no room for the plot under a %d-row legend", w, h, row+1)
	}

	// Y ticks: about one per 30 px.
	f.yticks = ticks(y, int((bottom-top)/30)+1)
	labelW := 0.0
	for _, t := range f.yticks {
		labelW = math.Max(labelW, c.MeasureText(FormatTick(t)))
	}
	left := pad + lineH + 6 + labelW + 4 + tickLen
	right := w - pad - 14
	if right-left < minPlotSize {
		return nil, fmt.Errorf("chart: %gx%g CSS pixels leaves no room for the plot beside the y labels", w, h)
	}
	f.plot = rect{left, top, right, bottom}
	f.xs = newScale(x.lo, x.hi, left, right, x.log)
	f.ys = newScale(y.lo, y.hi, bottom, top, y.log)

	// X ticks: start at one per 50 px, drop ticks until labels do not touch.
	for n := int((right-left)/50) + 1; ; n-- {
		f.xticks = ticks(x, n)
		if n <= 2 || !overlaps(c, f.xs, f.xticks) {
			break
		}
	}
	return f, nil
}

// ticks returns the tick values of an axis with at most n ticks.
func ticks(a axis, n int) []float64 {
	if a.log {
		return LogTicks(a.lo, a.hi, n)
	}
	return LinearTicks(a.lo, a.hi, n)
}

// overlaps reports whether the centred labels of adjacent ticks come closer
// than 10 px.
func overlaps(c Canvas, s scale, ts []float64) bool {
	for i := 1; i < len(ts); i++ {
		gap := s.pix(ts[i]) - s.pix(ts[i-1])
		half := (c.MeasureText(FormatTick(ts[i])) + c.MeasureText(FormatTick(ts[i-1]))) / 2
		if gap < half+10 {
			return true
		}
	}
	return false
}

// crisp moves a 1-px line to the centre of a pixel so it is drawn sharp.
func crisp(v float64) float64 { return math.Floor(v) + 0.5 }

// drawBackground fills the chart with the theme's background.
func (f *frame) drawBackground(c Canvas) {
	c.SetFillStyle(f.th.Background)
	c.FillRect(0, 0, f.w, f.h)
}

// insideCanvas returns where to centre a text w pixels wide that belongs
// centred at x: x itself, or the nearest centre that keeps the whole text
// at least 1 pixel inside a canvas width pixels wide.
func insideCanvas(x, w, width float64) float64 {
	return math.Min(math.Max(x, w/2+1), width-w/2-1)
}

// drawAxes draws grid lines, the plot frame, tick marks, tick labels and the
// two axis titles.
func (f *frame) drawAxes(c Canvas) {
	p := f.plot
	c.SetLineWidth(1)
	c.SetLineDash(nil)
	c.SetStrokeStyle(f.th.Grid)
	c.BeginPath()
	for _, t := range f.xticks {
		x := crisp(f.xs.pix(t))
		c.MoveTo(x, p.y0)
		c.LineTo(x, p.y1)
	}
	for _, t := range f.yticks {
		y := crisp(f.ys.pix(t))
		c.MoveTo(p.x0, y)
		c.LineTo(p.x1, y)
	}
	c.Stroke()

	c.SetStrokeStyle(f.th.Axis)
	c.BeginPath()
	c.Rect(crisp(p.x0), crisp(p.y0), math.Floor(p.x1)-math.Floor(p.x0), math.Floor(p.y1)-math.Floor(p.y0))
	for _, t := range f.xticks {
		x := crisp(f.xs.pix(t))
		c.MoveTo(x, p.y1)
		c.LineTo(x, p.y1+tickLen)
	}
	for _, t := range f.yticks {
		y := crisp(f.ys.pix(t))
		c.MoveTo(p.x0-tickLen, y)
		c.LineTo(p.x0, y)
	}
	c.Stroke()

	c.SetFont(font)
	c.SetFillStyle(f.th.Text)
	c.SetTextAlign("center")
	c.SetTextBaseline("top")
	for _, t := range f.xticks {
		// centred under its tick, but kept inside the canvas (a long last
		// label such as 10,000,000 would be cut at the right edge)
		label := FormatTick(t)
		c.FillText(label, insideCanvas(f.xs.pix(t), c.MeasureText(label), f.w), p.y1+tickLen+3)
	}
	c.SetTextAlign("right")
	c.SetTextBaseline("middle")
	for _, t := range f.yticks {
		c.FillText(FormatTick(t), p.x0-tickLen-4, f.ys.pix(t))
	}

	c.SetTextAlign("center")
	c.SetTextBaseline("bottom")
	c.FillText(f.x.title, (p.x0+p.x1)/2, f.h-pad+2)
	c.Save()
	c.Translate(pad+lineH/2, (p.y0+p.y1)/2)
	c.Rotate(-math.Pi / 2)
	c.SetTextBaseline("middle")
	c.FillText(f.y.title, 0, 0)
	c.Restore()
}

// drawLegend draws each legend item: a swatch of the curve's line and its label.
func (f *frame) drawLegend(c Canvas) {
	c.SetFont(font)
	c.SetTextAlign("left")
	c.SetTextBaseline("middle")
	for _, it := range f.legend {
		if it.fill != "" {
			c.SetFillStyle(it.fill)
			c.FillRect(it.x, it.y-5, swatchW, 10)
		} else {
			c.SetStrokeStyle(it.color)
			c.SetLineWidth(max(curveWidth+0.5, it.width))
			c.SetLineDash(it.dash)
			c.BeginPath()
			c.MoveTo(it.x, it.y)
			c.LineTo(it.x+swatchW, it.y)
			c.Stroke()
		}
		c.SetFillStyle(f.th.Text)
		c.FillText(it.label, it.x+swatchW+6, it.y)
	}
	c.SetLineDash(nil)
}

// dash returns the line dash of a dashed or solid curve.
func dash(dashed bool) []float64 {
	if dashed {
		return []float64{7, 5}
	}
	return nil
}

// clip restricts drawing to the plot area grown by a line width, so curves
// on the border (accuracy 1, u = 0) stay whole.
func (f *frame) clip(c Canvas) {
	p := f.plot
	c.BeginPath()
	c.Rect(p.x0-curveWidth, p.y0-curveWidth, p.x1-p.x0+2*curveWidth, p.y1-p.y0+2*curveWidth)
	c.Clip()
}

// drawSeries strokes s on the plot: the runs of points that fit the axes,
// thinned to about two per pixel column; runs of a single point are drawn as
// dots. When step is true, the curve is drawn as a step function that keeps
// each value until the next x (horizontal, then vertical), and its points
// left of the x axis' start (u = 0 on a log u axis) give way to the last of
// them moved to the axis' start: the value kept from there to the next x.
func (f *frame) drawSeries(c Canvas, s Series, step bool) {
	col := s.color(f.th)
	c.SetStrokeStyle(col)
	c.SetFillStyle(col)
	lw := s.width()
	c.SetLineWidth(lw)
	c.SetLineDash(s.dash())
	xs, ys := s.X, s.Y
	if step {
		xs, ys = f.bx[:0], f.by[:0]
		first := 0
		for first+1 < len(s.X) && s.X[first+1] < f.x.lo {
			first++
		}
		for i := first; i < len(s.X); i++ {
			x := s.X[i]
			if i == first && x < f.x.lo && i+1 < len(s.X) && f.valid(s.X[i+1], s.Y[i+1]) {
				x = f.x.lo
			}
			if i > first && f.valid(xs[len(xs)-1], ys[len(ys)-1]) && f.valid(s.X[i], s.Y[i]) {
				xs, ys = append(xs, s.X[i]), append(ys, s.Y[i-1])
			}
			xs, ys = append(xs, x), append(ys, s.Y[i])
		}
		f.bx, f.by = xs, ys
	}
	var dots []float64
	c.BeginPath()
	for i := 0; i < len(xs); {
		if !f.valid(xs[i], ys[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(xs) && f.valid(xs[j], ys[j]) {
			j++
		}
		px, py := thin(xs[i:j], ys[i:j], f.xs, f.ys, f.px[:0], f.py[:0])
		f.px, f.py = px, py
		if len(px) == 1 {
			dots = append(dots, px[0], py[0])
		} else {
			c.MoveTo(px[0], py[0])
			for k := 1; k < len(px); k++ {
				c.LineTo(px[k], py[k])
			}
		}
		i = j
	}
	c.Stroke()
	c.SetLineDash(nil)
	if len(dots) > 0 {
		c.BeginPath()
		for i := 0; i < len(dots); i += 2 {
			c.MoveTo(dots[i]+lw, dots[i+1])
			c.Arc(dots[i], dots[i+1], lw, 0, 2*math.Pi)
		}
		c.Fill()
	}
}

// drawBand fills b on the plot: for each run of points whose x, lo and hi
// the axes can show, the polygon along hi from left to right and back along
// lo, each edge thinned to about two points per pixel column.
func (f *frame) drawBand(c Canvas, b Band) {
	c.SetFillStyle(b.color(f.th))
	ok := func(i int) bool { return f.valid(b.X[i], b.Lo[i]) && f.valid(b.X[i], b.Hi[i]) }
	c.BeginPath()
	for i := 0; i < len(b.X); {
		if !ok(i) {
			i++
			continue
		}
		j := i + 1
		for j < len(b.X) && ok(j) {
			j++
		}
		hx, hy := thin(b.X[i:j], b.Hi[i:j], f.xs, f.ys, nil, nil)
		lx, ly := thin(b.X[i:j], b.Lo[i:j], f.xs, f.ys, nil, nil)
		c.MoveTo(hx[0], hy[0])
		for k := 1; k < len(hx); k++ {
			c.LineTo(hx[k], hy[k])
		}
		for k := len(lx) - 1; k >= 0; k-- {
			c.LineTo(lx[k], ly[k])
		}
		i = j
	}
	c.Fill()
}

// valid reports whether the point (x, y) can be placed on both axes: both
// finite and above the axes' floors (0 on a log axis); comparisons with NaN
// are false.
func (f *frame) valid(x, y float64) bool {
	return x > f.xs.floor && x <= math.MaxFloat64 && y > f.ys.floor && y <= math.MaxFloat64
}

// dataRange returns the smallest and largest x (or y, when useY) over the
// points of ss that a scale of the given kind can show; ok is false when
// there are none.
func dataRange(ss []Series, useY, log bool) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	floor := math.Inf(-1)
	if log {
		floor = 0
	}
	for _, s := range ss {
		for i, x := range s.X {
			y := s.Y[i]
			if !(x-x == 0 && y-y == 0) { // NaN or ±Inf
				continue
			}
			v := x
			if useY {
				v = y
			}
			if !(v > floor) {
				continue
			}
			if v < lo {
				lo = v
			}
			if v > hi {
				hi = v
			}
		}
	}
	return lo, hi, lo <= hi
}
