package accuracy

import "testing"

// TestCurvesSettled: 49 weights of 1/49 sum to 1.0000000000000007 in
// float64, which unsettled would give E_k and Abar_k above 1; the curves must
// lie in [0, 1] and never rise with k.
func TestCurvesSettled(t *testing.T) {
	const n = 49
	w := make([]float64, n)
	cx := make([]float64, n)
	r := make([]int, n)
	for i := range w {
		w[i], cx[i], r[i] = 1.0/n, 1, 2
	}
	for name, c := range map[string]Curve{
		"Expected": Expected(cx, w, 20),
		"Observed": Observed(r, w, 3),
	} {
		for k := 2; k < len(c); k++ {
			if !(c[k] >= 0 && c[k] <= 1) || c[k] > c[k-1] {
				t.Errorf("%s: c[%d] = %.17g (c[%d] = %.17g)", name, k, c[k], k-1, c[k-1])
			}
		}
	}
}
