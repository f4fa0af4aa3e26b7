//go:build browser

package browsertest

import (
	"fmt"
	"testing"
	"time"
)

// linesJS is a JavaScript expression giving, for each element matching the
// CSS selector in sel, its text and the number of lines it takes (its
// client rects: one per line of an inline element; for a block, its height
// over its line height).
const linesJS = `[...document.querySelectorAll(%s)].map(e => {
	const cs = getComputedStyle(e), lh = parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.45;
	const n = cs.display === "inline" ? e.getClientRects().length : Math.round(e.getBoundingClientRect().height / lh);
	return e.textContent.trim() + ":" + n;
})`

// On a 1280 px screen the names of the methods beside their notes, and the
// names of the progress bars, each stay on one line (no "plug-" over "in").
func TestMethodNamesOnOneLine(t *testing.T) {
	p := openPage(t, "")
	p.waitFinished(180 * time.Second)
	p.front()
	p.shot("62-wide-method-names")
	for _, sel := range []string{".settings fieldset label > span:not(.note)", ".bar > label"} {
		lines := mustEval[[]string](p, fmt.Sprintf(linesJS, jsString(sel)), 5*time.Second)
		if len(lines) < 6 {
			t.Errorf("%s: %d names, want the six methods'", sel, len(lines))
		}
		for _, l := range lines {
			if l[len(l)-2:] != ":1" {
				t.Errorf("%s: %q takes more than one line", sel, l)
			}
		}
	}
}

// On a 400 px phone the simulation form's sliders each span the form, so
// that a thumb can be moved finely.
func TestSlidersSpanPhone(t *testing.T) {
	p := openPage(t, "example=0")
	p.onPhone()
	p.click("show-sim")
	p.waitJS(`!!document.querySelector("#slide-d")`, 10*time.Second)
	p.front()
	p.shot("63-phone-sliders")
	got := mustEval[map[string]float64](p, `(() => { const f = document.querySelector("#simform").getBoundingClientRect();
		const w = id => document.getElementById(id).getBoundingClientRect().width;
		return {form: f.width, d: w("slide-d"), sigma2: w("slide-sigma2"), k1: w("slide-k1")}; })()`, 5*time.Second)
	t.Logf("phone sliders: %v", got)
	for _, id := range []string{"d", "sigma2", "k1"} {
		if got[id] < 0.8*got["form"] {
			t.Errorf("the %s slider is %.0f px wide in a %.0f px form: want 80%% of it or more", id, got[id], got["form"])
		}
	}
}
