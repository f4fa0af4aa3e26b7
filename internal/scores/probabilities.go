package scores

import (
	"fmt"
	"math"
	"slices"

	"github.com/cleanex/cleanex/internal/detmath"
	"gonum.org/v1/gonum/floats"
)

// ProbabilitySumTolerance is how far from 1 a row's sum may lie for the row
// to count as class probabilities when the scores are not rounded to a few
// decimals: room for float32 storage and rounding to four or more decimals.
const ProbabilitySumTolerance = 0.01

// MaxProbabilitySumTolerance caps the room rounding gets: rows of scores in
// [0, 1] summing to 1 within it are unlikely to be anything but
// probabilities.
const MaxProbabilitySumTolerance = 0.1

// ProbabilitiesNote tells the user that their scores were read as class
// probabilities and what that changes.
const ProbabilitiesNote = "these scores are class probabilities (every row sums to 1, up to rounding), so every method reads their logarithms: that keeps the order of the classes, so the measured accuracy is unchanged, and spreads apart again the many small probabilities near 0, which matters because CleaneX, KDE, the pooled and the tail method look at how far apart the scores are, not only at their order"

// ProbabilityCheck is what CheckProbabilities found in a score matrix.
type ProbabilityCheck struct {
	// Probabilities is true when every score lies in [0, 1] and every row
	// sums to 1 within Tolerance: class probabilities, as a softmax gives.
	Probabilities bool
	// InUnit is true when every score lies in [0, 1], Inside when every
	// score lies strictly between 0 and 1; Max is the largest score and
	// SmallShare the share of the scores below 0.1 (when InUnit).
	InUnit, Inside  bool
	Max, SmallShare float64
	// Tolerance is how far from 1 a row's sum may lie:
	// ProbabilitySumTolerance, or, for scores rounded to d decimals, four
	// standard deviations of the sum of K rounding errors (each uniform
	// over one step 10^-d: 4 10^-d sqrt(K / 12)) when that is more, but
	// never more than MaxProbabilitySumTolerance.
	Tolerance float64
	// Off counts the rows whose sum is further from 1 (when InUnit);
	// FirstOff is the first one's row in the file (the header is row 1),
	// FirstSum its sum.
	Off, FirstOff int
	FirstSum      float64
	// MaxSum is the largest row sum (when InUnit).
	MaxSum float64
	// Positive is true when every score is finite and above 0; Decades is
	// then the median over the rows of log10(row's largest score / row's
	// smallest score), how many orders of magnitude a row spans.
	Positive bool
	Decades  float64
	// pMin is the smallest positive score.
	pMin float64
}

// CheckProbabilities checks whether m holds class probabilities (see
// ProbabilityCheck).
func (m *Matrix) CheckProbabilities() ProbabilityCheck {
	k, n := m.K(), m.N()
	c := ProbabilityCheck{Tolerance: ProbabilitySumTolerance, pMin: math.Inf(1)}
	if k < 2 || n == 0 {
		return c
	}
	c.Positive, c.Decades = rowDecades(m)
	ends := false
	for _, p := range m.Scores {
		if !(p >= 0 && p <= 1) {
			return c
		}
		if p > 0 && p < c.pMin {
			c.pMin = p
		}
		ends = ends || p == 0 || p == 1
		c.Max = max(c.Max, p)
		if p < 0.1 {
			c.SmallShare++
		}
	}
	c.InUnit, c.Inside = true, !ends
	c.SmallShare /= float64(len(m.Scores))
	if step := decimalStep(m.Scores); step > 0 {
		c.Tolerance = max(c.Tolerance, min(MaxProbabilitySumTolerance, 4*step*math.Sqrt(float64(k)/12)))
	}
	for i := range n {
		sum := 0.0
		for _, p := range m.Row(i) {
			sum += p
		}
		c.MaxSum = max(c.MaxSum, sum)
		// A sum exactly at the tolerance (0.99 for 0.01) is within it:
		// float64 makes |0.99 - 1| a little more than 0.01.
		if math.Abs(sum-1) > c.Tolerance*(1+1e-9) {
			if c.Off == 0 {
				c.FirstOff, c.FirstSum = i+2, sum
			}
			c.Off++
		}
	}
	c.Probabilities = c.Off == 0
	return c
}

// rowDecades reports whether every score of m is finite and above 0, and
// if so the median over the rows of log10(largest / smallest score).
func rowDecades(m *Matrix) (bool, float64) {
	decades := make([]float64, m.N())
	for i := range decades {
		lo, hi := math.Inf(1), 0.0
		for _, p := range m.Row(i) {
			if !(p > 0) || math.IsInf(p, 1) {
				return false, 0
			}
			lo, hi = min(lo, p), max(hi, p)
		}
		decades[i] = math.Log10(hi / lo)
	}
	slices.Sort(decades)
	return true, decades[len(decades)/2]
}

// decimalStep returns 10^-d for the fewest decimals d in 1..6 to which
// every score is rounded (each within 1e-9 of a multiple of 10^-d), or 0
// when they are not rounded to 6 decimals or fewer.
func decimalStep(xs []float64) float64 {
	for d := 1; d <= 6; d++ {
		scale := math.Pow(10, float64(d))
		rounded := true
		for _, x := range xs {
			if v := x * scale; math.Abs(v-math.Round(v)) > 1e-9*scale {
				rounded = false
				break
			}
		}
		if rounded {
			return 1 / scale
		}
	}
	return 0
}

// NearMiss returns, for scores that all lie in [0, 1] and whose rows nearly
// all (at least 90%) sum to 1 but not every one, a note naming the first
// row that does not and saying how the scores are therefore read: as they
// are, as their log-odds (LogOddsMap) or as their logarithms (LnMap); ""
// otherwise.
func (c ProbabilityCheck) NearMiss(rows int) string {
	if !c.InUnit || c.Probabilities || rows == 0 || 10*c.Off > rows {
		return ""
	}
	others := ""
	if c.Off > 1 {
		others = fmt.Sprintf(" (and %d other rows)", c.Off-1)
	}
	read := "so they are read as they are; if they are probabilities, make every row sum to 1 and CleaneX and KDE will read their logarithms, which suits them better"
	switch {
	case c.readsLogOdds():
		read = "so every method reads their log-odds, ln(p / (1 - p)), as for one-vs-rest probabilities; if they are class probabilities, make every row sum to 1 and they will be read as their logarithms, ln p"
	case c.readsLn():
		read = "and since a typical row spans more than a factor of 1,000, every method reads their logarithms, ln p, as for class probabilities"
	}
	return fmt.Sprintf("these scores look like class probabilities, but row %d of the file (the header is row 1) sums to %.3g%s, not 1, %s", c.FirstOff, c.FirstSum, others, read)
}

// LogMap returns, for a matrix c found to hold class probabilities, the map
// p -> ln p that the estimators read instead, with a score of 0 mapped to
// ln(p_min / 2), p_min the smallest positive score of the matrix, so that it
// stays below every other score and ties stay ties; nil when the matrix
// does not hold probabilities. When p_min / 2 underflows to 0 (p_min the
// smallest subnormal float64, as a float64 softmax gives for logits about
// 745 apart), 0 is mapped to ln(p_min) - ln 2 instead, which is finite.
//
// The map keeps every row's order, so the observed accuracy curve is the
// same; what it changes is the spacing of the scores. Softmax squeezes the
// incorrect classes' scores towards 0, where CleaneX, KDE, the pooled and
// the tail method, which read the gaps between scores, see them as one; the logarithm gives back the
// logits' gaps (ln softmax(z)_j = z_j - ln sum_i exp z_i) up to one shift per
// point. What this does to the estimate is measured in
// docs/recommendation.md ("Class probabilities as scores").
func (c ProbabilityCheck) LogMap() func(p float64) float64 {
	if !c.Probabilities {
		return nil
	}
	// detmath.Log: the same bits natively and in the browser.
	zero := detmath.Log(c.pMin / 2)
	if c.pMin/2 == 0 {
		zero = detmath.Log(c.pMin) - math.Ln2
	}
	return func(p float64) float64 {
		if p == 0 {
			return zero
		}
		return detmath.Log(p)
	}
}

// LogOddsNote tells the user that their scores, which look like
// probabilities whose rows do not sum to 1, were read as their log-odds
// (ProbabilityCheck.LogOddsMap).
const LogOddsNote = "these scores all lie strictly between 0 and 1, most below 0.1 and some above 1/2, as probabilities do, but their rows do not sum to 1 (probabilities of one-vs-rest classifiers, or class probabilities over more classes than the file holds), so every method reads their log-odds, ln(p / (1 - p)): that keeps the order of the classes, so the measured accuracy is unchanged, and spreads apart again the many small probabilities squeezed together near 0; give the scores as the model computed them before the sigmoid or softmax (logits) if you would rather they were read as they are"

// LogOddsMap returns, for a matrix c found to hold scores that look like
// probabilities whose rows do not sum to 1, the map p -> ln(p / (1 - p))
// that the estimators read instead; nil otherwise. Such scores are
//
//   - every one strictly between 0 and 1 (a probability is never exactly 0
//     or 1; cosine similarities without overlap and scores rescaled to
//     [0, 1] reach them, and their log-odds would hang on an invented value
//     for those ends);
//   - at least one above 1/2 (some point is more likely than not of some
//     class; similarities rescaled by a small factor, such as 1e-6, are not,
//     and must give the answer of the scores before rescaling);
//   - at least half of them below 0.1 (a classifier gives most wrong classes
//     a small probability; similarities of dense vectors spread over the
//     middle of the range);
//   - not class probabilities (LogMap reads those).
//
// They are most often probabilities of one-vs-rest classifiers, sigma(z),
// whose log-odds are the logits z, or class probabilities over more classes
// than the pilot holds, p_j = exp(z_j) / S with S summing over classes the
// pilot lacks too, whose log-odds are z_j - ln S - ln(1 - p_j), close to the
// logits up to one shift per point for the small probabilities of the
// incorrect classes. Both squeeze the scores together near 0, as softmax
// does (LogMap). What reading them as they are or as log-odds does to the
// estimate is measured in docs/recommendation.md ("Class probabilities as
// scores").
func (c ProbabilityCheck) LogOddsMap() func(p float64) float64 {
	if !c.readsLogOdds() {
		return nil
	}
	// detmath.Log: the same bits natively and in the browser.
	return func(p float64) float64 {
		return detmath.Log(p) - detmath.Log(1-p)
	}
}

// readsLogOdds reports whether the scores are read as their log-odds (see
// LogOddsMap).
func (c ProbabilityCheck) readsLogOdds() bool {
	return c.Inside && c.Max > 0.5 && c.SmallShare >= 0.5 && !c.Probabilities
}

// WideDecades is how many orders of magnitude the rows of positive scores
// must span, at the median, to be read as their logarithms (LnMap): a
// factor of 1,000 between a row's highest and lowest score, which the
// squeezed tails of probabilities and other exponentials of a model's
// logits reach and similarities seldom do.
const WideDecades = 3

// LnNote tells the user that their scores, positive and spanning orders of
// magnitude as probabilities do, were read as their logarithms
// (ProbabilityCheck.LnMap).
const LnNote = "these scores are all above 0 and a typical row spans more than a factor of 1,000 from its highest score to its lowest, as probabilities and other exponentials of a model's logits do (class probabilities in percent or rescaled, probabilities over more classes than the file holds, one-vs-rest probabilities σ(z) of a model that gives no point more than 1/2) and similarities seldom do: so every method reads their logarithms, ln s, which keeps the order of the classes, so the measured accuracy is unchanged, and spreads apart again the many small scores squeezed together near 0 (for such probabilities ln p is the model's logit up to a shift per point, or nearly, since ln σ(z) is within ln 2 of z below 1/2); multiplying every score by one factor leaves the estimate as it is; give the model's logits if you would rather they were read as they are"

// LnMap returns, for a matrix c found to hold positive scores whose rows
// span at least WideDecades orders of magnitude (Positive, Decades) and
// that are neither class probabilities (LogMap) nor read as log-odds
// (LogOddsMap), the map s -> ln s that the estimators read instead; nil
// otherwise. Such scores are class probabilities in percent or rescaled,
// probabilities over more classes than the matrix holds, one-vs-rest
// probabilities of a model that gives no point more than 1/2, or other
// exponentials of a model's logits. Multiplying every score by a factor
// leaves both conditions as they are, and ln(a s) = ln a + ln s shifts
// every score alike, which the fitted methods do not see (KDE's bandwidth
// search, which stops within a tolerance, moves its curve by about 1e-4):
// class probabilities times 100 answer as the probabilities do, and
// similarities, whose rows span far less, are read as they are at every
// scale. What it does to the estimate is measured in
// docs/recommendation.md ("Probabilities whose rows do not sum to 1").
func (c ProbabilityCheck) LnMap() func(p float64) float64 {
	if !c.readsLn() {
		return nil
	}
	// detmath.Log: the same bits natively and in the browser.
	return detmath.Log
}

// readsLn reports whether the scores are read as their logarithms under
// LnMap.
func (c ProbabilityCheck) readsLn() bool {
	return c.Positive && c.Decades >= WideDecades && !c.Probabilities && !c.readsLogOdds()
}

// PartialNote tells the user that their scores may be class probabilities
// over more classes than the file holds, or one-vs-rest probabilities of a
// model that gives no point more than 1/2 (ProbabilityCheck.Partial), which
// are read as they are, and what to hand in instead. The errors it quotes are
// measured in docs/recommendation.md: "Class probabilities as scores" (the
// halved softmax probabilities, T = 2 and T = 8) and "Probabilities whose
// rows do not sum to 1" (one-vs-rest probabilities read as they are,
// rawsigmoid:2, against their log-odds).
const PartialNote = "these scores all lie strictly between 0 and 1, most below 0.1 and none above 1/2, and every row sums to less than 1, as class probabilities over more classes than the file holds do, and so do one-vs-rest probabilities σ(z) of a model that gives no point more than 1/2; a typical row spans less than a factor of 1,000 from its highest score to its lowest, as similarities do, so they are read as they are, but if they are such probabilities, give their logarithms, ln p, or the model's logits instead: read as they are, class probabilities over more classes gave the recommended estimate 1.6 to 1.8 times its error on test pilots, one-vs-rest probabilities 1.4 times, and an interval that held the truth only about 2 times in 3"

// Partial reports whether the scores may be class probabilities over more
// classes than the file holds whose log-odds LogOddsMap does not take: every
// score strictly between 0 and 1, at least half below 0.1, none above 1/2,
// every row summing to less than 1 (beyond the tolerance). When their rows
// span at least WideDecades orders of magnitude they are read as their
// logarithms (LnMap, LnNote); otherwise as they are, since similarities
// rescaled by a small factor look the same and must keep their answer,
// with PartialNote.
func (c ProbabilityCheck) Partial() bool {
	return c.Inside && c.SmallShare >= 0.5 && c.Max <= 0.5 && c.MaxSum < 1-c.Tolerance
}

// Note is what the user should be told about how the scores of a matrix of
// n rows that c checked are read: ProbabilitiesNote when they are read as
// log-probabilities, else NearMiss(n) when they nearly are class
// probabilities, else LogOddsNote when they are read as log-odds, else
// LnNote when they are read as logarithms (LnMap), else PartialNote when
// they may be class probabilities over more classes than the file holds
// ("" when there is nothing to say).
func (c ProbabilityCheck) Note(n int) string {
	if c.Probabilities {
		return ProbabilitiesNote
	}
	if miss := c.NearMiss(n); miss != "" {
		return miss
	}
	if c.readsLogOdds() {
		return LogOddsNote
	}
	if c.readsLn() {
		return LnNote
	}
	if c.Partial() {
		return PartialNote
	}
	return ""
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
