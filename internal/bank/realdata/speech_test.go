package realdata

import (
	"math"
	"strings"
	"testing"
)

// TestSpeechPool checks the pool: every word has all 16 renditions (12 from
// espeak-ng, 4 from flite), words are unique lower-case letters, and no
// rendition's coordinates are all zero.
func TestSpeechPool(t *testing.T) {
	p, err := loadSpeech()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.words) < 2000 || len(p.renditions) != 16 || p.dims != 32 {
		t.Fatalf("pool: %d words, %d renditions, %d dims; want >= 2000, 16, 32", len(p.words), len(p.renditions), p.dims)
	}
	espeak, flite := 0, 0
	for _, r := range p.renditions {
		switch {
		case strings.HasPrefix(r, "espeak-"):
			espeak++
		case strings.HasPrefix(r, "flite-"):
			flite++
		}
	}
	if espeak != 12 || flite != 4 {
		t.Errorf("renditions %v: %d espeak-ng and %d flite, want 12 and 4", p.renditions, espeak, flite)
	}
	seen := map[string]bool{}
	for i, w := range p.words {
		if seen[w] || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" || len(w) < 3 || len(w) > 12 {
			t.Fatalf("word %d %q: repeated or not 3..12 letters a-z", i, w)
		}
		seen[w] = true
	}
	v := make([]float64, p.dims)
	for w := range p.words {
		for r := range p.renditions {
			p.vector(w, r, v)
			norm := 0.0
			for _, x := range v {
				norm += x * x
			}
			if !(norm > 0) || math.IsInf(norm, 0) {
				t.Fatalf("word %q rendition %s: coordinates %v", p.words[w], p.renditions[r], v)
			}
		}
	}
}

// TestSpeechScores checks the score structure at k = 500: 8 points a word,
// distances >= 0, and a word's renditions nearer, on average, to their own
// template than to the others.
func TestSpeechScores(t *testing.T) {
	m, _, err := Population(Speech, 1, 500)
	if err != nil {
		t.Fatal(err)
	}
	if m.N() != 500*maxSpeechPoints {
		t.Errorf("%d points, want %d", m.N(), 500*maxSpeechPoints)
	}
	own, other := 0.0, 0.0
	for i, y := range m.Labels {
		row := m.Row(i)
		for j, v := range row {
			if !(v >= 0) {
				t.Fatalf("point %d class %d: distance %v", i, j, v)
			}
			if j == y {
				own += v
			} else {
				other += v / float64(len(row)-1)
			}
		}
	}
	if !(own < 0.8*other) {
		t.Errorf("mean distance to the own template %.3f, to the others %.3f: want the own clearly nearer", own/float64(m.N()), other/float64(m.N()))
	}
}
