package main

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// familyBar is the per-family margin: the estimate's mean RMSE over
// a family's pilots may exceed the best single method's by at most this.
const familyBar = 0.003

// pairedTable prints, per family, the estimate's mean RMSE against the best
// single method's (the one of singleMethods with the lowest mean on that
// family, chosen after the fact), the mean of the per-pilot differences
// d_i = RMSE_i(estimate) - RMSE_i(best) and its standard error
// sd(d) / sqrt(n): how far the family's pilots let the margin over
// familyBar be told from noise. Picking the best of seven curves on the
// same pilots favours that curve, so the estimate's excess is if anything
// overstated. The pilots' RMSEs are rmseTable's (rmse).
func pairedTable(all []pilotFits, rmse pilotRMSE, seeds int) {
	var singles []int
	for _, c := range singleMethods(seeds) {
		singles = append(singles, slices.Index(rmse.names, c.name))
	}
	estimate := slices.Index(rmse.names, "estimate")
	fmt.Printf("The estimate against the best single method per family, paired by pilot (margin %.3f):\n\n", familyBar)
	fmt.Println("| family | n | estimate | best single method | its mean | estimate - best (mean of pilots' differences) | paired standard error | (difference - margin) / standard error |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	over, beyond1, beyond2, cells := 0, 0, 0, 0
	for _, g := range groups(all, false) {
		// est[i] and each single's rmse[j][i] over the pilots with an estimate.
		var est []float64
		of := make([][]float64, len(singles))
		for _, p := range g.ps {
			row := rmse.of[p.Fits]
			if math.IsNaN(row[estimate]) {
				continue
			}
			est = append(est, row[estimate])
			for j, col := range singles {
				of[j] = append(of[j], row[col])
			}
		}
		best, bestMean := lowestMean(of)
		if best < 0 {
			continue
		}
		mean, se, z, n := pairedMargin(est, of[best], familyBar)
		if n < 2 {
			continue
		}
		cells++
		if mean > familyBar {
			over++
			if z > 1 {
				beyond1++
			}
			if z > 2 {
				beyond2++
			}
		}
		fmt.Printf("| %s | %d | %.4f | %s | %.4f | %+.4f | %.4f | %+.1f |\n", g.name, n, stat.Mean(est, nil), rmse.names[singles[best]], bestMean, mean, se, z)
	}
	fmt.Printf("\n%d of %d families over the margin; %d by more than one paired standard error, %d by more than two\n\n", over, cells, beyond1, beyond2)
}

// lowestMean returns the index of the row of rmse with the lowest mean of
// its values that are not NaN, and that mean; -1 and +Inf when no row has a
// value.
func lowestMean(rmse [][]float64) (best int, mean float64) {
	best, mean = -1, math.Inf(1)
	for j, r := range rmse {
		if m := meanNotNaN(r); m < mean {
			best, mean = j, m
		}
	}
	return best, mean
}

// pairedMargin returns, over the pilots i where other[i] is not NaN, the
// mean of d_i = est[i] - other[i], its standard error sd(d) / sqrt(n) (sd
// with n - 1 in the denominator), z = (mean - margin) / se, and n.
func pairedMargin(est, other []float64, margin float64) (mean, se, z float64, n int) {
	var d []float64
	for i, r := range other {
		if !math.IsNaN(r) {
			d = append(d, est[i]-r)
		}
	}
	if len(d) < 2 {
		return math.NaN(), math.NaN(), math.NaN(), len(d)
	}
	mean, sd := stat.MeanStdDev(d, nil)
	se = sd / math.Sqrt(float64(len(d)))
	return mean, se, (mean - margin) / se, len(d)
}

// meanNotNaN is the mean of the values of xs that are not NaN (+Inf when
// there are none).
func meanNotNaN(xs []float64) float64 {
	s, n := 0.0, 0
	for _, x := range xs {
		if !math.IsNaN(x) {
			s += x
			n++
		}
	}
	if n == 0 {
		return math.Inf(1)
	}
	return s / float64(n)
}
