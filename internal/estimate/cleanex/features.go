package cleanex

import (
	"math"

	"github.com/cleanex/cleanex/internal/accuracy"
)

// Inputs says how a point's scores become the network's input vector.
// TailGapsLocal, LogTail and TailGapsEVT are alternatives measured in the
// study (/work/notes/cleanex-research.md) and used by no preset; their inputs
// have different units, so each of their input columns is standardised to
// mean 0 and standard deviation 1 over the points (standardizeColumns),
// while TailGaps keeps one unit for all its gaps.
type Inputs int

const (
	// AllScores is the published encoding: the correct score followed by all
	// K-1 incorrect scores sorted, z-normalised by the mean and standard
	// deviation of all N x K scores of the sample (input size K).
	AllScores Inputs = iota
	// TailGaps is the fast encoding: the z-normalised correct score followed
	// by the gaps s_c - s_(j) between the correct score and the j-th highest
	// incorrect score, for the geometric ranks j = 1, 2, 3, 5, 8, 12, 18, ...
	// up to K-1 (tailRanks with ratio 1.5), divided by the standard deviation
	// of all scores.
	TailGaps
	// TailGapsLocal is TailGaps with the gaps divided by the point's own
	// standard deviation of its incorrect scores, followed by the log of that
	// deviation relative to the sample's.
	TailGapsLocal
	// LogTail is the z-normalised correct score followed by smoothed
	// estimates of log(1 - C_x): for each bandwidth h = b sd_x (sd_x the
	// standard deviation of the point's incorrect scores, b in tailBandwidths)
	// the log of the logistic-kernel tail mass
	// (1/(K-1)) sum_j sigma((s_j - s_c)/h), divided by log(K-1).
	LogTail
	// TailGapsEVT is TailGaps followed by the point's peaks-over-threshold
	// logit of C_x (see pretrainTarget), capped at 2 log(K-1) and divided by
	// log(K-1).
	TailGapsEVT
)

// tailBandwidths are the bandwidths of LogTail, in units of the point's
// incorrect-score standard deviation.
var tailBandwidths = [...]float64{0.03, 0.1, 0.3, 1}

// scoreMoments returns the mean and standard deviation of all N x K scores
// (correct and incorrect) of s; a zero deviation is replaced by 1.
func scoreMoments(s *accuracy.Sample) (mean, sd float64) {
	n := 0
	for i, c := range s.Correct {
		mean += c
		for _, v := range s.IncorrectRow(i) {
			mean += v
		}
		n += s.K
	}
	mean /= float64(n)
	for i, c := range s.Correct {
		sd += (c - mean) * (c - mean)
		for _, v := range s.IncorrectRow(i) {
			sd += (v - mean) * (v - mean)
		}
	}
	sd = math.Sqrt(sd / float64(n))
	if sd == 0 || math.IsNaN(sd) {
		sd = 1
	}
	return mean, sd
}

// tailRanks returns the ranks j (1 = the highest incorrect score) used by
// TailGaps: j_1 = 1 and j_{i+1} = max(j_i + 1, round(j_i * ratio)), capped
// at m = K-1, which is always included. Ranks are denser where the tail is.
func tailRanks(m int, ratio float64) []int {
	var r []int
	for j := 1; j < m; {
		r = append(r, j)
		j = max(j+1, int(math.Round(float64(j)*ratio)))
	}
	return append(r, m)
}

// inputSize returns the network's input size for encoding in on K classes.
func inputSize(in Inputs, k int, ratio float64) int {
	switch in {
	case AllScores:
		return k
	case TailGapsLocal:
		return 2 + len(tailRanks(k-1, ratio))
	case LogTail:
		return 1 + len(tailBandwidths)
	case TailGapsEVT:
		return 2 + len(tailRanks(k-1, ratio))
	}
	return 1 + len(tailRanks(k-1, ratio))
}

// encode returns the N x inputSize input matrix of s, row-major.
func encode[T float](s *accuracy.Sample, in Inputs, ratio float64) []T {
	mean, sd := scoreMoments(s)
	n, k := s.N(), s.K
	size := inputSize(in, k, ratio)
	x := make([]T, n*size)
	var ranks []int
	var evt []float64
	if in == TailGaps || in == TailGapsLocal || in == TailGapsEVT {
		ranks = tailRanks(k-1, ratio)
	}
	if in == TailGapsEVT {
		evt = pretrainTarget(s)
	}
	logK := math.Log(float64(k - 1))
	for i, c := range s.Correct {
		row := x[i*size : (i+1)*size]
		inc := s.IncorrectRow(i)
		row[0] = T((c - mean) / sd)
		switch in {
		case AllScores:
			for j, v := range inc {
				row[1+j] = T((v - mean) / sd)
			}
		case TailGapsLocal:
			sdx := rowSD(inc)
			for j, rk := range ranks {
				row[1+j] = T((c - inc[len(inc)-rk]) / sdx)
			}
			row[len(row)-1] = T(math.Log(sdx / sd))
		case LogTail:
			sdx := rowSD(inc)
			for j, b := range tailBandwidths {
				h := b * sdx
				// log-sum-exp of log sigma((v - c)/h) over the incorrect scores v
				mx := math.Inf(-1)
				for _, v := range inc {
					mx = math.Max(mx, logSigmoid((v-c)/h))
				}
				acc := 0.0
				for _, v := range inc {
					acc += math.Exp(logSigmoid((v-c)/h) - mx)
				}
				row[1+j] = T((mx + math.Log(acc) - math.Log(float64(len(inc)))) / logK)
			}
		default:
			for j, rk := range ranks {
				row[1+j] = T((c - inc[len(inc)-rk]) / sd)
			}
			if evt != nil {
				row[len(row)-1] = T(min(evt[i], 2*logK) / logK)
			}
		}
	}
	if in == TailGapsLocal || in == LogTail {
		standardizeColumns(x, size)
	}
	return x
}

// standardizeColumns rescales each column of the row-major matrix x (width
// cols) to mean 0 and standard deviation 1 (a constant column becomes 0), so
// the optimiser sees well-conditioned inputs whatever the scores' units.
func standardizeColumns[T float](x []T, cols int) {
	n := len(x) / cols
	for j := range cols {
		m := 0.0
		for i := range n {
			m += float64(x[i*cols+j])
		}
		m /= float64(n)
		v := 0.0
		for i := range n {
			d := float64(x[i*cols+j]) - m
			v += d * d
		}
		sd := math.Sqrt(v / float64(n))
		for i := range n {
			if sd > 0 {
				x[i*cols+j] = T((float64(x[i*cols+j]) - m) / sd)
			} else {
				x[i*cols+j] = 0
			}
		}
	}
}

// rowSD returns the standard deviation of v, or 1 if it is zero.
func rowSD(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	s := 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	s = math.Sqrt(s / float64(len(v)))
	if s == 0 || math.IsNaN(s) {
		return 1
	}
	return s
}
