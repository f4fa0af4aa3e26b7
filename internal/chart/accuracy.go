package chart

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/limits"
)

// AccuracyChart draws accuracy against the number of classes k: shaded
// bands (an interval around the recommended curve) under one curve per
// series (observed up to k1, each method's prediction up to k2, the truth
// dashed), a dashed vertical line at k1, a legend, and y in [YLow, 1]
// (accuracyYLow).
// The x axis spans the series' and the bands' k values (and K1).
type AccuracyChart struct {
	// Width and Height are the chart size in CSS pixels (at least 160 x 140).
	Width, Height float64
	// LogX draws k on a logarithmic axis (ticks 1-2-5 per decade).
	LogX bool
	// Series are the curves, X = k and Y = accuracy; drawn in order.
	Series []Series
	// Bands are shaded regions, X = k, drawn under the series in order; each
	// has a legend entry after the series'.
	Bands []Band
	// K1, if positive, is the number of classes of the pilot, marked by a
	// dashed vertical line named "k1 = K1" in a strip between the legend
	// and the plot, where no curve runs.
	K1 int
	// K2, if positive and not K1, is the number of classes predicted for,
	// marked the same way ("k2 = 4,000", clear of k1's label: right of it
	// above k1, left of it below), so the x axis names where the prediction
	// ends even between ticks.
	K2 int
	// Theme is the chart's colours (the zero value: Light).
	Theme Theme
	// Title, if not "", is written above the chart, one line per "\n"-separated
	// part (an exported image's data set, answer and warnings), each wrapped
	// at spaces to the chart's width. A titled chart has no
	// hover: Hover reports nothing after its Draw.
	Title string

	last *frame // layout of the last Draw, for Hover and DrawHover
}

// Axis titles of the accuracy chart.
const (
	accuracyXTitle = "number of classes k"
	accuracyYTitle = "accuracy"
)

// Draw paints the chart area in the theme's background and draws the whole
// chart on c. It returns an error (drawing nothing) if the size is too small
// or a series' X and Y differ in length, and otherwise c.Err().
func (a *AccuracyChart) Draw(c Canvas) error {
	if err := checkSeries(a.Series); err != nil {
		return err
	}
	if err := checkBands(a.Bands); err != nil {
		return err
	}
	ranged := a.Series
	for _, b := range a.Bands {
		ranged = append(ranged[:len(ranged):len(ranged)], Series{X: b.X, Y: b.Lo}, Series{X: b.X, Y: b.Hi})
	}
	xlo, xhi, ok := dataRange(ranged, false, a.LogX)
	if a.K1 > 0 {
		xlo, xhi, ok = math.Min(xlo, float64(a.K1)), math.Max(xhi, float64(a.K1)), true
	}
	if a.K2 > a.K1 {
		xlo, xhi, ok = math.Min(xlo, float64(a.K2)), math.Max(xhi, float64(a.K2)), true
	}
	if !ok {
		xlo, xhi = 1, 10
	}
	if xlo == xhi {
		xlo, xhi = widen(xlo, a.LogX)
	}
	th := a.Theme.orLight()
	height, titleH := a.Height, 0.0
	var titles []string
	if a.Title != "" {
		c.SetFont(font)
		for _, line := range strings.Split(a.Title, "\n") {
			titles = append(titles, wrapText(c, line, a.Width-2*pad)...)
		}
		titleH = pad + lineH*float64(len(titles))
		height -= titleH
	}
	xa := axis{lo: xlo, hi: xhi, log: a.LogX, title: accuracyXTitle}
	ya := axis{lo: accuracyYLow(ranged), hi: 1, title: accuracyYTitle}
	f, err := layout(c, th, a.Width, height, xa, ya, a.legend(th), 0)
	if err != nil {
		return err
	}
	// The marks' labels get rows of their own above the plot: the x axis
	// is laid out as before, only the plot's top moves down.
	marks := a.marks()
	rows := f.markRows(c, marks)
	if rows > 0 {
		if f, err = layout(c, th, a.Width, height, xa, ya, a.legend(th), float64(rows*markRow)); err != nil {
			return err
		}
	}
	a.last = f
	c.Save()
	if titles != nil {
		a.last = nil
		c.SetFillStyle(th.Background)
		c.FillRect(0, 0, a.Width, titleH)
		c.SetFont(font)
		c.SetFillStyle(th.Text)
		c.SetTextAlign("left")
		c.SetTextBaseline("middle")
		for i, t := range titles {
			c.FillText(t, pad, pad+lineH*(float64(i)+0.5))
		}
		c.Translate(0, titleH)
	}
	f.drawBackground(c)
	f.drawAxes(c)
	c.Save()
	f.clip(c)
	for _, b := range a.Bands {
		f.drawBand(c, b)
	}
	for _, s := range a.Series {
		f.drawSeries(c, s, false)
	}
	c.Restore()
	f.drawMarks(c, marks, rows)
	f.drawLegend(c)
	c.Restore()
	return c.Err()
}

// accuracyYLow is the bottom of the accuracy axis: 0, unless every value of
// ss lies above 0.5; then the multiple of 0.1 at least 0.1 below the lowest
// value, so that curves crowded near 1 (an easy task) are told apart.
func accuracyYLow(ss []Series) float64 {
	lo, _, ok := dataRange(ss, true, false)
	if !ok || lo <= 0.5 {
		return 0
	}
	return math.Max(0, math.Floor(lo*10)/10-0.1)
}

// legend returns the series' legend items, then the bands', in theme th.
func (a *AccuracyChart) legend(th Theme) []legendItem {
	items := legendOf(a.Series, nil, th)
	for _, b := range a.Bands {
		items = append(items, legendItem{label: b.Name, color: b.color(th), fill: b.color(th)})
	}
	return items
}

// widen returns a range around the single value v: [v/2, 2v] on a log axis,
// [v-1, v+1] on a linear one.
func widen(v float64, log bool) (float64, float64) {
	if log {
		return v / 2, v * 2
	}
	return v - 1, v + 1
}

// legendOf returns one legend item per series in theme th, labelled by its
// name, or by label(s) when label is not nil.
func legendOf(ss []Series, label func(Series) string, th Theme) []legendItem {
	items := make([]legendItem, len(ss))
	for i, s := range ss {
		items[i] = legendItem{label: s.Name, color: s.color(th), dash: s.dash(), width: s.Width}
		if label != nil {
			items[i].label = label(s)
		}
	}
	return items
}

// marks returns the vertical lines of the chart, in increasing k: k1 when
// K1 is positive, k2 when K2 is positive and not K1.
func (a *AccuracyChart) marks() []mark {
	var ms []mark
	if a.K1 > 0 {
		ms = append(ms, mark{k: float64(a.K1), label: "k1 = " + limits.Thousands(a.K1)})
	}
	if a.K2 > 0 && a.K2 != a.K1 {
		k2 := mark{k: float64(a.K2), label: "k2 = " + limits.Thousands(a.K2)}
		if a.K2 > a.K1 {
			ms = append(ms, k2)
		} else {
			ms = append([]mark{k2}, ms...)
		}
	}
	return ms
}

// HoverInfo is what lies under the pointer on an AccuracyChart.
type HoverInfo struct {
	// K is the number of classes under the pointer (rounded to an integer
	// and clamped to the x axis).
	K int
	// PX is the horizontal pixel position of K.
	PX float64
	// Values holds, for each series with a finite value at K (in series
	// order), that value and where it is drawn.
	Values []HoverValue
	// Bands holds, for each band that spans K with finite bounds (in band
	// order), its bounds there.
	Bands []HoverBand
}

// HoverBand is one band's bounds at the hovered k.
type HoverBand struct {
	// Name and Color are the band's legend label and fill colour.
	Name, Color string
	// Lo and Hi are the band's bounds at the point whose x is nearest to K.
	Lo, Hi float64
}

// HoverValue is one series' value at the hovered k.
type HoverValue struct {
	// Name and Color are the series' legend label and curve colour; Dash is
	// its dash pattern (nil for a solid line), as in the legend.
	Name, Color string
	Dash        []float64
	// Y is the series' value at the point whose x is nearest to K (a series
	// whose x range does not include K has no HoverValue).
	Y float64
	// PY is the vertical pixel position of Y.
	PY float64
}

// Hover returns the k under the pointer at (px, py) in CSS pixels and every
// series' value there. ok is false when the pointer is outside the plot area
// or the chart has not been drawn yet (Hover uses the last Draw's layout).
func (a *AccuracyChart) Hover(px, py float64) (info HoverInfo, ok bool) {
	f := a.last
	if f == nil || !finite(px) || !finite(py) || !f.plot.contains(px, py, 0) {
		return HoverInfo{}, false
	}
	return a.HoverAt(int(math.Round(f.xs.val(px))))
}

// firstReadK is the smallest k the readouts give: at k = 1 every curve is 1,
// and the table and the exports start at 2 too.
const firstReadK = 2

// HoverAt returns what Hover returns with the pointer over k (clamped to
// the x axis, and to at least firstReadK): the readout of the keyboard
// (KeyStep). ok is false when the
// chart has not been drawn yet.
func (a *AccuracyChart) HoverAt(k int) (info HoverInfo, ok bool) {
	f := a.last
	if f == nil {
		return HoverInfo{}, false
	}
	kf := math.Max(math.Max(math.Ceil(f.xs.lo), firstReadK), math.Min(math.Floor(f.xs.hi), float64(k)))
	info = HoverInfo{K: int(kf), PX: f.xs.pix(kf)}
	for _, s := range a.Series {
		i, ok := nearest(s.X, kf)
		if !ok || len(s.Y) != len(s.X) {
			continue
		}
		if y := s.Y[i]; f.ys.ok(y) {
			info.Values = append(info.Values, HoverValue{Name: s.Name, Color: s.color(f.th), Dash: s.dash(), Y: y, PY: clampPix(f.ys.pix(y))})
		}
	}
	for _, b := range a.Bands {
		if i, ok := nearest(b.X, kf); ok && finite(b.Lo[i]) && finite(b.Hi[i]) {
			info.Bands = append(info.Bands, HoverBand{Name: b.Name, Color: b.color(f.th), Lo: b.Lo[i], Hi: b.Hi[i]})
		}
	}
	return info, true
}

// KeyStepFraction is the share of the plot's width that an arrow key moves
// the readout by; Page Up and Page Down move five times as far.
const KeyStepFraction = 1.0 / 50

// keySteps returns how far key moves the readout, in KeyStepFraction
// steps of the plot's width (Home and End: -Inf and +Inf, to the ends), and
// whether KeyStep handles key at all.
func keySteps(key string) (float64, bool) {
	switch key {
	case "ArrowLeft", "ArrowDown":
		return -1, true
	case "ArrowRight", "ArrowUp":
		return 1, true
	case "PageDown":
		return -5, true
	case "PageUp":
		return 5, true
	case "Home":
		return math.Inf(-1), true
	case "End":
		return math.Inf(1), true
	}
	return 0, false
}

// IsStepKey reports whether KeyStep moves the readout for key (a
// KeyboardEvent.key value), whatever the chart: what a page's key handler
// needs to know to keep the key from scrolling the page.
func IsStepKey(key string) bool {
	_, ok := keySteps(key)
	return ok
}

// KeyStep returns the k that the key (a KeyboardEvent.key value) moves the
// readout to from k: ArrowLeft and ArrowRight (ArrowDown and ArrowUp
// alike) by KeyStepFraction of the plot's width, at least one class;
// PageDown and PageUp five times as far; Home and End to the axis' ends
// (Home to firstReadK when the axis starts below it).
// ok is false for any other key, or before the first Draw.
func (a *AccuracyChart) KeyStep(k int, key string) (next int, ok bool) {
	f := a.last
	steps, isKey := keySteps(key)
	if f == nil || !isKey {
		return k, false
	}
	lo, hi := max(int(math.Ceil(f.xs.lo)), firstReadK), int(math.Floor(f.xs.hi))
	switch {
	case math.IsInf(steps, -1):
		return lo, true
	case math.IsInf(steps, 1):
		return hi, true
	}
	k = max(lo, min(hi, k))
	width := f.plot.x1 - f.plot.x0
	next = int(math.Round(f.xs.val(f.xs.pix(float64(k)) + steps*KeyStepFraction*width)))
	if steps > 0 {
		next = max(next, k+1)
	} else {
		next = min(next, k-1)
	}
	return max(lo, min(hi, next)), true
}

// nearest returns the index of the x in xs (increasing) nearest to k, and
// false when k lies outside [xs[0], xs[n-1]].
func nearest(xs []float64, k float64) (int, bool) {
	n := len(xs)
	if n == 0 || k < xs[0] || k > xs[n-1] {
		return 0, false
	}
	i := sort.SearchFloat64s(xs, k) // first X >= k
	if i == n || (i > 0 && k-xs[i-1] < xs[i]-k) {
		i--
	}
	return i, true
}

// DrawHover draws, over the last Draw (or on a transparent overlay canvas of
// the same size), a vertical line at h.K, a dot on each curve and a box
// listing k, each series' value and each band's bounds to four decimals,
// at the top or the bottom of the plot, away from the values at k.
// The box is left out when it would be wider than half the plot (a phone's
// chart), where it would hide the curves; the page writes the same values
// under the chart. It draws nothing before the first Draw.
func (a *AccuracyChart) DrawHover(c Canvas, h HoverInfo) error {
	f := a.last
	if f == nil || !finite(h.PX) {
		return c.Err()
	}
	p := f.plot
	c.Save()
	c.SetLineDash(nil)
	c.SetLineWidth(1)
	c.SetStrokeStyle(f.th.Crosshair)
	c.BeginPath()
	c.MoveTo(crisp(h.PX), p.y0)
	c.LineTo(crisp(h.PX), p.y1)
	c.Stroke()
	for _, v := range h.Values {
		if !finite(v.PY) || v.PY < p.y0-curveWidth || v.PY > p.y1+curveWidth {
			continue
		}
		c.SetFillStyle(v.Color)
		c.SetStrokeStyle(f.th.Background)
		c.SetLineWidth(1.5)
		c.BeginPath()
		c.Arc(h.PX, v.PY, 4, 0, 2*math.Pi)
		c.Fill()
		c.Stroke()
	}

	c.SetFont(font)
	title := "k = " + limits.Thousands(h.K)
	nameW, valW := c.MeasureText(title), 0.0
	vals := make([]string, len(h.Values))
	for i, v := range h.Values {
		vals[i] = strconv.FormatFloat(v.Y, 'f', 4, 64)
		nameW = math.Max(nameW, swatchW/2+6+c.MeasureText(v.Name))
		valW = math.Max(valW, c.MeasureText(vals[i]))
	}
	ranges := make([]string, len(h.Bands))
	for i, b := range h.Bands {
		ranges[i] = strconv.FormatFloat(b.Lo, 'f', 4, 64) + "–" + strconv.FormatFloat(b.Hi, 'f', 4, 64)
		nameW = math.Max(nameW, swatchW/2+6+c.MeasureText(b.Name))
		valW = math.Max(valW, c.MeasureText(ranges[i]))
	}
	bw := 8 + nameW + 12 + valW + 8
	if bw > (p.x1-p.x0)/2 {
		c.Restore()
		return c.Err()
	}
	bh := 6 + lineH*float64(len(h.Values)+len(h.Bands)+1) + 6
	bx := h.PX + 12
	if bx+bw > f.w-2 {
		bx = math.Max(2, h.PX-12-bw)
	}
	// The box goes where the curves are not: at the bottom of the plot when
	// the values at k lie in its upper half, else at the top.
	by := p.y0 + 6
	if mean, n := 0.0, 0; len(h.Values) > 0 {
		for _, v := range h.Values {
			if finite(v.PY) {
				mean += v.PY
				n++
			}
		}
		if n > 0 && mean/float64(n) < (p.y0+p.y1)/2 {
			by = p.y1 - bh - 6
		}
	}
	c.SetFillStyle(f.th.HoverBox)
	c.FillRect(bx, by, bw, bh)
	c.SetStrokeStyle(f.th.Axis)
	c.SetLineWidth(1)
	c.BeginPath()
	c.Rect(crisp(bx), crisp(by), math.Floor(bw), math.Floor(bh))
	c.Stroke()

	c.SetTextBaseline("middle")
	c.SetTextAlign("left")
	c.SetFillStyle(f.th.Text)
	y := by + 6 + lineH/2
	c.FillText(title, bx+8, y)
	for i, v := range h.Values {
		y += lineH
		c.SetStrokeStyle(v.Color)
		c.SetLineWidth(curveWidth + 0.5)
		c.SetLineDash(v.Dash)
		c.BeginPath()
		c.MoveTo(bx+8, y)
		c.LineTo(bx+8+swatchW/2, y)
		c.Stroke()
		c.SetLineDash(nil)
		c.SetFillStyle(f.th.Text)
		c.SetTextAlign("left")
		c.FillText(v.Name, bx+8+swatchW/2+6, y)
		c.SetTextAlign("right")
		c.FillText(vals[i], bx+bw-8, y)
	}
	for i, b := range h.Bands {
		y += lineH
		c.SetFillStyle(b.Color)
		c.FillRect(bx+8, y-lineH/4, swatchW/2, lineH/2)
		c.SetFillStyle(f.th.Text)
		c.SetTextAlign("left")
		c.FillText(b.Name, bx+8+swatchW/2+6, y)
		c.SetTextAlign("right")
		c.FillText(ranges[i], bx+bw-8, y)
	}
	c.Restore()
	return c.Err()
}

// wrapText breaks s at spaces into lines no wider than width in c's current
// font (a word wider than width gets a line of its own).
func wrapText(c Canvas, s string, width float64) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch try := line + " " + w; {
		case line == "":
			line = w
		case c.MeasureText(try) <= width:
			line = try
		default:
			lines = append(lines, line)
			line = w
		}
	}
	return append(lines, line)
}
