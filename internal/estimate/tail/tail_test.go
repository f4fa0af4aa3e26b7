package tail

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate/esttest"
	"github.com/cleanex/cleanex/internal/scores"
)

// brutePoint is a point's threshold u, mean excess σ and top excess, read
// the plain way (bruteExcesses).
type brutePoint struct{ u, sigma, top float64 }

// bruteExcesses reads every point the plain way, for a pilot whose every
// rank is a knot (K <= 130): its incorrect scores sorted from the highest,
// u its m-th (m = max(2, ceil((K-1)/4))), σ the mean of the m-1 scores above
// u minus u; the excesses over σ of the points with σ > 0 are pooled.
func bruteExcesses(s *accuracy.Sample) (m int, points []brutePoint, pool []float64) {
	m = max(2, int(math.Ceil(float64(s.K-1)/4)))
	for i := range s.N() {
		row := slices.Clone(s.IncorrectRow(i))
		slices.Sort(row)
		slices.Reverse(row)
		u := row[m-1]
		sigma := 0.0
		for _, v := range row[:m-1] {
			sigma += v - u
		}
		sigma /= float64(m - 1)
		if sigma > 0 {
			for _, v := range row[:m-1] {
				pool = append(pool, (v-u)/sigma)
			}
		}
		points = append(points, brutePoint{u, sigma, row[0] - u})
	}
	return m, points, pool
}

// bruteC computes C_x the plain way (bruteExcesses): a correct score c
// above u has 1 - C = m/(K-1) (#pool above y + #equal/2 + 1/2)/(#pool + 1),
// y = (c-u)/σ, any other point R_x/(K-1).
func bruteC(s *accuracy.Sample) []float64 {
	n := s.K - 1
	m, points, pool := bruteExcesses(s)
	y := make([]float64, s.N())
	for i, p := range points {
		y[i] = math.NaN()
		if p.sigma > 0 && s.Correct[i] > p.u {
			y[i] = (s.Correct[i] - p.u) / p.sigma
		}
	}
	c := make([]float64, s.N())
	for i, yi := range y {
		if math.IsNaN(yi) {
			c[i] = float64(s.R[i]) / float64(n)
			continue
		}
		above := 0.5
		for _, p := range pool {
			switch {
			case p > yi:
				above++
			case p == yi:
				above += 0.5
			}
		}
		c[i] = 1 - float64(m)/float64(n)*above/float64(len(pool)+1)
	}
	return c
}

// Fit agrees with the plain computation, with ties in the scores (rounded
// to 0.05), and its curve is E_k = sum_x w_x C_x^(k-1), non-increasing.
func TestFitAgreesWithBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		round bool
	}{{"distances", false}, {"distances rounded to 0.05", true}} {
		m := esttest.Pilot(t, 13, 3)
		if tc.round {
			for i, v := range m.Scores {
				m.Scores[i] = math.Round(v*20) / 20
			}
		}
		s := esttest.Sample(t, m, scores.Lower)
		res, err := Estimator{}.Fit(context.Background(), s, 60, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteC(s)
		for i := range want {
			if math.Abs(res.C[i]-want[i]) > 1e-12 {
				t.Errorf("%s: C[%d] = %v, want %v", tc.name, i, res.C[i], want[i])
			}
		}
		curve := accuracy.Expected(want, s.Weight, 60)
		for k := 2; k <= 60; k++ {
			if math.Abs(res.Curve[k]-curve[k]) > 1e-12 {
				t.Errorf("%s: E_%d = %v, want %v", tc.name, k, res.Curve[k], curve[k])
			}
		}
		for k := 3; k <= 60; k++ {
			if res.Curve[k] > res.Curve[k-1] {
				t.Fatalf("%s: the curve rises at k = %d", tc.name, k)
			}
		}
	}
}

// A hand-worked pilot of 5 classes: m = 2, so each point's threshold u is
// its second highest wrong score, σ its top wrong score minus u, and every
// pooled excess is 1 (7 of them). Point 0 (correct 0.9, wrong 0.5 0.4 0.2
// 0.1: u = 0.4, σ = 0.1) has y = 5, above the whole pool:
// 1 - C = (2/4)(1/2)/8. Point 1 (correct 0.45, the same wrong scores) has
// y = 0.5, below all of it: 1 - C = (2/4)(7 + 1/2)/8. Point 2's correct
// score 0.3 is below its threshold 0.4: the plug-in's 2/4. Point 3 (correct
// 0.6, wrong 0.3 0.2 0.1 0: u = 0.2, σ = 0.1, y = 4), point 4 (correct
// 0.5, wrong 0.4 0.3 0.2 0.1: u = 0.3, y = 2) and points 5 and 6 (y = 6)
// are above the pool, as point 0.
func TestHandWorked(t *testing.T) {
	m := handWorked()
	s := esttest.Sample(t, m, scores.Higher)
	res, err := Estimator{}.Fit(context.Background(), s, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	top := 1 - 0.5*0.5/8
	want := []float64{top, 1 - 0.5*7.5/8, 0.5, top, top, top, top}
	for i, w := range want {
		if math.Abs(res.C[i]-w) > 1e-12 {
			t.Errorf("C[%d] = %v, want %v", i, res.C[i], w)
		}
	}
}

// The scores' unit, a shift of each row, and probabilities against their
// logarithms: C_x is invariant to a positive affine change of each row, so
// the curve is the same (exactly for powers of two, which scale without
// rounding).
func TestScaleDoesNotMatter(t *testing.T) { esttest.ScaleDoesNotMatter(t, Estimator{}) }

// Above K = 130 the excesses are read at the summary's knots, weighted by
// the ranks they stand for: nearly the curve of every rank. A pool of every
// 7th row gives nearly the same curve too.
func TestKnotExcesses(t *testing.T) {
	s := esttest.Sample(t, esttest.Pilot(t, 400, 2), scores.Lower)
	m, ranks, weights := excessRanks(s)
	if m < 100 || len(ranks) >= m-1 || ranks[0] != 1 || ranks[len(ranks)-1] >= m {
		t.Fatalf("threshold rank %d, knot ranks %v… for K = %d", m, ranks[:5], s.K)
	}
	total := 0.0
	for _, w := range weights {
		total += w
	}
	if want := float64(m+ranks[len(ranks)-1]-1) / 2; total != want {
		t.Errorf("the knots' weights add up to %v, want %v", total, want)
	}
	res, err := Estimator{}.Fit(context.Background(), s, 4000, nil)
	if err != nil {
		t.Fatal(err)
	}
	every := make([]int, m-1)
	ones := make([]float64, m-1)
	for r := range every {
		every[r], ones[r] = r+1, 1
	}
	for _, tc := range []struct {
		name    string
		maxPool int
		tol     float64
	}{{"every rank", MaxPool, 0.003}, {"every rank, every 7th row", s.N() * (m - 1) / 7, 0.01}} {
		ys, pool, err := excesses(context.Background(), s, m, every, ones, tc.maxPool)
		if err != nil {
			t.Fatal(err)
		}
		pool.Sort()
		full := accuracy.Expected(cOf(s, m, ys, pool), s.Weight, 4000)
		d := accuracy.RMSE(res.Curve, full, 4000)
		t.Logf("the knots against %s: RMSE %.2g", tc.name, d)
		if d > tc.tol {
			t.Errorf("the knots' curve is %.4f (RMSE) from that of %s, want at most %v", d, tc.name, tc.tol)
		}
	}
}

func TestTooFewClassesAndCancel(t *testing.T) {
	esttest.TooFewClassesAndCancel(t, Estimator{}, ErrTooFewClasses)
}

func ExampleEstimator_Fit() {
	// Five classes, one test point each: a point's threshold is its second
	// highest wrong score, and its top wrong score's excess over it sets the
	// scale of the tail.
	m := &scores.Matrix{Classes: []string{"cat", "dog", "emu", "fox", "gnu"}, Labels: []int{0, 1, 2, 3, 4},
		Scores: []float64{
			0.9, 0.5, 0.4, 0.2, 0.1,
			0.3, 0.8, 0.6, 0.1, 0.2,
			0.2, 0.7, 0.4, 0.3, 0.1,
			0.1, 0.2, 0.3, 0.7, 0.5,
			0.6, 0.1, 0.2, 0.3, 0.4,
		}}
	s, _, _ := accuracy.NewSample(m, scores.Higher)
	res, _ := Estimator{}.Fit(context.Background(), s, 6, nil)
	fmt.Printf("C = %.3f\nE_2..E_6 = %.3f\n", res.C, res.Curve[2:])
	// Output:
	// C = [0.958 0.958 0.542 0.958 0.542]
	// E_2..E_6 = [0.792 0.668 0.592 0.541 0.504]
}

// TestSameEverywhere pins the bits of a fit: the method uses only basic
// arithmetic in a fixed order, Frexp and Ldexp (exact) and a deterministic
// sort, so it gives the same bits natively and in wasm (the wasm tests run
// this test under node).
func TestSameEverywhere(t *testing.T) { esttest.SameBits(t, Estimator{}, 0xdddbbe3ae23bedbb) }

// BenchmarkFit times a fit to k2 = 2000 on pilots of 100 and 500 classes
// with 4 points each.
func BenchmarkFit(b *testing.B) { esttest.BenchmarkFit(b, Estimator{}) }

// A correct score equal to the point's threshold u (not above it) gets the
// plug-in share R_x / (K-1), as the package doc says ("when c_x > u_x"):
// TestHandWorked's pilot with one more point, correct 0.4 among wrong
// scores 0.5 0.4 0.2 0.1 (u = 0.4, R_x = 2), checked with bruteC.
func TestCorrectAtThresholdIsPlugin(t *testing.T) {
	m := handWorked()
	m.Labels = append(m.Labels, 0)
	m.Scores = append(m.Scores, 0.4, 0.5, 0.4, 0.2, 0.1)
	s := esttest.Sample(t, m, scores.Higher)
	res, err := Estimator{}.Fit(context.Background(), s, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := bruteC(s)
	if want[7] != 0.5 {
		t.Fatalf("bruteC gives the point at its threshold %v, want the plug-in 2/4", want[7])
	}
	for i, w := range want {
		if math.Abs(res.C[i]-w) > 1e-12 {
			t.Errorf("C[%d] = %v, want %v", i, res.C[i], w)
		}
	}
}

// handWorked returns TestHandWorked's pilot: 7 points of 5 classes.
func handWorked() *scores.Matrix {
	return &scores.Matrix{Classes: []string{"a", "b", "c", "d", "e"}, Labels: []int{0, 0, 0, 1, 2, 3, 4},
		Scores: []float64{
			0.9, 0.5, 0.4, 0.2, 0.1,
			0.45, 0.5, 0.4, 0.2, 0.1,
			0.3, 0.5, 0.4, 0.2, 0.1,
			0.0, 0.6, 0.1, 0.3, 0.2,
			0.1, 0.2, 0.5, 0.3, 0.4,
			0.1, 0.2, 0.3, 0.9, 0.4,
			0.1, 0.2, 0.3, 0.4, 0.9,
		}}
}
