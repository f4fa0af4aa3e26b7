//go:build browser

package browsertest

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
	"github.com/cleanex/cleanex/web"
)

// checkRun checks a run's columns against ref's exported ones (the same
// pilot loaded as a CSV the usual way) to 1e-9: the observed curve, the
// estimate and every method's curve, and the interval unless the run's pilot
// was read as per-point summaries (summarised: see sameCurvesAs).
func checkRun(t *testing.T, what string, r runResult, ref loaded, summarised bool) {
	t.Helper()
	for name, want := range ref.cols {
		if name == "k" || summarised && isInterval(name) {
			continue
		}
		got := r.Curves[name]
		if len(got) != len(want) {
			t.Errorf("%s: %s has %d values, want %d", what, name, len(got), len(want))
			continue
		}
		for i, v := range got {
			if v == nil && !math.IsNaN(want[i]) || v != nil && !(math.Abs(*v-want[i]) <= 1e-9) {
				t.Errorf("%s: %s at k = %d: %v, the usual load gives %v", what, name, i+2, v, want[i])
				break
			}
		}
	}
}

// A pilot loaded by the prepared path (one worker reads it and sends its
// per-point summaries to the others; forced here by ?prepare=N below the
// file's size) gives the observed curve, every method's curve and the
// estimate of the usual path to 1e-9, also after the direction is changed
// and set back (the kept file prepared again); after a compute worker is replaced,
// the new one has the prepared data set (it gets the summaries, not the
// file) and a run gives the same curves again. CleaneX's paper preset,
// which needs every score, says so.
func TestPreparedMatchesUsualLoad(t *testing.T) {
	csv := simulatedCSVr(t, 40, 4, 11)
	// The same pilot padded with empty lines (which the parser skips) is
	// above the threshold: it is prepared.
	padded := append(bytes.Clone(csv), bytes.Repeat([]byte("\n"), 2000)...)
	p := openPage(t, fmt.Sprintf("example=0&debug=1&workers=2&prepare=%d", len(csv)+1000))
	p.front()
	mustEval[bool](p, dropJS(fileJS("usual.csv", csv)), 10*time.Second)
	ref := p.readLoaded("usual.csv")
	if len(ref.cols["observed"]) == 0 || len(ref.cols["estimate"]) == 0 {
		t.Fatalf("the usual load shows %d observed and %d estimate values", len(ref.cols["observed"]), len(ref.cols["estimate"]))
	}
	k2 := len(ref.cols["k"]) + 1

	type summary struct {
		N        int  `json:"n"`
		K        int  `json:"k"`
		Prepared bool `json:"prepared"`
	}
	s := mustEval[summary](p, "window.cleanex.load("+bytesJS(padded)+")", 60*time.Second)
	if !s.Prepared || s.N != 160 || s.K != 40 {
		t.Fatalf("load of the padded file: %+v, want 160 points, 40 classes, prepared", s)
	}
	checkRun(t, "prepared", p.run(k2, methods.Names, "fast", 1, 120*time.Second), ref, true)
	p.shot("70-prepared")
	// A direction chosen on the page prepares the kept file again.
	p.reloadBothWays(ref, true)

	// Worker 0 dies as a bug would; its replacement gets the summaries.
	mustEval[chromedp.Void](p, `window.cleanex._crashWorker(0)`, 5*time.Second)
	p.waitJS(`(document.querySelector("#error") || {textContent: ""}).textContent.includes("replaced")`, 30*time.Second)
	checkRun(t, "after a worker was replaced", p.run(k2, methods.Names, "fast", 1, 120*time.Second), ref, true)

	expr := fmt.Sprintf(`window.cleanex.run({k2: %d, methods: ["cleanex"], preset: "paper", seed: 1})`, k2)
	r := mustEval[runResult](p, expr, 60*time.Second)
	if msg := r.Errors["cleanex"]; !strings.Contains(msg, "full score matrix") {
		t.Errorf("CleaneX paper on a prepared pilot: %q, want the refusal that names the full score matrix", msg)
	}
}

// A large file of softmax probabilities (here put on the prepared path by
// ?prepare=N below its size) loads: the worker's long note on how the
// scores are read, sent with the per-point summaries, does not stop the
// page from reading them. The page shows the note, and the curves of the
// usual load to 1e-9.
func TestPreparedProbabilities(t *testing.T) {
	csv := softmaxCSV(t, 30, 5)
	padded := append(bytes.Clone(csv), bytes.Repeat([]byte("\n"), 2000)...)
	p := openPage(t, fmt.Sprintf("example=0&prepare=%d", len(csv)+1000))
	p.front()
	mustEval[bool](p, dropJS(fileJS("usual.csv", csv)), 10*time.Second)
	ref := p.readLoaded("usual.csv")
	mustEval[bool](p, dropJS(fileJS("large.csv", padded)), 10*time.Second)
	p.waitJS(`(document.querySelector("#summary") || {textContent: ""}).textContent.includes("large.csv") || !!document.querySelector("#error")`, 120*time.Second)
	if e := mustEval[string](p, `(document.querySelector("#error") || {textContent: ""}).textContent`, 5*time.Second); e != "" {
		p.shot("71-prepared-probabilities")
		t.Fatalf("the prepared file of probabilities is refused: %q", e)
	}
	l := p.readLoaded("large.csv")
	p.shot("71-prepared-probabilities")
	l.sameCurvesAs(t, ref)
	if line := mustEval[string](p, `document.querySelector("#direction-line").textContent`, 5*time.Second); !strings.Contains(line, "class probabilities") || !strings.Contains(line, "logarithms") {
		t.Errorf("direction line %q does not say the probabilities are read as logarithms", line)
	}
}

// An embeddings .npz dropped on the page is prepared and gives the curves
// of the CSV of its explicit score matrix to 1e-9; the summary line says
// how it was scored, and the page offers the metric and the reference
// instead of the direction. Choosing cosine similarity prepares it again
// (the curves of the cosine matrix's CSV); a reference the file cannot
// have (one-shot with three training embeddings per class) is refused
// with the worker's message and the selector shows the reference in use.
func TestEmbeddingsByDrop(t *testing.T) {
	npz, err := os.ReadFile(filepath.Join(repoRoot(t), "internal", "inputs", "testdata", "tiny_embeddings.npz"))
	if err != nil {
		t.Fatal(err)
	}
	matrixCSV := func(metric string) []byte {
		d, err := inputs.Read(bytes.NewReader(npz))
		if err != nil {
			t.Fatal(err)
		}
		if d.Embeddings.Metric, err = embed.ParseMetric(metric); err != nil {
			t.Fatal(err)
		}
		m, err := embed.Matrix(d.Embeddings)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := m.Resolve(scores.Auto), d.Embeddings.Direction(); got != want {
			t.Fatalf("%s: auto reads the matrix as %s, the metric's direction is %s", metric, got, want)
		}
		return csvOf(t, m)
	}
	p := openPage(t, "example=0")
	p.front()
	load := func(name string, file []byte) loaded {
		t.Helper()
		mustEval[bool](p, dropJS(fileJS(name, file)), 10*time.Second)
		return p.readLoaded(name)
	}
	refEuclid := load("euclidean.csv", matrixCSV("euclidean"))
	refCosine := load("cosine.csv", matrixCSV("cosine"))

	got := load("embeddings.npz", npz)
	got.sameCurvesAs(t, refEuclid)
	line := mustEval[string](p, `document.querySelector("#summary-line").textContent`, 5*time.Second)
	if !strings.Contains(line, "test embeddings (d = 3) scored by Euclidean distance to 6 class centroids (of 18 training embeddings)") {
		t.Errorf("summary line %q does not say how the embeddings were scored", line)
	}
	if !mustEval[bool](p, `!document.querySelector("#direction") && document.querySelector("#metric").value === "euclidean" && document.querySelector("#reference").value === "centroid"`, 5*time.Second) {
		t.Error("the page does not offer the metric and the reference (and not the direction) for embeddings")
	}
	p.shot("71-embeddings")

	p.typeInto("metric", "cosine")
	p.waitJS(`document.querySelector("#summary-line").textContent.includes("cosine similarity") &&
		document.querySelector("#status").textContent.startsWith("Finished")`, 60*time.Second)
	cos := p.readLoaded("embeddings.npz")
	cos.sameCurvesAs(t, refCosine)

	before := p.screen()
	p.typeInto("reference", "oneshot")
	msg := p.errorText("one")
	t.Logf("one-shot on training embeddings: %s", msg)
	if !strings.Contains(msg, "embeddings.npz") {
		t.Errorf("the refusal %q does not name the file", msg)
	}
	p.waitJS(`document.querySelector("#reference").value === "centroid" && document.querySelector("#metric").value === "cosine"`, 10*time.Second)
	p.checkKept(before, "one-shot on training embeddings", "72-embeddings-oneshot")
}

// A file whose preparation would need more memory than the tab can give
// (here 512 MB of a CSV of 2,000 classes scored 0: about 130,000 rows)
// is refused
// from its size and its header before it is read, with the sentence that
// points to the command line; what was on screen stays.
func TestPreparedTooLargeRefused(t *testing.T) {
	p, before := withResults(t)
	var b strings.Builder
	b.WriteString("label")
	for j := range 2000 {
		fmt.Fprintf(&b, ",c%04d", j)
	}
	b.WriteString("\n")
	header := b.String()
	b.Reset()
	for b.Len() < 1<<20 {
		b.WriteString("c0000" + strings.Repeat(",0", 2000) + "\n")
	}
	block := b.String()
	const parts = 512
	size := float64(len(header) + parts*len(block))
	head := []byte(header + block)[:scores.SniffBytes]
	device := mustEval[float64](p, `navigator.deviceMemory || 0`, 5*time.Second)
	workers := mustEval[int](p, `Math.min(8, Math.max(1, navigator.hardwareConcurrency))`, 5*time.Second)
	want := web.CheckPrepare("big.csv", size, head, web.PrepareBudget(device), workers+1)
	if want == nil {
		t.Fatalf("web.CheckPrepare accepts %.0f MB with %g GB of device memory", size/1e6, device)
	}
	start := time.Now()
	mustEval[bool](p, dropJS(fmt.Sprintf(`(() => { const rows = new TextEncoder().encode(%s);
		return new File([%s, ...Array(%d).fill(rows)], "big.csv"); })()`, jsString(block), jsString(header), parts)), 60*time.Second)
	msg := p.errorText("big.csv (")
	t.Logf("refused in %.1f s: %s", time.Since(start).Seconds(), msg)
	if msg != want.Error()+"." {
		t.Errorf("the page says %q, want %q", msg, want.Error()+".")
	}
	p.checkKept(before, "a file too large to prepare", "73-prepare-too-large")
}

// TestEmbeddingsExample: the "Embeddings example" button makes the
// simulation form's pilot as embeddings in the page and loads it like a
// dropped file: the same curves, to 1e-9, as the CSV of the example's
// explicit score matrix (made natively by the same function), the headline
// and the chart drawn.
func TestEmbeddingsExample(t *testing.T) {
	name, npz, err := web.EmbeddingsExample(web.NewState().Sim)
	if err != nil {
		t.Fatal(err)
	}
	d, err := inputs.Read(bytes.NewReader(npz))
	if err != nil {
		t.Fatal(err)
	}
	m, err := embed.Matrix(d.Embeddings)
	if err != nil {
		t.Fatal(err)
	}
	csv := csvOf(t, m)
	p := openPage(t, "example=0")
	p.front()
	mustEval[bool](p, dropJS(fileJS("example-matrix.csv", csv)), 10*time.Second)
	ref := p.readLoaded("example-matrix.csv")
	p.click("example-embeddings")
	got := p.readLoaded("embeddings example (simulated")
	got.sameCurvesAs(t, ref)
	line := mustEval[string](p, `document.querySelector("#summary-line").textContent`, 5*time.Second)
	if !strings.Contains(line, "scored by Euclidean distance to 100 class centroids") {
		t.Errorf("summary line %q does not say how the example was scored", line)
	}
	if !strings.Contains(name, "100 classes of 2,000") {
		t.Errorf("example name %q", name)
	}
	if src := mustEval[string](p, `document.querySelector("#summary").textContent`, 5*time.Second); !strings.Contains(src, "(simulated: 100 classes of 2,000, d = 5") {
		t.Errorf("the page names the example %q", src)
	}
	p.shot("74-embeddings-example")
}

// simulatedEmbeddingsNPZ returns the paper's simulation at d = 64 with k
// classes and r test embeddings per class, as an .npz of test and
// training embeddings (one per class around its centre).
func simulatedEmbeddingsNPZ(t *testing.T, k, r int) []byte {
	t.Helper()
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 64, Sigma2: 0.5, K: k, R: r, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	p, err := embed.Simulated(w, embed.Simulation{Classes: w.AllClasses(), RefPoints: 1, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := inputs.WriteEmbeddingsNPZ(&b, p, inputs.SetTrain); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A compute worker that dies while the page prepares embeddings in parts
// (each worker scoring its own test points) fails that load with a message
// saying the worker stopped; what was on screen stays, and the replaced
// workers prepare the same file when it is dropped again.
func TestEmbeddingsPreparationCrash(t *testing.T) {
	npz := simulatedEmbeddingsNPZ(t, 2000, 3)
	p := openPage(t, "example=0&debug=1&workers=2")
	p.front()
	mustEval[bool](p, dropJS(fileJS("first.csv", simulatedCSVr(t, 30, 4, 3))), 10*time.Second)
	p.readLoaded("first.csv")
	before := p.screen()

	mustEval[bool](p, dropJS(fileJS("big.npz", npz)), 10*time.Second)
	p.waitJS(`(document.querySelector("#busy") || {textContent: ""}).textContent.includes("big.npz")`, 30*time.Second)
	mustEval[chromedp.Void](p, `window.cleanex._crashPreparingWorker(1)`, 5*time.Second)
	msg := p.errorText("stopped")
	t.Logf("crash while preparing: %s", msg)
	if !strings.Contains(msg, "big.npz") {
		t.Errorf("the message %q does not name the file", msg)
	}
	p.checkKept(before, "a worker crashed while preparing embeddings", "75-embeddings-prepare-crash")

	mustEval[bool](p, dropJS(fileJS("big.npz", npz)), 10*time.Second)
	got := p.readLoaded("big.npz")
	if len(got.cols["observed"]) == 0 || len(got.cols["estimate"]) == 0 || !got.chart.OK {
		t.Errorf("dropped again after the crash: %d observed and %d estimate values, chart drawn %v",
			len(got.cols["observed"]), len(got.cols["estimate"]), got.chart.OK)
	}
	line := mustEval[string](p, `document.querySelector("#summary-line").textContent`, 5*time.Second)
	if !strings.Contains(line, "6,000 points, 2,000 classes") || !strings.Contains(line, "test embeddings (d = 64)") {
		t.Errorf("summary line after the second drop: %q", line)
	}
}
