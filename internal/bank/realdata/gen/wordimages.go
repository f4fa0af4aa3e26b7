package main

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"image/draw"
	"log"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// Word images (held out): English words of Debian's wamerican list, each
// rendered as a string of glyphs by many Latin fonts of Debian packages
// (glyph advance widths, no kerning, one baseline, no hinting), scaled to
// fit a wordRows x wordCols box (keeping the aspect), box-averaged from a
// wordCell-times finer canvas, blurred with [1 2 1]/4 both ways, normalized
// to zero average and unit norm and projected on the principal axes of all
// renderings; the coordinates are stored as int8 with one scale per axis.
//
// The words are the candidates of the pronunciations family (the list's
// lower-case words of 4..12 letters a-z without the speech family's words,
// sorted) at the positions i with i mod wordEvery = wordOffset (the
// pronunciations family takes those with i mod 10 = 0), less the correct
// words of misspellings.txt.gz (the misspellings and speech families'
// words).
const (
	wordEvery  = 10
	wordOffset = 5
	wordRows   = 12 // feature rows
	wordCols   = 48 // feature columns
	wordCell   = 6  // canvas pixels per feature cell, each way
	wordPPEM   = 64 // em size at which outlines are read (then scaled)
	// wordAscent and wordDescent place the box vertically: it spans
	// wordAscent em above the baseline and wordDescent em below, at the
	// largest scale (short words); a long word is scaled down to fit the
	// box's width, on the same baseline row.
	wordAscent  = 0.9
	wordDescent = 0.3
	wordMaxRend = 12 // renderings stored per word, each from another font family
	wordMinRend = 6  // renderings a word needs
	wordDims    = 48 // principal axes stored
)

// wordFont is a font usable for words: it maps every letter a-z to a glyph
// with ink, distinct from the capital's glyph.
type wordFont struct {
	*fontFile
	key string // family key: the font's family name without style words
}

// styleWords are dropped from a family name to make its family key, so that
// the weights, widths, optical sizes and numbered variants of one design
// (ADF's "No2", Computer Modern's "Extra" and "Upright"), and a font that
// adds symbols or maths to a design's letters, are one family.
var styleWords = map[string]bool{
	"no2": true, "no3": true, "std": true, "pro": true, "style": true, "extra": true,
	"upright": true, "minus": true, "math": true, "symbols": true,
	"regular": true, "book": true, "roman": true, "italic": true, "oblique": true,
	"bold": true, "semibold": true, "demibold": true, "demi": true, "extrabold": true,
	"ultrabold": true, "black": true, "heavy": true, "medium": true, "light": true,
	"extralight": true, "ultralight": true, "thin": true, "hairline": true,
	"condensed": true, "semicondensed": true, "extracondensed": true, "narrow": true,
	"expanded": true, "extended": true, "semiexpanded": true, "display": true,
	"ui": true, "text": true, "caption": true, "subhead": true,
}

// familyName returns font f's typographic family name (name ID 16; the
// family name, ID 1, when it has none), lower-cased.
func familyName(f *sfnt.Font, buf *sfnt.Buffer) string {
	name, err := f.Name(buf, sfnt.NameIDTypographicFamily)
	if err != nil || name == "" {
		name, _ = f.Name(buf, sfnt.NameIDFamily)
	}
	return strings.ToLower(name)
}

// familyKey returns the family key of a family name: its words (split at
// spaces, hyphens and underscores) without styleWords.
func familyKey(name string) string {
	var kept []string
	for _, w := range strings.Fields(strings.NewReplacer("-", " ", "_", " ").Replace(name)) {
		if !styleWords[w] {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// letterOutlines returns the outlines of a-z in f at wordPPEM with their
// advances, or an error when a letter has no glyph, no ink, or the glyph of
// its capital.
func letterOutlines(f *sfnt.Font, buf *sfnt.Buffer) (segs [26][]sfnt.Segment, adv [26]fixed.Int26_6, err error) {
	for i := range 26 {
		r := rune('a' + i)
		gi, e := f.GlyphIndex(buf, r)
		if e != nil || gi == 0 {
			return segs, adv, fmt.Errorf("no glyph for %q", r)
		}
		if ci, e := f.GlyphIndex(buf, r-'a'+'A'); e == nil && ci == gi {
			return segs, adv, fmt.Errorf("%q is drawn as its capital", r)
		}
		s, e := f.LoadGlyph(buf, gi, fixed.I(wordPPEM), nil)
		if e != nil || len(s) == 0 {
			return segs, adv, fmt.Errorf("no outline for %q", r)
		}
		segs[i] = slices.Clone(s)
		if adv[i], e = f.GlyphAdvance(buf, gi, fixed.I(wordPPEM), 0); e != nil || adv[i] <= 0 {
			return segs, adv, fmt.Errorf("no advance for %q", r)
		}
	}
	return segs, adv, nil
}

// pictorialFonts are the family names of fonts that map a-z to pictures or
// to another script's letters (found by looking at every family's
// rendering of a test word): URW's Dingbats (D050000L), URW's Standard
// Symbols PS (Greek letters at the Latin letters' codes) and Linux
// Biolinum Keyboard (letters drawn inside key caps).
var pictorialFonts = map[string]bool{"d050000l": true, "standard symbols ps": true, "linux biolinum keyboard o": true}

// wordFonts returns the fonts under dir usable for words (loadFonts' order:
// sorted paths), leaving out pictorialFonts and a font whose a-z outlines
// and advances equal those of an earlier one (the same design in another
// file or package).
func wordFonts(dir string) ([]wordFont, error) {
	fonts, err := loadFonts(dir)
	if err != nil {
		return nil, err
	}
	var buf sfnt.Buffer
	var out []wordFont
	seen := map[uint64]string{}
	for _, ff := range fonts {
		segs, adv, err := letterOutlines(ff.f, &buf)
		if err != nil {
			continue
		}
		h := hash(fmt.Sprint(segs, adv))
		if first, ok := seen[h]; ok {
			log.Printf("wordimages: %s left out: its a-z are those of %s", ff.path, first)
			continue
		}
		seen[h] = ff.path
		name := familyName(ff.f, &buf)
		if pictorialFonts[name] {
			log.Printf("wordimages: %s left out: its letters are pictures (%s)", ff.path, name)
			continue
		}
		out = append(out, wordFont{fontFile: ff, key: familyKey(name)})
	}
	return out, nil
}

// renderWord draws word in font f as a string of glyphs (advance widths, no
// kerning) on one baseline and returns its wordRows x wordCols feature
// (values 0..1, blurred), or nil when a letter is missing or nothing is
// drawn. The word is centred horizontally on its ink and scaled so that its
// ink fits the box's width less one cell each side and the box's height
// spans wordAscent+wordDescent em, whichever is smaller.
func renderWord(f *sfnt.Font, word string, buf *sfnt.Buffer) []float64 {
	const w, h = wordCols * wordCell, wordRows * wordCell
	type placed struct {
		segs []sfnt.Segment
		x    float64 // pen position, in pixels at wordPPEM
	}
	var glyphs []placed
	pen := 0.0
	minX, maxX := math.Inf(1), math.Inf(-1)
	for _, r := range word {
		gi, err := f.GlyphIndex(buf, r)
		if err != nil || gi == 0 {
			return nil
		}
		segs, err := f.LoadGlyph(buf, gi, fixed.I(wordPPEM), nil)
		if err != nil {
			return nil
		}
		adv, err := f.GlyphAdvance(buf, gi, fixed.I(wordPPEM), 0)
		if err != nil {
			return nil
		}
		for _, s := range segs {
			for _, a := range s.Args[:segmentPoints(s.Op)] {
				x := pen + float64(a.X)/64
				minX, maxX = min(minX, x), max(maxX, x)
			}
		}
		glyphs = append(glyphs, placed{segs: slices.Clone(segs), x: pen})
		pen += float64(adv) / 64
	}
	if !(maxX > minX) {
		return nil
	}
	scale := min(float64(h)/((wordAscent+wordDescent)*wordPPEM), float64(w-2*wordCell)/(maxX-minX))
	baseRow := float64(h) * wordAscent / (wordAscent + wordDescent)
	ras := vector.NewRasterizer(w, h)
	ras.DrawOp = draw.Src
	for _, g := range glyphs {
		p := func(a fixed.Point26_6) (float32, float32) {
			return float32((g.x+float64(a.X)/64-(minX+maxX)/2)*scale + float64(w)/2),
				float32(float64(a.Y)/64*scale + baseRow)
		}
		outline(ras, g.segs, p, true)
	}
	return cellFeatures(ras, wordRows, wordCols, wordCell)
}

// segmentPoints is the number of points of a segment of kind op.
func segmentPoints(op sfnt.SegmentOp) int {
	switch op {
	case sfnt.SegmentOpQuadTo:
		return 2
	case sfnt.SegmentOpCubeTo:
		return 3
	}
	return 1
}

// blurRect applies the separable kernel [1 2 1]/4 with zero padding to the
// rows x cols image a.
func blurRect(a []float64, rows, cols int) []float64 {
	t := make([]float64, len(a))
	for y := range rows {
		for x := range cols {
			v := 2 * a[y*cols+x]
			if x > 0 {
				v += a[y*cols+x-1]
			}
			if x < cols-1 {
				v += a[y*cols+x+1]
			}
			t[y*cols+x] = v / 4
		}
	}
	o := make([]float64, len(a))
	for y := range rows {
		for x := range cols {
			v := 2 * t[y*cols+x]
			if y > 0 {
				v += t[(y-1)*cols+x]
			}
			if y < rows-1 {
				v += t[(y+1)*cols+x]
			}
			o[y*cols+x] = v / 4
		}
	}
	return o
}

// wordImageWords returns the words of the family: the pronunciations
// family's candidates at positions wordOffset mod wordEvery, without the
// correct words of misspellings.txt.gz in dir.
func wordImageWords(dict, dir string) ([]string, error) {
	all, err := pronCandidates(dict, dir)
	if err != nil {
		return nil, err
	}
	correct, err := misspellingsWords(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	dropped := 0
	for i := wordOffset; i < len(all); i += wordEvery {
		if correct[all[i]] {
			dropped++
			continue
		}
		out = append(out, all[i])
	}
	log.Printf("wordimages: %d candidates, every %d-th from #%d: %d words kept, %d correct words of the misspellings data left out", len(all), wordEvery, wordOffset, len(out), dropped)
	return out, nil
}

// wordRend is one rendering of a word: its font and its features.
type wordRend struct {
	font int // index into the usable fonts
	feat []float64
}

// genWordImages writes wordimages.bin.gz and wordimage-fonts.txt: every
// word rendered by up to wordMaxRend fonts of different families (the
// families ordered by a hash of the word and the family key, one file of
// each family chosen by a hash of the word and the path), words with fewer
// than wordMinRend renderings left out.
func genWordImages(dict, fontsDir, out string) error {
	words, err := wordImageWords(dict, out)
	if err != nil {
		return err
	}
	fonts, err := wordFonts(fontsDir)
	if err != nil {
		return err
	}
	byFam := map[string][]int{}
	for i, f := range fonts {
		byFam[f.key] = append(byFam[f.key], i)
	}
	fams := make([]string, 0, len(byFam))
	for k := range byFam {
		fams = append(fams, k)
	}
	slices.Sort(fams)
	log.Printf("wordimages: %d usable fonts in %d families", len(fonts), len(fams))
	if len(fams) < wordMinRend {
		return errors.New("wordimages: too few font families")
	}
	var buf sfnt.Buffer
	var kept []string
	var rends [][]wordRend
	for _, word := range words {
		order := slices.Clone(fams)
		slices.SortFunc(order, func(a, b string) int {
			ha, hb := hash(word+"\x00"+a), hash(word+"\x00"+b)
			switch {
			case ha < hb:
				return -1
			case ha > hb:
				return 1
			}
			return strings.Compare(a, b)
		})
		var rs []wordRend
		for _, fam := range order {
			if len(rs) == wordMaxRend {
				break
			}
			is := byFam[fam]
			best := is[0]
			for _, i := range is[1:] {
				if hash(word+"\x00"+fonts[i].path) < hash(word+"\x00"+fonts[best].path) {
					best = i
				}
			}
			if feat := renderWord(fonts[best].f, word, &buf); feat != nil {
				rs = append(rs, wordRend{font: best, feat: feat})
			}
		}
		if len(rs) < wordMinRend {
			log.Printf("wordimages: %q left out: %d renderings", word, len(rs))
			continue
		}
		kept = append(kept, word)
		rends = append(rends, rs)
	}
	var rows [][]float64
	for _, rs := range rends {
		for _, r := range rs {
			rows = append(rows, normalize(r.feat))
		}
	}
	mean, axes, share, err := principalAxes(rows, wordDims)
	if err != nil {
		return err
	}
	log.Printf("wordimages: %d words, %d renderings; PCA: %d axes keep %.3f of the variance", len(kept), len(rows), wordDims, share)
	coef := make([][]float64, len(rows))
	scale := make([]float64, wordDims)
	for n, x := range rows {
		coef[n] = make([]float64, wordDims)
		for k, a := range axes {
			c := 0.0
			for i, v := range x {
				c += (v - mean[i]) * a[i]
			}
			coef[n][k] = c
			scale[k] = math.Max(scale[k], math.Abs(c))
		}
	}
	for k := range scale {
		scale[k] /= 127
	}
	// Font table: the fonts used, in path order.
	used := map[int]bool{}
	for _, rs := range rends {
		for _, r := range rs {
			used[r.font] = true
		}
	}
	fontIdx := map[int]int{}
	var names []string
	for i := range fonts {
		if used[i] {
			fontIdx[i] = len(names)
			names = append(names, fonts[i].path+"\t"+fonts[i].key)
		}
	}

	// Binary layout, little-endian (see wordimages.go: decodeWordImages).
	var b binWriter
	b.WriteString("WORDIMG1")
	b.put(uint32(wordDims), uint32(len(names)))
	for _, n := range names {
		path, _, _ := strings.Cut(n, "\t")
		b.putString(path)
	}
	for _, s := range scale {
		b.put(s)
	}
	b.put(uint32(len(kept)))
	for w, word := range kept {
		b.putString(word)
		b.put(uint8(len(rends[w])))
		for _, r := range rends[w] {
			b.put(uint16(fontIdx[r.font]))
		}
	}
	for _, c := range coef {
		for k, v := range c {
			b.put(int8(math.Round(v / scale[k])))
		}
	}
	if b.err != nil {
		return b.err
	}
	if err := writeGzip(filepath.Join(out, "wordimages.bin.gz"), b.Bytes()); err != nil {
		return err
	}
	perFam := map[string]int{}
	for i := range fonts {
		if used[i] {
			perFam[fonts[i].key]++
		}
	}
	log.Printf("wordimages: %d fonts used, %d families", len(names), len(perFam))
	return os.WriteFile(filepath.Join(out, "wordimage-fonts.txt"), []byte(strings.Join(names, "\n")+"\n"), 0o644)
}

// misspellingsWords returns the correct words of misspellings.txt.gz in dir
// (the first field of each line).
func misspellingsWords(dir string) (map[string]bool, error) {
	f, err := os.Open(filepath.Join(dir, "misspellings.txt.gz"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		w, _, _ := strings.Cut(sc.Text(), "\t")
		out[w] = true
	}
	return out, sc.Err()
}
