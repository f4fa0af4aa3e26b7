package realdata

import (
	"testing"
)

// TestSensePool checks the pool: 9,804 synsets of WordNet 3.0 with 2 or more
// examples (25,220 examples), unique names, and a few known synsets with
// their lemmas in the template.
func TestSensePool(t *testing.T) {
	p, err := loadSenses()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.names) != 9804 || len(p.examples) != 25220 {
		t.Errorf("pool: %d senses with %d examples, want 9804 with 25220", len(p.names), len(p.examples))
	}
	seen := map[string]bool{}
	for c, name := range p.names {
		if seen[name] {
			t.Fatalf("sense %q repeated", name)
		}
		seen[name] = true
		if n := p.start[c+1] - p.start[c]; n < 2 {
			t.Errorf("sense %s has %d examples, want >= 2", name, n)
		}
		if len(p.templates[c].ids) == 0 {
			t.Errorf("sense %s has an empty template", name)
		}
	}
	for _, name := range []string{"adj 00001740 able", "adj 00002098 unable", "verb 02770362 bluster"} {
		if !seen[name] {
			t.Errorf("sense %q not in the pool", name)
		}
	}
	checkIDF(t, p.tfidf)
}

// TestSenseScores checks the score structure at k = 1000: cosines in
// [0, 1]; most incorrect scores exactly 0 (an example shares no word with
// most definitions); a minority of correct scores exactly 0 (examples that
// share no word with their own lemmas and definition, e.g. an inflected form
// of the lemma: such points lose every tie); and a sense's examples score
// highest, on average, against their own template.
func TestSenseScores(t *testing.T) {
	m, _, err := Population(Senses, 1, 1000)
	if err != nil {
		t.Fatal(err)
	}
	zeros, pairs, zeroCorrect := 0, 0, 0
	correct, incorrect := 0.0, 0.0
	for i, y := range m.Labels {
		row := m.Row(i)
		if row[y] == 0 {
			zeroCorrect++
		}
		correct += row[y]
		for j, v := range row {
			if v < 0 || v > 1+1e-12 {
				t.Fatalf("point %d class %d: score %v out of [0, 1]", i, j, v)
			}
			if j != y {
				pairs++
				incorrect += v
				if v == 0 {
					zeros++
				}
			}
		}
	}
	if frac := float64(zeros) / float64(pairs); frac < 0.6 || frac > 0.9 {
		t.Errorf("%d zero scores in %d incorrect pairs (%.3g), want in [0.6, 0.9]", zeros, pairs, frac)
	}
	if frac := float64(zeroCorrect) / float64(m.N()); frac < 0.05 || frac > 0.15 {
		t.Errorf("%d of %d correct scores are 0 (%.2g), want in [0.05, 0.15]", zeroCorrect, m.N(), frac)
	}
	if mc, mi := correct/float64(m.N()), incorrect/float64(pairs); !(mc > 10*mi) {
		t.Errorf("mean correct score %.4f, mean incorrect %.4f: want the correct ten times higher", mc, mi)
	}
}
