//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/chart"
	"github.com/cleanex/cleanex/internal/jsdom"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/report"
	"github.com/cleanex/cleanex/web"
)

// charts holds what the chart canvases show. Its fields are read and
// written with the app's env locked, like the app's.
type charts struct {
	// dirty asks for all three charts; while CleaneX trains, lossDirty asks
	// for the loss chart and liveDirty for the accuracy chart (its live
	// curve), drawn at most every liveEveryMS.
	dirty, lossDirty, liveDirty bool
	lastLive                    float64
	// fullBusy is set while a drawing of all three charts is under way (a
	// live redraw waits for it rather than superseding it).
	fullBusy bool
	// drawing numbers the latest drawAll; retries counts redraws after errors.
	drawing, retries int
	logX             bool
	acc              chart.AccuracyChart
	// ks holds the accuracy chart's x values 1, 2, ... (kAxis).
	ks []float64
	// rocCache holds reversed ROC series by their C_x slice (see roc).
	rocCache map[*float64]chart.Series
	// hooked is the canvas the hover listeners are attached to.
	hooked jsdom.Value
	// keyK is the k the keyboard's readout shows (0: none yet); byKey is
	// whether the readout on screen is the keyboard's, pointerX and pointerY
	// where the pointer's was asked for (CSS pixels in the canvas).
	keyK               int
	byKey              bool
	pointerX, pointerY float64
}

// chartCanvas is one of the page's chart canvases: the id of the empty
// element of the template that holds it, its own id, class and label.
type chartCanvas struct{ host, id, class, label string }

// chartCanvases are the page's charts. The app creates each canvas inside
// its host once; Vugu renders the host without children and so never
// touches the canvas (re-rendering a canvas element drops its size
// attributes, which clears it).
var chartCanvases = []chartCanvas{
	{"host-acc", "chart-acc", "chart", "accuracy against the number of classes: observed and predicted curves; the left and right arrow keys read the values at each k, Home and End at the ends"},
	{"host-roc", "chart-roc", "chart small", "reversed ROC of the estimated C_x"},
	{"host-loss", "chart-loss", "chart small", "CleaneX training loss per step"},
	{"host-why", "chart-why", "chart why-chart", "how the methods did on pilots with a known answer"},
}

// ensureCanvases creates the chart canvases missing from their hosts and
// keeps the box plot's label equal to its caption.
func (a *app) ensureCanvases() {
	for _, cc := range chartCanvases {
		attrs := map[string]string{"class": cc.class, "role": "img", "aria-label": cc.label}
		if cc.id == "chart-acc" {
			// The accuracy chart is read with the keyboard too (hookCanvas).
			attrs["tabindex"], attrs["aria-describedby"] = "0", "hover"
		}
		el, err := jsdom.EnsureChild(cc.host, "canvas", cc.id, attrs)
		if err != nil {
			continue
		}
		if cc.id == "chart-why" {
			if label := a.st.BoxCaption(); label != "" {
				// The canvas keeps its generic label, and the caption
				// beside it says the same: the console gets the failure.
				a.log.Report("labelling the box plot", jsdom.SetAttr(el, "aria-label", label))
			}
		}
	}
}

// afterRender runs after every Vugu render, with env locked: it scrolls a
// message asked for (app.reveal) into view, and draws the charts when their
// data, the axis toggle or the window size changed.
func (a *app) afterRender() {
	a.ensureCanvases()
	if a.reveal != "" {
		jsdom.Reveal(a.reveal)
		a.reveal = ""
	}
	if el, err := jsdom.ByID("chart-acc"); err == nil && !el.Equal(a.charts.hooked) {
		if a.charts.hooked.IsUndefined() {
			a.hookPage()
			a.hookWindow()
		}
		a.hookCanvas(el)
		a.charts.dirty = true
	}
	if a.charts.logX != a.st.LogX {
		a.charts.logX, a.charts.dirty = a.st.LogX, true
	}
	if !a.charts.dirty && !a.charts.fullBusy {
		// A render that reset a canvas (its size attributes dropped, so the
		// browser cleared it) or a layout change: draw everything again.
		for _, cc := range chartCanvases {
			if el, err := jsdom.ByID(cc.id); err == nil && jsdom.CanvasStale(el) {
				a.charts.dirty = true
				break
			}
		}
	}
	switch {
	case a.charts.dirty:
		a.charts.dirty, a.charts.lossDirty, a.charts.liveDirty = false, false, false
		a.charts.drawing++
		steps := []func() error{a.drawAccuracy, a.drawROC, a.drawLoss, a.drawWhy}
		a.charts.fullBusy = true
		go func(gen int) {
			a.drawAll(gen, steps)
			a.env.Lock()
			if a.charts.drawing == gen { // not superseded by a newer full drawing
				a.charts.fullBusy = false
			}
			a.env.UnlockOnly()
		}(a.charts.drawing)
	case (a.charts.lossDirty || a.charts.liveDirty) && !a.charts.fullBusy && jsdom.Now()-a.charts.lastLive >= liveEveryMS:
		var steps []func() error
		if a.charts.liveDirty {
			steps = append(steps, a.drawAccuracy)
		}
		if a.charts.lossDirty {
			steps = append(steps, a.drawLoss)
		}
		a.charts.lossDirty, a.charts.liveDirty = false, false
		a.charts.lastLive = jsdom.Now()
		a.charts.drawing++
		go a.drawAll(a.charts.drawing, steps)
	}
}

// roc returns the reversed ROC series of cx, computed once per C_x slice
// (a data set's or a result's, which are never modified).
func (c *charts) roc(name, label string, cx, w []float64) chart.Series {
	if len(cx) == 0 {
		return rocSeries(name, label, cx, w)
	}
	key := &cx[0]
	if s, ok := c.rocCache[key]; ok && s.Name == label {
		return s
	}
	if c.rocCache == nil || len(c.rocCache) > 16 {
		c.rocCache = map[*float64]chart.Series{}
	}
	s := rocSeries(name, label, cx, w)
	c.rocCache[key] = s
	return s
}

// drawAll draws charts (steps), each in its own task of the page's event
// loop (a 1 ms sleep between them hands control back to the browser), so no
// single main-thread task draws everything. A newer drawAll (gen) supersedes
// it. A chart that cannot be drawn yet (no layout size) is retried later.
// Each step runs with env locked (it reads the state and writes the
// charts' caches).
func (a *app) drawAll(gen int, steps []func() error) {
	var errs []error
	for i, step := range steps {
		// Each chart in a task of its own, apart from the render that
		// started this drawing too: the first at the next animation frame
		// (a timer would wait behind the workers' queued messages), the
		// others 1 ms later.
		if i == 0 {
			jsdom.NextFrame()
		} else {
			time.Sleep(time.Millisecond)
		}
		a.env.Lock()
		if a.charts.drawing != gen {
			a.env.UnlockOnly()
			return
		}
		t0 := jsdom.Now()
		err := step()
		if d := jsdom.Now() - t0; d > slowFrameMS {
			jsdom.Log(fmt.Sprintf("cleanex: slow chart %d: %.0f ms", i, d))
		}
		a.env.UnlockOnly()
		if err != nil {
			errs = append(errs, err)
		}
	}
	err := errors.Join(errs...)
	a.env.Lock()
	defer a.env.UnlockOnly()
	if err == nil {
		a.charts.retries = 0
		return
	}
	jsdom.Log("cleanex: drawing: ", err)
	if a.charts.retries < 20 {
		a.charts.retries++
		time.AfterFunc(250*time.Millisecond, func() {
			a.env.Lock()
			a.charts.dirty = true
			a.env.UnlockRender()
		})
	}
}

// liveEveryMS is the shortest interval between two live redraws of the loss chart.
const liveEveryMS = 250

// estimateWidth is the line width of the recommended curve (the methods' are 2).
const estimateWidth = 6

// presentationWidth is the line width of every other curve in presentation
// mode, before the charts' zoom (presentationZoom).
const presentationWidth = 3

// presentationZoom is how much larger presentation mode draws the charts'
// text and lines (jsdom.Canvas.Zoom).
const presentationZoom = 1.4

// zoom is the charts' zoom: presentationZoom in presentation mode, else 1.
func (a *app) zoom() float64 {
	if a.st.Presentation {
		return presentationZoom
	}
	return 1
}

// chartCanvasByID returns the chart canvas #id, prepared for drawing
// (jsdom.NewCanvas) at zoom (jsdom.Canvas.Zoom). cv is nil, and err too,
// when the canvas is not on the page.
func chartCanvasByID(id string, zoom float64) (el jsdom.Value, cv *jsdom.Canvas, err error) {
	el, err = jsdom.ByID(id)
	if err != nil {
		return el, nil, nil // not on the page
	}
	cv, err = jsdom.NewCanvas(el)
	if cv != nil {
		cv.Zoom(zoom)
	}
	return el, cv, err
}

// theme returns the charts' theme for the page's colour scheme and media.
func theme() chart.Theme {
	return web.ChartTheme(jsdom.MatchMedia("(prefers-color-scheme: dark)"), jsdom.MatchMedia("print"))
}

// curveWidth returns the line width of the accuracy chart's curves other
// than the recommended one: chart's default 2, presentationWidth when thick.
func curveWidth(thick bool) float64 {
	if thick {
		return presentationWidth
	}
	return 2
}

// accuracySeries returns the accuracy chart's curves, in drawing order:
// truth, the recommended curve (thick), each method, CleaneX's live curve
// while it trains (live, when it has no result yet) and observed. Legend names are the page's
// labels (label), colours th's for the registry names. Every series reads
// its y values in place from its curve (k = 1..) and shares its x values,
// 1, 2, ..., from ks (ks[i] = i + 1, at least K2 long: see kAxis), so a
// redraw allocates nothing per point, whatever k2.
func accuracySeries(c report.Curves, ks []float64, label func(string) string, live []float64, thick bool, th chart.Theme) []chart.Series {
	var out []chart.Series
	add := func(name string, curve accuracy.Curve, upto int, dashed bool) {
		upto = min(upto, curve.Max(), len(ks))
		if upto < 2 {
			return
		}
		s := chart.Series{Name: label(name), Color: th.Color(name), X: ks[:upto], Y: curve[1 : upto+1], Dashed: dashed, Dash: chart.Dash(name)}
		if thick {
			s.Width = presentationWidth
		}
		out = append(out, s)
	}
	if c.Truth != nil {
		add("truth", c.Truth, c.K2, true)
	}
	// The recommended curve under the methods' thinner ones, so that a
	// method lying on it stays visible.
	if n := len(out); c.Estimate != nil {
		add("estimate", c.Estimate, c.K2, false)
		if len(out) > n {
			out[n].Width = estimateWidth
			if thick {
				out[n].Width = estimateWidth + 2
			}
		}
	}
	hasCleanex := false
	for _, m := range c.Sorted() {
		add(m.Name, m.Curve, c.K2, false)
		hasCleanex = hasCleanex || m.Name == methods.CleaneX
	}
	if live != nil && !hasCleanex {
		add(methods.CleaneX, live, c.K2, false)
		out[len(out)-1].Name = label(methods.CleaneX) + " (training…)"
	}
	// The observed curve last, so it is drawn on top of the predictions.
	add("observed", c.Observed, c.K1, false)
	return out
}

// accuracyBands returns the 80% interval of the recommended curve, k = 2..K2,
// filled in th's band colour.
func accuracyBands(c report.Curves, ks []float64, th chart.Theme) []chart.Band {
	upto := min(c.K2, c.EstimateLo.Max(), c.EstimateHi.Max(), len(ks))
	if c.EstimateLo == nil || c.EstimateHi == nil || upto < 2 {
		return nil
	}
	return []chart.Band{{Name: "80% interval", Color: th.Band(), X: ks[1:upto], Lo: c.EstimateLo[2 : upto+1], Hi: c.EstimateHi[2 : upto+1]}}
}

// kAxis returns x values 1, 2, ..., n (ks[i] = i + 1), reusing ks when it
// is long enough: the accuracy chart's series share them.
func kAxis(ks []float64, n int) []float64 {
	if len(ks) >= n {
		return ks
	}
	ks = slices.Grow(ks, n-len(ks))
	for k := len(ks) + 1; k <= n; k++ {
		ks = append(ks, float64(k))
	}
	return ks
}

// rocSeries returns the reversed ROC of the C_x values cx with weights w,
// as the curve of name labelled label.
func rocSeries(name, label string, cx, w []float64) chart.Series {
	pts := accuracy.ReversedROC(cx, w)
	s := chart.Series{Name: label, Dash: chart.Dash(name), X: make([]float64, len(pts)), Y: make([]float64, len(pts))}
	for i, p := range pts {
		s.X[i], s.Y[i] = p.U, p.Value
	}
	return s
}

// drawAccuracy draws the accuracy chart and keeps it for the hover readout.
func (a *app) drawAccuracy() error {
	el, cv, err := chartCanvasByID("chart-acc", a.zoom())
	if cv == nil || err != nil {
		return err
	}
	th := theme()
	a.charts.acc = a.accuracyChart(cv.Width, cv.Height, th)
	if err := a.charts.acc.Draw(cv); err != nil {
		return err
	}
	if a.st.Hover != "" {
		// The readout on screen is drawn again over the new chart.
		info, ok := a.readout()
		a.drawReadout(cv, info, ok)
	}
	// Which data set the chart shows and when it was drawn (performance.now()),
	// for the benchmark's "file dropped -> observed curve drawn", its theme
	// and its curves' line width, for the tests. They describe the chart
	// for tests only, so a failure goes to the console, not to the retry.
	for _, at := range [][2]string{
		{"data-dataset", strconv.FormatUint(a.dataset, 10)},
		{"data-theme", th.Name},
		{"data-line-width", strconv.FormatFloat(curveWidth(a.st.Presentation)*a.zoom(), 'g', -1, 64)},
		{"data-drawn-at", strconv.FormatFloat(jsdom.Now(), 'f', 1, 64)},
	} {
		a.log.Report("the accuracy chart", jsdom.SetAttr(el, at[0], at[1]))
	}
	return nil
}

// accuracyChart returns the accuracy chart of the page's results, w x h CSS
// pixels, in theme th.
func (a *app) accuracyChart(w, h float64, th chart.Theme) chart.AccuracyChart {
	res := a.st.Results
	a.charts.ks = kAxis(a.charts.ks, max(res.K2, res.K1))
	return chart.AccuracyChart{Width: w, Height: h, LogX: a.st.LogX, Theme: th,
		Series: accuracySeries(res, a.charts.ks, a.st.Label, a.liveCurve, a.st.Presentation, th),
		Bands:  accuracyBands(res, a.charts.ks, th), K1: res.K1, K2: res.K2}
}

// drawWhy draws the "Why this answer" panel's box plot of the benchmark's
// errors, when the panel is open and the calibration table has them.
func (a *app) drawWhy() error {
	if !a.st.WhyShown() || !a.st.WhyOpen || !a.st.HasEvidence() {
		return nil
	}
	_, cv, err := chartCanvasByID("chart-why", a.zoom())
	if cv == nil || err != nil {
		return err
	}
	th := theme()
	bc := chart.BoxChart{Width: cv.Width, Height: cv.Height, Boxes: a.st.Boxes(th), Theme: th,
		YTitle: "predicted − true accuracy"}
	return bc.Draw(cv)
}

// drawROC draws the reversed ROC chart of the data set and of each method
// with C_x values.
func (a *app) drawROC() error {
	_, cv, err := chartCanvasByID("chart-roc", a.zoom())
	if cv == nil || err != nil {
		return err
	}
	th := theme()
	var ss []chart.Series
	if w := a.summary.Weights; w != nil {
		s := a.charts.roc("observed", "observed", a.summary.ObservedC, w)
		s.Color = th.Color("observed")
		ss = append(ss, s)
		for _, m := range a.st.Results.Sorted() {
			if len(m.C) == len(w) {
				s := a.charts.roc(m.Name, a.st.Label(m.Name), m.C, w)
				s.Color = th.Color(m.Name)
				ss = append(ss, s)
			}
		}
	}
	if a.st.Presentation {
		for i := range ss {
			ss[i].Width = presentationWidth
		}
	}
	rc := chart.ROCChart{Width: cv.Width, Height: cv.Height, Series: ss, LogU: a.st.LogU, Theme: th}
	return rc.Draw(cv)
}

// drawLoss draws CleaneX's lowest loss so far: live while it trains, from
// its result afterwards.
func (a *app) drawLoss() error {
	_, cv, err := chartCanvasByID("chart-loss", a.zoom())
	if cv == nil || err != nil {
		return err
	}
	losses, steps := a.liveLoss, a.liveStep
	live := true
	for _, m := range a.st.Results.Methods {
		if m.Name == methods.CleaneX && len(m.Losses) > 0 {
			losses, steps, live = m.Losses, nil, false
		}
	}
	th := theme()
	var ss []chart.Series
	if len(losses) > 0 {
		// The lowest loss so far: L-BFGS's line search tries steps whose
		// loss is higher before it accepts one, and the raw trace of those
		// trials would look like training going wrong.
		s := chart.Series{Name: "lowest loss so far", Color: th.Color(methods.CleaneX), X: steps, Y: runningMin(losses)}
		if steps == nil {
			s.X = make([]float64, len(losses))
			for i := range losses {
				s.X[i] = float64(i + 1)
			}
		}
		if live {
			s.Name += " (while training)"
		}
		ss = append(ss, s)
	}
	empty := "CleaneX's loss appears here while it trains"
	if !slices.Contains(a.st.SelectedMethods(), methods.CleaneX) {
		empty = "CleaneX is not among the methods shown: tick it to see its loss"
	}
	lc := chart.LossChart{Width: cv.Width, Height: cv.Height, Series: ss, Theme: th, Empty: empty}
	if live {
		lc.XMax = float64(a.liveTotal)
	}
	return lc.Draw(cv)
}

// runningMin returns m with m[i] = min(v[0..i]).
func runningMin(v []float64) []float64 {
	m := make([]float64, len(v))
	for i, x := range v {
		if i > 0 && !(x < m[i-1]) {
			x = m[i-1]
		}
		m[i] = x
	}
	return m
}

// hookCanvas attaches hover to the accuracy chart's canvas el: the pointer
// (a mouse's moves, a finger's taps), and the keyboard once the canvas has the focus (the arrow keys, Page Up
// and Down, Home and End move the readout; chart.AccuracyChart.KeyStep).
// The hover readout is an extra (the table has the numbers), so a listener
// that cannot be attached only goes to the console.
func (a *app) hookCanvas(el jsdom.Value) {
	a.charts.hooked = el
	_, err := jsdom.Listen(el, "mousemove", func(ev jsdom.Value) {
		x, y := jsdom.Float(ev, "offsetX", math.NaN()), jsdom.Float(ev, "offsetY", math.NaN())
		go a.hover(x, y)
	})
	a.log.Report("listening for the pointer on the chart", err)
	_, err = jsdom.Listen(el, "mouseleave", func(jsdom.Value) {
		go a.hover(math.NaN(), math.NaN())
	})
	a.log.Report("listening for the pointer leaving the chart", err)
	// A tap on a touch screen, which need not send mousemove.
	_, err = jsdom.Listen(el, "pointerdown", func(ev jsdom.Value) {
		if jsdom.String(ev, "pointerType") != "mouse" {
			x, y := jsdom.Float(ev, "offsetX", math.NaN()), jsdom.Float(ev, "offsetY", math.NaN())
			go a.hover(x, y)
		}
	})
	a.log.Report("listening for taps on the chart", err)
	_, err = jsdom.Listen(el, "keydown", func(ev jsdom.Value) {
		key := jsdom.String(ev, "key")
		if jsdom.Bool(ev, "altKey") || jsdom.Bool(ev, "ctrlKey") || jsdom.Bool(ev, "metaKey") {
			return
		}
		if chart.IsStepKey(key) {
			// The page does not scroll: the key moves the readout.
			a.log.Report("keeping a chart key from scrolling", jsdom.PreventDefault(ev))
			go a.hoverKey(key)
		}
	})
	a.log.Report("listening for keys on the chart", err)
	_, err = jsdom.Listen(el, "focus", func(jsdom.Value) {
		// Focus from the keyboard puts the readout at k2; a click or a tap
		// that focuses the chart leaves it where the pointer is.
		if jsdom.FocusVisible(el) {
			go a.hoverKey("")
		}
	})
	a.log.Report("listening for the focus on the chart", err)
	_, err = jsdom.Listen(el, "blur", func(jsdom.Value) { go a.hover(math.NaN(), math.NaN()) })
	a.log.Report("listening for the focus leaving the chart", err)
}

// hoverKey moves the keyboard's readout by key (from the pointer's k when
// the readout is the pointer's), or, for "" (the chart just got the focus
// from the keyboard), puts it at k2 (at k1 when the chart has no k2).
func (a *app) hoverKey(key string) {
	a.env.Lock()
	defer a.env.UnlockRender()
	k := a.charts.keyK
	if info, ok := a.readout(); key != "" && ok {
		k = info.K // keys move on from the readout, the pointer's too
	} else if key == "" || k == 0 {
		k = a.charts.acc.K2
		if k <= 0 {
			k = max(a.charts.acc.K1, 2)
		}
	}
	if key != "" {
		k, _ = a.charts.acc.KeyStep(k, key)
	}
	a.charts.keyK, a.charts.byKey = k, true
	a.showHover(a.charts.acc.HoverAt(k))
}

// hookWindow redraws the charts when the window is resized, the colour
// scheme changes or the page is printed (printed charts are light). Every
// render also redraws a chart whose canvas no longer fits its size
// (jsdom.CanvasStale), so a listener that cannot be attached only goes to
// the console.
func (a *app) hookWindow() {
	redraw := func() {
		go func() {
			a.env.Lock()
			a.charts.dirty = true
			a.env.UnlockRender()
		}()
	}
	for _, q := range []string{"(prefers-color-scheme: dark)", "print"} {
		a.log.Report("listening for "+q, jsdom.ListenMedia(q, redraw))
	}
	_, err := jsdom.Listen(jsdom.Global(), "resize", func(jsdom.Value) { redraw() })
	a.log.Report("listening for resizes", err)
}

// readout returns the readout on screen, at the chart's last layout: the
// keyboard's at its k, or the pointer's at the pointer's place. env is
// locked.
func (a *app) readout() (chart.HoverInfo, bool) {
	if a.charts.byKey {
		return a.charts.acc.HoverAt(a.charts.keyK)
	}
	return a.charts.acc.Hover(a.charts.pointerX, a.charts.pointerY)
}

// hover redraws the accuracy chart with the values at the pointer.
func (a *app) hover(x, y float64) {
	a.env.Lock()
	defer a.env.UnlockRender()
	a.charts.byKey, a.charts.pointerX, a.charts.pointerY = false, x/a.zoom(), y/a.zoom()
	a.showHover(a.charts.acc.Hover(a.charts.pointerX, a.charts.pointerY))
}

// showHover redraws the accuracy chart with the readout info (none when
// !ok) and writes it under the chart. env is locked.
func (a *app) showHover(info chart.HoverInfo, ok bool) {
	_, cv, err := chartCanvasByID("chart-acc", a.zoom())
	if cv == nil || err != nil {
		return
	}
	// A chart that cannot be drawn now is drawn again by the next full
	// drawing (drawAll retries); the readout below does not depend on it.
	a.log.Report("drawing the accuracy chart for the hover", a.charts.acc.Draw(cv))
	a.drawReadout(cv, info, ok)
}

// drawReadout draws the readout info (none when !ok) over the accuracy
// chart just drawn on cv and writes it under the chart. env is locked.
func (a *app) drawReadout(cv *jsdom.Canvas, info chart.HoverInfo, ok bool) {
	if !ok {
		a.st.Hover = ""
		return
	}
	a.log.Report("drawing the hover line", a.charts.acc.DrawHover(cv, info))
	parts := []string{"k = " + limits.Thousands(info.K)}
	for _, v := range info.Values {
		parts = append(parts, fmt.Sprintf("%s %.4f", v.Name, v.Y))
	}
	for _, b := range info.Bands {
		// Word joiners (U+2060) keep the range on one line.
		parts = append(parts, fmt.Sprintf("%s %.4f\u2060–\u2060%.4f", b.Name, b.Lo, b.Hi))
	}
	a.st.Hover = strings.Join(parts, " · ")
}
