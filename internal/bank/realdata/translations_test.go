package realdata

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
)

// tabLines returns the lines of an embedded gzip data file, split at their
// tabs, read here without the package's decoders.
func tabLines(t *testing.T, gz []byte) [][]string {
	t.Helper()
	var out [][]string
	if err := gzipLines(gz, func(_ int, text string) error {
		out = append(out, strings.Split(text, "\t"))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTranslationPool checks the pool: 30,256 verses of the 31,102 of the
// KJV, in canonical order, no reference, KJV text or KJV bag of words
// (template vector) twice, at least 8 words in each translation, a few
// known verses in and out, and every idf > 0.
func TestTranslationPool(t *testing.T) {
	if slices.Contains(Families(), Translations) || !slices.Contains(HeldOutFamilies(), Translations) {
		t.Fatalf("families %v, held out %v", Families(), HeldOutFamilies())
	}
	p, err := loadTranslations()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := PoolSize(Translations); n != 30256 || len(p.names) != n || len(p.kjv) != n || len(p.web) != n {
		t.Fatalf("pool: %d verses (%d KJV, %d WEB texts), want 30256", n, len(p.kjv), len(p.web))
	}
	names, texts, bags := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i, f := range tabLines(t, translationsData) {
		if len(f) != 3 || f[0] != p.names[i] {
			t.Fatalf("line %d: %q, pool verse %s", i+1, f, p.names[i])
		}
		// The bag of words, computed here from the text's fields.
		ws := strings.FieldsFunc(strings.NewReplacer("'", "", "\u2019", "", "-", "").Replace(strings.ToLower(f[1])), func(r rune) bool { return !unicode.IsLetter(r) })
		slices.Sort(ws)
		bag := strings.Join(ws, " ")
		if names[f[0]] || texts[f[1]] || bags[bag] {
			t.Fatalf("verse %s: reference, KJV text or KJV words repeated", f[0])
		}
		names[f[0]], texts[f[1]], bags[bag] = true, true, true
		if len(ws) != wordCount(p.kjv[i]) || len(ws) < minTranslationWords || wordCount(p.web[i]) < minTranslationWords {
			t.Fatalf("verse %s: %d (%d) KJV words, %d WEB words", f[0], len(ws), wordCount(p.kjv[i]), wordCount(p.web[i]))
		}
	}
	for i := 1; i < len(p.kjv); i++ {
		if slices.Equal(p.kjv[i].ids, p.kjv[i-1].ids) && slices.Equal(p.kjv[i].counts, p.kjv[i-1].counts) {
			t.Fatalf("verses %s and %s have one template", p.names[i-1], p.names[i])
		}
	}
	for name, want := range map[string]bool{
		"Genesis 1:1":              true, // 10 words in the KJV, 10 in the WEB
		"Revelation of John 22:20": true,
		"Revelation of John 22:21": false, // the KJV words of Romans 16:24
		"John 11:35":               false, // "Jesus wept."
		"Acts 8:37":                false, // empty in the WEB
		"Psalms 136:26":            true,  // "O give thanks unto the God of heaven: ..."
	} {
		if names[name] != want {
			t.Errorf("verse %s in the pool: %v, want %v", name, names[name], want)
		}
	}
	if p.names[0] != "Genesis 1:1" || p.names[len(p.names)-1] != "Revelation of John 22:20" {
		t.Errorf("pool runs from %s to %s", p.names[0], p.names[len(p.names)-1])
	}
	checkIDF(t, p.tfidf)
}

// TestTranslationScores checks a small population against an independent
// computation of each score, from the data file's texts: words lower-cased,
// "'", "’" and "-" removed, other non-letters separators; weights
// (1 + ln tf)·ln(D/df) over the pool's D = 2 x 30,256 texts; the cosine
// summed over a map of terms. It also checks the population's shape: one
// point per class, its own verse's WEB text.
func TestTranslationScores(t *testing.T) {
	const k = 25
	m, dir, err := Population(Translations, 3, k)
	if err != nil {
		t.Fatal(err)
	}
	checkMatrix(t, m, k)
	if dir != scores.Higher || m.N() != k || !slices.Equal(m.Labels, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24}) {
		t.Fatalf("direction %v, %d points, labels %v", dir, m.N(), m.Labels)
	}
	lines := tabLines(t, translationsData)
	words := func(s string) []string {
		return strings.FieldsFunc(strings.NewReplacer("'", "", "\u2019", "", "-", "").Replace(strings.ToLower(s)), func(r rune) bool { return !unicode.IsLetter(r) })
	}
	text := map[string][2]string{}
	var docs []string
	for _, f := range lines {
		text[f[0]] = [2]string{f[1], f[2]}
		docs = append(docs, f[1:]...)
	}
	ref := newRefTFIDF(words, docs)
	for i := range m.N() {
		point := ref.vec(text[m.Classes[i]][1])
		for j, c := range m.Classes {
			want := refCosine(point, ref.vec(text[c][0]))
			if got := m.Scores[i*k+j]; math.Abs(got-want) > 1e-12 {
				t.Fatalf("WEB %s against KJV %s: score %v, want %v", m.Classes[i], c, got, want)
			}
		}
	}
	// And the scores mostly find the verse: the correct score is the row's
	// highest for most points.
	hits := 0
	for i := range m.N() {
		row := m.Row(i)
		if slices.Max(row) == row[i] {
			hits++
		}
	}
	if hits < k*3/4 {
		t.Errorf("%d of %d points score highest against their own verse", hits, k)
	}
}

// TestTranslationsDeterminism checks that a seed gives the same bits and
// another seed other verses, and that the accuracy falls as verses are
// added.
func TestTranslationsDeterminism(t *testing.T) {
	a, dir, err := Population(Translations, 7, 300)
	if err != nil {
		t.Fatal(err)
	}
	checkMatrix(t, a, 300)
	b, _, _ := Population(Translations, 7, 300)
	c, _, _ := Population(Translations, 8, 300)
	if !slices.Equal(a.Classes, b.Classes) || !slices.Equal(a.Labels, b.Labels) || !bitsEqual(a.Scores, b.Scores) || slices.Equal(a.Classes, c.Classes) {
		t.Errorf("same seed same bits %v, seeds 7 and 8 same verses %v", bitsEqual(a.Scores, b.Scores), slices.Equal(a.Classes, c.Classes))
	}
	s, _, err := accuracy.NewSample(a, dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Observed[10] <= s.Observed[300] || s.Observed[300] <= 0.3 || s.Observed[2] >= 1 {
		t.Errorf("accuracy %.3f at 2 classes, %.3f at 10, %.3f at 300", s.Observed[2], s.Observed[10], s.Observed[300])
	}
}

// TestTranslationsReport prints the measurements of the README; run with
// REALDATA_REPORT=1 go test -run TestTranslationsReport -v ./internal/bank/realdata/.
func TestTranslationsReport(t *testing.T) {
	reportPopulations(t, Translations, func(seed uint64, m *scores.Matrix, s *accuracy.Sample, el time.Duration) {
		zeroCorrect, zeros, ties := 0, 0, 0
		for i, y := range m.Labels {
			row := m.Row(i)
			if row[y] == 0 {
				zeroCorrect++
			}
			for j, v := range row {
				if j != y && v == 0 {
					zeros++
				}
				if j != y && v == row[y] {
					ties++
				}
			}
		}
		pairs := float64(m.N() * (m.K() - 1))
		t.Logf("  seed %d: k=2000 built in %v; Abar_k at 2, 10, 100, 500, 2000: %.4f %.4f %.4f %.4f %.4f; correct scores 0: %d; incorrect 0: %.3f; ties with the correct: %.2g",
			seed, el.Round(time.Millisecond), s.Observed[2], s.Observed[10], s.Observed[100], s.Observed[500], s.Observed[2000], zeroCorrect, float64(zeros)/pairs, float64(ties)/pairs)
	})
}
