package web

import (
	"fmt"
	"math"

	"github.com/cleanex/cleanex/internal/protocol"
)

// SimFromAPI returns base with the settings given to window.cleanex.simulate
// applied: dists maps "classes" and "points" to a distribution, nums maps
// "d", "sigma2", "r", "k1", "k2" and "seed" to the JavaScript numbers given
// (a setting absent from both keeps base's value). A setting is taken as
// given or refused, naming it, with base left as it was: a distribution
// other than normal and uniform, or a number the setting cannot hold as it
// is (a fraction, NaN or an infinity; a whole number outside the range of
// the simulation's whole-number settings, CheckSim's, which an int would
// not keep; a seed outside 0..2^64-1) — never truncated into another value.
// A whole number outside CheckSim's bounds but within an int is taken, for
// CheckSim to refuse as it refuses the form's fields.
func SimFromAPI(base protocol.SimConfig, dists map[string]string, nums map[string]float64) (protocol.SimConfig, error) {
	c := base
	for _, it := range []struct {
		key, name string
		dst       *string
	}{{"classes", "classes", &c.Classes}, {"points", "points", &c.Points}} {
		s, ok := dists[it.key]
		if !ok {
			continue
		}
		if s != "normal" && s != "uniform" {
			return base, fmt.Errorf("%s = %q: want normal or uniform", it.name, s)
		}
		*it.dst = s
	}
	for _, b := range simBounds(&c) {
		f, ok := nums[b.key]
		if !ok {
			continue
		}
		if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return base, fmt.Errorf("%s = %s: want a whole number from %d to %s", b.name, fmtG(f), b.min, thousands(b.max))
		}
		*b.dst = int(f)
	}
	if f, ok := nums["sigma2"]; ok {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return base, sigma2Error(f)
		}
		c.Sigma2 = f
	}
	if f, ok := nums["seed"]; ok {
		seed, err := SeedNumber("seed", f)
		if err != nil {
			return base, err
		}
		c.Seed = seed
	}
	return c, nil
}

// SeedNumber returns f, a seed given as a JavaScript number for the setting
// called name, as a uint64: a whole number from 0 to 2^64 - 1, or an error
// naming the setting (never a fraction truncated or a negative number
// wrapped around).
func SeedNumber(name string, f float64) (uint64, error) {
	// 1<<64 as a float64 is 2^64, the first value a uint64 cannot hold.
	if math.IsNaN(f) || f < 0 || f >= 1<<64 || f != math.Trunc(f) {
		return 0, fmt.Errorf("%s = %s: want a whole number from 0 to %d", name, fmtG(f), uint64(math.MaxUint64))
	}
	return uint64(f), nil
}

// CheckPreset refuses a CleaneX preset other than "fast" and "paper", the
// two that window.cleanex.run, a link and the page's menu offer.
func CheckPreset(p string) error {
	if p != "fast" && p != "paper" {
		return fmt.Errorf("preset %q: want fast or paper", p)
	}
	return nil
}
