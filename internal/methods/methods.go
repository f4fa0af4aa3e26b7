// Package methods is the registry of accuracy-extrapolation methods: one
// entry per method (name, labels, colour, order, what it needs, how to build
// it), so the command line, the backtest, the report, the browser worker and
// the page offer and show the same methods the same way.
package methods

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/estimate/cleanex"
	"github.com/cleanex/cleanex/internal/estimate/kde"
	"github.com/cleanex/cleanex/internal/estimate/plugin"
	"github.com/cleanex/cleanex/internal/estimate/pooled"
	"github.com/cleanex/cleanex/internal/estimate/regress"
	"github.com/cleanex/cleanex/internal/estimate/tail"
)

// The registered methods' names (Method.Name), for code that treats one
// method apart (CleaneX's loss chart and live curve on the page).
const (
	Plugin     = "plugin"
	KDE        = "kde"
	Pooled     = pooled.Name
	Tail       = tail.Name
	Regression = "regression"
	CleaneX    = "cleanex"
)

// Method is one registry entry.
type Method struct {
	// Name is the registry name: the --methods value, the curves CSV column
	// (docs/formats.md §3), the name in the page's messages and the
	// Estimator's Name.
	Name string
	// Label is the short display name ("KDE"), Title the name with its
	// source ("KDE (Kay et al.)").
	Label, Title string
	// Note says in one line what the method assumes and when it fails.
	Note string
	// Color is the curve's colour, an exact lower-case "#rrggbb" (the
	// Okabe–Ito palette, its orange and sky blue darkened for a contrast of
	// at least 3:1 on white), and Dash its line dash pattern, a second cue
	// besides colour. DarkColor is its colour on the charts' dark theme
	// (internal/chart Dark: the Okabe–Ito colours lightened, at least 3:1
	// on its background).
	Color     string
	DarkColor string
	Dash      []float64
	// MinClasses is the fewest pilot classes the method can fit.
	MinClasses int
	// Seeded is whether the method draws random numbers (Options.Seed
	// changes its fit).
	Seeded bool

	build func(Options) (estimate.Estimator, error)
}

// All holds the registered methods in their display order: the order of
// table rows, CSV columns and legends.
var All = []Method{
	{
		Name: Plugin, Label: "plug-in", Title: "plug-in",
		Note:  "takes each point's record against the pilot's wrong classes as its chance of beating any wrong class (as if drawn with replacement): above the observed accuracy even at k1, too hopeful far beyond it",
		Color: "#b36b00", DarkColor: "#e69f00", Dash: []float64{2, 3}, MinClasses: 2,
		build: func(Options) (estimate.Estimator, error) { return plugin.Estimator{}, nil },
	},
	{
		Name: KDE, Label: "KDE", Title: "KDE (Kay et al.)",
		Note:  "smooths the spread of wrong-class scores with a kernel; depends on that smoothing, can be far off either way",
		Color: "#2f86c4", DarkColor: "#a9c8f5", Dash: []float64{9, 3, 2, 3}, MinClasses: 2,
		build: func(o Options) (estimate.Estimator, error) {
			sel, err := kde.ParseSelector(o.KDEBandwidth)
			if err != nil {
				return nil, err
			}
			return kde.Estimator{Bandwidth: sel}, nil
		},
	},
	{
		// A point needs two incorrect scores to have a spread.
		Name: Pooled, Label: "pooled", Title: "pooled (location-scale)",
		Note:  "puts every point's wrong-class scores on one scale and pools them; needs 3 classes, assumes the scores share one shape",
		Color: "#8a7a00", DarkColor: "#f0e442", Dash: []float64{4, 2, 1, 2}, MinClasses: 3,
		build: func(Options) (estimate.Estimator, error) { return pooled.Estimator{}, nil },
	},
	{
		// A point needs a threshold and a score above it.
		Name: Tail, Label: "tail", Title: "tail (peaks over threshold)",
		Note:  "pools the shape of each point's top quarter of wrong-class scores; needs 3 classes, assumes the tails share one shape",
		Color: "#a6447f", DarkColor: "#e38cc0", Dash: []float64{6, 2, 1, 2, 1, 2}, MinClasses: 3,
		build: func(Options) (estimate.Estimator, error) { return tail.Estimator{}, nil },
	},
	{
		// Its bootstrap choice of bandwidth fits subsamples of about half
		// the classes, which need 2 each.
		Name: Regression, Label: "regression", Title: "regression (Zheng et al.)",
		Note:  "fits a smooth curve to the pilot's accuracy at k = 2…k1 and extends it; needs 3 classes, can drift far out",
		Color: "#009e73", DarkColor: "#2fbf91", Dash: []float64{14, 4}, MinClasses: 3, Seeded: true,
		build: func(o Options) (estimate.Estimator, error) {
			return regress.Estimator{Boot: regress.DefaultBoot, Seed: o.Seed}, nil
		},
	},
	{
		Name: CleaneX, Label: "CleaneX", Title: "CleaneX",
		Note:  "a small neural network learns how the accuracy falls from each point's scores; best on the benchmark, slower",
		Color: "#d55e00", DarkColor: "#ff7f3f", Dash: []float64{10, 3, 4, 3}, MinClasses: 2, Seeded: true,
		build: func(o Options) (estimate.Estimator, error) {
			p := cleanex.Fast()
			if o.Preset != "" {
				var err error
				if p, err = cleanex.PresetByName(o.Preset); err != nil {
					return nil, err
				}
			}
			return cleanex.Estimator{Preset: p, Seed: o.Seed}, nil
		},
	},
}

// Names lists the registered methods' names in display order (All's).
var Names = func() []string {
	names := make([]string, len(All))
	for i, m := range All {
		names[i] = m.Name
	}
	return names
}()

// Get returns the method called name and whether it is registered.
func Get(name string) (Method, bool) {
	if i := slices.Index(Names, name); i >= 0 {
		return All[i], true
	}
	return Method{}, false
}

// Rank returns the method's position in the display order, len(All) for a
// name that is not registered (so sorting by Rank puts those last).
func Rank(name string) int {
	if i := slices.Index(Names, name); i >= 0 {
		return i
	}
	return len(All)
}

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
	m, ok := Get(name)
	if !ok {
		return nil, fmt.Errorf("unknown method %q: valid methods are %s", name, strings.Join(Names, ", "))
	}
	return m.build(o)
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
		case Rank(name) == len(All):
			return nil, fmt.Errorf("unknown method %q: valid methods are %s", name, strings.Join(Names, ", "))
		}
		if slices.Contains(names, name) {
			return nil, fmt.Errorf("method %q is listed twice", name)
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
