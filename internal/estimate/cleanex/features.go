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
// Scores enter scaled by Sample.ScoreMoments' power of two f: the correct score
// as (f c - mean) / sd and the gaps as (f c - f s_(j)) / sd, with mean and
// sd those of the scaled scores. Each is invariant to a global rescaling
// a v + b (a > 0) of the scores up to rounding.
func encode[T float](s *accuracy.Sample, in Inputs, ratio float64) []T {
	f, mean, sd := s.ScoreMoments()
	n, k := s.N(), s.K
	size := inputSize(in, k, ratio)
	x := make([]T, n*size)
	var ranks []int
	if in == TailGaps {
		ranks = tailRanks(k-1, ratio)
	}
	for i, c := range s.Correct {
		row := x[i*size : (i+1)*size]
		fc := f * c
		row[0] = T((fc - mean) / sd)
		if in == AllScores {
			for j, v := range s.IncorrectRow(i) {
				row[1+j] = T((f*v - mean) / sd)
			}
			continue
		}
		for j, rk := range ranks {
			row[1+j] = T((fc - f*s.IncorrectAt(i, rk)) / sd)
		}
	}
	return x
}
