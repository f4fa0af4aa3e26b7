// Package kde is the kernel-density baseline of Kay et al. (2008), as adapted by
// Zheng, Achanta & Benjamini (2018) and described in §2 of the CleaneX paper.
//
// For each test point x with correct score c_x and n = K-1 incorrect scores
// s_1..s_n (oriented higher-is-better), C_x is the Gaussian-kernel estimate of
// the CDF of the incorrect scores at the correct score,
//
//	C_x = (1/n) sum_j Phi((c_x - s_j) / h_x),
//
// with a per-point bandwidth h_x chosen by cross-validation on that point's
// incorrect scores. The predicted curve is E_k = sum_x w_x C_x^(k-1).
//
// Bandwidth search. With sd the sample standard deviation of the n incorrect
// scores, h_OS = 1.144 sd n^(-1/5) (Terrell's oversmoothed bandwidth, the
// "hmax" of R's bw.ucv) sets the scale. The criterion is first evaluated on
// the log grid h_OS 2^j, j = -3..3 for LCV (h_OS/8 .. 8 h_OS: the leave-one-out
// likelihood falls to -Inf at both ends, so the range is wide and symmetric
// and the criterion decides) and j = -3..0 for UCV (capped at h_OS as R's
// bw.ucv does, since UCV flattens towards 0 for large h). The best grid point's
// neighbours then bracket Brent's method on log h, stopped at a tolerance of
// 0.01 in log h (1% in h). About 15 criterion evaluations per point.
//
// Criterion evaluation. The exact leave-one-out criteria cost O(n^2) kernel
// evaluations each, too slow for the browser at n = 499 (about 125,000 exp
// calls per evaluation per point). They are computed instead on a linearly
// binned copy of the scores whose bin width is tied to the bandwidth (2, 4 or
// 8 bins per bandwidth; see binGrid), so the kernel weights on bin offsets are
// the same for every h (no exp calls per evaluation), with the kernel variance
// corrected for the variance binning adds. Each point's own binned
// contribution is subtracted exactly, and for points whose leave-one-out
// density is tiny (all neighbours in the kernel tail, where binning is least
// accurate relatively) the LCV term is recomputed by the exact direct sum over
// the sorted window. The tests hold this against the same search on the direct
// O(n^2) criteria, with stated tolerances (TestBinnedMatchesExact). C_x itself
// is evaluated exactly: terms beyond 8.3 h, which are 0 or 1 in float64, are
// counted instead of evaluated.
package kde

import (
	"context"
	"fmt"
	"github.com/cleanex/cleanex/internal/detmath"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
)

// Selector chooses the cross-validation criterion for the per-point bandwidth.
type Selector int

const (
	// LCV is leave-one-out likelihood cross-validation: h maximises
	// sum_i log fhat_{-i}(s_i), fhat_{-i} the kernel density of the other n-1
	// scores. It is the criterion of Kay et al. and the default.
	LCV Selector = iota
	// UCV is least-squares (unbiased) cross-validation: h minimises
	// int fhat^2 - (2/n) sum_i fhat_{-i}(s_i).
	UCV
)

// String returns "lcv" or "ucv".
func (s Selector) String() string {
	switch s {
	case LCV:
		return "lcv"
	case UCV:
		return "ucv"
	}
	return fmt.Sprintf("Selector(%d)", int(s))
}

// ParseSelector reads "lcv" or "ucv" (the empty string means the default, LCV).
func ParseSelector(s string) (Selector, error) {
	switch s {
	case "lcv", "LCV", "":
		return LCV, nil
	case "ucv", "UCV":
		return UCV, nil
	}
	return LCV, fmt.Errorf("kde bandwidth selector %q: use lcv or ucv", s)
}

// Estimator is the KDE baseline. The zero value uses LCV.
type Estimator struct {
	// Bandwidth is the cross-validation criterion for each point's bandwidth.
	Bandwidth Selector
}

// Name returns "kde".
func (Estimator) Name() string { return "kde" }

const (
	// osFactor is the constant of Terrell's oversmoothed bandwidth for the
	// Gaussian kernel, h_OS = 1.144 sd n^(-1/5).
	osFactor = 1.144
	// lcvLow, lcvHigh: the LCV search range as multiples of h_OS. The
	// leave-one-out likelihood tends to -Inf both as h -> 0 (without ties) and
	// as h -> Inf, so the range is wide and symmetric in log h, leaving the
	// choice to the criterion.
	lcvLow, lcvHigh = 1.0 / 8, 8.0
	// ucvLow, ucvHigh: the UCV search range, capped at h_OS as in R's bw.ucv
	// (UCV tends to 0 from below as h -> Inf and can be flat there).
	ucvLow, ucvHigh = 1.0 / 8, 1.0
	// logTol is the absolute tolerance in log h of the Brent refinement.
	logTol = 0.01
	// phiCut: Phi(-phiCut) < 1e-16, so kernel CDF terms beyond it are taken as 0 or 1.
	phiCut = 8.3
	// kernCut: exp(-kernCut^2/2) < 1e-16, the exact-sum truncation of the Gaussian kernel.
	kernCut = 8.6
	// coarseBinsPerH, fineBinsPerH and ucvFineBinsPerH are the bins per kernel
	// bandwidth of the binned criteria: LCV grid search, LCV Brent refinement
	// and the UCV grid search, UCV Brent refinement (see workspace).
	coarseBinsPerH  = 2
	fineBinsPerH    = 4
	ucvFineBinsPerH = 8
	// lcvCut and ucvCut truncate the binned kernels exp(-z^2/2) and exp(-z^2/4)
	// where they fall below 1.5e-8 of their peak. In the LCV the dropped mass
	// is at most n 1.5e-8, below 1.5e-4 relative to any binned term (terms
	// under exactBelow are recomputed exactly); in the UCV it changes the
	// criterion by less than 1e-8 relative to its leading term.
	lcvCut = 6
	ucvCut = 8.5
	// exactBelow: LCV terms whose binned leave-one-out kernel sum is below this
	// (in units of the kernel's peak) are recomputed exactly.
	exactBelow = 0.05
	// reportEvery is the wall-clock interval between progress reports.
	reportEvery = 50 * time.Millisecond
	// checkEvery is how many points are fitted between context checks.
	checkEvery = 64
)

// Fit computes C_x for every point (bandwidth by the chosen criterion) and
// returns E_k = sum_x w_x C_x^(k-1) for k = 0..k2, with Result.C = C_x.
func (e Estimator) Fit(ctx context.Context, s *accuracy.Sample, k2 int, progress func(estimate.Progress)) (estimate.Result, error) {
	if e.Bandwidth != LCV && e.Bandwidth != UCV {
		return estimate.Result{}, fmt.Errorf("kde: unknown bandwidth selector %d", int(e.Bandwidth))
	}
	if k2 < 2 {
		return estimate.Result{}, fmt.Errorf("kde: k2 = %d, need at least 2", k2)
	}
	if err := ctx.Err(); err != nil {
		return estimate.Result{}, err
	}
	n := s.N()
	if c := s.Precomputed(e.Key()); c != nil {
		// The Sample was built from rows that are gone, with C_x computed
		// from each row by PointScorer as below.
		estimate.Report(progress, estimate.Progress{Method: e.Name(), Step: n, Total: n, Loss: math.NaN()})
		return estimate.Result{Curve: accuracy.Expected(c, s.Weight, k2), C: slices.Clone(c)}, nil
	}
	c := make([]float64, n)
	ps := e.NewPointScorer(s.K)
	last := time.Now()
	for i := range n {
		if i%checkEvery == 0 && i > 0 {
			if err := ctx.Err(); err != nil {
				return estimate.Result{}, err
			}
			if now := time.Now(); now.Sub(last) >= reportEvery {
				last = now
				estimate.Report(progress, estimate.Progress{Method: e.Name(), Step: i, Total: n, Loss: math.NaN()})
			}
		}
		c[i] = ps.C(s.Correct[i], s.IncorrectRow(i), s.R[i])
	}
	estimate.Report(progress, estimate.Progress{Method: e.Name(), Step: n, Total: n, Loss: math.NaN()})
	return estimate.Result{Curve: accuracy.Expected(c, s.Weight, k2), C: c}, nil
}

// Key names the per-point C_x of this estimator's setting among a Sample's
// precomputed values ("kde:lcv" or "kde:ucv"; see accuracy.Sample.Precomputed).
func (e Estimator) Key() string { return "kde:" + e.Bandwidth.String() }

// PointScorer computes one point's C_x exactly as Fit does, for a caller
// that sees each point's scores once (rows computed in blocks and dropped).
// It is not safe for concurrent use: give each goroutine its own.
type PointScorer struct {
	sel    Selector
	ws     *workspace
	scaled []float64
}

// NewPointScorer returns a PointScorer for points with k-1 incorrect scores.
func (e Estimator) NewPointScorer(k int) *PointScorer {
	return &PointScorer{sel: e.Bandwidth, ws: newWorkspace(), scaled: make([]float64, max(k-1, 0))}
}

// C returns the point's C_x from its correct score, its incorrect scores
// sorted ascending (oriented higher-is-better) and R_x, the number of them
// strictly below the correct score: the bandwidth is chosen on the scores
// (the estimator's criterion) and ties add 0.
func (p *PointScorer) C(correct float64, inc []float64, below int) float64 {
	// Ties are found on the scores as given, so the tie rule does not
	// depend on the rescaling below.
	tlo := below
	thi := tlo
	for thi < len(inc) && inc[thi] == correct {
		thi++
	}
	if cap(p.scaled) < len(inc) {
		p.scaled = make([]float64, len(inc))
	}
	cx, x := standardise(correct, inc, p.scaled)
	h := p.ws.bandwidth(x, p.sel)
	return kernelCDFTies(cx, x, h, tlo, thi)
}

// kernelCDF returns (1/n) sum_j Phi((c - s_j)/h) over the sorted scores s
// that differ from c; a score equal to c is a tie, which the correct class
// loses (docs/formats.md §1), so it adds 0. h = 0 gives the empirical CDF, the share
// of scores strictly below c. Terms with |c - s_j| > 8.3 h lie within 1e-16 of
// 0 or 1 and are counted instead of evaluated.
func kernelCDF(c float64, s []float64, h float64) float64 {
	tlo := sort.SearchFloat64s(s, c)
	thi := tlo
	for thi < len(s) && s[thi] == c {
		thi++
	}
	return kernelCDFTies(c, s, h, tlo, thi)
}

// kernelCDFTies is kernelCDF with the ties given: s[tlo:thi] are the scores
// that tie c and add 0 (s[:tlo] are below c).
func kernelCDFTies(c float64, s []float64, h float64, tlo, thi int) float64 {
	n := len(s)
	if n == 0 {
		return 1
	}
	if h <= 0 {
		return float64(tlo) / float64(n)
	}
	lo := sort.SearchFloat64s(s, c-phiCut*h) // s[:lo] < c - 8.3h: Phi = 1
	hi := sort.SearchFloat64s(s, c+phiCut*h) // s[hi:] >= c + 8.3h: Phi = 0
	sum := float64(lo)
	for j := lo; j < hi; j++ {
		if j >= tlo && j < thi {
			continue
		}
		sum += 0.5 * detmath.Erfc((s[j]-c)/(h*math.Sqrt2))
	}
	return sum / float64(n)
}

// standardise divides the correct score c and the sorted incorrect scores inc
// by the largest |inc_j| (buf receives the scaled scores), so the bandwidth
// search and C_x run on numbers of order 1 whatever the scale of the scores:
// KDE's answer does not depend on the unit (C_x is invariant under s -> a s,
// a > 0), and squares of scores near 1e308 or 1e-200 neither overflow nor
// underflow. When every inc_j is 0 the scores are returned as they are.
func standardise(c float64, inc, buf []float64) (float64, []float64) {
	n := len(inc)
	if n == 0 {
		return c, inc
	}
	m := max(math.Abs(inc[0]), math.Abs(inc[n-1]))
	if !(m > 0) || math.IsInf(m, 0) {
		return c, inc
	}
	buf = buf[:n]
	for j, v := range inc {
		buf[j] = v / m
	}
	return c / m, buf
}

// oversmoothed returns Terrell's h_OS = 1.144 sd n^(-1/5) of x (0 when n < 2 or sd = 0).
func oversmoothed(x []float64) float64 {
	n := len(x)
	if n < 2 {
		return 0
	}
	sd := math.Sqrt(detmath.Variance(x)) // the same bits natively and in wasm
	if !(sd > 0) || math.IsInf(sd, 0) {
		return 0
	}
	return osFactor * sd * detmath.Pow(float64(n), -0.2)
}

// brentMax returns an argument in [lo, hi] at which f is (locally) largest,
// starting from x0 in (lo, hi), by Brent's method: parabolic interpolation
// through the three best points,
// with golden-section steps where the parabola is not trusted (R. P. Brent,
// Algorithms for Minimization without Derivatives, 1973, ch. 5, procedure
// localmin). tol is the absolute tolerance on the argument. gonum's optimize
// package has no bounded scalar optimiser, so it is written here.
func brentMax(f func(float64) float64, lo, hi, x0, tol float64) float64 {
	const cgold = 0.3819660112501051 // (3 - sqrt 5) / 2
	// Minimise g = -f; -Inf from f (a zero leave-one-out density) becomes +Inf.
	g := func(x float64) float64 { return -f(x) }
	a, b := lo, hi
	x := x0
	w, v := x, x
	fx := g(x)
	fw, fv := fx, fx
	d, e := 0.0, 0.0
	for {
		m := (a + b) / 2
		if math.Abs(x-m) <= 2*tol-(b-a)/2 {
			return x
		}
		useGolden := true
		if math.Abs(e) > tol && !math.IsInf(fx, 0) && !math.IsInf(fw, 0) && !math.IsInf(fv, 0) {
			// Parabola through (v, fv), (w, fw), (x, fx).
			r := (x - w) * (fx - fv)
			q := (x - v) * (fx - fw)
			p := (x-v)*q - (x-w)*r
			q = 2 * (q - r)
			if q > 0 {
				p = -p
			} else {
				q = -q
			}
			if math.Abs(p) < math.Abs(q*e/2) && p > q*(a-x) && p < q*(b-x) {
				e, d = d, p/q
				u := x + d
				if u-a < 2*tol || b-u < 2*tol {
					d = math.Copysign(tol, m-x)
				}
				useGolden = false
			}
		}
		if useGolden {
			if x < m {
				e = b - x
			} else {
				e = a - x
			}
			d = cgold * e
		}
		u := x + d
		if math.Abs(d) < tol {
			u = x + math.Copysign(tol, d)
		}
		fu := g(u)
		if fu <= fx {
			if u < x {
				b = x
			} else {
				a = x
			}
			v, fv, w, fw, x, fx = w, fw, x, fx, u, fu
			continue
		}
		if u < x {
			a = u
		} else {
			b = u
		}
		if fu <= fw || w == x {
			v, fv, w, fw = w, fw, u, fu
		} else if fu <= fv || v == x || v == w {
			v, fv = u, fu
		}
	}
}

// searchBandwidth maximises a cross-validation criterion over h in
// [lo, hi] h_OS: first the coarse criterion on the grid h_OS 2^j (j from
// log2 lo to log2 hi), then the fine criterion by Brent's method on log h
// between the grid neighbours of the best grid point, starting from it. It returns 0 when h_OS
// is 0 (fewer than 2 distinct scores).
func searchBandwidth(x []float64, coarse, fine func(h float64) float64, lo, hi float64) float64 {
	hos := oversmoothed(x)
	if hos == 0 {
		return 0
	}
	jlo := int(math.Round(detmath.Log(lo) / math.Ln2))
	jhi := int(math.Round(detmath.Log(hi) / math.Ln2))
	best, bestF := jlo, math.Inf(-1)
	for j := jlo; j <= jhi; j++ {
		// ">=" keeps the largest h among equal values (two -Inf: smoother wins).
		if f := coarse(hos * math.Ldexp(1, j)); f >= bestF {
			best, bestF = j, f
		}
	}
	// Brent starts at the best grid point, or inside the bracket when that
	// point is an end of the range.
	lb := detmath.Log(hos)
	a := lb + float64(max(best-1, jlo))*math.Ln2
	b := lb + float64(min(best+1, jhi))*math.Ln2
	x0 := lb + float64(best)*math.Ln2
	if best == jlo || best == jhi {
		x0 = (a + b) / 2
	}
	lh := brentMax(func(lh float64) float64 { return fine(detmath.Exp(lh)) }, a, b, x0, logTol)
	return detmath.Exp(lh)
}
