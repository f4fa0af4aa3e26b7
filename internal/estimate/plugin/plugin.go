// Package plugin is the plug-in baseline: C_x = R_x / (K - 1), then
// E_k = sum_x w_x C_x^(k-1).
package plugin

import (
	"context"
	"math"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
)

// Estimator is the plug-in method. It has no options.
type Estimator struct{}

// Name returns "plugin".
func (Estimator) Name() string { return "plugin" }

// Fit returns E_k = sum_x w_x (R_x/(K-1))^(k-1) for k = 0..k2.
func (e Estimator) Fit(ctx context.Context, s *accuracy.Sample, k2 int, progress func(estimate.Progress)) (estimate.Result, error) {
	if err := ctx.Err(); err != nil {
		return estimate.Result{}, err
	}
	c := s.PluginC()
	res := estimate.Result{Curve: accuracy.Expected(c, s.Weight, k2), C: c}
	estimate.Report(progress, estimate.Progress{Method: e.Name(), Step: 1, Total: 1, Loss: math.NaN()})
	return res, nil
}
