// Package backtest measures how well each method extrapolates on data whose
// answer is known: it repeatedly draws k1 of the K classes of a Sample, fits
// every method on that pilot up to k2 = K, and scores the predicted curve
// against the full sample's exact observed curve Abar^K by
// RMSE = sqrt(mean_{k=2..K} (pred_k - Abar_k)^2).
package backtest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
)

// Config sets up a backtest.
type Config struct {
	// K1 is the number of classes in each pilot, 2 ≤ K1 ≤ K.
	K1 int
	// Reps is the number of pilots drawn, ≥ 1.
	Reps int
	// Seed seeds the PCG stream that draws the pilots' classes.
	Seed uint64
}

// Row is one method's result on one pilot.
type Row struct {
	// Rep is the pilot's index, 0..Reps-1.
	Rep int
	// Method is the estimator's name.
	Method string
	// RMSE is the root mean square error of the predicted curve against
	// the full sample's observed curve over k = 2..K.
	RMSE float64
	// Predicted and True are the predicted and the observed accuracy at K.
	Predicted, True float64
	// Seconds is the wall-clock time of the fit.
	Seconds float64
}

// Summary holds one method's medians over the pilots.
type Summary struct {
	// Method is the estimator's name.
	Method string
	// RMSE, Predicted, True and Seconds are the medians of the Row fields.
	RMSE, Predicted, True, Seconds float64
}

// Result is a whole backtest.
type Result struct {
	// K is the number of classes of the full sample (the k2 of every fit).
	K int
	// Classes holds each pilot's classes (indices into the full sample), ascending.
	Classes [][]int
	// Rows holds a Row per pilot and method, pilot by pilot, methods in the order given.
	Rows []Row
	// Medians holds a Summary per method, in the order given.
	Medians []Summary
}

// Progress reports a backtest's advance: Done fits out of Total
// (Reps · methods) are finished; Fit is the running fit's own progress.
type Progress struct {
	// Rep is the running pilot's index.
	Rep int
	// Done and Total count finished fits and all fits.
	Done, Total int
	// Fit is the last progress report of the running fit.
	Fit estimate.Progress
}

// Run backtests the estimators on s. It stops with ctx.Err() once ctx is done.
// progress (may be nil) is called from the calling goroutine.
func Run(ctx context.Context, s *accuracy.Sample, cfg Config, ests []estimate.Estimator, progress func(Progress)) (*Result, error) {
	switch {
	case cfg.K1 < 2 || cfg.K1 > s.K:
		return nil, fmt.Errorf("backtest: k1 = %d: it must be between 2 and the sample's K = %d classes", cfg.K1, s.K)
	case cfg.Reps < 1:
		return nil, fmt.Errorf("backtest: reps = %d: at least 1 is needed", cfg.Reps)
	case len(ests) == 0:
		return nil, fmt.Errorf("backtest: no methods given")
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6261636b_74657374)) // "backtest"
	res := &Result{K: s.K}
	total := cfg.Reps * len(ests)
	report := func(p Progress) {
		if progress != nil {
			progress(p)
		}
	}
	trueK := s.Observed[s.K]
	for rep := 0; rep < cfg.Reps; rep++ {
		cls := rng.Perm(s.K)[:cfg.K1]
		slices.Sort(cls)
		res.Classes = append(res.Classes, cls)
		pilot, err := s.Subset(cls)
		if err != nil {
			return nil, fmt.Errorf("backtest: pilot %d: %w", rep, err)
		}
		for _, e := range ests {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			done := len(res.Rows)
			start := time.Now()
			fit, err := e.Fit(ctx, pilot, s.K, func(p estimate.Progress) {
				report(Progress{Rep: rep, Done: done, Total: total, Fit: p})
			})
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return nil, fmt.Errorf("backtest: pilot %d, method %s: %w", rep, e.Name(), err)
			}
			if fit.Curve.Max() < s.K {
				return nil, fmt.Errorf("backtest: pilot %d, method %s: curve stops at k = %d, want %d", rep, e.Name(), fit.Curve.Max(), s.K)
			}
			res.Rows = append(res.Rows, Row{
				Rep: rep, Method: e.Name(),
				RMSE:      accuracy.RMSE(fit.Curve, s.Observed),
				Predicted: fit.Curve[s.K], True: trueK,
				Seconds: time.Since(start).Seconds(),
			})
			report(Progress{Rep: rep, Done: len(res.Rows), Total: total, Fit: estimate.Progress{Method: e.Name()}})
		}
	}
	for m, e := range ests {
		var rmse, pred, truth, secs []float64
		for i := m; i < len(res.Rows); i += len(ests) {
			r := res.Rows[i]
			rmse = append(rmse, r.RMSE)
			pred = append(pred, r.Predicted)
			truth = append(truth, r.True)
			secs = append(secs, r.Seconds)
		}
		res.Medians = append(res.Medians, Summary{Method: e.Name(),
			RMSE: Median(rmse), Predicted: Median(pred), True: Median(truth), Seconds: Median(secs)})
	}
	return res, nil
}

// Median returns the median of xs (the mean of the two middle values when
// len(xs) is even; NaN when xs is empty). xs is not modified. Written here
// because gonum's stat.Quantile returns a sample value, not the midpoint, for
// even len(xs).
func Median(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
