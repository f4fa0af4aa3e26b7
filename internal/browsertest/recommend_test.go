//go:build browser

package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/chart"
	"github.com/cleanex/cleanex/internal/compute"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/web"
)

// nativeOutcome fits the recommendation's jobs natively on s (the CleaneX
// fits with the fast preset) and assembles them as the page does.
func nativeOutcome(t *testing.T, s *accuracy.Sample, k2 int, seed uint64) recommend.Outcome {
	t.Helper()
	table, err := recommend.DefaultTable()
	if err != nil {
		t.Fatal(err)
	}
	jobs := recommend.Jobs(seed)
	curves := make([]accuracy.Curve, len(jobs))
	errs := make([]error, len(jobs))
	for i, j := range jobs {
		est, err := methods.New(j.Method, methods.Options{Seed: j.Seed, Preset: "fast"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := est.Fit(context.Background(), s, k2, nil)
		curves[i], errs[i] = res.Curve, err
	}
	f, err := recommend.MeasuredPilot(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return recommend.Assemble(f, jobs, curves, errs, k2, table.Calibration)
}

// compareColumns checks the page's estimate, estimate_lo, estimate_hi and
// cleanex columns (k = 2..k2) against the native outcome, to 1e-9.
func compareColumns(t *testing.T, cols map[string][]float64, out recommend.Outcome, k2 int) {
	t.Helper()
	if out.Err != nil {
		t.Fatalf("natively there is no recommendation: %v", out.Err)
	}
	for name, want := range map[string]accuracy.Curve{"estimate": out.Estimate, "estimate_lo": out.Lo, "estimate_hi": out.Hi, "cleanex": out.CleaneX} {
		got := cols[name]
		if len(got) != k2-1 {
			t.Errorf("%s: %d values, want %d", name, len(got), k2-1)
			continue
		}
		worst, at := 0.0, 0
		for i, v := range got {
			if d := math.Abs(v - want[i+2]); !(d <= worst) {
				worst, at = d, i+2
			}
		}
		t.Logf("%s: max |page - native| = %.2g (k = %d)", name, worst, at)
		if !(worst <= 1e-9) {
			t.Errorf("%s: page and native code differ by %.3g at k = %d", name, worst, at)
		}
	}
}

// exportedColumns clicks "Export curves (CSV)" and returns its columns
// (NaN where a cell is empty).
func (p *page) exportedColumns() map[string][]float64 {
	p.t.Helper()
	mustEval[chromedp.Void](p, `(() => {
		window.__blobs = [];
		if (!window.__origURL) window.__origURL = URL.createObjectURL.bind(URL);
		URL.createObjectURL = b => { window.__blobs.push(b); return window.__origURL(b); };
		document.querySelector("#export-csv").click();
	})()`, 5*time.Second)
	p.waitJS(`window.__blobs.length >= 1`, 10*time.Second)
	// The page says what it saved, under the buttons.
	p.waitJS(`document.querySelector("#action-note").textContent.startsWith("Saved ") && document.querySelector("#action-note").textContent.includes("-curves.csv")`, 5*time.Second)
	text := mustEval[string](p, `window.__blobs[0].text()`, 5*time.Second)
	lines := strings.Split(strings.TrimSpace(text), "\n")
	head := strings.Split(lines[0], ",")
	cols := map[string][]float64{}
	for _, line := range lines[1:] {
		for j, cell := range strings.Split(line, ",") {
			v := math.NaN()
			if cell != "" {
				f, err := strconv.ParseFloat(cell, 64)
				if err != nil {
					p.t.Fatalf("exported CSV: %q: %v", cell, err)
				}
				v = f
			}
			cols[head[j]] = append(cols[head[j]], v)
		}
	}
	return cols
}

// headlineRE is the answer's form: "At 2,000 classes: 0.47 (80% interval
// 0.40–0.55)", with 2 to 4 decimals (web.Decimals, web.ValueDecimals).
var headlineRE = regexp.MustCompile(`^At ([0-9,]+) classes: (0\.\d{2,4}|1\.0{2,4}) \(80% interval (0\.\d{2,4}|1\.0{2,4})–(0\.\d{2,4}|1\.0{2,4})\)`)

// checkAnswer checks what a person sees once a run is done: the one-line
// answer for k2 (announced politely to screen readers), the recommended
// curve and its band on the chart, and the "Why this answer" panel with
// its box plot, whose sources line says each of sources (by default: the
// middle value of several methods, and how many times CleaneX counts); it
// returns the headline.
func (p *page) checkAnswer(k2 string, sources ...string) string {
	p.t.Helper()
	if len(sources) == 0 {
		sources = []string{"The estimate takes the middle of the predictions of", "CleaneX counts "}
	}
	t := p.t
	h := mustEval[string](p, `document.querySelector("#headline").textContent`, 5*time.Second)
	m := headlineRE.FindStringSubmatch(h)
	if m == nil || m[1] != k2 {
		t.Errorf("headline %q is not the answer at %s classes", h, k2)
	} else if !(m[3] <= m[2] && m[2] <= m[4]) {
		t.Errorf("headline %q: the estimate is outside its interval", h)
	}
	// The answer line under the title says the same, announced politely.
	if live := mustEval[string](p, `document.querySelector("#answer").getAttribute("aria-live") || ""`, 5*time.Second); live != "polite" {
		t.Errorf("answer aria-live = %q, want polite", live)
	}
	// When there is a warning under the headline, the answer line says where.
	want := h
	if w := mustEval[string](p, `document.querySelector("#headline-warning").textContent`, 5*time.Second); w != "" {
		want += " Read the warning under 3. Results."
	}
	if a := mustEval[string](p, `document.querySelector("#answer").textContent`, 5*time.Second); a != want {
		t.Errorf("answer line %q, want the headline and the pointer to a warning %q", a, want)
	}
	// Ink: the recommended curve in its colour, the band's blend over white.
	px := p.colourPixels("chart-acc", map[string]string{"estimate": chart.ColorEstimate})
	band := p.nearPixels("chart-acc", chart.Blend(chart.ColorEstimate, chart.BandAlpha), 3)
	t.Logf("recommended curve: %d pixels; 80%% band: %d pixels", px["estimate"], band)
	if px["estimate"] < 50 {
		t.Errorf("the recommended curve has %d pixels of its colour on the chart", px["estimate"])
	}
	if band < 200 {
		t.Errorf("the 80%% band has %d pixels of its colour on the chart", band)
	}
	// The "Why this answer" panel: open, keyboard reachable, with the box
	// plot drawn, the sources, the parts of the interval and the check.
	why := mustEval[map[string]any](p, `(() => {
		const d = document.querySelector("#why"), s = d && d.querySelector("summary");
		const text = id => (document.getElementById(id) || {textContent: ""}).textContent;
		const cv = document.getElementById("chart-why");
		let ink = 0;
		if (cv && cv.width > 0) {
			const px = cv.getContext("2d").getImageData(0, 0, cv.width, cv.height).data;
			for (let i = 0; i < px.length; i += 4) if (px[i + 3] === 255 && (px[i] < 200 || px[i + 1] < 200 || px[i + 2] < 200)) ink++;
		}
		if (s) s.focus();
		return {visible: !!d && d.offsetParent !== null, open: !!d && d.open, focus: document.activeElement === s,
			caption: text("why-caption"), sources: text("why-sources"), parts: text("why-parts"), check: text("why-check"), ink: ink};
	})()`, 5*time.Second)
	if why["visible"] != true || why["open"] != true || why["focus"] != true {
		t.Errorf("the why panel: visible %v, open %v, summary focusable %v", why["visible"], why["open"], why["focus"])
	}
	for key, want := range map[string]string{"caption": "test pilots whose true accuracy is known",
		"parts": "classes are a sample", "check": "80% intervals contained the truth"} {
		if s, _ := why[key].(string); !strings.Contains(s, want) {
			t.Errorf("why panel %s %q lacks %q", key, s, want)
		}
	}
	// The check names the family of the embedded calibration that the
	// interval held least often on, when it is under 72%, and the side of
	// its misses when most lay on one side.
	table, err := recommend.DefaultTable()
	if err != nil {
		t.Fatal(err)
	}
	low := table.Families[0]
	for _, f := range table.Families {
		if f.CoverageAtK < low.CoverageAtK {
			low = f
		}
	}
	if s, _ := why["check"].(string); low.CoverageAtK < 0.72 {
		if want := fmt.Sprintf("held least often (%.0f%% at the largest k)", 100*low.CoverageAtK); !strings.Contains(s, want) {
			t.Errorf("why panel check %q lacks %q (%s)", s, want, low.Family)
		}
		switch {
		case low.Below >= 3*low.Above && !strings.Contains(s, "misses lay below the interval"),
			low.Above >= 3*low.Below && !strings.Contains(s, "misses lay above the interval"):
			t.Errorf("why panel check %q does not say where most of %s's misses (%d below, %d above) lay", s, low.Family, low.Below, low.Above)
		}
	} else if strings.Contains(s, "held least often") {
		t.Errorf("why panel check %q names a family, though every family held at least 72%%", s)
	}
	p.elementImage("#why-check", "14-why-check")
	for _, want := range sources {
		if s, _ := why["sources"].(string); !strings.Contains(s, want) {
			t.Errorf("why panel sources %q lacks %q", s, want)
		}
	}
	if ink, _ := why["ink"].(float64); ink < 500 {
		t.Errorf("the box plot has %v inked pixels", why["ink"])
	}
	// A failed fit never shows a number in the table.
	failed := mustEval[[]string](p, `[...document.querySelectorAll("#results td.failed")].map(td => td.parentElement.textContent)`, 5*time.Second)
	for _, row := range failed {
		if !strings.Contains(row, "failed: ") {
			t.Errorf("failed row %q", row)
		}
	}
	if first := mustEval[string](p, `document.querySelector("#results tbody tr").className`, 5*time.Second); first != "row-estimate" {
		t.Errorf("the table's first row is %q, want the estimate", first)
	}
	return h
}

// nearPixels counts the opaque pixels of canvas #id within tol of the colour hex in each channel.
func (p *page) nearPixels(id, hex string, tol int) int {
	p.t.Helper()
	return mustEval[int](p, fmt.Sprintf(`(() => {
		const hex = %s, tol = %d, cv = document.getElementById(%s);
		const c = [1, 3, 5].map(i => parseInt(hex.slice(i, i + 2), 16));
		const d = cv.getContext("2d").getImageData(0, 0, cv.width, cv.height).data;
		let n = 0;
		for (let i = 0; i < d.length; i += 4) {
			if (d[i + 3] === 255 && Math.abs(d[i] - c[0]) <= tol && Math.abs(d[i + 1] - c[1]) <= tol && Math.abs(d[i + 2] - c[2]) <= tol) n++;
		}
		return n;
	})()`, jsString(hex), tol, jsString(id)), 10*time.Second)
}

// (1) On first open the example's answer, band and evidence appear, and
// its exported estimate equals the native code's on the same simulation.
func TestRecommendationFirstOpen(t *testing.T) {
	p := openPage(t, "")
	p.waitJS(`(document.querySelector("#status")||{}).textContent.startsWith("Finished")`, 200*time.Second)
	p.shot("10-recommendation-first-open")
	h := p.checkAnswer("2,000")
	t.Logf("headline: %s", h)
	if !strings.Contains(h, "The true accuracy of this simulation is") {
		t.Errorf("the example's headline %q does not give the truth", h)
	}
	cfg := protocol.SimConfig{Classes: "normal", Points: "normal", D: 5, Sigma2: 0.1, R: 10, K1: 100, K2: 2000, Seed: 1}
	ds, _, err := compute.Simulate(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	compareColumns(t, p.exportedColumns(), nativeOutcome(t, ds.Sample, 2000, 1), 2000)
}

// (2) A dropped CSV is analysed at once: the answer at 10 × its classes,
// the band and the evidence, equal to the native code's.
func TestRecommendationDroppedCSV(t *testing.T) {
	p := openPage(t, "example=0")
	csv := simulatedCSV(t, 40, 21)
	p.dropCSV("dropped.csv", csv)
	p.waitJS(`(document.querySelector("#summary")||{textContent:""}).textContent.includes("dropped.csv")`, 30*time.Second)
	if h := mustEval[string](p, `document.querySelector("#headline").textContent`, 5*time.Second); !strings.HasPrefix(h, "Working out the accuracy at 400 classes: running") {
		t.Logf("headline while running: %q (the run may have ended already)", h)
	}
	p.waitJS(`document.querySelector("#status").textContent.startsWith("Finished")`, 150*time.Second)
	p.shot("11-recommendation-dropped-csv")
	t.Logf("headline: %s", p.checkAnswer("400"))
	ds, _, err := compute.Load(csv, "auto")
	if err != nil {
		t.Fatal(err)
	}
	compareColumns(t, p.exportedColumns(), nativeOutcome(t, ds.Sample, 400, 1), 400)
}

// blankPilot is a matrix of k1 classes named c000, c001, ... and r points
// per class, its labels and scores left for the caller to fill.
func blankPilot(k1, r int) *scores.Matrix {
	m := &scores.Matrix{Classes: make([]string, k1), Labels: make([]int, k1*r), Scores: make([]float64, k1*r*k1)}
	for j := range m.Classes {
		m.Classes[j] = fmt.Sprintf("c%03d", j)
	}
	return m
}

// fewErrorsCSV is a pilot of k1 classes and r points per class that
// misclassifies only the first `errs` points: each point's true class scores
// 10 plus a little noise, its wrong classes uniform on [0, 9], but for those
// points one wrong class scores 11.
func fewErrorsCSV(t testing.TB, k1, r, errs int, seed uint64) []byte {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	m := blankPilot(k1, r)
	for i := range m.Labels {
		y := i % k1
		m.Labels[i] = y
		row := m.Row(i)
		for j := range row {
			row[j] = 9 * rng.Float64()
		}
		row[y] = 10 + 0.1*rng.Float64()
		if i < errs {
			row[(y+1)%k1] = 11
		}
	}
	return csvOf(t, m)
}

// A dropped pilot with 3 errors at its 40 classes: the page warns that the
// errors are too few, its "why" panel says the interval is widened towards
// every method's prediction by the calibration's share, the band is drawn,
// and its numbers equal the native code's.
func TestRecommendationFewErrors(t *testing.T) {
	table, err := recommend.DefaultTable()
	if err != nil {
		t.Fatal(err)
	}
	p := openPage(t, "example=0")
	csv := fewErrorsCSV(t, 40, 5, 3, 5)
	p.dropCSV("few-errors.csv", csv)
	p.waitJS(`(document.querySelector("#summary")||{textContent:""}).textContent.includes("few-errors.csv")`, 30*time.Second)
	p.waitJS(`document.querySelector("#status").textContent.startsWith("Finished")`, 150*time.Second)
	p.shot("12-recommendation-few-errors")
	t.Logf("headline: %s", p.checkAnswer("400"))
	warn := mustEval[string](p, `document.querySelector("#headline-warning").textContent + " " + document.querySelector("#answer-warning").textContent`, 5*time.Second)
	if !strings.Contains(warn, "misclassifies about 3 of its 200 test points at 40 classes, too few errors") {
		t.Errorf("warnings %q do not say the pilot has too few errors", warn)
	}
	share := fmt.Sprintf("widened towards all of them: %.0f%% of the way", 100*table.Calibration.SpanShare)
	if intro := mustEval[string](p, `(document.querySelector("#why-parts-intro")||{textContent:""}).textContent`, 5*time.Second); !strings.Contains(intro, share) {
		t.Errorf("the why panel's introduction %q does not say %q", intro, share)
	}
	ds, _, err := compute.Load(csv, "auto")
	if err != nil {
		t.Fatal(err)
	}
	compareColumns(t, p.exportedColumns(), nativeOutcome(t, ds.Sample, 400, 1), 400)
}

// dropCSV drops csv on the page's drop zone as a file called name.
func (p *page) dropCSV(name string, csv []byte) {
	p.t.Helper()
	mustEval[chromedp.Void](p, fmt.Sprintf(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([%s], %s, {type: "text/csv"}));
		document.querySelector("#dropzone").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
	})()`, jsString(string(csv)), jsString(name)), 10*time.Second)
}

// mixedTailsCSV is a pilot of k1 classes and r points per class whose
// points do not share one tail shape: the wrong-class scores of every other
// point are uniform on [10, 11], of the rest 10 plus an exponential, and
// each point's true class beats a wrong one with probability 1 - p, p
// uniform on [0, 0.005] (about 0.75 accuracy at 120 classes; its tail
// spread is about 2.3).
func mixedTailsCSV(t testing.TB, k1, r int, seed uint64) []byte {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	m := blankPilot(k1, r)
	for i := range m.Labels {
		y := i / r
		m.Labels[i] = y
		row := m.Row(i)
		p := 0.005 * rng.Float64()
		for j := range row {
			switch {
			case i%2 == 0 && j == y:
				row[j] = 11 - p
			case i%2 == 0:
				row[j] = 10 + rng.Float64()
			case j == y:
				row[j] = 10 - math.Log(p)
			default:
				row[j] = 10 + rng.ExpFloat64()
			}
		}
	}
	return csvOf(t, m)
}

// A dropped pilot of 120 classes whose points do not share one tail shape:
// the "Why this answer" panel says that the pooled and the tail method give
// way and by how much, and that the interval is wider for it, and the
// answer equals the native code's, which measured the same tail spread.
func TestShapeMembersGiveWay(t *testing.T) {
	p := openPage(t, "example=0")
	csv := mixedTailsCSV(t, 120, 3, 1)
	p.dropCSV("mixed-tails.csv", csv)
	p.waitJS(`(document.querySelector("#summary")||{textContent:""}).textContent.includes("mixed-tails.csv")`, 30*time.Second)
	p.waitJS(`document.querySelector("#status").textContent.startsWith("Finished")`, 150*time.Second)
	ds, _, err := compute.Load(csv, "auto")
	if err != nil {
		t.Fatal(err)
	}
	out := nativeOutcome(t, ds.Sample, 1200, 1)
	if !(out.TailSpread > recommend.SharedTail) || out.ShapeWeight != recommend.ShapeWeight(120, out.TailSpread) || out.MiddleRest == nil {
		t.Fatalf("native: tail spread %v, shape weight %v: the pilot should make the pooled and the tail method give way", out.TailSpread, out.ShapeWeight)
	}
	t.Logf("headline: %s", p.checkAnswer("1,200",
		fmt.Sprintf("which your pilot's do not (its tail spread is %.2f:", out.TailSpread),
		fmt.Sprintf("with 120 classes they count %.0f%% less.", 100*out.ShapeWeight),
		fmt.Sprintf("without the pooled and the tail method it is %.3f", out.MiddleRest[1200])))
	p.elementImage("#why-sources", "79-why-shape-members")
	// the parts of the interval say that its points' tails differ
	parts := mustEval[string](p, `document.getElementById("why-parts").textContent`, 5*time.Second)
	if want := fmt.Sprintf("your pilot's points do not share one shape of their highest wrong-class scores (tail spread %.2f)", out.TailSpread); !strings.Contains(parts, want) {
		t.Errorf("why panel parts %q lack %q", parts, want)
	}
	p.elementImage("#why-parts", "79b-why-parts-unshared-tails")
	compareColumns(t, p.exportedColumns(), out, 1200)
}

// (3) A simulation run through window.cleanex: run() returns the estimate
// columns and the recommendation, equal to the native code's; the page
// shows the answer, the band and the evidence.
func TestRecommendationSimulation(t *testing.T) {
	p := openPage(t, "example=0")
	cfg := protocol.SimConfig{Classes: "normal", Points: "normal", D: 5, Sigma2: 0.1, R: 5, K1: 50, K2: 600, Seed: 3}
	mustEval[map[string]any](p, fmt.Sprintf(`window.cleanex.simulate({classes: "normal", points: "normal", d: 5, sigma2: 0.1, r: 5, k1: %d, k2: %d, seed: %d})`, cfg.K1, cfg.K2, cfg.Seed), 60*time.Second)
	const seed = 2
	raw := mustEval[json.RawMessage](p, fmt.Sprintf(`window.cleanex.run({k2: %d, methods: ["plugin", "kde", "regression", "cleanex"], seed: %d})`, cfg.K2, seed), 200*time.Second)
	var r struct {
		Curves         map[string][]*float64 `json:"curves"`
		Recommendation struct {
			Sources      []string          `json:"sources"`
			CleaneXCount float64           `json:"cleanexCount"`
			ShapeWeight  float64           `json:"shapeWeight"`
			TailSpread   float64           `json:"tailSpread"`
			Failed       map[string]string `json:"failed"`
			Error        *string           `json:"error"`
		} `json:"recommendation"`
		Errors map[string]string `json:"errors"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	p.shot("12-recommendation-simulation")
	t.Logf("headline: %s", p.checkAnswer("600"))
	t.Logf("recommendation: sources %v, failed %v, error %v; errors %v", r.Recommendation.Sources, r.Recommendation.Failed, r.Recommendation.Error, r.Errors)
	if r.Recommendation.Error != nil || len(r.Recommendation.Sources) == 0 {
		t.Errorf("run() gives recommendation.error %v, sources %v", r.Recommendation.Error, r.Recommendation.Sources)
	}
	cols := recommendationColumns(r.Curves)
	ds, _, err := compute.Simulate(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	out := nativeOutcome(t, ds.Sample, cfg.K2, seed)
	compareColumns(t, cols, out, cfg.K2)
	if fmt.Sprint(out.Sources) != fmt.Sprint(r.Recommendation.Sources) || len(out.Failed) != len(r.Recommendation.Failed) ||
		out.CleaneXCount != r.Recommendation.CleaneXCount || out.CleaneXCount != recommend.CleaneXCount(cfg.K1) {
		t.Errorf("page: sources %v, CleaneX counted %v times, failed %v; native: %v, %v, %v", r.Recommendation.Sources, r.Recommendation.CleaneXCount,
			r.Recommendation.Failed, out.Sources, out.CleaneXCount, out.Failed)
	}
	// the tail spread the worker measured beside the tail fit is the native one
	if out.TailSpread != r.Recommendation.TailSpread || !(out.TailSpread > 0) || out.ShapeWeight != r.Recommendation.ShapeWeight {
		t.Errorf("page: tail spread %v, shape weight %v; native: %v, %v", r.Recommendation.TailSpread, r.Recommendation.ShapeWeight, out.TailSpread, out.ShapeWeight)
	}
}

// distancesMapped is simulatedCSV's pilot of 20 classes (seed 5) with every
// distance d written as f(d).
func distancesMapped(t *testing.T, f func(d float64) float64) []byte {
	t.Helper()
	m, err := scores.Parse(bytes.NewReader(simulatedCSV(t, 20, 5)))
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range m.Scores {
		m.Scores[i] = f(d)
	}
	return csvOf(t, m)
}

// Probabilities of one-vs-rest classifiers (rows not summing to 1) loaded
// through the API are read as their log-odds: load says so, the page says
// so next to the direction, and the pilot's summary and the answer of a run
// are the native ones.
func TestOneVsRestProbabilitiesLoad(t *testing.T) {
	p := openPage(t, "example=0")
	// sigma of minus three times the distance, plus 2
	csv := distancesMapped(t, func(d float64) float64 { return 1 / (1 + math.Exp(3*d-2)) })
	got := mustEval[map[string]any](p, fmt.Sprintf(`window.cleanex.load(%s)`, jsString(string(csv))), 30*time.Second)
	ds, sum, err := compute.Load(csv, "auto")
	if err != nil {
		t.Fatal(err)
	}
	if !sum.LogOdds || got["logOdds"] != true || got["logProbabilities"] != false || got["scoresNote"] != scores.LogOddsNote || got["top1"] != sum.Top1 {
		t.Errorf("load returned %v; natively log-odds %v, top-1 %v", got, sum.LogOdds, sum.Top1)
	}
	line := mustEval[string](p, `document.querySelector("#direction-line").textContent`, 5*time.Second)
	if !strings.Contains(line, "higher is better") || !strings.Contains(line, "log-odds, ln(p / (1 - p))") {
		t.Errorf("direction line %q does not say the scores are read as log-odds", line)
	}
	// The page's answer is the native code's on the same file.
	mustEval[map[string]any](p, `window.cleanex.run({k2: 200}).then(r => ({}))`, 150*time.Second)
	p.shot("13-one-vs-rest-probabilities")
	compareColumns(t, p.exportedColumns(), nativeOutcome(t, ds.Sample, 200, 1), 200)
}

// Probabilities of one-vs-rest classifiers that give no point more than
// 1/2, their rows spanning many orders of magnitude, loaded through the API
// are read as their logarithms: load says so, the page says so next to the
// direction and puts no warning about probabilities read as they are under
// the headline, and the answer of a run is the native one.
func TestLowOneVsRestProbabilitiesLoad(t *testing.T) {
	p := openPage(t, "example=0")
	// sigma of minus four times the distance, minus 1: none above 1/2
	csv := distancesMapped(t, func(d float64) float64 { return 1 / (1 + math.Exp(4*d+1)) })
	got := mustEval[map[string]any](p, fmt.Sprintf(`window.cleanex.load(%s)`, jsString(string(csv))), 30*time.Second)
	if got["logProbabilities"] != true || got["logOdds"] != false || got["scoresNote"] != scores.LnNote {
		t.Fatalf("load returned %v; want logProbabilities with the logarithms' note", got)
	}
	line := mustEval[string](p, `document.querySelector("#direction-line").textContent`, 5*time.Second)
	if !strings.Contains(line, "higher is better") || !strings.Contains(line, "reads their logarithms, ln s") {
		t.Errorf("direction line %q does not say the scores are read as their logarithms", line)
	}
	mustEval[map[string]any](p, `window.cleanex.run({k2: 200}).then(r => ({}))`, 150*time.Second)
	if text := mustEval[string](p, `document.body.innerText`, 5*time.Second); strings.Contains(text, web.PartialWarning) {
		t.Error("the page warns that the probabilities were read as they are")
	}
	p.shot("13b-low-one-vs-rest-probabilities")
	ds, _, err := compute.Load(csv, "auto")
	if err != nil {
		t.Fatal(err)
	}
	compareColumns(t, p.exportedColumns(), nativeOutcome(t, ds.Sample, 200, 1), 200)
}

// csvOf returns m written as CSV (scores.WriteCSV).
func csvOf(t testing.TB, m *scores.Matrix) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := scores.WriteCSV(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// softmaxCSV returns a CSV of the softmax probabilities of the simulated
// pilot of k1 classes simulatedCSV draws with seed, its logits minus three
// times the distances.
func softmaxCSV(t *testing.T, k1 int, seed uint64) []byte {
	t.Helper()
	m, err := scores.Parse(bytes.NewReader(simulatedCSV(t, k1, seed)))
	if err != nil {
		t.Fatal(err)
	}
	return csvOf(t, scores.Softmax(m, -3))
}

// (4) A dropped CSV of softmax probabilities: the page says they are read
// as their logarithms, next to the direction, and its answer is the native
// code's on the same file.
func TestRecommendationProbabilities(t *testing.T) {
	p := openPage(t, "example=0")
	csv := softmaxCSV(t, 20, 5)
	p.dropCSV("probabilities.csv", csv)
	p.waitJS(`document.querySelector("#status").textContent.startsWith("Finished")`, 150*time.Second)
	line := mustEval[string](p, `document.querySelector("#direction-line").textContent`, 5*time.Second)
	if !strings.Contains(line, "higher is better") || !strings.Contains(line, "class probabilities (every row sums to 1, up to rounding)") || !strings.Contains(line, "logarithms") {
		t.Errorf("direction line %q does not say the probabilities are read as logarithms", line)
	}
	p.shot("13-recommendation-probabilities")
	t.Logf("headline: %s", p.checkAnswer("200"))
	ds, sum, err := compute.Load(csv, "auto")
	if err != nil {
		t.Fatal(err)
	}
	if !sum.LogProbabilities {
		t.Fatal("natively the probabilities are not recognised")
	}
	compareColumns(t, p.exportedColumns(), nativeOutcome(t, ds.Sample, 200, 1), 200)
	// A pilot of 20 classes is smaller than the calibration's: the warning
	// under the headline says so, and the answer bar points to it.
	if w := mustEval[string](p, `document.querySelector("#headline-warning").textContent`, 5*time.Second); !strings.HasPrefix(w, "Your pilot has only 20 classes") {
		t.Errorf("headline warning %q, want the one about a pilot of 20 classes", w)
	}
	if w := mustEval[string](p, `document.querySelector("#answer-warning").textContent`, 5*time.Second); w != " Read the warning under 3. Results." {
		t.Errorf("with a warning the answer bar says %q", w)
	}
	// 50 times the pilot's classes: the warning under the headline, and the
	// answer bar at the top points to it.
	mustEval[map[string]any](p, `window.cleanex.run({k2: 1000, methods: ["plugin", "kde", "regression", "cleanex"]}).then(r => ({}))`, 150*time.Second)
	if w := mustEval[string](p, `document.querySelector("#headline-warning").textContent`, 5*time.Second); !strings.Contains(w, "You extrapolate 50×") {
		t.Errorf("headline warning %q", w)
	}
	if a := mustEval[string](p, `document.querySelector("#answer").textContent`, 5*time.Second); !strings.HasSuffix(a, "Read the warning under 3. Results.") {
		t.Errorf("the answer bar %q does not point to the warning", a)
	}
}

// The "Why this answer" panel's class-sampling part says the error grows
// beyond the pilot only when the half-sampling spread it gives at k2 is
// larger than the standard error it gives at k1: on the 100-class example
// and on a 6-class file, whose halves hold 3 classes each.
func TestWhyClassSamplingGrowsOnlyWhenLarger(t *testing.T) {
	p := openPage(t, "")
	p.waitFinished(180 * time.Second)
	check := func(what string) {
		t.Helper()
		part := mustEval[string](p, `[...document.querySelectorAll("#why-parts li")].map(l => l.textContent).find(s => s.startsWith("Your pilot's")) || ""`, 5*time.Second)
		var se, spread float64
		i, j := strings.Index(part, "differ by about ±"), strings.Index(part, "spread by about ±")
		if i < 0 || j < 0 {
			t.Fatalf("%s: the class-sampling part gives no standard error or no spread: %q", what, part)
		}
		fmt.Sscanf(part[i+len("differ by about ±"):], "%g", &se)
		fmt.Sscanf(part[j+len("spread by about ±"):], "%g", &spread)
		grows := strings.Contains(part, "grows")
		t.Logf("%s: standard error ±%v, spread ±%v: %q", what, se, spread, part)
		if grows != (spread > se) {
			t.Errorf("%s: a standard error of ±%v then a spread of ±%v, and the part says \"grows\" %v: %q", what, se, spread, grows, part)
		}
	}
	check("the example")
	p.pickFiles(filepath.Join(repoRoot(t), "internal", "inputs", "testdata", "tiny.csv"))
	p.waitJS(`(document.querySelector("#summary")||{textContent:""}).textContent.includes("tiny.csv")`, 60*time.Second)
	p.waitFinished(180 * time.Second)
	check("tiny.csv")
	p.shot("78-why-class-sampling-tiny")
}

// At a k2 within the pilot, where CleaneX's fits agree to about 0.0001,
// the why panel gives their spread as less than 0.001, never as a
// standard deviation of "0.000".
func TestWhyCleaneXSpreadWithinPilot(t *testing.T) {
	p := openPage(t, "")
	p.waitFinished(180 * time.Second)
	p.typeInto("k2", "50")
	p.click("run")
	p.waitJS(`document.querySelector("#headline").textContent.startsWith("At 50 classes")`, 180*time.Second)
	p.waitFinished(180 * time.Second)
	part := mustEval[string](p, `[...document.querySelectorAll("#why-parts li")].map(l => l.textContent).find(s => s.startsWith("CleaneX's")) || ""`, 5*time.Second)
	t.Logf("CleaneX's part at k2 = 50: %q", part)
	if part == "" || strings.Contains(part, "standard deviation 0.000)") {
		t.Errorf("at k2 = 50 the why panel says %q", part)
	}
}
