package realdata

import (
	_ "embed"
	"fmt"
	"math/rand/v2"

	"github.com/cleanex/cleanex/internal/scores"
)

// wordImagesData is written by ./gen (see README.md): per English word (of
// Debian's wamerican list) 6..12 renderings, each by a font of another
// family, as the int8-quantised coordinates of its blurred 12 x 48 bitmap
// on the principal axes of all renderings (one scale per axis).
//
//go:embed data/wordimages.bin.gz
var wordImagesData []byte

const (
	// wordImageTemplates is the number of renderings averaged into a
	// word's template.
	wordImageTemplates = 4
	// maxWordImagePoints caps a word's test points (its other renderings).
	maxWordImagePoints = 8
)

// wordImagePool is the decoded wordimages data.
type wordImagePool struct {
	dims  int
	fonts []string  // font files, relative to /usr/share/fonts
	scale []float64 // per axis: a coordinate is its int8 value times scale
	words []string  // pool words (classes), ascending
	start []int     // word c's renderings are start[c]..start[c+1]-1
	font  []int     // per rendering, index into fonts
	coef  []int8    // per rendering, dims coordinates, concatenated
}

// loadWordImages decodes the embedded wordimages data once, on first use.
var loadWordImages = decoded("wordimages", wordImagesData, decodeWordImages)

// decodeWordImages reads the layout written by gen/wordimages.go
// (genWordImages).
func decodeWordImages(gz []byte) (*wordImagePool, error) {
	r, err := openBinary(gz, "WORDIMG1")
	if err != nil {
		return nil, err
	}
	b := &binReader{r: r}
	read, str := b.read, b.str
	var dims, nf, nw uint32
	read(&dims)
	read(&nf)
	if b.err != nil {
		return nil, b.err
	}
	if dims < 1 || dims > 1024 || nf < 1 || nf > 1<<16 {
		return nil, fmt.Errorf("bad header: %d dims, %d fonts", dims, nf)
	}
	p := &wordImagePool{dims: int(dims), fonts: make([]string, nf), scale: make([]float64, dims)}
	for i := range p.fonts {
		p.fonts[i] = str()
	}
	read(p.scale)
	read(&nw)
	if b.err != nil {
		return nil, b.err
	}
	for _, s := range p.scale {
		if !(s > 0) {
			return nil, fmt.Errorf("axis scale %v", s)
		}
	}
	p.words = make([]string, nw)
	p.start = make([]int, nw+1)
	for c := range p.words {
		p.words[c] = str()
		var nr uint8
		read(&nr)
		if b.err != nil {
			return nil, b.err
		}
		if int(nr) < wordImageTemplates+2 {
			return nil, fmt.Errorf("word %q has %d renderings, need >= %d", p.words[c], nr, wordImageTemplates+2)
		}
		if c > 0 && p.words[c] <= p.words[c-1] {
			return nil, fmt.Errorf("word %q after %q: words are not sorted", p.words[c], p.words[c-1])
		}
		fi := make([]uint16, nr)
		read(fi)
		for _, f := range fi {
			if int(f) >= len(p.fonts) {
				return nil, fmt.Errorf("word %q: font index %d out of range", p.words[c], f)
			}
			p.font = append(p.font, int(f))
		}
		p.start[c+1] = p.start[c] + int(nr)
	}
	p.coef = make([]int8, len(p.font)*p.dims)
	read(p.coef)
	if b.err != nil {
		return nil, fmt.Errorf("coordinates: %w", b.err)
	}
	return p, nil
}

// vector writes the coordinates of rendering i into dst.
func (p *wordImagePool) vector(i int, dst []float64) {
	for k, q := range p.coef[i*p.dims : (i+1)*p.dims] {
		dst[k] = float64(q) * p.scale[k]
	}
}

// population builds the matrix for the given pool words (ascending): per
// word, its renderings in an order drawn by rng, the first
// wordImageTemplates averaged into its template, the next (at most
// maxWordImagePoints) its test points; score = Euclidean distance between
// a point and a template.
func (p *wordImagePool) population(rng *rand.Rand, classes []int) *scores.Matrix {
	return renditionsPopulation(rng, classes, p.dims, wordImageTemplates, maxWordImagePoints,
		func(c int) string { return p.words[c] },
		func(c int) []int {
			order := make([]int, p.start[c+1]-p.start[c])
			for i := range order {
				order[i] = p.start[c] + i
			}
			return order
		},
		func(_, r int, dst []float64) { p.vector(r, dst) })
}
