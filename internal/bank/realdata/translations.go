package realdata

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/scores"
)

// translationsData holds the verses of the King James Version that have at
// least 8 words in it and in the World English Bible (both public domain),
// one line each, "Book chapter:verse<TAB>KJV text<TAB>WEB text", in
// canonical order, as read with diatheke from the SWORD modules of the
// Debian packages sword-text-kjv 14.3-1 and sword-text-web 426.0-1 (see
// README.md).
//
//go:embed data/translations.txt.gz
var translationsData []byte

// minTranslationWords is the fewest words a verse has in both translations
// (the generator keeps no shorter verse; decodeTranslations checks it).
const minTranslationWords = 8

// translationPool is the decoded translations data.
type translationPool struct {
	names []string  // per verse, "Book chapter:verse"
	kjv   []termVec // per verse, the term counts of its KJV text (the template)
	web   []termVec // per verse, the term counts of its WEB text (the test point)
	tfidf           // idf per term id: ln(documents / documents holding the term), over both texts of every verse
}

// loadTranslations decodes the embedded translations data once, on first use.
var loadTranslations = decoded("translations", translationsData, decodeTranslations)

func decodeTranslations(gz []byte) (*translationPool, error) {
	p := &translationPool{}
	ids := map[string]int32{}
	err := gzipLines(gz, func(n int, text string) error {
		f := strings.Split(text, "\t")
		if len(f) != 3 || f[0] == "" {
			return fmt.Errorf("line %d: want Book chapter:verse<TAB>KJV text<TAB>WEB text", n)
		}
		k, w := translationTerms(f[1], ids), translationTerms(f[2], ids)
		if wordCount(k) < minTranslationWords || wordCount(w) < minTranslationWords {
			return fmt.Errorf("line %d (%s): %d KJV and %d WEB words, want at least %d each", n, f[0], wordCount(k), wordCount(w), minTranslationWords)
		}
		p.names = append(p.names, f[0])
		p.kjv = append(p.kjv, k)
		p.web = append(p.web, w)
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.tfidf = newTFIDF(len(ids), 1, p.kjv, p.web)
	return p, nil
}

// translationTerms returns the term counts of a text as terms does, with
// the right single quotation mark (U+2019), which the SWORD modules and some
// package descriptions use as their apostrophe ("Yahweh’s", "doesn’t"),
// read as an apostrophe. The translations and the descriptions use it.
func translationTerms(text string, ids map[string]int32) termVec {
	return terms(strings.ReplaceAll(text, "\u2019", "'"), ids)
}

// wordCount returns the number of words of a term count vector (counts summed).
func wordCount(tv termVec) int {
	n := 0
	for _, c := range tv.counts {
		n += int(c)
	}
	return n
}

// population builds the matrix for the given pool verses (ascending): each
// verse has one test point, its WEB text, and a point's score for a verse is
// the cosine similarity of the TF-IDF vectors of the WEB text and of the
// verse's KJV text (its template). Nothing here is random: a population
// depends only on which verses it holds.
func (p *translationPool) population(classes []int) *scores.Matrix {
	k := len(classes)
	m := &scores.Matrix{Classes: make([]string, k), Labels: make([]int, k)}
	temps := make([]gramVec, k)
	points := make([]gramVec, k)
	for j, c := range classes {
		m.Classes[j] = p.names[c]
		m.Labels[j] = j
		temps[j] = p.weigh(p.kjv[c])
		points[j] = p.weigh(p.web[c])
	}
	m.Scores = cosines(points, temps, len(p.idf))
	return m
}
