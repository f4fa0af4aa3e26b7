package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/scores"
)

// readProblem reads the embeddings file path with inputs.Read.
func readProblem(t *testing.T, path string) *embed.Problem {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := inputs.Read(f)
	if err != nil || d.Embeddings == nil {
		t.Fatalf("%s: %v, no embeddings", path, err)
	}
	return d.Embeddings
}

// matrixCSV writes the explicit score matrix of p (embed.Matrix) as a CSV
// in a temporary folder and returns its path and the --direction of its
// scores.
func matrixCSV(t *testing.T, p *embed.Problem) (string, string) {
	t.Helper()
	m, err := embed.Matrix(p)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := scores.WriteCSV(&b, m); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "matrix.csv", b.String()), p.Direction().String()
}

// simulated writes `cleanex simulate ARGS` to a file in a temporary folder
// and returns its path.
func simulated(t *testing.T, name string, args ...string) string {
	t.Helper()
	code, out, errs := cli(t, "", append([]string{"simulate"}, args...)...)
	if code != 0 {
		t.Fatalf("simulate %v: exit %d, %s", args, code, errs)
	}
	return writeFile(t, name, out)
}

// scoringChoices lists the --metric and --reference flags that apply to
// an embeddings file with refs reference embeddings per class.
func scoringChoices(oneShot bool) [][]string {
	var out [][]string
	for _, m := range []string{"euclidean", "cosine"} {
		refs := []string{"centroid", "1nn"}
		if oneShot {
			refs = append(refs, "oneshot")
		}
		for _, r := range refs {
			out = append(out, []string{"--metric", m, "--reference", r})
		}
	}
	return out
}

// TestEmbeddingsPredict: predict on an embeddings file, under every
// scoring choice, writes the same curves CSV, byte for byte (every method
// and the estimate with its interval), as predict on the CSV of the
// explicit score matrix embed.Matrix builds from the same embeddings and
// scoring; stderr says which scoring was used. The pilot of 150 classes
// (more than a summary keeps every rank of) shows KDE exact too: its C_x
// comes from each full row.
func TestEmbeddingsPredict(t *testing.T) {
	big := simulated(t, "big.npz", "--k", "150", "--r", "2", "--d", "4", "--sigma2", "0.5", "--embeddings", "gallery", "--ref-points", "2", "--format", "npz")
	for _, c := range []struct {
		file    string
		oneShot bool
		k2      string
	}{
		{tinyPilot("tiny_embeddings.npz"), false, "30"},
		{tinyPilot("tiny_embeddings.csv"), false, "30"},
		{tinyPilot("tiny_gallery.npz"), false, "30"},
		{big, false, "600"},
	} {
		choices := scoringChoices(c.oneShot)
		if c.file == big {
			choices = [][]string{nil, {"--metric", "cosine"}}
		}
		for _, flags := range choices {
			args := []string{"predict", "--k2", c.k2, "--seed", "3"}
			code, got, errs := cli(t, "", append(append(slices.Clone(args), flags...), c.file)...)
			if code != 0 || !strings.Contains(got, "estimate_lo") || !strings.Contains(errs, "cleanex predict: scored ") {
				t.Fatalf("%s %v: exit %d, stderr %q", c.file, flags, code, errs)
			}
			p := readProblem(t, c.file)
			for i := 0; i+1 < len(flags); i += 2 {
				var err error
				switch flags[i] {
				case "--metric":
					p.Metric, err = embed.ParseMetric(flags[i+1])
				case "--reference":
					p.Reference, err = embed.ParseReference(flags[i+1])
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			m, dir := matrixCSV(t, p)
			code, want, errs := cli(t, "", append(args, "--direction", dir, m)...)
			if code != 0 {
				t.Fatalf("%s %v, the matrix: exit %d, %s", c.file, flags, code, errs)
			}
			if withoutInterval(t, got) != withoutInterval(t, want) {
				t.Errorf("%s %v: the curves from the embeddings differ from those of their score matrix", filepath.Base(c.file), flags)
			}
		}
	}
}

// TestEmbeddingsScoringLine: the line on stderr names the counts, the
// references and the metric.
func TestEmbeddingsScoringLine(t *testing.T) {
	for _, c := range []struct {
		file  string
		flags []string
		want  string
	}{
		{"tiny_embeddings.npz", nil, "cleanex predict: scored 24 test embeddings (d = 3) against 6 class centroids (of 18 training embeddings) by Euclidean distance\n"},
		{"tiny_gallery.npz", []string{"--metric", "cosine"}, "cleanex predict: scored 24 test embeddings (d = 3) against the nearest of each class's gallery embeddings (1-NN; 12 of them, 6 classes) by cosine similarity\n"},
	} {
		code, _, errs := cli(t, "", append(append([]string{"predict", "--k2", "10", "--methods", "plugin", "--estimate=false"}, c.flags...), tinyPilot(c.file))...)
		if code != 0 || errs != c.want {
			t.Errorf("%s: exit %d, stderr %q, want %q", c.file, code, errs, c.want)
		}
	}
	if s := limits.Thousands(20000); s != "20,000" {
		t.Errorf("limits.Thousands(20000) = %q", s)
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -4500: "-4,500"} {
		if s := limits.Thousands(n); s != want {
			t.Errorf("limits.Thousands(%d) = %q, want %q", n, s, want)
		}
	}
}

// TestSimulateEmbeddings: the teaching example. With the class centres as
// references (--ref-points 0), as training embeddings or as a one-shot
// gallery, in CSV or .npz, predict gives the curves of the simulated score
// matrix itself, byte for byte, and --truth writes the world's truth; with
// noisy references the truth is that of the embeddings, lower.
func TestSimulateEmbeddings(t *testing.T) {
	sim := []string{"--k", "200", "--k1", "40", "--r", "3", "--d", "5", "--sigma2", "0.2", "--seed", "7"}
	dir := t.TempDir()
	truth := filepath.Join(dir, "truth.csv")
	scoresFile := simulated(t, "scores.csv", append(slices.Clone(sim), "--truth", truth)...)
	args := []string{"predict", "--k2", "200", "--seed", "2"}
	code, want, errs := cli(t, "", append(slices.Clone(args), scoresFile)...)
	if code != 0 {
		t.Fatalf("predict on the scores: exit %d, %s", code, errs)
	}
	wantTruth, err := os.ReadFile(truth)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range [][]string{{"train", "csv"}, {"gallery", "npz"}, {"train", "npz"}} {
		tf := filepath.Join(dir, "truth-"+e[0]+e[1]+".csv")
		file := simulated(t, "sim."+e[1], append(slices.Clone(sim), "--embeddings", e[0], "--format", e[1], "--truth", tf)...)
		code, got, errs := cli(t, "", append(slices.Clone(args), file)...)
		if code != 0 || withoutInterval(t, got) != withoutInterval(t, want) {
			t.Errorf("%v: exit %d, stderr %q; the curves differ from the score matrix's", e, code, errs)
		}
		if b, err := os.ReadFile(tf); err != nil || !bytes.Equal(b, wantTruth) {
			t.Errorf("%v: --truth differs from the world's truth (%v)", e, err)
		}
	}
	noisy := filepath.Join(dir, "truth-noisy.csv")
	simulated(t, "noisy.csv", append(slices.Clone(sim), "--embeddings", "train", "--ref-points", "2", "--truth", noisy)...)
	a, b := lastTruth(t, truth), lastTruth(t, noisy)
	if !(b < a) {
		t.Errorf("accuracy at K with 2 noisy training embeddings per class %v, with the centres %v: want lower", b, a)
	}
}

// lastTruth returns the truth at the largest k of a k,truth file.
func lastTruth(t *testing.T, path string) float64 {
	t.Helper()
	c, err := readTruth(path)
	if err != nil {
		t.Fatal(err)
	}
	return c[c.Max()]
}

// TestEmbeddingsSummarise: summarise writes, from embeddings, the summary
// summarise writes from their score matrix, byte for byte, with the
// default 128 quantile steps and with 8 (fewer than the classes); predict
// on that summary gives the same plug-in and regression curves as on the
// embeddings.
func TestEmbeddingsSummarise(t *testing.T) {
	file := simulated(t, "e.csv", "--k", "60", "--r", "2", "--d", "3", "--embeddings", "train", "--ref-points", "3")
	p := readProblem(t, file)
	for _, flags := range [][]string{nil, {"--quantiles", "8"}, {"--metric", "cosine", "--reference", "1nn"}} {
		code, got, errs := cli(t, "", append(append([]string{"summarise"}, flags...), file)...)
		if code != 0 || !strings.Contains(errs, "cleanex summarise: scored 120 test embeddings") {
			t.Fatalf("%v: exit %d, %s", flags, code, errs)
		}
		q := *p
		if slices.Contains(flags, "cosine") {
			q.Metric, q.Reference = embed.Cosine, embed.Nearest
		}
		m, dir := matrixCSV(t, &q)
		var mflags []string
		if len(flags) == 2 && flags[0] == "--quantiles" {
			mflags = flags
		}
		code, want, errs := cli(t, "", append(append([]string{"summarise", "--direction", dir}, mflags...), m)...)
		if code != 0 || got != want {
			t.Errorf("%v: exit %d, %s; the summary differs from the matrix's: %v", flags, code, errs, got != want)
		}
	}
	code, sum, _ := cli(t, "", "summarise", file)
	if code != 0 {
		t.Fatal("summarise failed")
	}
	args := []string{"predict", "--k2", "100", "--methods", "plugin,regression", "--estimate=false"}
	_, want, _ := cli(t, "", append(slices.Clone(args), file)...)
	if code, got, errs := cli(t, "", append(args, writeFile(t, "sum.csv", sum))...); code != 0 || got != want {
		t.Errorf("predict on the summary: exit %d, %s; differs from the embeddings': %v", code, errs, got != want)
	}
}

// TestEmbeddingsBacktest: backtest on embeddings builds their score matrix
// and gives what it gives on that matrix's CSV; above 2e7 scores it
// refuses.
func TestEmbeddingsBacktest(t *testing.T) {
	file := tinyPilot("tiny_embeddings.npz")
	args := []string{"backtest", "--k1", "3", "--reps", "3", "--methods", "plugin,kde", "--estimate=false"}
	code, got, errs := cli(t, "", append(slices.Clone(args), file)...)
	if code != 0 || !strings.Contains(errs, "scored 24 test embeddings") {
		t.Fatalf("backtest: exit %d, %s", code, errs)
	}
	m, dir := matrixCSV(t, readProblem(t, file))
	_, want, _ := cli(t, "", append(args, "--direction", dir, m)...)
	// The seconds column differs from run to run.
	strip := func(s string) string {
		var rows []string
		for _, r := range readCSV(t, s) {
			rows = append(rows, strings.Join(append(r[:5:5], r[6:]...), ","))
		}
		return strings.Join(rows, "\n")
	}
	if strip(got) != strip(want) {
		t.Errorf("backtest on the embeddings differs from backtest on their matrix:\n%s\n%s", got, want)
	}
	big := simulated(t, "big.csv", "--k", "4001", "--r", "2", "--d", "1", "--embeddings", "train")
	code, _, errs = cli(t, "", "backtest", "--k1", "3", big)
	if code != exitInput || !strings.Contains(errs, "these embeddings give 8,002 x 4,001 = 3.2e+07 scores, above the 2e+07 it builds from embeddings") || strings.Count(errs, "\n") != 1 {
		t.Errorf("backtest on 8,002 x 4,001: exit %d, stderr %q", code, errs)
	}
}

// TestEmbeddingsPaperPreset: CleaneX's paper preset needs every score and
// fails on embeddings as on a summary, with its reason and what to do; the
// other methods' columns are written.
func TestEmbeddingsPaperPreset(t *testing.T) {
	for _, file := range []string{tinyPilot("tiny_embeddings.npz"), filepath.Join("..", "..", "internal", "summary", "testdata", "tiny_summary.csv")} {
		code, out, errs := cli(t, "", "predict", "--k2", "20", "--preset", "paper", "--estimate=false", file)
		if code != exitFailure || !strings.HasPrefix(out, "k,observed,plugin,kde,pooled,tail,regression\n") || !strings.Contains(errs, "method cleanex failed") ||
			!strings.Contains(errs, "needs the full score matrix") || !strings.Contains(errs, "give the score matrix for --preset paper, or use --preset fast") {
			t.Errorf("%s: exit %d, stdout %.40q, stderr %q", file, code, out, errs)
		}
	}
}

// TestEmbeddingsErrors: flags and embeddings files the command refuses,
// with exit status 2 and one line naming the file and the place.
func TestEmbeddingsErrors(t *testing.T) {
	emb, gal := tinyPilot("tiny_embeddings.npz"), tinyPilot("tiny_gallery.npz")
	bad := writeFile(t, "bad.csv", "set,label,x,y\ntest,a,1,2\ntset,b,1,2\n")
	nan := writeFile(t, "nan.csv", "set,label,x,y\ntest,a,1,2\ntest,b,1,NaN\n")
	// Every test point as far from both centroids: all scores equal (once
	// written as accuracies of 0 with exit status 0).
	equi := writeFile(t, "equi.csv", "set,label,x\ntest,a,0\ntest,b,0\ntrain,a,1\ntrain,b,-1\n")
	zero := writeFile(t, "zero.csv", "set,label,x,y\ntest,a,0,0\ntest,b,0,0\ntrain,a,0,0\ntrain,b,0,0\n")
	// Distances whose squares underflow (once all 0: accuracies of 0).
	tiny := writeFile(t, "tiny.csv", "set,label,x,y\ntest,a,1e-300,0\ntest,b,0,1e-300\ntrain,a,2e-300,0\ntrain,b,0,2e-300\n")
	huge := writeFile(t, "huge.csv", "set,label,x,y\ntest,a,1,0\ntest,b,0,1\ntrain,a,2,0\ntrain,b,0,2e200\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"predict", "--k2", "10", "--metric", "cosine", tinyPilot("tiny.csv")}, "--metric applies to embeddings, and " + tinyPilot("tiny.csv") + " holds scores"},
		{[]string{"summarise", "--reference", "1nn", tinyPilot("tiny.csv")}, "--reference applies to embeddings"},
		{[]string{"predict", "--k2", "10", "--metric", "manhattan", emb}, `--metric: metric "manhattan": use euclidean or cosine`},
		{[]string{"predict", "--k2", "10", "--reference", "knn", emb}, `--reference: reference "knn": use centroid, 1nn or oneshot`},
		{[]string{"predict", "--k2", "10", "--reference", "oneshot", gal}, `tiny_gallery.npz: test_labels.npy and gallery_labels.npy: class "c0000" has 2 reference embeddings: one-shot scoring uses exactly one per class; keep one, or use 1nn`},
		{[]string{"predict", "--k2", "10", "--direction", "higher", emb}, "--direction higher does not apply to embeddings scored by Euclidean distance, for which lower is better"},
		{[]string{"backtest", "--direction", "lower", "--metric", "cosine", emb}, "--direction lower does not apply to embeddings scored by cosine similarity"},
		{[]string{"predict", "--k2", "10", bad}, `bad.csv: row 3, column "set": "tset" is not a set: each row's set is test, train or gallery`},
		{[]string{"summarise", nan}, `nan.csv: row 3, column "y": not a finite number: "NaN"`},
		{[]string{"predict", "--k2", "10", equi}, "equi.csv: scored 2 test embeddings (d = 1) against 2 class centroids (of 2 training embeddings) by Euclidean distance: every test embedding gives all of its classes the same score"},
		{[]string{"summarise", equi}, "equi.csv: scored 2 test embeddings (d = 1) against 2 class centroids (of 2 training embeddings) by Euclidean distance: every test embedding gives all of its classes the same score"},
		{[]string{"backtest", "--k1", "2", equi}, "every test embedding gives all of its classes the same score"},
		{[]string{"predict", "--k2", "10", zero}, "zero.csv: every coordinate of the test and reference embeddings is 0"},
		{[]string{"predict", "--k2", "10", "--metric", "cosine", zero}, "zero.csv: row 2: the embedding is all zeros, so its cosine similarity is undefined"},
		{[]string{"predict", "--k2", "10", tiny}, "tiny.csv: every coordinate of the embeddings is below 1e-150 in absolute value, too small for Euclidean distances between them (their squares underflow): the largest is 2e-300; multiply every coordinate by a power of ten"},
		{[]string{"summarise", tiny}, "every coordinate of the embeddings is below 1e-150"},
		{[]string{"predict", "--k2", "10", huge}, `huge.csv: row 5, column "y": 2e+200 is too large for distances between embeddings (at most 1e+150 in absolute value); divide every coordinate by a power of ten`},
		{[]string{"simulate", "--format", "npz"}, "--format applies only with --embeddings"},
		{[]string{"simulate", "--ref-points", "2"}, "--ref-points applies only with --embeddings"},
		{[]string{"simulate", "--embeddings", "centroids"}, `--embeddings "centroids": use train (training embeddings) or gallery`},
		{[]string{"simulate", "--embeddings", "train", "--format", "parquet"}, `--format "parquet": use csv or npz`},
		{[]string{"simulate", "--embeddings", "train", "--ref-points", "-1"}, "--ref-points -1: give 0"},
		{[]string{"simulate", "--embeddings", "train", "--ref-points", "100000000"}, "--ref-points: 100000000 reference points per class"},
	} {
		code, out, errs := cli(t, "", c.args...)
		if code != exitInput || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, errs, c.want)
		}
	}
	// Cosine similarity normalises each embedding: the tiny ones are scored.
	if code, out, errs := cli(t, "", "predict", "--k2", "3", "--metric", "cosine", "--methods", "plugin", "--estimate=false", tiny); code != 0 || !strings.Contains(out, "2,1,1\n") {
		t.Errorf("cosine on tiny embeddings: exit %d, stderr %q, output\n%s", code, errs, out)
	}
}
