package cleanex

import (
	"math"

	"github.com/cleanex/cleanex/internal/accuracy"
)

// pretrainTarget returns, per point, the logit of a peaks-over-threshold
// estimate of C_x. With m = max(5, round(sqrt(K-1))) and u = s_(m) the
// point's m-th highest incorrect score, the incorrect scores above u are
// treated as an exponential tail with scale beta = mean of (s_(j) - u),
// j < m (its maximum-likelihood estimate), so for a correct score s_c > u
//
//	1 - C_x = (m / (K-1)) exp(-(s_c - u) / beta),
//
// and below u the smoothed empirical 1 - C_x = (K-1-R_x + 0.5) / K.
func pretrainTarget(s *accuracy.Sample) []float64 {
	k := s.K
	m := max(5, int(math.Round(math.Sqrt(float64(k-1)))))
	m = min(m, k-1)
	t := make([]float64, s.N())
	for i, c := range s.Correct {
		inc := s.IncorrectRow(i)
		u := inc[len(inc)-m]
		var q float64 // 1 - C_x
		if c > u && m > 1 {
			beta := 0.0
			for j := 1; j < m; j++ {
				beta += inc[len(inc)-j] - u
			}
			beta /= float64(m - 1)
			if beta <= 0 {
				beta = 1e-12
			}
			q = float64(m) / float64(k-1) * math.Exp(-(c-u)/beta)
			q = min(q, (float64(k-1-s.R[i])+0.5)/float64(k))
		} else {
			q = (float64(k-1-s.R[i]) + 0.5) / float64(k)
		}
		q = min(max(q, 1e-12), 1-1e-12)
		t[i] = math.Log((1 - q) / q)
	}
	return t
}

// targetLoss is sum_x w_x (z_x - t_x)^2 with its gradient 2 w_x (z_x - t_x).
func targetLoss[T float](z, dz []T, t, w []float64) float64 {
	l := 0.0
	for i, zi := range z {
		d := float64(zi) - t[i]
		l += w[i] * d * d
		dz[i] = T(2 * w[i] * d)
	}
	return l
}
