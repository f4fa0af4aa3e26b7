package recommend

import (
	"context"
	"runtime"
	"sync"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/estimate/tail"
	"github.com/cleanex/cleanex/internal/halfsample"
	"github.com/cleanex/cleanex/internal/methods"
)

// Run fits Jobs(seed) on s, up to runtime.GOMAXPROCS(0) fits at once, and
// assembles the recommendation for k = 0..k2 with cal. It also returns each
// job's curve (in the order of Jobs; nil for a job that failed, whose
// reason is in Outcome.Failed), so a caller can show the individual methods. progress (may be nil) is called from the calling
// goroutine with the jobs' combined advance. It returns ctx.Err() once ctx
// is done; a job's own failure is not an error of Run (see Outcome.Failed).
func Run(ctx context.Context, s *accuracy.Sample, k2 int, seed uint64, cal Calibration,
	progress func(estimate.Progress)) (Outcome, []accuracy.Curve, error) {
	jobs := Jobs(seed)
	curves := make([]accuracy.Curve, len(jobs))
	errs := make([]error, len(jobs))
	type step struct {
		job  int
		p    estimate.Progress
		done bool
	}
	ch := make(chan step, 64)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				e, err := methods.New(jobs[i].Method, methods.Options{Seed: jobs[i].Seed})
				if err == nil {
					var res estimate.Result
					res, err = e.Fit(ctx, s, k2, func(p estimate.Progress) {
						select {
						case ch <- step{job: i, p: p}:
						default: // the caller is busy: skip this report
						}
					})
					curves[i] = res.Curve
				}
				errs[i] = err
				ch <- step{job: i, done: true}
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range jobs {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(ch) }()
	frac := make([]float64, len(jobs))
	for st := range ch {
		if st.done {
			frac[st.job] = 1
		} else if st.p.Total > 0 {
			frac[st.job] = min(1, float64(st.p.Step)/float64(st.p.Total))
		}
		if progress != nil {
			sum := 0.0
			for _, f := range frac {
				sum += f
			}
			progress(estimate.Progress{Method: Name, Step: int(sum * 1000), Total: len(jobs) * 1000, Loss: st.p.Loss})
		}
	}
	if err := ctx.Err(); err != nil {
		return Outcome{}, nil, err
	}
	f, err := MeasuredPilot(ctx, s)
	if err != nil {
		return Outcome{}, nil, err
	}
	return Assemble(f, jobs, curves, errs, k2, cal), curves, nil
}

// PilotFits returns what the recommendation knows of pilot s before any fit
// without refitting anything: its size, observed curve, class-sampling
// standard errors, tied share and whether its scores are squashed
// (tail.Squashed); no curves and no half-sampling spread (MeasuredPilot).
func PilotFits(s *accuracy.Sample) Fits {
	return Fits{K1: s.K, Observed: s.Observed, ClassSE: ClassSE(s), N: s.N(), TiedShare: s.TiedShare(), Squashed: tail.Squashed(s)}
}

// MeasuredPilot returns PilotFits(s) with the pilot's half-sampling spread
// (SpreadOf) and tail spread (tail.Spread), as the recommendation of a
// score matrix takes them (the page measures both in the worker that runs
// the recommendation's tail fit). Its only error is ctx's when ctx is done.
func MeasuredPilot(ctx context.Context, s *accuracy.Sample) (Fits, error) {
	f := PilotFits(s)
	var err error
	if f.Spread, err = SpreadOf(ctx, s); err != nil {
		return f, err
	}
	f.TailSpread = tail.Spread(s)
	return f, nil
}

// SpreadOf returns pilot s's half-sampling spread (halfsample.Measure), or
// an empty one when it cannot be measured: a pilot given as a per-point
// summary, or of fewer than halfsample.MinClasses classes (the interval then
// uses Calibration.WithoutB). Its only error is ctx's when ctx is done.
func SpreadOf(ctx context.Context, s *accuracy.Sample) (halfsample.Spread, error) {
	sp, err := halfsample.Measure(ctx, s)
	if err := ctx.Err(); err != nil {
		return halfsample.Spread{}, err
	}
	if err != nil {
		return halfsample.Spread{}, nil
	}
	return sp, nil
}

// Name is the recommendation's name as a method ("estimate", its CSV column).
const Name = "estimate"

// Estimator is the recommendation as an estimate.Estimator (for backtests):
// Fit returns the recommended curve with its interval in Result.Lo, Result.Hi.
type Estimator struct {
	// Seed is the seed of Jobs.
	Seed uint64
	// Calibration holds the constants (DefaultTable().Calibration).
	Calibration Calibration
}

// Name returns "estimate".
func (Estimator) Name() string { return Name }

// Fit runs the recommendation (see Run) and returns its curve and interval,
// or Outcome.Err when there is no recommendation.
func (e Estimator) Fit(ctx context.Context, s *accuracy.Sample, k2 int, progress func(estimate.Progress)) (estimate.Result, error) {
	out, _, err := Run(ctx, s, k2, e.Seed, e.Calibration, progress)
	if err != nil {
		return estimate.Result{}, err
	}
	if out.Err != nil {
		return estimate.Result{}, out.Err
	}
	return estimate.Result{Curve: out.Estimate, Lo: out.Lo, Hi: out.Hi}, nil
}
