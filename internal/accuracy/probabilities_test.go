package accuracy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/scores"
	"gonum.org/v1/gonum/floats"
)

// A pilot given as softmax probabilities is read as their logarithms: the
// same R_x and observed curve as its logits (ties included, and a
// probability that underflowed to 0 still below every other score), and
// each point's gaps between its scores the logits' gaps. Subset keeps the
// flag. The same probabilities taken lower-is-better, or halved so that the
// rows no longer sum to 1, are read as they are.
func TestNewSampleProbabilities(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	logits := randomMatrix(rng, 9, 3, 5) // integer scores: many ties
	k := logits.K()
	under := slices.Index(logits.Labels, 0)*k + 1 // point of class 0, incorrect class 1
	logits.Scores[under] = -800                   // exp underflows to 0
	probs := scores.Softmax(logits, 1)
	if probs.Scores[under] != 0 {
		t.Fatalf("probability %v, want an underflow to 0", probs.Scores[under])
	}

	want, _, err := NewSample(logits, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	got, used, err := NewSample(probs, scores.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if used != scores.Higher || !got.LogProbabilities || want.LogProbabilities {
		t.Fatalf("direction %v, LogProbabilities %v (logits: %v); want higher, true (false)", used, got.LogProbabilities, want.LogProbabilities)
	}
	if !slices.Equal(got.R, want.R) || !slices.Equal(got.Observed, want.Observed) {
		t.Errorf("R %v, want the logits' %v", got.R, want.R)
	}
	for i := range got.N() {
		g, w := got.IncorrectRow(i), want.IncorrectRow(i)
		for j := range g {
			if w[j] == -800 {
				continue
			}
			if d := (g[j] - got.Correct[i]) - (w[j] - want.Correct[i]); math.Abs(d) > 1e-12 {
				t.Errorf("point %d: gap to incorrect score %d off the logits' by %v", i, j, d)
			}
		}
	}
	if sub, err := got.Subset([]int{0, 2, 5}); err != nil || !sub.LogProbabilities {
		t.Errorf("Subset: %v, LogProbabilities lost", err)
	}

	for name, tc := range map[string]struct {
		scale float64
		d     scores.Direction
		sign  float64
	}{"lower is better": {1, scores.Lower, -1}, "rows summing to 0.5": {0.5, scores.Higher, 1}} {
		m := *probs
		m.Scores = slices.Clone(probs.Scores)
		for i := range m.Scores {
			m.Scores[i] *= tc.scale
		}
		s, _, err := NewSample(&m, tc.d)
		if err != nil {
			t.Fatal(err)
		}
		if c := tc.sign * m.Scores[m.Labels[0]]; s.LogProbabilities || s.Correct[0] != c {
			t.Errorf("%s: LogProbabilities %v, correct score %v, want false, %v", name, s.LogProbabilities, s.Correct[0], c)
		}
	}
}

// TiedShare is the weighted share of points whose correct score equals an
// incorrect one, counted here row by row from the matrix; TiesNote speaks
// from 10% on.
func TestTiedShare(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	m := randomMatrix(rng, 6, 4, 3) // integer scores 0..3: many ties
	s, _, err := NewSample(m, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	sizes := m.ClassSizes()
	want := 0.0
	for i, y := range m.Labels {
		row := m.Row(i)
		for j, v := range row {
			if j != y && v == row[y] {
				want += 1 / float64(m.K()*sizes[y])
				break
			}
		}
	}
	if got := s.TiedShare(); math.Abs(got-want) > 1e-12 || want < TiesNoteShare {
		t.Fatalf("tied share %v, want %v (at least %v for this test)", got, want, TiesNoteShare)
	}
	if note := TiesNote(s.TiedShare()); !strings.HasPrefix(note, fmt.Sprintf("%.0f%% of your test points score their true class exactly as high as a wrong class", 100*want)) {
		t.Errorf("note %q", note)
	}
	untied := *m
	untied.Scores = slices.Clone(m.Scores)
	for i := range untied.Scores {
		untied.Scores[i] += float64(i) * 1e-6 // every score distinct
	}
	u, _, err := NewSample(&untied, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	if u.TiedShare() != 0 || TiesNote(u.TiedShare()) != "" {
		t.Errorf("distinct scores: share %v, note %q", u.TiedShare(), TiesNote(u.TiedShare()))
	}
}

// Scores that look like probabilities of one-vs-rest classifiers, sigma(z),
// give the Sample of their logits z (within rounding): LogOdds is set, not
// LogProbabilities, and the note says so.
func TestNewSampleLogOdds(t *testing.T) {
	z := &scores.Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1, 2, 0}, Scores: []float64{
		2, -3, -4, -3.5, 1, -5, -4, -2.5, 3, -2, -6, -3}}
	p := &scores.Matrix{Classes: z.Classes, Labels: z.Labels, Scores: make([]float64, len(z.Scores))}
	for i, v := range z.Scores {
		p.Scores[i] = 1 / (1 + math.Exp(-v))
	}
	want, _, err := NewSample(z, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := NewSample(p, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	if !got.LogOdds || got.LogProbabilities || got.ScoresNote != scores.LogOddsNote || want.LogOdds {
		t.Fatalf("LogOdds %v, LogProbabilities %v, note %q (logits: LogOdds %v)", got.LogOdds, got.LogProbabilities, got.ScoresNote, want.LogOdds)
	}
	if !floats.EqualApprox(got.Correct, want.Correct, 1e-9) || !floats.EqualApprox(got.Incorrect, want.Incorrect, 1e-9) || !floats.Equal(got.Observed, want.Observed) {
		t.Errorf("correct %v, incorrect %v; want %v, %v", got.Correct, got.Incorrect, want.Correct, want.Incorrect)
	}
	if lower, _, err := NewSample(p, scores.Lower); err != nil || lower.LogOdds {
		t.Errorf("read lower-is-better: LogOdds %v, %v; want the scores as they are", lower.LogOdds, err)
	}
}

// Class probabilities over more classes than the matrix holds (a softmax
// over the matrix's classes and as many more of the same weight, so every
// row sums to 1/2), whose rows span more than WideDecades, give the Sample
// of ln p: their logits less one shift per point, which leaves every
// point's gaps between scores as the logits have them; LogProbabilities is
// set and the note is scores.LnNote. Scaled by 2^-20 they give the same
// Sample, each score moved by -20 ln 2.
func TestNewSampleLnOfPartial(t *testing.T) {
	z := &scores.Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1, 2, 0}, Scores: []float64{
		6, -3, -4, -3.5, 5, -5, -4, -2.5, 7, -2, -6, -3}}
	p := scores.Softmax(z, 1)
	for i := range p.Scores {
		p.Scores[i] /= 2
	}
	got, _, err := NewSample(p, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	if !got.LogProbabilities || got.LogOdds || got.ScoresNote != scores.LnNote {
		t.Fatalf("LogProbabilities %v, LogOdds %v, note %q", got.LogProbabilities, got.LogOdds, got.ScoresNote)
	}
	want, _, err := NewSample(z, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	if !floats.Equal(got.Observed, want.Observed) {
		t.Errorf("observed %v, want %v", got.Observed, want.Observed)
	}
	// each point's gaps (correct minus incorrect) are the logits' gaps
	for i := range got.Correct {
		for j := range got.K - 1 {
			g, w := got.Correct[i]-got.Incorrect[i*(got.K-1)+j], want.Correct[i]-want.Incorrect[i*(want.K-1)+j]
			if math.Abs(g-w) > 1e-9 {
				t.Fatalf("point %d, rival %d: gap %v, logits' %v", i, j, g, w)
			}
		}
	}
	small := &scores.Matrix{Classes: p.Classes, Labels: p.Labels, Scores: slices.Clone(p.Scores)}
	for i := range small.Scores {
		small.Scores[i] = math.Ldexp(small.Scores[i], -20)
	}
	s2, _, err := NewSample(small, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range s2.Correct {
		if math.Abs(c-(got.Correct[i]-20*math.Ln2)) > 1e-12 {
			t.Fatalf("scaled by 2^-20: correct score %d %v, want %v", i, c, got.Correct[i]-20*math.Ln2)
		}
	}
}

// NewSampleAsIs reads scores as they are: class probabilities keep their
// values (NewSample reads their logarithms), plain scores give NewSample's
// Sample, and the observed curve is the same either way.
func TestNewSampleAsIs(t *testing.T) {
	z := &scores.Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1, 2, 0}, Scores: []float64{
		6, -3, -4, -3.5, 5, -5, -4, -2.5, 7, -2, -6, -3}}
	p := scores.Softmax(z, 1)
	raw, err := NewSampleAsIs(p)
	if err != nil {
		t.Fatal(err)
	}
	logged, _, err := NewSample(p, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	if raw.LogProbabilities || !logged.LogProbabilities || raw.ScoresNote != "" {
		t.Fatalf("as is: LogProbabilities %v, note %q; NewSample: %v", raw.LogProbabilities, raw.ScoresNote, logged.LogProbabilities)
	}
	for i, c := range raw.Correct {
		if want := p.Scores[i*3+p.Labels[i]]; c != want {
			t.Fatalf("point %d: correct score %v, want the probability %v", i, c, want)
		}
	}
	if !floats.Equal(raw.Observed, logged.Observed) {
		t.Errorf("observed %v as is, %v logged", raw.Observed, logged.Observed)
	}
	plain, _, err := NewSample(z, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	asIs, err := NewSampleAsIs(z)
	if err != nil {
		t.Fatal(err)
	}
	if !floats.Equal(plain.Correct, asIs.Correct) || !floats.Equal(plain.Incorrect, asIs.Incorrect) {
		t.Errorf("plain scores: as is %v / %v, NewSample %v / %v", asIs.Correct, asIs.Incorrect, plain.Correct, plain.Incorrect)
	}
}

// TiesNote speaks from TiesNoteShare on ("at least"), not only above it.
func TestTiesNoteThreshold(t *testing.T) {
	if TiesNote(TiesNoteShare) == "" {
		t.Errorf("a tied share of exactly %v: no note", TiesNoteShare)
	}
	if below := math.Nextafter(TiesNoteShare, 0); TiesNote(below) != "" {
		t.Errorf("a tied share just below %v: note %q", TiesNoteShare, TiesNote(below))
	}
}
