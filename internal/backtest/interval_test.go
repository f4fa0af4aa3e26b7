package backtest

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
)

// banded predicts the pilot's observed curve, flat after k1, with an
// interval around it that is, at k2, 0.05 r below and 0.004 r above it at
// the r-th fit (r = 1, 2, ...; wider at smaller k), so that some pilots'
// intervals hold the truth and others miss it; the fits listed in fail
// return an error.
type banded struct {
	n    *int
	fail map[int]bool
}

func (banded) Name() string { return "banded" }

func (b banded) Fit(ctx context.Context, s *accuracy.Sample, k2 int, progress func(estimate.Progress)) (estimate.Result, error) {
	*b.n++
	r := float64(*b.n)
	if b.fail[*b.n] {
		return estimate.Result{}, errors.New("cannot fit")
	}
	c := make(accuracy.Curve, k2+1)
	lo := make(accuracy.Curve, k2+1)
	hi := make(accuracy.Curve, k2+1)
	for k := range c {
		c[k] = s.Observed[min(k, s.K)]
		// the band at K is as said; at other k it is wider
		lo[k], hi[k] = max(0, c[k]-0.05*r-1e-4*float64(k2-k)), min(1, c[k]+0.004*r+1e-4*float64(k2-k))
	}
	return estimate.Result{Curve: c, Lo: lo, Hi: hi}, nil
}

// TestIntervalSummary: each row carries its fit's interval at K; the
// summary's Width is the median of hi - lo over the fitted pilots and its
// Coverage the share of those whose interval holds the truth, recomputed
// here from the pilots' own observed curves (a failed fit counts in
// neither).
func TestIntervalSummary(t *testing.T) {
	s := sample(t, 30)
	n := 0
	res, err := Run(context.Background(), s, Config{K1: 8, Reps: 9, Seed: 3}, []estimate.Estimator{banded{n: &n, fail: map[int]bool{4: true}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	truth := s.Observed[s.K]
	var widths []float64
	covered, fitted := 0, 0
	for i, row := range res.Rows {
		if i == 3 {
			if row.Err == nil || !math.IsNaN(row.Lo) || !math.IsNaN(row.Hi) {
				t.Errorf("failed pilot: row %+v, want an error and no interval", row)
			}
			continue
		}
		pilot, err := s.Subset(res.Classes[i])
		if err != nil {
			t.Fatal(err)
		}
		r := float64(i + 1)
		lo, hi := max(0, pilot.Observed[pilot.K]-0.05*r), min(1, pilot.Observed[pilot.K]+0.004*r)
		if math.Abs(row.Lo-lo) > 1e-15 || math.Abs(row.Hi-hi) > 1e-15 {
			t.Errorf("pilot %d: interval [%v, %v], want [%v, %v]", i, row.Lo, row.Hi, lo, hi)
		}
		widths = append(widths, hi-lo)
		fitted++
		if lo <= truth && truth <= hi {
			covered++
		}
	}
	if covered == 0 || covered == fitted {
		t.Fatalf("%d of %d intervals hold the truth: the test wants some of each", covered, fitted)
	}
	slices.Sort(widths)
	width := (widths[3] + widths[4]) / 2 // 8 fitted pilots
	m := res.Medians[0]
	if math.Abs(m.Width-width) > 1e-15 || m.Coverage != float64(covered)/float64(fitted) || m.Failed != 1 || m.OK != 8 {
		t.Errorf("summary %+v, want width %v, coverage %d/%d, 8 fitted and 1 failed", m, width, covered, fitted)
	}
}
