package compute

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
	"github.com/cleanex/cleanex/internal/summary"
	"gonum.org/v1/gonum/stat"
)

// simulatedCSV returns the CSV of a simulated pilot of k classes with r
// points each (distances: lower is better).
func simulatedCSV(t *testing.T, k, r int, seed uint64) []byte {
	t.Helper()
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 5, Sigma2: 0.2, K: k, R: r, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := w.WriteCSV(&b, w.AllClasses()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// fitAll fits every registered method on s (CleaneX with its fast preset)
// and returns the curves by method name.
func fitAll(t *testing.T, s *accuracy.Sample, k2 int) map[string][]float64 {
	t.Helper()
	out := map[string][]float64{}
	for _, name := range methods.Names {
		est, err := methods.New(name, methods.Options{Seed: 1, Preset: "fast"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := est.Fit(context.Background(), s, k2, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = res.Curve
	}
	return out
}

// sameSummary checks that a prepared data set's summary is the loaded
// one's: sizes, directions, the observed curve and its per-point inputs.
func sameSummary(t *testing.T, got, want protocol.Summary) {
	t.Helper()
	if got.N != want.N || got.K != want.K || got.MinPoints != want.MinPoints || got.MaxPoints != want.MaxPoints ||
		got.Direction != want.Direction || got.Detected != want.Detected || got.LogProbabilities != want.LogProbabilities || got.LogOdds != want.LogOdds || got.ScoresNote != want.ScoresNote ||
		got.Wins != want.Wins || got.Top1 != want.Top1 {
		t.Errorf("summary %+v\nwant %+v", got, want)
	}
	for name, pair := range map[string][2][]float64{"observed": {got.Observed, want.Observed}, "weights": {got.Weights, want.Weights}, "observed C": {got.ObservedC, want.ObservedC}} {
		if !slices.Equal(pair[0], pair[1]) {
			t.Errorf("%s differs", name)
		}
	}
}

// closeCurves checks every method's curve of got against want to tol.
func closeCurves(t *testing.T, got, want map[string][]float64, tol float64) {
	t.Helper()
	for name, w := range want {
		g := got[name]
		if len(g) != len(w) {
			t.Errorf("%s: %d values, want %d", name, len(g), len(w))
			continue
		}
		for k := range w {
			if math.Abs(g[k]-w[k]) > tol {
				t.Errorf("%s at k = %d: %v, from the full matrix %v", name, k, g[k], w[k])
				break
			}
		}
	}
}

// probabilitiesCSV returns csv, a score matrix of distances, as the class
// probabilities softmax(-distance / sd) per row.
func probabilitiesCSV(t *testing.T, csv []byte) []byte {
	t.Helper()
	m, err := scores.Parse(bytes.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := scores.WriteCSV(&b, scores.Softmax(m, -1/stat.StdDev(m.Scores, nil))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// oneVsRestCSV returns csv, a score matrix of distances, as one-vs-rest
// probabilities sigma(2 - 4 distance / sd).
func oneVsRestCSV(t *testing.T, csv []byte) []byte {
	t.Helper()
	m, err := scores.Parse(bytes.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	sd := stat.StdDev(m.Scores, nil)
	for i, d := range m.Scores {
		m.Scores[i] = 1 / (1 + math.Exp(4*d/sd-2))
	}
	var b bytes.Buffer
	if err := scores.WriteCSV(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A score matrix prepared row by row gives the summary Load gives and,
// from every method, the curves of the full matrix: plug-in, regression and
// KDE (its C_x computed from each full row) exactly, CleaneX fast from the
// scores' moments combined from the rows'. K = 150 is above what the knot
// ranks hold in full, so the rows rebuilt from them differ from the scores.
// Class probabilities are read as their logarithms on both paths, one-vs-rest
// probabilities as their log-odds.
func TestPrepareMatchesLoad(t *testing.T) {
	dists := simulatedCSV(t, 150, 3, 7)
	probs := probabilitiesCSV(t, dists)
	odds := oneVsRestCSV(t, dists)
	// The scores are distances: auto reads them as lower is better, and
	// higher is an override (Detected then differs from Direction).
	for name, tc := range map[string]struct {
		csv               []byte
		dir               string
		logProbs, logOdds bool
	}{"auto": {dists, "auto", false, false}, "higher": {dists, "higher", false, false}, "probabilities": {probs, "auto", true, false},
		"one-vs-rest": {odds, "auto", false, true}} {
		csv, dir := tc.csv, tc.dir
		t.Run(name, func(t *testing.T) {
			full, want, err := Load(csv, dir)
			if err != nil {
				t.Fatal(err)
			}
			var stages []string
			ds, got, err := Prepare(context.Background(), bytes.NewReader(csv), PrepareOptions{Direction: dir, Size: int64(len(csv)),
				Progress: func(stage string, done, total int64) {
					if len(stages) == 0 || stages[len(stages)-1] != stage {
						stages = append(stages, stage)
					}
				}})
			if err != nil {
				t.Fatal(err)
			}
			if !ds.Sample.Summarised() {
				t.Fatal("the prepared Sample is not built from per-point summaries")
			}
			if !slices.Equal(stages, []string{StageReading, StageSummarising}) {
				t.Errorf("progress stages %v, want reading then summarising", stages)
			}
			sameSummary(t, got, want)
			if got.LogProbabilities != tc.logProbs || ds.Sample.LogProbabilities != tc.logProbs || got.LogOdds != tc.logOdds || ds.Sample.LogOdds != tc.logOdds {
				t.Errorf("LogProbabilities %v (Sample: %v), want %v; LogOdds %v (Sample: %v), want %v", got.LogProbabilities, ds.Sample.LogProbabilities, tc.logProbs,
					got.LogOdds, ds.Sample.LogOdds, tc.logOdds)
			}
			closeCurves(t, fitAll(t, ds.Sample, 1500), fitAll(t, full.Sample, 1500), 1e-12)
			// Another worker given the binary form says the same.
			msg, err := BinaryMessage(1, ds, got, "")
			if err != nil {
				t.Fatal(err)
			}
			if _, sum, err := LoadBinary(msg); err != nil || sum.LogProbabilities != tc.logProbs || sum.LogOdds != tc.logOdds {
				t.Errorf("LoadBinary: LogProbabilities %v, LogOdds %v, %v; want %v, %v", sum.LogProbabilities, sum.LogOdds, err, tc.logProbs, tc.logOdds)
			}
		})
	}
}

// A worker that prepares a pilot posts its binary form, then its summary;
// another worker loading that binary form holds the same data set, bit for
// bit: the same summary and the same fits.
func TestPreparedBinaryLoadsElsewhere(t *testing.T) {
	csv := simulatedCSV(t, 40, 4, 3)
	a := newCollector()
	srvA := NewServer(a.post, Options{})
	srvA.Prepare(protocol.Prepare{Dataset: 5, Direction: "auto"}, bytes.NewReader(csv), int64(len(csv)))
	// The binary form without KDE's C_x, the summary, then the binary form
	// with them.
	var kinds []string
	var bins []protocol.LoadBinary
	var sumA protocol.Summary
	for _, m := range a.msgs {
		switch m := m.(type) {
		case protocol.LoadBinary:
			bins = append(bins, m)
			kinds = append(kinds, "binary "+m.Pending)
		case protocol.Summary:
			sumA = m
			kinds = append(kinds, "summary")
		case protocol.Error:
			t.Fatal(m.Message)
		}
	}
	if want := []string{"binary kde:lcv", "summary", "binary "}; !slices.Equal(kinds, want) {
		t.Fatalf("the preparing worker posted %q, want %q", kinds, want)
	}
	bin := bins[1]
	if bin.Dataset != 5 || sumA.Dataset != 5 || bin.Direction != "lower" || bins[0].Direction != "lower" {
		t.Fatalf("binary of data set %d (%s), summary of %d; want 5, lower", bin.Dataset, bin.Direction, sumA.Dataset)
	}
	if len(bins[0].Binary) >= len(bin.Binary) {
		t.Errorf("the first binary form (%d bytes) is not smaller than the one with KDE's C_x (%d)", len(bins[0].Binary), len(bin.Binary))
	}
	enc, err := protocol.Encode(bin)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := protocol.Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	b := newCollector()
	srvB := NewServer(b.post, Options{})
	srvB.Handle(dec)
	srvB.Handle(protocol.Describe{Dataset: 5})
	sumB, ok := b.wait(t, protocol.KindSummary).(protocol.Summary)
	if !ok {
		t.Fatalf("describe after the binary form: %+v", b.msgs)
	}
	sameSummary(t, sumB, sumA)
	if !slices.Equal(sumB.ClassSE, sumA.ClassSE) {
		t.Error("class-sampling standard errors differ")
	}
	for _, method := range methods.Names {
		run := protocol.Run{Dataset: 5, Run: 9, Method: method, K2: 400, Preset: "fast", Seed: 1}
		srvA.Handle(run)
		ra := a.wait(t, protocol.KindResult)
		srvB.Handle(run)
		rb := b.wait(t, protocol.KindResult)
		ga, oka := ra.(protocol.Result)
		gb, okb := rb.(protocol.Result)
		if !oka || !okb || !slices.Equal(ga.Curve, gb.Curve) {
			t.Errorf("%s: the preparing worker's fit %+v, the receiving one's %+v", method, ra, rb)
		}
	}
	// The paper preset needs every score.
	srvB.Handle(protocol.Run{Dataset: 5, Run: 10, Method: "cleanex", K2: 400, Preset: "paper", Seed: 1})
	if e, ok := b.wait(t, protocol.KindResult).(protocol.Error); !ok || !strings.Contains(e.Message, "full score matrix") || !strings.Contains(e.Message, "cleanex predict") {
		t.Errorf("CleaneX paper on a prepared pilot: %+v, want the summary's refusal", e)
	}
}

// Prepare and the binary form refuse what they cannot read with the
// reader's message, and scores that never vary within a row; a Prepare
// handled without its file is refused.
func TestPrepareErrors(t *testing.T) {
	bad := strings.Replace(small, "0.8", "x", 1)
	if _, _, err := Prepare(context.Background(), strings.NewReader(bad), PrepareOptions{Direction: "auto"}); err == nil || !strings.Contains(err.Error(), "row 4") {
		t.Errorf("a malformed CSV: %v, want the row named", err)
	}
	constant := "label,a,b,c\na,1,1,1\nb,2,2,2\nc,3,3,3\n"
	if _, _, err := Prepare(context.Background(), strings.NewReader(constant), PrepareOptions{Direction: "auto"}); !errors.Is(err, accuracy.ErrConstantScores) {
		t.Errorf("scores constant in every row: %v, want ErrConstantScores", err)
	}
	if _, _, err := Prepare(context.Background(), strings.NewReader(small), PrepareOptions{Direction: "sideways"}); err == nil {
		t.Error("an unknown direction was accepted")
	}
	if _, _, err := LoadBinary(protocol.LoadBinary{Dataset: 1, Direction: "higher", Detected: "higher", Binary: []byte("CXS0")}); err == nil {
		t.Error("a damaged binary form was accepted")
	}
	c := newCollector()
	NewServer(c.post, Options{}).Handle(protocol.Prepare{Dataset: 3})
	if e, ok := c.wait(t, protocol.KindSummary).(protocol.Error); !ok || e.Dataset != 3 {
		t.Errorf("a Prepare without its file: %+v", e)
	}
}

// Embeddings are prepared under the chosen metric and reference and give
// the curves of the CSV of their explicit score matrix; the summary says
// how they were scored. A direction that contradicts the metric is refused.
func TestPrepareEmbeddings(t *testing.T) {
	npz := readTestdata(t, "tiny_embeddings.npz")
	for _, metric := range []string{"", "cosine"} {
		t.Run("metric "+metric, func(t *testing.T) {
			ds, sum, err := Prepare(context.Background(), bytes.NewReader(npz), PrepareOptions{Direction: "auto", Metric: metric})
			if err != nil {
				t.Fatal(err)
			}
			in, err := inputs.Read(bytes.NewReader(npz))
			if err != nil {
				t.Fatal(err)
			}
			p := in.Embeddings
			if metric != "" {
				if p.Metric, err = embed.ParseMetric(metric); err != nil {
					t.Fatal(err)
				}
			}
			if sum.Embedding.Metric != p.Metric.String() || sum.Embedding.Reference != p.Reference.String() || sum.Embedding.RefSet != in.ReferenceSet() ||
				sum.Embedding.Dim != p.Test.D || sum.Embedding.References != p.References.N() {
				t.Errorf("summary's scoring %+v, want %s, %s, %s", sum.Embedding, p.Metric, p.Reference, in.ReferenceSet())
			}
			m, err := embed.Matrix(p)
			if err != nil {
				t.Fatal(err)
			}
			var csv bytes.Buffer
			if err := scores.WriteCSV(&csv, m); err != nil {
				t.Fatal(err)
			}
			full, want, err := Load(csv.Bytes(), p.Direction().String())
			if err != nil {
				t.Fatal(err)
			}
			sameSummary(t, sum, want)
			closeCurves(t, fitAll(t, ds.Sample, 60), fitAll(t, full.Sample, 60), 1e-9)
			// Load reads embeddings too, with the file's default scoring.
			if metric == "" {
				if _, ls, err := Load(npz, "auto"); err != nil || !slices.Equal(ls.Observed, sum.Observed) || ls.Embedding != sum.Embedding {
					t.Errorf("Load of the embeddings: %v, scoring %+v", err, ls.Embedding)
				}
			}
		})
	}
	wrong := "higher"
	if _, _, err := Prepare(context.Background(), bytes.NewReader(npz), PrepareOptions{Direction: wrong}); err == nil || !strings.Contains(err.Error(), "use auto") {
		t.Errorf("direction higher for Euclidean distances: %v", err)
	}
	if _, _, err := Prepare(context.Background(), bytes.NewReader(npz), PrepareOptions{Direction: "auto", Reference: "sideways"}); err == nil {
		t.Error("an unknown reference was accepted")
	}
}

// PrepareNeed reads the pilot's shape from a CSV's first bytes, plain or
// gzip-compressed, and estimates the preparing worker's peak from it.
func TestPrepareNeed(t *testing.T) {
	csv := simulatedCSV(t, 200, 5, 1) // N = 1000, K = 200
	head := csv[:min(len(csv), scores.SniffBytes)]
	need := PrepareNeed(float64(len(csv)), head)
	if need.Classes != 200 || math.Abs(float64(need.Points)-1000) > 50 {
		t.Errorf("estimated %d points, %d classes; want about 1000 and 200", need.Points, need.Classes)
	}
	matrix := 8 * 1000 * 200.0
	if need.Bytes < 2*matrix+prepareBaseBytes || need.Bytes > 3*matrix+prepareBaseBytes+1.1*1000*pointPeak {
		t.Errorf("estimated peak %.0f MB for a %.0f MB matrix", need.Bytes/1e6, matrix/1e6)
	}
	if want := workerPeak * BinaryBytes(need.Points, 200); need.PerWorker != want {
		t.Errorf("per worker %.0f MB, want %.0f MB", need.PerWorker/1e6, want/1e6)
	}
	// BinaryBytes is the binary form's size, but for its few header bytes.
	ds, _, err := Prepare(context.Background(), bytes.NewReader(csv), PrepareOptions{Direction: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	bin, err := BinaryMessage(1, ds, protocol.Summary{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := float64(len(bin.Binary)), BinaryBytes(1000, 200); math.Abs(got-want) > 0.01*want {
		t.Errorf("binary form of %.0f bytes, BinaryBytes says %.0f", got, want)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(csv)
	zw.Close()
	gz := PrepareNeed(float64(z.Len()), z.Bytes()[:min(z.Len(), scores.SniffBytes)])
	if gz.Classes != 200 || math.Abs(float64(gz.Points)-1000) > 200 {
		t.Errorf("gzip: estimated %d points, %d classes; want about 1000 and 200", gz.Points, gz.Classes)
	}
	if got := PrepareNeed(1e9, []byte("label,a,b")); got.Bytes < 1e9 {
		t.Errorf("a head without a complete row: %.0f MB for 1 GB, want at least the file's size", got.Bytes/1e6)
	}
	if got := PrepareNeed(1e8, []byte("PK\x03\x04")); got.Bytes < 5e8 {
		t.Errorf("an .npz of 100 MB: %.0f MB", got.Bytes/1e6)
	}
}

// errReader fails after its bytes, as a file that cannot be read further.
type errReader struct{ b []byte }

func (r *errReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, errors.New("NotReadableError: the file changed")
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

// A read that fails midway is reported with the reader's words.
func TestPrepareReadError(t *testing.T) {
	csv := simulatedCSV(t, 20, 3, 1)
	_, _, err := Prepare(context.Background(), &errReader{b: csv[:len(csv)/2]}, PrepareOptions{Direction: "auto"})
	if err == nil || !strings.Contains(err.Error(), "NotReadableError") {
		t.Errorf("a failed read: %v", err)
	}
}

// A per-point summary is prepared as Load reads it, with nothing pending,
// and its binary form loads elsewhere.
func TestPrepareSummary(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "summary", "testdata", "tiny_summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	_, want, err := Load(b, "auto")
	if err != nil {
		t.Fatal(err)
	}
	st, err := PrepareStaged(context.Background(), bytes.NewReader(b), PrepareOptions{Direction: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	if st.Pending() != "" {
		t.Errorf("a summary has %q pending", st.Pending())
	}
	sameSummary(t, st.Summary, want)
	bin, err := BinaryMessage(2, st.Dataset, st.Summary, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, got, err := LoadBinary(bin); err != nil {
		t.Fatal(err)
	} else {
		sameSummary(t, got, want)
	}
}

// A score matrix whose scores lie beyond what a per-point summary can hold
// (a row's m2 overflowing or underflowing a float64) is refused by Prepare
// with summary.ErrOutOfRange, naming the point and the rescaling to make,
// while Load, which keeps every score, reads it; scores well inside the
// range (1e±90) are prepared.
func TestPrepareRefusesOutOfRange(t *testing.T) {
	csv := simulatedCSV(t, 40, 5, 3)
	for _, tc := range []struct {
		factor float64
		want   string
	}{
		{1e90, ""},
		{1e-90, ""},
		{1e200, "point 1: its scores reach 4.56e+200 in absolute value, out of a summary's range"},
		{1e-200, "point 1: its scores reach only 4.56e-200 in absolute value, out of a summary's range"},
	} {
		m, err := scores.Parse(bytes.NewReader(csv))
		if err != nil {
			t.Fatal(err)
		}
		for i := range m.Scores {
			m.Scores[i] *= tc.factor
		}
		var b bytes.Buffer
		if err := scores.WriteCSV(&b, m); err != nil {
			t.Fatal(err)
		}
		_, _, err = Prepare(context.Background(), bytes.NewReader(b.Bytes()), PrepareOptions{Direction: "auto"})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("scores times %g: %v", tc.factor, err)
		case tc.want != "" && (!errors.Is(err, summary.ErrOutOfRange) || !strings.HasPrefix(err.Error(), tc.want) || !strings.Contains(err.Error(), "power of ten")):
			t.Errorf("scores times %g: error %v, want one starting %q that says which power of ten to scale by", tc.factor, err, tc.want)
		}
		if _, _, err := Load(b.Bytes(), "auto"); err != nil {
			t.Errorf("scores times %g: Load: %v", tc.factor, err)
		}
	}
}
