package summary

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// DefaultQuantiles is the number of equal steps in rank at which a summary
// keeps a point's incorrect scores unless told otherwise (columns q1..q127,
// between top1 and lowest): every rank of a pilot of up to 130 classes, and
// every 4th of one of 500 (docs/summary.md measures what this costs KDE).
const DefaultQuantiles = 128

// MaxQuantiles is the largest number of quantile steps a summary may have.
const MaxQuantiles = 4096

// MaxClasses is the largest number of classes a summary describes: its top
// columns reach rank MaxClasses-2.
const MaxClasses = 1_000_000

// TopRanks returns the ranks from the top (1 = the highest incorrect score)
// of the summary's top columns: r_1 = 1 and r_{i+1} = round(1.5 r_i) (half
// away from zero), 1, 2, 3, 5, 8, 12, 18, 27, ..., below MaxClasses-1. They
// are the ranks CleaneX's tail-gap encoding reads (its ratio 1.5), dense
// where a point's competitors matter most.
func TopRanks() []int {
	var r []int
	for j := 1; j < MaxClasses-1; j = int(math.Round(1.5 * float64(j))) {
		r = append(r, j)
	}
	return r
}

// QuantileRank returns the rank from the top of column q<j> of a summary
// with q quantile steps when each point has m = K-1 incorrect scores:
// 1 + floor(j (m-1) / q), j = 0..q (j = 0 is rank 1, the highest; j = q is
// rank m, the lowest).
func QuantileRank(j, m, q int) int {
	return 1 + j*(m-1)/q
}

// KnotRanks returns, ascending and without repeats, every rank a summary
// with q quantile steps of a pilot with k classes holds for each point: the
// top ranks below k-1, the quantile ranks and k-1 (the lowest incorrect score).
func KnotRanks(k, q int) []int {
	m := k - 1
	var r []int
	for _, t := range TopRanks() {
		if t < m {
			r = append(r, t)
		}
	}
	for j := 0; j <= q; j++ {
		r = append(r, QuantileRank(j, m, q))
	}
	slices.Sort(r)
	return slices.Compact(r)
}

// column is one order-statistic column of a summary.
type column struct {
	name string
	// top is the rank of a top column (0 for the others); quantile is j of
	// column q<j> (-1 for the others) out of steps; lowest marks column "lowest".
	top, quantile, steps int
	lowest               bool
}

// rank returns the column's rank from the top for m incorrect scores; ok
// is false for a top column beyond the lowest score.
func (c column) rank(m int) (r int, ok bool) {
	switch {
	case c.lowest:
		return m, true
	case c.quantile >= 0:
		return QuantileRank(c.quantile, m, c.steps), true
	}
	return c.top, c.top <= m
}

// Fixed columns of a summary, in order, before the order statistics.
var fixedColumns = []string{"point", "label", "classes", "scores", "correct", "below", "ties", "mean", "m2", "maxabs"}

// orderColumns returns the order-statistic columns of a summary with q
// quantile steps in file order: top1, top2, top3, top5, ..., q1..q<q-1>, lowest.
func orderColumns(q int) []column {
	var cols []column
	for _, t := range TopRanks() {
		cols = append(cols, column{name: "top" + strconv.Itoa(t), top: t, quantile: -1})
	}
	for j := 1; j < q; j++ {
		cols = append(cols, column{name: fmt.Sprintf("q%d", j), quantile: j, steps: q})
	}
	return append(cols, column{name: "lowest", quantile: -1, lowest: true})
}

// Header returns the column names, in order, of a summary with q quantile steps.
func Header(q int) []string {
	h := slices.Clone(fixedColumns)
	for _, c := range orderColumns(q) {
		h = append(h, c.name)
	}
	return h
}

// checkQuantiles refuses a number of quantile steps outside 2..MaxQuantiles.
func checkQuantiles(q int) error {
	if q < 2 || q > MaxQuantiles {
		return fmt.Errorf("summary: %d quantile steps; use 2 to %d", q, MaxQuantiles)
	}
	return nil
}
