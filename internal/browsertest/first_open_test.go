//go:build browser

package browsertest

import (
	"strings"
	"testing"
	"time"
)

// On first open the page analyses a simulated example (k1 = 100, k2 = 2000,
// all methods) without any input, and shows the results table with RMSEs.
func TestFirstOpenShowsExample(t *testing.T) {
	p := openPage(t, "")
	start := time.Now()
	p.waitJS(`(document.querySelector("#status")||{}).textContent.startsWith("Finished")`, 150*time.Second)
	t.Logf("start-up example analysed %.1f s after window.cleanex appeared", time.Since(start).Seconds())
	p.shot("01-first-open-example")
	rmse := mustEval[[]string](p, `[...document.querySelectorAll("#results td.rmse")].map(td => td.textContent).filter(s => s !== "")`, 5*time.Second)
	if len(rmse) == 0 {
		t.Fatal("the example shows no RMSE against the truth")
	}
	src := mustEval[string](p, `document.querySelector("#summary").textContent`, 5*time.Second)
	if !strings.Contains(src, "100 classes") {
		t.Errorf("summary %q does not describe the 100-class pilot", src)
	}
}

// "Example file" loads the bundled CSV and analyses it; the file picker is
// reachable from the keyboard.
func TestTryExample(t *testing.T) {
	p := openPage(t, "example=0")
	mustEval[bool](p, `window.__csp = [], document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " " + e.blockedURI)), true`, 5*time.Second)
	if !mustEval[bool](p, `document.querySelector("#file").focus(), document.activeElement && document.activeElement.id === "file"`, 5*time.Second) {
		t.Error("the file input cannot take keyboard focus")
	}
	mustEval[bool](p, `document.querySelector("#example").click(), true`, 5*time.Second)
	p.waitJS(`(document.querySelector("#summary")||{textContent:""}).textContent.includes("example.csv")`, 30*time.Second)
	p.waitJS(`document.querySelector("#status").textContent.startsWith("Finished")`, 120*time.Second)
	p.shot("07-try-example")
	line := mustEval[string](p, `document.querySelector("#summary-line").textContent`, 5*time.Second)
	if !strings.Contains(line, "200 points, 50 classes (4 per class)") {
		t.Errorf("example summary %q", line)
	}
	if h := mustEval[string](p, `document.querySelector("#headline").textContent`, 5*time.Second); !strings.Contains(h, "500 classes") {
		t.Errorf("headline %q does not answer for k2 = 10 × 50 = 500", h)
	}
	if v := mustEval[[]string](p, `window.__csp`, 5*time.Second); len(v) > 0 {
		t.Errorf("Content-Security-Policy violations: %v", v)
	}
}
