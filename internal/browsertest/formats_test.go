//go:build browser

package browsertest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/cleanex/cleanex/internal/compute"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/inputs/parquetfile"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/parquetjob"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/web"
	"github.com/parquet-go/parquet-go"
)

// formatCase is one pilot file format: the example files of the same
// pilot, in the order they are given (two for a pair of .npy files).
type formatCase struct {
	name  string
	files []string // paths from the repository's root
}

// formatCases are the example files of internal/inputs/testdata and
// internal/summary/testdata: the tiny pilot in every format the page reads
// besides a plain CSV.
func formatCases() []formatCase {
	td := filepath.Join("internal", "inputs", "testdata")
	return []formatCase{
		{"csv.gz", []string{filepath.Join(td, "tiny.csv.gz")}},
		{"tsv.gz", []string{filepath.Join(td, "tiny.tsv.gz")}},
		{"npz", []string{filepath.Join(td, "tiny.npz")}},
		{"npy pair", []string{filepath.Join(td, "tiny_labels.npy"), filepath.Join(td, "tiny_scores.npy")}},
		{"long parquet", []string{filepath.Join(td, "tiny_long.parquet")}},
		{"wide parquet", []string{filepath.Join(td, "tiny_wide.parquet")}},
		{"summary", []string{filepath.Join("internal", "summary", "testdata", "tiny_summary.csv")}},
	}
}

// loaded is what the page shows once a file given to it is analysed: the
// exported curves (the observed curve, the recommendation and every
// method's), the headline and the accuracy chart.
type loaded struct {
	cols     map[string][]float64
	headline string
	chart    chartInfo
	// whyIntro is the first paragraph of the "why" panel's parts of the
	// interval.
	whyIntro string
}

// readLoaded waits for the data set named source to be summarised and its
// run to finish, then reads what the page shows.
func (p *page) readLoaded(source string) loaded {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`(document.querySelector("#summary") || {textContent: ""}).textContent.includes(%s) &&
		document.querySelector("#status").textContent.startsWith("Finished")`, jsString(source)), 120*time.Second)
	var l loaded
	deadline := time.Now().Add(5 * time.Second)
	for {
		l.chart = mustEval[chartInfo](p, chartJS("chart-acc"), 10*time.Second)
		if l.chart.OK || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	l.headline = mustEval[string](p, `document.querySelector("#headline").textContent`, 5*time.Second)
	l.whyIntro = mustEval[string](p, `(document.querySelector("#why-parts-intro") || {textContent: ""}).textContent`, 5*time.Second)
	l.cols = p.exportedColumns()
	return l
}

// withoutSpread is what the "why" panel says when the interval comes from
// the calibration without the half-sampling spread (a pilot read as
// per-point summaries).
const withoutSpread = "could not be measured"

// isInterval reports whether an exported column is a bound of the
// estimate's interval.
func isInterval(name string) bool { return name == "estimate_lo" || name == "estimate_hi" }

// sameAs checks l against the reference ref (the same pilot as a CSV):
// every exported column to 1e-9, the headline's answer, and a drawn chart.
func (l loaded) sameAs(t *testing.T, ref loaded) {
	t.Helper()
	l.compare(t, ref, false)
}

// sameCurvesAs is sameAs for a pilot read as per-point summaries (a summary
// file, embeddings, a prepared file): the estimate and every method's curve
// are the CSV's to 1e-9, but the interval comes from the calibration without
// the half-sampling spread, which needs the pilot's classes, so its bounds
// and the headline's interval are not compared, and the "why" panel must
// say so.
func (l loaded) sameCurvesAs(t *testing.T, ref loaded) {
	t.Helper()
	l.compare(t, ref, true)
	if !strings.Contains(l.whyIntro, withoutSpread) || strings.Contains(ref.whyIntro, withoutSpread) {
		t.Errorf("the why panel on the summaries says %q, on the CSV %q: want only the first to say %q", l.whyIntro, ref.whyIntro, withoutSpread)
	}
}

// compare is sameAs, leaving out the interval when summarised.
func (l loaded) compare(t *testing.T, ref loaded, summarised bool) {
	t.Helper()
	names := slices.Sorted(maps.Keys(ref.cols))
	if got := slices.Sorted(maps.Keys(l.cols)); !slices.Equal(got, names) {
		t.Errorf("exported columns %v, want those of the CSV: %v", got, names)
	}
	for _, name := range names {
		if summarised && isInterval(name) {
			continue
		}
		want, got := ref.cols[name], l.cols[name]
		if len(got) != len(want) {
			t.Errorf("%s: %d values, want %d", name, len(got), len(want))
			continue
		}
		for i := range want {
			if d := math.Abs(got[i] - want[i]); d > 1e-9 || math.IsNaN(got[i]) != math.IsNaN(want[i]) {
				t.Errorf("%s at k = %d: %v, the CSV gives %v", name, i+2, got[i], want[i])
				break
			}
		}
	}
	answer := func(h string) string {
		if summarised {
			h, _, _ = strings.Cut(h, " (80% interval")
		}
		return h
	}
	if !headlineRE.MatchString(l.headline) || answer(l.headline) != answer(ref.headline) {
		t.Errorf("headline %q, the CSV's is %q", l.headline, ref.headline)
	}
	if !l.chart.OK {
		t.Errorf("the accuracy chart is not drawn: %s", l.chart.Why)
	}
}

// reloadBothWays sets the direction to "higher" (the tiny pilot's scores
// are distances) and back to "auto": each time the page reads the kept
// bytes of the current file again; the second time it shows ref again (its
// curves only when summarised: see sameCurvesAs).
func (p *page) reloadBothWays(ref loaded, summarised bool) {
	p.t.Helper()
	setDirection := func(dir, line string) {
		p.typeInto("direction", dir)
		p.waitJS(fmt.Sprintf(`document.querySelector("#direction-line").textContent.startsWith(%s) &&
			document.querySelector("#status").textContent.startsWith("Finished")`, jsString(line)), 60*time.Second)
	}
	setDirection("higher", "Scores: higher is better (similarities, logits or probabilities), as you set it (auto would pick lower).")
	setDirection("auto", "Scores: lower is better (distances), detected automatically.")
	l := p.readLoaded("")
	if summarised {
		l.sameCurvesAs(p.t.(*testing.T), ref)
		return
	}
	l.sameAs(p.t.(*testing.T), ref)
}

// summaryRefusesLower sets the direction to "lower" on a summary, which is
// higher-is-better only: the worker's message is shown, the selector shows
// "auto" again and what was on screen stays.
func (p *page) summaryRefusesLower() {
	p.t.Helper()
	before := p.screen()
	p.typeInto("direction", "lower")
	p.t.Logf("direction lower on a summary: %s", p.errorText("higher-is-better"))
	if _, err := eval[bool](p, `new Promise(ok => { const f = () => document.querySelector("#direction").value === "auto" ? ok(true) : setTimeout(f, 50); f(); })`, 5*time.Second); err != nil {
		p.t.Errorf("the direction selector shows %q after the refusal, want auto", mustEval[string](p, `document.querySelector("#direction").value`, 5*time.Second))
	}
	p.checkKept(before, "direction lower on a summary", "62-summary-lower")
}

// pickFiles gives the files at paths to the file picker at once.
func (p *page) pickFiles(paths ...string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("file"), paths)); err != nil {
		p.t.Fatal(err)
	}
}

// sourceName is how the page names the files given together.
func sourceName(names []string) string { return strings.Join(names, " + ") }

// Every pilot format the page reads, dropped and picked (a pair of .npy
// files at once), shows the curves of the same pilot given as a CSV: the
// observed curve, the recommendation and every method's curve to 1e-9, the
// same answer, the chart drawn. A malformed file of each format then shows
// the worker's one-line message (the native code's, naming where it is
// wrong) and what was on screen stays. The Parquet reader (assets/parquet.js
// and parquet.wasm) is not requested from the server until the first
// Parquet file is dropped (not by the page, its workers, nor the service
// worker), and is then, and kept for offline use.
func TestFormatsMatchCSV(t *testing.T) {
	root := repoRoot(t)
	read := func(rel string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	csv := read(filepath.Join("internal", "inputs", "testdata", "tiny.csv"))
	cases := formatCases()

	srv, served := newLoggedServer(t)
	p := openPageAt(t, srv.URL, "example=0")
	p.front()
	start := time.Now()
	mustEval[bool](p, dropFilesJS(fileJS("tiny.csv", csv)), 10*time.Second)
	ref := p.readLoaded("tiny.csv")
	t.Logf("the CSV: %s (%.1f s)", ref.headline, time.Since(start).Seconds())
	if !headlineRE.MatchString(ref.headline) || !ref.chart.OK || len(ref.cols["observed"]) == 0 {
		t.Fatalf("the CSV itself: headline %q, chart %s, %d observed values", ref.headline, ref.chart.Why, len(ref.cols["observed"]))
	}

	pickDir := t.TempDir()
	// The service worker has stored the app's files once it controls the page.
	p.waitJS(`navigator.serviceWorker && navigator.serviceWorker.controller !== null`, 30*time.Second)
	parquetSeen := false
	for _, c := range cases {
		for _, how := range []string{"dropped", "picked"} {
			if !parquetSeen && strings.Contains(c.name, "parquet") {
				served.checkParquetReader(t, false, "before any Parquet file")
			}
			t.Run(c.name+" "+how, func(t *testing.T) {
				p.t = t
				defer func() { p.t = t }()
				start := time.Now()
				var names, files, paths []string
				for _, f := range c.files {
					name := how + "-" + filepath.Base(f)
					names = append(names, name)
					files = append(files, fileJS(name, read(f)))
					path := filepath.Join(pickDir, name)
					if err := os.WriteFile(path, read(f), 0o644); err != nil {
						t.Fatal(err)
					}
					paths = append(paths, path)
				}
				if how == "dropped" {
					mustEval[bool](p, dropFilesJS(files...), 10*time.Second)
				} else {
					p.pickFiles(paths...)
				}
				got := p.readLoaded(sourceName(names))
				t.Logf("%s %s: %.1f s", c.name, how, time.Since(start).Seconds())
				if c.name == "summary" {
					got.sameCurvesAs(t, ref)
				} else {
					got.sameAs(t, ref)
				}
				if c.name == "npz" && how == "dropped" {
					p.shot("60-formats-npz")
				}
				if c.name == "npy pair" && how == "picked" {
					p.reloadBothWays(ref, false)
				}
				if c.name == "long parquet" && how == "picked" {
					// Reload reads the CSV the Parquet file was converted to:
					// the Parquet reader is not started again.
					starts := `performance.getEntriesByType("resource").filter(e => e.name.endsWith("/assets/parquet.js")).length`
					n := mustEval[int](p, starts, 5*time.Second)
					p.reloadBothWays(ref, false)
					if m := mustEval[int](p, starts, 5*time.Second); m != n {
						t.Errorf("the Parquet reader was started %d times while the direction changed", m-n)
					}
				}
				if c.name == "summary" && how == "picked" {
					p.summaryRefusesLower()
				}
			})
			if !parquetSeen && strings.Contains(c.name, "parquet") {
				parquetSeen = true
				served.checkParquetReader(t, true, "after the "+c.name+" "+how)
				// The service worker stores it as the page fetches it.
				p.waitJS(`caches.open("cleanex-app").then(c => c.match("parquet.wasm")).then(r => r !== undefined)`, 30*time.Second)
			}
		}
	}
	p.t = t

	before := p.screen()
	for _, m := range malformedCases(t, read, csv) {
		t.Run("malformed "+m.name, func(t *testing.T) {
			p.t = t
			defer func() { p.t = t }()
			var files []string
			for i, b := range m.files {
				files = append(files, fileJS(m.names[i], b))
			}
			mustEval[bool](p, dropFilesJS(files...), 10*time.Second)
			msg := p.errorText(m.want[:min(30, len(m.want))])
			t.Logf("%s: %s", m.name, msg)
			if msg != m.want {
				t.Errorf("the page says %q, want %q", msg, m.want)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("the message %q is more than one line", msg)
			}
			p.checkKept(before, m.name, "61-malformed-"+sanitize(m.name))
		})
	}
	t.Run("window.cleanex.load", func(t *testing.T) {
		p.t = t
		defer func() { p.t = t }()
		p.apiLoads(read, ref)
	})
}

// bytesJS is a JavaScript expression making a Uint8Array holding b.
func bytesJS(b []byte) string {
	return fmt.Sprintf(`Uint8Array.from(atob(%q), c => c.charCodeAt(0))`, base64.StdEncoding.EncodeToString(b))
}

// apiLoads gives window.cleanex.load the tiny pilot as bytes: an .npz as a
// Uint8Array, a wide Parquet file as an ArrayBuffer, the two .npy files as
// an array (whose run gives ref's curves); a lone .npy and a malformed .npz
// reject with the page's sentence and the worker's message.
func (p *page) apiLoads(read func(string) []byte, ref loaded) {
	t := p.t.(*testing.T)
	td := filepath.Join("internal", "inputs", "testdata")
	scoresNPY, labelsNPY := read(filepath.Join(td, "tiny_scores.npy")), read(filepath.Join(td, "tiny_labels.npy"))
	type summary struct {
		N int `json:"n"`
		K int `json:"k"`
	}
	for what, expr := range map[string]string{
		"an .npz as a Uint8Array":               bytesJS(read(filepath.Join(td, "tiny.npz"))),
		"a wide Parquet file as an ArrayBuffer": bytesJS(read(filepath.Join(td, "tiny_wide.parquet"))) + ".buffer",
		"two .npy files as an array":            "[" + bytesJS(labelsNPY) + ", " + bytesJS(scoresNPY) + ".buffer]",
	} {
		if s := mustEval[summary](p, "window.cleanex.load("+expr+")", 30*time.Second); s.N != 24 || s.K != 6 {
			t.Errorf("%s: %d points, %d classes; want 24 and 6", what, s.N, s.K)
		}
	}
	// The last one loaded, whichever it was, is the tiny pilot: its run
	// gives the curves of the CSV.
	r := p.run(60, methods.Names, "fast", 1, 60*time.Second)
	for name, want := range ref.cols {
		if name == "k" {
			continue
		}
		got := r.Curves[name]
		if len(got) != len(want) {
			t.Errorf("run after load: %s has %d values, want %d", name, len(got), len(want))
			continue
		}
		for i, v := range got {
			if v == nil && !math.IsNaN(want[i]) || v != nil && !(math.Abs(*v-want[i]) <= 1e-9) {
				t.Errorf("run after load: %s at k = %d: %v, the CSV gives %v", name, i+2, v, want[i])
				break
			}
		}
	}
	_, err := web.CheckPicked([]web.Picked{{Name: "data from window.cleanex.load", Size: float64(len(scoresNPY)), Head: scoresNPY}})
	badNPZ, perr := inputs.PackNPY(npyWithNaN(t, scoresNPY), labelsNPY)
	if err == nil || perr != nil {
		t.Fatalf("a lone .npy: %v; packing: %v", err, perr)
	}
	werr := pageLoad(badNPZ)
	if werr == nil {
		t.Fatal("the native code reads the malformed .npz")
	}
	for what, tc := range map[string]struct{ expr, want string }{
		"a lone .npy":     {bytesJS(scoresNPY), err.Error()},
		"a malformed npz": {bytesJS(badNPZ), werr.Error()},
	} {
		got := mustEval[string](p, "window.cleanex.load("+tc.expr+`).then(() => "resolved", e => e.message)`, 30*time.Second)
		if got != tc.want {
			t.Errorf("%s: load settled with %q, want %q", what, got, tc.want)
		}
	}
}

// malformedCase is a malformed file of one format (two for an .npy pair)
// and the message the page must show for it.
type malformedCase struct {
	name  string
	names []string
	files [][]byte
	want  string
}

// malformedCases makes one malformed file per format from the tiny pilot's
// files; the message wanted is the native code's (pageLoad: compute.Load on
// the bytes the workers get, a Parquet file read by the command line's
// reader) after "Could not read NAME: ".
func malformedCases(t *testing.T, read func(string) []byte, csv []byte) []malformedCase {
	t.Helper()
	td := filepath.Join("internal", "inputs", "testdata")
	badCSV := breakCell(t, csv, ',')
	badTSV := breakCell(t, gunzip(t, read(filepath.Join(td, "tiny.tsv.gz"))), '\t')
	badSummary := breakCell(t, read(filepath.Join("internal", "summary", "testdata", "tiny_summary.csv")), ',')
	nanScores := npyWithNaN(t, read(filepath.Join(td, "tiny_scores.npy")))
	labels := read(filepath.Join(td, "tiny_labels.npy"))
	badNPZ, err := inputs.PackNPY(nanScores, labels)
	if err != nil {
		t.Fatal(err)
	}
	// 3 points x 2 classes: in long form with a second row for the pair
	// (p1, b); in wide form with a NaN score.
	long := writeParquet(t, []longRow{{"p0", "a", 0.9, "a"}, {"p0", "b", 0.1, "a"}, {"p1", "a", 0.6, "a"}, {"p1", "b", 0.4, "a"},
		{"p2", "a", 0.2, "b"}, {"p2", "b", 0.7, "b"}, {"p1", "b", 0.3, "a"}})
	wide := writeParquet(t, []wideRow{{"a", 0.9, 0.1}, {"a", 0.6, math.NaN()}, {"b", 0.2, 0.7}})
	cases := []malformedCase{
		{"csv.gz", []string{"bad.csv.gz"}, [][]byte{gzipped(badCSV)}, ""},
		{"tsv.gz", []string{"bad.tsv.gz"}, [][]byte{gzipped(badTSV)}, ""},
		{"npz", []string{"bad.npz"}, [][]byte{badNPZ}, ""},
		{"npy pair", []string{"bad_scores.npy", "bad_labels.npy"}, [][]byte{nanScores, labels}, ""},
		{"long parquet", []string{"bad_long.parquet"}, [][]byte{long}, ""},
		{"wide parquet", []string{"bad_wide.parquet"}, [][]byte{wide}, ""},
		{"summary", []string{"bad_summary.csv"}, [][]byte{badSummary}, ""},
	}
	for i, c := range cases {
		data := c.files[0]
		if len(c.files) == 2 {
			data = badNPZ
		}
		err := pageLoad(data)
		if err == nil {
			t.Fatalf("%s: the native code reads the malformed file", c.name)
		}
		cases[i].want = "Could not read " + sourceName(c.names) + ": " + err.Error()
	}
	return cases
}

// pageLoad is what the page does with a file's bytes, natively: a Parquet
// file (parquetjob.Wants) is converted to CSV first, by the command line's
// reader in the page's Parquet reader (parquetfile.WriteCSV), whose error is
// the page's; then the compute worker reads it (compute.Load).
func pageLoad(data []byte) error {
	if parquetjob.Wants(data[:min(len(data), scores.SniffBytes)]) {
		var csv bytes.Buffer
		if err := parquetfile.WriteCSV(&csv, data); err != nil {
			return err
		}
		data = csv.Bytes()
	}
	_, _, err := compute.Load(data, "auto")
	return err
}

// loggedServer serves the app (CLEANEX_DIST) under /sub/app/, as the
// tests' server does, and records the paths requested from it.
type loggedServer struct {
	mu    sync.Mutex
	paths []string
}

// newLoggedServer starts a loggedServer, closed when the test ends.
func newLoggedServer(t *testing.T) (*httptest.Server, *loggedServer) {
	t.Helper()
	l := &loggedServer{}
	files := http.StripPrefix("/sub/app/", http.FileServer(http.Dir(os.Getenv("CLEANEX_DIST"))))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.paths = append(l.paths, r.URL.Path)
		l.mu.Unlock()
		if !strings.HasPrefix(r.URL.Path, "/sub/app/") {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, l
}

// checkParquetReader checks that the Parquet reader's files (its script and
// parquet.wasm) were requested (want) or not (!want) so far; when says when.
func (l *loggedServer) checkParquetReader(t *testing.T, want bool, when string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, f := range []string{"/sub/app/assets/parquet.js", "/sub/app/parquet.wasm"} {
		if got := slices.Contains(l.paths, f); got != want {
			t.Errorf("%s: %s requested: %v, want %v (requests: %v)", when, f, got, want, l.paths)
		}
	}
	if !slices.Contains(l.paths, "/sub/app/worker.wasm") {
		t.Errorf("%s: the server log has no worker.wasm: is it recording? (requests: %v)", when, l.paths)
	}
}

// longRow is a row of a long Parquet file: one point and class.
type longRow struct {
	Point string  `parquet:"point"`
	Class string  `parquet:"class"`
	Score float64 `parquet:"score"`
	Label string  `parquet:"label"`
}

// wideRow is a row of a wide Parquet file of classes a and b.
type wideRow struct {
	Label string  `parquet:"label"`
	A     float64 `parquet:"a"`
	B     float64 `parquet:"b"`
}

// writeParquet returns a Parquet file of rows (the fields of T are its columns).
func writeParquet[T any](t *testing.T, rows []T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// breakCell replaces with "abc" the second score of the third data row
// (row 4, counting the header) of a table whose cells are separated by sep.
func breakCell(t *testing.T, table []byte, sep byte) []byte {
	t.Helper()
	lines := bytes.Split(table, []byte("\n"))
	if len(lines) < 4 {
		t.Fatalf("a table of %d lines", len(lines))
	}
	cells := bytes.Split(lines[3], []byte{sep})
	if len(cells) < 3 {
		t.Fatalf("row 3 has %d cells", len(cells))
	}
	cells[2] = []byte("abc")
	lines[3] = bytes.Join(cells, []byte{sep})
	return bytes.Join(lines, []byte("\n"))
}

// npyWithNaN returns a copy of a float .npy file whose first value is NaN.
func npyWithNaN(t *testing.T, npy []byte) []byte {
	t.Helper()
	if len(npy) < 10 || string(npy[:6]) != "\x93NUMPY" {
		t.Fatal("not an .npy file")
	}
	var off int
	switch npy[6] {
	case 1:
		off = 10 + int(binary.LittleEndian.Uint16(npy[8:10]))
	default:
		off = 12 + int(binary.LittleEndian.Uint32(npy[8:12]))
	}
	out := bytes.Clone(npy)
	switch header := string(npy[:off]); {
	case strings.Contains(header, "'<f8'"):
		binary.LittleEndian.PutUint64(out[off:], math.Float64bits(math.NaN()))
	case strings.Contains(header, "'<f4'"):
		binary.LittleEndian.PutUint32(out[off:], math.Float32bits(float32(math.NaN())))
	default:
		t.Fatalf("the scores .npy is not little-endian float: %s", header)
	}
	return out
}

// npyBytes returns a NumPy .npy file (format 1.0) of little-endian float64s.
func npyBytes(t testing.TB, shape []int, data []float64) []byte {
	t.Helper()
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = fmt.Sprint(d)
	}
	tuple := strings.Join(dims, ", ")
	if len(shape) == 1 {
		tuple += ","
	}
	h := fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%s), }", tuple)
	for (10+len(h)+1)%64 != 0 {
		h += " "
	}
	h += "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(h)))
	b.WriteString(h)
	binary.Write(&b, binary.LittleEndian, data)
	return b.Bytes()
}

// gzipped returns b compressed with gzip.
func gzipped(b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}

// gunzip returns the content of a gzip-compressed file.
func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := out.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
