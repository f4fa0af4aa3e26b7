// Package realdata builds class populations for the benchmark bank from real
// data shipped inside the package (embedded, compressed), so no fonts,
// dictionaries or network are needed at run time.
//
// Each family has a pool of classes; Population draws k of them by seed and
// returns a score matrix (test points x classes) with the family's score
// direction. The families are:
//
//   - Glyphs ("glyphs"): identify a character from its rendering. Classes are
//     non-CJK code points (Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew,
//     Arabic, Indic, Thai, Ethiopic, Canadian Syllabics, symbols, ...); test
//     points are the character rendered by real fonts from Debian packages,
//     with a small random shift and scale; a class's template is the mean of
//     its renderings in one or two other fonts. Score: Euclidean distance
//     between 16x16 blurred bitmaps projected on their 48 principal axes
//     (lower is better).
//   - Misspellings ("misspellings"): recognise an English word from one of
//     its real misspellings (npm @cspell/dict-en-common-misspellings).
//     Score: a character bigram/trigram cosine similarity with a small
//     length term (higher is better).
//   - Verses ("verses"): identify the passage of the King James Version a
//     verse comes from. Classes are passages (blocks of 8..17 consecutive
//     verses of one chapter); a passage's template is 4 of its verses, drawn
//     by seed and concatenated, and its test points are its other verses.
//     Score: cosine similarity of sparse TF-IDF bag-of-words vectors (higher
//     is better; a verse sharing no word with a template scores exactly 0).
//   - Senses ("senses"): identify the WordNet synset (word sense) an example
//     sentence illustrates. Classes are the synsets with at least two
//     example sentences; a synset's template is its lemmas and definition,
//     its test points are its examples. Score: cosine similarity of sparse
//     TF-IDF bag-of-words vectors (higher is better). Senses of one word
//     share its lemma, so they compete for its examples.
//   - Speech ("speech"): recognise an English word from its sound. Classes
//     are words; each is spoken by two speech synthesizers of Debian
//     (espeak-ng in six English accents with two voices each, flite with four
//     voices); a word's template is the mean of 4 of its 16 renditions, drawn
//     by seed, and its test points are 8 others. Score: Euclidean distance
//     between time-normalised cepstra on their 32 principal axes (lower is
//     better).
//
// Six more families are kept out of the bank (HeldOutFamilies), to check
// the calibration on real data it never saw:
//
//   - Hangul ("hangul"): identify a Korean syllable from its rendering, as
//     the glyphs are identified. Classes are about a quarter of the 11,172
//     precomposed Hangul syllables (phonetic syllable blocks, not CJK
//     ideographs), rendered by the Korean fonts of Debian packages.
//   - Hangul codes ("hangul-bits"): the same syllables and renderings, each
//     reduced to a binary code (the signs of its principal-axis
//     coordinates) and scored by Hamming distance, so that scores take few
//     values and many tie.
//   - Translations ("translations"): identify a Bible verse from its text in
//     another translation. Classes are verses; a verse's template is its
//     King James Version text and its one test point is its text in the
//     World English Bible. Score: cosine similarity of sparse TF-IDF
//     bag-of-words vectors (higher is better). One point per class.
//   - Pronunciations ("pronunciations"): identify an English word from how
//     it is pronounced in another English accent. Classes are words of
//     Debian's wamerican list; a word's template is its phoneme
//     transcription by espeak-ng in the en-us voice, its test points are its
//     transcriptions in espeak-ng's other English voices (British, Scottish,
//     Caribbean, New York, ...). Score: the mean of the cosines of the
//     phoneme bigram and trigram count vectors (higher is better; words that
//     sound alike tie).
//   - Descriptions ("descriptions"): identify a Debian package from a
//     sentence of its description. Classes are distinct English package
//     descriptions of Debian 12 main (packages sharing a description's first
//     paragraph make one class); a class's template is its short
//     description and 2 of its sentences, drawn by seed and concatenated,
//     its test points are its other sentences (2..8). Score: cosine
//     similarity of sparse TF-IDF bag-of-words vectors (higher is better;
//     sentences that several descriptions share tie).
//   - Word images ("wordimages"): recognise an English word from its
//     rendering. Classes are words of Debian's wamerican list (none of the
//     other families' words); each is rendered by up to 12 Latin fonts of
//     Debian packages, each of another font family; a word's template is
//     the mean of 4 of its renderings, drawn by seed, and its test points
//     are the others. Score: Euclidean distance between blurred 12 x 48
//     bitmaps on their 48 principal axes (lower is better).
//
// Everything is computed with float64 additions, multiplications, divisions
// and square roots in a fixed order, with explicit conversions against fused
// multiply-adds, and random draws come from math/rand/v2 PCG, so a seed gives
// the same bits natively and under GOOS=js GOARCH=wasm.
//
// See README.md for where the data came from and how to regenerate it.
package realdata

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/cleanex/cleanex/internal/scores"
)

// Family names.
const (
	// Glyphs is the glyph-identification family: rendered characters against
	// per-class font templates, scored by distance (scores.Lower).
	Glyphs = "glyphs"
	// Misspellings is the misspelling family: real misspellings against
	// correct English words, scored by n-gram similarity (scores.Higher).
	Misspellings = "misspellings"
	// Verses is the passage-identification family: King James Version verses
	// against per-passage templates, scored by TF-IDF cosine (scores.Higher).
	Verses = "verses"
	// Senses is the word-sense family: WordNet example sentences against
	// their synsets' lemmas and definitions, scored by TF-IDF cosine
	// (scores.Higher).
	Senses = "senses"
	// Speech is the spoken-word family: synthesized renditions of English
	// words against per-word templates of other renditions, scored by
	// distance (scores.Lower).
	Speech = "speech"
	// Hangul is the held-out syllable-identification family: Hangul
	// syllables rendered by Korean fonts against per-syllable font
	// templates, scored by distance as the glyphs are (scores.Lower). It is
	// not one of Families: the bank's calibration never sees it.
	Hangul = "hangul"
	// HangulBits is a second held-out family on the Hangul data whose
	// scores take few values: each rendering and each template is reduced to
	// the signs of its principal-axis coordinates (a binary code, as in
	// sign-random-projection hashing), and a point's score for a class is the
	// Hamming distance between their codes, an integer 0..dims
	// (scores.Lower). Many of a point's incorrect scores tie.
	HangulBits = "hangul-bits"
	// Translations is the held-out verse-identification family: each Bible
	// verse's World English Bible text (its only test point) against every
	// verse's King James Version text (the templates), scored by TF-IDF
	// cosine (scores.Higher). It is not one of Families.
	Translations = "translations"
	// Pronunciations is the held-out pronunciation family: English words
	// transcribed into phonemes by espeak-ng in several English accents, a
	// word's en-us transcription its template and its transcriptions in the
	// other accents its test points, scored by phoneme n-gram cosine
	// similarity (scores.Higher). It is not one of Families.
	Pronunciations = "pronunciations"
	// Descriptions is the held-out package-description family: sentences
	// of Debian 12's English package descriptions against per-description
	// templates (the short description and two other sentences), scored by
	// TF-IDF cosine (scores.Higher). It is not one of Families.
	Descriptions = "descriptions"
	// WordImages is the held-out word-image family: English words rendered
	// by many Latin fonts, each word's renderings against per-word
	// templates of other renderings, scored by distance (scores.Lower). It
	// is not one of Families.
	WordImages = "wordimages"
)

// Families lists the bank's family names.
// New families go last: the bank derives a family's pilot seeds from its index.
func Families() []string { return []string{Glyphs, Misspellings, Verses, Senses, Speech} }

// HeldOutFamilies lists the real families kept out of the bank, to check
// the calibration on real data that no design step saw.
// New held-out families go last: bank.HeldOut derives a family's pilot seeds
// from its index.
func HeldOutFamilies() []string {
	return []string{Hangul, HangulBits, Translations, Pronunciations, Descriptions, WordImages}
}

// PoolSize returns how many classes the family's pool holds (k must be <= this).
func PoolSize(family string) (int, error) {
	switch family {
	case Glyphs:
		g, err := loadGlyphs()
		if err != nil {
			return 0, err
		}
		return len(g.runes), nil
	case Misspellings:
		w, err := loadWords()
		if err != nil {
			return 0, err
		}
		return len(w.words), nil
	case Verses:
		v, err := loadVerses()
		if err != nil {
			return 0, err
		}
		return len(v.names), nil
	case Senses:
		s, err := loadSenses()
		if err != nil {
			return 0, err
		}
		return len(s.names), nil
	case Speech:
		s, err := loadSpeech()
		if err != nil {
			return 0, err
		}
		return len(s.words), nil
	case Hangul, HangulBits:
		g, err := loadHangul()
		if err != nil {
			return 0, err
		}
		return len(g.runes), nil
	case Translations:
		t, err := loadTranslations()
		if err != nil {
			return 0, err
		}
		return len(t.names), nil
	case Pronunciations:
		p, err := loadPronunciations()
		if err != nil {
			return 0, err
		}
		return len(p.words), nil
	case Descriptions:
		d, err := loadDescriptions()
		if err != nil {
			return 0, err
		}
		return len(d.names), nil
	case WordImages:
		w, err := loadWordImages()
		if err != nil {
			return 0, err
		}
		return len(w.words), nil
	}
	return 0, fmt.Errorf("realdata: unknown family %q (have %v and the held-out %v)", family, Families(), HeldOutFamilies())
}

// Population returns a population of k classes of the named real family,
// drawn by seed from the family's pool (different seeds give different class
// subsets and, where applicable, different random renderings), as a score
// matrix plus the score direction (scores.Lower for distances, scores.Higher
// for similarities). k must be in 2..PoolSize(family). Classes appear in pool
// order; points are grouped by class.
func Population(family string, seed uint64, k int) (*scores.Matrix, scores.Direction, error) {
	n, err := PoolSize(family)
	if err != nil {
		return nil, scores.Auto, err
	}
	if k < 2 || k > n {
		return nil, scores.Auto, fmt.Errorf("realdata: family %q: k = %d classes is out of range 2..%d", family, k, n)
	}
	switch family {
	case Glyphs:
		g, _ := loadGlyphs()
		rng := rand.New(rand.NewPCG(seed, 0x676c797068730001))
		return g.population(rng, pick(rng, n, k), distances), scores.Lower, nil
	case Misspellings:
		w, _ := loadWords()
		rng := rand.New(rand.NewPCG(seed, 0x776f726473000001))
		return w.population(rng, pick(rng, n, k)), scores.Higher, nil
	case Verses:
		v, _ := loadVerses()
		rng := rand.New(rand.NewPCG(seed, 0x7665727365730001))
		return v.population(rng, pick(rng, n, k)), scores.Higher, nil
	case Senses:
		s, _ := loadSenses()
		rng := rand.New(rand.NewPCG(seed, 0x73656e7365730001))
		return s.population(pick(rng, n, k)), scores.Higher, nil
	case Hangul:
		g, _ := loadHangul()
		rng := rand.New(rand.NewPCG(seed, 0x68616e67756c0001))
		return g.population(rng, pick(rng, n, k), distances), scores.Lower, nil
	case HangulBits:
		g, _ := loadHangul()
		rng := rand.New(rand.NewPCG(seed, 0x68616e67756c0002))
		return g.population(rng, pick(rng, n, k), signDistances), scores.Lower, nil
	case Translations:
		t, _ := loadTranslations()
		rng := rand.New(rand.NewPCG(seed, 0x7472616e736c0001))
		return t.population(pick(rng, n, k)), scores.Higher, nil
	case Pronunciations:
		p, _ := loadPronunciations()
		rng := rand.New(rand.NewPCG(seed, 0x70726f6e756e0001))
		return p.population(pick(rng, n, k)), scores.Higher, nil
	case Descriptions:
		d, _ := loadDescriptions()
		rng := rand.New(rand.NewPCG(seed, 0x6465736372690001))
		return d.population(rng, pick(rng, n, k)), scores.Higher, nil
	case WordImages:
		w, _ := loadWordImages()
		rng := rand.New(rand.NewPCG(seed, 0x776f7264696d0001))
		return w.population(rng, pick(rng, n, k)), scores.Lower, nil
	default: // Speech
		s, _ := loadSpeech()
		rng := rand.New(rand.NewPCG(seed, 0x7370656563680001))
		return s.population(rng, pick(rng, n, k)), scores.Lower, nil
	}
}

// decoded returns a function that decodes data with decode on its first
// call and returns the same pool (or error, naming the family's data) on
// every call.
func decoded[T any](name string, data []byte, decode func([]byte) (T, error)) func() (T, error) {
	return sync.OnceValues(func() (T, error) {
		v, err := decode(data)
		if err != nil {
			return v, fmt.Errorf("realdata: %s data: %w", name, err)
		}
		return v, nil
	})
}

// gzipLines calls line with each line of the gzipped text gz, numbered from
// 1 (lines of up to 1 MiB), and returns the first error of line or of the
// reading.
func gzipLines(gz []byte, line func(n int, text string) error) error {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		if err := line(n, sc.Text()); err != nil {
			return err
		}
	}
	return sc.Err()
}

// openBinary opens the gzip-compressed binary data gz and checks that it
// starts with the 8-byte magic string; the reader is then after the magic.
func openBinary(gz []byte, magic string) (*bufio.Reader, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(zr)
	got := make([]byte, len(magic))
	if _, err := io.ReadFull(r, got); err != nil {
		return nil, err
	}
	if string(got) != magic {
		return nil, fmt.Errorf("bad magic %q", got)
	}
	return r, nil
}

// binReader reads the little-endian fields of an embedded binary file (from
// openBinary) one after the other; after the first error it reads nothing
// and err keeps that error.
type binReader struct {
	r   *bufio.Reader
	err error
}

// read fills v (a pointer to a fixed-size value, or a slice of them).
func (b *binReader) read(v any) {
	if b.err == nil {
		b.err = binary.Read(b.r, binary.LittleEndian, v)
	}
}

// str reads a string written as its uint16 length and its bytes.
func (b *binReader) str() string {
	var n uint16
	b.read(&n)
	if b.err != nil {
		return ""
	}
	buf := make([]byte, n)
	_, b.err = io.ReadFull(b.r, buf)
	return string(buf)
}

// renditionsPopulation builds the matrix of a family whose classes are each
// rendered several times (speech, wordimages): for class j (pool class
// classes[j], named name(c)), the renditions given by renditions(c) in an
// order drawn by rng, the first nTemplates averaged into its template, the
// next (at most maxPoints) its test points, vector(c, r, dst) writing the
// dims coordinates of rendition r of class c; score = Euclidean distance
// between a point and a template.
func renditionsPopulation(rng *rand.Rand, classes []int, dims, nTemplates, maxPoints int,
	name func(c int) string, renditions func(c int) []int, vector func(c, r int, dst []float64)) *scores.Matrix {
	k := len(classes)
	m := &scores.Matrix{Classes: make([]string, k)}
	templates := make([]float64, k*dims)
	var points []float64 // N x dims
	z := make([]float64, dims)
	for j, c := range classes {
		m.Classes[j] = name(c)
		order := renditions(c)
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		t := templates[j*dims : (j+1)*dims]
		for _, r := range order[:nTemplates] {
			vector(c, r, z)
			for i, v := range z {
				t[i] += v / float64(nTemplates)
			}
		}
		tests := order[nTemplates:]
		if len(tests) > maxPoints {
			tests = tests[:maxPoints]
		}
		for _, r := range tests {
			vector(c, r, z)
			points = append(points, z...)
			m.Labels = append(m.Labels, j)
		}
	}
	m.Scores = distances(points, templates, dims)
	return m
}

// pairwise returns the matrix of score(x, t) between the points and the
// templates (each dims values, concatenated), one row per point and one
// column per template.
func pairwise(points, templates []float64, dims int, score func(x, t []float64) float64) []float64 {
	n, k := len(points)/dims, len(templates)/dims
	out := make([]float64, n*k)
	for p := 0; p < n; p++ {
		x := points[p*dims : (p+1)*dims]
		row := out[p*k : (p+1)*k]
		for j := range row {
			row[j] = score(x, templates[j*dims:(j+1)*dims])
		}
	}
	return out
}

// distances returns the pairwise Euclidean distances of the points and the
// templates: sqrt(sum_i (x_i - t_i)^2), summed in index order.
func distances(points, templates []float64, dims int) []float64 {
	return pairwise(points, templates, dims, func(x, t []float64) float64 {
		s := 0.0
		for i, v := range x {
			d := v - t[i]
			s += float64(d * d)
		}
		return math.Sqrt(s)
	})
}

// signDistances returns, for each point and template, the number of
// coordinates whose signs differ (a coordinate of 0 counts as positive): the
// Hamming distance between their binary codes, as a float.
func signDistances(points, templates []float64, dims int) []float64 {
	return pairwise(points, templates, dims, func(x, t []float64) float64 {
		d := 0
		for i, v := range x {
			if (v < 0) != (t[i] < 0) {
				d++
			}
		}
		return float64(d)
	})
}

// pick draws k distinct indices of 0..n-1 (partial Fisher-Yates) and returns
// them in increasing order.
func pick(rng *rand.Rand, n, k int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	for i := 0; i < k; i++ {
		j := i + rng.IntN(n-i)
		idx[i], idx[j] = idx[j], idx[i]
	}
	out := idx[:k:k]
	slices.Sort(out)
	return out
}
