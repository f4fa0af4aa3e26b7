//go:build js && wasm

package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/chart"
	"github.com/cleanex/cleanex/internal/jsdom"
	"github.com/cleanex/cleanex/internal/report"
)

// charts holds what the three canvases show.
type charts struct {
	dirty bool
	logX  bool
	acc   chart.AccuracyChart
	// hooked is set once the canvases' listeners are attached.
	hooked bool
}

// afterRender runs after every Vugu render: it draws the charts when their
// data, the axis toggle or the window size changed.
func (a *app) afterRender() {
	if !a.charts.hooked {
		a.hookCanvas()
		a.hookPage()
	}
	if a.charts.logX != a.st.LogX {
		a.charts.logX, a.charts.dirty = a.st.LogX, true
	}
	if !a.charts.dirty {
		return
	}
	a.charts.dirty = false
	if err := a.draw(); err != nil {
		jsdom.Log("cleanex: drawing: ", err)
	}
}

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
	add("observed", c.Observed, c.K1, false)
	for _, m := range c.Sorted() {
		add(m.Name, m.Curve, c.K2, false)
	}
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

// draw draws all three charts at their current CSS size.
func (a *app) draw() error {
	res := a.st.Results
	var errs []string
	if el, err := jsdom.ByID("chart-acc"); err == nil {
		cv, err := jsdom.NewCanvas(el)
		if err == nil {
			a.charts.acc = chart.AccuracyChart{Width: cv.Width, Height: cv.Height, LogX: a.st.LogX, Series: accuracySeries(res), K1: res.K1}
			err = a.charts.acc.Draw(cv)
		}
		if err != nil {
			errs = append(errs, err.Error())
		}
	}
	if el, err := jsdom.ByID("chart-roc"); err == nil {
		cv, err := jsdom.NewCanvas(el)
		if err == nil {
			var ss []chart.Series
			if w := a.summary.Weights; w != nil {
				ss = append(ss, rocSeries("observed", a.summary.ObservedC, w))
				for _, m := range res.Sorted() {
					if len(m.C) == len(w) {
						ss = append(ss, rocSeries(m.Name, m.C, w))
					}
				}
			}
			rc := chart.ROCChart{Width: cv.Width, Height: cv.Height, Series: ss}
			err = rc.Draw(cv)
		}
		if err != nil {
			errs = append(errs, err.Error())
		}
	}
	if el, err := jsdom.ByID("chart-loss"); err == nil {
		cv, err := jsdom.NewCanvas(el)
		if err == nil {
			losses := a.liveLoss
			live := true
			for _, m := range res.Methods {
				if m.Name == "cleanex" && len(m.Losses) > 0 {
					losses, live = m.Losses, false
				}
			}
			var ss []chart.Series
			if len(losses) > 0 {
				s := chart.Series{Name: "cleanex", X: make([]float64, len(losses)), Y: losses}
				for i := range losses {
					s.X[i] = float64(i + 1)
				}
				if live {
					s.Name = "cleanex (live samples)"
					s.Color = chart.ColorCleanex
				}
				ss = append(ss, s)
			}
			lc := chart.LossChart{Width: cv.Width, Height: cv.Height, Series: ss}
			err = lc.Draw(cv)
		}
		if err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// hookCanvas attaches hover to the accuracy chart and redraws on resize.
func (a *app) hookCanvas() {
	el, err := jsdom.ByID("chart-acc")
	if err != nil {
		return
	}
	a.charts.hooked = true
	_, _ = jsdom.Listen(el, "mousemove", func(ev jsdom.Value) {
		x, y := jsdom.Float(ev, "offsetX", math.NaN()), jsdom.Float(ev, "offsetY", math.NaN())
		go a.hover(x, y)
	})
	_, _ = jsdom.Listen(el, "mouseleave", func(jsdom.Value) {
		go a.hover(math.NaN(), math.NaN())
	})
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
