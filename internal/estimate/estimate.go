// Package estimate defines the contract every accuracy-extrapolation method
// implements, so the CLI, the backtest, the browser worker and the tests drive
// all methods the same way.
package estimate

import (
	"context"

	"github.com/cleanex/cleanex/internal/accuracy"
)

// Progress reports how far a fit has come. Loss is NaN where a method has none.
type Progress struct {
	// Method is the estimator's name.
	Method string
	// Step counts work units done, out of Total.
	Step, Total int
	// Loss is the current training loss, where the method has one.
	Loss float64
	// C is the current per-point estimate of C_x, where a method has one while
	// it trains (nil otherwise), so a caller can draw the curve as it forms.
	// It is valid only during the progress call: copy it to keep it.
	C []float64
}

// Result is what a fit returns.
type Result struct {
	// Curve is the predicted accuracy for k = 0..k2 (Curve[0] = Curve[1] = 1).
	Curve accuracy.Curve
	// C holds the per-point estimate of C_x where the method has one (nil otherwise);
	// it feeds the reversed ROC.
	C []float64
	// Losses is the training loss per step, where the method has one.
	Losses []float64
	// Lo and Hi bound an 80% interval around Curve for k = 0..k2, where the
	// method gives one (nil otherwise).
	Lo, Hi accuracy.Curve
}

// Estimator predicts the accuracy curve up to k2 classes from a pilot Sample.
// Fit must return ctx.Err() promptly (well under a second) once ctx is done,
// and call progress (which may be nil) every so often from the calling goroutine.
type Estimator interface {
	// Name is the method's short name: plugin, kde, pooled, tail, regression, cleanex.
	Name() string
	// Fit predicts the curve for k = 2..k2 from s; k2 >= 2.
	Fit(ctx context.Context, s *accuracy.Sample, k2 int, progress func(Progress)) (Result, error)
}

// Report calls progress when it is not nil.
func Report(progress func(Progress), p Progress) {
	if progress != nil {
		progress(p)
	}
}
