package main

import (
	"fmt"
	"math"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/recommend"
	"gonum.org/v1/gonum/mat"
)

// stackPilot is a pilot with its uncalibrated estimate and CleaneX mean,
// computed once for every fold of stackStudy.
type stackPilot struct {
	pilotFits
	est, cx accuracy.Curve
}

// features returns, at k beyond k1, the terms of the bias correction
// studied by stackStudy: L times the signed logit distance of regression,
// the pooled method and the CleaneX mean from the estimate (L = log(k / k1)).
func (p stackPilot) features(k int) []float64 {
	l := math.Log(float64(k) / float64(p.K1))
	z := p.rf.CentreLogit(p.est[k])
	f := make([]float64, 3)
	for i, c := range []accuracy.Curve{p.rf.Regression, p.rf.Pooled, p.cx} {
		if c != nil {
			f[i] = l * (p.rf.CentreLogit(c[k]) - z)
		}
	}
	return f
}

// stackStudy fits, leaving each family out, a linear bias correction of the
// estimate's logit beyond k1 (least squares of logit truth - logit
// estimate on stackPilot.features, every k of the grid beyond k1, each pilot
// weighted 1) and prints each family's mean RMSE with and without it: does
// where the methods lie around the estimate tell which way the truth lies?
func stackStudy(all []pilotFits) {
	type ob struct {
		f    []float64
		y, w float64
	}
	var sps []stackPilot
	for _, p := range all {
		if res, err := recommend.Recommend(p.rf, p.K, uncalibrated()); err == nil {
			sps = append(sps, stackPilot{p, res.Estimate, meanOf(p.rf.CleaneX, p.K)})
		}
	}
	obsOf := func(ps []stackPilot) []ob {
		var out []ob
		for _, p := range ps {
			var ks []int
			for _, k := range grid(p.K1, p.K) {
				if k > p.K1 {
					ks = append(ks, k)
				}
			}
			for _, k := range ks {
				out = append(out, ob{p.features(k), p.rf.CentreLogit(p.Truth[k]) - p.rf.CentreLogit(p.est[k]), 1 / float64(len(ks))})
			}
		}
		return out
	}
	fit := func(obs []ob) []float64 {
		n := len(obs)
		a := mat.NewDense(n, 3, nil)
		b := mat.NewVecDense(n, nil)
		for i, o := range obs {
			sw := math.Sqrt(o.w)
			for j, v := range o.f {
				a.Set(i, j, sw*v)
			}
			b.SetVec(i, sw*o.y)
		}
		var x mat.VecDense
		if err := x.SolveVec(a, b); err != nil {
			return []float64{0, 0, 0}
		}
		return []float64{x.AtVec(0), x.AtVec(1), x.AtVec(2)}
	}
	fmt.Println("\nBias correction of the estimate beyond k1, fitted leaving the family out (study only):")
	fmt.Println("| family | beta (regression, pooled, CleaneX) | estimate RMSE | corrected RMSE |")
	fmt.Println("|---|---|---|---|")
	var s0, s1, n float64
	for _, g := range groups(all, false) {
		var fam, others []stackPilot
		for _, p := range sps {
			if p.Family == g.name {
				fam = append(fam, p)
			} else {
				others = append(others, p)
			}
		}
		beta := fit(obsOf(others))
		var r0, r1, m float64
		for _, p := range fam {
			cor := make(accuracy.Curve, p.K+1)
			copy(cor, p.est)
			for k := p.K1 + 1; k <= p.K; k++ {
				f := p.features(k)
				z := p.rf.CentreLogit(p.est[k]) + beta[0]*f[0] + beta[1]*f[1] + beta[2]*f[2]
				cor[k] = 1 / (1 + math.Exp(-z))
			}
			r0 += accuracy.RMSE(p.est[:p.K+1], p.Truth)
			r1 += accuracy.RMSE(cor, p.Truth)
			m++
		}
		fmt.Printf("| %s | %.3f, %.3f, %.3f | %.4f | %.4f |\n", g.name, beta[0], beta[1], beta[2], r0/m, r1/m)
		s0, s1, n = s0+r0, s1+r1, n+m
	}
	fmt.Printf("| all | | %.4f | %.4f |\n", s0/n, s1/n)
}
