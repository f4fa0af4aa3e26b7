package methods

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

// TestRegistry checks every entry: names distinct and in Names in the same
// order, labels and note present, a distinct "#rrggbb" colour with a contrast
// of at least 3:1 on white, a dark-theme colour (its contrast is
// internal/chart's test), a dash pattern, and MinClasses at least 2; Get
// and Rank agree with All, and an unknown name ranks last.
func TestRegistry(t *testing.T) {
	hex := regexp.MustCompile(`^#[0-9a-f]{6}$`)
	var colors []string
	for i, m := range All {
		if Names[i] != m.Name || Rank(m.Name) != i {
			t.Errorf("%s: Names[%d] = %q, Rank = %d", m.Name, i, Names[i], Rank(m.Name))
		}
		if got, ok := Get(m.Name); !ok || got.Name != m.Name {
			t.Errorf("Get(%q) = %v, %v", m.Name, got.Name, ok)
		}
		if m.Label == "" || m.Title == "" || m.Note == "" || len(m.Dash) == 0 || m.MinClasses < 2 {
			t.Errorf("%s: incomplete entry %+v", m.Name, m)
		}
		if !hex.MatchString(m.Color) || slices.Contains(colors, m.Color) {
			t.Errorf("%s: colour %q is not a distinct lower-case #rrggbb", m.Name, m.Color)
		}
		colors = append(colors, m.Color)
		if !hex.MatchString(m.DarkColor) || m.DarkColor == m.Color {
			t.Errorf("%s: dark colour %q is not a lower-case #rrggbb apart from its light one", m.Name, m.DarkColor)
		}
		if c := contrastOnWhite(m.Color); c < 3 {
			t.Errorf("%s: colour %s has contrast %.2f:1 on white, want at least 3:1", m.Name, m.Color, c)
		}
	}
	if _, ok := Get("svm"); ok || Rank("svm") != len(All) {
		t.Errorf("svm: Get ok = %v, Rank = %d; want false, %d", ok, Rank("svm"), len(All))
	}
}

// contrastOnWhite is the WCAG contrast ratio of a "#rrggbb" colour against white.
func contrastOnWhite(hex string) float64 {
	var lum float64
	for i, w := range []float64{0.2126, 0.7152, 0.0722} {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		s := float64(v) / 255
		if s <= 0.04045 {
			s /= 12.92
		} else {
			s = math.Pow((s+0.055)/1.055, 2.4)
		}
		lum += w * s
	}
	return 1.05 / (lum + 0.05)
}
