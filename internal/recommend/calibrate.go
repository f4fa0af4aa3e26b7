package recommend

import (
	"errors"
	"fmt"
	"math"
	"sort"

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
}

// Nominal is the interval's nominal coverage.
const Nominal = 0.8

// FitScale fits the calibration's scale and quantiles to obs (the estimate,
// hence RegressionWeight, is fixed beforehand):
//
//  1. a = argmin_{a >= 0} sum_i Weight_i (|Y_i - Z_i| - a . v(F_i))^2 by
//     non-negative least squares, v = (1, SE, D, S, L, L SE);
//  2. q_lo, q_hi = the weighted 10% and 90% quantiles of (Y_i - Z_i) / s_i.
func FitScale(obs []Observation, regressionWeight float64) (Calibration, error) {
	if len(obs) < NumCoef {
		return Calibration{}, fmt.Errorf("recommend: %d observations cannot fit %d coefficients", len(obs), NumCoef)
	}
	a := make([]float64, 0, len(obs)*NumCoef)
	b := make([]float64, 0, len(obs))
	for _, o := range obs {
		sw := math.Sqrt(o.Weight)
		v := o.F.vector()
		for _, x := range v {
			a = append(a, sw*x)
		}
		b = append(b, sw*math.Abs(o.Y-o.Z))
	}
	coef, err := regress.NNLS(a, len(obs), NumCoef, b)
	if err != nil {
		return Calibration{}, fmt.Errorf("recommend: fitting the interval scale: %w", err)
	}
	cal := Calibration{RegressionWeight: regressionWeight}
	copy(cal.Coef[:], coef)
	if cal.Coef[0] <= 0 {
		// a positive floor keeps every standardised residual finite
		cal.Coef[0] = 1e-3
	}
	type zw struct{ z, w float64 }
	zs := make([]zw, len(obs))
	for i, o := range obs {
		zs[i] = zw{(o.Y - o.Z) / cal.scale(o.F), o.Weight}
	}
	sort.Slice(zs, func(i, j int) bool { return zs[i].z < zs[j].z })
	x := make([]float64, len(zs))
	w := make([]float64, len(zs))
	for i, v := range zs {
		x[i], w[i] = v.z, v.w
	}
	alpha := (1 - Nominal) / 2
	cal.QLo = stat.Quantile(alpha, stat.Empirical, x, w)
	cal.QHi = stat.Quantile(1-alpha, stat.Empirical, x, w)
	if math.IsNaN(cal.QLo) || math.IsNaN(cal.QHi) || cal.QLo > cal.QHi {
		return Calibration{}, errors.New("recommend: the standardised residuals have no usable quantiles")
	}
	return cal, nil
}
