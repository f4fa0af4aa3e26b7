package realdata

import (
	"slices"
	"testing"
	"unicode"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
)

// The held-out hangul family is kept out of the bank's families; its pool
// holds only precomposed Hangul syllables (no CJK ideograph), at least 2,000
// of them; its populations are distances, the same for the same seed and
// different for another; its accuracy falls as classes are added.
func TestHangulPool(t *testing.T) {
	if slices.Contains(Families(), Hangul) || !slices.Equal(HeldOutFamilies(), []string{Hangul}) {
		t.Fatalf("families %v, held out %v", Families(), HeldOutFamilies())
	}
	g, err := loadHangul()
	if err != nil {
		t.Fatal(err)
	}
	if len(g.runes) < 2000 {
		t.Fatalf("%d syllables, want at least 2,000", len(g.runes))
	}
	for _, r := range g.runes {
		if r < 0xAC00 || r > 0xD7A3 || !unicode.Is(unicode.Hangul, r) || unicode.Is(unicode.Han, r) {
			t.Fatalf("pool holds U+%04X, not a precomposed Hangul syllable", r)
		}
	}
	for c := range g.runes {
		if n := g.start[c+1] - g.start[c]; n < 4 || n > 8 {
			t.Fatalf("syllable U+%04X has %d renderings, want 4..8", g.runes[c], n)
		}
	}
	a, dir, err := Population(Hangul, 7, 300)
	if err != nil {
		t.Fatal(err)
	}
	checkMatrix(t, a, 300)
	b, _, _ := Population(Hangul, 7, 300)
	c, _, _ := Population(Hangul, 8, 300)
	if dir != scores.Lower || !bitsEqual(a.Scores, b.Scores) || slices.Equal(a.Classes, c.Classes) {
		t.Errorf("direction %v, same seed same bits %v, seeds 7 and 8 same classes %v", dir, bitsEqual(a.Scores, b.Scores), slices.Equal(a.Classes, c.Classes))
	}
	s, _, err := accuracy.NewSample(a, dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Observed[10] <= s.Observed[300] || s.Observed[300] <= 0.05 || s.Observed[10] >= 1 {
		t.Errorf("accuracy %.3f at 10 classes, %.3f at 300", s.Observed[10], s.Observed[300])
	}
}
