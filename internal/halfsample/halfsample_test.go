package halfsample

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/draw"
	"github.com/cleanex/cleanex/internal/estimate/esttest"
	"github.com/cleanex/cleanex/internal/estimate/pooled"
	"github.com/cleanex/cleanex/internal/estimate/tail"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/summary"
)

// Grid starts with every k from 2 to 16, rises by about 19% a step and ends
// at GridRatio k1.
func TestGrid(t *testing.T) {
	for _, k1 := range []int{6, 50, 500} {
		g := Grid(k1)
		if g[0] != 2 || g[len(g)-1] != GridRatio*k1 {
			t.Fatalf("k1=%d: grid runs %d..%d, want 2..%d", k1, g[0], g[len(g)-1], GridRatio*k1)
		}
		for i := 1; i < len(g); i++ {
			if g[i] <= g[i-1] {
				t.Fatalf("k1=%d: grid not increasing at %d: %v", k1, i, g)
			}
			if g[i-1] >= 16 && float64(g[i]) > 1.25*float64(g[i-1])+1 {
				t.Fatalf("k1=%d: step %d -> %d is more than 2^(1/4)", k1, g[i-1], g[i])
			}
		}
		for k := 2; k <= 16; k++ {
			if !slices.Contains(g, k) {
				t.Fatalf("k1=%d: grid lacks k=%d", k1, k)
			}
		}
	}
}

// At interpolates linearly in log k, holds the ends, and is NaN when empty.
func TestAt(t *testing.T) {
	s := Spread{K: []int{2, 4, 16}, B: []float64{1, 2, 4}}
	for _, tc := range []struct {
		k    int
		want float64
	}{
		{1, 1}, {2, 1}, {3, 1 + math.Log(1.5)/math.Log(2)}, {4, 2}, {8, 3}, {16, 4}, {1000, 4},
	} {
		if got := s.At(tc.k); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("At(%d) = %v, want %v", tc.k, got, tc.want)
		}
	}
	if v := (Spread{}).At(5); !math.IsNaN(v) {
		t.Errorf("empty spread At = %v, want NaN", v)
	}
}

// Wire and FromWire carry a spread through float64 slices; malformed grids
// give an empty spread.
func TestWire(t *testing.T) {
	s := Spread{K: []int{2, 3, 7}, B: []float64{0.5, 0.25, 0.125}}
	k, b := s.Wire()
	if got := FromWire(k, b); !slices.Equal(got.K, s.K) || !slices.Equal(got.B, s.B) {
		t.Fatalf("round trip %+v, want %+v", got, s)
	}
	for _, bad := range [][2][]float64{
		{{2, 3}, {1}}, {{2, 2.5}, {1, 1}}, {{3, 2}, {1, 1}}, {{1, 2}, {1, 1}}, {nil, nil},
	} {
		if got := FromWire(bad[0], bad[1]); len(got.K) != 0 {
			t.Errorf("FromWire(%v, %v) = %+v, want empty", bad[0], bad[1], got)
		}
	}
	if k, b := (Spread{}).Wire(); k != nil || b != nil {
		t.Errorf("empty spread's wire = %v, %v", k, b)
	}
}

// Measure agrees with the same halves computed a second way: each half
// built by Sample.Subset (floor(K/2) classes, R_x recounted with ties
// losing) instead of from the sorted rows, its full curves by the methods'
// own Fit (accuracy.Expected) instead of expectedAt, the standard deviation
// by two passes. The pilots: 40 classes, and 41 classes (halves of 20) with
// the scores rounded so that many points tie their class with another.
func TestMeasureMatchesDirectComputation(t *testing.T) {
	even := esttest.Pilot(t, 40, 3)
	odd := esttest.Pilot(t, 41, 5)
	for i, v := range odd.Scores {
		odd.Scores[i] = math.Round(v*5) / 5
	}
	for _, m := range []*scores.Matrix{even, odd} {
		s := esttest.Sample(t, m, scores.Lower)
		if m == odd && s.TiedShare() < 0.1 {
			t.Fatalf("rounded pilot: %v of the points tie, want at least 0.1", s.TiedShare())
		}
		measureDirectly(t, s)
	}
}

func measureDirectly(t *testing.T, s *accuracy.Sample) {
	t.Helper()
	got, err := Measure(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	ks := Grid(s.K)
	d := draw.New(seed, stream)
	vals := make([][]float64, len(ks))
	lo := 0.5 / float64(s.N())
	logit := func(p float64) float64 { p = min(max(p, lo), 1-lo); return math.Log(p / (1 - p)) }
	top := ks[len(ks)-1]
	for range Reps {
		half, err := s.Subset(d.Classes(s.K, s.K/2))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := tail.Estimator{}.Fit(context.Background(), half, top, nil)
		if err != nil {
			t.Fatal(err)
		}
		pr, err := pooled.Estimator{}.Fit(context.Background(), half, top, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range ks {
			vals[i] = append(vals[i], (logit(tr.Curve[k])+logit(pr.Curve[k]))/2)
		}
	}
	for i, k := range ks {
		m := 0.0
		for _, v := range vals[i] {
			m += v
		}
		m /= float64(len(vals[i]))
		ss := 0.0
		for _, v := range vals[i] {
			ss += (v - m) * (v - m)
		}
		want := math.Sqrt(ss / float64(len(vals[i])-1))
		if math.Abs(got.B[i]-want) > 1e-6*(1+want) {
			t.Errorf("K = %d, k=%d: spread %.9f, want %.9f", s.K, k, got.B[i], want)
		}
	}
}

// The spread does not depend on the scores' unit (the pooled and the tail
// method do not), and is the same bits on every platform (the wasm tests
// run this under node).
func TestMeasureScaleAndBits(t *testing.T) {
	m := esttest.Pilot(t, 30, 8)
	base, err := Measure(context.Background(), esttest.Sample(t, m, scores.Lower))
	if err != nil {
		t.Fatal(err)
	}
	// Exponents far out: at 2^600 and beyond a row's sum of squared
	// deviations overflows a float64 (the halves must not be dropped for
	// it), at 2^-900 it underflows.
	for _, e := range []int{-30, 30, -900, 505, 600, 1000} {
		c := *m
		c.Scores = slices.Clone(m.Scores)
		for i := range c.Scores {
			c.Scores[i] = math.Ldexp(c.Scores[i], e)
		}
		scaled, err := Measure(context.Background(), esttest.Sample(t, &c, scores.Lower))
		if err != nil {
			t.Errorf("scores times 2^%d: %v", e, err)
			continue
		}
		if !slices.Equal(base.B, scaled.B) {
			t.Errorf("scores times 2^%d moved the spread: %v vs %v", e, scaled.B[:3], base.B[:3])
		}
	}
	const want uint64 = 0xfce471ff53c71e34
	if got := esttest.Bits(base.B); got != want {
		t.Errorf("hash of the spread = %#x, want %#x (platform-dependent arithmetic crept in)", got, want)
	}
}

// A pilot of too few classes, one given as a per-point summary and a
// cancelled context are refused with their errors.
func TestMeasureRefusals(t *testing.T) {
	small := esttest.Sample(t, esttest.Pilot(t, 5, 1), scores.Lower)
	if _, err := Measure(context.Background(), small); !errors.Is(err, ErrTooFewClasses) {
		t.Errorf("5 classes: %v, want ErrTooFewClasses", err)
	}
	s := esttest.Sample(t, esttest.Pilot(t, 20, 2), scores.Lower)
	ranks := summary.KnotRanks(s.K, summary.DefaultQuantiles)
	pts := make([]accuracy.PointSummary, s.N())
	for i := range pts {
		pts[i] = s.Point(i, ranks)
	}
	sum, err := accuracy.NewSummarisedSample(s.K, ranks, pts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Measure(context.Background(), sum); !errors.Is(err, accuracy.ErrSummarised) {
		t.Errorf("summary: %v, want ErrSummarised", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Measure(ctx, s); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// BenchmarkMeasure times Measure on the simulated pilots of 100 and 500
// classes of the methods' own benchmarks (esttest.Pilot).
func BenchmarkMeasure(b *testing.B) {
	for _, k1 := range []int{100, 500} {
		s := esttest.Sample(b, esttest.Pilot(b, k1, 42), scores.Lower)
		b.Run(fmt.Sprintf("k1=%d", k1), func(b *testing.B) {
			for b.Loop() {
				if _, err := Measure(context.Background(), s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
