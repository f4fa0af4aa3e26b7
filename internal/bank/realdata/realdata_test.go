package realdata

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"os"
	"slices"
	"testing"
	"time"
	"unicode"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
)

func TestFamilies(t *testing.T) {
	fams := Families()
	// Order matters: the bank derives a family's pilot seeds from its index.
	if want := []string{Glyphs, Misspellings, Verses, Senses, Speech}; !slices.Equal(fams, want) {
		t.Fatalf("Families() = %v, want %v", fams, want)
	}
	for _, f := range fams {
		n, err := PoolSize(f)
		if err != nil {
			t.Fatalf("PoolSize(%q): %v", f, err)
		}
		if n < 2000 {
			t.Errorf("PoolSize(%q) = %d, want >= 2000", f, n)
		}
	}
	if _, err := PoolSize("nope"); err == nil {
		t.Error("PoolSize of an unknown family: want an error")
	}
}

func TestPopulationErrors(t *testing.T) {
	n, err := PoolSize(Misspellings)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		family string
		k      int
	}{
		{"nope", 10},
		{Misspellings, 1},
		{Misspellings, 0},
		{Misspellings, n + 1},
		{Glyphs, -3},
		{Verses, 1},
		{Verses, 100_000},
		{Senses, 1},
		{Senses, 9805},
		{Translations, 1},
		{Translations, 30257},
		{Descriptions, 1},
		{Descriptions, 5096},
		{WordImages, 1},
		{WordImages, 4629},
	} {
		if _, _, err := Population(tc.family, 1, tc.k); err == nil {
			t.Errorf("Population(%q, 1, %d): want an error", tc.family, tc.k)
		}
	}
}

// checkMatrix checks shape, labels, finiteness and that every class has a point.
func checkMatrix(t *testing.T, m *scores.Matrix, k int) {
	t.Helper()
	if m.K() != k {
		t.Fatalf("K = %d, want %d", m.K(), k)
	}
	if len(m.Scores) != m.N()*k {
		t.Fatalf("len(Scores) = %d, want N*K = %d", len(m.Scores), m.N()*k)
	}
	sizes := make([]int, k)
	for i, y := range m.Labels {
		if y < 0 || y >= k {
			t.Fatalf("point %d: label %d out of range", i, y)
		}
		sizes[y]++
	}
	for y, r := range sizes {
		if r < 1 {
			t.Fatalf("class %d (%s) has no points", y, m.Classes[y])
		}
		if r > 10 {
			t.Errorf("class %d (%s) has %d points, want <= 10", y, m.Classes[y], r)
		}
	}
	for i, v := range m.Scores {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("score %d = %v, want finite", i, v)
		}
	}
	seen := map[string]bool{}
	for _, c := range m.Classes {
		if seen[c] {
			t.Fatalf("class %q repeated", c)
		}
		seen[c] = true
	}
}

func TestPopulationShapeAndDeterminism(t *testing.T) {
	for _, tc := range []struct {
		family string
		dir    scores.Direction
		k      int
	}{
		{Glyphs, scores.Lower, 2},
		{Glyphs, scores.Lower, 300},
		{Misspellings, scores.Higher, 2},
		{Misspellings, scores.Higher, 300},
		{Verses, scores.Higher, 2},
		{Verses, scores.Higher, 300},
		{Senses, scores.Higher, 2},
		{Senses, scores.Higher, 300},
		{Pronunciations, scores.Higher, 2},
		{Pronunciations, scores.Higher, 300},
		{Descriptions, scores.Higher, 2},
		{Descriptions, scores.Higher, 300},
		{WordImages, scores.Lower, 2},
		{WordImages, scores.Lower, 300},
	} {
		a, dir, err := Population(tc.family, 7, tc.k)
		if err != nil {
			t.Fatalf("%s k=%d: %v", tc.family, tc.k, err)
		}
		if dir != tc.dir {
			t.Errorf("%s: direction %v, want %v", tc.family, dir, tc.dir)
		}
		checkMatrix(t, a, tc.k)
		b, _, err := Population(tc.family, 7, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Classes, b.Classes) || !slices.Equal(a.Labels, b.Labels) || !bitsEqual(a.Scores, b.Scores) {
			t.Errorf("%s k=%d: same seed gave different matrices", tc.family, tc.k)
		}
		c, _, err := Population(tc.family, 8, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(a.Classes, c.Classes) {
			t.Errorf("%s k=%d: seeds 7 and 8 drew the same classes", tc.family, tc.k)
		}
	}
}

func bitsEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestGlyphPoolNoCJK checks every pool code point against the CJK, Hangul,
// Kana, Yi and Bopomofo ranges and scripts.
func TestGlyphPoolNoCJK(t *testing.T) {
	g, err := loadGlyphs()
	if err != nil {
		t.Fatal(err)
	}
	banned := [][2]rune{
		{0x1100, 0x11FF},    // Hangul Jamo
		{0x2E80, 0x2FFF},    // CJK radicals, Kangxi, IDC
		{0x3000, 0x33FF},    // CJK symbols, Kana, Bopomofo, compatibility
		{0x3400, 0x9FFF},    // CJK ideographs (ext A and unified)
		{0xA000, 0xA4CF},    // Yi
		{0xAC00, 0xD7FF},    // Hangul syllables
		{0xF900, 0xFAFF},    // CJK compatibility ideographs
		{0xFF00, 0xFFEF},    // half/full-width forms
		{0x20000, 0x10FFFF}, // supplementary ideographic planes and beyond
	}
	for _, r := range g.runes {
		for _, b := range banned {
			if r >= b[0] && r <= b[1] {
				t.Fatalf("pool holds U+%04X in banned range U+%04X..U+%04X", r, b[0], b[1])
			}
		}
		if unicode.In(r, unicode.Han, unicode.Hangul, unicode.Hiragana, unicode.Katakana, unicode.Yi, unicode.Bopomofo) {
			t.Fatalf("pool holds U+%04X of a CJK script", r)
		}
	}
	// And the class names of a population decode to pool code points.
	m, _, err := Population(Glyphs, 3, 500)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range m.Classes {
		r, err := GlyphRune(c)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := slices.BinarySearch(g.runes, r); !ok {
			t.Fatalf("class %s is not in the pool", c)
		}
	}
}

// TestScripts checks that the glyph pool spans many scripts.
func TestScripts(t *testing.T) {
	g, err := loadGlyphs()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		tab  *unicode.RangeTable
		min  int
	}{
		{"Latin", unicode.Latin, 300},
		{"Greek", unicode.Greek, 50},
		{"Cyrillic", unicode.Cyrillic, 100},
		{"Armenian", unicode.Armenian, 30},
		{"Georgian", unicode.Georgian, 30},
		{"Hebrew", unicode.Hebrew, 20},
		{"Arabic", unicode.Arabic, 30},
		{"Devanagari", unicode.Devanagari, 30},
		{"Bengali", unicode.Bengali, 30},
		{"Tamil", unicode.Tamil, 20},
		{"Thai", unicode.Thai, 30},
		{"Ethiopic", unicode.Ethiopic, 100},
		{"Canadian_Aboriginal", unicode.Canadian_Aboriginal, 100},
	} {
		n := 0
		for _, r := range g.runes {
			if unicode.Is(tc.tab, r) {
				n++
			}
		}
		if n < tc.min {
			t.Errorf("%s: %d classes, want >= %d", tc.name, n, tc.min)
		}
	}
}

// TestWordTies checks that a point's correct score rarely ties an incorrect one.
func TestWordTies(t *testing.T) {
	m, dir, err := Population(Misspellings, 1, 1000)
	if err != nil {
		t.Fatal(err)
	}
	ties, pairs := 0, 0
	for i, y := range m.Labels {
		row := m.Row(i)
		for j, v := range row {
			if j != y {
				pairs++
				if v == row[y] {
					ties++
				}
			}
		}
	}
	if frac := float64(ties) / float64(pairs); frac > 1e-4 {
		t.Errorf("%d ties in %d pairs (%.2g), want <= 1e-4", ties, pairs, frac)
	}
	_ = dir
}

// TestAccuracyRange checks the difficulty stays in a useful range.
func TestAccuracyRange(t *testing.T) {
	for _, tc := range []struct {
		family string
		k      int
		lo, hi float64
	}{
		{Glyphs, 100, 0.55, 0.85},
		{Misspellings, 100, 0.95, 0.9999},
		{Verses, 100, 0.25, 0.55},
		{Verses, 2000, 0.10, 0.25},
		{Senses, 100, 0.70, 0.90},
		{Senses, 2000, 0.45, 0.65},
		{Speech, 100, 0.65, 0.85},
		{Speech, 2000, 0.45, 0.62},
	} {
		m, dir, err := Population(tc.family, 1, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		s, _, err := accuracy.NewSample(m, dir)
		if err != nil {
			t.Fatal(err)
		}
		if a := s.Observed[tc.k]; a < tc.lo || a > tc.hi {
			t.Errorf("%s: accuracy at k=%d is %.3f, want in [%.2f, %.2f]", tc.family, tc.k, a, tc.lo, tc.hi)
		}
	}
}

// TestReport prints the measurements of the package README; run with
// REALDATA_REPORT=1 go test -run TestReport -v ./internal/bank/realdata/.
func TestReport(t *testing.T) {
	if os.Getenv("REALDATA_REPORT") == "" {
		t.Skip("set REALDATA_REPORT=1 to print the report")
	}
	for _, f := range Families() {
		n, _ := PoolSize(f)
		t.Logf("%s: pool %d", f, n)
		for _, seed := range []uint64{1, 2} {
			start := time.Now()
			m, dir, err := Population(f, seed, 2000)
			if err != nil {
				t.Fatal(err)
			}
			el := time.Since(start)
			sizes := make([]int, m.K())
			for _, y := range m.Labels {
				sizes[y]++
			}
			s2000, _, err := accuracy.NewSample(m, dir)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("  seed %d: k=2000 built in %v, N=%d points (%.2f per class, min %d, max %d)",
				seed, el.Round(time.Millisecond), m.N(), float64(m.N())/float64(m.K()), slices.Min(sizes), slices.Max(sizes))
			for _, k := range []int{2, 100, 500, 2000} {
				mk, _, err := Population(f, seed, k)
				if err != nil {
					t.Fatal(err)
				}
				s, _, err := accuracy.NewSample(mk, dir)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("    k=%4d: Abar_k of the k=2000 population %.4f; own k-class population: top-1 %.4f (class-balanced), %.4f (per point)",
					k, s2000.Observed[k], s.Observed[k], float64(s.Top1Hits())/float64(mk.N()))
			}
		}
	}
}

// matrixHash is an FNV-1a hash of a matrix's class names, labels and score bits.
func matrixHash(m *scores.Matrix) uint64 {
	h := fnv.New64a()
	for _, c := range m.Classes {
		h.Write([]byte(c))
		h.Write([]byte{0})
	}
	var b [8]byte
	for _, y := range m.Labels {
		binary.LittleEndian.PutUint64(b[:], uint64(y))
		h.Write(b[:])
	}
	for _, v := range m.Scores {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	return h.Sum64()
}

// TestGolden pins the bits of small populations, so that a platform
// (e.g. GOOS=js GOARCH=wasm) or a change that alters them is caught.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		family string
		seed   uint64
		k      int
		want   uint64
	}{
		{Glyphs, 1, 40, 0x9298fe037a81552c},
		{Misspellings, 1, 40, 0x2556d56893dc30b5},
		{Verses, 1, 40, 0x88c4571a68ae36cc},
		{Senses, 1, 40, 0x82b2f68cd41067e1},
		{Speech, 1, 40, 0x81a0f4dc46dff987},
		{Hangul, 1, 40, 0x376e51a8788e2a3f},
		{HangulBits, 1, 40, 0xc66d62df4103ac2d},
		{Translations, 1, 40, 0x9f8f115e68c0481e},
		{Pronunciations, 1, 40, 0x34d9bbdb7e515615},
		{Descriptions, 1, 40, 0x9a51f48dc5d21514},
		{WordImages, 1, 40, 0x5f59bb6138b55712},
	} {
		m, _, err := Population(tc.family, tc.seed, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		if got := matrixHash(m); got != tc.want {
			t.Errorf("%s seed %d k=%d: hash %#x, want %#x", tc.family, tc.seed, tc.k, got, tc.want)
		}
	}
}

// refTFIDF is the tests' own TF-IDF, written apart from the package's to
// check it: words splits a text into its words, and a word's document
// frequency counts the documents it was built from that hold it.
type refTFIDF struct {
	words func(string) []string
	df    map[string]float64
	docs  float64
}

func newRefTFIDF(words func(string) []string, docs []string) refTFIDF {
	r := refTFIDF{words: words, df: map[string]float64{}, docs: float64(len(docs))}
	for _, d := range docs {
		for w := range r.bag(d) {
			r.df[w]++
		}
	}
	return r
}

// bag returns the counts of s's words.
func (r refTFIDF) bag(s string) map[string]float64 {
	c := map[string]float64{}
	for _, w := range r.words(s) {
		c[w]++
	}
	return c
}

// vec returns the weights of s's words, (1 + ln tf)·ln(D / df) over the D
// documents.
func (r refTFIDF) vec(s string) map[string]float64 {
	v := r.bag(s)
	for w, tf := range v {
		v[w] = (1 + math.Log(tf)) * math.Log(r.docs/r.df[w])
	}
	return v
}

// refCosine returns the cosine of two weight vectors, the dot product summed
// over a's words.
func refCosine(a, b map[string]float64) float64 {
	dot, na, nb := 0.0, 0.0, 0.0
	for w, x := range a {
		dot += x * b[w]
		na += x * x
	}
	for _, x := range b {
		nb += x * x
	}
	return dot / math.Sqrt(na*nb)
}

// checkIDF fails t unless every term's idf is above 0: every term of the
// pool is missing from some document.
func checkIDF(t *testing.T, w tfidf) {
	t.Helper()
	for i, v := range w.idf {
		if !(v > 0) {
			t.Fatalf("idf of term %d = %v, want > 0", i, v)
		}
	}
}

// reportPopulations runs a family's report (the measurements of the README):
// it skips unless REALDATA_REPORT is set, logs the family's pool size, and
// for seeds 1 and 2 builds the population of 2,000 classes and its Sample and
// hands them to f with the time the population took to build.
func reportPopulations(t *testing.T, family string, f func(seed uint64, m *scores.Matrix, s *accuracy.Sample, took time.Duration)) {
	t.Helper()
	if os.Getenv("REALDATA_REPORT") == "" {
		t.Skip("set REALDATA_REPORT=1 to print the report")
	}
	n, _ := PoolSize(family)
	t.Logf("%s: pool %d", family, n)
	for _, seed := range []uint64{1, 2} {
		start := time.Now()
		m, dir, err := Population(family, seed, 2000)
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		s, _, err := accuracy.NewSample(m, dir)
		if err != nil {
			t.Fatal(err)
		}
		f(seed, m, s, took)
	}
}
