// Package halfsample measures how much the extrapolation of a pilot moves
// with the classes the pilot happens to hold. It draws Reps random halves of
// the pilot's classes (floor(K/2) classes without replacement, each with its
// points), fits the pooled and the tail method (internal/estimate/pooled,
// internal/estimate/tail: the two cheap, seedless members of the
// recommendation's median) to each half, and returns at each k of a grid the
// standard deviation over the halves of
//
//	m_k = (logit E_k(tail) + logit E_k(pooled)) / 2,
//	E_k = sum_x w_x C_x^(k-1)   (the half's own points and weights),
//
// with probabilities clamped to [0.5/N, 1 - 0.5/N], N the whole pilot's
// number of points. For a statistic that is a smooth function of class
// means, a half drawn without replacement varies about as much as the whole
// pilot varies between draws of its classes (the half-sampling identity:
// Var(half) = s^2/(K/2) (1 - 1/2) = s^2/K); here the halves extrapolate
// twice as far as the pilot, so the spread also carries how much the
// extrapolation itself depends on which classes were seen. The
// recommendation's interval uses it as one of its scale features
// (internal/recommend, Features.B). (Written by hand: no library has it.)
package halfsample

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/detmath"
	"github.com/cleanex/cleanex/internal/draw"
	"github.com/cleanex/cleanex/internal/estimate/pooled"
	"github.com/cleanex/cleanex/internal/estimate/tail"
	"github.com/cleanex/cleanex/internal/summary"
)

// Reps is the number of halves drawn.
const Reps = 30

// MinClasses is the fewest pilot classes Measure accepts: each half needs the
// 3 classes the pooled and the tail method need.
const MinClasses = 6

// GridRatio is how far beyond the pilot's size the grid of k reaches:
// k = 2 .. GridRatio K (Spread.At holds the last value beyond it).
const GridRatio = 64

// stream is the PCG stream of the halves' draws; seed is its first word, the
// same for every pilot, so that a pilot's spread does not depend on the run's
// seed.
const (
	stream = 0x68616c66_73616d70 // "halfsamp"
	seed   = 1
)

// ErrTooFewClasses is returned for a pilot of fewer than MinClasses classes.
var ErrTooFewClasses = fmt.Errorf("halfsample: needs at least %d classes (halves of 3)", MinClasses)

// Spread is the half-sampling spread of a pilot at the k of a grid.
type Spread struct {
	// K holds the grid's k, increasing from 2; B the spread at each (logit
	// units).
	K []int
	B []float64
}

// FromWire returns the spread whose grid is given as float64 whole numbers
// (Wire's k), as the page's messages carry it; empty when k and b differ in
// length or k is not increasing whole numbers from 2.
func FromWire(k, b []float64) Spread {
	if len(k) == 0 || len(k) != len(b) {
		return Spread{}
	}
	ks := make([]int, len(k))
	for i, v := range k {
		ks[i] = int(v)
		if float64(ks[i]) != v || ks[i] < 2 || i > 0 && ks[i] <= ks[i-1] {
			return Spread{}
		}
	}
	return Spread{K: ks, B: b}
}

// Wire returns the spread's grid as float64 values, and its spreads, for
// the page's messages (FromWire reads them back).
func (s Spread) Wire() (k, b []float64) {
	if len(s.K) == 0 {
		return nil, nil
	}
	k = make([]float64, len(s.K))
	for i, v := range s.K {
		k[i] = float64(v)
	}
	return k, s.B
}

// At returns the spread at k: linear in log k between grid points, the
// first value below the grid and the last beyond it; NaN when s is empty.
func (s Spread) At(k int) float64 {
	n := len(s.K)
	switch {
	case n == 0:
		return math.NaN()
	case k <= s.K[0]:
		return s.B[0]
	case k >= s.K[n-1]:
		return s.B[n-1]
	}
	i := sort.SearchInts(s.K, k) // s.K[i-1] < k <= s.K[i]
	if s.K[i] == k {
		return s.B[i]
	}
	a, b := float64(s.K[i-1]), float64(s.K[i])
	t := (detmath.Log(float64(k)) - detmath.Log(a)) / (detmath.Log(b) - detmath.Log(a))
	return s.B[i-1] + t*(s.B[i]-s.B[i-1])
}

// Grid returns the k at which Measure gives the spread for a pilot of k1
// classes: every k from 2 to 16, then steps of a factor 2^(1/4) (rounded,
// distinct) up to GridRatio k1, which is the last.
func Grid(k1 int) []int {
	top := GridRatio * k1
	var ks []int
	for k := 2; k <= min(16, top); k++ {
		ks = append(ks, k)
	}
	for x := 16.0; ; {
		x *= math.Pow(2, 0.25)
		k := int(math.Round(x))
		if k >= top {
			break
		}
		if k > ks[len(ks)-1] {
			ks = append(ks, k)
		}
	}
	if ks[len(ks)-1] != top {
		ks = append(ks, top)
	}
	return ks
}

// Measure returns the half-sampling spread of pilot s (see the package doc).
// A pilot built from a per-point summary has no classes to draw
// (accuracy.ErrSummarised); one of fewer than MinClasses classes is refused
// (ErrTooFewClasses). A half on which either method fails is skipped; fewer
// than Reps/2 usable halves is an error.
func Measure(ctx context.Context, s *accuracy.Sample) (Spread, error) {
	if s.Summarised() {
		return Spread{}, fmt.Errorf("halfsample: %w", accuracy.ErrSummarised)
	}
	if s.K < MinClasses {
		return Spread{}, ErrTooFewClasses
	}
	ks := Grid(s.K)
	lo := 0.5 / float64(s.N())
	logit := func(p float64) float64 {
		p = min(max(p, lo), 1-lo)
		return detmath.Log(p) - detmath.Log(1-p)
	}
	sum := make([]float64, len(ks))
	sum2 := make([]float64, len(ks))
	d := draw.New(seed, stream)
	rows := newSortedRows(s)
	used := 0
	var lastErr error
	for range Reps {
		if err := ctx.Err(); err != nil {
			return Spread{}, err
		}
		half, err := rows.half(d.Classes(s.K, rows.kh))
		if err != nil {
			return Spread{}, fmt.Errorf("halfsample: %w", err)
		}
		t, err := tail.Estimator{}.Fit(ctx, half, 2, nil)
		if err != nil {
			lastErr = err
			continue
		}
		p, err := pooled.Estimator{}.Fit(ctx, half, 2, nil)
		if err != nil {
			lastErr = err
			continue
		}
		et := expectedAt(t.C, half.Weight, ks)
		ep := expectedAt(p.C, half.Weight, ks)
		for i := range ks {
			m := (logit(et[i]) + logit(ep[i])) / 2
			sum[i] += m
			sum2[i] += m * m
		}
		used++
	}
	if err := ctx.Err(); err != nil {
		return Spread{}, err
	}
	if used < Reps/2 {
		return Spread{}, fmt.Errorf("halfsample: only %d of %d halves could be fitted: %w", used, Reps, lastErr)
	}
	b := make([]float64, len(ks))
	n := float64(used)
	for i := range ks {
		v := (sum2[i] - sum[i]*sum[i]/n) / (n - 1)
		b[i] = math.Sqrt(max(0, v))
	}
	return Spread{K: ks, B: b}, nil
}

// sortedRows holds a pilot's oriented scores with, per point, its classes
// in ascending order of score, so that a half's sorted rows are read off in
// one pass instead of sorted again.
type sortedRows struct {
	s     *accuracy.Sample // built from a score matrix (ScoreRow)
	order []int32          // N x K: each row's class indices by ascending score
	// kh is the number of classes of a half, ranks the knot ranks of its
	// summaries (summary.KnotRanks with summary.DefaultQuantiles steps).
	kh    int
	ranks []int
	// scale multiplies every score of the halves: 1, or for scores so
	// large that a row's sum of squared deviations would overflow (about
	// 1e154 and beyond), the power of two that brings the largest |score|
	// into [1/2, 1). Scaling by a power of two is exact and the pooled and
	// the tail method do not depend on the scores' unit, so the spread is
	// the same as at any other scale, where without it every half would be
	// refused for its infinite moments.
	scale float64
}

// newSortedRows sorts every row of s's scores (s built from a score matrix)
// once.
func newSortedRows(s *accuracy.Sample) *sortedRows {
	k := s.K
	r := &sortedRows{s: s, order: make([]int32, s.N()*k), kh: k / 2, scale: 1}
	r.ranks = summary.KnotRanks(r.kh, summary.DefaultQuantiles)
	big := 0.0
	for x := range s.Labels {
		row := s.ScoreRow(x)
		ord := r.order[x*k : (x+1)*k]
		for j := range ord {
			ord[j] = int32(j)
		}
		slices.SortFunc(ord, func(a, b int32) int { return cmp.Compare(row[a], row[b]) })
		// sorted, the row's largest |score| is at one of its ends
		big = max(big, math.Abs(row[ord[0]]), math.Abs(row[ord[k-1]]))
	}
	// A row's M2 is at most K (2 big)^2.
	if big > math.Sqrt(math.MaxFloat64/(4*float64(k))) {
		r.scale = accuracy.PowerOfTwoBelow(big)
	}
	return r
}

// half returns the pilot restricted to the r.kh classes cls (ascending) and
// their points, as the per-point summary a score matrix of those classes
// would give (accuracy.SummarisePoint at r.ranks; every score times
// r.scale): the pooled and the tail
// method read a score matrix at those ranks, so they fit it as they would
// fit Sample.Subset(cls), without sorting each row again.
func (r *sortedRows) half(cls []int) (*accuracy.Sample, error) {
	k := r.s.K
	idx := make([]int, k)
	for j := range idx {
		idx[j] = -1
	}
	for i, c := range cls {
		idx[c] = i
	}
	var pts []accuracy.PointSummary
	inc := make([]float64, 0, r.kh-1)
	for x, y := range r.s.Labels {
		if idx[y] < 0 {
			continue
		}
		row := r.s.ScoreRow(x)
		c := row[y] * r.scale
		inc = inc[:0]
		below := 0
		for _, j := range r.order[x*k : (x+1)*k] {
			if int(j) == y || idx[j] < 0 {
				continue
			}
			v := row[j] * r.scale
			if v < c {
				below++
			}
			inc = append(inc, v)
		}
		pts = append(pts, accuracy.SummarisePoint(idx[y], c, inc, below, r.ranks))
	}
	return accuracy.NewSummarisedSample(r.kh, r.ranks, pts, nil)
}

// expectedAt returns E_k = sum_x w_x C_x^(k-1) at each k of ks (computed
// with detmath, so the same on every platform).
func expectedAt(c, w []float64, ks []int) []float64 {
	e := make([]float64, len(ks))
	for x, cx := range c {
		switch {
		case cx <= 0:
			continue
		case cx >= 1:
			for i := range ks {
				e[i] += w[x]
			}
			continue
		}
		lc := detmath.Log(cx)
		for i, k := range ks {
			e[i] += w[x] * detmath.Exp(float64(k-1)*lc)
		}
	}
	return e
}
