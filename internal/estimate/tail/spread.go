package tail

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/detmath"
)

// SpreadReplicates is how many draws from the pool give the spread's
// reference variance (Spread).
const SpreadReplicates = 16384

// SpreadDraws is the most values a reference draw sums for its mean excess;
// its largest value is drawn exactly for any number of excesses (Spread).
const SpreadDraws = 256

// SpreadPool is the most standardised excesses Spread pools: beyond it,
// every j-th point's excesses are pooled (every point still counts in the
// observed variance).
const SpreadPool = 1 << 18

// spreadSeed is the PCG stream of the reference draws: fixed, so a pilot
// always gets the same spread.
const spreadSeed = 0x7461696c_73707264 // "tailsprd"

// Spread checks the tail method's assumption that the points' incorrect
// scores share one tail shape above their thresholds. It compares how much
// the top standardised excess varies from point to point with how much it
// would vary if every point drew its excesses from the pool:
//
//	H = Var_x[ln t_x] / Var_b[ln t*_b],   t_x = e_x,1 / σ_x,
//
// where e_x,1 is point x's highest incorrect score minus its threshold u_x
// and σ_x its mean excess (as in Fit), over the points with σ_x > 0; and
// t*_b = max / mean of n = m - 1 values drawn from the pool of standardised
// excesses (by weight), b = 1..SpreadReplicates. Near 1 the pool
// reproduces how far the points' largest scores reach. H rises above 1
// when the points' tails differ in shape (a pool of light and heavy tails)
// and also when one shared tail is heavy (a Pareto tail of index 2 gives
// about 1.5: standardising each point by its own mean excess damps its
// largest values); either way the pooled shape, which the tail method
// extrapolates, misstates how far a point's largest scores reach. Beyond
// SpreadDraws values the reference mean is that of SpreadDraws of them,
// while its largest value is still the largest of all n (the largest of the
// rest drawn at once as the pool's quantile U^(1/(n - SpreadDraws))).
//
// It returns 0 when it cannot tell: fewer than two points with an excess,
// one excess per point (K < 10), a pool of one value, or squashed scores
// (the top excess more than half of the excesses' sum for most points;
// about every point of a pilot of 10 classes, whose points have 2 excesses). Like Fit it reads
// only the knot ranks, so a score matrix and its summary give the same H.
// The draws come from a fixed PCG stream and every sum runs in a fixed
// order, so H is the same bits on every platform. (Written by hand: a
// bootstrap of a weighted empirical distribution; no library has it.)
// The recommendation uses it to let the pooled and the tail method give
// way in its median when H is above 1.1 (recommend.ShapeWeight), and
// cmd/calibrate prints it by family (docs/recommendation.md).
func Spread(s *accuracy.Sample) float64 {
	if s.K < 3 {
		return 0
	}
	m, ranks, weights := excessRanks(s)
	n := m - 1
	if n < 2 || len(ranks) == 0 {
		return 0
	}
	every := max(1, (s.N()*len(ranks)+SpreadPool-1)/SpreadPool)
	logT, pool := topExcesses(s, m, ranks, weights, every)
	rows := len(pool) / len(ranks)
	if len(logT) < 2 || len(pool) < 2 || squashed(logT, n) {
		return 0
	}
	// A draw by weight: a rank by its weight, then a pooled row.
	cumRank := make([]float64, len(ranks))
	totalRank := 0.0
	for j, w := range weights {
		totalRank += w
		cumRank[j] = totalRank
	}
	rng := rand.New(rand.NewPCG(spreadSeed, uint64(n)))
	draw := func() float64 {
		j, _ := slices.BinarySearch(cumRank, rng.Float64()*totalRank)
		return pool[rng.IntN(rows)*len(ranks)+min(j, len(ranks)-1)]
	}
	d := min(n, SpreadDraws)
	var largest func(rest int) float64
	if n > d {
		largest = largestOf(pool, weights)
	}
	var logRef []float64
	for range SpreadReplicates {
		sum, top := 0.0, 0.0
		for range d {
			v := draw()
			sum += v
			top = max(top, v)
		}
		if largest != nil {
			top = max(top, largest(n-d))
		}
		if sum > 0 && top > 0 {
			logRef = append(logRef, detmath.Log(top*float64(d)/sum))
		}
	}
	if len(logRef) < 2 {
		return 0
	}
	ref := detmath.Variance(logRef)
	if !(ref > 0) {
		return 0
	}
	return detmath.Variance(logT) / ref
}

// largestOf returns a draw of the largest of rest values drawn by weight
// from pool (rows of len(weights) values, value j of a row of weight
// weights[j]): the pool's weighted quantile at U^(1/rest). It sorts a copy
// of the pool once; each draw is then a binary search.
func largestOf(pool, weights []float64) func(rest int) float64 {
	type value struct{ v, w float64 }
	vs := make([]value, len(pool))
	for i, v := range pool {
		vs[i] = value{v, weights[i%len(weights)]}
	}
	slices.SortFunc(vs, func(a, b value) int { return cmp.Or(cmp.Compare(a.v, b.v), cmp.Compare(a.w, b.w)) })
	cum := make([]float64, len(vs))
	total := 0.0
	for i, v := range vs {
		total += v.w
		cum[i] = total
	}
	rng := rand.New(rand.NewPCG(spreadSeed, uint64(len(pool))))
	return func(rest int) float64 {
		q := detmath.Exp(detmath.Log(1-rng.Float64()) / float64(rest))
		i, _ := slices.BinarySearch(cum, q*total)
		return vs[min(i, len(vs)-1)].v
	}
}

// topExcesses returns ln t_x = ln(e_x,1 / σ_x), the top standardised
// excess, of every point with σ_x > 0 and, when every > 0, the standardised
// excesses e_x,j / σ_x of every every-th point (rows of len(ranks)).
func topExcesses(s *accuracy.Sample, m int, ranks []int, weights []float64, every int) (logT, pool []float64) {
	ex := make([]float64, len(ranks))
	for x := range s.N() {
		sigma, _ := pointExcesses(s, x, m, ranks, weights, ex)
		if !(sigma > 0) {
			continue
		}
		logT = append(logT, detmath.Log(ex[0]/sigma))
		if every > 0 && x%every == 0 {
			for j := range ranks {
				pool = append(pool, ex[j]/sigma)
			}
		}
	}
	return logT, pool
}

// Squashed reports whether the pilot's scores are squashed for the pooled
// and the tail method: with at least 3 excesses per point, each point's top
// excess carries more than half of its excesses' sum (t_x > n / 2) for more
// than half of the points. Their pool of standardised excesses then holds
// little more than one value per point. Sharp softmax probabilities read as
// they are do this (a median share of 0.94-0.98 of the sum on the bank's
// text families, against 0.11-0.16 for their scores as they come). With 2
// excesses per point (pilots of at most 13 classes) the top one is always
// at least half, and Squashed cannot tell: it returns false.
func Squashed(s *accuracy.Sample) bool {
	if s.K < 3 {
		return false
	}
	m, ranks, weights := excessRanks(s)
	if n := m - 1; n >= 3 && len(ranks) > 0 {
		logT, _ := topExcesses(s, m, ranks, weights, 0)
		return len(logT) >= 2 && squashed(logT, n)
	}
	return false
}

// squashed reports whether the top excess carries more than half of the
// excesses' sum (t_x > n / 2) for more than half of the points: the pool
// then holds little more than one value per point, t_x runs into its bound
// n, and the spread says nothing (sharp softmax probabilities read as they
// are give a median share of 0.94-0.98 of the sum on the bank's text
// families; scores as they come give 0.11-0.16).
func squashed(logT []float64, n int) bool {
	half := detmath.Log(float64(n) / 2)
	above := 0
	for _, l := range logT {
		if l > half {
			above++
		}
	}
	return 2*above > len(logT)
}
