// Package methods is the registry of accuracy-extrapolation methods: every
// estimator by name, built from one set of options, so the command line, the
// backtest and the browser worker offer the same methods the same way.
package methods

import (
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/estimate/cleanex"
	"github.com/cleanex/cleanex/internal/estimate/kde"
	"github.com/cleanex/cleanex/internal/estimate/plugin"
	"github.com/cleanex/cleanex/internal/estimate/regress"
)

// Names lists the registered methods in their display order.
var Names = []string{"plugin", "kde", "regression", "cleanex"}

// Options configure the methods; each method reads the fields it uses.
type Options struct {
	// Seed seeds the methods that draw random numbers (regression's bootstrap,
	// CleaneX's initialisation).
	Seed uint64
	// Preset is CleaneX's preset: "fast" (the default when empty) or "paper".
	Preset string
	// KDEBandwidth is KDE's bandwidth selector: "lcv" (the default when empty) or "ucv".
	KDEBandwidth string
}

// Validate checks every option, whichever methods will use them, so a typo in
// an option is reported even when its method is not selected.
func (o Options) Validate() error {
	if _, err := kde.ParseSelector(o.KDEBandwidth); err != nil {
		return err
	}
	if o.Preset != "" {
		if _, err := cleanex.PresetByName(o.Preset); err != nil {
			return err
		}
	}
	return nil
}

// New returns the method called name, configured by o.
func New(name string, o Options) (estimate.Estimator, error) {
	switch name {
	case "plugin":
		return plugin.Estimator{}, nil
	case "kde":
		sel, err := kde.ParseSelector(o.KDEBandwidth)
		if err != nil {
			return nil, err
		}
		return kde.Estimator{Bandwidth: sel}, nil
	case "regression":
		return regress.Estimator{Boot: regress.DefaultBoot, Seed: o.Seed}, nil
	case "cleanex":
		p := cleanex.Fast()
		if o.Preset != "" {
			var err error
			if p, err = cleanex.PresetByName(o.Preset); err != nil {
				return nil, err
			}
		}
		return cleanex.Estimator{Preset: p, Seed: o.Seed}, nil
	}
	return nil, fmt.Errorf("unknown method %q: valid methods are %s", name, strings.Join(Names, ", "))
}

// ParseList splits a comma-separated list of method names ("plugin,kde"),
// trimming spaces; it rejects unknown, empty and repeated names.
func ParseList(list string) ([]string, error) {
	var names []string
	for _, f := range strings.Split(list, ",") {
		name := strings.TrimSpace(f)
		switch {
		case name == "":
			return nil, fmt.Errorf("method list %q has an empty name: give names separated by commas, from %s", list, strings.Join(Names, ", "))
		case !known(name):
			return nil, fmt.Errorf("unknown method %q: valid methods are %s", name, strings.Join(Names, ", "))
		}
		for _, n := range names {
			if n == name {
				return nil, fmt.Errorf("method %q is listed twice", name)
			}
		}
		names = append(names, name)
	}
	return names, nil
}

// NewList builds the methods of a comma-separated list (see ParseList) after
// validating o.
func NewList(list string, o Options) ([]estimate.Estimator, error) {
	names, err := ParseList(list)
	if err != nil {
		return nil, err
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	ests := make([]estimate.Estimator, len(names))
	for i, n := range names {
		if ests[i], err = New(n, o); err != nil {
			return nil, err
		}
	}
	return ests, nil
}

func known(name string) bool {
	for _, n := range Names {
		if n == name {
			return true
		}
	}
	return false
}
