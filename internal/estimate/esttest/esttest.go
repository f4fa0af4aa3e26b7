// Package esttest holds what the tests of the score-based methods
// (internal/estimate/pooled, .../tail) share: a small simulated pilot, its
// Sample, checks of scale invariance, of refusals and of pinned bits, and a
// fit benchmark.
package esttest

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

// Pilot returns a simulated pilot of k1 classes drawn from a world of 4 k1
// (the paper's generator: normal classes and points, d = 3, σ² = 0.1,
// r = 4 points per class), scored by distance.
func Pilot(t testing.TB, k1 int, seed uint64) *scores.Matrix {
	t.Helper()
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 3, Sigma2: 0.1, K: 4 * k1, R: 4, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	m, err := w.Pilot(k1, seed)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Sample returns m's Sample read in direction dir.
func Sample(t testing.TB, m *scores.Matrix, dir scores.Direction) *accuracy.Sample {
	t.Helper()
	s, _, err := accuracy.NewSample(m, dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// BenchmarkFit times e's fit to k2 = 2000 on the Pilot of 100 and of 500
// classes, as sub-benchmarks "k1=100" and "k1=500".
func BenchmarkFit(b *testing.B, e estimate.Estimator) {
	for _, k1 := range []int{100, 500} {
		s := Sample(b, Pilot(b, k1, 42), scores.Lower)
		b.Run(fmt.Sprintf("k1=%d", k1), func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Fit(context.Background(), s, 2000, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// ScaleDoesNotMatter checks that e's curve does not move when every row of
// a pilot's scores is changed by a positive affine map: the scores' unit
// (2^-40, subnormal, 2^1000, 1e-6) and a shift per row (1e6 x + 3 row).
// For powers of two, which scale without rounding, the curve must be
// exactly the same; otherwise within RMSE 1e-9.
func ScaleDoesNotMatter(t *testing.T, e estimate.Estimator) {
	t.Helper()
	m := Pilot(t, 15, 5)
	base, err := e.Fit(context.Background(), Sample(t, m, scores.Lower), 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		f     func(row int, v float64) float64
		exact bool
	}{
		{"x 2^-40", func(_ int, v float64) float64 { return math.Ldexp(v, -40) }, true},
		{"x 2^-1040 (subnormal)", func(_ int, v float64) float64 { return math.Ldexp(v, -1040) }, false},
		{"x 2^1000", func(_ int, v float64) float64 { return math.Ldexp(v, 1000) }, true},
		{"x 1e-6", func(_ int, v float64) float64 { return v * 1e-6 }, false},
		{"x 1e6 + 3 row", func(r int, v float64) float64 { return v*1e6 + 3*float64(r) }, false},
	} {
		c := *m
		c.Scores = slices.Clone(m.Scores)
		for i := range c.Scores {
			c.Scores[i] = tc.f(i/len(m.Classes), m.Scores[i])
		}
		got, err := e.Fit(context.Background(), Sample(t, &c, scores.Lower), 100, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		d := accuracy.RMSE(got.Curve, base.Curve, 100)
		if tc.exact && d != 0 || d > 1e-9 {
			t.Errorf("%s: the curve moved by RMSE %.3g", tc.name, d)
		}
	}
}

// TooFewClassesAndCancel checks that e refuses a pilot of 2 classes with
// tooFew and stops with context.Canceled when its context is done.
func TooFewClassesAndCancel(t *testing.T, e estimate.Estimator, tooFew error) {
	t.Helper()
	two := &scores.Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 1}, Scores: []float64{1, 0, 0, 1}}
	if _, err := e.Fit(context.Background(), Sample(t, two, scores.Higher), 5, nil); !errors.Is(err, tooFew) {
		t.Errorf("2 classes: %v, want %v", err, tooFew)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Fit(ctx, Sample(t, Pilot(t, 10, 1), scores.Lower), 20, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// SameBits checks e's fit on the Pilot of 150 classes (above 130: the knot
// ranks) to k2 = 900 against want, the FNV-1a hash of the bits of its C_x
// and curve: a method meant to give the same bits natively and in wasm
// (the wasm tests run it under node) pins them with it.
func SameBits(t *testing.T, e estimate.Estimator, want uint64) {
	t.Helper()
	res, err := e.Fit(context.Background(), Sample(t, Pilot(t, 150, 4), scores.Lower), 900, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := Bits(append(res.C, res.Curve...)); got != want {
		t.Errorf("hash of the fit = %#x, want %#x (platform-dependent arithmetic crept in)", got, want)
	}
}

// Bits returns the FNV-1a hash of the bits of vs (little-endian float64s):
// what a test pins to check that a computation gives the same bits on every
// platform.
func Bits(vs []float64) uint64 {
	h := fnv.New64a()
	for _, v := range vs {
		binary.Write(h, binary.LittleEndian, math.Float64bits(v))
	}
	return h.Sum64()
}
