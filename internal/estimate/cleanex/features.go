package cleanex

import (
	"math"

	"github.com/cleanex/cleanex/internal/accuracy"
)

// Inputs says how a point's scores become the network's input vector (see
// docs/cleanex-fast.md for the encodings that were compared).
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
)

// scoreMoments returns a power of two f with max |f v| in [1/2, 1) over all
// N x K scores v of s (f = 1 when every score is 0), and the mean and
// standard deviation of the scaled scores f v; a zero deviation is replaced
// by 1. Scaling by a power of two is exact, so scores of any magnitude
// (up to the largest float64) give finite moments, and multiplying every
// score by a power of two leaves f v, hence the encoding, bit-identical.
func scoreMoments(s *accuracy.Sample) (f, mean, sd float64) {
	big := 0.0
	for _, c := range s.Correct {
		big = max(big, math.Abs(c))
	}
	for _, v := range s.Incorrect {
		big = max(big, math.Abs(v))
	}
	f = 1
	if big > 0 {
		_, e := math.Frexp(big)
		f = math.Ldexp(1, -e)
	}
	n := 0
	for i, c := range s.Correct {
		mean += c * f
		for _, v := range s.IncorrectRow(i) {
			mean += v * f
		}
		n += s.K
	}
	mean /= float64(n)
	for i, c := range s.Correct {
		d := c*f - mean
		sd += d * d
		for _, v := range s.IncorrectRow(i) {
			d := v*f - mean
			sd += d * d
		}
	}
	sd = math.Sqrt(sd / float64(n))
	if sd == 0 || math.IsNaN(sd) {
		sd = 1
	}
	return f, mean, sd
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
	if in == AllScores {
		return k
	}
	return 1 + len(tailRanks(k-1, ratio))
}

// encode returns the N x inputSize input matrix of s, row-major.
//
// Scores enter scaled by scoreMoments' power of two f: the correct score
// as (f c - mean) / sd and the gaps as (f c - f s_(j)) / sd, with mean and
// sd those of the scaled scores. Each is invariant to a global rescaling
// a v + b (a > 0) of the scores up to rounding.
func encode[T float](s *accuracy.Sample, in Inputs, ratio float64) []T {
	f, mean, sd := scoreMoments(s)
	n, k := s.N(), s.K
	size := inputSize(in, k, ratio)
	x := make([]T, n*size)
	var ranks []int
	if in == TailGaps {
		ranks = tailRanks(k-1, ratio)
	}
	for i, c := range s.Correct {
		row := x[i*size : (i+1)*size]
		inc := s.IncorrectRow(i)
		fc := f * c
		row[0] = T((fc - mean) / sd)
		if in == AllScores {
			for j, v := range inc {
				row[1+j] = T((f*v - mean) / sd)
			}
			continue
		}
		for j, rk := range ranks {
			row[1+j] = T((fc - f*inc[len(inc)-rk]) / sd)
		}
	}
	return x
}
