package radix

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFloat64sAsSlicesSort compares with slices.Sort on rows of many kinds:
// lengths around the cutoff, ties, both signs, zeros, infinities,
// subnormals and values spanning every exponent.
func TestFloat64sAsSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gens := map[string]func() float64{
		"normal":   rng.NormFloat64,
		"ties":     func() float64 { return float64(rng.IntN(7)) - 3 },
		"positive": func() float64 { return rng.ExpFloat64() * 1e-6 },
		"extremes": func() float64 {
			return []float64{math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.SmallestNonzeroFloat64, 5e-324, 0}[rng.IntN(6)]
		},
		"exponents": func() float64 { return math.Ldexp(rng.Float64()-0.5, rng.IntN(2000)-1000) },
	}
	for name, gen := range gens {
		for _, n := range []int{0, 1, 2, below - 1, below, below + 1, 1000, 10007} {
			x := make([]float64, n)
			for i := range x {
				x[i] = gen()
			}
			want := slices.Clone(x)
			slices.Sort(want)
			got := slices.Clone(x)
			var buf []float64
			if n%2 == 0 {
				buf = make([]float64, n+3)
			}
			Float64s(got, buf)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%s n=%d: at %d got %v, slices.Sort %v", name, n, i, got[i], want[i])
				}
			}
		}
	}
}

// TestFloat64sZeros checks that -0 sorts before +0.
func TestFloat64sZeros(t *testing.T) {
	x := make([]float64, 2*below)
	for i := range x {
		if i%2 == 0 {
			x[i] = math.Copysign(0, -1)
		}
	}
	Float64s(x, nil)
	for i, v := range x {
		if math.Signbit(v) != (i < below) {
			t.Fatalf("at %d: %v (sign bit %v)", i, v, math.Signbit(v))
		}
	}
}

// BenchmarkFloat64s sorts a row of 10,000 scores (a pilot of 10,000
// classes), against slices.Sort.
func BenchmarkFloat64s(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	row := make([]float64, 10000)
	for i := range row {
		row[i] = -math.Sqrt(100 + 10*rng.NormFloat64())
	}
	x, buf := make([]float64, len(row)), make([]float64, len(row))
	b.Run("radix", func(b *testing.B) {
		for b.Loop() {
			copy(x, row)
			Float64s(x, buf)
		}
	})
	b.Run("slices.Sort", func(b *testing.B) {
		for b.Loop() {
			copy(x, row)
			slices.Sort(x)
		}
	})
}
