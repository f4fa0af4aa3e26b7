package realdata

import (
	_ "embed"
	"fmt"
	"math/rand/v2"

	"github.com/cleanex/cleanex/internal/scores"
)

// speechData is written by ./gen (see README.md): per word, 16 spoken
// renditions (two speech synthesizers, several accents and voices), each as
// the int8-quantised coordinates of its time-normalised cepstrum on the
// principal axes of all renditions.
//
//go:embed data/speech.bin.gz
var speechData []byte

const (
	// speechTemplates is the number of renditions averaged into a word's
	// template.
	speechTemplates = 4
	// maxSpeechPoints caps a word's test points (its other renditions).
	maxSpeechPoints = 8
)

// speechPool is the decoded speech data.
type speechPool struct {
	dims       int
	renditions []string // how each rendition was spoken ("espeak-en-gb+f3", "flite-kal", ...)
	scale      float64  // a coordinate is its int8 value times scale
	words      []string
	coef       []int8 // word-major, then rendition, then dims coordinates
}

// loadSpeech decodes the embedded speech data once, on first use.
var loadSpeech = decoded("speech", speechData, decodeSpeech)

// decodeSpeech reads the layout written by gen/speech.go (genSpeech).
func decodeSpeech(gz []byte) (*speechPool, error) {
	r, err := openBinary(gz, "SPEECH01")
	if err != nil {
		return nil, err
	}
	b := &binReader{r: r}
	var u32 uint32
	p := &speechPool{}
	b.read(&u32)
	p.dims = int(u32)
	b.read(&u32)
	p.renditions = make([]string, u32)
	for i := range p.renditions {
		p.renditions[i] = b.str()
	}
	b.read(&p.scale)
	b.read(&u32)
	p.words = make([]string, u32)
	for i := range p.words {
		p.words[i] = b.str()
	}
	if b.err != nil {
		return nil, b.err
	}
	if p.dims < 1 || len(p.renditions) < speechTemplates+2 || len(p.words) < 2 || !(p.scale > 0) {
		return nil, fmt.Errorf("%d dims, %d renditions, %d words, scale %v", p.dims, len(p.renditions), len(p.words), p.scale)
	}
	p.coef = make([]int8, len(p.words)*len(p.renditions)*p.dims)
	b.read(p.coef)
	if b.err != nil {
		return nil, b.err
	}
	return p, nil
}

// vector writes the coordinates of word w's rendition r into dst.
func (p *speechPool) vector(w, r int, dst []float64) {
	off := (w*len(p.renditions) + r) * p.dims
	for i := range dst {
		dst[i] = float64(p.coef[off+i]) * p.scale
	}
}

// population builds the matrix for the given pool words (ascending): per
// word, its renditions in an order drawn by rng, the first speechTemplates
// averaged into its template, the next (at most maxSpeechPoints) its test
// points; score = Euclidean distance between a point and a template.
func (p *speechPool) population(rng *rand.Rand, classes []int) *scores.Matrix {
	return renditionsPopulation(rng, classes, p.dims, speechTemplates, maxSpeechPoints,
		func(c int) string { return p.words[c] },
		func(int) []int {
			order := make([]int, len(p.renditions))
			for i := range order {
				order[i] = i
			}
			return order
		},
		p.vector)
}
