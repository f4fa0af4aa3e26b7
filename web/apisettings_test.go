package web

import (
	"math"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/protocol"
)

// window.cleanex.simulate's settings are taken as given or refused, naming
// the setting: a fraction, NaN, an infinity or a number no int holds is
// never truncated into another value, and a refused call leaves the base
// configuration as it was.
func TestSimFromAPI(t *testing.T) {
	base := protocol.SimConfig{Classes: "normal", Points: "normal", D: 5, Sigma2: 0.1, R: 10, K1: 100, K2: 2000, Seed: 1}
	got, err := SimFromAPI(base, map[string]string{"points": "uniform"},
		map[string]float64{"d": 3, "sigma2": 0.25, "r": 4, "k1": 20, "k2": 200, "seed": 18446744073709549568})
	want := protocol.SimConfig{Classes: "normal", Points: "uniform", D: 3, Sigma2: 0.25, R: 4, K1: 20, K2: 200, Seed: 18446744073709549568}
	if err != nil || got != want {
		t.Errorf("SimFromAPI = %+v, %v; want %+v", got, err, want)
	}
	// Out of CheckSim's bounds but whole: taken as given, for CheckSim to
	// refuse with the bounds (as the form's fields do).
	if got, err := SimFromAPI(base, nil, map[string]float64{"d": 500, "sigma2": 2000}); err != nil || got.D != 500 || got.Sigma2 != 2000 {
		t.Errorf("d = 500, σ² = 2000: %+v, %v; want them taken as given", got, err)
	}
	for _, tc := range []struct {
		name  string
		dists map[string]string
		nums  map[string]float64
		want  string
	}{
		{"fraction", nil, map[string]float64{"d": 2.5}, "d = 2.5: want a whole number from 1 to 100"},
		{"huge", nil, map[string]float64{"d": 1e30}, "d = 1e+30: want a whole number from 1 to 100"},
		{"NaN r", nil, map[string]float64{"r": math.NaN()}, "r = NaN: want a whole number from 1 to 100"},
		{"k1", nil, map[string]float64{"k1": 20.5}, "k1 = 20.5: want a whole number from 2 to 100,000"},
		{"K", nil, map[string]float64{"k2": math.Inf(1)}, "K = +Inf: want a whole number from 2 to 100,000"},
		{"σ² NaN", nil, map[string]float64{"sigma2": math.NaN()}, "σ² = NaN: want a number above 0 and at most 1,000"},
		{"seed fraction", nil, map[string]float64{"seed": 1.5}, "seed = 1.5: want a whole number from 0 to 18446744073709551615"},
		{"seed negative", nil, map[string]float64{"seed": -1}, "seed = -1: want a whole number from 0 to 18446744073709551615"},
		{"seed 2^64", nil, map[string]float64{"seed": 18446744073709551616}, "seed = 1.8446744073709552e+19: want a whole number from 0 to 18446744073709551615"},
		{"classes", map[string]string{"classes": "gaussian"}, nil, `classes = "gaussian": want normal or uniform`},
	} {
		b := base
		got, err := SimFromAPI(b, tc.dists, tc.nums)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: SimFromAPI = %+v, %v; want the error %q", tc.name, got, err, tc.want)
		}
		if b != base {
			t.Errorf("%s: the base changed to %+v", tc.name, b)
		}
	}
}

// A seed given to window.cleanex.run is a whole number from 0 to 2^64 - 1.
func TestSeedNumber(t *testing.T) {
	for _, f := range []float64{0, 1, 7, 1 << 53, 18446744073709549568} {
		if got, err := SeedNumber("seed", f); err != nil || float64(got) != f {
			t.Errorf("SeedNumber(%v) = %d, %v", f, got, err)
		}
	}
	for _, f := range []float64{-1, 0.5, 2.5, math.NaN(), math.Inf(1), math.Inf(-1), 18446744073709551616, 1e300} {
		if got, err := SeedNumber("seed", f); err == nil || !strings.Contains(err.Error(), "want a whole number from 0 to 18446744073709551615") {
			t.Errorf("SeedNumber(%v) = %d, %v; want it refused", f, got, err)
		}
	}
}

// A preset is "fast" or "paper", whether from window.cleanex.run or a link.
func TestCheckPreset(t *testing.T) {
	for _, p := range []string{"fast", "paper"} {
		if err := CheckPreset(p); err != nil {
			t.Errorf("CheckPreset(%q) = %v", p, err)
		}
	}
	for _, p := range []string{"", "slow", "Fast", " paper"} {
		if err := CheckPreset(p); err == nil || err.Error() != `preset "`+p+`": want fast or paper` {
			t.Errorf("CheckPreset(%q) = %v", p, err)
		}
	}
}
