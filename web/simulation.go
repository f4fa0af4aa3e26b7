package web

import (
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/protocol"
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
	return "The simulation could not be made: " + why + ". Change its settings and simulate again; what was on screen is kept."
}
