package chart

import (
	"math"
	"slices"
	"testing"
)

func TestLinearTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		max    int
		want   []float64
	}{
		{0, 1, 6, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{0, 1, 11, []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}},
		{0, 1, 5, []float64{0, 0.5, 1}},
		{0, 1, 3, []float64{0, 0.5, 1}},
		{0, 1, 2, []float64{0, 1}},
		{2, 2000, 5, []float64{500, 1000, 1500, 2000}},
		{2, 2000, 10, []float64{200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000}},
		{0, 10000, 6, []float64{0, 2000, 4000, 6000, 8000, 10000}},
		{-0.3, 0.3, 7, []float64{-0.3, -0.2, -0.1, 0, 0.1, 0.2, 0.3}},
		{0.31, 0.37, 4, []float64{0.32, 0.34, 0.36}},
		{1.5, 1.5, 5, []float64{1.5}},
		{1, 0, 5, nil},
		{math.NaN(), 1, 5, nil},
		{0, math.Inf(1), 5, nil},
	} {
		got := LinearTicks(tc.lo, tc.hi, tc.max)
		if !slices.Equal(got, tc.want) {
			t.Errorf("LinearTicks(%g, %g, %d) = %v, want %v", tc.lo, tc.hi, tc.max, got, tc.want)
		}
	}
}

func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		max    int
		want   []float64
	}{
		{2, 2000, 12, []float64{2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000}},
		{2, 2000, 9, []float64{10, 100, 1000}},
		{1, 1e5, 20, []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 1e4, 2e4, 5e4, 1e5}},
		{1, 1e5, 6, []float64{1, 10, 100, 1000, 1e4, 1e5}},
		{1, 1e5, 4, []float64{1, 100, 1e4}},
		{1e-6, 1, 4, []float64{1e-6, 1e-4, 0.01, 1}},
		{1e-6, 1, 3, []float64{1e-6, 1e-3, 1}},
		{0.002, 0.7, 10, []float64{0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5}},
		// Within one decade: linear ticks on the log axis.
		{0.3, 0.9, 4, []float64{0.4, 0.6, 0.8}},
		{3, 4, 3, []float64{3, 3.5, 4}},
		{0, 10, 5, nil},
		{-1, 10, 5, nil},
	} {
		got := LogTicks(tc.lo, tc.hi, tc.max)
		if !slices.Equal(got, tc.want) {
			t.Errorf("LogTicks(%g, %g, %d) = %v, want %v", tc.lo, tc.hi, tc.max, got, tc.want)
		}
	}
}

// TestTicksCoverRange checks, over many ranges, that ticks are inside the
// range, increasing, at most maxTicks, and at least two when the range allows.
func TestTicksCoverRange(t *testing.T) {
	for _, lo := range []float64{1e-5, 0.013, 0.5, 1, 2, 7, 1234} {
		for _, f := range []float64{1.01, 1.5, 3, 10, 99, 1e4, 1e9} {
			hi := lo * f
			for _, n := range []int{2, 3, 5, 8, 12} {
				for name, ticks := range map[string][]float64{"linear": LinearTicks(lo, hi, n), "log": LogTicks(lo, hi, n)} {
					if len(ticks) == 0 || len(ticks) > n {
						t.Errorf("%s(%g, %g, %d) = %v: want 1..%d ticks", name, lo, hi, n, ticks, n)
					}
					for i, v := range ticks {
						if v < lo*(1-1e-9) || v > hi*(1+1e-9) || (i > 0 && v <= ticks[i-1]) {
							t.Errorf("%s(%g, %g, %d) = %v: outside range or not increasing", name, lo, hi, n, ticks)
						}
					}
				}
			}
		}
	}
}

func TestFormatTick(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {0.2, "0.2"}, {mulPow10(3, -1), "0.3"}, {200, "200"}, {2000, "2,000"},
		{1e5, "100,000"}, {2.5e6, "2,500,000"}, {1e7, "10,000,000"}, {2500.5, "2500.5"}, {-3000, "−3,000"},
		{0.001, "0.001"}, {1e-5, "1e-5"}, {2.5e9, "2.5e9"}, {-0.5, "−0.5"}, {-2e-5, "−2e-5"},
		// ticks made as m / 10^e with an inexact 10^e
		{mulPow10(1, -24), "1e-24"}, {mulPow10(2, -30), "2e-30"}, {mulPow10(5, 25), "5e25"},
	} {
		if got := FormatTick(tc.v); got != tc.want {
			t.Errorf("FormatTick(%g) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
