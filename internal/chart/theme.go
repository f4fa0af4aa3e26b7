package chart

import (
	"strings"

	"github.com/cleanex/cleanex/internal/methods"
)

// Theme is the set of colours a chart is drawn in: its background, text,
// axes, grid and reference lines, the hover readout, and the colours of the
// curves that are not methods' (a method's colour is its registry entry's,
// Color or DarkColor by Dark). Light is the default (a chart whose Theme is the zero value is
// drawn in Light); Dark is for a page in the dark colour scheme. Every
// colour is an exact, lower-case "#rrggbb" string apart from HoverBox.
type Theme struct {
	// Name is "light" or "dark".
	Name string
	// Background fills the chart; Text is every label; Axis the plot's
	// frame, ticks and the k1 line; Grid the grid lines; Reference the
	// chance diagonal of the reversed ROC; Crosshair the hover line.
	Background, Text, Axis, Grid, Reference, Crosshair string
	// HoverBox is the (translucent) fill behind the hover readout.
	HoverBox string
	// The colours of the observed, true and recommended curves; Other is
	// that of a name that is neither one of them nor a method's.
	Observed, Truth, Estimate, Other string
	// Dark selects the methods' DarkColor.
	Dark bool
	// BandAlpha is the opacity of an interval band's fill of its curve's colour.
	BandAlpha float64
}

// Light returns the light theme: dark grey text and axes on white, the
// curve colours of the Color* constants and the methods' registry Color
// (each at least 3:1 on white).
func Light() Theme {
	return Theme{Name: "light",
		Background: "#ffffff", Text: "#333333", Axis: "#888888", Grid: "#e8e8e8", Reference: "#bbbbbb", Crosshair: "#666666",
		HoverBox: "rgba(255,255,255,0.92)",
		Observed: ColorObserved, Truth: ColorTruth, Estimate: ColorEstimate, Other: ColorOther,
		BandAlpha: BandAlpha}
}

// Dark returns the dark theme: light text on the page's dark card colour,
// lighter versions of the light theme's curve colours (the Okabe–Ito sky
// blue, a light purple and a near-white truth) and the methods' registry
// DarkColor, each at least 3:1 on its background.
func Dark() Theme {
	return Theme{Name: "dark", Dark: true,
		Background: "#1e2227", Text: "#e6e8eb", Axis: "#8c95a0", Grid: "#353b43", Reference: "#6b737d", Crosshair: "#b4bcc6",
		HoverBox: "rgba(30,34,39,0.92)",
		Observed: "#56b4e9", Truth: "#e6e8eb", Estimate: "#b99cf0", Other: "#e08fbd",
		BandAlpha: 0.3}
}

// ThemeNamed returns Dark for "dark" and Light for anything else.
func ThemeNamed(name string) Theme {
	if name == "dark" {
		return Dark()
	}
	return Light()
}

// orLight returns t, or Light when t is the zero Theme.
func (t Theme) orLight() Theme {
	if t.Background == "" {
		return Light()
	}
	return t
}

// Color returns the theme's curve colour for a method or column name (as
// the package's Color: "observed", "estimate", "truth" or a registered
// method's name; case-insensitive), and Other for any other name.
func (t Theme) Color(name string) string {
	t = t.orLight()
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "observed":
		return t.Observed
	case "truth":
		return t.Truth
	case "estimate":
		return t.Estimate
	}
	if m, ok := methods.Get(n); ok {
		if t.Dark {
			return m.DarkColor
		}
		return m.Color
	}
	return t.Other
}

// Palette returns a fresh map from every known curve name (observed,
// estimate, truth and every registered method) to the theme's colour for it.
func (t Theme) Palette() map[string]string {
	m := make(map[string]string, 3+len(methods.All))
	for _, n := range append([]string{"observed", "estimate", "truth"}, methods.Names...) {
		m[n] = t.Color(n)
	}
	return m
}

// Band returns the fill of the recommended curve's interval band: its
// colour at the theme's BandAlpha.
func (t Theme) Band() string {
	t = t.orLight()
	return Translucent(t.Estimate, t.BandAlpha)
}
