package web

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/report"
	"github.com/cleanex/cleanex/internal/scores"
)

// A prepared file may take half the machine's memory, between 1 GB and
// what a WebAssembly program addresses (less its own).
func TestPrepareBudget(t *testing.T) {
	for _, tc := range []struct{ gb, want float64 }{{0, 3.5e9}, {8, 3.5e9}, {4, 2e9}, {1, 1e9}, {0.5, 1e9}} {
		if got := PrepareBudget(tc.gb); got != tc.want {
			t.Errorf("PrepareBudget(%g) = %g, want %g", tc.gb, got, tc.want)
		}
	}
}

// A file whose preparation would need more than the budget is refused with
// one sentence naming its shape, what it needs and the command line; one
// that fits passes.
func TestCheckPrepare(t *testing.T) {
	// A header of 2,000 classes and rows of about 36,900 bytes: 738 MB is
	// about 20,000 points.
	var b strings.Builder
	b.WriteString("label")
	for j := range 2000 {
		b.WriteString(fmt.Sprintf(",c%04d", j))
	}
	b.WriteString("\n")
	for range 3 {
		b.WriteString("c0000")
		for range 2000 {
			b.WriteString(",0.123456789012345")
		}
		b.WriteString("\n")
	}
	head := []byte(b.String())
	if err := CheckPrepare("big.csv", 738e6, head, 3.5e9, 3); err != nil {
		t.Errorf("738 MB with a budget of 3.5 GB: %v", err)
	}
	err := CheckPrepare("big.csv", 738e6, head, 5e8, 3)
	if err == nil {
		t.Fatal("738 MB with a budget of 500 MB was accepted")
	}
	msg := err.Error()
	for _, want := range []string{"big.csv (738 MB, about 20,", " points × 2,000 classes)", "more than the 500 MB it can use", "cleanex summarise big.csv > summary.csv", "cleanex predict --k2 N big.csv"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q does not say %q", msg, want)
		}
	}
	if strings.HasSuffix(msg, ".") || strings.Contains(msg, "\n") {
		t.Errorf("%q: want one sentence without its final period", msg)
	}
}

// Embeddings are told from scores by a CSV's first two header cells or by
// the arrays an .npz's first entries name.
func TestLooksLikeEmbeddings(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "internal", "inputs", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b[:min(len(b), scores.SniffBytes)]
	}
	gz := func(b []byte) []byte {
		var out bytes.Buffer
		zw := gzip.NewWriter(&out)
		zw.Write(b)
		zw.Close()
		return out.Bytes()
	}
	for _, tc := range []struct {
		name string
		head []byte
		want bool
	}{
		{"tiny_embeddings.csv.gz", gz(read("tiny_embeddings.csv")), true},
		{"tiny_embeddings.npz.gz", gz(read("tiny_embeddings.npz")), true},
		{"tiny.csv.gz", gz(read("tiny.csv")), false},
		{"tiny_embeddings.npz", read("tiny_embeddings.npz"), true},
		{"tiny_gallery.npz", read("tiny_gallery.npz"), true},
		{"tiny_embeddings.csv", read("tiny_embeddings.csv"), true},
		{"tiny.npz", read("tiny.npz"), false},
		{"tiny.csv", read("tiny.csv"), false},
		{"a TSV", []byte("\uFEFF\"Set\"\tLabel\tx1\ntest\ta\t1\n"), true},
		{"label first", []byte("label,set\na,1\n"), false},
		{"empty", nil, false},
	} {
		if got := LooksLikeEmbeddings(tc.head); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The summary line says how embeddings were scored; the direction line
// says the metric sets the direction.
func TestScoringLine(t *testing.T) {
	st := NewState()
	st.Summary = &protocol.Summary{N: 20000, K: 10000, MinPoints: 2, MaxPoints: 2, Direction: "lower", Top1: 0.5,
		Embedding: protocol.Embedding{Metric: "euclidean", Reference: "centroid", RefSet: "train", Dim: 128, References: 50000}}
	want := "20,000 points, 10,000 classes (2 per class); top-1 accuracy at 10,000 classes: 0.500; test embeddings (d = 128) scored by Euclidean distance to 10,000 class centroids (of 50,000 training embeddings)"
	if got := st.SummaryLine(); got != want {
		t.Errorf("summary line %q\nwant %q", got, want)
	}
	if !st.IsEmbeddings() || !strings.Contains(st.DirectionLine(), "as the metric makes them") {
		t.Errorf("direction line %q", st.DirectionLine())
	}
	for _, tc := range []struct {
		e    protocol.Embedding
		want string
	}{
		{protocol.Embedding{Metric: "cosine", Reference: "1nn", RefSet: "gallery", Dim: 3, References: 40}, "test embeddings (d = 3) scored by cosine similarity to the nearest of each class's gallery embeddings (1-NN; 40 of them)"},
		{protocol.Embedding{Metric: "euclidean", Reference: "oneshot", RefSet: "gallery", Dim: 3, References: 4}, "test embeddings (d = 3) scored by Euclidean distance to the one gallery embedding of each class"},
		{protocol.Embedding{}, ""},
	} {
		if got := ScoringLine(tc.e, 4); got != tc.want {
			t.Errorf("ScoringLine(%+v) = %q, want %q", tc.e, got, tc.want)
		}
	}
	st.Summary.Embedding = protocol.Embedding{}
	if st.IsEmbeddings() || strings.Contains(st.SummaryLine(), "embeddings") {
		t.Error("scores described as embeddings")
	}
}

func TestPrepareBusy(t *testing.T) {
	for _, tc := range []struct {
		stage       string
		done, total int
		want        string
	}{
		{"reading", 42, 100, "Reading big.csv… 42%"},
		{"summarising", 10, 20, "Summarising big.csv… 50%"},
		{"reading", 5, 0, "Reading big.csv…"},
	} {
		if got := PrepareBusy("big.csv", tc.stage, tc.done, tc.total); got != tc.want {
			t.Errorf("PrepareBusy(%q, %d, %d) = %q, want %q", tc.stage, tc.done, tc.total, got, tc.want)
		}
	}
}

// The direction line says when the scores were read as the logarithms of
// class probabilities, with auto and with a direction set, and names the
// higher-is-better direction as the command line does (similarities,
// logits or probabilities), not as similarities only.
func TestDirectionLineProbabilities(t *testing.T) {
	st := NewState()
	st.Summary = &protocol.Summary{N: 10, K: 5, MinPoints: 2, MaxPoints: 2, Direction: "higher", Detected: "higher", LogProbabilities: true, ScoresNote: scores.ProbabilitiesNote}
	for _, dir := range []string{"auto", "higher"} {
		st.Direction = dir
		got := st.DirectionLine()
		if !strings.HasPrefix(got, "Scores: higher is better (similarities, logits or probabilities), ") || !strings.Contains(got, "These scores are class probabilities (every row sums to 1, up to rounding), so every method reads their logarithms") || !strings.HasSuffix(got, ".") {
			t.Errorf("%s: direction line %q", dir, got)
		}
	}
	st.Summary.LogProbabilities, st.Summary.ScoresNote = false, ""
	if got := st.DirectionLine(); strings.Contains(got, "class probabilities") {
		t.Errorf("direction line %q speaks of class probabilities", got)
	}
	st.Summary.ScoresNote = "these scores look like class probabilities, but row 5 sums to 1.5, not 1, so they are read as they are"
	if got := st.DirectionLine(); !strings.HasSuffix(got, " These scores look like class probabilities, but row 5 sums to 1.5, not 1, so they are read as they are.") {
		t.Errorf("direction line with a near miss %q", got)
	}
}

// Under the chart: the readout when there is one, else, once there are
// results, how to get one; nothing before. Only the readout is in the live
// region, so the hint is not announced again after every run.
func TestHoverHint(t *testing.T) {
	st := NewState()
	if got := st.HoverHint(); got != "" {
		t.Errorf("before any result: %q", got)
	}
	st.Results.Methods = []report.Method{{Name: "plugin"}}
	if got := st.HoverHint(); !strings.HasPrefix(got, "Point at or tap the chart, or Tab to it") {
		t.Errorf("with results: %q", got)
	}
	live := func() string {
		html := render(t, st)
		i := strings.Index(html, `id="hover-readout"`)
		if i < 0 {
			t.Fatal("no live region for the chart's readout")
		}
		return html[i : i+strings.Index(html[i:], "</span>")]
	}
	if got := live(); !strings.Contains(got, `aria-live="polite"`) || strings.Contains(got, "Point at") {
		t.Errorf("the live region with results and no readout: %q", got)
	}
	st.Hover = "k = 20 · plug-in 0.9000"
	if got := st.HoverHint(); got != "" {
		t.Errorf("with a readout: %q", got)
	}
	if got := live(); !strings.HasSuffix(got, st.Hover) {
		t.Errorf("the live region with a readout: %q", got)
	}
}

// A direction set against auto's pick under which the true class loses
// most pairs says it is probably wrong; one that does not, does not.
func TestDirectionLineWrongDirection(t *testing.T) {
	st := NewState()
	st.Direction = "lower"
	st.Summary = &protocol.Summary{N: 10, K: 5, MinPoints: 2, MaxPoints: 2, Direction: "lower", Detected: "higher", Observed: []float64{1, 1, 0.05, 0.01, 0, 0}}
	if got := st.DirectionLine(); !strings.Contains(got, "auto would pick higher") || !strings.Contains(got, "only 5% of the time, less than a coin toss: this is probably the wrong direction") {
		t.Errorf("direction line %q", got)
	}
	st.Summary.Observed = []float64{1, 1, 0.55, 0.4, 0.3, 0.2}
	if got := st.DirectionLine(); strings.Contains(got, "coin toss") {
		t.Errorf("direction line %q warns at 0.55", got)
	}
}

// A direction chosen while a simulation is on screen is refused with why,
// and the selector goes back to auto, the setting a simulation is read
// with (SimDirection): the line beside it then says what was done, not
// "as you set it", and the next file is not read under the refused setting.
func TestSimDirectionRefused(t *testing.T) {
	st := NewState()
	st.Summary = &protocol.Summary{N: 1000, K: 100, MinPoints: 10, MaxPoints: 10, Direction: "lower", Detected: "lower"}
	st.Direction = "higher"
	st.RefuseSimDirection()
	if st.Direction != SimDirection {
		t.Errorf("after the refusal the selector holds %q, want %q", st.Direction, SimDirection)
	}
	if !strings.Contains(st.Error, "simulated scores are distances") {
		t.Errorf("refusal message %q", st.Error)
	}
	if got := st.DirectionLine(); got != "Scores: lower is better (distances), detected automatically." {
		t.Errorf("direction line after the refusal %q", got)
	}
}
