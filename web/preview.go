package web

import (
	"slices"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/report"
)

// WithPlugin returns base with the plug-in's curve up to base.K2 added,
// computed from the pilot's observed C_x (cx) and point weights (w) — the
// plug-in's own estimate, E_k = sum_x w_x C_x^(k-1), which takes
// milliseconds — so that a slider move shows the observed curve and the
// plug-in at once, before the other methods run. base is returned as it is
// when cx and w do not match or K2 is below 2.
func WithPlugin(base report.Curves, cx, w []float64) report.Curves {
	if len(cx) == 0 || len(cx) != len(w) || base.K2 < 2 {
		return base
	}
	out := base
	out.Methods = append(append([]report.Method(nil), base.Methods...),
		report.Method{Name: methods.Plugin, Curve: accuracy.Expected(cx, w, base.K2), C: cx})
	return out
}

// KeepPreview returns c with each preview method that c does not have yet,
// so that a curve shown at once after a slider move stays on the chart
// while the full run that follows has not computed it again.
func KeepPreview(c report.Curves, preview []report.Method) report.Curves {
	out := c
	for _, p := range preview {
		if p.Curve.Max() < c.K2 || slices.ContainsFunc(out.Methods, func(m report.Method) bool { return m.Name == p.Name }) {
			continue
		}
		out.Methods = append(slices.Clone(out.Methods), p)
	}
	return out
}
