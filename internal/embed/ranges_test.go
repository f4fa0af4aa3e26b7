package embed

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"github.com/cleanex/cleanex/internal/estimate/kde"
	"github.com/cleanex/cleanex/internal/summary"
)

// TestRangesEqualSummarise: test points cut into ranges anywhere (empty
// ranges, ranges inside one block, ranges across blocks, one point each),
// each summarised alone (SummariseRange), give the Sample of one Summarise
// call bit for bit, assembled in Go (Assemble) or through their binary
// forms (summary.AppendPoints, then summary.Assemble in any order of the
// ranges, as the page joins them) — for every scoring choice.
func TestRangesEqualSummarise(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		metric Metric
		ref    Reference
		kde    kde.Estimator
	}{{Euclidean, Centroid, kde.Estimator{}}, {Cosine, Centroid, kde.Estimator{}}, {Euclidean, Nearest, kde.Estimator{}},
		{Cosine, OneShot, kde.Estimator{Bandwidth: kde.UCV}}} {
		refs := 3
		if c.ref == OneShot {
			refs = 1
		}
		p := simulated(5, 60, 7, refs, 0.9, c.ref == OneShot)
		p.Metric, p.Reference = c.metric, c.ref
		o := Options{KDE: c.kde, Quantiles: 16}
		whole, err := Summarise(ctx, p, o)
		if err != nil {
			t.Fatal(err)
		}
		want, err := summary.AppendBinary(nil, whole)
		if err != nil {
			t.Fatal(err)
		}
		n := p.Test.N()
		if n <= blockSize {
			t.Fatalf("%d test points: the test needs more than one block", n)
		}
		rng := rand.New(rand.NewPCG(1, uint64(c.metric)))
		cuts := [][]int{{0, n}, {0, 0, n}, {0, 1, 2, 3, blockSize + 1, n, n}, {0, n / 2, n}}
		one := []int{0}
		for i := range n {
			one = append(one, i+1)
		}
		cuts = append(cuts, one)
		for range 5 {
			cut := []int{0, rng.IntN(n + 1), rng.IntN(n + 1), rng.IntN(n + 1), n}
			for i := 1; i < len(cut); i++ { // sorted
				for j := i; j > 0 && cut[j] < cut[j-1]; j-- {
					cut[j], cut[j-1] = cut[j-1], cut[j]
				}
			}
			cuts = append(cuts, cut)
		}
		for _, cut := range cuts {
			var ranges []*Range
			var parts [][]byte
			k, ranks := len(p.Classes), summary.KnotRanks(len(p.Classes), 16)
			for i := 1; i < len(cut); i++ {
				r, err := SummariseRange(ctx, p, cut[i-1], cut[i], Options{KDE: c.kde, Quantiles: 16, Workers: 1 + i%3})
				if err != nil {
					t.Fatal(err)
				}
				ranges = append(ranges, r)
				b, err := summary.AppendPoints(nil, k, n, ranks, c.kde.Key(), r.From, r.Points, r.C)
				if err != nil {
					t.Fatal(err)
				}
				parts = append(parts, b)
			}
			s, err := Assemble(p, o, ranges...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := summary.AppendBinary(nil, s)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s %s, ranges cut at %v: the assembled Sample differs from Summarise's", c.metric, c.ref, cut)
			}
			rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
			joined, err := summary.Assemble(parts)
			if err != nil {
				t.Fatalf("%s %s, ranges cut at %v: %v", c.metric, c.ref, cut, err)
			}
			if !bytes.Equal(joined, want) {
				t.Fatalf("%s %s, ranges cut at %v: the joined binary forms differ from Summarise's", c.metric, c.ref, cut)
			}
			if _, err := summary.ReadBinary(joined); err != nil {
				t.Fatal(err)
			}
		}
		// Ranges that leave a gap or overlap are refused.
		a, _ := SummariseRange(ctx, p, 0, 10, o)
		b, _ := SummariseRange(ctx, p, 11, n, o)
		if _, err := Assemble(p, o, a, b); err == nil {
			t.Error("Assemble accepted ranges with a gap")
		}
		k, ranks := len(p.Classes), summary.KnotRanks(len(p.Classes), 16)
		pa, _ := summary.AppendPoints(nil, k, n, ranks, c.kde.Key(), a.From, a.Points, a.C)
		pb, _ := summary.AppendPoints(nil, k, n, ranks, c.kde.Key(), b.From, b.Points, b.C)
		if _, err := summary.Assemble([][]byte{pa, pb}); err == nil {
			t.Error("summary.Assemble accepted ranges with a gap")
		}
		if _, err := summary.Assemble([][]byte{pa, pa, pb}); err == nil {
			t.Error("summary.Assemble accepted overlapping ranges")
		}
	}
}
