package detmath

// Variance returns the sample variance of x, sum (x_i - mean)^2 / (n - 1),
// with both sums run in order. Written out rather than gonum's
// stat.Variance, whose sums run assembly on amd64 in another order than in
// wasm: a statistic that decides something (KDE's bandwidth, the tail
// spread) must be the same bits in the command line and in the browser.
// It needs at least two values.
func Variance(x []float64) float64 {
	mean := 0.0
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	ss := 0.0
	for _, v := range x {
		d := v - mean
		ss += d * d
	}
	return ss / float64(len(x)-1)
}
