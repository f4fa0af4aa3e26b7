package main

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/detmath"
	"github.com/cleanex/cleanex/internal/scores"
)

// simulatedProbabilities simulates a pilot of 20 classes from a world of k
// (the simulate command, d = 3, r = 5, with seed) and returns its CSV of
// distances and the class probabilities softmax(-4 distance) of its scores.
func simulatedProbabilities(t *testing.T, k, seed string) (string, *scores.Matrix) {
	t.Helper()
	code, pilot, errs := cli(t, "", "simulate", "--d", "3", "--sigma2", "0.1", "--k", k, "--r", "5", "--seed", seed, "--k1", "20")
	if code != 0 {
		t.Fatalf("simulate: status %d: %s", code, errs)
	}
	m, err := scores.Parse(strings.NewReader(pilot))
	if err != nil {
		t.Fatal(err)
	}
	return pilot, scores.Softmax(m, -4) // logits: minus four times the distance
}

// csvText is m written as a CSV score matrix.
func csvText(t *testing.T, m *scores.Matrix) string {
	t.Helper()
	var b bytes.Buffer
	if err := scores.WriteCSV(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// predictsAsRead runs `cleanex args` on given and on read, the scores the
// product reads given as: both succeed, stderr says note for given and not
// for read, and the two predictions are the same; it returns given's.
func predictsAsRead(t *testing.T, args []string, given, read *scores.Matrix, note string) string {
	t.Helper()
	code, fromGiven, errs := cli(t, csvText(t, given), args...)
	if code != 0 || !strings.Contains(errs, note) {
		t.Fatalf("predict on the scores given: status %d, stderr %q lacks %q", code, errs, note)
	}
	code, fromRead, errsRead := cli(t, csvText(t, read), args...)
	if code != 0 || strings.Contains(errsRead, note) {
		t.Fatalf("predict on the scores as read: status %d: %s", code, errsRead)
	}
	if fromGiven != fromRead {
		t.Error("the scores given and the scores as read give different predictions")
	}
	return fromGiven
}

// A pilot given as softmax probabilities is predicted exactly as the same
// pilot given as the probabilities' logarithms, and stderr says how the
// scores were read; its observed column is the distances' from which the
// probabilities were made.
func TestPredictProbabilities(t *testing.T) {
	pilot, probs := simulatedProbabilities(t, "80", "3")
	logs := *probs
	logs.Scores = make([]float64, len(probs.Scores))
	for i, p := range probs.Scores {
		logs.Scores[i] = detmath.Log(p) // the product's logarithm
	}
	args := []string{"predict", "--k2", "80", "--methods", "plugin,kde,regression,cleanex"}
	_, fromDistances, _ := cli(t, pilot, append(args, "-")...)
	fromProbs := predictsAsRead(t, append(args, "-"), probs, &logs, scores.ProbabilitiesNote)
	a, b := readCSV(t, fromProbs), readCSV(t, fromDistances)
	for i := range a {
		if a[i][1] != b[i][1] {
			t.Fatalf("k = %s: observed %q from probabilities, %q from distances", a[i][0], a[i][1], b[i][1])
		}
	}
}

// Probabilities one of whose rows does not sum to 1 are read as their
// log-odds (as they are when a probability is exactly 0), and stderr names
// that row.
func TestPredictProbabilitiesNearMiss(t *testing.T) {
	for _, tc := range []struct {
		name string
		zero bool
		read string
	}{
		{"strictly between 0 and 1", false, "so every method reads their log-odds"},
		{"one probability exactly 0", true, "so they are read as they are"},
	} {
		_, probs := simulatedProbabilities(t, "60", "4")
		for j := range probs.Row(6) {
			probs.Row(6)[j] /= 2 // the 7th point's row (row 8 of the file) sums to 0.5
		}
		if tc.zero {
			probs.Row(0)[1], probs.Row(0)[2] = 0, probs.Row(0)[2]+probs.Row(0)[1]
		}
		code, _, errs := cli(t, csvText(t, probs), "predict", "--k2", "60", "--methods", "plugin", "-")
		if code != 0 || !strings.Contains(errs, "these scores look like class probabilities, but row 8 of the file (the header is row 1) sums to 0.5, not 1, "+tc.read) {
			t.Errorf("%s: status %d, stderr %q", tc.name, code, errs)
		}
	}
}

// A pilot given as the probabilities of one-vs-rest classifiers, sigma(z),
// is predicted exactly as the same pilot given as the logits z, and stderr
// says the scores were read as log-odds.
func TestPredictOneVsRestProbabilities(t *testing.T) {
	pilot, _ := simulatedProbabilities(t, "80", "5")
	m, err := scores.Parse(strings.NewReader(pilot))
	if err != nil {
		t.Fatal(err)
	}
	logits, probs := *m, *m
	logits.Scores, probs.Scores = make([]float64, len(m.Scores)), make([]float64, len(m.Scores))
	for i, d := range m.Scores {
		z := 2 - 4*d // minus four times the distance, shifted so that some probabilities pass 1/2
		probs.Scores[i] = 1 / (1 + detmath.Exp(-z))
		logits.Scores[i] = detmath.Log(probs.Scores[i]) - detmath.Log(1-probs.Scores[i]) // the product's log-odds
	}
	args := []string{"predict", "--k2", "80", "--methods", "plugin,kde,pooled,tail,regression,cleanex", "-"}
	predictsAsRead(t, args, &probs, &logits, scores.LogOddsNote)
}

// A pilot given as the probabilities of one-vs-rest classifiers that give
// no point more than 1/2, sigma(z) with every z <= 0 and rows spanning many
// orders of magnitude, is predicted exactly as the same pilot given as
// their logarithms, and as the probabilities times 2^-10 (KDE and the
// interval within a tolerance); stderr says they were read as logarithms.
func TestPredictLowOneVsRestProbabilities(t *testing.T) {
	pilot, _ := simulatedProbabilities(t, "80", "5")
	m, err := scores.Parse(strings.NewReader(pilot))
	if err != nil {
		t.Fatal(err)
	}
	probs, logs, small := *m, *m, *m
	probs.Scores, logs.Scores, small.Scores = make([]float64, len(m.Scores)), make([]float64, len(m.Scores)), make([]float64, len(m.Scores))
	for i, d := range m.Scores {
		z := -4*d - 1 // minus four times the distance, minus 1: no z above 0
		probs.Scores[i] = 1 / (1 + detmath.Exp(-z))
		logs.Scores[i] = detmath.Log(probs.Scores[i]) // the product's logarithm
		small.Scores[i] = math.Ldexp(probs.Scores[i], -10)
	}
	if c := probs.CheckProbabilities(); c.LnMap() == nil {
		t.Fatalf("the probabilities are not read as logarithms: %+v", c)
	}
	args := []string{"predict", "--k2", "80", "--methods", "plugin,kde,pooled,tail,regression,cleanex", "-"}
	fromProbs := predictsAsRead(t, args, &probs, &logs, scores.LnNote)
	code, fromSmall, _ := cli(t, csvText(t, &small), args...)
	if code != 0 {
		t.Fatalf("predict on the probabilities times 2^-10: status %d", code)
	}
	sameUpToShift(t, "times 2^-10", fromSmall, fromProbs)
}

// Class probabilities in percent are read as their logarithms, ln(100 p) =
// ln p + ln 100, and predicted as the probabilities themselves are (read as
// ln p), within KDE's tolerance.
func TestPredictPercentProbabilities(t *testing.T) {
	_, probs := simulatedProbabilities(t, "80", "4")
	pct := *probs
	pct.Scores = make([]float64, len(probs.Scores))
	for i, p := range probs.Scores {
		pct.Scores[i] = 100 * p
	}
	args := []string{"predict", "--k2", "80", "--methods", "plugin,kde,pooled,tail,regression,cleanex", "-"}
	code, fromProbs, errs := cli(t, csvText(t, probs), args...)
	if code != 0 || !strings.Contains(errs, scores.ProbabilitiesNote) {
		t.Fatalf("predict on the probabilities: status %d, stderr %q", code, errs)
	}
	code, fromPct, errs := cli(t, csvText(t, &pct), args...)
	if code != 0 || !strings.Contains(errs, scores.LnNote) {
		t.Fatalf("predict on the percentages: status %d, stderr %q", code, errs)
	}
	sameUpToShift(t, "in percent", fromPct, fromProbs)
}

// sameUpToShift checks that two predictions of one pilot whose scores were
// read one shifted from the other are the same: every column but KDE's,
// whose bandwidth search stops within an absolute tolerance on scores
// standardised by their largest magnitude, which a shift changes (within
// 5e-4), and the interval's, which counts KDE's curve in the methods' range
// (within 1e-5).
func sameUpToShift(t *testing.T, what, got, want string) {
	t.Helper()
	a, b := strings.Split(strings.TrimSpace(got), "\n"), strings.Split(strings.TrimSpace(want), "\n")
	if len(a) != len(b) || a[0] != b[0] {
		t.Fatalf("%s: %d rows, header %q; want %d, %q", what, len(a), a[0], len(b), b[0])
	}
	header := strings.Split(a[0], ",")
	for i := 1; i < len(a); i++ {
		x, y := strings.Split(a[i], ","), strings.Split(b[i], ",")
		for j, col := range header {
			if tol := map[string]float64{"kde": 5e-4, "estimate_lo": 1e-5, "estimate_hi": 1e-5}[col]; tol > 0 {
				u, err1 := strconv.ParseFloat(x[j], 64)
				v, err2 := strconv.ParseFloat(y[j], 64)
				if err1 != nil || err2 != nil || math.Abs(u-v) > tol {
					t.Errorf("%s, row %d: %s %s, want %s within %g", what, i, col, x[j], y[j], tol)
				}
			} else if x[j] != y[j] {
				t.Errorf("%s, row %d: %s %s, want %s", what, i, col, x[j], y[j])
			}
		}
	}
}

// A pilot whose scores tie often gets a note on stderr saying that ties
// count as errors; a run with no ties says nothing about them.
func TestPredictTiesNote(t *testing.T) {
	tied := "label,a,b,c,d\na,2,2,0,1\na,3,1,0,0\nb,1,2,2,0\nb,0,3,1,1\nc,1,0,2,0\nc,0,1,3,1\nd,1,1,0,1\nd,0,0,1,2\n"
	code, _, errs := cli(t, tied, "predict", "--k2", "8", "--methods", "plugin", "--estimate=false", "-")
	if code != 0 || !strings.Contains(errs, "38% of your test points score their true class exactly as high as a wrong class") {
		t.Errorf("status %d, stderr %q", code, errs)
	}
	if _, _, errs := cli(t, small, "predict", "--k2", "6", "--methods", "plugin", "--estimate=false", "-"); strings.Contains(errs, "exactly as high") {
		t.Errorf("no ties, stderr %q", errs)
	}
}

// With --direction auto the command line says which direction it picked for
// a score matrix, and how to choose the other; a given direction is not
// repeated back.
func TestPredictPickedDirection(t *testing.T) {
	dist := "label,a,b,c\na,0.1,0.9,0.8\nb,0.7,0.2,0.9\nc,0.8,0.6,0.1\na,0.2,0.5,0.9\n"
	code, _, errs := cli(t, dist, "predict", "--k2", "6", "--methods", "plugin", "--estimate=false", "-")
	if code != 0 || !strings.Contains(errs, "scores read as lower is better (distances)") || !strings.Contains(errs, "--direction higher") {
		t.Errorf("auto: status %d, stderr %q", code, errs)
	}
	if _, _, errs := cli(t, dist, "predict", "--k2", "6", "--direction", "lower", "--methods", "plugin", "--estimate=false", "-"); strings.Contains(errs, "scores read as") {
		t.Errorf("--direction lower: stderr %q", errs)
	}
}

// A --truth file that stops before k2 is named, with where the truth column
// is empty.
func TestPredictShortTruth(t *testing.T) {
	truth := writeFile(t, "truth.csv", "k,truth\n2,0.9\n3,0.8\n")
	code, out, errs := cli(t, small, "predict", "--k2", "6", "--truth", truth, "--methods", "plugin", "--estimate=false", "-")
	if code != 0 || !strings.Contains(errs, "gives the truth up to k = 3 only, so the truth column is empty from k = 4 to 6") || !strings.Contains(out, "3,") {
		t.Errorf("status %d, stderr %q", code, errs)
	}
}

// summarise says on stderr how it read the scores, as predict does: the
// direction auto picked, and probabilities read as their logarithms.
func TestSummariseSaysHowScoresWereRead(t *testing.T) {
	pilot, probs := simulatedProbabilities(t, "40", "5")
	pb := csvText(t, probs)
	for _, c := range []struct {
		name, input string
		args        []string
		want, not   string
	}{
		{"distances, auto", pilot, nil, "scores read as lower is better (distances)", scores.ProbabilitiesNote},
		{"distances, lower", pilot, []string{"--direction", "lower"}, "", "--direction auto"},
		{"probabilities", pb, []string{"--direction", "higher"}, scores.ProbabilitiesNote, "--direction auto"},
	} {
		code, out, errs := cli(t, c.input, append(append([]string{"summarise"}, c.args...), "-")...)
		if code != 0 || !strings.HasPrefix(out, "label,") && !strings.Contains(strings.SplitN(out, "\n", 2)[0], "correct") {
			t.Fatalf("%s: exit %d, stderr %q", c.name, code, errs)
		}
		if c.want != "" && !strings.Contains(errs, "cleanex summarise: "+c.want) {
			t.Errorf("%s: stderr %q, want it to contain %q", c.name, errs, c.want)
		}
		if c.want == "" && errs != "" || strings.Contains(errs, c.not) {
			t.Errorf("%s: stderr %q", c.name, errs)
		}
	}
}
