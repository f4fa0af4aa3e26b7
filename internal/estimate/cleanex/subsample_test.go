package cleanex

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/cleanex/cleanex/internal/simulate"
)

// TestTrainSubsample checks the class-stratified subsample: at most
// ceil(max/K) points per class, every class weighing 1/K in total, the rows
// copied from the chosen points, the same points for the same seed and
// others for another seed.
func TestTrainSubsample(t *testing.T) {
	_, s := pilotSample(t, simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 3, Sigma2: 0.2, K: 60, R: 9, Seed: 3}, 50, 1)
	const size = 2
	x := make([]float64, s.N()*size)
	for i := range s.N() {
		x[i*size], x[i*size+1] = float64(i), float64(s.Labels[i])
	}
	xt, kept, wt := trainSubsample(s, x, size, 200, 7)
	nt := len(kept)
	perClass := (200 + s.K - 1) / s.K // 4
	if nt != s.K*perClass || len(wt) != nt || len(xt) != nt*size {
		t.Fatalf("subsample of %d points (%d weights, %d inputs), want %d", nt, len(wt), len(xt), s.K*perClass)
	}
	classW := make([]float64, s.K)
	count := make([]int, s.K)
	for i := range nt {
		pt, y := int(xt[i*size]), int(xt[i*size+1])
		if pt != kept[i] {
			t.Fatalf("row %d is point %d, listed as point %d", i, pt, kept[i])
		}
		if s.Labels[pt] != y {
			t.Fatalf("row %d is point %d of class %d, copied with class %d", i, pt, s.Labels[pt], y)
		}
		classW[y] += wt[i]
		count[y]++
	}
	for y := range s.K {
		if count[y] != perClass || math.Abs(classW[y]-1/float64(s.K)) > 1e-15 {
			t.Errorf("class %d: %d points weighing %v, want %d weighing 1/K", y, count[y], classW[y], perClass)
		}
	}
	xt2, _, _ := trainSubsample(s, x, size, 200, 7)
	if !slices.Equal(xt, xt2) {
		t.Error("the same seed picked other points")
	}
	xt3, _, _ := trainSubsample(s, x, size, 200, 8)
	if slices.Equal(xt, xt3) {
		t.Error("another seed picked the same points")
	}
}

// TestSubsampledFit: on a pilot of 500 classes and 5,000 points, the fast
// preset trains on 2,000 of them and its curve over all points still
// follows the exact observed curve within its sampling noise (checkCurve).
func TestSubsampledFit(t *testing.T) {
	if testing.Short() {
		t.Skip("a k1 = 500 fit")
	}
	_, s := pilotSample(t, simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 5, Sigma2: 0.1, K: 2000, R: 10, Seed: 11}, 500, 2)
	p := Fast()
	if s.N() <= p.MaxTrainPoints {
		t.Fatalf("pilot of %d points is not larger than MaxTrainPoints %d", s.N(), p.MaxTrainPoints)
	}
	res, err := Estimator{Preset: p, Seed: 1}.Fit(context.Background(), s, 2000, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.C) != s.N() {
		t.Fatalf("C for %d points, want all %d", len(res.C), s.N())
	}
	checkCurve(t, s, res.Curve, 2000)
}
