package realdata

import (
	_ "embed"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/cleanex/cleanex/internal/scores"
)

// glyphsData is written by ./gen (see README.md): per class a code point and
// 4..12 renderings by different fonts as side x side uint8 bitmaps, plus the
// principal axes of all the bitmaps.
//
//go:embed data/glyphs.bin.gz
var glyphsData []byte

// hangulData is the held-out hangul family's data, in the glyphs' layout
// (./gen -hangul, see README.md).
//
//go:embed data/hangul.bin.gz
var hangulData []byte

const (
	// maxGlyphPoints caps a glyph class's test points.
	maxGlyphPoints = 10
	// glyphTemplates is the number of renderings averaged into a class
	// template (fewer when a class has fewer than glyphTemplates+3 renderings).
	glyphTemplates = 4
	// glyphShift is the largest random shift of a test rendering, in feature pixels.
	glyphShift = 0.3
	// glyphScale is the largest relative random scaling of a test rendering.
	glyphScale = 0.05
)

// glyphPool is the decoded glyphs data.
type glyphPool struct {
	side, dims int
	fonts      []string  // font files, relative to /usr/share/fonts
	mean       []float64 // side*side mean of the normalized bitmaps
	basis      []float64 // dims x side*side principal axes of the normalized bitmaps, row-major
	runes      []rune    // class code points, ascending
	start      []int     // class c's renderings are start[c]..start[c+1]-1
	font       []int     // per rendering, index into fonts
	pix        []byte    // per rendering, side*side values 0..255, concatenated
}

// loadGlyphs and loadHangul decode the embedded glyphs and hangul data
// once, on first use.
var (
	loadGlyphs = decoded("glyphs", glyphsData, decodeGlyphs)
	loadHangul = decoded("hangul", hangulData, decodeGlyphs)
)

// decodeGlyphs reads the layout written by gen/main.go (genGlyphs).
func decodeGlyphs(gz []byte) (*glyphPool, error) {
	r, err := openBinary(gz, "GLYPHS01")
	if err != nil {
		return nil, err
	}
	var hdr [3]uint32
	if err := binary.Read(r, binary.LittleEndian, &hdr); err != nil {
		return nil, err
	}
	g := &glyphPool{side: int(hdr[0]), dims: int(hdr[1])}
	d := g.side * g.side
	if g.side < 2 || g.side > 64 || g.dims < 1 || g.dims > d {
		return nil, fmt.Errorf("bad header side=%d dims=%d", g.side, g.dims)
	}
	for i := 0; i < int(hdr[2]); i++ {
		var n uint16
		if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
			return nil, err
		}
		name := make([]byte, n)
		if _, err := io.ReadFull(r, name); err != nil {
			return nil, err
		}
		g.fonts = append(g.fonts, string(name))
	}
	f32 := make([]float32, d+g.dims*d)
	if err := binary.Read(r, binary.LittleEndian, f32); err != nil {
		return nil, err
	}
	g.mean = make([]float64, d)
	g.basis = make([]float64, g.dims*d)
	for i := range g.mean {
		g.mean[i] = float64(f32[i])
	}
	for i := range g.basis {
		g.basis[i] = float64(f32[d+i])
	}
	var nc uint32
	if err := binary.Read(r, binary.LittleEndian, &nc); err != nil {
		return nil, err
	}
	g.runes = make([]rune, nc)
	g.start = make([]int, nc+1)
	for c := range g.runes {
		var cp uint32
		var nr uint8
		if err := binary.Read(r, binary.LittleEndian, &cp); err != nil {
			return nil, err
		}
		if err := binary.Read(r, binary.LittleEndian, &nr); err != nil {
			return nil, err
		}
		if nr < 2 {
			return nil, fmt.Errorf("class U+%04X has %d renderings, need >= 2", cp, nr)
		}
		fi := make([]uint16, nr)
		if err := binary.Read(r, binary.LittleEndian, fi); err != nil {
			return nil, err
		}
		for _, f := range fi {
			if int(f) >= len(g.fonts) {
				return nil, fmt.Errorf("class U+%04X: font index %d out of range", cp, f)
			}
			g.font = append(g.font, int(f))
		}
		g.runes[c] = rune(cp)
		g.start[c+1] = g.start[c] + int(nr)
	}
	g.pix = make([]byte, len(g.font)*d)
	if _, err := io.ReadFull(r, g.pix); err != nil {
		return nil, fmt.Errorf("bitmaps: %w", err)
	}
	// Undo the row-wise delta coding.
	for row := 0; row < len(g.pix); row += g.side {
		for j := row + 1; j < row+g.side; j++ {
			g.pix[j] += g.pix[j-1]
		}
	}
	return g, nil
}

// GlyphRune returns the code point of a glyphs class name ("U+0041" -> 'A').
func GlyphRune(class string) (rune, error) {
	var cp uint32
	if _, err := fmt.Sscanf(class, "U+%X", &cp); err != nil {
		return 0, fmt.Errorf("realdata: glyph class %q: %w", class, err)
	}
	return rune(cp), nil
}

// project writes into z the principal-axis coordinates of normalized bitmap x.
func (g *glyphPool) project(x []float64, z []float64) {
	d := len(g.mean)
	for k := 0; k < g.dims; k++ {
		b := g.basis[k*d : (k+1)*d]
		s := 0.0
		for i, v := range x {
			s += float64(b[i] * float64(v-g.mean[i]))
		}
		z[k] = s
	}
}

// bitmap writes rendering i's pixels into dst.
func (g *glyphPool) bitmap(i int, dst []float64) []float64 {
	d := len(dst)
	for j, b := range g.pix[i*d : (i+1)*d] {
		dst[j] = float64(b)
	}
	return dst
}

// jitter resamples bitmap src (bilinear, zero outside) shifted by (dx, dy)
// feature pixels and scaled by sc about the centre, into dst.
func (g *glyphPool) jitter(src, dst []float64, dx, dy, sc float64) {
	n := g.side
	c := float64(n-1) / 2
	at := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= n || y >= n {
			return 0
		}
		return src[y*n+x]
	}
	for y := 0; y < n; y++ {
		sy := c + (float64(y)-c)/sc - dy
		y0 := math.Floor(sy)
		fy := sy - y0
		for x := 0; x < n; x++ {
			sx := c + (float64(x)-c)/sc - dx
			x0 := math.Floor(sx)
			fx := sx - x0
			ix, iy := int(x0), int(y0)
			top := float64(at(ix, iy)*(1-fx)) + float64(at(ix+1, iy)*fx)
			bot := float64(at(ix, iy+1)*(1-fx)) + float64(at(ix+1, iy+1)*fx)
			dst[y*n+x] = float64(top*(1-fy)) + float64(bot*fy)
		}
	}
}

// population builds the matrix for the given pool classes (ascending),
// scoring each test rendering against each class template, both as
// principal-axis coordinates, with score (distances or signDistances).
func (g *glyphPool) population(rng *rand.Rand, classes []int, score func(points, templates []float64, dims int) []float64) *scores.Matrix {
	k := len(classes)
	dims := g.dims
	m := &scores.Matrix{Classes: make([]string, k)}
	templates := make([]float64, k*dims)
	var points []float64 // N x dims
	z := make([]float64, dims)
	buf := make([]float64, len(g.mean))
	jit := make([]float64, len(g.mean))
	raw := make([]float64, len(g.mean))
	for j, c := range classes {
		m.Classes[j] = fmt.Sprintf("U+%04X", g.runes[c])
		lo, hi := g.start[c], g.start[c+1]
		order := make([]int, hi-lo)
		for i := range order {
			order[i] = lo + i
		}
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		nt := max(1, min(glyphTemplates, len(order)-3))
		t := templates[j*dims : (j+1)*dims]
		for _, ri := range order[:nt] {
			g.project(normalize(g.bitmap(ri, raw), buf), z)
			for i, v := range z {
				t[i] += v / float64(nt)
			}
		}
		tests := order[nt:]
		if len(tests) > maxGlyphPoints {
			tests = tests[:maxGlyphPoints]
		}
		for _, ri := range tests {
			dx := glyphShift * (2*rng.Float64() - 1)
			dy := glyphShift * (2*rng.Float64() - 1)
			sc := 1 + glyphScale*(2*rng.Float64()-1)
			g.jitter(g.bitmap(ri, raw), jit, dx, dy, sc)
			g.project(normalize(jit, buf), z)
			points = append(points, z...)
			m.Labels = append(m.Labels, j)
		}
	}
	m.Scores = score(points, templates, dims)
	return m
}

// normalize writes x with its average subtracted, scaled to unit Euclidean
// norm, into out and returns out (all zeros when x is constant). Distances
// between normalized bitmaps ignore a font's weight (ink mass) and contrast.
func normalize(x, out []float64) []float64 {
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	ss := 0.0
	for _, v := range x {
		ss += float64((v - m) * (v - m))
	}
	if ss == 0 {
		clear(out)
		return out
	}
	sd := math.Sqrt(ss)
	for i, v := range x {
		out[i] = (v - m) / sd
	}
	return out
}
