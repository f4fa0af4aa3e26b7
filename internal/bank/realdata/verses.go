package realdata

import (
	_ "embed"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"

	"github.com/cleanex/cleanex/internal/detmath"
	"github.com/cleanex/cleanex/internal/scores"
)

// versesData holds every verse of the King James Version (public domain),
// one line each, "Book chapter:verse<TAB>text", in canonical order, as
// printed by the bible program of the Debian packages bible-kjv and
// bible-kjv-text 4.38 (see README.md).
//
//go:embed data/verses.txt.gz
var versesData []byte

const (
	// minBlockVerses is the fewest verses a passage (class) has: chapters
	// with fewer verses are left out of the pool.
	minBlockVerses = 8
	// blockVerses sets the passage length: a chapter of n >= minBlockVerses
	// verses is cut into max(1, n/blockVerses) blocks of consecutive verses,
	// as equal as possible (so 8..17 verses each).
	blockVerses = 9
	// templateVerses is the number of a passage's verses, drawn by seed,
	// concatenated into its template; the others are its test points.
	templateVerses = 4
	// maxVersePoints caps a passage's test points (a random subset by seed).
	maxVersePoints = 8
)

// versePool is the decoded verses data, cut into passages.
type versePool struct {
	names  []string  // per passage, "Book chapter:first-last", in canonical order
	start  []int     // passage c's verses are start[c]..start[c+1]-1
	counts []termVec // per pool verse, its term counts
	tfidf            // idf per term id: ln(verses / verses holding the term)
}

// tfidf holds a pool's term weights.
type tfidf struct {
	idf []float64 // per term id, ln(documents / documents holding the term)
	tfw []float64 // tfw[n] = 1 + ln(n), the sublinear weight of a count n >= 1
}

// newTFIDF returns the weights of a pool of documents (term count vectors
// over terms term ids, in one or more groups): idf[t] = ln(D / df_t), D the
// number of documents (empty ones included) and df_t those holding term t,
// and tfw up to sum times the largest count in a document (a template
// summing sum documents).
func newTFIDF(terms, sum int, groups ...[]termVec) tfidf {
	df := make([]int, terms)
	docs, maxCount := 0, int32(0)
	for _, g := range groups {
		docs += len(g)
		for _, tv := range g {
			for i, id := range tv.ids {
				df[id]++
				maxCount = max(maxCount, tv.counts[i])
			}
		}
	}
	w := tfidf{idf: make([]float64, terms), tfw: make([]float64, sum*int(maxCount)+1)}
	for i, d := range df {
		w.idf[i] = detmath.Log(float64(docs) / float64(d))
	}
	for n := 1; n < len(w.tfw); n++ {
		w.tfw[n] = 1 + detmath.Log(float64(n))
	}
	return w
}

// termVec is a sparse term count vector: term ids ascending, with counts.
type termVec struct {
	ids    []int32
	counts []int32
}

// loadVerses decodes the embedded verses data once, on first use.
var loadVerses = decoded("verses", versesData, decodeVerses)

// verseLine is one line of the data: its chapter ("Book chapter"), verse
// number and text.
type verseLine struct {
	chapter string
	verse   int
	text    string
}

func decodeVerses(gz []byte) (*versePool, error) {
	var lines []verseLine
	err := gzipLines(gz, func(n int, line string) error {
		ref, text, ok := strings.Cut(line, "\t")
		chapter, num, ok2 := strings.Cut(ref, ":")
		v := 0
		var err error
		if ok && ok2 {
			_, err = fmt.Sscanf(num, "%d", &v)
		}
		if !ok || !ok2 || err != nil || v < 1 || text == "" {
			return fmt.Errorf("line %d: want Book chapter:verse<TAB>text", n)
		}
		lines = append(lines, verseLine{chapter, v, text})
		return nil
	})
	if err != nil {
		return nil, err
	}
	p := &versePool{}
	ids := map[string]int32{}
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && lines[j].chapter == lines[i].chapter {
			j++
		}
		n := j - i
		for v := 0; v < n; v++ {
			if lines[i+v].verse != v+1 {
				return nil, fmt.Errorf("%s: verse %d out of order", lines[i].chapter, lines[i+v].verse)
			}
		}
		if n >= minBlockVerses {
			b := max(1, n/blockVerses)
			for q := 0; q < b; q++ {
				// Blocks as equal as possible (the longer ones last).
				lo, hi := q*n/b, (q+1)*n/b
				p.start = append(p.start, len(p.counts))
				p.names = append(p.names, fmt.Sprintf("%s:%d-%d", lines[i].chapter, lo+1, hi))
				for v := lo; v < hi; v++ {
					p.counts = append(p.counts, terms(lines[i+v].text, ids))
				}
			}
		}
		i = j
	}
	p.start = append(p.start, len(p.counts))
	// Templates sum templateVerses verses' counts.
	p.tfidf = newTFIDF(len(ids), templateVerses, p.counts)
	return p, nil
}

// terms returns the term counts of a verse: words lower-cased, apostrophes and
// hyphens removed ("king's" -> "kings", "loving-kindness" ->
// "lovingkindness"), any other non-letter a separator. Terms are interned in ids.
func terms(text string, ids map[string]int32) termVec {
	count := map[int32]int32{}
	var w []rune
	flush := func() {
		if len(w) == 0 {
			return
		}
		s := string(w)
		id, ok := ids[s]
		if !ok {
			id = int32(len(ids))
			ids[s] = id
		}
		count[id]++
		w = w[:0]
	}
	for _, r := range text {
		switch {
		case unicode.IsLetter(r):
			w = append(w, unicode.ToLower(r))
		case r == '\'' || r == '-':
		default:
			flush()
		}
	}
	flush()
	return sortedTerms(count)
}

// sortedTerms returns the term counts count as a termVec (ids ascending).
func sortedTerms(count map[int32]int32) termVec {
	tv := termVec{}
	for id := range count {
		tv.ids = append(tv.ids, id)
	}
	slices.Sort(tv.ids)
	for _, id := range tv.ids {
		tv.counts = append(tv.counts, count[id])
	}
	return tv
}

// weigh returns the TF-IDF vector of the given term counts (ids ascending):
// weights (1 + ln tf)·idf, and their Euclidean norm.
func (p *tfidf) weigh(tv termVec) gramVec {
	v := gramVec{ids: tv.ids, counts: make([]float64, len(tv.ids))}
	ss := 0.0
	for i, id := range tv.ids {
		w := float64(p.tfw[tv.counts[i]] * p.idf[id])
		v.counts[i] = w
		ss += float64(w * w)
	}
	v.norm = math.Sqrt(ss)
	return v
}

// sumTerms returns the term counts of the given vectors summed (ids
// ascending): the counts of the documents concatenated.
func sumTerms(vecs ...termVec) termVec {
	count := map[int32]int32{}
	for _, tv := range vecs {
		for i, id := range tv.ids {
			count[id] += tv.counts[i]
		}
	}
	return sortedTerms(count)
}

// drawSplit shuffles the ids lo..hi-1 with rng and splits them into the
// first nTemplate (a template's) and up to maxTest of the others (its test
// points'), each returned in ascending order.
func drawSplit(rng *rand.Rand, lo, hi, nTemplate, maxTest int) (tmpl, test []int) {
	order := make([]int, hi-lo)
	for i := range order {
		order[i] = lo + i
	}
	rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
	tmpl, test = order[:nTemplate], order[nTemplate:]
	if len(test) > maxTest {
		test = test[:maxTest]
	}
	slices.Sort(tmpl)
	slices.Sort(test)
	return tmpl, test
}

// population builds the matrix for the given pool passages (ascending). Each
// passage's verses are split by rng into templateVerses template verses and
// up to maxVersePoints test verses (in verse order); a test verse's score for
// a passage is the cosine similarity of the TF-IDF vectors of the verse and
// of the passage's template (its verses' counts summed).
func (p *versePool) population(rng *rand.Rand, classes []int) *scores.Matrix {
	return p.splitPopulation(rng, classes, p.names, p.start, p.counts, templateVerses, maxVersePoints, nil)
}

// splitPopulation builds the matrix for the given pool classes (ascending)
// of a pool whose class c has the texts docs[start[c]:start[c+1]] and the
// name names[c]: each class's texts are split by rng (drawSplit) into
// nTemplate template texts and up to maxTest test points; a test point's
// score for a class is the cosine similarity of the TF-IDF vectors of the
// point and of the class's template (its template texts' counts and those
// of extra(c), when extra is not nil, summed).
func (p *tfidf) splitPopulation(rng *rand.Rand, classes []int, names []string, start []int, docs []termVec,
	nTemplate, maxTest int, extra func(c int) []termVec) *scores.Matrix {
	k := len(classes)
	m := &scores.Matrix{Classes: make([]string, k)}
	temps := make([]gramVec, k)
	var points []gramVec
	for j, c := range classes {
		m.Classes[j] = names[c]
		tmpl, test := drawSplit(rng, start[c], start[c+1], nTemplate, maxTest)
		var vecs []termVec
		if extra != nil {
			vecs = extra(c)
		}
		for _, d := range tmpl {
			vecs = append(vecs, docs[d])
		}
		temps[j] = p.weigh(sumTerms(vecs...))
		for _, d := range test {
			points = append(points, p.weigh(docs[d]))
			m.Labels = append(m.Labels, j)
		}
	}
	m.Scores = cosines(points, temps, len(p.idf))
	return m
}

// cosines returns the points x templates matrix (row-major) of the cosine
// similarities of sparse vectors over terms term ids: dot(p, t) / (|p| |t|),
// 0 when either vector is empty.
func cosines(points, temps []gramVec, terms int) []float64 {
	k := len(temps)
	idx := index(temps, terms)
	out := make([]float64, len(points)*k)
	dot := make([]float64, k)
	for i, f := range points {
		clear(dot)
		accumulate(f, idx, dot)
		row := out[i*k : (i+1)*k]
		for j := range row {
			if d := float64(f.norm * temps[j].norm); d > 0 {
				row[j] = dot[j] / d
			}
		}
	}
	return out
}
