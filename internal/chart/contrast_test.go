package chart

import (
	"fmt"
	"math"
	"testing"
)

// luminance is the WCAG relative luminance of "#rrggbb".
func luminance(t *testing.T, hex string) float64 {
	r, g, b, ok := parseHex(hex)
	if !ok {
		t.Fatalf("not #rrggbb: %q", hex)
	}
	lin := func(c int) float64 {
		v := float64(c) / 255
		if v <= 0.03928 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// Every curve has a contrast of at least 3:1 on the charts' white, and the
// curves that share a line width differ by their dash pattern too.
func TestCurvesContrastAndDash(t *testing.T) {
	white := luminance(t, "#ffffff")
	seen := map[string]string{}
	for name, col := range Palette() {
		l := luminance(t, col)
		if ratio := (white + 0.05) / (l + 0.05); ratio < 3 {
			t.Errorf("%s (%s): contrast %.2f:1 on white, want at least 3:1", name, col, ratio)
		}
		if name == "estimate" { // drawn thick: its width is its second cue
			continue
		}
		key := fmt.Sprint(Dash(name))
		if other, ok := seen[key]; ok {
			t.Errorf("%s and %s have the same dash pattern %s", name, other, key)
		}
		seen[key] = name
	}
}

// A reversed ROC on a log u axis draws its curves from the decade below
// the smallest positive u (here 1e-4 → 1e-4 … 1).
func TestROCLogU(t *testing.T) {
	r := ROCChart{Width: 400, Height: 260, LogU: true,
		Series: []Series{{Name: "observed", X: []float64{0, 2e-4, 0.01, 1}, Y: []float64{0.9, 0.95, 0.99, 1}}}}
	if ax := r.uRange(); !ax.log || ax.lo != 1e-4 || ax.hi != 1 {
		t.Errorf("u axis %+v, want log 1e-4..1", ax)
	}
	rec := &recorder{}
	if err := r.Draw(rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.strokesOf(ColorObserved)) == 0 {
		t.Error("the curve is not drawn on a log u axis")
	}
}
