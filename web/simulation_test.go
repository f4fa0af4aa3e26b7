package web

import (
	"errors"
	"testing"

	"github.com/cleanex/cleanex/internal/protocol"
)

// A refused simulation is named as such, without the package prefix.
func TestSimError(t *testing.T) {
	got := SimError(errors.New("simulate: k1 = 500 pilot classes: it must be between 2 and K = 100, the simulated world's classes"))
	want := "The simulation could not be made: k1 = 500 pilot classes: it must be between 2 and K = 100, the simulated world's classes. Change its settings and simulate again; what was on screen is kept."
	if got != want {
		t.Errorf("SimError = %q, want %q", got, want)
	}
}

func TestSlowTruth(t *testing.T) {
	for _, tc := range []struct {
		k, r, d int
		slow    bool
	}{
		{2000, 10, 5, false}, // the paper's setting: 2e8
		{10000, 10, 5, true}, // 5e9
		{5000, 10, 5, false}, // 1.25e9
		{5000, 20, 10, true}, // 5e9
	} {
		if got := SlowTruth(protocol.SimConfig{K2: tc.k, R: tc.r, D: tc.d}); got != tc.slow {
			t.Errorf("SlowTruth(K %d, r %d, d %d) = %v, want %v", tc.k, tc.r, tc.d, got, tc.slow)
		}
	}
}

// A simulation's name gives every setting, the distributions included.
func TestSimSource(t *testing.T) {
	cfg := protocol.SimConfig{Classes: "uniform", Points: "normal", D: 8, Sigma2: 0.2, R: 10, K1: 40, K2: 1000, Seed: 7}
	if got, want := SimSource(cfg), "Simulation (uniform classes, normal points, d = 8, σ² = 0.2, r = 10, k1 = 40 of 1,000 classes, seed 7)"; got != want {
		t.Errorf("SimSource = %q, want %q", got, want)
	}
}

// Changing a simulation setting takes away the message about the settings
// before; other messages stay.
func TestClearSimError(t *testing.T) {
	st := NewState()
	st.Error = SimError(errors.New("simulate: k1 = 100000: too many"))
	st.ClearSimError()
	if st.Error != "" {
		t.Errorf("a simulation message stayed: %q", st.Error)
	}
	st.Error = "Could not read x.csv: row 3"
	st.ClearSimError()
	if st.Error == "" {
		t.Error("a file's message went with a simulation setting's change")
	}
}
