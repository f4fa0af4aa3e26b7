// Package bank is the benchmark bank: families of pilots whose truth is known
// exactly, used to measure every method and to calibrate the recommended
// estimate and its interval (internal/recommend).
//
// A pilot is k1 classes drawn at random from a population of K classes (a
// "world"); its truth is the population's exact observed curve
//
//	Abar_k = sum_x w_x prod_{i=1..k-1} (R_x + 1 - i) / (K - i),  k = 2..K,
//
// the average accuracy over all k-subsets of the population's classes. Every
// pilot has its own world, so pilots of a family are independent.
//
// Simulated families follow the paper's Section 5.1 at d = 3, 5 and 10, two
// noise levels each, both class and point distributions, k1 = 50, 100, 200,
// 500 and K = 2000 (k2/k1 from 4 to 40 at k = K, and every ratio in between
// along the curve). Real families come from internal/bank/realdata (glyphs
// of many scripts rendered by different fonts; English words against their
// real misspellings; King James Version verses against their passages;
// WordNet example sentences against their word senses). Everything is
// deterministic: the same pilot gives the same bits natively and in wasm.
package bank

import (
	"context"
	"fmt"
	"slices"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/draw"
	"github.com/cleanex/cleanex/internal/simulate"
)

// Pilot is one pilot of the bank: how to build its population, which k1
// classes it holds, and the K of the population (the largest k2 with truth).
type Pilot struct {
	// Family is the family's name (Families).
	Family string
	// ID names the pilot uniquely within the bank, e.g. "sim-d5/Yn-Xu-s0.2/k100/w3".
	ID string
	// K1 is the number of classes in the pilot; K is the population's.
	K1, K int
	// Setting names the family's sub-setting (e.g. "Yn-Xu-s0.2"), for tables.
	Setting string
	// Seed selects the world and the pilot's classes.
	Seed uint64
	// sim is the simulated world's configuration (nil for a real family).
	sim *simulate.Config
	// real is the real family's name in internal/bank/realdata ("" for simulations).
	real string
}

// Loaded is a pilot built in memory.
type Loaded struct {
	// Pilot is the pilot's description.
	Pilot Pilot
	// Sample is the pilot: k1 classes, oriented so higher is better.
	Sample *accuracy.Sample
	// Truth is the population's exact curve, k = 0..K.
	Truth accuracy.Curve
}

// pilotStream is the PCG stream that draws a pilot's classes from its world.
const pilotStream = 0x62616e6b_70696c6f // "bankpilo"

// Load builds the pilot's world, its truth and the pilot itself.
func (p Pilot) Load(ctx context.Context) (*Loaded, error) {
	if p.sim != nil {
		return p.loadSim(ctx)
	}
	return p.loadReal(ctx)
}

func (p Pilot) loadSim(ctx context.Context) (*Loaded, error) {
	w, err := simulate.Generate(*p.sim)
	if err != nil {
		return nil, fmt.Errorf("pilot %s: %w", p.ID, err)
	}
	truth, err := w.TruthContext(ctx, nil)
	if err != nil {
		return nil, err
	}
	m, err := w.Matrix(drawClasses(p.K, p.K1, p.Seed))
	if err != nil {
		return nil, fmt.Errorf("pilot %s: %w", p.ID, err)
	}
	s, _, err := accuracy.NewSample(m, lowerIsBetter)
	if err != nil {
		return nil, fmt.Errorf("pilot %s: %w", p.ID, err)
	}
	return &Loaded{Pilot: p, Sample: s, Truth: truth}, nil
}

// drawClasses returns k1 of the classes 0..k-1, drawn without replacement
// from the PCG stream (seed, pilotStream), in ascending order.
func drawClasses(k, k1 int, seed uint64) []int { return draw.New(seed, pilotStream).Classes(k, k1) }

// Families returns the names of the bank's families, simulated first.
func Families() []string {
	names := []string{}
	for _, f := range simFamilies() {
		names = append(names, f.name)
	}
	return append(names, realFamilies()...)
}

// Pilots returns every pilot of the bank, family by family.
func Pilots() []Pilot {
	var ps []Pilot
	for _, f := range simFamilies() {
		ps = append(ps, f.pilots()...)
	}
	return append(ps, realPilots()...)
}

// Select returns the pilots whose family is one of families (all when empty)
// and whose k1 is one of k1s (all when empty).
func Select(families []string, k1s []int) []Pilot { return selectFrom(Pilots(), families, k1s) }

// selectFrom returns the pilots of all whose family is one of families (all
// when empty) and whose k1 is one of k1s (all when empty).
func selectFrom(all []Pilot, families []string, k1s []int) []Pilot {
	var out []Pilot
	for _, p := range all {
		if p.selected(families, k1s) {
			out = append(out, p)
		}
	}
	return out
}

// selected reports whether p's family is one of families (any when empty)
// and its k1 one of k1s (any when empty).
func (p Pilot) selected(families []string, k1s []int) bool {
	return (len(families) == 0 || slices.Contains(families, p.Family)) &&
		(len(k1s) == 0 || slices.Contains(k1s, p.K1))
}

// K1s are the pilot sizes of every family.
var K1s = []int{50, 100, 200, 500}

// PopulationK is the number of classes of every world.
const PopulationK = 2000
