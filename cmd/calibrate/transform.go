package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
)

// transformPilot returns pilot s with its scores rewritten as a user might
// hand them in, for `calibrate fit -transform`:
//
//   - "softmax:T": each row replaced by softmax(T x / sd), x the oriented
//     scores and sd their standard deviation over the whole matrix: the
//     class probabilities of a classifier whose logits are T x / sd, read as
//     the product reads them (as their logarithms,
//     accuracy.Orient);
//   - "rawsoftmax:T": those probabilities halved, so that the rows sum to
//     1/2 and they are read as they are (halving scales every score by a
//     power of two, which changes none of the methods' fits): what reading
//     the probabilities themselves gives;
//   - "logsoftmax:T": the natural logarithm of the probabilities, computed
//     here.
//
// All keep every row's order, so the pilot's observed curve is unchanged;
// what changes is the spacing the estimators read.
func transformPilot(s *accuracy.Sample, name string) (*accuracy.Sample, error) {
	kind, arg, _ := strings.Cut(name, ":")
	t, err := strconv.ParseFloat(arg, 64)
	if err != nil || t <= 0 || (kind != "softmax" && kind != "rawsoftmax" && kind != "logsoftmax") {
		return nil, fmt.Errorf("-transform %q: want softmax:T, rawsoftmax:T or logsoftmax:T with T > 0", name)
	}
	m, err := s.Matrix()
	if err != nil {
		return nil, err
	}
	sd := stat.StdDev(m.Scores, nil)
	if !(sd > 0) {
		return nil, fmt.Errorf("-transform %q: the scores do not vary", name)
	}
	m = scores.Softmax(m, t/sd)
	for i, p := range m.Scores {
		switch kind {
		case "rawsoftmax":
			m.Scores[i] = p / 2
		case "logsoftmax":
			m.Scores[i] = math.Log(p)
		}
	}
	out, _, err := accuracy.NewSample(m, scores.Higher)
	if err != nil {
		return nil, err
	}
	if out.LogProbabilities != (kind == "softmax") {
		return nil, fmt.Errorf("-transform %q: read as log-probabilities: %v", name, out.LogProbabilities)
	}
	if !floats.EqualApprox(out.Observed, s.Observed, 1e-12) {
		return nil, fmt.Errorf("-transform %q changed the observed curve (ties from underflow?)", name)
	}
	return out, nil
}
