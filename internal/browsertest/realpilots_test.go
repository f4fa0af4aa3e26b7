//go:build browser

package browsertest

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// realPilotRecord is what the page showed for one dropped pilot file.
type realPilotRecord struct {
	File      string             `json:"file"`
	K2        int                `json:"k2"`
	Screen    map[string]string  `json:"screen"`
	Estimate  float64            `json:"estimate"`
	Lo        float64            `json:"lo"`
	Hi        float64            `json:"hi"`
	Methods   map[string]float64 `json:"methods"`
	SecondsAt float64            `json:"seconds"`
}

// TestRealPilots drops each pilot file named by CLEANEX_REAL_FILES (comma
// separated, under the folder CLEANEX_REAL_PILOTS) on the page, predicts for
// CLEANEX_REAL_K2 classes and writes what the page showed (the summary and
// direction lines, the headline and its warning, the "Why this answer"
// panel, the exported curves at k2) as JSON lines to CLEANEX_REAL_OUT, for
// internal/bank/realdata/gen/realclassifier/compare.py to set beside the
// command line's answer (docs/real-classifier-check.md). It is skipped
// unless those variables are set.
func TestRealPilots(t *testing.T) {
	dir, files, out := os.Getenv("CLEANEX_REAL_PILOTS"), os.Getenv("CLEANEX_REAL_FILES"), os.Getenv("CLEANEX_REAL_OUT")
	k2, err := strconv.Atoi(os.Getenv("CLEANEX_REAL_K2"))
	if dir == "" || files == "" || out == "" || err != nil {
		t.Skip("set CLEANEX_REAL_PILOTS, CLEANEX_REAL_FILES, CLEANEX_REAL_K2 and CLEANEX_REAL_OUT")
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, name := range strings.Split(files, ",") {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			p := openPage(t, "example=0")
			start := time.Now()
			mustEval[bool](p, dropJS(fileJS(name, b)), 30*time.Second)
			p.waitJS(fmt.Sprintf(`(document.querySelector("#summary") || {textContent: ""}).textContent.includes(%s) &&
				document.querySelector("#status").textContent.startsWith("Finished")`, jsString(name)), 300*time.Second)
			p.typeInto("k2", strconv.Itoa(k2))
			p.click("run")
			p.waitJS(fmt.Sprintf(`document.querySelector("#headline").textContent.startsWith("At %s classes") &&
				document.querySelector("#status").textContent.startsWith("Finished")`, thousandsJS(k2)), 300*time.Second)
			rec := realPilotRecord{File: name, K2: k2, SecondsAt: time.Since(start).Seconds(), Methods: map[string]float64{}}
			rec.Screen = mustEval[map[string]string](p, `(() => {
				const text = id => (document.getElementById(id) || {textContent: ""}).textContent;
				const d = document.querySelector("#why"); if (d) d.open = true;
				return {summary: text("summary"), direction: text("direction-line"), headline: text("headline"),
					warning: text("headline-warning"), answer: text("answer"), caption: text("why-caption"),
					sources: text("why-sources"), failed: text("why-failed"), partsIntro: text("why-parts-intro"),
					parts: [...document.querySelectorAll("#why-parts li")].map(l => l.textContent).join("\n"),
					check: text("why-check"), status: text("status")};
			})()`, 10*time.Second)
			cols := p.exportedColumns()
			at := func(c string) float64 {
				v := cols[c]
				if len(v) != k2-1 {
					return math.NaN()
				}
				return v[k2-2]
			}
			rec.Estimate, rec.Lo, rec.Hi = at("estimate"), at("estimate_lo"), at("estimate_hi")
			for c := range cols {
				if c != "k" && c != "observed" && !strings.HasPrefix(c, "estimate") {
					rec.Methods[c] = at(c)
				}
			}
			p.shot("real-" + sanitize(name))
			if err := enc.Encode(rec); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// thousandsJS writes n with commas between groups of three digits, as the
// headline does.
func thousandsJS(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
