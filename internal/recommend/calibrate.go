package recommend

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"

	"github.com/cleanex/cleanex/internal/estimate/regress"
)

// Observation is one point of a calibration bank: a pilot at one k, with the
// estimate's logit, the truth's logit and the interval model's features.
type Observation struct {
	// Z is logit(est_k) and Y is logit(truth_k).
	Z, Y float64
	// F holds the features at k.
	F Features
	// Weight is the observation's weight (each pilot's observations sum to 1).
	Weight float64
	// Group names the family of pilots the observation comes from (used by
	// FitSidedScaleCrossed; "" is a group of its own).
	Group string
	// K1 is the pilot's number of classes and At the observation's k (used
	// by FitFloor; 0 when unknown).
	K1, At int
}

// Nominal is the interval's nominal coverage.
const Nominal = 0.8

// DefaultKnots are the L = log(k / k1) at which FitScale measures the
// quantiles: k within the pilot, and 2, 4, 10, 20 and 40 times beyond it.
func DefaultKnots() []float64 {
	return []float64{0, math.Log(2), math.Log(4), math.Log(10), math.Log(20), math.Log(40)}
}

// FitScale fits the calibration's scale and quantiles to obs:
//
//  1. a = argmin_{a >= 0} sum_i Weight_i (|Y_i - Z_i| - a . v(F_i))^2 by
//     non-negative least squares, v = (1, SE, D, S, L U, L SE, L SEK, B);
//  2. at each knot L_j of knots, q_lo and q_hi are the 10% and 90%
//     quantiles of (Y_i - Z_i) / s_i with weights Weight_i t_j(L_i), where
//     t_j is the triangle that is 1 at L_j and falls to 0 at the neighbouring
//     knots (flat beyond the last knot).
func FitScale(obs []Observation, knots []float64) (Calibration, error) {
	return fitScale(obs, knots, false, ScaleNNLS)
}

// FitSidedScale is FitScale with a scale per side: the lower side's
// coefficients are fitted to the residuals below the estimate (Y < Z), the
// upper side's to those above; the standardised residual divides by the
// scale of its own side.
func FitSidedScale(obs []Observation, knots []float64) (Calibration, error) {
	return fitScale(obs, knots, true, ScaleNNLS)
}

// ScaleFit names a way of fitting the sided scale coefficients a >= 0 (see
// FitSidedScaleWith); the knot quantiles are taken the same way after each.
type ScaleFit string

const (
	// ScaleNNLS is FitSidedScale's fit: per side, non-negative least squares
	// of |Y - Z| on the observations of that side.
	ScaleNNLS ScaleFit = "nnls"
	// ScaleQuantile fits, per side, the 90% quantile of the side's positive
	// part over all observations: a = argmin_{a >= 0} sum_i Weight_i
	// rho_0.9(t_i - a . v(F_i)), t_i = max(0, Y_i - Z_i) for the upper side
	// and max(0, Z_i - Y_i) for the lower, rho_tau(u) = u (tau - 1{u < 0}).
	ScaleQuantile ScaleFit = "quantile"
	// ScaleQuantileBeyond is ScaleQuantile on the observations beyond the
	// pilot (L > 0) only, where the interval extrapolates.
	ScaleQuantileBeyond ScaleFit = "quantile-beyond"
	// ScaleMedian fits, per side, the median of |Y - Z| on the observations
	// of that side (least absolute deviations, rho_0.5).
	ScaleMedian ScaleFit = "median"
	// ScaleCapped is ScaleNNLS on min(|Y - Z|, cap), cap the weighted 95%
	// quantile of |Y - Z| on that side (winsorised residuals).
	ScaleCapped ScaleFit = "capped"
	// ScaleRelative fits, per side, |Y - Z| = s(F) |eps| with relative
	// errors of one size whatever s: non-negative least squares of |Y - Z|
	// weighted by Weight_i / s_i^2, s_i from the previous fit (iterated from
	// ScaleNNLS's fit; the quasi-likelihood of a constant coefficient of
	// variation), so that pilots whose residuals are small weigh as much as
	// those whose residuals are large.
	ScaleRelative ScaleFit = "relative"
)

// ScaleFits lists the ScaleFit values FitSidedScaleWith accepts.
func ScaleFits() []ScaleFit {
	return []ScaleFit{ScaleNNLS, ScaleQuantile, ScaleQuantileBeyond, ScaleMedian, ScaleCapped, ScaleRelative}
}

// FitSidedScaleWith is FitSidedScale with the scale coefficients of each
// side fitted by method.
func FitSidedScaleWith(obs []Observation, knots []float64, method ScaleFit) (Calibration, error) {
	if !slices.Contains(ScaleFits(), method) {
		return Calibration{}, fmt.Errorf("recommend: unknown scale fit %q", method)
	}
	return fitScale(obs, knots, true, method)
}

func fitScale(obs []Observation, knots []float64, sided bool, method ScaleFit) (Calibration, error) {
	if len(obs) < NumCoef {
		return Calibration{}, fmt.Errorf("recommend: %d observations cannot fit %d coefficients", len(obs), NumCoef)
	}
	// fit fits the coefficients of one side to the observations keep
	// selects, with the targets |Y - Z| (or, for ScaleQuantile and
	// ScaleQuantileBeyond, the side's positive part on every observation).
	fit := func(keep func(o Observation) bool, sign float64) ([NumCoef]float64, error) {
		var c [NumCoef]float64
		var rows, t, w []float64
		for _, o := range obs {
			y := math.Abs(o.Y - o.Z)
			switch {
			case method == ScaleQuantileBeyond && o.F.L <= 0:
				continue
			case method == ScaleQuantile || method == ScaleQuantileBeyond:
				y = max(0, sign*(o.Y-o.Z))
			case !keep(o):
				continue
			}
			v := o.F.vector()
			rows = append(rows, v[:]...)
			t = append(t, y)
			w = append(w, o.Weight)
		}
		m := len(t)
		if m < NumCoef {
			return c, fmt.Errorf("recommend: %d observations on one side cannot fit %d coefficients", m, NumCoef)
		}
		var coef []float64
		var err error
		switch method {
		case ScaleQuantile, ScaleQuantileBeyond:
			coef, err = quantileNNLS(rows, m, t, w, 1-(1-Nominal)/2)
		case ScaleMedian:
			coef, err = quantileNNLS(rows, m, t, w, 0.5)
		case ScaleCapped:
			ts := slices.Clone(t)
			ws := slices.Clone(w)
			sortPaired(ts, ws)
			capAt := stat.Quantile(0.95, stat.Empirical, ts, ws)
			for i := range t {
				t[i] = min(t[i], capAt)
			}
			coef, err = weightedNNLS(rows, m, t, w)
		case ScaleRelative:
			coef, err = relativeNNLS(rows, m, t, w)
		default:
			coef, err = weightedNNLS(rows, m, t, w)
		}
		if err != nil {
			return c, fmt.Errorf("recommend: fitting the interval scale: %w", err)
		}
		copy(c[:], coef)
		if c[0] <= 0 {
			// a positive floor keeps every standardised residual finite
			c[0] = 1e-3
		}
		return c, nil
	}
	all := func(Observation) bool { return true }
	cal := Calibration{Knots: slices.Clone(knots)}
	var err error
	if !sided {
		cal.Coef, err = fit(all, 1)
	} else {
		cal.Coef, err = fit(func(o Observation) bool { return o.Y < o.Z }, -1)
		if err == nil {
			cal.CoefUp, err = fit(func(o Observation) bool { return o.Y >= o.Z }, 1)
		}
	}
	if err != nil {
		return Calibration{}, err
	}
	return quantilesAt(cal, obs, knots, func(int) Calibration { return cal })
}

// FitSidedScaleCrossed is FitSidedScale whose knot quantiles are taken of
// cross-fitted residuals: each observation is standardised by the sided
// scale fitted without its Group, so that the quantiles measure how the
// scale serves a family it was not fitted on. The scale coefficients are
// FitSidedScale's, fitted on every observation.
func FitSidedScaleCrossed(obs []Observation, knots []float64) (Calibration, error) {
	return FitSidedScaleCrossedWith(obs, knots, ScaleNNLS)
}

// FitSidedScaleCrossedWith is FitSidedScaleCrossed with the scale
// coefficients of each side fitted by method.
func FitSidedScaleCrossedWith(obs []Observation, knots []float64, method ScaleFit) (Calibration, error) {
	if !slices.Contains(ScaleFits(), method) {
		return Calibration{}, fmt.Errorf("recommend: unknown scale fit %q", method)
	}
	cal, err := fitScale(obs, knots, true, method)
	if err != nil {
		return Calibration{}, err
	}
	without := map[string]Calibration{}
	for _, o := range obs {
		if _, ok := without[o.Group]; ok {
			continue
		}
		var others []Observation
		for _, p := range obs {
			if p.Group != o.Group {
				others = append(others, p)
			}
		}
		c, err := fitScale(others, knots, true, method)
		if err != nil {
			return Calibration{}, fmt.Errorf("recommend: the scale without %q: %w", o.Group, err)
		}
		without[o.Group] = c
	}
	return quantilesAt(cal, obs, knots, func(i int) Calibration { return without[obs[i].Group] })
}

// quantilesAt sets cal's knot quantiles: at each knot L_j the 10% and 90%
// quantiles of (Y_i - Z_i) / s_i with weights Weight_i t_j(L_i), s_i the
// side's scale of scaleOf(i).
func quantilesAt(cal Calibration, obs []Observation, knots []float64, scaleOf func(i int) Calibration) (Calibration, error) {
	cal.QLo, cal.QHi = nil, nil
	type zw struct{ z, w, l float64 }
	zs := make([]zw, len(obs))
	for i, o := range obs {
		lo, hi := scaleOf(i).scales(o.F)
		s := lo
		if o.Y >= o.Z {
			s = hi
		}
		zs[i] = zw{(o.Y - o.Z) / s, o.Weight, o.F.L}
	}
	sort.Slice(zs, func(i, j int) bool { return zs[i].z < zs[j].z })
	x := make([]float64, len(zs))
	for i, v := range zs {
		x[i] = v.z
	}
	alpha := (1 - Nominal) / 2
	for j, lj := range knots {
		w := make([]float64, len(zs))
		total := 0.0
		for i, v := range zs {
			w[i] = v.w * triangle(knots, j, v.l)
			total += w[i]
		}
		if total == 0 {
			return Calibration{}, fmt.Errorf("recommend: no calibration observation near L = %.2f", lj)
		}
		lo := stat.Quantile(alpha, stat.Empirical, x, w)
		hi := stat.Quantile(1-alpha, stat.Empirical, x, w)
		if math.IsNaN(lo) || math.IsNaN(hi) || lo > hi {
			return Calibration{}, errors.New("recommend: the standardised residuals have no usable quantiles")
		}
		cal.QLo = append(cal.QLo, lo)
		cal.QHi = append(cal.QHi, hi)
	}
	return cal, nil
}

// triangle returns the weight of L = l at knot j: 1 at knots[j], falling
// linearly to 0 at the neighbouring knots; below the first and above the
// last knot it stays 1 for that knot.
func triangle(knots []float64, j int, l float64) float64 {
	c := knots[j]
	switch {
	case l == c:
		return 1
	case l < c:
		if j == 0 {
			return 1
		}
		return max(0, (l-knots[j-1])/(c-knots[j-1]))
	default:
		if j == len(knots)-1 {
			return 1
		}
		return max(0, (knots[j+1]-l)/(knots[j+1]-c))
	}
}

// weightedNNLS returns argmin_{a >= 0} sum_i w_i (t_i - rows_i . a)^2, rows
// m x NumCoef row-major.
func weightedNNLS(rows []float64, m int, t, w []float64) ([]float64, error) {
	a := make([]float64, len(rows))
	b := make([]float64, m)
	for i := range m {
		sw := math.Sqrt(w[i])
		for j := range NumCoef {
			a[i*NumCoef+j] = sw * rows[i*NumCoef+j]
		}
		b[i] = sw * t[i]
	}
	return regress.NNLS(a, m, NumCoef, b)
}

// FitFloor returns cal with its floor beyond the calibrated population
// (Calibration.Population, FloorLo, FloorHi): population is the bank's
// number of classes and largest its largest pilot; FloorLo and FloorHi are
// minus the 10% and the 90% quantile of (Y - Z) / log(population /
// largest) over the observations of pilots of largest classes at k =
// population, each weighted by its Weight (at least 0; 0 when the quantile
// lies on the other side). The same floor is set on cal.WithoutB.
func FitFloor(cal Calibration, obs []Observation, population, largest int) (Calibration, error) {
	if population <= largest || largest < 2 {
		return Calibration{}, fmt.Errorf("recommend: a floor beyond %d classes from pilots of %d", population, largest)
	}
	l := math.Log(float64(population) / float64(largest))
	var x, w []float64
	for _, o := range obs {
		if o.K1 == largest && o.At == population {
			x = append(x, (o.Y-o.Z)/l)
			w = append(w, o.Weight)
		}
	}
	if len(x) < 10 {
		return Calibration{}, fmt.Errorf("recommend: %d observations of %d-class pilots at k = %d cannot fit the floor", len(x), largest, population)
	}
	sortPaired(x, w)
	alpha := (1 - Nominal) / 2
	cal.Population = population
	cal.FloorLo = max(0, -stat.Quantile(alpha, stat.Empirical, x, w))
	cal.FloorHi = max(0, stat.Quantile(1-alpha, stat.Empirical, x, w))
	if cal.WithoutB != nil {
		without := *cal.WithoutB
		without.Population, without.FloorLo, without.FloorHi = cal.Population, cal.FloorLo, cal.FloorHi
		cal.WithoutB = &without
	}
	return cal, nil
}

// relativeNNLS returns a >= 0 from iterated weighted non-negative least
// squares: each step minimises sum_i w_i (t_i - rows_i . a)^2 / s_i^2, s_i =
// rows_i . a of the step before (at least a thousandth of the mean s),
// starting from weightedNNLS.
func relativeNNLS(rows []float64, m int, t, w []float64) ([]float64, error) {
	a, err := weightedNNLS(rows, m, t, w)
	if err != nil {
		return nil, err
	}
	ws := make([]float64, m)
	sc := make([]float64, m)
	for range 20 {
		mean := 0.0
		for i := range m {
			sc[i] = floats.Dot(rows[i*NumCoef:(i+1)*NumCoef], a)
			mean += sc[i] / float64(m)
		}
		for i := range m {
			si := max(sc[i], 1e-3*mean, 1e-9)
			ws[i] = w[i] / (si * si)
		}
		next, err := weightedNNLS(rows, m, t, ws)
		if err != nil {
			return nil, err
		}
		a = next
	}
	return a, nil
}

// quantileNNLS returns a >= 0 minimising the weighted check loss
// sum_i w_i rho_tau(t_i - rows_i . a), rho_tau(u) = u (tau - 1{u < 0}), by
// iteratively reweighted non-negative least squares: rho_tau(u) is replaced
// by c(u) u^2 / max(|u|, delta) at the previous residual u, c = tau above and
// 1 - tau below, which majorises the loss, so each step does not increase
// it. It starts from the least-squares fit and returns the best iterate.
func quantileNNLS(rows []float64, m int, t, w []float64, tau float64) ([]float64, error) {
	const (
		iters = 200
		delta = 1e-4
	)
	loss := func(a []float64) float64 {
		s := 0.0
		for i := range m {
			u := t[i] - floats.Dot(rows[i*NumCoef:(i+1)*NumCoef], a)
			if u >= 0 {
				s += w[i] * tau * u
			} else {
				s -= w[i] * (1 - tau) * u
			}
		}
		return s
	}
	a, err := weightedNNLS(rows, m, t, w)
	if err != nil {
		return nil, err
	}
	best, bestLoss := a, loss(a)
	ww := make([]float64, m)
	for range iters {
		for i := range m {
			u := t[i] - floats.Dot(rows[i*NumCoef:(i+1)*NumCoef], a)
			c := tau
			if u < 0 {
				c = 1 - tau
			}
			ww[i] = w[i] * c / max(math.Abs(u), delta)
		}
		if a, err = weightedNNLS(rows, m, t, ww); err != nil {
			return nil, err
		}
		l := loss(a)
		if l >= bestLoss {
			break
		}
		gain := bestLoss - l
		best, bestLoss = a, l
		if gain <= 1e-10*bestLoss {
			break
		}
	}
	return best, nil
}

// sortPaired sorts x increasingly and w along with it.
func sortPaired(x, w []float64) {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	xs, ws := slices.Clone(x), slices.Clone(w)
	for i, j := range idx {
		x[i], w[i] = xs[j], ws[j]
	}
}

// MinSpanPilots is the fewest pilots with fewer than FewErrors errors
// FitSpanShares fits a share on; with fewer it leaves the share unfitted
// (0: the methods' curves in full). MinNoErrorPilots is the fewest pilots
// without any error it fits their own share on.
const (
	MinSpanPilots    = 20
	MinNoErrorPilots = 10
)

// maxSpanShare bounds the share NeededSpanShare searches.
const maxSpanShare = 4

// NeededSpanShare returns the least share s of the methods' span
// (Calibration.SpanShare) at which the interval Recommend gives pilot f for
// k2 holds truth at k2, found by bisection to within 0.001 on (0, 4]: 0 when
// the interval without any widening holds it, and 4 when a share of 4 does
// not. ok is false when the pilot's interval is not widened (Fits.Spans:
// it has FewErrors errors or more, or k2 is within it).
func NeededSpanShare(f Fits, k2 int, truth float64, cal Calibration) (share float64, ok bool, err error) {
	if !f.Spans(k2) {
		return 0, false, nil
	}
	holds := func(s float64) (bool, error) {
		res, err := Recommend(f, k2, cal.WithSpanShares(s, s))
		if err != nil {
			return false, err
		}
		return res.Lo[k2] <= truth && truth <= res.Hi[k2], nil
	}
	// a share too small to move the interval by a representable amount
	const none = 1e-12
	in, err := holds(none)
	if err != nil {
		return 0, true, err
	}
	if in {
		return 0, true, nil
	}
	if in, err = holds(maxSpanShare); err != nil || !in {
		return maxSpanShare, true, err
	}
	lo, hi := 0.0, float64(maxSpanShare)
	for hi-lo > 1e-3 {
		m := (lo + hi) / 2
		in, err := holds(m)
		if err != nil {
			return 0, true, err
		}
		if in {
			hi = m
		} else {
			lo = m
		}
	}
	return hi, true, nil
}

// FitSpanShares returns the span shares (Calibration.SpanShare,
// SpanShareNone) of a bank whose pilots with too few errors needed the
// shares some (pilots with at least one error) and none (pilots without an
// error; NeededSpanShare): share is the Nominal quantile of all of them,
// so that the widened interval holds the truth on that share of them, at
// least 0.001 (0 stands for the whole span), or 0 with fewer than
// MinSpanPilots; shareNone is the larger of share and the Nominal quantile
// of none, with at least MinNoErrorPilots of them and share fitted (else
// 0: share serves them too). A pilot that shows no error tells less than
// one that shows a few, so it is never widened less.
func FitSpanShares(some, none []float64) (share, shareNone float64) {
	all := append(slices.Clone(some), none...)
	if len(all) < MinSpanPilots {
		return 0, 0
	}
	share = max(1e-3, nominalQuantile(all))
	if len(none) >= MinNoErrorPilots {
		shareNone = max(share, nominalQuantile(none))
	}
	return share, shareNone
}

// nominalQuantile returns the empirical Nominal quantile of x (not
// reordered).
func nominalQuantile(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return stat.Quantile(Nominal, stat.Empirical, s, nil)
}

// ErrorsAtK1 returns the pilot's misclassified points at k1, N (1 -
// Abar_k1) (class-balanced, so not always a whole number; 0 when N is
// unknown).
func (f Fits) ErrorsAtK1() float64 {
	if f.N <= 0 || f.Observed.Max() < f.K1 {
		return 0
	}
	return float64(f.N) * (1 - f.Observed[f.K1])
}

// Spans reports whether Recommend widens the pilot's interval for k2
// towards the methods' curves (Result.Spanned): k2 lies beyond k1 and the
// pilot, of known size N, has fewer than FewErrors errors at k1.
func (f Fits) Spans(k2 int) bool { return f.N > 0 && k2 > f.K1 && f.ErrorsAtK1() < FewErrors }

// NoError reports whether the pilot shows no error at k1 (ErrorsAtK1 below
// one half; a pilot of unknown size shows none).
func (f Fits) NoError() bool { return f.ErrorsAtK1() < 0.5 }
