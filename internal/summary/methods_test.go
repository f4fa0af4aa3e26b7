// The methods fitted here read package summary themselves, so these tests
// are in an external test package.
package summary_test

import (
	"context"
	"slices"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/benchcases"
	"github.com/cleanex/cleanex/internal/estimate/tail"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
	"github.com/cleanex/cleanex/internal/summary"
)

// TestSummaryGivesTheMatrixCurves fits every method on each benchmark pilot
// from its score matrix and from its summary (written by summary.WriteSample, read
// by summary.Parse) and requires the curves to be equal bit for bit: a summary with
// summary.DefaultQuantiles keeps every rank of these 100-class pilots, so the
// methods read the same numbers.
func TestSummaryGivesTheMatrixCurves(t *testing.T) {
	cases, err := benchcases.Load(benchcases.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		tab := summary.RoundTrip(t, c.Sample, summary.DefaultQuantiles)
		k2 := c.Truth.Max()
		for _, name := range methods.Names {
			est, err := methods.New(name, methods.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			a, err := est.Fit(context.Background(), c.Sample, k2, nil)
			if err != nil {
				t.Fatalf("%s, %s on the matrix: %v", c.Name, name, err)
			}
			b, err := est.Fit(context.Background(), tab.Sample, k2, nil)
			if err != nil {
				t.Fatalf("%s, %s on the summary: %v", c.Name, name, err)
			}
			if !slices.Equal(a.Curve, b.Curve) {
				t.Errorf("%s, %s: the summary's curve differs from the matrix's (RMSE %.3g), want them equal", c.Name, name, accuracy.RMSE(a.Curve, b.Curve))
			}
		}
	}
}

// TestSummaryAbove130: on a pilot of 300 classes a summary with
// summary.DefaultQuantiles keeps only its knot ranks, and the pooled and
// the tail method read the matrix at those same ranks, so their curves (and
// the tail spread) from the matrix and from its summary are equal bit for bit.
func TestSummaryAbove130(t *testing.T) {
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 5, Sigma2: 0.1, K: 1200, R: 3, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	m, err := w.Pilot(300, 11)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := accuracy.NewSample(m, scores.Lower)
	if err != nil {
		t.Fatal(err)
	}
	tab := summary.RoundTrip(t, s, summary.DefaultQuantiles)
	if ranks := tab.Sample.KnotRanks(); len(ranks) >= s.K-1 {
		t.Fatalf("the summary keeps %d ranks of %d: not a summary of knots", len(ranks), s.K-1)
	}
	for _, name := range []string{methods.Pooled, methods.Tail} {
		est, err := methods.New(name, methods.Options{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := est.Fit(context.Background(), s, 3000, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := est.Fit(context.Background(), tab.Sample, 3000, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Curve, b.Curve) {
			t.Errorf("%s: the summary's curve differs from the matrix's (RMSE %.3g), want them equal", name, accuracy.RMSE(a.Curve, b.Curve))
		}
	}
	if a, b := tail.Spread(s), tail.Spread(tab.Sample); a != b || !(a > 0) {
		t.Errorf("tail spread %v from the matrix, %v from the summary; want them equal and positive", a, b)
	}
	if a, b := tail.Squashed(s), tail.Squashed(tab.Sample); a != b {
		t.Errorf("squashed %v from the matrix, %v from the summary; want them equal", a, b)
	}
}
