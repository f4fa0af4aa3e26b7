package backtest

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/estimate/plugin"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

func sample(t testing.TB, k int) *accuracy.Sample {
	t.Helper()
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 2, Sigma2: 0.2, K: k, R: 3, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	m, err := w.Matrix(w.AllClasses())
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := accuracy.NewSample(m, scores.Lower)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// observedEstimator predicts the pilot's own observed curve, flat after k1:
// an independent, trivially checkable method.
type observedEstimator struct{}

func (observedEstimator) Name() string { return "flat" }

func (observedEstimator) Fit(ctx context.Context, s *accuracy.Sample, k2 int, progress func(estimate.Progress)) (estimate.Result, error) {
	c := make(accuracy.Curve, k2+1)
	for k := range c {
		c[k] = s.Observed[min(k, s.K)]
	}
	return estimate.Result{Curve: c}, nil
}

func TestRun(t *testing.T) {
	s := sample(t, 30)
	cfg := Config{K1: 8, Reps: 5, Seed: 11}
	var calls int
	res, err := Run(context.Background(), s, cfg, []estimate.Estimator{plugin.Estimator{}, observedEstimator{}}, func(p Progress) {
		calls++
		if p.Total != 10 || p.Done > p.Total {
			t.Errorf("progress %+v", p)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 10 || len(res.Medians) != 2 || len(res.Classes) != 5 || calls == 0 {
		t.Fatalf("got %d rows, %d medians, %d pilots, %d progress calls", len(res.Rows), len(res.Medians), len(res.Classes), calls)
	}
	for i, row := range res.Rows {
		cls := res.Classes[row.Rep]
		if row.Rep != i/2 || row.Method != []string{"plugin", "flat"}[i%2] {
			t.Fatalf("row %d is rep %d method %s", i, row.Rep, row.Method)
		}
		// recompute independently
		pilot, err := s.Subset(cls)
		if err != nil {
			t.Fatal(err)
		}
		var pred accuracy.Curve
		if row.Method == "plugin" {
			pred = accuracy.Expected(pilot.PluginC(), pilot.Weight, s.K)
		} else {
			pred = make(accuracy.Curve, s.K+1)
			for k := range pred {
				pred[k] = pilot.Observed[min(k, pilot.K)]
			}
		}
		sum := 0.0
		for k := 2; k <= s.K; k++ {
			sum += (pred[k] - s.Observed[k]) * (pred[k] - s.Observed[k])
		}
		want := math.Sqrt(sum / float64(s.K-1))
		if math.Abs(row.RMSE-want) > 1e-12 || row.Predicted != pred[s.K] || row.True != s.Observed[s.K] {
			t.Errorf("row %d: RMSE %v predicted %v true %v; want %v %v %v", i, row.RMSE, row.Predicted, row.True, want, pred[s.K], s.Observed[s.K])
		}
		if len(cls) != 8 || !slices.IsSorted(cls) {
			t.Errorf("pilot %d classes %v", row.Rep, cls)
		}
	}
	var rm []float64
	for i := 0; i < 10; i += 2 {
		rm = append(rm, res.Rows[i].RMSE)
	}
	slices.Sort(rm)
	if res.Medians[0].Method != "plugin" || res.Medians[0].RMSE != rm[2] {
		t.Errorf("plugin median %+v, want RMSE %v", res.Medians[0], rm[2])
	}
	again, _ := Run(context.Background(), s, cfg, []estimate.Estimator{plugin.Estimator{}}, nil)
	for r := range again.Classes {
		if !slices.Equal(again.Classes[r], res.Classes[r]) {
			t.Fatalf("pilot %d differs between runs with the same seed", r)
		}
	}
}

func TestRunErrors(t *testing.T) {
	s := sample(t, 10)
	ests := []estimate.Estimator{plugin.Estimator{}}
	for _, tc := range []struct {
		cfg  Config
		ests []estimate.Estimator
		want string
	}{
		{Config{K1: 1, Reps: 1}, ests, "k1 = 1"},
		{Config{K1: 11, Reps: 1}, ests, "k1 = 11"},
		{Config{K1: 5, Reps: 0}, ests, "reps = 0"},
		{Config{K1: 5, Reps: 1}, nil, "no methods"},
	} {
		if _, err := Run(context.Background(), s, tc.cfg, tc.ests, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Run(%+v) error = %v, want %q", tc.cfg, err, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, s, Config{K1: 5, Reps: 3}, ests, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Run error = %v, want context.Canceled", err)
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{{[]float64{3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := Median(tc.xs); got != tc.want {
			t.Errorf("Median(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
	if !math.IsNaN(Median(nil)) {
		t.Error("Median(nil) is not NaN")
	}
}
