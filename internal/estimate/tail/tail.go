// Package tail is the peaks-over-threshold method. Every test point's
// incorrect scores above its own threshold u_x, its score at rank m from the
// top (m about a quarter of the K-1 incorrect scores), are divided by their
// mean excess σ_x, and the standardised excesses of all points are pooled
// into one tail shape G (the share of the pool above y, ties counted half,
// with half a value added above the pool so that G > 0):
//
//	y_x = (c_x - u_x) / σ_x,   1 - C_x = (m / (K-1)) G(y_x)   when c_x > u_x,
//	C_x = R_x / (K-1)   otherwise (the plug-in share),
//	E_k = sum_x w_x C_x^(k-1).
//
// The assumption is the one of extreme-value statistics: beyond a high
// threshold the points' incorrect scores share one tail shape up to scale.
// Unlike the pooled method (internal/estimate/pooled) it leaves the body of
// each point's scores alone, and it keeps each point's own record up to its
// threshold. A point whose excesses are all 0 gets the plug-in share.
//
// m is the smallest knot rank of a per-point summary (internal/summary;
// every rank up to K = 130) at or above ceil((K-1)/4), and at least 2. The
// excesses are taken at the knot ranks above m, each weighted by the ranks
// it stands for, so that a score matrix and its summary give the same
// curve, bit for bit. Every point's scores are first scaled by a power of two
// that brings its largest |score| into [1/2, 1) (exact, and y_x does not
// change under it), so scores of any magnitude give finite excesses; C_x is
// the same under any positive affine change of a point's scores.
//
// It has no seed and is not fitted to the observed curve. The quarter is a
// round choice: on the bank (docs/recommendation.md) the recommended
// estimate was about as accurate with a half, and worse with a tenth.
// (Written by hand: it is this project's method; no library has it.)
package tail

import (
	"context"
	"errors"
	"math"
	"slices"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/estimate/rankpool"
	"github.com/cleanex/cleanex/internal/summary"
)

// Name is the method's registry name.
const Name = "tail"

// Share is the share of a point's incorrect scores above its threshold: m is
// the smallest knot rank at or above ceil(Share (K-1)).
const Share = 0.25

// MaxPool is the most standardised excesses the pool holds
// (rankpool.MaxValues): beyond it, every j-th point's excesses are pooled.
const MaxPool = rankpool.MaxValues

// ErrTooFewClasses is returned for a pilot of fewer than 3 classes: a point
// needs a threshold and at least one score above it.
var ErrTooFewClasses = errors.New("tail: needs at least 3 classes (a threshold and a score above it per point)")

// Estimator is the peaks-over-threshold method. It has no options.
type Estimator struct{}

// Name returns "tail".
func (Estimator) Name() string { return Name }

// Fit returns the tail curve for k = 0..k2 and the C_x of every point.
func (e Estimator) Fit(ctx context.Context, s *accuracy.Sample, k2 int, progress func(estimate.Progress)) (estimate.Result, error) {
	if s.K < 3 {
		return estimate.Result{}, ErrTooFewClasses
	}
	report := func(step int) {
		estimate.Report(progress, estimate.Progress{Method: Name, Step: step, Total: 3, Loss: math.NaN()})
	}
	m, ranks, weights := excessRanks(s)
	ys, pool, err := excesses(ctx, s, m, ranks, weights, MaxPool)
	if err != nil {
		return estimate.Result{}, err
	}
	report(1)
	pool.Sort()
	if err := ctx.Err(); err != nil {
		return estimate.Result{}, err
	}
	report(2)
	c := cOf(s, m, ys, pool)
	res := estimate.Result{Curve: accuracy.Expected(c, s.Weight, k2), C: c}
	report(3)
	return res, nil
}

// excessRanks returns the threshold rank m (see the package doc), the knot
// ranks above it (1 = the highest incorrect score) and the weight of each,
// the ranks up to m nearest to it (rankpool.Weights with end m: all 1 when
// every rank is a knot).
func excessRanks(s *accuracy.Sample) (m int, ranks []int, weights []float64) {
	knots := s.KnotRanks()
	if knots == nil {
		knots = summary.KnotRanks(s.K, summary.DefaultQuantiles)
	}
	want := max(2, int(math.Ceil(Share*float64(s.K-1))))
	i, _ := slices.BinarySearch(knots, want)
	m = knots[min(i, len(knots)-1)]
	for _, r := range knots {
		if r < m {
			ranks = append(ranks, r)
		}
	}
	return m, ranks, rankpool.Weights(ranks, m)
}

// excesses returns each point's standardised correct score
// y_x = (c_x - u_x) / σ_x (NaN when it is at or below its threshold or has
// no excess) and the pool of
// standardised excesses at ranks (of every point, or of every j-th, j the
// smallest that keeps it within maxPool).
func excesses(ctx context.Context, s *accuracy.Sample, m int, ranks []int, weights []float64, maxPool int) ([]float64, *rankpool.Pool, error) {
	n := s.N()
	every := max(1, (n*len(ranks)+maxPool-1)/maxPool) // pool every j-th row
	pool := rankpool.New(weights, (n+every-1)/every)
	ys := make([]float64, n)
	ex := make([]float64, len(ranks))
	for x := range n {
		if x%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		sigma, above := pointExcesses(s, x, m, ranks, weights, ex)
		ys[x] = math.NaN()
		if !(sigma > 0) {
			continue // no excess: the plug-in share
		}
		if above > 0 {
			ys[x] = above / sigma
		}
		if x%every != 0 {
			continue
		}
		for j := range ranks {
			pool.Add(j, ex[j]/sigma)
		}
	}
	return ys, pool, nil
}

// pointExcesses fills ex with point x's incorrect scores at ranks minus its
// threshold u_x (its incorrect score at rank m), all first scaled by the
// power of two that brings the largest |score| it reads into [1/2, 1), and
// returns their weighted mean σ_x and the correct score's c_x - u_x in the
// same scale.
func pointExcesses(s *accuracy.Sample, x, m int, ranks []int, weights, ex []float64) (sigma, above float64) {
	f := accuracy.PowerOfTwoBelow(maxAbs(s, x, m, ranks))
	u := s.IncorrectAt(x, m) * f
	sum, wsum := 0.0, 0.0
	for j, r := range ranks {
		ex[j] = s.IncorrectAt(x, r)*f - u
		sum += weights[j] * ex[j]
		wsum += weights[j]
	}
	return sum / wsum, s.Correct[x]*f - u
}

// maxAbs returns the largest |score| among point x's correct score and its
// incorrect scores at rank m and at ranks: the only scores the method reads.
func maxAbs(s *accuracy.Sample, x, m int, ranks []int) float64 {
	a := max(math.Abs(s.Correct[x]), math.Abs(s.IncorrectAt(x, m)))
	for _, r := range ranks {
		a = max(a, math.Abs(s.IncorrectAt(x, r)))
	}
	return a
}

// cOf returns C_x: the plug-in share R_x / (K-1) for a point at or below
// its threshold, else 1 - (m / (K-1)) G(y_x), with G(y) = (W(pool > y) +
// W(pool = y) / 2 + 1/2) / (W + 1) over the sorted pool of total weight W.
func cOf(s *accuracy.Sample, m int, ys []float64, pool *rankpool.Pool) []float64 {
	total := pool.Total()
	share := float64(m) / float64(s.K-1)
	c := make([]float64, len(ys))
	for x, y := range ys {
		if math.IsNaN(y) {
			c[x] = float64(s.R[x]) / float64(s.K-1)
			continue
		}
		c[x] = 1 - share*(0.5+pool.Above(y))/(total+1)
	}
	return c
}
