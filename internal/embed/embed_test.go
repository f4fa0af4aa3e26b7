package embed

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/halfsample"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/recommend"
)

// simulated returns a problem of k classes in dimension d: class centres
// N(0, I), reference and test embeddings centre + N(0, sigma^2 I); refs
// reference embeddings per class (the first class gets one more unless
// oneShot), 2 to 5 test points per class.
func simulated(seed uint64, k, d, refs int, sigma float64, oneShot bool) *Problem {
	rng := rand.New(rand.NewPCG(seed, 7))
	p := &Problem{Test: Set{D: d}, References: Set{D: d}}
	centres := make([]float64, k*d)
	for i := range centres {
		centres[i] = rng.NormFloat64()
	}
	add := func(s *Set, y int) {
		for j := range d {
			s.Vectors = append(s.Vectors, centres[y*d+j]+sigma*rng.NormFloat64())
		}
		s.Labels = append(s.Labels, y)
	}
	for y := range k {
		p.Classes = append(p.Classes, fmt.Sprintf("class %d", y))
		n := refs
		if y == 0 && !oneShot {
			n++
		}
		for range n {
			add(&p.References, y)
		}
		for range 2 + rng.IntN(4) {
			add(&p.Test, y)
		}
	}
	return p
}

// TestSummariseEqualsMatrix checks, for every scoring choice, that every
// method (and the recommended estimate's inputs) gives the same curve from
// the blockwise summaries as from the explicit score matrix: the same bits,
// and at most 1e-9 in RMSE where the arithmetic differs (CleaneX's score
// moments are summed in another order).
func TestSummariseEqualsMatrix(t *testing.T) {
	for _, c := range []struct {
		metric Metric
		ref    Reference
		refs   int
	}{
		{Euclidean, Centroid, 4}, {Cosine, Centroid, 4},
		{Euclidean, Nearest, 3}, {Cosine, Nearest, 3},
		{Euclidean, OneShot, 1}, {Cosine, OneShot, 1},
	} {
		name := c.metric.String() + "/" + c.ref.String()
		p := simulated(uint64(c.refs)+uint64(c.metric)*10, 150, 7, c.refs, 0.9, c.ref == OneShot)
		p.Metric, p.Reference = c.metric, c.ref
		m, err := Matrix(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		full, _, err := accuracy.NewSample(m, p.Direction())
		if err != nil {
			t.Fatal(err)
		}
		sum, err := Summarise(context.Background(), p, Options{Workers: 3})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(full.Observed, sum.Observed) || !slices.Equal(full.R, sum.R) || !slices.Equal(full.Correct, sum.Correct) {
			t.Fatalf("%s: R_x, correct scores or the observed curve differ", name)
		}
		for _, meth := range []string{methods.Plugin, methods.KDE, methods.Regression, methods.CleaneX} {
			est, err := methods.New(meth, methods.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			a, err := est.Fit(context.Background(), full, 1500, nil)
			if err != nil {
				t.Fatalf("%s, %s on the matrix: %v", name, meth, err)
			}
			b, err := est.Fit(context.Background(), sum, 1500, nil)
			if err != nil {
				t.Fatalf("%s, %s on the summaries: %v", name, meth, err)
			}
			d := accuracy.RMSE(a.Curve, b.Curve)
			same := slices.Equal(a.Curve, b.Curve)
			if d > 1e-9 || (!same && meth != methods.CleaneX) {
				t.Errorf("%s, %s: RMSE %.3g between the curves (same bits: %v)", name, meth, d, same)
			}
			if !same {
				t.Logf("%s, %s: not the same bits, RMSE %.3g", name, meth, d)
			}
		}
		if c.ref != Nearest {
			continue // the estimate once per metric is enough: it reads only the methods' curves and R_x
		}
		table, err := recommend.DefaultTable()
		if err != nil {
			t.Fatal(err)
		}
		a, curves, err := recommend.Run(context.Background(), full, 1500, 1, table.Calibration, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := recommend.Run(context.Background(), sum, 1500, 1, table.Calibration, nil)
		if err != nil {
			t.Fatal(err)
		}
		if (a.Err == nil) != (b.Err == nil) || a.Estimate == nil || !slices.Equal(a.Estimate, b.Estimate) {
			t.Errorf("%s: the recommended estimates differ (errors %v, %v)", name, a.Err, b.Err)
		}
		// The summaries keep no classes to draw halves of: their interval is
		// the matrix's fits' interval without the half-sampling spread.
		pf, err := recommend.MeasuredPilot(context.Background(), full)
		if err != nil {
			t.Fatal(err)
		}
		if len(pf.Spread.K) == 0 {
			t.Fatalf("%s: no half-sampling spread on the matrix", name)
		}
		pf.Spread = halfsample.Spread{}
		c := recommend.Assemble(pf, recommend.Jobs(1), curves, make([]error, len(curves)), 1500, table.Calibration)
		if c.Err != nil || !slices.Equal(c.Lo, b.Lo) || !slices.Equal(c.Hi, b.Hi) {
			t.Errorf("%s: the summaries' interval is not the matrix's without the half-sampling spread (%v)", name, c.Err)
		}
	}
}

// TestScores checks the scores against direct formulas on a tiny problem.
func TestScores(t *testing.T) {
	p := &Problem{
		Classes:    []string{"a", "b"},
		Test:       Set{D: 2, Vectors: []float64{1, 0, 0, 2}, Labels: []int{0, 1}},
		References: Set{D: 2, Vectors: []float64{2, 0, 0, 0, 0, 3, 0, 1}, Labels: []int{0, 0, 1, 1}},
	}
	for _, c := range []struct {
		metric Metric
		ref    Reference
		want   []float64
	}{
		// centroids (1, 0) and (0, 2)
		{Euclidean, Centroid, []float64{0, math.Sqrt(5), math.Sqrt(5), 0}},
		{Cosine, Centroid, []float64{1, 0, 0, 1}},
		// nearest of {(2,0),(0,0)} and of {(0,3),(0,1)}
		{Euclidean, Nearest, []float64{1, math.Sqrt(2), 2, 1}},
	} {
		p.Metric, p.Reference = c.metric, c.ref
		m, err := Matrix(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range m.Scores {
			if math.Abs(v-c.want[i]) > 1e-15 {
				t.Errorf("%v/%v: scores %v, want %v", c.metric, c.ref, m.Scores, c.want)
				break
			}
		}
	}
}

func TestCheckRefuses(t *testing.T) {
	good := func() *Problem {
		return &Problem{
			Classes:    []string{"a", "b"},
			Test:       Set{D: 2, Vectors: []float64{1, 0, 0, 2}, Labels: []int{0, 1}},
			References: Set{D: 2, Vectors: []float64{2, 0, 0, 3}, Labels: []int{0, 1}},
		}
	}
	for _, c := range []struct {
		name string
		edit func(p *Problem)
		want string
	}{
		{"dimensions", func(p *Problem) { p.References.D = 1; p.References.Vectors = []float64{1, 2} }, "dimension"},
		{"NaN", func(p *Problem) { p.Test.Vectors[3] = math.NaN() }, "test embedding 2, coordinate 2"},
		{"no centroid", func(p *Problem) { p.References.Labels = []int{0, 0} }, `class "b" has test points but no reference`},
		{"one-shot", func(p *Problem) {
			p.Reference = OneShot
			p.References.Vectors = append(p.References.Vectors, 1, 1)
			p.References.Labels = append(p.References.Labels, 1)
		}, "exactly one per class"},
		{"label", func(p *Problem) { p.Test.Labels[0] = 5 }, "outside 0..1"},
		{"no test point", func(p *Problem) { p.Test.Labels = []int{0, 0} }, `class "b" has reference embeddings but no test point`},
		{"zero vector", func(p *Problem) { p.Metric = Cosine; p.Test.Vectors[0] = 0 }, "all zeros"},
		{"length", func(p *Problem) { p.Test.Vectors = p.Test.Vectors[:3] }, "3 numbers for 2 labels"},
		{"huge", func(p *Problem) { p.References.Vectors[1] = 1e200 }, "reference embedding 1, coordinate 2: 1e+200 is too large"},
		{"neither", func(p *Problem) { p.Classes = append(p.Classes, "c") }, `class "c" has neither test points nor reference embeddings`},
		{"tiny", func(p *Problem) {
			for _, v := range [][]float64{p.Test.Vectors, p.References.Vectors} {
				for i := range v {
					v[i] *= 1e-160
				}
			}
		}, "every coordinate of the embeddings is below 1e-150 in absolute value, too small for Euclidean distances between them (their squares underflow): the largest is 3e-160"},
		{"all zero", func(p *Problem) { clear(p.Test.Vectors); clear(p.References.Vectors) }, "every coordinate of the test and reference embeddings is 0"},
	} {
		p := good()
		c.edit(p)
		err := p.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a message with %q", c.name, err, c.want)
		}
		if _, err := Summarise(context.Background(), p, Options{}); err == nil {
			t.Errorf("%s: Summarise gave no error", c.name)
		}
	}
}
