package chart

import (
	"fmt"
	"math"
	"slices"
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

// On a log u axis a step curve that starts at u = 0, as every reversed ROC
// does (accuracy.ReversedROC: (0, 0), then (0, share of points with C_x = 1)),
// keeps its value just after u = 0 from the axis' left end to its first
// positive u: the level of the points always right is drawn, and the
// point (0, 0) before it is not.
func TestROCLogUStartsAtAxisEnd(t *testing.T) {
	r := ROCChart{Width: 400, Height: 260, LogU: true,
		Series: []Series{{Name: "observed", X: []float64{0, 0, 0.02, 0.04, 1}, Y: []float64{0, 0.9, 0.95, 0.99, 1}}}}
	if ax := r.uRange(); ax.lo != 0.01 {
		t.Fatalf("u axis %+v, want log 0.01..1", ax)
	}
	rec := &recorder{}
	if err := r.Draw(rec); err != nil {
		t.Fatal(err)
	}
	strokes := rec.strokesOf(ColorObserved) // the curve, then its legend swatch
	if len(strokes) == 0 {
		t.Fatal("the curve is not drawn")
	}
	var pts []pt
	for _, sub := range strokes[0].subs {
		pts = append(pts, sub...)
	}
	levels := map[float64]bool{}
	left := pts[0].x
	for _, p := range pts {
		levels[math.Round(p.y*1000)/1000] = true
		left = math.Min(left, p.x)
	}
	// 0.9 (from the axis' left end to 0.02), 0.95, 0.99 and 1; not 0.
	if len(levels) != 4 {
		t.Errorf("the curve is drawn at %d levels, want 4 (0.9, 0.95, 0.99, 1): points %v", len(levels), pts)
	}
	if pts[0].x != left || pts[1].y != pts[0].y || pts[1].x <= pts[0].x {
		t.Errorf("the curve does not start with its level at u = 0 drawn from the axis' left end: points %v", pts)
	}
	if pts[0].y <= pts[len(pts)-1].y {
		t.Errorf("the first level drawn (y %g) is not below the last (y %g): points %v", pts[0].y, pts[len(pts)-1].y, pts)
	}
}

// contrast is the WCAG contrast ratio of two "#rrggbb" colours.
func contrast(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// In both themes every curve and the interval band (where it lies on the
// background alone) have a contrast of at least 3:1 on the background, the
// axes and reference lines too, and text at least 4.5:1; the curves'
// colours differ from each other and from the text, axis and grid colours.
func TestThemesContrast(t *testing.T) {
	for _, th := range []Theme{Light(), Dark()} {
		t.Run(th.Name, func(t *testing.T) {
			bg := th.Background
			if r := contrast(t, th.Text, bg); r < 4.5 {
				t.Errorf("text %s: contrast %.2f:1 on %s, want at least 4.5:1", th.Text, r, bg)
			}
			for what, col := range map[string]string{"axis": th.Axis, "crosshair": th.Crosshair} {
				if r := contrast(t, col, bg); r < 3 {
					t.Errorf("%s %s: contrast %.2f:1 on %s, want at least 3:1", what, col, r, bg)
				}
			}
			if r := contrast(t, th.Grid, bg); r > 1.6 || r < 1.1 {
				t.Errorf("grid %s: contrast %.2f:1 on %s, want a faint but visible line (1.1 to 1.6)", th.Grid, r, bg)
			}
			seen := map[string]string{}
			for name, col := range th.Palette() {
				if r := contrast(t, col, bg); r < 3 {
					t.Errorf("%s (%s): contrast %.2f:1 on %s, want at least 3:1", name, col, r, bg)
				}
				if other, dup := seen[col]; dup && !(th.Name == "dark" && (name == "truth" || other == "truth")) {
					t.Errorf("%s and %s share %s", name, other, col)
				}
				seen[col] = name
				if col == th.Axis || col == th.Grid || col == bg {
					t.Errorf("%s (%s) is an axis, grid or background colour", name, col)
				}
			}
			// The band over the background: visible, and the recommended
			// curve still stands out on it.
			band := blendOver(t, th.Estimate, th.BandAlpha, bg)
			if r := contrast(t, band, bg); r < 1.2 {
				t.Errorf("band %s: contrast %.2f:1 on %s, too faint", band, r, bg)
			}
			if r := contrast(t, th.Estimate, band); r < 2 {
				t.Errorf("the recommended curve %s on its band %s: contrast %.2f:1, want at least 2:1", th.Estimate, band, r)
			}
		})
	}
	if Light().Color("plugin") != Color("plugin") || (Theme{}).Color("kde") != methodColor("kde") || ThemeNamed("dark").Color("truth") == ColorTruth {
		t.Error("Color, the zero Theme and Light disagree, or the dark truth is black")
	}
}

// blendOver returns fg at opacity alpha over bg, as "#rrggbb".
func blendOver(t *testing.T, fg string, alpha float64, bg string) string {
	r1, g1, b1, ok1 := parseHex(fg)
	r2, g2, b2, ok2 := parseHex(bg)
	if !ok1 || !ok2 {
		t.Fatalf("not #rrggbb: %q, %q", fg, bg)
	}
	mix := func(a, b int) int { return int(math.Round(float64(b)*(1-alpha) + float64(a)*alpha)) }
	return fmt.Sprintf("#%02x%02x%02x", mix(r1, r2), mix(g1, g2), mix(b1, b2))
}

// A chart drawn in the dark theme fills its background dark, writes its
// labels in the theme's text colour and strokes its curves in the theme's
// colours; no light-theme colour is used.
func TestDarkThemeDraw(t *testing.T) {
	dark, light := Dark(), Light()
	a := AccuracyChart{Width: 500, Height: 320, K1: 10, Theme: dark,
		Series: []Series{{Name: "observed", X: []float64{2, 5, 10}, Y: []float64{0.9, 0.8, 0.7}},
			{Name: "truth", X: []float64{2, 50}, Y: []float64{0.9, 0.5}}},
		Bands: []Band{{Name: "estimate", X: []float64{2, 50}, Lo: []float64{0.5, 0.3}, Hi: []float64{0.9, 0.6}}}}
	rec := &recorder{}
	if err := a.Draw(rec); err != nil {
		t.Fatal(err)
	}
	if _, ok := a.Hover(250, 160); !ok {
		t.Fatal("no hover inside the plot")
	}
	info, _ := a.Hover(250, 160)
	if err := a.DrawHover(rec, info); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{dark.Observed, dark.Truth} {
		if len(rec.strokesOf(want)) == 0 {
			t.Errorf("no stroke of %s", want)
		}
	}
	for _, o := range rec.ops {
		if o.name != "strokeStyle" && o.name != "fillStyle" {
			continue
		}
		for _, bad := range []string{light.Background, light.Text, light.Axis, light.Grid, light.Observed, light.Truth, light.HoverBox} {
			if o.s == bad {
				t.Errorf("the dark chart uses the light theme's %s (%s)", bad, o.name)
			}
		}
	}
	if o := rec.ops; len(o) == 0 || !slices.ContainsFunc(o, func(o op) bool { return o.name == "fillStyle" && o.s == dark.Background }) {
		t.Error("the dark chart's background is not filled with the dark background")
	}
}
