package chart

import "strings"

// Colours of the curves, from the Okabe–Ito palette (Okabe & Ito, "Color
// Universal Design", 2008), which stays distinguishable under the common
// colour-vision deficiencies. Each is an exact, lower-case 6-digit hex string,
// so a test can look for pixels of exactly that colour on a canvas (inside a
// line of width 2 or more; edges are antialiased). None of them is used for
// text, axes or grid lines, which are greys (#333333, #888888, #e8e8e8).
const (
	ColorObserved   = "#0072b2" // blue
	ColorPlugin     = "#e69f00" // orange
	ColorKDE        = "#56b4e9" // sky blue
	ColorRegression = "#009e73" // bluish green
	ColorCleanex    = "#d55e00" // vermillion
	ColorTruth      = "#000000" // black, drawn dashed
	ColorOther      = "#cc79a7" // reddish purple, for any other name
)

// Color returns the curve colour for a method or column name (as in the
// curves CSV: "observed", "plugin", "kde", "regression", "cleanex", "truth";
// case-insensitive), and ColorOther for any other name.
func Color(name string) string {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "observed":
		return ColorObserved
	case "plugin":
		return ColorPlugin
	case "kde":
		return ColorKDE
	case "regression":
		return ColorRegression
	case "cleanex":
		return ColorCleanex
	case "truth":
		return ColorTruth
	}
	return ColorOther
}

// Palette returns a fresh map from every known name to its Color, for code
// (such as the browser test) that iterates over all curve colours.
func Palette() map[string]string {
	m := make(map[string]string, 6)
	for _, n := range []string{"observed", "plugin", "kde", "regression", "cleanex", "truth"} {
		m[n] = Color(n)
	}
	return m
}
