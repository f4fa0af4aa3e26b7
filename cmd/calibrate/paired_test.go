package main

import (
	"math"
	"testing"
)

// pairedMargin against the hand computation: d = 0.001, 0.003, 0.005,
// 0.007 (the NaN pilot left out) has mean 0.004, sample standard deviation
// sqrt(20e-6 / 3) and standard error that over 2.
func TestPairedMargin(t *testing.T) {
	est := []float64{0.011, 0.013, 0.5, 0.015, 0.017}
	other := []float64{0.010, 0.010, math.NaN(), 0.010, 0.010}
	mean, se, z, n := pairedMargin(est, other, 0.003)
	wantSE := math.Sqrt(20e-6/3) / 2
	if n != 4 || math.Abs(mean-0.004) > 1e-15 || math.Abs(se-wantSE) > 1e-15 || math.Abs(z-0.001/wantSE) > 1e-9 {
		t.Errorf("pairedMargin = %v, %v, %v, %d; want 0.004, %v, %v, 4", mean, se, z, n, wantSE, 0.001/wantSE)
	}
	if _, _, z, n := pairedMargin([]float64{1}, []float64{0.5}, 0); n != 1 || !math.IsNaN(z) {
		t.Errorf("one pilot: z = %v, n = %d; want NaN, 1", z, n)
	}
}

// lowestMean skips NaN values and rows without any.
func TestLowestMean(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		rows [][]float64
		best int
		mean float64
	}{
		{[][]float64{{0.3, 0.1}, {0.1, nan}, {0.2, 0.2}}, 1, 0.1},
		{[][]float64{{nan}, {0.4, 0.2}}, 1, 0.3},
		{[][]float64{{nan}}, -1, math.Inf(1)},
	} {
		if best, mean := lowestMean(c.rows); best != c.best || math.Abs(mean-c.mean) > 1e-15 && !math.IsInf(c.mean, 1) {
			t.Errorf("lowestMean(%v) = %d, %v; want %d, %v", c.rows, best, mean, c.best, c.mean)
		}
	}
}
