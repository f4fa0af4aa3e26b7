package realdata

import (
	_ "embed"
	"encoding/binary"
	"fmt"
	"io"
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
	var u32 uint32
	read := func(v any) {
		if err == nil {
			err = binary.Read(r, binary.LittleEndian, v)
		}
	}
	str := func() string {
		var n uint16
		read(&n)
		if err != nil {
			return ""
		}
		b := make([]byte, n)
		_, err = io.ReadFull(r, b)
		return string(b)
	}
	p := &speechPool{}
	read(&u32)
	p.dims = int(u32)
	read(&u32)
	p.renditions = make([]string, u32)
	for i := range p.renditions {
		p.renditions[i] = str()
	}
	read(&p.scale)
	read(&u32)
	p.words = make([]string, u32)
	for i := range p.words {
		p.words[i] = str()
	}
	if err != nil {
		return nil, err
	}
	if p.dims < 1 || len(p.renditions) < speechTemplates+2 || len(p.words) < 2 || !(p.scale > 0) {
		return nil, fmt.Errorf("%d dims, %d renditions, %d words, scale %v", p.dims, len(p.renditions), len(p.words), p.scale)
	}
	p.coef = make([]int8, len(p.words)*len(p.renditions)*p.dims)
	read(p.coef)
	if err != nil {
		return nil, err
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
	k, dims := len(classes), p.dims
	m := &scores.Matrix{Classes: make([]string, k)}
	templates := make([]float64, k*dims)
	var points []float64 // N x dims
	z := make([]float64, dims)
	order := make([]int, len(p.renditions))
	for j, c := range classes {
		m.Classes[j] = p.words[c]
		for i := range order {
			order[i] = i
		}
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		t := templates[j*dims : (j+1)*dims]
		for _, r := range order[:speechTemplates] {
			p.vector(c, r, z)
			for i, v := range z {
				t[i] += v / speechTemplates
			}
		}
		tests := order[speechTemplates:]
		if len(tests) > maxSpeechPoints {
			tests = tests[:maxSpeechPoints]
		}
		for _, r := range tests {
			p.vector(c, r, z)
			points = append(points, z...)
			m.Labels = append(m.Labels, j)
		}
	}
	m.Scores = distances(points, templates, dims)
	return m
}
