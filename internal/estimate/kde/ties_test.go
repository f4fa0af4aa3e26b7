package kde

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
)

// TestTiesLose: KDE counts an incorrect score equal to the correct one as a
// loss, as R_x and the observed curve do. Each point here ties every
// incorrect class (all scores equal), so R_x = 0, the observed accuracy is 0
// at k = 2, and KDE's C_x and curve are 0 too (counting a tie as half a win
// would give 1/2). With one tie among spread scores, the tie adds 0 to C_x.
func TestTiesLose(t *testing.T) {
	m := &scores.Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1, 2}, Scores: []float64{
		1, 1, 1,
		2, 2, 2,
		3, 3, 3,
	}}
	s, _, err := accuracy.NewSample(m, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	for _, sel := range []Selector{LCV, UCV} {
		res, err := Estimator{Bandwidth: sel}.Fit(context.Background(), s, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range res.C {
			if c != 0 {
				t.Errorf("%v: point %d: C_x = %v, want 0 (ties lose)", sel, i, c)
			}
		}
		if res.Curve[2] != s.Observed[2] || res.Curve[2] != 0 {
			t.Errorf("%v: E_2 = %v, observed %v, want both 0", sel, res.Curve[2], s.Observed[2])
		}
	}
	// One tie among spread scores adds 0: C = (Phi(2) + 0 + Phi(-2)) / 3 = 1/3.
	if got := kernelCDF(0, []float64{-1, 0, 1}, 0.5); got < 1.0/3-1e-15 || got > 1.0/3+1e-15 {
		t.Errorf("kernelCDF with a tie = %.17g, want 1/3", got)
	}
}

// TestScaleFree: multiplying every score by 1e155 or 1e-200 (or by 3, or 2^-30)
// changes no C_x and no point of the curve by more than 1e-9, for both
// selectors; the small.csv matrix of the hardening checks is one of the cases.
func TestScaleFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	random := &scores.Matrix{Classes: make([]string, 12)}
	for j := range random.Classes {
		random.Classes[j] = fmt.Sprint("c", j)
	}
	for i := range 60 {
		random.Labels = append(random.Labels, i%12)
		for j := range 12 {
			v := rng.NormFloat64()
			if j == i%12 {
				v += 1.5
			}
			random.Scores = append(random.Scores, v)
		}
	}
	small := &scores.Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 0, 1, 1, 2, 2}, Scores: []float64{
		.9, .1, .2, .8, .3, .1, .2, .7, .3, .1, .6, .5, .3, .2, .8, .4, .5, .45}}
	for _, m := range []*scores.Matrix{small, random} {
		base, _, err := accuracy.NewSample(m, scores.Higher)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []float64{1e155, 1e-200, 3, 0x1p-30} {
			sm := &scores.Matrix{Classes: m.Classes, Labels: m.Labels, Scores: make([]float64, len(m.Scores))}
			for i, v := range m.Scores {
				sm.Scores[i] = v * f
			}
			scaled, _, err := accuracy.NewSample(sm, scores.Higher)
			if err != nil {
				t.Fatal(err)
			}
			for _, sel := range []Selector{LCV, UCV} {
				a, err := Estimator{Bandwidth: sel}.Fit(context.Background(), base, 50, nil)
				if err != nil {
					t.Fatal(err)
				}
				b, err := Estimator{Bandwidth: sel}.Fit(context.Background(), scaled, 50, nil)
				if err != nil {
					t.Fatal(err)
				}
				for i := range a.C {
					if math.Abs(a.C[i]-b.C[i]) > 1e-9 {
						t.Errorf("K=%d x%g %v: C_%d = %v, unscaled %v", m.K(), f, sel, i, b.C[i], a.C[i])
					}
				}
				for k := 2; k <= 50; k++ {
					if math.Abs(a.Curve[k]-b.Curve[k]) > 1e-9 {
						t.Errorf("K=%d x%g %v: E_%d = %v, unscaled %v", m.K(), f, sel, k, b.Curve[k], a.Curve[k])
					}
				}
			}
		}
	}
}

// TestPointScorerTiesLose: the scorer Fit uses counts an incorrect score
// equal to the correct one as 0, also when the other scores are spread
// (bandwidth > 0): C is the brute-force (1/n) sum over the untied scores of
// Phi((c - s_j) / h), at the bandwidth the selector picks for the row. Two
// incorrect scores tie the correct one here.
func TestPointScorerTiesLose(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 17))
	inc := make([]float64, 30)
	for j := range inc {
		inc[j] = rng.NormFloat64()
	}
	slices.Sort(inc)
	inc[11] = inc[10]
	c := inc[10]
	for _, sel := range []Selector{LCV, UCV} {
		got := Estimator{Bandwidth: sel}.NewPointScorer(len(inc)+1).C(c, inc, 10)
		cx, x := standardise(c, inc, make([]float64, len(inc)))
		h := newWorkspace().bandwidth(x, sel)
		if !(h > 0) {
			t.Fatalf("%v: bandwidth %v, want a positive one for spread scores", sel, h)
		}
		want := 0.0
		for _, v := range x {
			if v != cx {
				want += 0.5 * math.Erfc(-(cx-v)/(h*math.Sqrt2))
			}
		}
		want /= float64(len(x))
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%v: C = %.15g, want %.15g (ties adding 0)", sel, got, want)
		}
	}
}
