package compute

import (
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/protocol"
)

// newEstimator builds the method a Run asks for through the registry the
// CLI uses, so the page and the CLI fit the same way.
func newEstimator(m protocol.Run) (estimate.Estimator, error) {
	return methods.New(m.Method, methods.Options{Seed: m.Seed, Preset: m.Preset, KDEBandwidth: m.KDEBandwidth})
}
