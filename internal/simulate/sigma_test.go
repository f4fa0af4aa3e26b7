package simulate

import (
	"math"
	"strings"
	"testing"
)

// TestSigma2Representable: a sigma2 whose squared distances would overflow
// float64 (1e308) is refused with the largest usable value; the largest
// accepted one gives finite scores everywhere.
func TestSigma2Representable(t *testing.T) {
	for _, tc := range []struct {
		sigma2 float64
		d      int
		want   string // "" when accepted
	}{
		{1e308, 5, "sigma2 = 1e+308 with d = 5: the squared distances would overflow a 64-bit float"},
		{1e300, 2, "use sigma2 <= 5e+299"},
		{1e300 / 5, 5, ""},
		{1e-6, 5, ""},
	} {
		cfg := Config{Classes: Normal, Points: Normal, D: tc.d, Sigma2: tc.sigma2, K: 20, R: 3, Seed: 1}
		w, err := Generate(cfg)
		if tc.want != "" {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("sigma2 %g d %d: error %v, want %q", tc.sigma2, tc.d, err, tc.want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("sigma2 %g: %v", tc.sigma2, err)
		}
		for i := range w.N() {
			for j := range cfg.K {
				if v := w.Score(i, j); math.IsInf(v, 0) || math.IsNaN(v) {
					t.Fatalf("sigma2 %g: score(%d, %d) = %v", tc.sigma2, i, j, v)
				}
			}
		}
	}
}
