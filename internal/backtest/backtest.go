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
	"slices"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/draw"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/methods"
)

// Config sets up a backtest.
type Config struct {
	// K1 is the number of classes in each pilot, 2 ≤ K1 ≤ K.
	K1 int
	// Reps is the number of pilots drawn, ≥ 1.
	Reps int
	// Seed seeds the PCG stream that draws the pilots' classes.
	Seed uint64
	// OnRow, when set, receives each Row as soon as its fit is done (from the
	// calling goroutine); Result.Rows and Result.Classes are then left empty,
	// so memory does not grow with Reps beyond the medians' 4 float64 per
	// pilot and method. An error from OnRow stops the run and is returned.
	OnRow func(Row) error
}

// stream is the PCG stream (its second seed word) that draws the pilots.
const stream = 0x6261636b_74657374 // "backtest"

// MaxReps is the largest Config.Reps accepted. With Config.OnRow set, memory
// is 32 bytes per pilot and method (12.8 MB for four methods at MaxReps).
const MaxReps = 100_000

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
	// Lo and Hi bound the method's 80% interval at K, where it gives one
	// (NaN otherwise).
	Lo, Hi float64
	// Err is why the fit failed (an error from the method, or a curve with a
	// value that is not a finite accuracy in [0, 1]); nil when it succeeded.
	// RMSE and Predicted are NaN for a failed fit.
	Err error
}

// Covered reports whether the row's 80% interval at K holds the true
// accuracy there (false without an interval: Lo and Hi NaN).
func (r Row) Covered() bool { return r.Lo <= r.True && r.True <= r.Hi }

// Summary holds one method's medians over the pilots.
type Summary struct {
	// Method is the estimator's name.
	Method string
	// RMSE, Predicted, True and Seconds are the medians of the Row fields
	// over the pilots on which the method succeeded (NaN when it never did).
	RMSE, Predicted, True, Seconds float64
	// OK and Failed count the pilots on which the method succeeded and failed.
	OK, Failed int
	// Coverage is the share of successful pilots whose true accuracy at K
	// lies in [Lo, Hi], and Width the median of Hi - Lo; both NaN for a
	// method without an interval.
	Coverage, Width float64
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
// progress (may be nil) is called from the calling goroutine. A fit that fails
// (the method returns an error, or its curve holds a value that is not a
// finite accuracy in [0, 1]) does not stop the run: its Row carries Err, and
// the method's Summary counts it in Failed and leaves it out of the medians.
func Run(ctx context.Context, s *accuracy.Sample, cfg Config, ests []estimate.Estimator, progress func(Progress)) (*Result, error) {
	switch {
	case cfg.K1 < 2 || cfg.K1 > s.K:
		return nil, fmt.Errorf("backtest: k1 = %d: it must be between 2 and the sample's K = %d classes", cfg.K1, s.K)
	case cfg.Reps < 1:
		return nil, fmt.Errorf("backtest: reps = %d: at least 1 is needed", cfg.Reps)
	case cfg.Reps > MaxReps:
		return nil, fmt.Errorf("backtest: reps = %d: at most %d are supported", cfg.Reps, MaxReps)
	case len(ests) == 0:
		return nil, fmt.Errorf("backtest: no methods given")
	}
	classes := draw.New(cfg.Seed, stream)
	res := &Result{K: s.K}
	total := cfg.Reps * len(ests)
	report := func(p Progress) {
		if progress != nil {
			progress(p)
		}
	}
	trueK := s.Observed[s.K]
	// Per method, the successful pilots' fields, for the medians.
	type stats struct {
		rmse, pred, truth, secs []float64
		failed                  int
		widths                  []float64
		covered                 int
	}
	per := make([]stats, len(ests))
	done := 0
	for rep := 0; rep < cfg.Reps; rep++ {
		cls := classes.Classes(s.K, cfg.K1)
		if cfg.OnRow == nil {
			res.Classes = append(res.Classes, cls)
		}
		pilot, err := s.Subset(cls)
		if err != nil {
			return nil, fmt.Errorf("backtest: pilot %d: %w", rep, err)
		}
		for m, e := range ests {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			start := time.Now()
			fit, err := e.Fit(ctx, pilot, s.K, func(p estimate.Progress) {
				report(Progress{Rep: rep, Done: done, Total: total, Fit: p})
			})
			if err != nil && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			row := Row{Rep: rep, Method: e.Name(), RMSE: math.NaN(), Predicted: math.NaN(), True: trueK, Seconds: time.Since(start).Seconds(),
				Lo: math.NaN(), Hi: math.NaN()}
			if err == nil {
				err = methods.CheckCurve(fit.Curve, s.K)
			}
			if err != nil {
				row.Err = err
				per[m].failed++
			} else {
				row.RMSE = accuracy.RMSE(fit.Curve, s.Observed)
				row.Predicted = fit.Curve[s.K]
				st := &per[m]
				st.rmse = append(st.rmse, row.RMSE)
				st.pred = append(st.pred, row.Predicted)
				st.truth = append(st.truth, row.True)
				st.secs = append(st.secs, row.Seconds)
				if fit.Lo.Max() >= s.K && fit.Hi.Max() >= s.K {
					row.Lo, row.Hi = fit.Lo[s.K], fit.Hi[s.K]
					st.widths = append(st.widths, row.Hi-row.Lo)
					if row.Covered() {
						st.covered++
					}
				}
			}
			done++
			if cfg.OnRow != nil {
				if err := cfg.OnRow(row); err != nil {
					return nil, err
				}
			} else {
				res.Rows = append(res.Rows, row)
			}
			report(Progress{Rep: rep, Done: done, Total: total, Fit: estimate.Progress{Method: e.Name()}})
		}
	}
	for m, e := range ests {
		st := per[m]
		res.Medians = append(res.Medians, Summary{Method: e.Name(),
			RMSE: Median(st.rmse), Predicted: Median(st.pred), True: Median(st.truth), Seconds: Median(st.secs),
			OK: len(st.rmse), Failed: st.failed, Coverage: math.NaN(), Width: Median(st.widths)})
		if len(st.widths) > 0 {
			res.Medians[m].Coverage = float64(st.covered) / float64(len(st.widths))
		}
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
