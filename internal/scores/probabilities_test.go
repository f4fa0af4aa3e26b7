package scores

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// softmaxRows returns the row-wise softmax of z (rows of k).
func softmaxRows(z []float64, k int) []float64 {
	p := make([]float64, len(z))
	for i := 0; i < len(z); i += k {
		mx := math.Inf(-1)
		for _, v := range z[i : i+k] {
			mx = math.Max(mx, v)
		}
		sum := 0.0
		for j, v := range z[i : i+k] {
			p[i+j] = math.Exp(v - mx)
			sum += p[i+j]
		}
		for j := range z[i : i+k] {
			p[i+j] /= sum
		}
	}
	return p
}

// logOf is m's log map and whether m holds probabilities
// (CheckProbabilities, LogMap).
func logOf(m *Matrix) (func(float64) float64, bool) {
	c := m.CheckProbabilities()
	return c.LogMap(), c.Probabilities
}

func TestProbabilitiesDetected(t *testing.T) {
	logits := []float64{2, -1, 0.5, -3, 0, 4, 1, 1, -2}
	probs := softmaxRows(logits, 3)
	tests := []struct {
		name   string
		scores []float64
		want   bool
	}{
		{"softmax rows", probs, true},
		{"rounded to two decimals", []float64{0.70, 0.05, 0.25, 0.01, 0.02, 0.97, 0.49, 0.49, 0.02}, true},
		{"one-hot rows with zeros", []float64{1, 0, 0, 0, 1, 0, 0.5, 0.5, 0}, true},
		{"logits", logits, false},
		{"two decimals, rows summing to 0.99 and 1.01", []float64{0.70, 0.05, 0.24, 0.01, 0.02, 0.97, 0.50, 0.49, 0.02}, true},
		{"a row summing to 0.95", []float64{0.70, 0.05, 0.20, 0.01, 0.02, 0.97, 0.49, 0.49, 0.02}, false},
		{"a score above 1 in a row summing to 1", []float64{1.2, -0.1, -0.1, 0.01, 0.02, 0.97, 0.49, 0.49, 0.02}, false},
		{"similarities in [0, 1]", []float64{0.9, 0.3, 0.4, 0.2, 0.8, 0.1, 0.5, 0.6, 0.3}, false},
		{"not a number", []float64{math.NaN(), 0.5, 0.5, 0.01, 0.02, 0.97, 0.49, 0.49, 0.02}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1, 2}, Scores: tc.scores}
			f, ok := logOf(m)
			if ok != tc.want {
				t.Fatalf("probabilities = %v, want %v", ok, tc.want)
			}
			if ok != (f != nil) {
				t.Fatalf("map %v with ok = %v", f != nil, ok)
			}
		})
	}
}

// ln of softmax probabilities gives back the logits' gaps within a row
// (ln softmax(z)_j - ln softmax(z)_i = z_j - z_i); a 0 goes below every
// positive score, and equal scores stay equal.
func TestLogMap(t *testing.T) {
	logits := []float64{2, -1, 0.5, -3, 0, 4, 1, 1, -2}
	m := &Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1, 2}, Scores: softmaxRows(logits, 3)}
	f, ok := logOf(m)
	if !ok {
		t.Fatal("softmax rows not recognised")
	}
	for i := range 3 {
		row := m.Row(i)
		for j := 1; j < 3; j++ {
			got := f(row[j]) - f(row[0])
			want := logits[3*i+j] - logits[3*i]
			if math.Abs(got-want) > 1e-12 {
				t.Errorf("row %d: gap %d-0 = %v, want %v", i, j, got, want)
			}
		}
	}
	z := &Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1, 2}, Scores: []float64{1, 0, 0, 0.25, 0.75, 0, 0.5, 0.5, 0}}
	g, ok := logOf(z)
	if !ok {
		t.Fatal("rows with zeros not recognised")
	}
	if math.Abs(g(0)-math.Log(0.125)) > 1e-15 || math.Abs(g(0.25)-math.Log(0.25)) > 1e-15 || g(1) != 0 {
		t.Errorf("ln of 0, 0.25, 1 = %v, %v, %v: want ln(0.25 / 2) = %v, %v, 0", g(0), g(0.25), g(1), math.Log(0.125), math.Log(0.25))
	}
}

// A probability of 0 beside the smallest subnormal float64 (as a float64
// softmax gives for logits about 745 apart) maps to a finite score below
// every other one: ln(p_min / 2) would be ln 0 = -Inf.
func TestLogMapSubnormal(t *testing.T) {
	tiny := math.SmallestNonzeroFloat64
	m := &Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1, 2}, Scores: []float64{1, tiny, 0, 0.2, 0.7, 0.1, 0.1, 0.3, 0.6}}
	f, ok := logOf(m)
	if !ok {
		t.Fatal("rows summing to 1 not recognised as probabilities")
	}
	zero, low := f(0), f(tiny)
	if math.IsInf(zero, 0) || math.IsNaN(zero) || !(zero < low) {
		t.Errorf("ln of 0 = %v, ln of %v = %v: want a finite score below the second", zero, tiny, low)
	}
	// p_min = 2^-1074, so ln(p_min) - ln 2 = -1075 ln 2.
	if want := -1075 * math.Ln2; math.Abs(zero-want) > 1e-9 {
		t.Errorf("ln of 0 = %v, want ln(p_min) - ln 2 = %v", zero, want)
	}
}

// Softmax matches the row-wise softmax written out above and leaves its
// input alone; its rows are recognised as probabilities.
func TestSoftmax(t *testing.T) {
	logits := []float64{2, -1, 0.5, -3, 0, 4, 1, 1, -2}
	m := &Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1, 2}, Scores: append([]float64(nil), logits...)}
	got := Softmax(m, -2)
	halved := make([]float64, len(logits))
	for i, v := range logits {
		halved[i] = -2 * v
	}
	want := softmaxRows(halved, 3)
	for i := range want {
		if math.Abs(got.Scores[i]-want[i]) > 1e-15 || m.Scores[i] != logits[i] {
			t.Fatalf("score %d: %v, want %v (input now %v)", i, got.Scores[i], want[i], m.Scores[i])
		}
	}
	if _, ok := logOf(got); !ok {
		t.Error("Softmax rows are not recognised as probabilities")
	}
}

// The tolerance follows the scores' rounding (four standard deviations of
// K rounding errors, at least 0.01, at most 0.1); a file whose rows nearly
// all sum to 1 gets a note naming the first row that does not.
func TestCheckProbabilities(t *testing.T) {
	const k, n = 50, 40
	rng := rand.New(rand.NewPCG(1, 2))
	m := &Matrix{Classes: make([]string, k), Labels: make([]int, n), Scores: make([]float64, n*k)}
	for i := range n {
		// 0.02 each, then a hundredth moved between random pairs of classes:
		// two decimals, summing to 1.
		row := m.Row(i)
		cents := make([]int, k)
		for j := range cents {
			cents[j] = 2
		}
		for range 30 {
			a, b := rng.IntN(k), rng.IntN(k)
			if cents[a] > 0 {
				cents[a]--
				cents[b]++
			}
		}
		for j, c := range cents {
			row[j] = float64(c) / 100
		}
	}
	c := m.CheckProbabilities()
	if want := 4 * 0.01 * math.Sqrt(k/12.0); math.Abs(c.Tolerance-want) > 1e-12 || !c.InUnit {
		t.Errorf("tolerance %v, want %v (in [0, 1]: %v)", c.Tolerance, want, c.InUnit)
	}
	if c := m.CheckProbabilities(); !c.Probabilities || c.NearMiss(n) != "" {
		t.Fatalf("rows summing to 1: %+v, note %q", c, c.NearMiss(n))
	}
	m.Row(3)[1] += 0.5
	m.Row(7)[2] += 0.5
	c = m.CheckProbabilities()
	note := c.NearMiss(n)
	if c.Probabilities || c.Off != 2 || c.FirstOff != 5 || !strings.Contains(note, "row 5 of the file (the header is row 1) sums to 1.5") || !strings.Contains(note, "(and 1 other rows)") {
		t.Errorf("two rows off: %+v, note %q", c, note)
	}
	for i := range 10 { // a quarter of the rows off: no note
		m.Row(10 + i)[0] += 0.5
	}
	if note := m.CheckProbabilities().NearMiss(n); note != "" {
		t.Errorf("many rows off: note %q", note)
	}
	one := &Matrix{Classes: make([]string, 100), Labels: []int{0}, Scores: make([]float64, 100)}
	one.Scores[0] = 0.5
	if c := one.CheckProbabilities(); c.Tolerance != MaxProbabilitySumTolerance {
		t.Errorf("one decimal, 100 classes: tolerance %v, want the cap %v", c.Tolerance, MaxProbabilitySumTolerance)
	}
}

// LogOddsMap reads scores that look like probabilities whose rows do not sum
// to 1 (strictly between 0 and 1, at least one above 1/2, at least half
// below 0.1) as their log-odds, and nothing else: not class probabilities,
// not scores that reach 0 or 1, not scores that all lie at or below 1/2
// (such as similarities rescaled by 1e-6), not scores spread over the middle.
func TestLogOddsMap(t *testing.T) {
	// sigmoid(z) of a pilot of 3 points and 4 classes whose wrong classes
	// mostly score far below 0.
	z := []float64{3, -4, -5, -2.5, -6, 2, -3, -4, -3.5, -4.5, 1, -5}
	sigmoid := func(f func(float64) float64) *Matrix {
		m := &Matrix{Classes: []string{"a", "b", "c", "d"}, Labels: []int{0, 1, 2}, Scores: make([]float64, len(z))}
		for i, v := range z {
			m.Scores[i] = f(1 / (1 + math.Exp(-v)))
		}
		return m
	}
	same := func(p float64) float64 { return p }
	withZero := sigmoid(same)
	withZero.Scores[2] = 0
	normalised := Softmax(&Matrix{Classes: []string{"a", "b", "c", "d"}, Labels: []int{0, 1, 2}, Scores: z}, 1)
	for _, tc := range []struct {
		name string
		m    *Matrix
		want bool
	}{
		{"one-vs-rest probabilities", sigmoid(same), true},
		{"one probability exactly 0", withZero, false},
		{"class probabilities (rows sum to 1)", normalised, false},
		{"rescaled by 1e-6", sigmoid(func(p float64) float64 { return p * 1e-6 }), false},
		{"spread over the middle", sigmoid(func(p float64) float64 { return 0.3 + 0.6*p }), false},
	} {
		c := tc.m.CheckProbabilities()
		odds := c.LogOddsMap()
		if (odds != nil) != tc.want {
			t.Errorf("%s: log-odds %v, want %v (%+v)", tc.name, odds != nil, tc.want, c)
			continue
		}
		if note := c.Note(tc.m.N()); (note == LogOddsNote) != tc.want {
			t.Errorf("%s: note %q", tc.name, note)
		}
		if odds == nil {
			continue
		}
		for i, p := range tc.m.Scores {
			if got := odds(p); math.Abs(got-z[i]) > 1e-9 {
				t.Errorf("%s: log-odds of sigmoid(%v) = %v", tc.name, z[i], got)
			}
		}
	}
}

// Partial flags scores that may be class probabilities over more classes
// than the file holds (all in (0, 1), most below 0.1, none above 1/2, rows
// summing to less than 1): read as their logarithms, with LnNote, when a
// typical row spans WideDecades orders of magnitude or more, as they are
// with PartialNote otherwise.
func TestPartial(t *testing.T) {
	z := []float64{3, -4, -5, -2.5, -6, 2, -3, -4, -3.5, -4.5, 1, -5, 0.5, -6, -7, -4.2}
	logits := &Matrix{Classes: []string{"a", "b", "c", "d"}, Labels: []int{0, 1, 2, 3}, Scores: z}
	soft := Softmax(logits, 1)
	scaled := func(m *Matrix, f float64) *Matrix {
		out := &Matrix{Classes: m.Classes, Labels: m.Labels, Scores: slices.Clone(m.Scores)}
		for i := range out.Scores {
			out.Scores[i] *= f
		}
		return out
	}
	// similarities of one order of magnitude, made small: each row spans
	// less than a factor of 10
	sims := &Matrix{Classes: logits.Classes, Labels: logits.Labels,
		Scores: []float64{0.09, 0.02, 0.03, 0.05, 0.02, 0.08, 0.04, 0.03, 0.03, 0.05, 0.07, 0.02, 0.06, 0.01, 0.02, 0.04}}
	for _, tc := range []struct {
		name    string
		m       *Matrix
		partial bool
		note    string
	}{
		{"class probabilities", soft, false, ProbabilitiesNote},
		{"over twice the classes (rows sum to 0.4, each spanning 3 decades or more)", scaled(soft, 0.4), true, LnNote},
		{"small similarities (rows spanning less than a decade)", sims, true, PartialNote},
		{"rows summing to 0.995 (within the tolerance)", scaled(soft, 0.995), false, ProbabilitiesNote},
		{"a score above 1/2 (read as log-odds)", scaled(soft, 0.9), false, LogOddsNote},
	} {
		c := tc.m.CheckProbabilities()
		if c.Partial() != tc.partial || c.Note(tc.m.N()) != tc.note || (c.LnMap() != nil) != (tc.note == LnNote) {
			t.Errorf("%s: partial %v, reads ln %v, note %q; want %v, note %q (%+v)", tc.name, c.Partial(), c.LnMap() != nil, c.Note(tc.m.N()), tc.partial, tc.note, c)
		}
	}
}

// LnMap is unchanged by a common factor: probabilities over more classes
// (rows summing to 0.4), multiplied by 1e-6, 1/64, 250 (rows summing to
// 100, as percentages do) or 2.5e6, are read as their logarithms all the
// same (each read score moved by the factor's logarithm), and similarities
// whose rows span little stay read as they are at every such scale; the
// map is ln.
func TestLnMapScaleFree(t *testing.T) {
	z := []float64{3, -4, -5, -2.5, -6, 2, -3, -4, -3.5, -4.5, 1, -5, 0.5, -6, -7, -4.2}
	soft := Softmax(&Matrix{Classes: []string{"a", "b", "c", "d"}, Labels: []int{0, 1, 2, 3}, Scores: z}, 1)
	times := func(f float64) *Matrix {
		out := &Matrix{Classes: soft.Classes, Labels: soft.Labels, Scores: slices.Clone(soft.Scores)}
		for i := range out.Scores {
			out.Scores[i] *= f
		}
		return out
	}
	base := times(0.4).CheckProbabilities().LnMap()
	if base == nil {
		t.Fatal("rows summing to 0.4 are not read as logarithms")
	}
	for _, f := range []float64{1e-6, 1.0 / 64, 250, 2.5e6} {
		m := times(0.4 * f)
		ln := m.CheckProbabilities().LnMap()
		if ln == nil {
			t.Fatalf("times %g: not read as logarithms", f)
		}
		for i, p := range m.Scores {
			want := base(soft.Scores[i]*0.4) + math.Log(f)
			if got := ln(p); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Fatalf("times %g, score %d: ln read %v, want %v", f, i, got, want)
			}
			if got, want := ln(p), math.Log(p); got != want && math.Abs(got-want) > 1e-15*math.Abs(want) {
				t.Fatalf("the map is not ln: %v against %v", got, want)
			}
		}
	}
	sims := &Matrix{Classes: soft.Classes, Labels: soft.Labels,
		Scores: []float64{0.9, 0.2, 0.3, 0.5, 0.2, 0.8, 0.4, 0.3, 0.3, 0.5, 0.7, 0.2, 0.6, 0.1, 0.2, 0.4}}
	for _, f := range []float64{1, 0.1, 1e-6, 100, 1e6} {
		m := &Matrix{Classes: sims.Classes, Labels: sims.Labels, Scores: slices.Clone(sims.Scores)}
		for i := range m.Scores {
			m.Scores[i] *= f
		}
		if c := m.CheckProbabilities(); c.LnMap() != nil || c.LogOddsMap() != nil || c.LogMap() != nil {
			t.Errorf("similarities times %g are not read as they are: %+v", f, c)
		}
	}
}

// One-vs-rest probabilities σ(z) of a model that gives no point more than
// 1/2 (a real one-vs-rest network over 1,500 glyph classes did so on 98.5%
// of its test points, docs/real-classifier-check.md) meet Partial's
// conditions: the note read beside them names that case and asks for the
// logits, not only for class probabilities over more classes.
func TestPartialNoteOneVsRest(t *testing.T) {
	z := []float64{-0.4, -4, -5, -2.5, -6, -0.9, -3, -4, -3.5, -4.5, -0.2, -5, -1.5, -6, -7, -0.3}
	m := &Matrix{Classes: []string{"a", "b", "c", "d"}, Labels: []int{0, 1, 2, 3}, Scores: slices.Clone(z)}
	for i, v := range m.Scores {
		m.Scores[i] = 1 / (1 + math.Exp(-v))
	}
	c := m.CheckProbabilities()
	if !c.Partial() {
		t.Fatalf("sigmoids of negative logits are not Partial: %+v", c)
	}
	note := c.Note(m.N())
	for _, want := range []string{"one-vs-rest", "none above 1/2", "logits", "read as they are"} {
		if !strings.Contains(note, want) {
			t.Errorf("the note %q does not say %q", note, want)
		}
	}
}

// One-vs-rest probabilities of a model that gives no point more than 1/2
// need not sum to less than 1 over the file's classes: rows summing to 1.2
// that span more than WideDecades are read as their logarithms all the
// same, though Partial (which asks for sums below 1) does not hold.
func TestLnMapOneVsRestOverOne(t *testing.T) {
	m := &Matrix{Classes: []string{"a", "b", "c", "d", "e", "f"}, Labels: []int{0, 1, 2}, Scores: []float64{
		0.45, 0.4, 0.3, 0.05, 0.0002, 0.0001,
		0.35, 0.44, 0.05, 0.3, 0.0001, 0.06,
		0.002, 0.0001, 0.48, 0.4, 0.3, 0.02}}
	c := m.CheckProbabilities()
	if c.Partial() || c.LnMap() == nil || c.Note(m.N()) != LnNote {
		t.Errorf("partial %v, reads ln %v, note %q; want not partial, ln, LnNote (%+v)", c.Partial(), c.LnMap() != nil, c.Note(m.N()), c)
	}
}

// Class probabilities one of whose rows does not sum to 1 are not class
// probabilities; with none above 1/2 they are not read as log-odds either,
// but their rows span more than WideDecades: they are read as their
// logarithms, and the near-miss note names the row and says so.
func TestNearMissReadAsLogarithms(t *testing.T) {
	const k, n = 8, 10
	logits := []float64{1, 1, -3, -4, -5, -6, -7, -8}
	m := &Matrix{Classes: []string{"a", "b", "c", "d", "e", "f", "g", "h"}}
	for i := range n {
		m.Labels = append(m.Labels, i%k)
		for j := range k {
			m.Scores = append(m.Scores, logits[(j-i%k+k)%k]) // the row's class gets a top logit
		}
	}
	m = Softmax(m, 1)
	for j := range k {
		m.Scores[4*k+j] *= 0.95 // the fifth row sums to 0.95
	}
	c := m.CheckProbabilities()
	if c.Probabilities || c.LogOddsMap() != nil || c.LnMap() == nil {
		t.Fatalf("probabilities %v, log-odds %v, reads ln %v (%+v)", c.Probabilities, c.LogOddsMap() != nil, c.LnMap() != nil, c)
	}
	note := c.Note(m.N())
	for _, want := range []string{"row 6", "reads their logarithms"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q does not say %q", note, want)
		}
	}
}
