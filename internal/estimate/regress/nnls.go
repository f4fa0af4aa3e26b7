package regress

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// nnlsMaxCond is the largest condition number (of the passive columns scaled
// to unit norm) that the least-squares subproblem accepts: a column that would
// push it higher is numerically dependent on the passive set and is not added,
// the test Lawson & Hanson's NNLS makes on each entering column (there on the
// Householder pivot, at about 100 eps of the column norm).
const nnlsMaxCond = 1e13

// errNNLSIter is returned if the active-set iteration does not finish.
var errNNLSIter = errors.New("nnls: active-set iteration did not converge")

// nnls solves min ||A x - b||_2 subject to x >= 0 (A is m x n row-major) by
// the active-set algorithm of Lawson & Hanson (Solving Least Squares Problems,
// 1974, ch. 23). Hand-written: gonum has no non-negative least squares.
// The least-squares subproblem on the passive (free) set P uses gonum's QR on
// the columns of P scaled to unit norm. At the solution the KKT conditions hold:
// x >= 0, w = A^T (b - A x) <= tol and w_j = 0 where x_j > 0.
func nnls(a []float64, m, n int, b []float64) ([]float64, error) {
	if len(a) != m*n || len(b) != m {
		return nil, fmt.Errorf("nnls: A has %d entries for %d x %d, b has %d", len(a), m, n, len(b))
	}
	x := make([]float64, n)
	if n == 0 {
		return x, nil
	}
	norms := make([]float64, n)
	for i := 0; i < m; i++ {
		for j, v := range a[i*n : (i+1)*n] {
			norms[j] += v * v
		}
	}
	frob := 0.0
	for j := range norms {
		frob += norms[j]
		norms[j] = math.Sqrt(norms[j])
	}
	const eps = 0x1p-52
	tol := 10 * eps * math.Sqrt(frob) * floats.Norm(b, 2)

	passive := make([]bool, n)
	rejected := make([]bool, n)
	w := make([]float64, n)
	r := make([]float64, m)
	gradient := func() {
		copy(r, b)
		for i := 0; i < m; i++ {
			row := a[i*n : (i+1)*n]
			r[i] -= floats.Dot(row, x)
		}
		for j := range w {
			w[j] = 0
		}
		for i := 0; i < m; i++ {
			floats.AddScaled(w, r[i], a[i*n:(i+1)*n])
		}
	}
	sub := &passiveLS{a: a, m: m, n: n, norms: norms, b: b}
	gradient()
	for added := 0; ; {
		t, best := -1, tol
		for j := range w {
			if !passive[j] && !rejected[j] && norms[j] > 0 && w[j] > best {
				t, best = j, w[j]
			}
		}
		if t < 0 {
			return x, nil
		}
		passive[t] = true
		z, ok := sub.solve(passive)
		if !ok || z[t] <= 0 {
			// t is numerically dependent on P (or roundoff made its
			// coefficient non-positive): leave it out and try the next.
			passive[t] = false
			rejected[t] = true
			continue
		}
		clear(rejected)
		if added++; added > 3*n+10 {
			return x, errNNLSIter
		}
		for inner := 0; ; inner++ {
			if inner > n+10 {
				return x, errNNLSIter
			}
			alpha, hit := 2.0, -1
			for j := range z {
				if passive[j] && z[j] <= 0 {
					// Step to where x_j reaches 0 (at once if x_j = z_j = 0).
					v := 0.0
					if den := x[j] - z[j]; den > 0 {
						v = x[j] / den
					}
					if v < alpha {
						alpha, hit = v, j
					}
				}
			}
			if hit < 0 {
				break
			}
			for j := range x {
				if passive[j] {
					x[j] += alpha * (z[j] - x[j])
				}
			}
			passive[hit] = false
			x[hit] = 0
			for j := range x {
				if passive[j] && x[j] <= 0 {
					passive[j] = false
					x[j] = 0
				}
			}
			// Dropping columns keeps P independent, so this solve succeeds.
			if z, ok = sub.solve(passive); !ok {
				return x, errors.New("nnls: passive subproblem became singular")
			}
		}
		copy(x, z)
		gradient()
	}
}

// passiveLS solves the unconstrained least squares on the passive columns.
type passiveLS struct {
	a     []float64
	m, n  int
	norms []float64
	b     []float64
}

// solve returns z with z_P = argmin ||A_P z_P - b|| and z_j = 0 off P, and
// false when A_P (columns scaled to unit norm) is rank deficient: more columns
// than rows, or a condition number above nnlsMaxCond.
func (s *passiveLS) solve(passive []bool) ([]float64, bool) {
	var idx []int
	for j, p := range passive {
		if p {
			idx = append(idx, j)
		}
	}
	z := make([]float64, s.n)
	if len(idx) == 0 {
		return z, true
	}
	if len(idx) > s.m {
		return nil, false
	}
	ap := mat.NewDense(s.m, len(idx), nil)
	for i := 0; i < s.m; i++ {
		row := s.a[i*s.n : (i+1)*s.n]
		for c, j := range idx {
			ap.Set(i, c, row[j]/s.norms[j])
		}
	}
	var qr mat.QR
	qr.Factorize(ap)
	if c := qr.Cond(); !(c <= nnlsMaxCond) {
		return nil, false
	}
	var sol mat.VecDense
	if err := qr.SolveVecTo(&sol, false, mat.NewVecDense(s.m, s.b)); err != nil {
		return nil, false
	}
	for c, j := range idx {
		z[j] = sol.AtVec(c) / s.norms[j]
	}
	return z, true
}

// reduced is a least-squares design A (m x n) factored once as A = Q R
// (LAPACK dgeqrf/dorgqr through gonum), so that for every right-hand side y
//
//	||A x - y||^2 = ||R x - c||^2 + const,  c = Q^T y,  Q m x p,  p = min(m, n),
//
// and the NNLS fit runs on the p x n system (R, c) instead of the m x n one.
type reduced struct {
	m, n int
	qt   []float64 // p x m row-major: Q^T
	r    []float64 // p x n row-major, upper trapezoidal
}

// newReduced factors the m x n row-major design a (a is not modified).
func newReduced(a []float64, m, n int) *reduced {
	p := min(m, n)
	d := &reduced{m: m, n: n, r: make([]float64, p*n), qt: make([]float64, p*m)}
	f := blas64.General{Rows: m, Cols: n, Stride: n, Data: append([]float64(nil), a...)}
	tau := make([]float64, p)
	work := []float64{0}
	lapack64.Geqrf(f, tau, work, -1)
	work = make([]float64, max(int(work[0]), n))
	lapack64.Geqrf(f, tau, work, len(work))
	for i := 0; i < p; i++ {
		copy(d.r[i*n+i:(i+1)*n], f.Data[i*n+i:(i+1)*n])
	}
	// The first p columns of Q, from the reflectors in the first p columns.
	q := blas64.General{Rows: m, Cols: p, Stride: n, Data: f.Data}
	lapack64.Orgqr(q, tau, work[:1], -1)
	if int(work[0]) > len(work) {
		work = make([]float64, int(work[0]))
	}
	lapack64.Orgqr(q, tau, work, len(work))
	for i := 0; i < m; i++ {
		for j := 0; j < p; j++ {
			d.qt[j*m+i] = f.Data[i*n+j]
		}
	}
	return d
}

// fit returns the NNLS coefficients for the right-hand side y (length m).
func (d *reduced) fit(y []float64) ([]float64, error) {
	if len(y) != d.m {
		return nil, fmt.Errorf("nnls: right-hand side has %d rows, design %d", len(y), d.m)
	}
	p := min(d.m, d.n)
	c := make([]float64, p)
	for j := range c {
		c[j] = floats.Dot(d.qt[j*d.m:(j+1)*d.m], y)
	}
	return nnls(d.r, p, d.n, c)
}
