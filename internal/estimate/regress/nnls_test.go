package regress

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

func TestNNLSClosedForms(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    []float64
		m, n int
		b    []float64
		want []float64
	}{
		// A = I: x = max(b, 0).
		{"identity", []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}, 3, 3, []float64{1, -2, 3}, []float64{1, 0, 3}},
		// One column: x = max(0, a.b / a.a).
		{"one column", []float64{1, 2, 2}, 3, 1, []float64{1, 1, 1}, []float64{5.0 / 9}},
		{"one column, negative", []float64{1, 2, 2}, 3, 1, []float64{-1, -1, -1}, []float64{0}},
		// Orthogonal columns of norms 2 and 3: x_j = max(0, a_j.b / |a_j|^2).
		{"orthogonal", []float64{2, 0, 0, 3, 0, 0}, 3, 2, []float64{4, -6, 5}, []float64{2, 0}},
		// Unconstrained solution feasible: x = A^-1 b.
		{"interior", []float64{2, 1, 1, 3}, 2, 2, []float64{4, 7}, []float64{1, 2}},
		// b = 0 gives x = 0.
		{"zero", []float64{1, 2, 3, 4}, 2, 2, []float64{0, 0}, []float64{0, 0}},
		// A zero column gets coefficient 0.
		{"zero column", []float64{0, 1, 0, 2}, 2, 2, []float64{1, 2}, []float64{0, 1}},
		// Two identical columns: the fit is reached with one of them.
		{"duplicate columns", []float64{1, 1, 1, 1}, 2, 2, []float64{2, 2}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, err := nnls(tc.a, tc.m, tc.n, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil { // check the fitted values instead
				fit := mulVec(tc.a, tc.m, tc.n, x)
				if d := floats.Distance(fit, tc.b, 2); d > 1e-12 {
					t.Errorf("x = %v fits b = %v to %.2g, want 0", x, tc.b, d)
				}
				checkKKT(t, tc.a, tc.m, tc.n, tc.b, x)
				return
			}
			if !floats.EqualApprox(x, tc.want, 1e-14) {
				t.Errorf("x = %v, want %v", x, tc.want)
			}
		})
	}
}

// TestNNLSBruteForce compares with the exhaustive solution over active sets:
// for every subset S of columns, solve the unconstrained least squares on S;
// among the feasible ones (all coefficients >= 0) the smallest residual is the
// NNLS optimum.
func TestNNLSBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + rng.IntN(5)
		m := n + rng.IntN(5) // full column rank almost surely: a unique solution
		a := make([]float64, m*n)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		b := make([]float64, m)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		if trial%3 == 0 { // b in the cone of A plus a little noise: more active columns
			for i := range b {
				b[i] *= 0.05
			}
			for j := range n {
				if c := rng.Float64(); c < 0.6 {
					for i := range m {
						b[i] += c * a[i*n+j]
					}
				}
			}
		}
		want, wantRes := bruteNNLS(a, m, n, b)
		x, err := nnls(a, m, n, b)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		res := floats.Distance(mulVec(a, m, n, x), b, 2)
		if math.Abs(res-wantRes) > 1e-10*(1+wantRes) {
			t.Errorf("trial %d (%dx%d): residual %.15g, brute force %.15g", trial, m, n, res, wantRes)
		}
		if !floats.EqualApprox(x, want, 1e-8) {
			t.Errorf("trial %d (%dx%d): x = %v, brute force %v", trial, m, n, x, want)
		}
		checkKKT(t, a, m, n, b, x)
	}
}

// TestNNLSUnderdetermined covers more columns than rows (as in the
// subsample fits at s = 0.1): the optimum residual is still unique.
func TestNNLSUnderdetermined(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 100 {
		m := 2 + rng.IntN(3)
		n := m + 1 + rng.IntN(3)
		a := make([]float64, m*n)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		b := make([]float64, m)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		_, wantRes := bruteNNLS(a, m, n, b)
		x, err := nnls(a, m, n, b)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if res := floats.Distance(mulVec(a, m, n, x), b, 2); math.Abs(res-wantRes) > 1e-10*(1+wantRes) {
			t.Errorf("trial %d (%dx%d): residual %.15g, brute force %.15g", trial, m, n, res, wantRes)
		}
		checkKKT(t, a, m, n, b, x)
	}
}

// TestReducedMatchesDirect checks that fitting through the QR-reduced system
// gives the same solution as NNLS on the full design.
func TestReducedMatchesDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dims := range [][2]int{{30, 5}, {8, 8}, {4, 7}} {
		m, n := dims[0], dims[1]
		a := make([]float64, m*n)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		b := make([]float64, m)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		direct, err := nnls(a, m, n, b)
		if err != nil {
			t.Fatal(err)
		}
		red, err := newReduced(a, m, n).fit(b)
		if err != nil {
			t.Fatal(err)
		}
		rd := floats.Distance(mulVec(a, m, n, direct), b, 2)
		rr := floats.Distance(mulVec(a, m, n, red), b, 2)
		if math.Abs(rd-rr) > 1e-12*(1+rd) {
			t.Errorf("%dx%d: residual direct %.15g, reduced %.15g", m, n, rd, rr)
		}
		if m >= n && !floats.EqualApprox(direct, red, 1e-10) {
			t.Errorf("%dx%d: direct %v, reduced %v", m, n, direct, red)
		}
	}
}

func mulVec(a []float64, m, n int, x []float64) []float64 {
	y := make([]float64, m)
	for i := range m {
		y[i] = floats.Dot(a[i*n:(i+1)*n], x)
	}
	return y
}

// checkKKT checks x >= 0, w = A^T (b - A x) <= tol, and w_j = 0 where x_j > 0.
func checkKKT(t *testing.T, a []float64, m, n int, b, x []float64) {
	t.Helper()
	r := mulVec(a, m, n, x)
	floats.SubTo(r, b, r)
	scale := 1e-9 * (1 + floats.Norm(b, 2)) * (1 + math.Sqrt(floats.Dot(a, a)))
	for j := range n {
		w := 0.0
		for i := range m {
			w += a[i*n+j] * r[i]
		}
		if x[j] < 0 {
			t.Errorf("KKT: x[%d] = %g < 0", j, x[j])
		}
		if w > scale {
			t.Errorf("KKT: gradient w[%d] = %g > 0 (x = %v)", j, w, x)
		}
		if x[j] > 0 && math.Abs(w) > scale {
			t.Errorf("KKT: x[%d] = %g > 0 but w[%d] = %g", j, x[j], j, w)
		}
	}
}

// bruteNNLS enumerates all 2^n supports (minimum-norm least squares on each,
// by SVD) and returns the best feasible x and its residual.
func bruteNNLS(a []float64, m, n int, b []float64) ([]float64, float64) {
	best, bestRes := make([]float64, n), floats.Norm(b, 2)
	for mask := 1; mask < 1<<n; mask++ {
		var idx []int
		for j := range n {
			if mask&(1<<j) != 0 {
				idx = append(idx, j)
			}
		}
		as := mat.NewDense(m, len(idx), nil)
		for i := range m {
			for c, j := range idx {
				as.Set(i, c, a[i*n+j])
			}
		}
		var svd mat.SVD
		if !svd.Factorize(as, mat.SVDThin) {
			panic(fmt.Sprintf("SVD failed on support %v", idx))
		}
		rank := svd.Rank(1e-12)
		var z mat.Dense
		svd.SolveTo(&z, mat.NewDense(m, 1, append([]float64(nil), b...)), rank)
		x := make([]float64, n)
		feasible := true
		for c, j := range idx {
			x[j] = z.At(c, 0)
			if x[j] < 0 {
				feasible = false
			}
		}
		if !feasible {
			continue
		}
		if res := floats.Distance(mulVec(a, m, n, x), b, 2); res < bestRes-1e-13 {
			best, bestRes = x, res
		}
	}
	return best, bestRes
}
