package backtest

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/estimate/plugin"
)

// flaky fails on the pilots listed in bad: with an error when err is set,
// else with a NaN curve (which the backtest must refuse as a failed fit).
type flaky struct {
	bad map[int]bool
	err bool
	n   *int
}

func (flaky) Name() string { return "flaky" }

func (f flaky) Fit(ctx context.Context, s *accuracy.Sample, k2 int, progress func(estimate.Progress)) (estimate.Result, error) {
	rep := *f.n
	*f.n++
	if f.bad[rep] {
		if f.err {
			return estimate.Result{}, errors.New("cannot fit")
		}
		c := make(accuracy.Curve, k2+1)
		for k := range c {
			c[k] = math.NaN()
		}
		return estimate.Result{Curve: c}, nil
	}
	return plugin.Estimator{}.Fit(ctx, s, k2, progress)
}

// TestFailedRepsNotRanked: pilots on which a method fails (NaN curve or an
// error) are counted in Failed, their rows carry Err, and the medians are
// over the successful pilots only: a failing method never looks best.
func TestFailedRepsNotRanked(t *testing.T) {
	s := sample(t, 30)
	cfg := Config{K1: 8, Reps: 5, Seed: 11}
	ref, err := Run(context.Background(), s, cfg, []estimate.Estimator{plugin.Estimator{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var okRMSE []float64
	for _, r := range ref.Rows {
		if r.Rep != 1 && r.Rep != 3 {
			okRMSE = append(okRMSE, r.RMSE)
		}
	}
	for _, useErr := range []bool{false, true} {
		n := 0
		res, err := Run(context.Background(), s, cfg, []estimate.Estimator{flaky{bad: map[int]bool{1: true, 3: true}, err: useErr, n: &n}}, nil)
		if err != nil {
			t.Fatalf("err=%v: Run: %v", useErr, err)
		}
		m := res.Medians[0]
		if m.OK != 3 || m.Failed != 2 || m.RMSE != Median(okRMSE) || math.IsNaN(m.Predicted) {
			t.Errorf("err=%v: summary %+v, want OK 3, Failed 2, RMSE %v", useErr, m, Median(okRMSE))
		}
		for _, r := range res.Rows {
			if failed := r.Rep == 1 || r.Rep == 3; failed != (r.Err != nil) || failed != math.IsNaN(r.RMSE) {
				t.Errorf("err=%v: row %+v", useErr, r)
			}
		}
	}
}

// TestOnRowStreams: with OnRow set every row goes to it in order as it
// finishes and the Result keeps neither rows nor pilots; Reps above MaxReps
// is refused.
func TestOnRowStreams(t *testing.T) {
	s := sample(t, 20)
	var got []Row
	cfg := Config{K1: 5, Reps: 4, Seed: 2, OnRow: func(r Row) error { got = append(got, r); return nil }}
	res, err := Run(context.Background(), s, cfg, []estimate.Estimator{plugin.Estimator{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || len(res.Rows) != 0 || len(res.Classes) != 0 || res.Medians[0].OK != 4 {
		t.Errorf("%d rows streamed, %d kept, %d pilots kept, summary %+v", len(got), len(res.Rows), len(res.Classes), res.Medians[0])
	}
	for i, r := range got {
		if r.Rep != i {
			t.Errorf("row %d is pilot %d", i, r.Rep)
		}
	}
	stop := errors.New("disk full")
	cfg.OnRow = func(Row) error { return stop }
	if _, err := Run(context.Background(), s, cfg, []estimate.Estimator{plugin.Estimator{}}, nil); !errors.Is(err, stop) {
		t.Errorf("OnRow error: Run returned %v", err)
	}
	if _, err := Run(context.Background(), s, Config{K1: 5, Reps: 1_000_000_000}, []estimate.Estimator{plugin.Estimator{}}, nil); err == nil {
		t.Error("reps = 1e9 accepted")
	}
}
