package chart

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/methods"
)

// Colours of the curves that are not methods' (each method's colour and
// dash pattern are its internal/methods registry entry's). Like those, they
// stay distinguishable under the common colour-vision deficiencies and
// have a contrast of at least 3:1 on white (Dash gives each curve a second
// cue besides colour). Each is an exact, lower-case 6-digit hex string, so
// a test can look for pixels of exactly that colour on a canvas (inside a
// line of width 2 or more; edges are antialiased). None of them is used
// for text, axes or grid lines, which are greys (#333333, #888888,
// #e8e8e8). These are the light theme's (Light); Dark has lighter ones.
const (
	ColorObserved = "#0072b2" // blue (Okabe–Ito)
	ColorTruth    = "#000000" // black, drawn dashed
	// ColorEstimate is the recommended curve's colour (a dark purple outside
	// the Okabe–Ito set, drawn thick), and its interval's band is a
	// translucent fill of it (Translucent).
	ColorEstimate = "#5e3c99"
	ColorOther    = "#cc79a7" // reddish purple, for any other name
)

// Color returns the light theme's curve colour for a method or column name
// (as in the curves CSV: "observed", "estimate", "truth" or a registered
// method's name; case-insensitive), and ColorOther for any other name.
// Theme.Color gives a theme's.
func Color(name string) string { return Light().Color(name) }

// Dash returns the line dash pattern of a curve by name (as Color), so that
// curves differ by more than colour: the truth dashed, each method its
// registry entry's pattern, the observed and recommended curves solid (the
// recommended one is drawn thick).
func Dash(name string) []float64 {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "truth" {
		return []float64{7, 5}
	}
	if m, ok := methods.Get(n); ok {
		return m.Dash
	}
	return nil
}

// Palette returns a fresh map from every known name to its Color, for code
// (such as the browser test) that iterates over all curve colours.
func Palette() map[string]string { return Light().Palette() }

// BandAlpha is the opacity of an interval band's fill in the light theme.
const BandAlpha = 0.22

// Translucent returns the CSS colour "rgba(r,g,b,alpha)" of a "#rrggbb"
// colour, or hex itself when it is not of that form.
func Translucent(hex string, alpha float64) string {
	r, g, b, ok := parseHex(hex)
	if !ok {
		return hex
	}
	return "rgba(" + strconv.Itoa(r) + "," + strconv.Itoa(g) + "," + strconv.Itoa(b) + "," + strconv.FormatFloat(alpha, 'g', 4, 64) + ")"
}

// Blend returns, as "#rrggbb", the colour that a fill of hex at opacity alpha
// gives over white (each channel rounded), which is what a band looks like
// where nothing else is drawn under it.
func Blend(hex string, alpha float64) string {
	r, g, b, ok := parseHex(hex)
	if !ok {
		return hex
	}
	mix := func(c int) int { return int(math.Round(255*(1-alpha) + float64(c)*alpha)) }
	return fmt.Sprintf("#%02x%02x%02x", mix(r), mix(g), mix(b))
}

// parseHex reads "#rrggbb".
func parseHex(hex string) (r, g, b int, ok bool) {
	if len(hex) != 7 || hex[0] != '#' {
		return 0, 0, 0, false
	}
	v, err := strconv.ParseUint(hex[1:], 16, 32)
	if err != nil {
		return 0, 0, 0, false
	}
	return int(v >> 16), int(v >> 8 & 0xff), int(v & 0xff), true
}
