package embed

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate/kde"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/summary"
)

// scorer holds the prepared references of a problem.
type scorer struct {
	k, d    int
	metric  Metric
	nearest bool
	// refs holds the reference vectors row-major (unit length for Cosine):
	// one per class in class order, or for Nearest every gallery item.
	refs []float64
	// refClass holds each reference row's class.
	refClass []int
}

// newScorer prepares p's references: class centroids (the mean of each
// class's reference embeddings, summed in row order), the single item of
// each class, or every item for Nearest; for Cosine each is then scaled to
// unit length.
func newScorer(p *Problem) *scorer {
	k, d := len(p.Classes), p.Test.D
	sc := &scorer{k: k, d: d, metric: p.Metric, nearest: p.Reference == Nearest}
	if sc.nearest {
		sc.refs = slices.Clone(p.References.Vectors)
		sc.refClass = slices.Clone(p.References.Labels)
	} else {
		sc.refs = make([]float64, k*d)
		count := make([]int, k)
		for i, y := range p.References.Labels {
			row := sc.refs[y*d : (y+1)*d]
			for j, v := range p.References.Row(i) {
				row[j] += v
			}
			count[y]++
		}
		for y := range k {
			row := sc.refs[y*d : (y+1)*d]
			for j := range row {
				row[j] /= float64(count[y])
			}
		}
		sc.refClass = make([]int, k)
		for y := range sc.refClass {
			sc.refClass[y] = y
		}
	}
	if sc.metric == Cosine {
		for i := range len(sc.refClass) {
			normalise(sc.refs[i*d : (i+1)*d])
		}
	}
	return sc
}

// normalise scales v to unit length, v / sqrt(sum v_i^2).
func normalise(v []float64) {
	n := math.Sqrt(dot(v, v))
	for i := range v {
		v[i] /= n
	}
}

// dot returns sum_i a_i b_i, with four partial sums (i mod 4) added at the
// end; hand-written because it is the inner loop of scoring and gonum's
// floats.Dot sums in another order natively (assembly) than in wasm, where
// the scores must be the same bits as natively.
func dot(a, b []float64) float64 {
	var s0, s1, s2, s3 float64
	n := len(a)
	b = b[:n]
	i := 0
	for ; i+4 <= n; i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// sqDist returns sum_i (a_i - b_i)^2, summed as dot sums.
func sqDist(a, b []float64) float64 {
	var s0, s1, s2, s3 float64
	n := len(a)
	b = b[:n]
	i := 0
	for ; i+4 <= n; i += 4 {
		d0, d1, d2, d3 := a[i]-b[i], a[i+1]-b[i+1], a[i+2]-b[i+2], a[i+3]-b[i+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < n; i++ {
		d := a[i] - b[i]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// row writes test embedding x's K scores into out (distances, or cosine
// similarities); buf holds d numbers of scratch for Cosine.
func (sc *scorer) row(x, buf, out []float64) {
	if sc.metric == Cosine {
		copy(buf, x)
		normalise(buf)
		x = buf
	}
	if sc.nearest {
		for y := range out {
			out[y] = math.NaN()
		}
	}
	d := sc.d
	for i, y := range sc.refClass {
		ref := sc.refs[i*d : (i+1)*d]
		var v float64
		if sc.metric == Cosine {
			v = dot(x, ref)
		} else {
			v = math.Sqrt(sqDist(x, ref))
		}
		switch {
		case !sc.nearest:
			out[y] = v
		case math.IsNaN(out[y]),
			sc.metric == Cosine && v > out[y],
			sc.metric == Euclidean && v < out[y]:
			out[y] = v
		}
	}
}

// Matrix returns the explicit N x K score matrix of p (distances for
// Euclidean, similarities for Cosine; see Direction). It is what Summarise
// avoids holding; it serves small problems, exports and tests.
func Matrix(p *Problem) (*scores.Matrix, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	sc := newScorer(p)
	n, k := p.Test.N(), len(p.Classes)
	m := &scores.Matrix{Classes: slices.Clone(p.Classes), Labels: slices.Clone(p.Test.Labels), Scores: make([]float64, n*k)}
	buf := make([]float64, p.Test.D)
	for i := range n {
		sc.row(p.Test.Row(i), buf, m.Scores[i*k:(i+1)*k])
	}
	return m, nil
}

// Direction returns the direction of p's scores: Lower for distances,
// Higher for similarities.
func (p *Problem) Direction() scores.Direction {
	if p.HigherIsBetter() {
		return scores.Higher
	}
	return scores.Lower
}

// Options configure Summarise.
type Options struct {
	// Quantiles is the number of quantile steps of the per-point summaries
	// (summary.DefaultQuantiles when 0).
	Quantiles int
	// KDE is the KDE setting whose C_x is computed from each full row.
	KDE kde.Estimator
	// Workers is the number of goroutines (runtime.GOMAXPROCS(0) when 0).
	Workers int
	// Progress, when not nil, is called with the points done so far, from
	// one goroutine at a time.
	Progress func(done, total int)
}

// blockSize is the number of test points a worker scores at a time.
const blockSize = 64

// Summarise scores p's test points in blocks across o.Workers goroutines
// and returns the pilot as an accuracy.Sample built from per-point
// summaries (accuracy.SummarisePoint at summary.KnotRanks), with the KDE
// setting's C_x of every point computed from its full row
// (kde.PointScorer) and stored as precomputed values. Scores are oriented
// higher-is-better exactly as accuracy.NewSample orients the matrix of
// Matrix (distances negated), so every method reads the same numbers from
// it as from that matrix, except the moments of all scores (combined from
// the rows', equal up to the order of summation) and KDE for settings other
// than o.KDE (rows rebuilt from the summaries). It returns ctx.Err() soon
// after ctx is done.
func Summarise(ctx context.Context, p *Problem, o Options) (*accuracy.Sample, error) {
	if err := p.Check(); err != nil {
		return nil, err
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
	n := p.Test.N()
	pts := make([]accuracy.PointSummary, n)
	kdeC := make([]float64, n)
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	blocks := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	negate := !p.HigherIsBetter()
	for range min(workers, (n+blockSize-1)/blockSize) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			row := make([]float64, k)
			inc := make([]float64, k-1)
			buf := make([]float64, p.Test.D)
			ps := o.KDE.NewPointScorer(k)
			for start := range blocks {
				end := min(start+blockSize, n)
				for i := start; i < end; i++ {
					sc.row(p.Test.Row(i), buf, row)
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
					pts[i] = accuracy.SummarisePoint(y, c, inc, below, ranks)
					kdeC[i] = ps.C(c, inc, below)
				}
				if o.Progress != nil {
					mu.Lock()
					done += end - start
					o.Progress(done, n)
					mu.Unlock()
				}
			}
		}()
	}
	var err error
feed:
	for start := 0; start < n; start += blockSize {
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
	return accuracy.NewSummarisedSample(k, ranks, pts, map[string][]float64{o.KDE.Key(): kdeC})
}
