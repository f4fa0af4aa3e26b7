package regress

import (
	"context"
	"math"

	"github.com/cleanex/cleanex/internal/accuracy"

	"gonum.org/v1/gonum/stat/distuv"
)

// Quadrature of the basis integrals
//
//	b(mu, s, k) = E[Phi(Z)^(k-1)] = ∫ phi(z) Phi(mu + s z)^(k-1) dz,  Z ~ N(mu, s^2),
//
// by the trapezoid rule on z_j = j h, |z_j| <= quadZMax, with weights h phi(z_j).
// The integrand is entire and decays like phi(z), so the rule converges
// exponentially in 1/h; the step is set by the sharpest feature, the rise of
// Phi(mu + s z)^(k-1) from 0 to 1, whose width in x = mu + s z is about
// 1/Phi^-1(1 - 1/k) (≈ 0.3 at k = 2000), so in z it scales as 1/s:
// h = min(quadHMax, quadHX/s). TestBasisQuadrature holds the rule against a
// brute-force Simpson integral (48,000 panels) to 1e-11 for k up to 20,000.
const (
	quadZMax = 9.0  // phi(9) ≈ 1e-18: the truncated tails weigh < 1e-18
	quadHMax = 0.25 // step for the standard normal weight alone
	quadHX   = 0.08 // step in x = mu + s z
	// underflow: a node whose power q^(k-1) fell below this stops contributing
	// (its contribution, and all later ones, are < 1e-18 * weight).
	quadDead = 1e-18
)

// quadRule returns the trapezoid nodes z_j and weights h phi(z_j) for bandwidth s.
func quadRule(s float64) (z, w []float64) {
	h := math.Min(quadHMax, quadHX/s)
	n := int(math.Floor(quadZMax / h))
	z = make([]float64, 0, 2*n+1)
	w = make([]float64, 0, 2*n+1)
	for j := -n; j <= n; j++ {
		x := float64(j) * h
		z = append(z, x)
		w = append(w, h*math.Exp(-x*x/2)/math.Sqrt(2*math.Pi))
	}
	return z, w
}

// normCDF is Phi(x) = erfc(-x/sqrt 2)/2, accurate in both tails.
func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// meanGrid returns the finite basis means for bandwidth s, following Zheng,
// Achanta & Benjamini's ClassEx: a grid symmetric about 0,
//
//	mu_j = j Δ,  j = -(n-1)..(n-1),  n = ceil(muMax/s),  Δ = muMax/(n-1),
//
// so the lower end is -muMax = Phi^-1(1/k1^2), the upper end muMax =
// Phi^-1(1 - 1/k1^2), and the spacing Δ is s or a little more (one basis
// function per bandwidth). n = 1 gives the single mean 0.
func meanGrid(muMax, s float64) []float64 {
	n := int(math.Ceil(muMax / s))
	if n <= 1 {
		return []float64{0}
	}
	d := muMax / float64(n-1)
	mus := make([]float64, 0, 2*n-1)
	for j := -(n - 1); j <= n-1; j++ {
		mus = append(mus, float64(j)*d)
	}
	return mus
}

// muMax returns Phi^-1(1 - 1/k1^2), the largest basis mean for a pilot of k1 classes.
func muMax(k1 int) float64 {
	return distuv.UnitNormal.Quantile(1 - 1/(float64(k1)*float64(k1)))
}

// basis is the design matrix for one bandwidth: b_j(k) for k = 2..kmax, one
// column per mean plus a last constant column (b(k) = 1, the limit mu -> inf:
// points that beat every incorrect class).
type basis struct {
	s    float64
	mus  []float64
	kmax int
	cols int
	// val is row-major: val[(k-2)*cols + j] = b_j(k).
	val []float64
}

// newBasis computes the basis for means mus and bandwidth s at k = 2..kmax.
// It returns ctx.Err() if ctx is done between columns.
func newBasis(ctx context.Context, mus []float64, s float64, kmax int) (*basis, error) {
	b := &basis{s: s, mus: mus, kmax: kmax, cols: len(mus) + 1}
	b.val = make([]float64, (kmax-1)*b.cols)
	z, w := quadRule(s)
	for j, mu := range mus {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		column(mu, s, z, w, kmax, b.val[j:], b.cols)
	}
	for k := 2; k <= kmax; k++ {
		b.val[(k-2)*b.cols+b.cols-1] = 1
	}
	return b, nil
}

// column writes b(mu, s, k) for k = 2..kmax to dst[(k-2)*stride] using the
// quadrature nodes z and weights w. Per node the powers Phi(x_i)^(k-1) are
// built by repeated multiplication (a relative error of about 2 k eps, below
// 1e-12 for k up to 2000). Each step multiplies by a factor <= 1, so the
// computed column is non-increasing in k exactly, not just up to rounding.
func column(mu, s float64, z, w []float64, kmax int, dst []float64, stride int) {
	q := make([]float64, len(z))
	p := make([]float64, len(z))
	for i, zi := range z {
		q[i] = normCDF(mu + s*zi)
		p[i] = 1
	}
	// q is non-decreasing in i, so the nodes whose power underflows form a prefix.
	lo := 0
	for k := 2; k <= kmax; k++ {
		sum := 0.0
		for i := lo; i < len(z); i++ {
			p[i] *= q[i]
			sum += w[i] * p[i]
		}
		for lo < len(z) && p[lo] < quadDead {
			lo++
		}
		dst[(k-2)*stride] = sum
	}
}

// mixtureCurve returns min(1, sum_j coef_j b_j(k)) for k = 2..k2 (with
// c[0] = c[1] = 1) for the means mus (coefficient coef[j]) and the constant
// (coefficient coef[len(mus)]), computing only the columns with a positive
// coefficient; the values are those of basis.predict, term for term. It
// returns ctx.Err() if ctx is done between columns.
func mixtureCurve(ctx context.Context, mus []float64, s float64, coef []float64, k2 int) (accuracy.Curve, error) {
	c := make(accuracy.Curve, k2+1)
	col := make([]float64, k2-1)
	z, w := quadRule(s)
	for j, mu := range mus {
		if coef[j] <= 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		column(mu, s, z, w, k2, col, 1)
		for k := 2; k <= k2; k++ {
			c[k] += coef[j] * col[k-2]
		}
	}
	if a := coef[len(mus)]; a > 0 {
		for k := 2; k <= k2; k++ {
			c[k] += a
		}
	}
	c[0], c[1] = 1, 1
	for k := 2; k <= k2; k++ {
		c[k] = math.Min(1, c[k])
	}
	return c, nil
}

// row returns b_j(k) for all j (a view).
func (b *basis) row(k int) []float64 {
	return b.val[(k-2)*b.cols : (k-1)*b.cols]
}

// rows returns the design rows k = 2..kTo, row-major (a view).
func (b *basis) rows(kTo int) []float64 {
	return b.val[:(kTo-1)*b.cols]
}

// predict returns sum_j coef_j b_j(k).
func (b *basis) predict(coef []float64, k int) float64 { return dot(coef, b.row(k)) }
