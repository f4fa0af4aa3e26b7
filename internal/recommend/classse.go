package recommend

import (
	"math"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/detmath"
)

// ClassSE returns, for k = 0..K, the standard error of the pilot's observed
// accuracy Abar_k that comes from which classes the pilot happens to hold,
// treating its K classes as a simple random sample from a large population:
//
//	Abar_k = (1/K) sum_y a_y(k),   a_y(k) = sum_{x in y} (w_x K) t_x(k),
//	t_x(k) = prod_{i=1..k-1} (R_x + 1 - i) / (K - i),
//	se_k = sd_y(a_y(k)) / sqrt(K),
//
// with sd the sample standard deviation over the K classes (a_y(k) is the
// class's own accuracy at k, averaged over its points). se_0 = se_1 = 0. It
// leaves out the variation of R_x itself with the drawn competitors, so it
// is a lower bound on the class-sampling error; the calibration
// (Calibration) scales it.
func ClassSE(s *accuracy.Sample) accuracy.Curve {
	k := s.K
	// weight per (class, R): the class's share of its points with R_x = R.
	type cell struct {
		r int
		w float64
	}
	cells := make([][]cell, k)
	for i, y := range s.Labels {
		w := s.Weight[i] * float64(k)
		found := false
		for j := range cells[y] {
			if cells[y][j].r == s.R[i] {
				cells[y][j].w += w
				found = true
				break
			}
		}
		if !found {
			cells[y] = append(cells[y], cell{s.R[i], w})
		}
	}
	logs := make([]float64, k+1)
	for i := 1; i <= k; i++ {
		logs[i] = detmath.Log(float64(i))
	}
	// term[R][kk] = t(kk) for R_x = R, kk = 2..R+1 (0 beyond).
	term := make(map[int][]float64)
	for _, cs := range cells {
		for _, c := range cs {
			if _, ok := term[c.r]; ok {
				continue
			}
			t := make([]float64, k+1)
			lp := 0.0
			for kk := 2; kk <= c.r+1 && kk <= k; kk++ {
				i := kk - 1
				lp += logs[c.r+1-i] - logs[k-i]
				t[kk] = detmath.Exp(lp)
			}
			term[c.r] = t
		}
	}
	se := make(accuracy.Curve, k+1)
	sum := make([]float64, k+1)
	sum2 := make([]float64, k+1)
	a := make([]float64, k+1)
	for _, cs := range cells {
		clear(a)
		for _, c := range cs {
			t := term[c.r]
			for kk := 2; kk <= k; kk++ {
				a[kk] += c.w * t[kk]
			}
		}
		for kk := 2; kk <= k; kk++ {
			sum[kk] += a[kk]
			sum2[kk] += a[kk] * a[kk]
		}
	}
	if k < 2 {
		return se
	}
	for kk := 2; kk <= k; kk++ {
		m := sum[kk] / float64(k)
		v := (sum2[kk] - float64(k)*m*m) / float64(k-1)
		se[kk] = math.Sqrt(max(v, 0) / float64(k))
	}
	return se
}
