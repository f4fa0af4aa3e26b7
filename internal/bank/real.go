package bank

import (
	"context"
	"fmt"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/bank/realdata"
)

// realFamilies returns the real families' names in the bank: "real-" and the
// realdata family.
func realFamilies() []string {
	var names []string
	for _, f := range realdata.Families() {
		names = append(names, "real-"+f)
	}
	return names
}

// realWorlds is the number of populations drawn per real family and k1.
const realWorlds = 8

// realPilots returns each real family's 32 pilots: for each k1 in K1s,
// realWorlds populations of PopulationK classes drawn from the family's pool
// (each with its own seed), and one pilot of k1 classes from each.
func realPilots() []Pilot {
	var ps []Pilot
	for fi, f := range realdata.Families() {
		ps = append(ps, realFamilyPilots("real-"+f, f, uint64(100_000_000*(fi+1)), PopulationK, K1s)...)
	}
	return ps
}

// realFamilyPilots returns the pilots of realdata family f, named name:
// for each k1 in k1s, realWorlds populations of k classes with seeds
// base+1, base+2, ..., and one pilot of k1 classes from each (32 with the
// bank's PopulationK and K1s).
func realFamilyPilots(name, f string, base uint64, k int, k1s []int) []Pilot {
	var ps []Pilot
	i := uint64(0)
	for _, k1 := range k1s {
		for range realWorlds {
			i++
			seed := base + i
			ps = append(ps, Pilot{Family: name, Setting: f, K1: k1, K: k, Seed: seed, real: f,
				ID: fmt.Sprintf("%s/k%d/w%d", name, k1, seed)})
		}
	}
	return ps
}

// loadReal draws the pilot's population from its real family, takes the
// population's observed curve as the truth and draws the pilot's classes.
func (p Pilot) loadReal(ctx context.Context) (*Loaded, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m, dir, err := realdata.Population(p.real, p.Seed, p.K)
	if err != nil {
		return nil, fmt.Errorf("pilot %s: %w", p.ID, err)
	}
	truth, s, _, err := accuracy.ObservedAndSubset(m, dir, drawClasses(p.K, p.K1, p.Seed))
	if err != nil {
		return nil, fmt.Errorf("pilot %s: %w", p.ID, err)
	}
	return &Loaded{Pilot: p, Sample: s, Truth: truth}, nil
}
