package web

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/protocol"
)

// Share is what a link to the page carries in its fragment: a simulation
// and the run settings. It never holds the user's data.
type Share struct {
	// Sim is the simulation to generate.
	Sim protocol.SimConfig
	// K2 is the number of classes to predict for.
	K2 int
	// Methods are the methods shown, by registry name.
	Methods []string
	// Seed is the random seed of CleaneX and regression; Preset is "fast" or "paper".
	Seed   uint64
	Preset string
}

// Encode returns the fragment (without "#"):
// sim=CLASSES,POINTS,D,SIGMA2,R,K1,K,SEED&k2=…&methods=a,b&seed=…&preset=….
func (s Share) Encode() string {
	c := s.Sim
	sim := strings.Join([]string{c.Classes, c.Points, strconv.Itoa(c.D),
		strconv.FormatFloat(c.Sigma2, 'g', -1, 64), strconv.Itoa(c.R), strconv.Itoa(c.K1),
		strconv.Itoa(c.K2), strconv.FormatUint(c.Seed, 10)}, ",")
	return "sim=" + sim + "&k2=" + strconv.Itoa(s.K2) + "&methods=" + strings.Join(s.Methods, ",") +
		"&seed=" + strconv.FormatUint(s.Seed, 10) + "&preset=" + s.Preset
}

// ErrNoShare is returned by DecodeShare for a fragment without a simulation.
var ErrNoShare = errors.New("the link holds no simulation")

// DecodeShare reads a fragment written by Encode (with or without its "#").
// Missing run settings take the page's defaults (k2 = the simulation's K,
// every method, seed 1, the fast preset); a value out of range is an error
// that names it.
func DecodeShare(frag string) (Share, error) {
	q, err := url.ParseQuery(strings.TrimPrefix(frag, "#"))
	if err != nil {
		return Share{}, fmt.Errorf("the link's settings: %w", err)
	}
	if q.Get("sim") == "" {
		return Share{}, ErrNoShare
	}
	f := strings.Split(q.Get("sim"), ",")
	if len(f) != 8 {
		return Share{}, fmt.Errorf("the link's simulation settings (sim=%s) hold %d values where 8 are needed (the class and the point distribution, d, σ², r, k1, K and the seed); the link may have been cut short: copy it whole", q.Get("sim"), len(f))
	}
	var s Share
	c := &s.Sim
	c.Classes, c.Points = f[0], f[1]
	for _, d := range []string{c.Classes, c.Points} {
		if d != "normal" && d != "uniform" {
			return Share{}, fmt.Errorf("the link's distribution %q: want normal or uniform", d)
		}
	}
	for _, it := range []struct {
		dst  *int
		name string
		text string
	}{{&c.D, "d", f[2]}, {&c.R, "r", f[4]}, {&c.K1, "k1", f[5]}, {&c.K2, "K", f[6]}} {
		v, err := strconv.Atoi(it.text)
		if err != nil {
			return Share{}, fmt.Errorf("the link's %s = %q: want a whole number", it.name, it.text)
		}
		*it.dst = v
	}
	if c.Sigma2, err = strconv.ParseFloat(f[3], 64); err != nil {
		return Share{}, fmt.Errorf("the link's σ² = %q: want a number", f[3])
	}
	if c.Seed, err = strconv.ParseUint(f[7], 10, 64); err != nil {
		return Share{}, fmt.Errorf("the link's simulation seed %q: want a whole number ≥ 0", f[7])
	}
	if err := CheckSim(*c); err != nil {
		return Share{}, fmt.Errorf("the link's %w", err)
	}
	s.K2 = c.K2
	if t := q.Get("k2"); t != "" {
		if s.K2, err = limits.ParseK2("k2", t); err != nil {
			return Share{}, fmt.Errorf("the link's %w", err)
		}
	}
	s.Methods = slices.Clone(methods.Names)
	if t, ok := q["methods"]; ok && strings.Trim(t[0], ",") != "" { // none named: all
		s.Methods = nil
		for _, m := range strings.Split(t[0], ",") {
			if m == "" {
				continue
			}
			if !slices.Contains(methods.Names, m) {
				return Share{}, fmt.Errorf("the link's method %q: want some of %s", m, strings.Join(methods.Names, ", "))
			}
			s.Methods = append(s.Methods, m)
		}
	}
	s.Seed = 1
	if t := q.Get("seed"); t != "" {
		if s.Seed, err = strconv.ParseUint(t, 10, 64); err != nil {
			return Share{}, fmt.Errorf("the link's seed %q: want a whole number ≥ 0", t)
		}
	}
	s.Preset = "fast"
	if t := q.Get("preset"); t != "" {
		if err := CheckPreset(t); err != nil {
			return Share{}, fmt.Errorf("the link's %w", err)
		}
		s.Preset = t
	}
	return s, nil
}

// BadLink is the page's message for a link whose settings DecodeShare
// refused with err: what is wrong and what to do.
func BadLink(err error) string {
	return "This link could not be read: " + err.Error() + ". Nothing was run; ask for the link again, " +
		"or choose a file, the example or a simulation below."
}

// ShareOf returns what a link to the page's current simulation and
// settings carries.
func (s *State) ShareOf() Share {
	return Share{Sim: s.Sim, K2: s.K2, Methods: s.SelectedMethods(), Seed: s.Seed, Preset: s.Preset}
}

// Apply puts a link's run settings into the page's state: the simulation
// form, k2, the method checkboxes, the seed and the preset.
func (s *State) Apply(sh Share) {
	s.Sim = sh.Sim
	s.ShowRun(sh)
}
