package scores

import (
	"math"
	"slices"

	"github.com/cleanex/cleanex/internal/detmath"
	"gonum.org/v1/gonum/floats"
)

// ProbabilitySumTolerance is how far from 1 a row's sum may lie for the row
// to count as class probabilities: room for probabilities printed with four
// or more decimals or stored as float32.
const ProbabilitySumTolerance = 0.01

// ProbabilitiesNote tells the user that their scores were read as class
// probabilities and what that changes.
const ProbabilitiesNote = "these scores are class probabilities (each row sums to 1), so CleaneX and KDE use their logarithms: that keeps the order of the classes, so the measured accuracy is unchanged, and spreads apart again the many small probabilities near 0, which matters because those two methods look at how far apart the scores are, not only at their order"

// LogOfProbabilities reports whether m holds class probabilities — every
// score in [0, 1] and every row summing to 1 within ProbabilitySumTolerance,
// as a softmax output does — and if so returns the map p -> ln p that the
// estimators read instead, with a score of 0 mapped to ln(p_min / 2), p_min
// the smallest positive score of m, so that it stays below every other score
// and ties stay ties.
//
// The map keeps every row's order, so the observed accuracy curve is the
// same; what it changes is the spacing of the scores. Softmax squeezes the
// incorrect classes' scores towards 0, where CleaneX and KDE, which read the
// gaps between scores, see them as one; the logarithm gives back the
// logits' gaps (ln softmax(z)_j = z_j - ln sum_i exp z_i) up to one shift per
// point. What this does to the estimate is measured in
// docs/recommendation.md ("Class probabilities as scores").
func (m *Matrix) LogOfProbabilities() (func(p float64) float64, bool) {
	k := m.K()
	if k < 2 || m.N() == 0 {
		return nil, false
	}
	pMin := math.Inf(1)
	for i := range m.N() {
		sum := 0.0
		for _, p := range m.Row(i) {
			if !(p >= 0 && p <= 1) {
				return nil, false
			}
			if p > 0 && p < pMin {
				pMin = p
			}
			sum += p
		}
		if math.Abs(sum-1) > ProbabilitySumTolerance {
			return nil, false
		}
	}
	// detmath.Log: the same bits natively and in the browser.
	zero := detmath.Log(pMin / 2)
	return func(p float64) float64 {
		if p == 0 {
			return zero
		}
		return detmath.Log(p)
	}, true
}

// Softmax returns a new matrix whose rows are the softmax of m's rows times
// t: p_j = exp(t s_j) / sum_i exp(t s_i), the class probabilities of a
// classifier whose logits are t times the scores (t < 0 for distances). The
// tests and the bank's studies use it to hand the estimators probabilities.
func Softmax(m *Matrix, t float64) *Matrix {
	out := &Matrix{Classes: slices.Clone(m.Classes), Labels: slices.Clone(m.Labels), Scores: slices.Clone(m.Scores)}
	for i := range out.N() {
		row := out.Row(i)
		floats.Scale(t, row)
		lse := floats.LogSumExp(row)
		for j, v := range row {
			row[j] = math.Exp(v - lse)
		}
	}
	return out
}
