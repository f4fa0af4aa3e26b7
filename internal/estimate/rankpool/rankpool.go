// Package rankpool is a pool of values read at a score summary's knot ranks,
// each weighted by the ranks it stands for: the reference distribution of
// the pooled and the tail method (internal/estimate/pooled, .../tail).
// Values of equal weight are kept together, sorted, so that the weighted
// share of the pool below or above a value is a binary search per weight:
//
//	Below(v) = sum_g w_g (#{x in g: x < v} + #{x in g: x = v} / 2),
//
// summed over the weights in the order they first appear, so that every
// platform adds the same numbers in the same order. (Written by hand: no
// library keeps a weighted empirical distribution this way.)
package rankpool

import (
	"slices"

	"github.com/cleanex/cleanex/internal/radix"
)

// MaxValues is the most values a method's pool holds: beyond it, a method
// pools every j-th point's values (j the smallest that fits), which keeps a
// pilot of a million points within the memory of a browser tab; every point
// still gets its own C_x.
const MaxValues = 1 << 22

// Weights returns the weight of each of the ascending ranks r_1 < ... < r_n
// that stand for the ranks from 1 to end: the ranks between the midpoints to
// its neighbours,
//
//	w_j = (r_{j+1} - r_{j-1}) / 2,   r_0 = 0,   r_{n+1} = end,
//
// all 1 when the ranks are 1, 2, ..., end-1.
func Weights(ranks []int, end int) []float64 {
	w := make([]float64, len(ranks))
	for j := range ranks {
		prev, next := 0, end
		if j > 0 {
			prev = ranks[j-1]
		}
		if j+1 < len(ranks) {
			next = ranks[j+1]
		}
		w[j] = float64(next-prev) / 2
	}
	return w
}

// Pool holds values, each of one of a fixed set of weights.
type Pool struct {
	groups  []group
	groupOf []int // the group of each rank index
}

// group is the pool's values of one weight.
type group struct {
	weight float64
	values []float64
}

// New returns an empty pool for values at ranks of these weights (from
// Weights), with room for rows values at every rank.
func New(weights []float64, rows int) *Pool {
	p := &Pool{groupOf: make([]int, len(weights))}
	count := make([]int, len(weights)) // values per rank, by group
	for j, w := range weights {
		i := slices.IndexFunc(p.groups, func(g group) bool { return g.weight == w })
		if i < 0 {
			i = len(p.groups)
			p.groups = append(p.groups, group{weight: w})
		}
		p.groupOf[j] = i
		count[i]++
	}
	for i := range p.groups {
		p.groups[i].values = make([]float64, 0, count[i]*rows)
	}
	return p
}

// Add adds the value v read at rank index j (its weight weights[j]).
func (p *Pool) Add(j int, v float64) {
	g := &p.groups[p.groupOf[j]]
	g.values = append(g.values, v)
}

// Sort sorts the pool; call it after the last Add and before Below or
// Above.
func (p *Pool) Sort() {
	for i := range p.groups {
		radix.Float64s(p.groups[i].values, nil)
	}
}

// Total returns the pool's total weight W = sum_g w_g #g.
func (p *Pool) Total() float64 {
	total := 0.0
	for _, g := range p.groups {
		total += g.weight * float64(len(g.values))
	}
	return total
}

// Below returns the weight of the values below v plus half the weight of
// those equal to it.
func (p *Pool) Below(v float64) float64 {
	below := 0.0
	for _, g := range p.groups {
		lo, hi := equalRange(g.values, v)
		below += g.weight * (float64(lo) + 0.5*float64(hi-lo))
	}
	return below
}

// Above returns the weight of the values above v plus half the weight of
// those equal to it.
func (p *Pool) Above(v float64) float64 {
	above := 0.0
	for _, g := range p.groups {
		lo, hi := equalRange(g.values, v)
		above += g.weight * (float64(len(g.values)-hi) + 0.5*float64(hi-lo))
	}
	return above
}

// equalRange returns the indices [lo, hi) of the values equal to v in the
// sorted values.
func equalRange(values []float64, v float64) (lo, hi int) {
	lo, _ = slices.BinarySearch(values, v)
	hi = lo
	for hi < len(values) && values[hi] == v {
		hi++
	}
	return lo, hi
}
