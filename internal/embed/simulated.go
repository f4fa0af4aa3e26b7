package embed

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/simulate"
)

// Simulation says which embeddings Simulated exports from a simulated world.
type Simulation struct {
	// Classes are the world's classes the problem holds, in order: a
	// pilot drawn by World.SampleClasses, or World.AllClasses().
	Classes []int
	// Gallery makes the reference embeddings a gallery (scored by OneShot
	// with one per class, else Nearest) instead of training embeddings
	// (scored by their Centroid).
	Gallery bool
	// RefPoints is the number of reference embeddings per class: 0 gives
	// each class its centre, exactly, as its one reference; m >= 1 draws m
	// points around the centre from the world's point distribution (its
	// σ²), from a PCG stream of Seed and the class, so a class gets the
	// same references in a pilot as in the whole world.
	RefPoints int
	// Seed selects the reference points' draws when RefPoints >= 1.
	Seed uint64
}

// streamRefs is the PCG stream word of the reference points, mixed with
// the class index ("refs!!!!").
const streamRefs = 0x72656673_21212121

// MaxRefCoords bounds the reference coordinates Simulated draws
// (RefPoints x classes x d), as simulate.MaxCoords bounds the points'.
const MaxRefCoords = simulate.MaxCoords

// Simulated returns the paper's simulated problem (internal/simulate) as
// embeddings: the test embeddings are the world's points of s.Classes (r
// per class, in class order, then point order, as World.Matrix orders its
// rows), classes named by World.ClassName, and the references are each
// class's centre (RefPoints 0) or RefPoints noisy points around it. The
// metric is Euclidean; the reference is Centroid for training embeddings,
// OneShot for a gallery of one item per class, Nearest for a larger one.
//
// With RefPoints 0 every class's centroid (the mean of one vector) is its
// centre, so Matrix gives World.Matrix(s.Classes): the same distances,
// summed in coordinate order. They have the same bits wherever the
// compiler keeps every product rounded before it is added (amd64 below
// GOAMD64=v3, wasm); where it fuses multiply-adds into one rounding
// (arm64, ppc64, s390x, amd64 v3) Matrix's distances may differ from
// World.Score's, which rounds each square explicitly, in the last bits.
// With RefPoints >= 1 the centroids (or the nearest gallery items) are
// noisy estimates of the centres, so the scores and the accuracy differ
// from the world's: fewer reference points, lower accuracy.
func Simulated(w *simulate.World, s Simulation) (*Problem, error) {
	cfg := w.Config
	d, r := cfg.D, cfg.R
	if len(s.Classes) < 2 {
		return nil, fmt.Errorf("%s: at least 2 classes are needed", limits.Count(len(s.Classes), "class", "classes"))
	}
	seen := make(map[int]bool, len(s.Classes))
	for _, j := range s.Classes {
		if j < 0 || j >= cfg.K || seen[j] {
			return nil, fmt.Errorf("class %d is outside 0..%d or repeated", j, cfg.K-1)
		}
		seen[j] = true
	}
	switch {
	case s.RefPoints < 0:
		return nil, fmt.Errorf("%d reference points per class: give 0 (the class centres) or more", s.RefPoints)
	case s.RefPoints > MaxRefCoords/d/len(s.Classes):
		return nil, fmt.Errorf("%d reference points per class x %d classes x d = %d: at most %d reference coordinates", s.RefPoints, len(s.Classes), d, MaxRefCoords)
	}
	p := &Problem{
		Classes:    make([]string, len(s.Classes)),
		Test:       Set{D: d, Vectors: make([]float64, 0, len(s.Classes)*r*d), Labels: make([]int, 0, len(s.Classes)*r)},
		References: Set{D: d},
		Metric:     Euclidean,
		Reference:  Centroid,
	}
	if s.Gallery {
		p.Reference = Nearest
		if s.RefPoints <= 1 {
			p.Reference = OneShot
		}
	}
	for a, j := range s.Classes {
		p.Classes[a] = w.ClassName(j)
		p.Test.Vectors = append(p.Test.Vectors, w.Points[j*r*d:(j+1)*r*d]...)
		for range r {
			p.Test.Labels = append(p.Test.Labels, a)
		}
	}
	for a, j := range s.Classes {
		centre := w.Centres[j*d : (j+1)*d]
		if s.RefPoints == 0 {
			p.References.Vectors = append(p.References.Vectors, centre...)
			p.References.Labels = append(p.References.Labels, a)
			continue
		}
		p.References.Vectors = append(p.References.Vectors, refPoints(cfg, centre, s.RefPoints, s.Seed, j)...)
		for range s.RefPoints {
			p.References.Labels = append(p.References.Labels, a)
		}
	}
	return p, nil
}

// refPoints draws m points around centre (class j) from cfg's point
// distribution, as simulate.Generate draws the world's points: Normal
// y + σ z, Uniform y + U(-√(3σ²), √(3σ²)), each product rounded before it
// is added, coordinate by coordinate, point by point, from the PCG stream
// (seed, streamRefs mixed with j).
func refPoints(cfg simulate.Config, centre []float64, m int, seed uint64, j int) []float64 {
	rp := rand.New(rand.NewPCG(seed, streamRefs^(uint64(j)*0x9e3779b97f4a7c15)))
	sd := math.Sqrt(cfg.Sigma2)
	half := math.Sqrt(float64(3 * cfg.Sigma2))
	out := make([]float64, 0, m*len(centre))
	for range m {
		for _, y := range centre {
			if cfg.Points == simulate.Uniform {
				a, b := y-half, y+half
				out = append(out, a+float64((b-a)*rp.Float64()))
			} else {
				out = append(out, y+float64(sd*rp.NormFloat64()))
			}
		}
	}
	return out
}
