package pooled

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

// bruteC computes C_x the plain way: each row's incorrect scores
// standardised by their mean and sample standard deviation, every such
// value pooled, C_x the share of the pool below the standardised correct
// score, ties half, at most 1 - 1/(2 W).
func bruteC(s *accuracy.Sample) []float64 {
	m := s.K - 1
	var pool []float64
	z := make([]float64, s.N())
	for i := range s.N() {
		row := s.IncorrectRow(i)
		mean, ss := 0.0, 0.0
		for _, v := range row {
			mean += v
		}
		mean /= float64(m)
		for _, v := range row {
			ss += (v - mean) * (v - mean)
		}
		sd := math.Sqrt(ss / float64(m-1))
		for _, v := range row {
			pool = append(pool, (v-mean)/sd)
		}
		z[i] = (s.Correct[i] - mean) / sd
	}
	c := make([]float64, s.N())
	for i, zi := range z {
		below := 0.0
		for _, p := range pool {
			switch {
			case p < zi:
				below++
			case p == zi:
				below += 0.5
			}
		}
		c[i] = min(below/float64(len(pool)), 1-0.5/float64(len(pool)))
	}
	return c
}

// Fit agrees with the plain computation (up to rounding in the moments), and
// its curve is E_k = sum_x w_x C_x^(k-1).
func TestFitAgreesWithBruteForce(t *testing.T) {
	s := esttest.Sample(t, esttest.Pilot(t, 12, 3), scores.Lower)
	res, err := Estimator{}.Fit(context.Background(), s, 60, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := bruteC(s)
	for i := range want {
		if math.Abs(res.C[i]-want[i]) > 1e-12 {
			t.Errorf("C[%d] = %v, want %v", i, res.C[i], want[i])
		}
	}
	curve := accuracy.Expected(want, s.Weight, 60)
	for k := 2; k <= 60; k++ {
		if math.Abs(res.Curve[k]-curve[k]) > 1e-12 {
			t.Errorf("E_%d = %v, want %v", k, res.Curve[k], curve[k])
		}
	}
	for k := 3; k <= 60; k++ {
		if res.Curve[k] > res.Curve[k-1] {
			t.Fatalf("the curve rises at k = %d", k)
		}
	}
}

// The scores' unit, a shift of each row, and probabilities against their
// logarithms: C_x is invariant to a positive affine change of each row, so
// the curve is the same (exactly for powers of two, which scale without
// rounding).
func TestScaleDoesNotMatter(t *testing.T) { esttest.ScaleDoesNotMatter(t, Estimator{}) }

// A point whose incorrect scores are all equal has no spread of its own: it
// borrows the median of the other rows' sqrt(SS), so its correct score 0.05
// above them gives the share of the pool below 0.05 / that spread; tied with
// them it sits at 0 (half the pool's zeros count); with no row spread at
// all, above is the top C and below 0.
func TestFlatRows(t *testing.T) {
	m := &scores.Matrix{Classes: []string{"a", "b", "c", "d"}, Labels: []int{0, 1, 2, 3, 0, 1},
		Scores: []float64{
			1.05, 1, 1, 1, // flat, correct just above
			2, 0, 2, 2, // flat, correct below
			3, 3, 3, 3, // flat, tied
			0.2, 0.9, 0.1, 0.5, // spread
			0.5, 0.4, 0.1, 0.3, // spread
			0.3, 0.6, 0.2, 0.9, // spread
		}}
	s := esttest.Sample(t, m, scores.Higher)
	res, err := Estimator{}.Fit(context.Background(), s, 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The spread rows' sqrt(SS) of their incorrect scores, and their
	// standardised values; the flat rows add 9 zeros.
	spreads, share := standardisedPool([][]float64{s.IncorrectRow(3), s.IncorrectRow(4), s.IncorrectRow(5)}, 9)
	for _, tc := range []struct {
		point int
		want  float64
	}{{0, share(0.05 / spreads[1])}, {1, share(-2 / spreads[1])}, {2, share(0)}} {
		if math.Abs(res.C[tc.point]-tc.want) > 1e-12 {
			t.Errorf("C of flat point %d = %v, want %v", tc.point, res.C[tc.point], tc.want)
		}
	}
	if res.C[0] <= 0.5 || res.C[0] >= 1-0.5/18 {
		t.Errorf("C just above a flat row = %v: want it inside the pool, above its zeros", res.C[0])
	}
	// Every row flat: nothing to borrow.
	allFlat := &scores.Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1, 2},
		Scores: []float64{5, 1, 1, 2, 0, 2, 3, 3, 3}}
	res, err = Estimator{}.Fit(context.Background(), esttest.Sample(t, allFlat, scores.Higher), 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{1 - 0.5/6, 0, 0.5}; !slices.Equal(res.C, want) {
		t.Errorf("every row flat: C = %v, want %v", res.C, want)
	}
}

func TestTooFewClassesAndCancel(t *testing.T) {
	esttest.TooFewClassesAndCancel(t, Estimator{}, ErrTooFewClasses)
}

// fullPoolC returns C_x from the pool of every incorrect score of every
// row (the summary's knots are every rank up to K = 130), or of every j-th
// row within maxPool.
func fullPoolC(t *testing.T, s *accuracy.Sample, maxPool int) []float64 {
	t.Helper()
	ranks, weights := make([]int, s.K-1), make([]float64, s.K-1)
	for r := range ranks {
		ranks[r], weights[r] = r+1, 1
	}
	z, pool, err := standardise(context.Background(), s, ranks, weights, maxPool)
	if err != nil {
		t.Fatal(err)
	}
	pool.Sort()
	return cOf(z, pool)
}

// Above K = 130 the pool holds each row's scores at the summary's knots,
// weighted by the ranks they stand for (adding up to K-1): nearly the
// curve of every score pooled. So does a pool of every 7th row.
func TestKnotPool(t *testing.T) {
	s := esttest.Sample(t, esttest.Pilot(t, 400, 2), scores.Lower)
	ranks, weights := poolRanks(s)
	if len(ranks) >= s.K-1 || ranks[0] != 1 || ranks[len(ranks)-1] != s.K-1 {
		t.Fatalf("knot ranks %v… for K = %d", ranks[:5], s.K)
	}
	total := 0.0
	for _, w := range weights {
		total += w
	}
	if total != float64(s.K-1) {
		t.Errorf("the knots' weights add up to %v, want %d", total, s.K-1)
	}
	res, err := Estimator{}.Fit(context.Background(), s, 4000, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		maxPool int
		tol     float64
	}{{"every score", MaxPool, 0.003}, {"every 7th row (229 rows: sampling noise)", s.N() * (s.K - 1) / 7, 0.01}} {
		full := accuracy.Expected(fullPoolC(t, s, tc.maxPool), s.Weight, 4000)
		d := accuracy.RMSE(res.Curve, full, 4000)
		t.Logf("the knot pool against %s pooled: RMSE %.2g", tc.name, d)
		if d > tc.tol {
			t.Errorf("the knot pool's curve is %.4f (RMSE) from that of %s pooled, want at most %v", d, tc.name, tc.tol)
		}
	}
}

func ExampleEstimator_Fit() {
	// Three classes; each point's scores for its two wrong classes are
	// standardised and pooled.
	m := &scores.Matrix{Classes: []string{"cat", "dog", "emu"}, Labels: []int{0, 1, 2},
		Scores: []float64{0.9, 0.2, 0.1, 0.3, 0.6, 0.5, 0.2, 0.7, 0.4}}
	s, _, _ := accuracy.NewSample(m, scores.Higher)
	res, _ := Estimator{}.Fit(context.Background(), s, 4, nil)
	fmt.Printf("C = %.3f, E_2..E_4 = %.3f %.3f %.3f\n", res.C, res.Curve[2], res.Curve[3], res.Curve[4])
	// Output: C = [0.917 0.917 0.500], E_2..E_4 = 0.778 0.644 0.555
}

// TestSameEverywhere pins the bits of a fit: the method uses only basic
// arithmetic in a fixed order, math.Sqrt, Frexp and Ldexp (exact) and a
// deterministic sort, so it gives the same bits natively and in wasm (the
// wasm tests run this test under node).
func TestSameEverywhere(t *testing.T) { esttest.SameBits(t, Estimator{}, 0xebc9f14202ac5f76) }

// BenchmarkFit times a fit to k2 = 2000 on pilots of 100 and 500 classes
// with 4 points each.
func BenchmarkFit(b *testing.B) { esttest.BenchmarkFit(b, Estimator{}) }

// TestFlatRowBorrowsTheMedianSpread: a flat row (its incorrect scores all
// equal) standardises its gap g = c - m by the median of the other rows'
// sqrt(SS), not by 1 nor by another quantile of them. Five spread rows of
// spreads a factor of 3 to 10 apart and of different shapes give a pool
// in which those choices land in different places; C is the share of the
// pool (the flat row adds 3 zeros) below g / median, recomputed here.
func TestFlatRowBorrowsTheMedianSpread(t *testing.T) {
	type row struct {
		label   int
		correct float64
		inc     [3]float64
	}
	rows := []row{
		{0, 0.35, [3]float64{0, 0.1, 0.3}},
		{1, 0.5, [3]float64{0, 0.6, 0.9}},
		{2, 1.2, [3]float64{0, 1, 2}},
		{3, 4, [3]float64{0, 1.5, 9}},
		{0, 25, [3]float64{0, 25, 30}},
		{1, 0, [3]float64{-0.6, -0.6, -0.6}}, // flat, g = 0.6
	}
	m := &scores.Matrix{Classes: []string{"a", "b", "c", "d"}}
	for _, r := range rows {
		m.Labels = append(m.Labels, r.label)
		sc, j := make([]float64, 4), 0
		for col := range sc {
			if col == r.label {
				sc[col] = r.correct
				continue
			}
			sc[col] = r.inc[j]
			j++
		}
		m.Scores = append(m.Scores, sc...)
	}
	s := esttest.Sample(t, m, scores.Higher)
	res, err := Estimator{}.Fit(context.Background(), s, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	var spread [][]float64
	for _, r := range rows[:5] {
		spread = append(spread, r.inc[:])
	}
	spreads, share := standardisedPool(spread, 3)
	const g = 0.6
	want := share(g / spreads[2])
	for _, other := range []float64{1, spreads[1], spreads[3], spreads[4]} {
		if share(g/other) == want {
			t.Fatalf("g / %v gives the same share as g / the median: the test cannot tell them apart", other)
		}
	}
	if math.Abs(res.C[5]-want) > 1e-12 {
		t.Errorf("C of the flat row = %v, want %v (its gap over the median spread %v)", res.C[5], want, spreads[2])
	}
}

// standardisedPool computes by hand what the pooled method pools from
// points whose incorrect scores are rows (3 each) and from zeros more
// scores of 0 (flat rows' standardised scores): each row's spread
// sqrt(sum (v - mean)^2), sorted ascending, and the share of the pool below
// z, a score equal to z counted half.
func standardisedPool(rows [][]float64, zeros int) (spreads []float64, share func(z float64) float64) {
	var pool []float64
	for _, row := range rows {
		mean := (row[0] + row[1] + row[2]) / 3
		ss := 0.0
		for _, v := range row {
			ss += (v - mean) * (v - mean)
		}
		spreads = append(spreads, math.Sqrt(ss))
		for _, v := range row {
			pool = append(pool, (v-mean)/math.Sqrt(ss))
		}
	}
	slices.Sort(spreads)
	pool = append(pool, make([]float64, zeros)...)
	return spreads, func(z float64) float64 {
		below := 0.0
		for _, p := range pool {
			if p < z {
				below++
			} else if p == z {
				below += 0.5
			}
		}
		return below / float64(len(pool))
	}
}
