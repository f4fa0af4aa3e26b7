// Package pooled is the location-scale pooled method. Every test point's
// incorrect scores are standardised by their own mean m_x and standard
// deviation s_x, and all of them are pooled into one reference
// distribution; C_x is the share of that pool below the point's
// standardised correct score (ties count half):
//
//	z_x = (c_x - m_x) / s_x,   C_x = (W(pool < z_x) + W(pool = z_x) / 2) / W,   E_k = sum_x w_x C_x^(k-1),
//
// with C_x at most 1 - 1/(2W), W the pool's total weight. The assumption is
// that the points' incorrect scores share one shape up to location and
// scale; pooling then resolves C_x to about 1/(N (K-1)) instead of the
// plug-in's 1/(K-1), which is what an extrapolation far beyond K needs.
//
// The pool holds each row's incorrect scores at the knot ranks of a
// per-point summary (internal/summary; every rank up to K = 130), each
// weighted by the ranks it stands for, and the means and spreads come from
// the row's mean and sum of squares that a summary keeps: so a score matrix
// and its summary give the same curve, bit for bit. A point whose incorrect
// scores are all equal has no spread of its own and borrows the median
// spread of the other points.
//
// It has no tuning parameter and no seed, and it is not fitted to the
// observed curve. (Written by hand: it is this project's method, measured in
// docs/recommendation.md; no library has it.)
package pooled

import (
	"context"
	"errors"
	"math"
	"slices"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/estimate/rankpool"
	"github.com/cleanex/cleanex/internal/summary"
	"gonum.org/v1/gonum/stat"
)

// Name is the method's registry name.
const Name = "pooled"

// MaxPool is the most standardised scores the pool holds
// (rankpool.MaxValues): beyond it, every j-th point's row is pooled.
const MaxPool = rankpool.MaxValues

// ErrTooFewClasses is returned for a pilot of fewer than 3 classes: a point
// needs at least two incorrect scores to have a spread.
var ErrTooFewClasses = errors.New("pooled: needs at least 3 classes (two incorrect scores per point to standardise by)")

// Estimator is the pooled method. It has no options.
type Estimator struct{}

// Name returns "pooled".
func (Estimator) Name() string { return Name }

// Fit returns the pooled curve for k = 0..k2 and the C_x of every point.
func (e Estimator) Fit(ctx context.Context, s *accuracy.Sample, k2 int, progress func(estimate.Progress)) (estimate.Result, error) {
	if s.K < 3 {
		return estimate.Result{}, ErrTooFewClasses
	}
	report := func(step int) {
		estimate.Report(progress, estimate.Progress{Method: Name, Step: step, Total: 3, Loss: math.NaN()})
	}
	ranks, weights := poolRanks(s)
	z, pool, err := standardise(ctx, s, ranks, weights, MaxPool)
	if err != nil {
		return estimate.Result{}, err
	}
	report(1)
	pool.Sort()
	if err := ctx.Err(); err != nil {
		return estimate.Result{}, err
	}
	report(2)
	c := cOf(z, pool)
	res := estimate.Result{Curve: accuracy.Expected(c, s.Weight, k2), C: c}
	report(3)
	return res, nil
}

// cOf returns C_x for the standardised correct scores z against the sorted
// pool: the weight of the pool below z_x plus half the weight equal to it,
// over the pool's total weight W, at most 1 - 1/(2W).
func cOf(z []float64, pool *rankpool.Pool) []float64 {
	total := pool.Total()
	c := make([]float64, len(z))
	top := 1 - 0.5/total
	for x, zx := range z {
		c[x] = min(pool.Below(zx)/total, top)
	}
	return c
}

// poolRanks returns the ranks from the top (1 = the highest incorrect
// score) that every point adds to the pool, and the weight of each: a
// summary's knot ranks, or for a score matrix those of a summary with
// summary.DefaultQuantiles steps, each standing for the ranks up to K-1
// nearest to it (rankpool.Weights with end K: the weights sum to K-1, and
// are all 1 when the knots are every rank).
func poolRanks(s *accuracy.Sample) (ranks []int, weights []float64) {
	ranks = s.KnotRanks()
	if ranks == nil {
		ranks = summary.KnotRanks(s.K, summary.DefaultQuantiles)
	}
	return ranks, rankpool.Weights(ranks, s.K)
}

// tiny is the largest |score| of a point below which a summary's moments
// may have lost digits to underflow; they are then taken from the row.
const tiny = 0x1p-500

// spreadFloor is the smallest sum of squared deviations of a point's
// incorrect scores, relative to that of all its K scores, treated as a
// spread: below it the incorrect scores are taken as all equal (what is
// left is rounding), their standardised values are 0, and the correct
// score is measured in the median spread of the other points (standardise).
const spreadFloor = 1e-12

// standardise returns each point's standardised correct score and the pool
// of standardised incorrect scores at ranks (of every point, or of every
// j-th, j the smallest that keeps it within maxPool), grouped by weight. A point's
// mean and sum of squares come from those of its K scores, mu and M2 (as
// accuracy.SummarisePoint sums them, so a score matrix and its summary give
// the same numbers), with the correct score c taken out:
//
//	m = (K mu - c) / (K - 1),   SS = M2 - (c - mu)(c - m),   s = sqrt(SS),
//
// after scaling the row by a power of two that brings its largest |score|
// into [1/2, 1) (exact, and z does not change under it), so that scores of
// any magnitude give finite moments. s is a sum, not a standard deviation:
// every point has the same K-1 scores, so the factor cancels.
func standardise(ctx context.Context, s *accuracy.Sample, ranks []int, weights []float64, maxPool int) ([]float64, *rankpool.Pool, error) {
	n, k := s.N(), float64(s.K)
	every := (n*len(ranks) + maxPool - 1) / maxPool // pool every j-th row
	pool := rankpool.New(weights, (n+every-1)/every)
	z := make([]float64, n)
	var scaled []float64
	var spreads []float64 // the raw spread sqrt(SS) of every row that has one
	var flat, ties []int  // the rows without one, and their ties
	var gap []float64     // and c - m in raw units
	for x := range n {
		if x%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		var p accuracy.PointSummary
		if s.Summarised() {
			p = s.Point(x, nil)
		}
		row := []float64(nil)
		if !s.Summarised() {
			row = s.IncorrectRow(x)
			p.MaxAbs = math.Abs(s.Correct[x])
			for _, v := range row {
				p.MaxAbs = max(p.MaxAbs, math.Abs(v))
			}
		}
		f := accuracy.PowerOfTwoBelow(p.MaxAbs)
		c := s.Correct[x] * f
		mu, m2 := p.Mean*f, p.M2*f*f
		if !s.Summarised() || math.IsInf(m2, 0) || math.IsInf(mu, 0) || p.MaxAbs < tiny {
			// From the row scaled by f: the same numbers as the summary's
			// scaled (scaling by a power of two is exact) unless those
			// overflowed or underflowed.
			if row == nil {
				row = s.IncorrectRow(x)
			}
			scaled = slices.Grow(scaled[:0], len(row))[:len(row)]
			for j, v := range row {
				scaled[j] = v * f
			}
			q := accuracy.SummarisePoint(s.Labels[x], c, scaled, s.R[x], nil)
			mu, m2, p.Ties = q.Mean, q.M2, q.Ties
		}
		mean := (k*mu - c) / (k - 1)
		ss := m2 - (c-mu)*(c-mean)
		if !(ss > spreadFloor*m2) { // flat: z waits for the typical spread
			flat, ties = append(flat, x), append(ties, p.Ties)
			gap = append(gap, (c-mean)/f)
		} else {
			sd := math.Sqrt(ss)
			z[x] = (c - mean) / sd
			spreads = append(spreads, sd/f)
		}
		if x%every != 0 {
			continue
		}
		for j, r := range ranks {
			v := 0.0 // a flat row's scores all equal its mean
			if ss > spreadFloor*m2 {
				v = (s.IncorrectAt(x, r)*f - mean) / math.Sqrt(ss)
			}
			pool.Add(j, v)
		}
	}
	// A row without a spread borrows the median of the others' (in the
	// scores' own unit): its correct score is then as far above or below
	// its incorrect ones as that spread makes it.
	typical := math.NaN()
	if len(spreads) > 0 {
		slices.Sort(spreads)
		typical = stat.Quantile(0.5, stat.Empirical, spreads, nil)
	}
	for i, x := range flat {
		switch {
		case ties[i] > 0: // the correct score equals the incorrect ones
			z[x] = 0
		case !math.IsNaN(typical):
			z[x] = gap[i] / typical
		case s.R[x] == s.K-1: // no row has a spread
			z[x] = math.Inf(1)
		default:
			z[x] = math.Inf(-1)
		}
	}
	return z, pool, nil
}
