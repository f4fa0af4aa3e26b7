package realdata

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
)

// The held-out pronunciations family is kept out of the bank's families and
// comes after the Hangul ones; its pool holds at least 5,000 distinct words
// of 4..12 letters a-z, sorted, none spoken by the speech family, each with
// a transcription in en-us and in at least 6 other English voices; no two
// words share an en-us transcription (phonemes) or its n-gram vectors.
func TestPronunciationPool(t *testing.T) {
	held := HeldOutFamilies()
	if slices.Contains(Families(), Pronunciations) || slices.Index(held, Pronunciations) <= slices.Index(held, HangulBits) {
		t.Fatalf("families %v, held out %v", Families(), held)
	}
	p, err := loadPronunciations()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.words) < 5000 || len(p.voices) < 7 || p.voices[0] != "en-us" {
		t.Fatalf("pool: %d words, voices %v; want >= 5000 words, en-us and >= 6 other voices", len(p.words), p.voices)
	}
	for _, v := range []string{"en-gb", "en-gb-scotland", "en-gb-x-rp", "en-029", "en-us-nyc"} {
		if !slices.Contains(p.voices[1:], v) {
			t.Errorf("voice %s missing from %v", v, p.voices)
		}
	}
	if n, err := PoolSize(Pronunciations); err != nil || n != len(p.words) {
		t.Errorf("PoolSize = %d, %v; pool has %d words", n, err, len(p.words))
	}
	sp, err := loadSpeech()
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range p.words {
		if strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" || len(w) < 4 || len(w) > 12 || (i > 0 && w <= p.words[i-1]) {
			t.Fatalf("word %d %q: not 4..12 letters a-z, or not after %q", i, w, p.words[max(i-1, 0)])
		}
		if slices.Contains(sp.words, w) {
			t.Errorf("word %q is also a speech family word", w)
		}
	}
	phon, vecs := map[string]string{}, map[string]string{}
	for c, w := range p.words {
		key := strings.Join(pronPhonemes(p.trans[c][0]), " ")
		if other, ok := phon[key]; ok {
			t.Errorf("%q and %q have the same en-us transcription /%s/", other, w, key)
		}
		phon[key] = w
		f := p.feats[c][0]
		vkey := fmtVec(f.bi) + "|" + fmtVec(f.tri)
		if other, ok := vecs[vkey]; ok {
			t.Errorf("%q and %q have the same en-us n-gram vectors", other, w)
		}
		vecs[vkey] = w
	}
}

// fmtVec writes a gram vector's ids and counts as a string key.
func fmtVec(v gramVec) string { return fmt.Sprint(v.ids, v.counts) }

// TestPronunciationPhonemes checks the tokenisation on espeak-ng lines.
func TestPronunciationPhonemes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"w_ˈɔː_ɾ_ɚ", []string{"w", "ɔː", "ɾ", "ɚ"}},
		{"ˌæ_b_s_ə_n_t_ˈiː__ɪ_z_ə_m", []string{"æ", "b", "s", "ə", "n", "t", "iː", "ɪ", "z", "ə", "m"}},
		{"k_ˈɑːɹ", []string{"k", "ɑːɹ"}},
		{"tʃ_ˈæ_ɾ_ɚ_d", []string{"tʃ", "æ", "ɾ", "ɚ", "d"}},
	} {
		if got := pronPhonemes(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("pronPhonemes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestPronunciationScores checks every score of a small population against
// a direct computation from the stored transcriptions (string-keyed n-gram
// counts, no interning or index): the counts are whole numbers, so the dot
// products are exact in any order and the scores must be bit-identical. It
// also checks the layout (a point per other voice, in voice order), that a
// transcription equal to its word's en-us one scores 1, and that the family
// is easy at 10 classes and harder at 1,000.
func TestPronunciationScores(t *testing.T) {
	p, err := loadPronunciations()
	if err != nil {
		t.Fatal(err)
	}
	m, dir, err := Population(Pronunciations, 5, 25)
	if err != nil {
		t.Fatal(err)
	}
	checkMatrix(t, m, 25)
	if dir != scores.Higher || m.N() != 25*(len(p.voices)-1) {
		t.Fatalf("direction %v, %d points; want Higher, %d", dir, m.N(), 25*(len(p.voices)-1))
	}
	class := map[string]int{}
	for c, w := range p.words {
		class[w] = c
	}
	text := func(i int) string { // point i's transcription
		c := class[m.Classes[m.Labels[i]]]
		return p.trans[c][1+i%(len(p.voices)-1)]
	}
	same := 0
	for i, y := range m.Labels {
		if y != i/(len(p.voices)-1) {
			t.Fatalf("point %d has label %d", i, y)
		}
		x := text(i)
		for j, w := range m.Classes {
			want := directPronScore(x, p.trans[class[w]][0])
			if got := m.Scores[i*m.K()+j]; math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("point %d (%s /%s/) class %s: score %v, direct %v", i, m.Classes[y], x, w, got, want)
			}
		}
		if slices.Equal(pronPhonemes(x), pronPhonemes(p.trans[class[m.Classes[y]]][0])) {
			same++
			if v := m.Scores[i*m.K()+y]; math.Abs(v-1) > 1e-12 {
				t.Errorf("point %d equals its template, score %v", i, v)
			}
		}
	}
	if same == 0 || same == m.N() {
		t.Errorf("%d of %d points equal their template; want some, not all", same, m.N())
	}
	big, _, err := Population(Pronunciations, 5, 1000)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := accuracy.NewSample(big, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	if s.Observed[10] <= s.Observed[1000] || s.Observed[10] < 0.95 || s.Observed[1000] < 0.75 || s.Observed[1000] > 0.97 {
		t.Errorf("accuracy %.3f at 10 classes, %.3f at 1000", s.Observed[10], s.Observed[1000])
	}
}

// directPronScore is (cos_bigram + cos_trigram)/2 between two espeak-ng
// transcriptions, each split on "_" with stress marks removed and padded
// with "^" and "$", the n-grams counted by their joined text.
func directPronScore(a, b string) float64 {
	count := func(s string, n int) map[string]float64 {
		ph := []string{"^"}
		for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' }) {
			if f = strings.Map(func(r rune) rune {
				if r == 'ˈ' || r == 'ˌ' {
					return -1
				}
				return r
			}, f); f != "" {
				ph = append(ph, f)
			}
		}
		ph = append(ph, "$")
		c := map[string]float64{}
		for i := 0; i+n <= len(ph); i++ {
			c[strings.Join(ph[i:i+n], "\x00")]++
		}
		return c
	}
	cos := func(n int) float64 {
		x, y := count(a, n), count(b, n)
		dot, xx, yy := 0.0, 0.0, 0.0
		for g, v := range x {
			dot += v * y[g]
			xx += v * v
		}
		for _, v := range y {
			yy += v * v
		}
		return dot / (math.Sqrt(xx) * math.Sqrt(yy))
	}
	return (cos(2) + cos(3)) / 2
}
