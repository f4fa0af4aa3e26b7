package realdata

import (
	_ "embed"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/cleanex/cleanex/internal/scores"
)

// wordsData holds, one line per correct English word, "word<TAB>miss1 miss2
// ...": the entries of dict/dict-en.json of the npm package
// @cspell/dict-en-common-misspellings 2.2.6 (CC BY-SA 4.0, see
// data/LICENSE-cspell-dict-en-common-misspellings) that name exactly one
// correction, lower-case letters, apostrophes and hyphens only.
//
//go:embed data/misspellings.txt.gz
var wordsData []byte

const (
	// minWordPoints is the number of misspellings a word needs to enter the pool.
	minWordPoints = 5
	// maxWordPoints caps a word class's test points (a random subset by seed).
	maxWordPoints = 10
	// lengthWeight weighs the relative length difference in the word score.
	lengthWeight = 0.1
)

// gramVec is a sparse n-gram count vector: ids ascending, with counts.
type gramVec struct {
	ids    []int32
	counts []float64
	norm   float64 // Euclidean norm of counts
}

// wordFeat is a word's padded bigram and trigram vectors and its length.
type wordFeat struct {
	bi, tri gramVec
	length  float64
}

// wordPool is the decoded misspellings data.
type wordPool struct {
	words  []string     // pool words (classes), ascending
	wfeat  []wordFeat   // per word
	misses [][]string   // per word, its misspellings
	mfeat  [][]wordFeat // per word, per misspelling
	ngrams int          // number of distinct n-gram ids
}

// loadWords decodes the embedded misspellings data once, on first use.
var loadWords = decoded("misspellings", wordsData, decodeWords)

func decodeWords(gz []byte) (*wordPool, error) {
	w := &wordPool{}
	ids := map[string]int32{}
	feat := func(s string) wordFeat {
		p := "^" + s + "$"
		return wordFeat{bi: grams(p, 2, ids), tri: grams(p, 3, ids), length: float64(len(s))}
	}
	err := gzipLines(gz, func(line int, text string) error {
		word, rest, ok := strings.Cut(text, "\t")
		if !ok || word == "" {
			return fmt.Errorf("line %d: want word<TAB>misspellings", line)
		}
		ms := strings.Fields(rest)
		if len(ms) < minWordPoints {
			return nil
		}
		w.words = append(w.words, word)
		w.wfeat = append(w.wfeat, feat(word))
		w.misses = append(w.misses, ms)
		mf := make([]wordFeat, len(ms))
		for i, m := range ms {
			mf[i] = feat(m)
		}
		w.mfeat = append(w.mfeat, mf)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !slices.IsSorted(w.words) {
		return nil, fmt.Errorf("words are not sorted")
	}
	w.ngrams = len(ids)
	return w, nil
}

// grams returns the n-gram count vector of s, interning n-grams in ids.
func grams(s string, n int, ids map[string]int32) gramVec {
	keys := make([]string, 0, max(len(s)-n+1, 0))
	for i := 0; i+n <= len(s); i++ {
		keys = append(keys, s[i:i+n])
	}
	return countVec(keys, ids)
}

// countVec returns the count vector of the n-grams keys, interning each new
// one in ids (in order of first occurrence).
func countVec(keys []string, ids map[string]int32) gramVec {
	count := map[int32]float64{}
	for _, g := range keys {
		id, ok := ids[g]
		if !ok {
			id = int32(len(ids))
			ids[g] = id
		}
		count[id]++
	}
	v := gramVec{}
	for id := range count {
		v.ids = append(v.ids, id)
	}
	slices.Sort(v.ids)
	ss := 0.0
	for _, id := range v.ids {
		c := count[id]
		v.counts = append(v.counts, c)
		ss += c * c
	}
	v.norm = math.Sqrt(ss)
	return v
}

// posting is one class's count of an n-gram.
type posting struct {
	class int32
	count float64
}

// index returns, per n-gram id, the classes (in order) that hold it.
func index(vecs []gramVec, ngrams int) [][]posting {
	idx := make([][]posting, ngrams)
	for j, v := range vecs {
		for i, id := range v.ids {
			idx[id] = append(idx[id], posting{int32(j), v.counts[i]})
		}
	}
	return idx
}

// accumulate adds the dot products of v with every indexed class into dot.
func accumulate(v gramVec, idx [][]posting, dot []float64) {
	for i, id := range v.ids {
		c := v.counts[i]
		for _, p := range idx[id] {
			dot[p.class] += float64(c * p.count)
		}
	}
}

// population builds the matrix for the given pool classes (ascending). A
// point's score for word w is
//
//	(cos_bigram + cos_trigram)/2 - lengthWeight*|len(m)-len(w)|/(len(m)+len(w)),
//
// the cosines taken between count vectors of the words padded as "^w$".
func (w *wordPool) population(rng *rand.Rand, classes []int) *scores.Matrix {
	k := len(classes)
	m := &scores.Matrix{Classes: make([]string, k)}
	bis := make([]gramVec, k)
	tris := make([]gramVec, k)
	for j, c := range classes {
		m.Classes[j] = w.words[c]
		bis[j], tris[j] = w.wfeat[c].bi, w.wfeat[c].tri
	}
	biIdx, triIdx := index(bis, w.ngrams), index(tris, w.ngrams)
	var feats []wordFeat
	for j, c := range classes {
		mf := w.mfeat[c]
		order := make([]int, len(mf))
		for i := range order {
			order[i] = i
		}
		if len(order) > maxWordPoints {
			rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
			order = order[:maxWordPoints]
			slices.Sort(order)
		}
		for _, i := range order {
			feats = append(feats, mf[i])
			m.Labels = append(m.Labels, j)
		}
	}
	n := len(feats)
	m.Scores = make([]float64, n*k)
	dot2 := make([]float64, k)
	dot3 := make([]float64, k)
	for p, f := range feats {
		clear(dot2)
		clear(dot3)
		accumulate(f.bi, biIdx, dot2)
		accumulate(f.tri, triIdx, dot3)
		row := m.Scores[p*k : (p+1)*k]
		for j, c := range classes {
			wf := &w.wfeat[c]
			cos2 := dot2[j] / float64(f.bi.norm*wf.bi.norm)
			cos3 := dot3[j] / float64(f.tri.norm*wf.tri.norm)
			dl := math.Abs(f.length-wf.length) / (f.length + wf.length)
			row[j] = (cos2+cos3)/2 - float64(lengthWeight*dl)
		}
	}
	return m
}
