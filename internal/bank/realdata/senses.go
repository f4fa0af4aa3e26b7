package realdata

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/scores"
)

// sensesData holds the WordNet 3.0 synsets (Princeton University; Debian
// package wordnet-base 3.0) that have at least two example sentences, one
// line each, "pos offset<TAB>lemmas<TAB>definition<TAB>example<TAB>...",
// lemmas separated by "; " (see README.md).
//
//go:embed data/senses.txt.gz
var sensesData []byte

// maxSensePoints caps a sense's test points (its first examples).
const maxSensePoints = 8

// sensePool is the decoded senses data.
type sensePool struct {
	names     []string  // per sense, "pos offset lemma"
	templates []termVec // per sense, the term counts of its lemmas and definition
	start     []int     // sense c's examples are examples[start[c]:start[c+1]]
	examples  []termVec // per example, its term counts
	tfidf               // idf per term id: ln(documents / documents holding the term), over templates and examples
}

// loadSenses decodes the embedded senses data once, on first use.
var loadSenses = decoded("senses", sensesData, decodeSenses)

func decodeSenses(gz []byte) (*sensePool, error) {
	p := &sensePool{}
	ids := map[string]int32{}
	err := gzipLines(gz, func(n int, text string) error {
		f := strings.Split(text, "\t")
		if len(f) < 5 || f[1] == "" || f[2] == "" {
			return fmt.Errorf("line %d: want pos offset<TAB>lemmas<TAB>definition<TAB>two or more examples", n)
		}
		first, _, _ := strings.Cut(f[1], "; ")
		p.names = append(p.names, f[0]+" "+first)
		p.templates = append(p.templates, terms(strings.ReplaceAll(f[1], ";", " ")+" "+f[2], ids))
		p.start = append(p.start, len(p.examples))
		for _, e := range f[3:] {
			p.examples = append(p.examples, terms(e, ids))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.start = append(p.start, len(p.examples))
	p.tfidf = newTFIDF(len(ids), 1, p.templates, p.examples)
	return p, nil
}

// population builds the matrix for the given pool senses (ascending): each
// sense's test points are its first maxSensePoints examples, and a point's
// score for a sense is the cosine similarity of the TF-IDF vectors of the
// example and of the sense's template (its lemmas and definition). Nothing
// here is random: a population depends only on which senses it holds.
func (p *sensePool) population(classes []int) *scores.Matrix {
	k := len(classes)
	m := &scores.Matrix{Classes: make([]string, k)}
	temps := make([]gramVec, k)
	var points []gramVec
	for j, c := range classes {
		m.Classes[j] = p.names[c]
		temps[j] = p.weigh(p.templates[c])
		for e := p.start[c]; e < p.start[c+1] && e < p.start[c]+maxSensePoints; e++ {
			points = append(points, p.weigh(p.examples[e]))
			m.Labels = append(m.Labels, j)
		}
	}
	m.Scores = cosines(points, temps, len(p.idf))
	return m
}
