package embed

import (
	"context"
	"math"
	"slices"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate/kde"
	"github.com/cleanex/cleanex/internal/scores"
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

// normalise scales v to unit length: v / n with n = m sqrt(sum (v_i/m)^2),
// m = max |v_i| (so the squares neither overflow nor underflow), the sum
// taken in index order; a zero vector is left as it is.
func normalise(v []float64) {
	m := 0.0
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	if m == 0 {
		return
	}
	ss := 0.0
	for _, x := range v {
		y := x / m
		ss += y * y
	}
	n := m * math.Sqrt(ss)
	for i := range v {
		v[i] /= n
	}
}

// tilePoints is the number of test points scored together by block.
const tilePoints = 4

// block writes the K scores of up to tilePoints test embeddings xs (unit
// length already for Cosine) into outs. Each (point, reference) pair's sum
// is accumulated in index order in one variable — sum_i (x_i - r_i)^2 for
// Euclidean (then its square root), sum_i x_i r_i for Cosine — whatever
// the tiling, so a point gets the same bits alone or in a tile. The pairs
// are computed four points by two references at a time (eight independent
// sums, six loads per step), hand-written because it is the inner loop of
// scoring and no maintained library computes pairwise distances with a
// fixed order of summation natively and in wasm alike.
func (sc *scorer) block(xs, outs [][]float64) {
	d := sc.d
	if sc.nearest {
		for _, out := range outs {
			for y := range out {
				out[y] = math.NaN()
			}
		}
	}
	nr := len(sc.refClass)
	var pad [tilePoints][]float64
	for t := range pad {
		if t < len(xs) {
			pad[t] = xs[t][:d]
		} else {
			pad[t] = xs[0][:d] // computed and dropped
		}
	}
	// Every slice the inner loops index is cut to len(x0), so the compiler
	// drops their bounds checks.
	x0 := pad[0]
	x1, x2, x3 := pad[1][:len(x0)], pad[2][:len(x0)], pad[3][:len(x0)]
	cos := sc.metric == Cosine
	var v [tilePoints][2]float64
	for j := 0; j < nr; j += 2 {
		r0 := sc.refs[j*d : (j+1)*d]
		r1 := r0
		if j+1 < nr {
			r1 = sc.refs[(j+1)*d : (j+2)*d]
		}
		r0, r1 = r0[:len(x0)], r1[:len(x0)]
		var a00, a01, a10, a11, a20, a21, a30, a31 float64
		if cos {
			for i := range x0 {
				p, q := r0[i], r1[i]
				a00 += x0[i] * p
				a01 += x0[i] * q
				a10 += x1[i] * p
				a11 += x1[i] * q
				a20 += x2[i] * p
				a21 += x2[i] * q
				a30 += x3[i] * p
				a31 += x3[i] * q
			}
		} else {
			for i := range x0 {
				p, q := r0[i], r1[i]
				e00, e01 := x0[i]-p, x0[i]-q
				e10, e11 := x1[i]-p, x1[i]-q
				e20, e21 := x2[i]-p, x2[i]-q
				e30, e31 := x3[i]-p, x3[i]-q
				a00 += e00 * e00
				a01 += e01 * e01
				a10 += e10 * e10
				a11 += e11 * e11
				a20 += e20 * e20
				a21 += e21 * e21
				a30 += e30 * e30
				a31 += e31 * e31
			}
			a00, a01, a10, a11 = math.Sqrt(a00), math.Sqrt(a01), math.Sqrt(a10), math.Sqrt(a11)
			a20, a21, a30, a31 = math.Sqrt(a20), math.Sqrt(a21), math.Sqrt(a30), math.Sqrt(a31)
		}
		v = [tilePoints][2]float64{{a00, a01}, {a10, a11}, {a20, a21}, {a30, a31}}
		for t, out := range outs {
			for u := range min(2, nr-j) {
				sc.put(out, sc.refClass[j+u], v[t][u])
			}
		}
	}
}

// put records score v of reference class y in out: the score itself, or
// for Nearest the best so far (smallest distance, largest similarity).
func (sc *scorer) put(out []float64, y int, v float64) {
	switch {
	case !sc.nearest, math.IsNaN(out[y]),
		sc.metric == Cosine && v > out[y],
		sc.metric == Euclidean && v < out[y]:
		out[y] = v
	}
}

// rows writes the scores of test points from..to-1 of p into outs[0..]
// (each K long), tilePoints at a time; buf holds tilePoints x d numbers of
// scratch (the unit-length copies for Cosine).
func (sc *scorer) rows(p *Problem, from, to int, buf []float64, outs [][]float64) {
	d := sc.d
	xs := make([][]float64, 0, tilePoints)
	for start := from; start < to; start += tilePoints {
		end := min(start+tilePoints, to)
		xs = xs[:0]
		for i := start; i < end; i++ {
			x := p.Test.Row(i)
			if sc.metric == Cosine {
				t := i - start
				copy(buf[t*d:(t+1)*d], x)
				x = buf[t*d : (t+1)*d]
				normalise(x)
			}
			xs = append(xs, x)
		}
		sc.block(xs, outs[start-from:end-from])
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
	outs := make([][]float64, n)
	for i := range outs {
		outs[i] = m.Scores[i*k : (i+1)*k]
	}
	// One point at a time: a point's scores do not depend on its tile.
	buf := make([]float64, tilePoints*p.Test.D)
	for i := range n {
		sc.rows(p, i, i+1, buf, outs[i:i+1])
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
	r, err := SummariseRange(ctx, p, 0, p.Test.N(), o)
	if err != nil {
		return nil, err
	}
	return Assemble(p, o, r)
}
