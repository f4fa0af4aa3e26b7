package embed

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/summary"
)

// workerCount resolves Options.Workers: runtime.GOMAXPROCS(0) when w <= 0.
func workerCount(w int) int {
	if w <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return w
}

// forRows scores p's test points from..to-1 in blocks of blockSize across
// workers goroutines and calls fn(worker, i, row) for every point i with
// its K scores oriented higher-is-better (distances negated).
// Calls for different points run concurrently; worker (0..workers-1) names
// the goroutine, so fn may keep scratch per worker; row is valid only
// during the call. progress, when not nil, is called with the points done
// so far out of to-from, from one goroutine at a time. It returns ctx.Err() soon after
// ctx is done.
func forRows(ctx context.Context, p *Problem, from, to, workers int, progress func(done, total int), fn func(worker, i int, row []float64)) error {
	sc := newScorer(p)
	n, k := to-from, len(p.Classes)
	negate := !p.HigherIsBetter()
	blocks := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := range min(workers, (n+blockSize-1)/blockSize) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rows := make([][]float64, blockSize)
			for t := range rows {
				rows[t] = make([]float64, k)
			}
			buf := make([]float64, tilePoints*p.Test.D)
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
					fn(w, i, row)
				}
				if progress != nil {
					mu.Lock()
					done += end - start
					progress(done, n)
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
	return err
}

// Points scores p's test points in blocks, as Summarise does, and returns
// what a per-point summary keeps of each (accuracy.SummarisePoint at the
// knot ranks summary.KnotRanks(K, o.Quantiles), scores oriented
// higher-is-better), in test order, with those ranks. Each point's
// summary has the same bits as the one summary.WriteSample computes from
// the Sample of Matrix(p) under p.Direction(): the same oriented scores,
// sorted, reduced in the same order. o.KDE is not used. Memory is N x
// (ranks + 7) numbers besides p.
func Points(ctx context.Context, p *Problem, o Options) ([]accuracy.PointSummary, []int, error) {
	if err := p.Check(); err != nil {
		return nil, nil, err
	}
	q := cmp.Or(o.Quantiles, summary.DefaultQuantiles)
	k := len(p.Classes)
	if k > summary.MaxClasses {
		return nil, nil, fmt.Errorf("%d classes: at most %d", k, summary.MaxClasses)
	}
	ranks := summary.KnotRanks(k, q)
	n := p.Test.N()
	pts := make([]accuracy.PointSummary, n)
	workers := workerCount(o.Workers)
	rs := make([]*RowSummariser, workers)
	incs := make([][]float64, workers)
	var firstErr error
	var mu sync.Mutex
	err := forRows(ctx, p, 0, n, workers, o.Progress, func(w, i int, row []float64) {
		if rs[w] == nil {
			rs[w], _ = NewRowSummariser(k, ranks, o.KDE) // k was checked above
			incs[w] = make([]float64, k-1)
		}
		var err error
		if pts[i], err = rs[w].Point(p.Test.Labels[i], row, incs[w]); err != nil {
			mu.Lock()
			firstErr = cmp.Or(firstErr, err)
			mu.Unlock()
		}
	})
	err = cmp.Or(err, firstErr)
	if err != nil {
		return nil, nil, err
	}
	return pts, ranks, nil
}

// Observed returns the exact observed accuracy curve of p, Abar_k for
// k = 0..K (accuracy.Observed), from R_x, the number of incorrect classes
// each test point's correct class strictly beats (ties lose), with every
// point weighing 1/(K r_y). It scores the points in blocks, as Summarise
// does, and keeps only R_x: memory is N numbers besides p, time
// O(N K d). It equals the Observed curve of Summarise(p) and of the
// Sample of Matrix(p).
func Observed(ctx context.Context, p *Problem, o Options) (accuracy.Curve, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	k, n := len(p.Classes), p.Test.N()
	r := make([]int, n)
	err := forRows(ctx, p, 0, n, workerCount(o.Workers), o.Progress, func(_, i int, row []float64) {
		c := row[p.Test.Labels[i]]
		below := 0
		for _, v := range row {
			if v < c {
				below++
			}
		}
		r[i] = below
	})
	if err != nil {
		return nil, err
	}
	sizes := make([]int, k)
	for _, y := range p.Test.Labels {
		sizes[y]++
	}
	w := make([]float64, n)
	for i, y := range p.Test.Labels {
		w[i] = 1 / float64(k*sizes[y])
	}
	return accuracy.Observed(r, w, k), nil
}
