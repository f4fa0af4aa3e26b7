package recommend

import (
	"errors"
	"fmt"
	"math"
	"slices"
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

// DefaultKnots are the L = log(k / k1) at which FitScale measures the
// quantiles: k within the pilot, and 2, 4, 10, 20 and 40 times beyond it.
func DefaultKnots() []float64 {
	return []float64{0, math.Log(2), math.Log(4), math.Log(10), math.Log(20), math.Log(40)}
}

// FitScale fits the calibration's scale and quantiles to obs:
//
//  1. a = argmin_{a >= 0} sum_i Weight_i (|Y_i - Z_i| - a . v(F_i))^2 by
//     non-negative least squares, v = (1, SE, D, S, L, L SE, G);
//  2. at each knot L_j of knots, q_lo and q_hi are the 10% and 90%
//     quantiles of (Y_i - Z_i) / s_i with weights Weight_i t_j(L_i), where
//     t_j is the triangle that is 1 at L_j and falls to 0 at the neighbouring
//     knots (flat beyond the last knot).
func FitScale(obs []Observation, knots []float64) (Calibration, error) {
	return fitScale(obs, knots, false)
}

// FitSidedScale is FitScale with a scale per side: the lower side's
// coefficients are fitted to the residuals below the estimate (Y < Z) with
// D replaced by DDown, the upper side's to those above with DUp; the
// standardised residual divides by the scale of its own side.
func FitSidedScale(obs []Observation, knots []float64) (Calibration, error) {
	return fitScale(obs, knots, true)
}

func fitScale(obs []Observation, knots []float64, sided bool) (Calibration, error) {
	if len(obs) < NumCoef {
		return Calibration{}, fmt.Errorf("recommend: %d observations cannot fit %d coefficients", len(obs), NumCoef)
	}
	fit := func(keep func(o Observation) bool, side func(Features) Features) ([NumCoef]float64, error) {
		var a, b []float64
		m := 0
		for _, o := range obs {
			if !keep(o) {
				continue
			}
			sw := math.Sqrt(o.Weight)
			for _, x := range side(o.F).vector() {
				a = append(a, sw*x)
			}
			b = append(b, sw*math.Abs(o.Y-o.Z))
			m++
		}
		var c [NumCoef]float64
		if m < NumCoef {
			return c, fmt.Errorf("recommend: %d observations on one side cannot fit %d coefficients", m, NumCoef)
		}
		coef, err := regress.NNLS(a, m, NumCoef, b)
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
	same := func(f Features) Features { return f }
	cal := Calibration{Knots: slices.Clone(knots)}
	var err error
	if !sided {
		cal.Coef, err = fit(all, same)
	} else {
		cal.Coef, err = fit(func(o Observation) bool { return o.Y < o.Z }, func(f Features) Features { return f.sided(false) })
		if err == nil {
			cal.CoefUp, err = fit(func(o Observation) bool { return o.Y >= o.Z }, func(f Features) Features { return f.sided(true) })
		}
	}
	if err != nil {
		return Calibration{}, err
	}
	type zw struct{ z, w, l float64 }
	zs := make([]zw, len(obs))
	for i, o := range obs {
		lo, hi := cal.scales(o.F)
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
