package web

import (
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/simulate"
)

// SimSource names a simulated data set with every setting of cfg:
// "Simulation (normal classes, uniform points, d = 5, σ² = 0.1, r = 10,
// k1 = 100 of 2,000 classes, seed 1)".
func SimSource(cfg protocol.SimConfig) string {
	return fmt.Sprintf("Simulation (%s classes, %s points, d = %d, σ² = %g, r = %d, k1 = %s of %s classes, seed %d)",
		cfg.Classes, cfg.Points, cfg.D, cfg.Sigma2, cfg.R, limits.Thousands(cfg.K1), limits.Thousands(cfg.K2), cfg.Seed)
}

// slowTruthWork is the size K²·r·d of a simulated world beyond which its
// truth curve (every one of its K·r points scored against its K classes in
// d dimensions) takes seconds in a worker, so the page shows the pilot first
// and adds the truth when it comes.
const slowTruthWork = 2e9

// SlowTruth reports whether the truth curve of simulation c is slow to
// compute: K²·r·d > slowTruthWork (K = 10,000 with r = 10, d = 5 is 5e9).
func SlowTruth(c protocol.SimConfig) bool {
	return float64(c.K2)*float64(c.K2)*float64(c.R)*float64(c.D) > slowTruthWork
}

// SimError is the page's message for a simulation the worker refused with
// err (simulate.Config.Validate, compute.World): what is wrong and what to
// do, without the package's "simulate: " prefix.
func SimError(err error) string {
	why := strings.TrimSuffix(strings.TrimPrefix(err.Error(), "simulate: "), ".")
	return simErrorPrefix + why + ". Change its settings and simulate again; what was on screen is kept."
}

// simErrorPrefix begins every SimError message.
const simErrorPrefix = "The simulation could not be made: "

// ClearSimError removes a SimError message (the settings it was about are
// being changed); any other message stays.
func (s *State) ClearSimError() {
	if strings.HasPrefix(s.Error, simErrorPrefix) {
		s.Error = ""
	}
}

// The page's bounds on a simulation's settings, the same from the form, a
// link and a session (CheckSim).
const (
	maxSimD      = 100
	maxSimR      = 100
	maxSimK      = 100_000
	maxSimSigma2 = 1000
)

// CheckSim refuses a simulation the page does not make, naming the setting
// and its bounds: d and r from 1 to 100, k1 and K from 2 to 100,000, k1 at
// most K, σ² above 0 and at most 1,000, and a pilot and truth a browser tab
// can hold (simulate.CheckBrowserSize).
func CheckSim(c protocol.SimConfig) error {
	for _, b := range simBounds(&c) {
		if v := *b.dst; v < b.min || v > b.max {
			return fmt.Errorf("%s = %s: want a whole number from %d to %s", b.name, limits.Thousands(v), b.min, limits.Thousands(b.max))
		}
	}
	if c.K1 > c.K2 {
		return fmt.Errorf("k1 = %s is more than K = %s: the pilot's classes are drawn from the world's", limits.Thousands(c.K1), limits.Thousands(c.K2))
	}
	if !(c.Sigma2 > 0 && c.Sigma2 <= maxSimSigma2) {
		return sigma2Error(c.Sigma2)
	}
	if err := simulate.CheckBrowserSize(simulate.Config{K: c.K2, R: c.R, D: c.D}, c.K1); err != nil {
		return fmt.Errorf("simulation is too large: %s", strings.TrimPrefix(err.Error(), "simulate: "))
	}
	return nil
}

// simBound is a whole-number setting of a simulation: its key in
// window.cleanex.simulate's argument, its name in messages, the field of c
// that holds it and its bounds.
type simBound struct {
	key, name string
	dst       *int
	min, max  int
}

// simBounds returns the whole-number settings of c with their bounds.
func simBounds(c *protocol.SimConfig) []simBound {
	return []simBound{{"d", "d", &c.D, 1, maxSimD}, {"r", "r", &c.R, 1, maxSimR}, {"k1", "k1", &c.K1, 2, maxSimK}, {"k2", "K", &c.K2, 2, maxSimK}}
}

// sigma2Error refuses σ² = f, which is not above 0 and at most maxSimSigma2.
func sigma2Error(f float64) error {
	return fmt.Errorf("σ² = %g: want a number above 0 and at most %s", f, limits.Thousands(maxSimSigma2))
}
