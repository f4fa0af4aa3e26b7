// Package embed turns labelled embeddings into what the estimators read,
// without holding the N x K score matrix: test embeddings are scored against
// per-class references (class centroids of training embeddings, every
// gallery item of a class, or one gallery item per class) by Euclidean
// distance or cosine similarity, in blocks of points, and each block's rows
// are reduced to per-point summaries (accuracy.PointSummary, with KDE's C_x
// computed from the full row) before the next block is scored. Memory grows
// with N d + N x (summary), not N K.
package embed

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/cleanex/cleanex/internal/limits"
)

// Metric is how a test embedding and a reference embedding are compared.
type Metric int

const (
	// Euclidean scores by the distance sqrt(sum_i (x_i - c_i)^2): lower is better.
	Euclidean Metric = iota
	// Cosine scores by the similarity x.c / (|x| |c|): higher is better.
	Cosine
)

// String returns "euclidean" or "cosine".
func (m Metric) String() string {
	if m == Cosine {
		return "cosine"
	}
	return "euclidean"
}

// Words names the metric in a sentence: "Euclidean distance" or "cosine
// similarity".
func (m Metric) Words() string {
	if m == Cosine {
		return "cosine similarity"
	}
	return "Euclidean distance"
}

// ParseMetric reads "euclidean" or "cosine".
func ParseMetric(s string) (Metric, error) {
	switch strings.ToLower(s) {
	case "euclidean", "":
		return Euclidean, nil
	case "cosine":
		return Cosine, nil
	}
	return Euclidean, fmt.Errorf("metric %q: use euclidean or cosine", s)
}

// Reference is what each class is represented by.
type Reference int

const (
	// Centroid scores each class by its centroid, the mean of its reference
	// embeddings (training embeddings).
	Centroid Reference = iota
	// Nearest scores each class by its nearest reference embedding (1-NN
	// over a gallery): the smallest distance, or the largest similarity.
	Nearest
	// OneShot scores each class by its single reference embedding (one
	// gallery item per class, as in the paper's LFW experiment).
	OneShot
)

// String returns "centroid", "1nn" or "oneshot".
func (r Reference) String() string {
	switch r {
	case Nearest:
		return "1nn"
	case OneShot:
		return "oneshot"
	}
	return "centroid"
}

// ParseReference reads "centroid", "1nn" or "oneshot".
func ParseReference(s string) (Reference, error) {
	switch strings.ToLower(s) {
	case "centroid", "":
		return Centroid, nil
	case "1nn", "nearest":
		return Nearest, nil
	case "oneshot", "one-shot":
		return OneShot, nil
	}
	return Centroid, fmt.Errorf("reference %q: use centroid, 1nn or oneshot", s)
}

// Set is a set of labelled embeddings.
type Set struct {
	// Vectors holds the embeddings row-major: row i is Vectors[i*D : (i+1)*D].
	Vectors []float64
	// D is the embedding dimension.
	D int
	// Labels holds each row's class index into Problem.Classes.
	Labels []int
}

// N returns the number of embeddings.
func (s Set) N() int { return len(s.Labels) }

// Row returns embedding i (a view).
func (s Set) Row(i int) []float64 { return s.Vectors[i*s.D : (i+1)*s.D] }

// Problem is a pilot given as embeddings.
type Problem struct {
	// Classes names the K classes.
	Classes []string
	// Test holds the test embeddings with their true classes.
	Test Set
	// References holds the reference embeddings (training embeddings for
	// Centroid, a gallery for Nearest and OneShot) with their classes.
	References Set
	// Metric and Reference choose the scoring.
	Metric    Metric
	Reference Reference
}

// MaxCoordinate bounds the absolute value of an embedding's coordinates, so
// that squared distances (summed over up to millions of coordinates) stay
// finite.
const MaxCoordinate = 1e150

// MinCoordinate is the least the largest absolute coordinate of the
// embeddings may be under the Euclidean metric: below it squared
// differences underflow, distances lose their digits or become 0, and the
// scores no longer tell the classes apart (cosine similarity normalises
// each embedding first and has no such bound).
const MinCoordinate = 1e-150

// ErrTooSmall is the error of embeddings whose coordinates all lie below
// MinCoordinate in absolute value under the Euclidean metric.
var ErrTooSmall = fmt.Errorf("every coordinate of the embeddings is below %g in absolute value, too small for Euclidean distances between them (their squares underflow)", MinCoordinate)

// ErrAllZero is the error of embeddings whose coordinates are all 0 under
// the Euclidean metric: every distance is 0.
var ErrAllZero = errors.New("every coordinate of the test and reference embeddings is 0, so every distance is 0 and the embeddings cannot tell the classes apart; check that the file holds the embeddings")

// CheckScale returns ErrAllZero or ErrTooSmall, wrapped with the largest
// absolute coordinate big and what to do, when the embeddings of a problem
// scored by metric m have no coordinate of MinCoordinate or more in
// absolute value; nil otherwise, and always for Cosine.
func CheckScale(m Metric, big float64) error {
	switch {
	case m == Cosine || big >= MinCoordinate:
		return nil
	case big == 0:
		return ErrAllZero
	}
	return fmt.Errorf("%w: the largest is %g; multiply every coordinate by a power of ten (1e150, say), or use the cosine metric", ErrTooSmall, big)
}

// HigherIsBetter reports whether the problem's scores are similarities.
func (p *Problem) HigherIsBetter() bool { return p.Metric == Cosine }

// Check validates the problem: matching dimensions, finite values, labels
// naming a class, every class with at least one reference embedding (one
// exactly for OneShot) and at least one test point, at least 2 classes,
// and last, for the Euclidean metric, coordinates large enough for
// distances (CheckScale). The errors name the set, the row and what to do.
func (p *Problem) Check() error {
	k := len(p.Classes)
	if k < 2 {
		return fmt.Errorf("%s: at least 2 classes are needed", limits.Count(k, "class", "classes"))
	}
	if p.Test.D < 1 || p.Test.D != p.References.D {
		return fmt.Errorf("the test embeddings have dimension %d and the references %d: they must be the same, at least 1", p.Test.D, p.References.D)
	}
	big := 0.0
	for _, set := range []struct {
		name string
		s    Set
	}{{"test", p.Test}, {"reference", p.References}} {
		s := set.s
		if len(s.Vectors) != s.N()*s.D {
			return fmt.Errorf("%s embeddings: %d numbers for %d labels of dimension %d", set.name, len(s.Vectors), s.N(), s.D)
		}
		for i, y := range s.Labels {
			if y < 0 || y >= k {
				return fmt.Errorf("%s embedding %d: class index %d is outside 0..%d", set.name, i+1, y, k-1)
			}
			for j, v := range s.Row(i) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("%s embedding %d, coordinate %d: %v; every coordinate must be a finite number", set.name, i+1, j+1, v)
				}
				if math.Abs(v) > MaxCoordinate {
					return fmt.Errorf("%s embedding %d, coordinate %d: %v is too large for distances between embeddings (at most %g in absolute value); rescale the embeddings", set.name, i+1, j+1, v, MaxCoordinate)
				}
				big = max(big, math.Abs(v))
			}
			if p.Metric == Cosine && (set.name == "test" || p.Reference != Centroid) && isZero(s.Row(i)) {
				return fmt.Errorf("%s embedding %d is all zeros: its cosine similarity is undefined; drop it or use euclidean", set.name, i+1)
			}
		}
	}
	refs := make([]int, k)
	for _, y := range p.References.Labels {
		refs[y]++
	}
	tests := make([]int, k)
	for _, y := range p.Test.Labels {
		tests[y]++
	}
	if p.Metric == Cosine && p.Reference == Centroid {
		sums := make([]float64, k*p.References.D)
		for i, y := range p.References.Labels {
			for j, v := range p.References.Row(i) {
				sums[y*p.References.D+j] += v
			}
		}
		for y := range k {
			if refs[y] > 0 && isZero(sums[y*p.References.D:(y+1)*p.References.D]) {
				return fmt.Errorf("the centroid of class %q is all zeros: its cosine similarity is undefined; use euclidean", p.Classes[y])
			}
		}
	}
	for y := range k {
		switch {
		case refs[y] == 0 && tests[y] == 0:
			return fmt.Errorf("class %q has neither test points nor reference embeddings: drop it from the classes", p.Classes[y])
		case refs[y] == 0:
			return fmt.Errorf("class %q has test points but no reference embedding (no centroid): give it training or gallery embeddings, or drop its test points", p.Classes[y])
		case p.Reference == OneShot && refs[y] != 1:
			return fmt.Errorf("class %q has %d reference embeddings: one-shot scoring uses exactly one per class; keep one, or use 1nn (or centroid)", p.Classes[y], refs[y])
		case tests[y] == 0:
			return fmt.Errorf("class %q has reference embeddings but no test point: every class of the pilot needs test points; drop the class", p.Classes[y])
		}
	}
	// Last, so that a caller who has not chosen the metric yet may pass
	// over it (errors.Is ErrTooSmall or ErrAllZero) with nothing unchecked.
	return CheckScale(p.Metric, big)
}

func isZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}
