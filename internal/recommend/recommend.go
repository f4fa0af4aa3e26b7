// Package recommend turns the fits of several methods on one pilot into one
// recommended accuracy curve with an 80% interval at every k.
//
// The estimate is, at every k, the median of three curves: the regression of
// Zheng et al., the KDE of Kay et al. and the mean curve of several CleaneX
// fits (different seeds), cx_k = (1/M) sum_m E_k^(m):
//
//	est_k = median(reg_k, kde_k, cx_k)
//
// (the mean of the two that are left when one failed, the one that is left
// when two failed). No weight is fitted: the median keeps whichever method
// sits between the other two, so one method that breaks down on a pilot
// cannot carry the estimate with it. The interval is a location-scale model
// in logit space,
//
//	[sigma(z_k + q_lo(L_k) s_k), sigma(z_k + q_hi(L_k) s_k)],   z_k = logit(est_k),
//	s_k = a_0 + a_1 SE_k + a_2 D_k + a_3 S_k + a_4 L_k + a_5 L_k SE_k + a_6 G_k,
//
// whose features are measured on the user's own pilot: SE_k, the
// class-sampling standard error of the observed curve (ClassSE) at
// min(k, k1) in logit units (with a binomial floor, see Fits.N); D_k, the
// range (max - min) of the logits of the three curves, how much the methods
// disagree; S_k, the standard deviation of logit E_k^(m) over the CleaneX
// seeds (these logits clamp probabilities to [0.5/N, 1 - 0.5/N]); L_k = max(0, log(k / k1)), how far the curve is extrapolated (the
// quantiles q_lo, q_hi depend on it too); and G_k = max(0, logit(Abar_k1) -
// z_k), how far the estimate falls below the pilot's own accuracy at k1
// (zero for k <= k1). The coefficients a_j >= 0 and the quantiles come from a
// Calibration fitted on the benchmark bank (internal/bank) by cmd/calibrate
// and embedded in the package (calibration.json). The interval is never
// narrower than the Wilson interval of the pilot's own accuracy.
package recommend

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cleanex/cleanex/internal/accuracy"
)

// Fits are the curves of one pilot that the recommendation combines.
type Fits struct {
	// K1 is the pilot's number of classes.
	K1 int
	// Observed is the pilot's exact observed curve, k = 0..K1.
	Observed accuracy.Curve
	// ClassSE is ClassSE of the pilot, k = 0..K1.
	ClassSE accuracy.Curve
	// N is the pilot's number of points (0 when unknown): it sets a floor
	// under SE_k for pilots whose observed accuracy is at or near 1 (see
	// features).
	N int
	// Regression and KDE are those methods' curves (nil when they failed).
	Regression, KDE accuracy.Curve
	// CleaneX holds the curves of the CleaneX fits that succeeded.
	CleaneX []accuracy.Curve
}

// Features are the interval model's inputs at one k (see the package doc).
type Features struct {
	// SE, D, S, L and G are SE_k, D_k, S_k, L_k and G_k.
	SE, D, S, L, G float64
}

// NumCoef is the number of scale coefficients a_j.
const NumCoef = 7

// vector returns the features multiplied by a_0..a_6: (1, SE, D, S, L, L SE, G).
func (f Features) vector() [NumCoef]float64 {
	return [NumCoef]float64{1, f.SE, f.D, f.S, f.L, f.L * f.SE, f.G}
}

// Calibration holds the fitted constants of the recommendation.
type Calibration struct {
	// Coef holds a_0..a_6 of the scale s_k.
	Coef [NumCoef]float64 `json:"coef"`
	// Knots holds increasing values of L_k at which QLo and QHi are given:
	// the 10% and 90% quantiles of the standardised residual
	// (logit(truth_k) - z_k) / s_k on the calibration bank near that L.
	// Between knots they are interpolated linearly, beyond the ends held
	// constant (Quantiles).
	Knots []float64 `json:"knots"`
	QLo   []float64 `json:"q_lo"`
	QHi   []float64 `json:"q_hi"`
}

// Quantiles returns q_lo and q_hi at extrapolation L (see Knots).
func (cal Calibration) Quantiles(l float64) (lo, hi float64) {
	n := len(cal.Knots)
	switch {
	case n == 0:
		return 0, 0
	case l <= cal.Knots[0]:
		return cal.QLo[0], cal.QHi[0]
	case l >= cal.Knots[n-1]:
		return cal.QLo[n-1], cal.QHi[n-1]
	}
	j := 1
	for cal.Knots[j] < l {
		j++
	}
	t := (l - cal.Knots[j-1]) / (cal.Knots[j] - cal.Knots[j-1])
	return cal.QLo[j-1] + t*(cal.QLo[j]-cal.QLo[j-1]), cal.QHi[j-1] + t*(cal.QHi[j]-cal.QHi[j-1])
}

// validate checks that the knots increase and match the quantiles.
func (cal Calibration) validate() error {
	if len(cal.Knots) == 0 || len(cal.QLo) != len(cal.Knots) || len(cal.QHi) != len(cal.Knots) {
		return fmt.Errorf("recommend: calibration has %d knots, %d lower and %d upper quantiles", len(cal.Knots), len(cal.QLo), len(cal.QHi))
	}
	for j := range cal.Knots {
		if j > 0 && !(cal.Knots[j] > cal.Knots[j-1]) || !(cal.QLo[j] <= cal.QHi[j]) {
			return fmt.Errorf("recommend: calibration knot %d is out of order", j)
		}
	}
	return nil
}

// Result is the recommendation for k = 0..k2.
type Result struct {
	// Estimate is the recommended curve; Lo and Hi bound its 80% interval.
	Estimate, Lo, Hi accuracy.Curve
	// Sources names the methods that went into the estimate ("regression",
	// "cleanex ×M").
	Sources []string
	// Features holds the interval model's inputs at each k (for the evidence
	// shown to the user).
	Features []Features
}

// ErrNoFits is returned when none of regression, KDE and CleaneX is available.
var ErrNoFits = errors.New("recommend: none of regression, KDE and CleaneX produced a usable curve, so there is no estimate to recommend")

// logitClamp bounds probabilities away from 0 and 1 before the logit.
const logitClamp = 1e-6

func logit(p float64) float64 { return clampedLogit(p, logitClamp) }

// clampedLogit returns log(p / (1 - p)) with p first clamped to [eps, 1 - eps].
func clampedLogit(p, eps float64) float64 {
	p = min(max(p, eps), 1-eps)
	return math.Log(p / (1 - p))
}

// featureClamp returns how far from 0 and 1 a probability is clamped before
// the logits of the interval's features D, S and G: half a point of the
// pilot (0.5 / N), since the pilot cannot tell accuracies closer to 0 or 1
// apart, so a curve that reaches exactly 1 at small k does not make the
// methods look wildly apart; logitClamp when N is unknown.
func featureClamp(f Fits) float64 {
	if f.N > 0 {
		return max(logitClamp, 0.5/float64(f.N))
	}
	return logitClamp
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// meanCurve returns the pointwise mean of the curves up to k2.
func meanCurve(cs []accuracy.Curve, k2 int) accuracy.Curve {
	m := make(accuracy.Curve, k2+1)
	for _, c := range cs {
		for k := 0; k <= k2; k++ {
			m[k] += c[k] / float64(len(cs))
		}
	}
	return m
}

// Recommend combines f into the recommended curve and its interval for
// k = 0..k2 with the constants of cal.
func Recommend(f Fits, k2 int, cal Calibration) (Result, error) {
	if k2 < 2 {
		return Result{}, fmt.Errorf("recommend: k2 = %d: it must be at least 2", k2)
	}
	if err := cal.validate(); err != nil {
		return Result{}, err
	}
	if f.K1 < 2 || f.Observed.Max() < f.K1 || f.ClassSE.Max() < f.K1 {
		return Result{}, fmt.Errorf("recommend: the pilot's observed curve and its standard errors must cover k = 0..k1 = %d", f.K1)
	}
	var cx []accuracy.Curve
	for _, c := range f.CleaneX {
		if c.Max() >= k2 {
			cx = append(cx, c)
		}
	}
	var parts []accuracy.Curve // the curves whose median is the estimate
	var sources []string
	for _, p := range []struct {
		name string
		c    accuracy.Curve
	}{{"regression", f.Regression}, {"kde", f.KDE}} {
		if p.c != nil && p.c.Max() >= k2 {
			parts = append(parts, p.c)
			sources = append(sources, p.name)
		}
	}
	if len(cx) > 0 {
		parts = append(parts, meanCurve(cx, k2))
		sources = append(sources, fmt.Sprintf("cleanex ×%d", len(cx)))
	}
	if len(parts) == 0 {
		return Result{}, ErrNoFits
	}
	res := Result{Estimate: make(accuracy.Curve, k2+1), Lo: make(accuracy.Curve, k2+1),
		Hi: make(accuracy.Curve, k2+1), Sources: sources, Features: make([]Features, k2+1)}
	zs := make([]float64, len(parts))
	eps := featureClamp(f)
	for k := 0; k <= k2; k++ {
		if k < 2 {
			res.Estimate[k], res.Lo[k], res.Hi[k] = 1, 1, 1
			continue
		}
		for i, c := range parts {
			zs[i] = logit(c[k])
		}
		slices.Sort(zs)
		z := (zs[(len(zs)-1)/2] + zs[len(zs)/2]) / 2
		ft := features(f, cx, k)
		ft.D = clampedLogit(sigmoid(zs[len(zs)-1]), eps) - clampedLogit(sigmoid(zs[0]), eps)
		if k > f.K1 {
			ft.G = math.Max(0, clampedLogit(f.Observed[f.K1], eps)-clampedLogit(sigmoid(z), eps))
		}
		s := cal.scale(ft)
		res.Features[k] = ft
		res.Estimate[k] = sigmoid(z)
		qlo, qhi := cal.Quantiles(ft.L)
		res.Lo[k] = sigmoid(z + qlo*s)
		res.Hi[k] = sigmoid(z + qhi*s)
		if f.N > 0 {
			// Never narrower than the binomial uncertainty of the pilot's own
			// accuracy: the interval's distances below and above the estimate
			// are at least those of the Wilson 80% interval of Abar_min(k, k1)
			// on N points.
			a := f.Observed[min(k, f.K1)]
			wlo, whi := wilson(a, f.N)
			res.Lo[k] = max(0, min(res.Lo[k], res.Estimate[k]-(a-wlo)))
			res.Hi[k] = min(1, max(res.Hi[k], res.Estimate[k]+(whi-a)))
		}
	}
	monotone(res.Estimate)
	monotone(res.Lo)
	monotone(res.Hi)
	return res, nil
}

// monotone makes c non-increasing from k = 2 on by a running minimum (the
// accuracy can only fall as classes are added).
func monotone(c accuracy.Curve) {
	for k := 3; k < len(c); k++ {
		c[k] = min(c[k], c[k-1])
	}
}

// scale returns s_k for the features ft.
func (cal Calibration) scale(ft Features) float64 {
	v := ft.vector()
	s := 0.0
	for j, a := range cal.Coef {
		s += a * v[j]
	}
	return s
}

// features returns the interval model's inputs SE, S and L at k.
func features(f Fits, cx []accuracy.Curve, k int) Features {
	kk := min(k, f.K1)
	a := min(max(f.Observed[kk], logitClamp), 1-logitClamp)
	se := f.ClassSE[kk]
	if f.N > 0 {
		// Shrink the accuracy towards 1/2 as if two points more had been
		// right and two wrong, and keep at least the binomial standard error
		// of N points, so a pilot that is right on every point still gets
		// an interval.
		n := float64(f.N)
		a = (n*f.Observed[kk] + 2) / (n + 4)
		se = max(se, math.Sqrt(a*(1-a)/n))
	}
	ft := Features{SE: se / (a * (1 - a)), L: math.Max(0, math.Log(float64(k)/float64(f.K1)))}
	if len(cx) > 1 {
		m, m2 := 0.0, 0.0
		eps := featureClamp(f)
		for _, c := range cx {
			z := clampedLogit(c[k], eps)
			m += z
			m2 += z * z
		}
		n := float64(len(cx))
		m /= n
		ft.S = math.Sqrt(max(0, (m2-n*m*m)/(n-1)))
	}
	return ft
}

// wilsonZ is the standard normal quantile of 90%, for a two-sided 80% interval.
const wilsonZ = 1.2815515655446004

// wilson returns the Wilson score 80% interval of a proportion p observed on
// n points: (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n).
func wilson(p float64, n int) (lo, hi float64) {
	nf := float64(n)
	z2 := wilsonZ * wilsonZ
	c := (p + z2/(2*nf)) / (1 + z2/nf)
	h := wilsonZ * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / (1 + z2/nf)
	return max(0, c-h), min(1, c+h)
}
