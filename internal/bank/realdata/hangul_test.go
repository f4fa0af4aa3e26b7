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
	if slices.Contains(Families(), Hangul) || slices.Contains(Families(), HangulBits) || !slices.Equal(HeldOutFamilies()[:2], []string{Hangul, HangulBits}) {
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

// The hangul-bits family scores with the Hamming distance between sign codes:
// checked against a direct count on hand-made vectors, and on a population,
// whose scores are whole numbers 0..dims of which many tie within a row.
func TestHangulBits(t *testing.T) {
	points := []float64{1, -2, 0.5, -0.1, 3, 0}
	templates := []float64{1, 2, -3, -1, -1, 0, 2, -2, 0.1}
	got := signDistances(points, templates, 3)
	// codes: points (+,-,+) and (-,+,+) (a 0 counts as +); templates
	// (+,+,-), (-,-,+) and (+,-,+)
	want := []float64{2, 1, 0, 2, 1, 2}
	if !slices.Equal(got, want) {
		t.Fatalf("signDistances = %v, want %v", got, want)
	}
	m, dir, err := Population(HangulBits, 7, 300)
	if err != nil {
		t.Fatal(err)
	}
	checkMatrix(t, m, 300)
	g, _ := loadHangul()
	distinct := 0.0
	for i := range m.Labels {
		row := slices.Clone(m.Scores[i*300 : (i+1)*300])
		for _, v := range row {
			if v != float64(int(v)) || v < 0 || v > float64(g.dims) {
				t.Fatalf("row %d holds %v, not a whole number 0..%d", i, v, g.dims)
			}
		}
		slices.Sort(row)
		distinct += float64(len(slices.Compact(row))) / 300
	}
	if distinct /= float64(len(m.Labels)); dir != scores.Lower || distinct > 0.2 {
		t.Errorf("direction %v, mean share of distinct values in a row %.3f, want at most 0.2", dir, distinct)
	}
	s, _, err := accuracy.NewSample(m, dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Observed[10] <= s.Observed[300] || s.Observed[300] <= 0.02 {
		t.Errorf("accuracy %.3f at 10 classes, %.3f at 300", s.Observed[10], s.Observed[300])
	}
}
