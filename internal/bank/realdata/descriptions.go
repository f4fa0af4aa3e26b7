package realdata

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/cleanex/cleanex/internal/scores"
)

// descriptionsData holds English package descriptions of Debian 12
// (bookworm) main, from the archive's Translation-en index: one line per
// class (a distinct description, named by its first package),
// "package<TAB>short description<TAB>sentence<TAB>sentence...", 4..10
// sentences of at least 8 words of the long description, in its order (see
// README.md).
//
//go:embed data/descriptions.txt.gz
var descriptionsData []byte

const (
	// descMinWords is the fewest words a sentence has (the generator keeps
	// no shorter one; decodeDescriptions checks it).
	descMinWords = 8
	// descMinSentences and descMaxSentences bound a class's sentences.
	descMinSentences, descMaxSentences = 4, 10
	// descTemplateSentences is the number of a class's sentences, drawn by
	// seed, that its template adds to its short description; the others are
	// its test points.
	descTemplateSentences = 2
	// maxDescPoints caps a class's test points (a random subset by seed).
	maxDescPoints = 8
)

// descriptionPool is the decoded descriptions data.
type descriptionPool struct {
	names     []string  // per class, its package
	shorts    []termVec // per class, the term counts of its short description
	start     []int     // class c's sentences are sentences[start[c]:start[c+1]]
	sentences []termVec // per sentence, its term counts
	tfidf               // idf per term id: ln(documents / documents holding the term), over the short descriptions and sentences
}

// loadDescriptions decodes the embedded descriptions data once, on first use.
var loadDescriptions = decoded("descriptions", descriptionsData, decodeDescriptions)

func decodeDescriptions(gz []byte) (*descriptionPool, error) {
	p := &descriptionPool{}
	ids := map[string]int32{}
	err := gzipLines(gz, func(n int, text string) error {
		f := strings.Split(text, "\t")
		if len(f) < 2+descMinSentences || len(f) > 2+descMaxSentences || f[0] == "" || f[1] == "" {
			return fmt.Errorf("line %d: want package<TAB>short description<TAB>%d..%d sentences", n, descMinSentences, descMaxSentences)
		}
		p.names = append(p.names, f[0])
		p.shorts = append(p.shorts, translationTerms(f[1], ids))
		p.start = append(p.start, len(p.sentences))
		for _, s := range f[2:] {
			tv := translationTerms(s, ids)
			if wordCount(tv) < descMinWords {
				return fmt.Errorf("line %d (%s): sentence %q has %d words, want at least %d", n, f[0], s, wordCount(tv), descMinWords)
			}
			p.sentences = append(p.sentences, tv)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.start = append(p.start, len(p.sentences))
	// Templates sum a short description and descTemplateSentences sentences.
	p.tfidf = newTFIDF(len(ids), 1+descTemplateSentences, p.shorts, p.sentences)
	return p, nil
}

// population builds the matrix for the given pool classes (ascending). Each
// class's sentences are split by rng into descTemplateSentences template
// sentences and up to maxDescPoints test sentences (in description order);
// a test sentence's score for a class is the cosine similarity of the TF-IDF
// vectors of the sentence and of the class's template (its short
// description's and template sentences' counts summed).
func (p *descriptionPool) population(rng *rand.Rand, classes []int) *scores.Matrix {
	short := func(c int) []termVec { return []termVec{p.shorts[c]} }
	return p.splitPopulation(rng, classes, p.names, p.start, p.sentences, descTemplateSentences, maxDescPoints, short)
}
