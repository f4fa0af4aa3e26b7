//go:build browser

package browsertest

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A share link put in the address of a tab already on the page (pasted in
// the address bar, or followed from another page) changes only the
// address's fragment, so the browser does not load the page again: the
// page reproduces the link's simulation and settings all the same, and
// says so when the link cannot be read.
func TestLinkPastedInOpenPage(t *testing.T) {
	const first = "#sim=normal,normal,5,0.2,5,20,200,3&k2=300&methods=plugin,kde&seed=2&preset=fast"
	const second = "#sim=normal,normal,5,0.2,5,20,200,9&k2=250&methods=plugin,cleanex&seed=4&preset=fast"
	p := openPage(t, first)
	p.waitFinished(180 * time.Second)
	state := func() map[string]string {
		return mustEval[map[string]string](p, `(() => ({
			source: (document.querySelector("#summary strong") || {textContent: ""}).textContent,
			headline: document.querySelector("#headline").textContent,
			k2: document.querySelector("#k2").value,
			seed: document.querySelector("#seed").value,
			plugin: String(document.querySelector("#m-plugin").checked),
			kde: String(document.querySelector("#m-kde").checked),
			cleanex: String(document.querySelector("#m-cleanex").checked),
			hash: location.hash}))()`, 5*time.Second)
	}
	if s := state(); !strings.Contains(s["source"], "seed 3") || !strings.HasPrefix(s["headline"], "At 300 classes") {
		t.Fatalf("the first link shows %v", s)
	}
	mustEval[bool](p, fmt.Sprintf(`(location.hash = %s, true)`, jsString(second)), 5*time.Second)
	p.waitJS(`(document.querySelector("#summary strong") || {textContent: ""}).textContent.includes("seed 9")`, 60*time.Second)
	p.waitFinished(180 * time.Second)
	p.shot("linkchange-second-link")
	s := state()
	if !strings.HasPrefix(s["headline"], "At 250 classes") || s["k2"] != "250" || s["seed"] != "4" ||
		s["plugin"] != "true" || s["kde"] != "false" || s["cleanex"] != "true" || s["hash"] != second {
		t.Errorf("after the second link the page shows %v; want its simulation (seed 9), k2 250, seed 4, plug-in and CleaneX, and its address", s)
	}
	// A link that cannot be read is said to be so, and the page keeps what
	// it shows.
	mustEval[bool](p, `(location.hash = "#sim=normal,normal,5&k2=abc", true)`, 5*time.Second)
	if msg := p.errorText("This link could not be read"); !strings.Contains(msg, "Nothing was run") {
		t.Errorf("a broken link pasted in the open page says %q", msg)
	}
	if h := mustEval[string](p, `document.querySelector("#headline").textContent`, 5*time.Second); !strings.HasPrefix(h, "At 250 classes") {
		t.Errorf("after a broken link the headline is %q, want the answer shown before it", h)
	}
	p.shot("linkchange-broken-link")
}
