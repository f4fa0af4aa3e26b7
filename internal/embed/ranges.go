package embed

import (
	"context"
	"fmt"
	"runtime"
	"slices"
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
	q := o.Quantiles
	if q == 0 {
		q = summary.DefaultQuantiles
	}
	k := len(p.Classes)
	if k > summary.MaxClasses {
		return nil, fmt.Errorf("%d classes: at most %d", k, summary.MaxClasses)
	}
	ranks := summary.KnotRanks(k, q)
	sc := newScorer(p)
	m := to - from
	r := &Range{From: from, To: to, Points: make([]accuracy.PointSummary, m), C: make([]float64, m)}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	blocks := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	negate := !p.HigherIsBetter()
	// The loop of Summarise, point i of the problem written at i - from.
	for range min(workers, (m+blockSize-1)/blockSize) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rows := make([][]float64, blockSize)
			for t := range rows {
				rows[t] = make([]float64, k)
			}
			inc := make([]float64, k-1)
			buf := make([]float64, tilePoints*p.Test.D)
			ps := o.KDE.NewPointScorer(k)
			for start := range blocks {
				end := min(start+blockSize, to)
				sc.rows(p, start, end, buf, rows)
				for i := start; i < end; i++ {
					row := rows[i-start]
					if negate {
						for j, v := range row {
							row[j] = -v
						}
					}
					y := p.Test.Labels[i]
					c := row[y]
					copy(inc, row[:y])
					copy(inc[y:], row[y+1:])
					slices.Sort(inc)
					below, _ := slices.BinarySearch(inc, c)
					r.Points[i-from] = accuracy.SummarisePoint(y, c, inc, below, ranks)
					r.C[i-from] = ps.C(c, inc, below)
				}
				if o.Progress != nil {
					mu.Lock()
					done += end - start
					o.Progress(done, m)
					mu.Unlock()
				}
			}
		}()
	}
	var err error
feed:
	for start := from; start < to; start += blockSize {
		select {
		case blocks <- start:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(blocks)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Assemble returns the Sample of problem p summarised with o from ranges
// that cover its test points 0..N-1 in order, each starting where the
// previous one ends: the Sample Summarise(p, o) returns, bit for bit.
func Assemble(p *Problem, o Options, ranges ...*Range) (*accuracy.Sample, error) {
	q := o.Quantiles
	if q == 0 {
		q = summary.DefaultQuantiles
	}
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
