package regress

// NNLS solves min ||A x - b||_2 subject to x >= 0, A m x n row-major, by
// the active-set algorithm of Lawson & Hanson (see nnls); other packages use it
// to fit non-negative coefficients (internal/recommend's interval scale).
func NNLS(a []float64, m, n int, b []float64) ([]float64, error) { return nnls(a, m, n, b) }
