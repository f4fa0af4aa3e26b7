package embed

import (
	"fmt"
	"slices"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate/kde"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/radix"
	"github.com/cleanex/cleanex/internal/summary"
)

// RowSummariser reduces one test point's full row of K scores, oriented
// higher-is-better, to what a summarised Sample keeps of it: its
// accuracy.PointSummary at the knot ranks and its C_x under one KDE
// setting, computed as Summarise computes them (the incorrect scores
// sorted ascending, R_x by binary search, accuracy.SummarisePoint,
// kde.PointScorer.C). A caller that sees each row once (a score matrix
// read row by row, rows scored in blocks) keeps only these per point; one
// that keeps the sorted rows may compute the C_x later (Point, then C).
// It is not safe for concurrent use: give each goroutine its own.
type RowSummariser struct {
	k     int
	ranks []int
	inc   []float64
	buf   []float64
	ps    *kde.PointScorer
}

// NewRowSummariser returns a RowSummariser for rows of k scores, keeping
// the incorrect scores at ranks (summary.KnotRanks(k, q)) and the C_x of
// the KDE setting est.
func NewRowSummariser(k int, ranks []int, est kde.Estimator) (*RowSummariser, error) {
	if k < 2 {
		return nil, fmt.Errorf("%s: at least 2 classes are needed", limits.Count(k, "class", "classes"))
	}
	if k > summary.MaxClasses {
		return nil, fmt.Errorf("%d classes: at most %d", k, summary.MaxClasses)
	}
	return &RowSummariser{k: k, ranks: slices.Clone(ranks), inc: make([]float64, k-1), buf: make([]float64, k-1), ps: est.NewPointScorer(k)}, nil
}

// Summarise returns the summary and the KDE C_x of the point of class y
// (0..K-1) whose K oriented scores are row; row is not changed.
func (r *RowSummariser) Summarise(y int, row []float64) (accuracy.PointSummary, float64, error) {
	p, err := r.Point(y, row, r.inc)
	if err != nil {
		return p, 0, err
	}
	return p, r.C(p, r.inc), nil
}

// Point returns the summary of the point of class y whose K oriented
// scores are row, as Summarise does, and leaves in inc (K-1 long, not
// overlapping row) the point's incorrect scores sorted ascending, from
// which C computes its KDE C_x later; row is not changed.
func (r *RowSummariser) Point(y int, row, inc []float64) (accuracy.PointSummary, error) {
	if len(row) != r.k || y < 0 || y >= r.k || len(inc) != r.k-1 {
		return accuracy.PointSummary{}, fmt.Errorf("a row of %d scores with class %d and room for %d: want %d scores, a class in 0..%d and room for %d", len(row), y, len(inc), r.k, r.k-1, r.k-1)
	}
	c := row[y]
	copy(inc, row[:y])
	copy(inc[y:], row[y+1:])
	radix.Float64s(inc, r.buf)
	below, _ := slices.BinarySearch(inc, c)
	return accuracy.SummarisePoint(y, c, inc, below, r.ranks), nil
}

// C returns the KDE C_x of the point summarised as p, whose incorrect
// scores sorted ascending are inc (as Point left them).
func (r *RowSummariser) C(p accuracy.PointSummary, inc []float64) float64 {
	return r.ps.C(p.Correct, inc, p.Below)
}
