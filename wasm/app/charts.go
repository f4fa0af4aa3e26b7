//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/chart"
	"github.com/cleanex/cleanex/internal/jsdom"
	"github.com/cleanex/cleanex/internal/report"
)

// charts holds what the three canvases show.
type charts struct {
	// dirty asks for all three charts, lossDirty for the loss chart only
	// (while CleaneX trains; drawn at most every liveEveryMS).
	dirty, lossDirty bool
	lastLoss         float64
	// drawing numbers the latest drawAll; retries counts redraws after errors.
	drawing, retries int
	logX             bool
	acc              chart.AccuracyChart
	// hooked is the canvas the hover listeners are attached to.
	hooked jsdom.Value
}

// afterRender runs after every Vugu render: it draws the charts when their
// data, the axis toggle or the window size changed.
func (a *app) afterRender() {
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
	switch {
	case a.charts.dirty:
		a.charts.dirty, a.charts.lossDirty = false, false
		a.charts.drawing++
		go a.drawAll(a.charts.drawing)
	case a.charts.lossDirty && jsdom.Now()-a.charts.lastLoss >= liveEveryMS:
		a.charts.lossDirty = false
		if err := a.drawLoss(); err != nil {
			jsdom.Log("cleanex: drawing: ", err)
		}
	}
}

// drawAll draws the three charts, each in its own task of the page's event
// loop (a 1 ms sleep between them hands control back to the browser), so no
// single main-thread task draws everything. A newer drawAll (gen) supersedes
// it. A chart that cannot be drawn yet (no layout size) is retried later.
func (a *app) drawAll(gen int) {
	steps := []func() error{a.drawAccuracy, a.drawROC, a.drawLoss}
	var errs []error
	for i, step := range steps {
		if i > 0 {
			time.Sleep(time.Millisecond)
		}
		a.env.RLock()
		if a.charts.drawing != gen {
			a.env.RUnlock()
			return
		}
		t0 := jsdom.Now()
		err := step()
		if d := jsdom.Now() - t0; d > slowFrameMS {
			jsdom.Log(fmt.Sprintf("cleanex: slow chart %d: %.0f ms", i, d))
		}
		a.env.RUnlock()
		if err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		jsdom.Log("cleanex: drawing: ", err)
		if a.charts.retries < 20 {
			a.charts.retries++
			time.AfterFunc(250*time.Millisecond, func() {
				a.env.Lock()
				a.charts.dirty = true
				a.env.UnlockRender()
			})
		}
		return
	}
	a.charts.retries = 0
}

// liveEveryMS is the shortest interval between two live redraws of the loss chart.
const liveEveryMS = 250

// series returns the accuracy chart's curves: observed, each method, truth.
func accuracySeries(c report.Curves) []chart.Series {
	var out []chart.Series
	add := func(name string, curve accuracy.Curve, upto int, dashed bool) {
		upto = min(upto, curve.Max())
		if upto < 2 {
			return
		}
		x := make([]float64, 0, upto)
		y := make([]float64, 0, upto)
		for k := 1; k <= upto; k++ {
			x = append(x, float64(k))
			y = append(y, curve[k])
		}
		out = append(out, chart.Series{Name: name, X: x, Y: y, Dashed: dashed})
	}
	if c.Truth != nil {
		add("truth", c.Truth, c.K2, true)
	}
	for _, m := range c.Sorted() {
		add(m.Name, m.Curve, c.K2, false)
	}
	// The observed curve last, so it is drawn on top of the predictions.
	add("observed", c.Observed, c.K1, false)
	return out
}

func rocSeries(name string, cx, w []float64) chart.Series {
	pts := accuracy.ReversedROC(cx, w)
	s := chart.Series{Name: name, X: make([]float64, len(pts)), Y: make([]float64, len(pts))}
	for i, p := range pts {
		s.X[i], s.Y[i] = p.U, p.Value
	}
	return s
}

func (a *app) drawAccuracy() error {
	el, err := jsdom.ByID("chart-acc")
	if err != nil {
		return nil // not on the page
	}
	cv, err := jsdom.NewCanvas(el)
	if err != nil {
		return err
	}
	res := a.st.Results
	a.charts.acc = chart.AccuracyChart{Width: cv.Width, Height: cv.Height, LogX: a.st.LogX, Series: accuracySeries(res), K1: res.K1}
	return a.charts.acc.Draw(cv)
}

func (a *app) drawROC() error {
	el, err := jsdom.ByID("chart-roc")
	if err != nil {
		return nil
	}
	cv, err := jsdom.NewCanvas(el)
	if err != nil {
		return err
	}
	var ss []chart.Series
	if w := a.summary.Weights; w != nil {
		ss = append(ss, rocSeries("observed", a.summary.ObservedC, w))
		for _, m := range a.st.Results.Sorted() {
			if len(m.C) == len(w) {
				ss = append(ss, rocSeries(m.Name, m.C, w))
			}
		}
	}
	rc := chart.ROCChart{Width: cv.Width, Height: cv.Height, Series: ss}
	return rc.Draw(cv)
}

func (a *app) drawLoss() error {
	a.charts.lastLoss = jsdom.Now()
	el, err := jsdom.ByID("chart-loss")
	if err != nil {
		return nil
	}
	cv, err := jsdom.NewCanvas(el)
	if err != nil {
		return err
	}
	losses, steps := a.liveLoss, a.liveStep
	live := true
	for _, m := range a.st.Results.Methods {
		if m.Name == "cleanex" && len(m.Losses) > 0 {
			losses, steps, live = m.Losses, nil, false
		}
	}
	var ss []chart.Series
	if len(losses) > 0 {
		s := chart.Series{Name: "cleanex", X: steps, Y: losses}
		if steps == nil {
			s.X = make([]float64, len(losses))
			for i := range losses {
				s.X[i] = float64(i + 1)
			}
		}
		if live {
			s.Name = "cleanex (sampled while training)"
			s.Color = chart.ColorCleanex
		}
		ss = append(ss, s)
	}
	lc := chart.LossChart{Width: cv.Width, Height: cv.Height, Series: ss}
	if live {
		lc.XMax = float64(a.liveTotal)
	}
	return lc.Draw(cv)
}

// hookCanvas attaches hover to the accuracy chart's canvas el.
func (a *app) hookCanvas(el jsdom.Value) {
	a.charts.hooked = el
	_, _ = jsdom.Listen(el, "mousemove", func(ev jsdom.Value) {
		x, y := jsdom.Float(ev, "offsetX", math.NaN()), jsdom.Float(ev, "offsetY", math.NaN())
		go a.hover(x, y)
	})
	_, _ = jsdom.Listen(el, "mouseleave", func(jsdom.Value) {
		go a.hover(math.NaN(), math.NaN())
	})
}

// hookWindow redraws the charts when the window is resized.
func (a *app) hookWindow() {
	_, _ = jsdom.Listen(jsdom.Global(), "resize", func(jsdom.Value) {
		go func() {
			a.env.Lock()
			a.charts.dirty = true
			a.env.UnlockRender()
		}()
	})
}

// hover redraws the accuracy chart with the values at the pointer.
func (a *app) hover(x, y float64) {
	a.env.Lock()
	defer a.env.UnlockRender()
	el, err := jsdom.ByID("chart-acc")
	if err != nil {
		return
	}
	cv, err := jsdom.NewCanvas(el)
	if err != nil {
		return
	}
	_ = a.charts.acc.Draw(cv)
	info, ok := a.charts.acc.Hover(x, y)
	if !ok {
		a.st.Hover = ""
		return
	}
	_ = a.charts.acc.DrawHover(cv, info)
	parts := []string{fmt.Sprintf("k = %d", info.K)}
	for _, v := range info.Values {
		parts = append(parts, fmt.Sprintf("%s %.4f", v.Name, v.Y))
	}
	a.st.Hover = strings.Join(parts, " · ")
}
