package embed

import (
	"cmp"
	"context"
	"fmt"
	"sync"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/summary"
)

// Range is what Summarise keeps of test points From..To-1 of a problem:
// their per-point summaries and the KDE C_x of Options.KDE, in point order.
// Ranges that cover 0..N-1 assemble (Assemble) into the Sample Summarise
// returns, bit for bit, wherever the ranges are cut: every point's scores
// are summed in the same order whatever its block and tile (block), and
// the rest is per point.
type Range struct {
	From, To int
	Points   []accuracy.PointSummary
	C        []float64
}

// Split returns the range of test points of part (0..parts-1) when n
// points are cut into parts ranges of nearly equal size, in order:
// [part n / parts, (part+1) n / parts).
func Split(n, part, parts int) (from, to int) {
	return part * n / parts, (part + 1) * n / parts
}

// SummariseRange is Summarise for test points from..to-1 of p only (0 <=
// from <= to <= N): the same checks, the same scoring and the same
// arithmetic per point, across o.Workers goroutines; o.Progress counts the
// range's points (total to-from). It is what each of several workers (each
// with one thread, as Go in wasm) computes of one problem, the page
// assembling the ranges (Assemble, summary.AppendPoints).
func SummariseRange(ctx context.Context, p *Problem, from, to int, o Options) (*Range, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	n := p.Test.N()
	if from < 0 || from > to || to > n {
		return nil, fmt.Errorf("test points %d..%d: the problem has %d", from, to, n)
	}
	q := cmp.Or(o.Quantiles, summary.DefaultQuantiles)
	k := len(p.Classes)
	if k > summary.MaxClasses {
		return nil, fmt.Errorf("%d classes: at most %d", k, summary.MaxClasses)
	}
	ranks := summary.KnotRanks(k, q)
	m := to - from
	r := &Range{From: from, To: to, Points: make([]accuracy.PointSummary, m), C: make([]float64, m)}
	workers := workerCount(o.Workers)
	rs := make([]*RowSummariser, workers)
	var firstErr error
	var mu sync.Mutex
	err := forRows(ctx, p, from, to, workers, o.Progress, func(w, i int, row []float64) {
		if rs[w] == nil {
			rs[w], _ = NewRowSummariser(k, ranks, o.KDE) // k was checked above
		}
		var err error
		if r.Points[i-from], r.C[i-from], err = rs[w].Summarise(p.Test.Labels[i], row); err != nil {
			mu.Lock()
			firstErr = cmp.Or(firstErr, err)
			mu.Unlock()
		}
	})
	if err = cmp.Or(err, firstErr); err != nil {
		return nil, err
	}
	return r, nil
}

// Assemble returns the Sample of problem p summarised with o from ranges
// that cover its test points 0..N-1 in order, each starting where the
// previous one ends: the Sample Summarise(p, o) returns, bit for bit.
func Assemble(p *Problem, o Options, ranges ...*Range) (*accuracy.Sample, error) {
	q := cmp.Or(o.Quantiles, summary.DefaultQuantiles)
	k, n := len(p.Classes), p.Test.N()
	pts := make([]accuracy.PointSummary, 0, n)
	c := make([]float64, 0, n)
	for _, r := range ranges {
		if r.From != len(pts) || r.To < r.From || len(r.Points) != r.To-r.From || len(r.C) != len(r.Points) {
			return nil, fmt.Errorf("a range of test points %d..%d holding %d summaries after %d points: ranges must follow each other from point 0", r.From, r.To, len(r.Points), len(pts))
		}
		pts = append(pts, r.Points...)
		c = append(c, r.C...)
	}
	if len(pts) != n {
		return nil, fmt.Errorf("the ranges cover %d test points of %d", len(pts), n)
	}
	return accuracy.NewSummarisedSample(k, summary.KnotRanks(k, q), pts, map[string][]float64{o.KDE.Key(): c})
}
