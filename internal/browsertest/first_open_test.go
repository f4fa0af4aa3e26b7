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
