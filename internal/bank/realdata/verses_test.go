package realdata

import (
	"strings"
	"testing"
)

// TestVersePool checks the passages: 8..17 consecutive verses of one chapter,
// unique names, every verse of the chapters kept.
func TestVersePool(t *testing.T) {
	p, err := loadVerses()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.names) != 2938 || len(p.counts) != 30897 {
		t.Errorf("pool: %d passages of %d verses, want 2938 of 30897", len(p.names), len(p.counts))
	}
	seen := map[string]bool{}
	for c, name := range p.names {
		if seen[name] {
			t.Fatalf("passage %q repeated", name)
		}
		seen[name] = true
		if n := p.start[c+1] - p.start[c]; n < minBlockVerses || n > 2*blockVerses-1 {
			t.Errorf("passage %s has %d verses, want %d..%d", name, n, minBlockVerses, 2*blockVerses-1)
		}
	}
	for _, name := range []string{"Genesis 1:1-10", "Genesis 1:21-31", "Psalms 117:1-2", "Revelation 22:11-21"} {
		if want := !strings.HasPrefix(name, "Psalms 117"); seen[name] != want {
			t.Errorf("passage %s in the pool: %v, want %v", name, seen[name], want)
		}
	}
	checkIDF(t, p.tfidf)
}

// TestVerseScores checks the score structure: cosines in [0, 1], a share of
// exact zeros (a verse and a template with no word in common), and the
// correct score seldom tied.
func TestVerseScores(t *testing.T) {
	m, _, err := Population(Verses, 1, 1000)
	if err != nil {
		t.Fatal(err)
	}
	zeros, ties, pairs, zeroCorrect := 0, 0, 0, 0
	for i, y := range m.Labels {
		row := m.Row(i)
		if row[y] == 0 {
			zeroCorrect++
		}
		for j, v := range row {
			if v < 0 || v > 1+1e-12 {
				t.Fatalf("point %d class %d: score %v out of [0, 1]", i, j, v)
			}
			if j != y {
				pairs++
				if v == 0 {
					zeros++
				}
				if v == row[y] {
					ties++
				}
			}
		}
	}
	if frac := float64(zeros) / float64(pairs); frac < 1e-3 || frac > 0.05 {
		t.Errorf("%d zero scores in %d incorrect pairs (%.3g), want in [1e-3, 0.05]", zeros, pairs, frac)
	}
	if frac := float64(ties) / float64(pairs); frac > 5e-3 {
		t.Errorf("%d ties in %d pairs (%.2g), want <= 5e-3", ties, pairs, frac)
	}
	if frac := float64(zeroCorrect) / float64(m.N()); frac > 0.01 {
		t.Errorf("%d of %d correct scores are 0 (%.2g), want <= 0.01", zeroCorrect, m.N(), frac)
	}
}
