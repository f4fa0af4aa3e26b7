package chart

import "strings"

// Theme is the set of colours a chart is drawn in: its background, text,
// axes, grid and reference lines, the hover readout, and one colour per
// curve. Light is the default (a chart whose Theme is the zero value is
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
	// The curves' colours by name (see Color); Other is any other name's.
	Observed, Plugin, KDE, Regression, Cleanex, Truth, Estimate, Other string
	// BandAlpha is the opacity of an interval band's fill of its curve's colour.
	BandAlpha float64
}

// Light returns the light theme: dark grey text and axes on white, and the
// curve colours of the Color* constants (each at least 3:1 on white).
func Light() Theme {
	return Theme{Name: "light",
		Background: "#ffffff", Text: "#333333", Axis: "#888888", Grid: "#e8e8e8", Reference: "#bbbbbb", Crosshair: "#666666",
		HoverBox: "rgba(255,255,255,0.92)",
		Observed: ColorObserved, Plugin: ColorPlugin, KDE: ColorKDE, Regression: ColorRegression,
		Cleanex: ColorCleanex, Truth: ColorTruth, Estimate: ColorEstimate, Other: ColorOther,
		BandAlpha: BandAlpha}
}

// Dark returns the dark theme: light text on the page's dark card colour,
// and lighter versions of the light theme's curve colours (the Okabe–Ito
// sky blue, orange, bluish green and vermillion, a pale blue, a light
// purple and a near-white truth), each at least 3:1 on its background.
func Dark() Theme {
	return Theme{Name: "dark",
		Background: "#1e2227", Text: "#e6e8eb", Axis: "#8c95a0", Grid: "#353b43", Reference: "#6b737d", Crosshair: "#b4bcc6",
		HoverBox: "rgba(30,34,39,0.92)",
		Observed: "#56b4e9", Plugin: "#e69f00", KDE: "#a9c8f5", Regression: "#2fbf91",
		Cleanex: "#ff7f3f", Truth: "#e6e8eb", Estimate: "#b99cf0", Other: "#e08fbd",
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
// the package's Color: "observed", "estimate", "plugin", "kde",
// "regression", "cleanex", "truth"; case-insensitive), and Other for any
// other name.
func (t Theme) Color(name string) string {
	t = t.orLight()
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "observed":
		return t.Observed
	case "plugin":
		return t.Plugin
	case "kde":
		return t.KDE
	case "regression":
		return t.Regression
	case "cleanex":
		return t.Cleanex
	case "truth":
		return t.Truth
	case "estimate":
		return t.Estimate
	}
	return t.Other
}

// Palette returns a fresh map from every known curve name to the theme's
// colour for it.
func (t Theme) Palette() map[string]string {
	m := make(map[string]string, 7)
	for _, n := range []string{"observed", "estimate", "plugin", "kde", "regression", "cleanex", "truth"} {
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
