package chart

import "math"

// mark is a dashed vertical line at data x = k across the plot, named by a
// label in the strip between the legend and the plot, where no curve is
// drawn.
type mark struct {
	k     float64
	label string
}

// Sizes of the strip of mark labels, in CSS pixels.
const (
	markRow = 14 // height of a row of labels
	markGap = 10 // least room between two labels in one row
)

// placeLabels returns where the labels of marks go, left to right: lines
// holds the marks' x positions (increasing) and widths their labels'
// widths. Each label is centred over its line, then moved as little as it
// takes to keep at least markGap from its neighbours and to stay within
// [lo, hi]; they keep the lines' order. lefts are the labels' left edges;
// ok is false when the labels do not fit side by side in [lo, hi] (the
// lefts are then each label centred over its line, clamped to [lo, hi]).
func placeLabels(lines, widths []float64, lo, hi float64) (lefts []float64, ok bool) {
	n := len(lines)
	lefts = make([]float64, n)
	alone := func(i int) float64 { return math.Max(lo, math.Min(hi-widths[i], lines[i]-widths[i]/2)) }
	for i := range lines {
		lefts[i] = alone(i)
		if i > 0 {
			lefts[i] = math.Max(lefts[i], lefts[i-1]+widths[i-1]+markGap)
		}
	}
	for i := n - 1; i >= 0; i-- {
		lefts[i] = math.Min(lefts[i], hi-widths[i])
		if i < n-1 {
			lefts[i] = math.Min(lefts[i], lefts[i+1]-markGap-widths[i])
		}
	}
	if n > 0 && lefts[0] < lo-1e-9 {
		for i := range lefts {
			lefts[i] = alone(i)
		}
		return lefts, false
	}
	return lefts, true
}

// markRows returns how many rows of labels the marks ms take on frame f:
// one when their labels fit side by side over the plot (from its left edge
// to the canvas' right padding), else one row per mark; 0 when no mark
// falls on the x axis.
func (f *frame) markRows(c Canvas, ms []mark) int {
	lines, widths, _ := f.onAxis(c, ms)
	if len(lines) == 0 {
		return 0
	}
	if _, ok := placeLabels(lines, widths, f.plot.x0, f.w-pad); ok {
		return 1
	}
	return len(lines)
}

// onAxis returns, for the marks of ms that fall on the x axis, their x
// positions (clamped to the plot), their labels' widths in smallFont and
// the labels.
func (f *frame) onAxis(c Canvas, ms []mark) (lines, widths []float64, labels []string) {
	c.SetFont(smallFont)
	p := f.plot
	for _, m := range ms {
		if !f.xs.ok(m.k) {
			continue
		}
		px := f.xs.pix(m.k)
		if px < p.x0-0.5 || px > p.x1+0.5 { // half a pixel for rounding at the axis ends
			continue
		}
		lines = append(lines, min(max(px, p.x0), p.x1))
		widths = append(widths, c.MeasureText(m.label))
		labels = append(labels, m.label)
	}
	return lines, widths, labels
}

// drawMarks draws each mark of ms (in increasing k) that falls on the x
// axis: a dashed grey line from the bottom of the plot up into the strip
// above it, and its label in that strip, placed by placeLabels; rows is
// markRows' count: with more than one, the i-th label takes the i-th row
// up from the plot.
func (f *frame) drawMarks(c Canvas, ms []mark, rows int) {
	lines, widths, labels := f.onAxis(c, ms)
	if len(lines) == 0 {
		return
	}
	p := f.plot
	lefts, _ := placeLabels(lines, widths, p.x0, f.w-pad)
	c.SetStrokeStyle(f.th.Axis)
	c.SetLineWidth(1)
	c.SetLineDash([]float64{4, 4})
	c.BeginPath()
	for _, px := range lines {
		c.MoveTo(crisp(px), p.y1)
		c.LineTo(crisp(px), p.y0-2)
	}
	c.Stroke()
	c.SetLineDash(nil)
	c.SetFont(smallFont)
	c.SetFillStyle(f.th.Text)
	c.SetTextAlign("left")
	c.SetTextBaseline("middle")
	for i, label := range labels {
		row := 0
		if rows > 1 {
			row = min(i, rows-1)
		}
		c.FillText(label, lefts[i], p.y0-2-(float64(row)+0.5)*markRow)
	}
}
