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
//     1/2, read as they are (NewSampleAsIs; halving scales every score by a
//     power of two, which changes none of the methods' fits): what reading
//     the probabilities themselves gives;
//   - "logsoftmax:T": the natural logarithm of the probabilities, computed
//     here;
//   - "sigmoid:T" and "rawsigmoid:T": probabilities of one-vs-rest
//     classifiers, read as the product reads them and as they are
//     (sigmoidPilot); "lowsigmoid:T" and "rawlowsigmoid:T" the same of a
//     model that gives no point more than 1/2;
//   - "minmax": the scores rescaled to [0, 1] (minMaxPilot);
//   - "logit-B" and "ln-B": transform B ("own" for none), then read as
//     log-odds or logarithms (readUnitAs).
//
// All keep every row's order, so the pilot's observed curve is unchanged;
// what changes is the spacing the estimators read.
func transformPilot(s *accuracy.Sample, name string) (*accuracy.Sample, error) {
	if read, base, ok := strings.Cut(name, "-"); ok && (read == "logit" || read == "ln") {
		return readUnitAs(s, read, base)
	}
	kind, arg, _ := strings.Cut(name, ":")
	switch {
	case kind == "sigmoid" || kind == "rawsigmoid" || kind == "lowsigmoid" || kind == "rawlowsigmoid":
		return sigmoidPilot(s, name, strings.HasPrefix(kind, "raw"), strings.HasSuffix(kind, "lowsigmoid"), arg)
	case name == "minmax":
		return minMaxPilot(s)
	}
	t, err := strconv.ParseFloat(arg, 64)
	if err != nil || t <= 0 || (kind != "softmax" && kind != "rawsoftmax" && kind != "logsoftmax") {
		return nil, fmt.Errorf("-transform %q: want softmax:T, rawsoftmax:T, logsoftmax:T, [raw]sigmoid:T or [raw]lowsigmoid:T with T > 0, minmax, or logit-B or ln-B", name)
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
	out, err := reread(s, m, name, kind == "rawsoftmax")
	if err == nil && out.LogProbabilities != (kind == "softmax") {
		return nil, fmt.Errorf("-transform %q: read as log-probabilities: %v", name, out.LogProbabilities)
	}
	return out, err
}

// reread returns the Sample of m, the scores of s rewritten by the
// transform called name, read higher-is-better as the product reads them
// (as they are when asIs), or an error when the rewriting changed the
// observed curve (ties from underflow or saturation): every transform
// keeps each row's order.
func reread(s *accuracy.Sample, m *scores.Matrix, name string, asIs bool) (*accuracy.Sample, error) {
	var out *accuracy.Sample
	var err error
	if asIs {
		out, err = accuracy.NewSampleAsIs(m)
	} else {
		out, _, err = accuracy.NewSample(m, scores.Higher)
	}
	if err != nil {
		return nil, err
	}
	if !floats.EqualApprox(out.Observed, s.Observed, 1e-12) {
		return nil, fmt.Errorf("-transform %q changed the observed curve (ties from underflow or saturation?)", name)
	}
	return out, nil
}

// sigmoidPilot returns s with every score x replaced by sigma(T (x - c) /
// sd), c the mean correct score (the largest score of the matrix when low)
// and sd the scores' standard deviation: the outputs of one-vs-rest
// classifiers, in (0, 1), rows not summing to 1 (when low, of a model that
// gives no point more than 1/2). As "sigmoid:T" and "lowsigmoid:T" they
// are read as the product reads them (their log-odds,
// scores.ProbabilityCheck.LogOddsMap, or their logarithms, LnMap, when they
// look like probabilities); as "rawsigmoid:T" halved and read as they are
// (NewSampleAsIs; halving scales every score by a power of two, which
// changes none of the methods' fits), as "rawlowsigmoid:T" read as they
// are.
func sigmoidPilot(s *accuracy.Sample, name string, raw, low bool, arg string) (*accuracy.Sample, error) {
	t, err := strconv.ParseFloat(arg, 64)
	if err != nil || t <= 0 {
		return nil, fmt.Errorf("-transform %q: want sigmoid:T or rawsigmoid:T with T > 0", name)
	}
	m, err := s.Matrix()
	if err != nil {
		return nil, err
	}
	sd := stat.StdDev(m.Scores, nil)
	c := stat.Mean(s.Correct, nil)
	if low {
		c = floats.Max(m.Scores)
	}
	for i, x := range m.Scores {
		m.Scores[i] = 1 / (1 + math.Exp(-t*(x-c)/sd))
		if raw && !low {
			m.Scores[i] /= 2
		}
	}
	out, err := reread(s, m, name, raw)
	if err == nil && (!low && out.LogProbabilities || raw && (out.LogOdds || out.LogProbabilities)) {
		return nil, fmt.Errorf("-transform %q: read as probabilities (%v) or log-odds (%v)", name, out.LogProbabilities, out.LogOdds)
	}
	return out, err
}

// readUnitAs returns s transformed by base ("own" for none), its scores,
// which must lie in [0, 1], then read through logit (read "logit") or ln
// (read "ln"); a score of 0 reads as the map of half the smallest positive
// score, a score of 1 (logit) as that of 1 - half the largest gap below 1.
// It measures what reading scores in [0, 1] as log-odds (or logarithms)
// would do where the product reads them as they are (similarities in
// [0, 1], scores rescaled to [0, 1], halved probabilities).
func readUnitAs(s *accuracy.Sample, read, base string) (*accuracy.Sample, error) {
	if base != "own" {
		var err error
		if s, err = transformPilot(s, base); err != nil {
			return nil, err
		}
	}
	m, err := s.Matrix()
	if err != nil {
		return nil, err
	}
	pMin, qMin := math.Inf(1), math.Inf(1)
	for _, p := range m.Scores {
		if !(p >= 0 && p <= 1) {
			return nil, fmt.Errorf("-transform %s-%s: a score %v outside [0, 1]", read, base, p)
		}
		if p > 0 {
			pMin = min(pMin, p)
		}
		if p < 1 {
			qMin = min(qMin, 1-p)
		}
	}
	for i, p := range m.Scores {
		p = min(max(p, pMin/2), 1-qMin/2)
		if read == "ln" {
			m.Scores[i] = math.Log(p)
		} else {
			m.Scores[i] = math.Log(p) - math.Log1p(-p)
		}
	}
	return reread(s, m, read+"-"+base, true)
}

// minMaxPilot returns s with its scores rescaled to [0, 1] by the matrix's
// smallest and largest score, (x - min) / (max - min): a normalisation a
// user might apply, read as it is (the same fits as the scores themselves).
func minMaxPilot(s *accuracy.Sample) (*accuracy.Sample, error) {
	m, err := s.Matrix()
	if err != nil {
		return nil, err
	}
	lo, hi := floats.Min(m.Scores), floats.Max(m.Scores)
	if !(hi > lo) {
		return nil, fmt.Errorf("-transform minmax: the scores do not vary")
	}
	for i, x := range m.Scores {
		m.Scores[i] = (x - lo) / (hi - lo)
	}
	return reread(s, m, "minmax", false)
}
