// Command gen regenerates the embedded data files of package realdata.
//
// It needs the Debian font packages listed in ../README.md (for the glyphs
// family), an unpacked copy of the npm package
// @cspell/dict-en-common-misspellings (for the misspellings family) and the
// Debian packages bible-kjv (for the verses family), wordnet-base (senses),
// espeak-ng and flite (speech):
//
//	apt-get update && apt-get install -y --no-install-recommends <fonts listed in README.md> \
//	    bible-kjv wordnet-base espeak-ng flite
//	npm install --prefix build/npm @cspell/dict-en-common-misspellings@2.2.6
//	go run ./internal/bank/realdata/gen -fonts /usr/share/fonts \
//	    -dict build/npm/node_modules/@cspell/dict-en-common-misspellings \
//	    -bible /usr/bin/bible -wordnet /usr/share/wordnet -speech build/speech \
//	    -out internal/bank/realdata/data
//
// With -hangul it writes only the held-out hangul family's data, from the
// Korean font packages listed in ../README.md. With -diatheke it also writes
// the held-out translations family's data, read with the diatheke program
// from the SWORD modules of the Debian packages sword-text-kjv and
// sword-text-web:
//
//	apt-get install -y diatheke sword-text-kjv sword-text-web
//	go run ./internal/bank/realdata/gen -fonts '' -diatheke /usr/bin/diatheke
//
// With -pronunciations it writes only the held-out pronunciations family's
// data, from a word list (Debian package wamerican) transcribed by espeak-ng:
//
//	apt-get install -y --no-install-recommends wamerican espeak-ng
//	go run ./internal/bank/realdata/gen -pronunciations /usr/share/dict/american-english
//
// With -descriptions it writes only the held-out descriptions family's
// data, from the English package descriptions of Debian 12 main (the
// archive's Translation-en index, which `apt-get -o Acquire::Languages=en
// update` downloads lz4-compressed; decompress it first):
//
//	apt-get -o Acquire::Languages=en update && apt-get install -y lz4
//	lz4cat /var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_main_i18n_Translation-en.lz4 > tr-en.txt
//	go run ./internal/bank/realdata/gen -descriptions tr-en.txt
//
// With -wordimages it writes only the held-out wordimages family's data: words
// of a word list (Debian package wamerican) rendered by the Latin fonts of the
// Debian packages listed in ../README.md:
//
//	apt-get install -y --no-install-recommends wamerican <fonts listed in README.md>
//	go run ./internal/bank/realdata/gen -wordimages /usr/share/dict/american-english
//
// Verses: the whole King James Version as printed by the bible program,
// one verse a line.
//
// Glyphs: every code point of the candidate (non-CJK) ranges is rendered by
// up to maxRend installed fonts that map it to a non-empty glyph, at a fixed
// em size on a fixed baseline, centred horizontally on its ink; the render is
// box-downsampled to side x side pixels, blurred and quantised to uint8.
// The principal axes of all stored bitmaps (each normalized to zero average
// and unit norm) are written beside them, so that
// the run-time code can score in a low-dimensional space.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"image"
	"image/draw"
	"io/fs"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
	"golang.org/x/text/unicode/norm"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

const (
	ppem     = 64  // em size in pixels of the high-resolution render
	canvas   = 112 // high-resolution canvas side (1.75 em)
	baseline = 76  // baseline row of the high-resolution canvas
	side     = 16  // feature side: canvas/side = 7 pixels per feature cell
	maxRend  = 12  // renderings stored per class
	minRend  = 4   // renderings a class needs to enter the pool
	minFam   = 2   // distinct font families a class needs
	pcaDims  = 48  // principal axes stored
)

func main() {
	fontsDir := flag.String("fonts", "/usr/share/fonts", "font directory to scan")
	dictDir := flag.String("dict", "", "unpacked @cspell/dict-en-common-misspellings package directory")
	bibleCmd := flag.String("bible", "", "the bible program of the Debian package bible-kjv (e.g. /usr/bin/bible)")
	wordnetDir := flag.String("wordnet", "", "the WordNet database directory of the Debian package wordnet-base (e.g. /usr/share/wordnet)")
	speechDir := flag.String("speech", "", "folder for the spoken renditions of the speech family (made with the Debian packages espeak-ng and flite when missing, reused when present)")
	diatheke := flag.String("diatheke", "", "the diatheke program of the Debian package diatheke (e.g. /usr/bin/diatheke), to read the SWORD modules of sword-text-kjv and sword-text-web for the held-out translations family")
	hangul := flag.Bool("hangul", false, "write only the held-out hangul family's data (hangul.bin.gz) from the fonts that map Hangul syllables")
	descIndex := flag.String("descriptions", "", "write only the held-out descriptions family's data (descriptions.txt.gz) from this decompressed Translation-en index of Debian 12 main (lz4cat /var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_main_i18n_Translation-en.lz4 > tr-en.txt)")
	pronDict := flag.String("pronunciations", "", "write only the held-out pronunciations family's data (pronunciations.txt.gz): the words of this list (e.g. /usr/share/dict/american-english of the Debian package wamerican) transcribed by espeak-ng; needs misspellings.txt.gz in -out")
	wordDict := flag.String("wordimages", "", "write only the held-out wordimages family's data (wordimages.bin.gz, wordimage-fonts.txt): words of this list (e.g. /usr/share/dict/american-english of the Debian package wamerican) rendered by the Latin fonts under -fonts; needs misspellings.txt.gz in -out")
	out := flag.String("out", "internal/bank/realdata/data", "output directory")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	if *hangul {
		if err := genHangul(*fontsDir, *out); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *wordDict != "" {
		if err := genWordImages(*wordDict, *fontsDir, *out); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *descIndex != "" {
		if err := genDescriptions(*descIndex, *out); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *pronDict != "" {
		if err := genPronunciations(*pronDict, *out); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *dictDir != "" {
		if err := genWords(*dictDir, *out); err != nil {
			log.Fatal(err)
		}
	}
	if *bibleCmd != "" {
		if err := genVerses(*bibleCmd, *out); err != nil {
			log.Fatal(err)
		}
	}
	if *wordnetDir != "" {
		if err := genSenses(*wordnetDir, *out); err != nil {
			log.Fatal(err)
		}
	}
	if *diatheke != "" {
		if err := genTranslations(*diatheke, *out); err != nil {
			log.Fatal(err)
		}
	}
	if *speechDir != "" {
		if err := genSpeech(*speechDir, *out); err != nil {
			log.Fatal(err)
		}
	}
	if *fontsDir != "" {
		if err := genGlyphs(*fontsDir, *out); err != nil {
			log.Fatal(err)
		}
	}
}

// ---------------------------------------------------------------- words

// genWords writes misspellings.txt.gz: one line per correct word,
// "word<TAB>miss1 miss2 ...", from the package's dict-en.json entries that
// name exactly one correction.
func genWords(dir, out string) error {
	raw, err := os.ReadFile(filepath.Join(dir, "dict", "dict-en.json"))
	if err != nil {
		return err
	}
	var d struct {
		Defs []struct {
			Flag    []string `json:"flagWords"`
			Suggest []string `json:"suggestWords"`
		} `json:"dictionaryDefinitions"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		return err
	}
	byWord := map[string][]string{}
	isWord := func(s string) bool {
		if len(s) < 2 {
			return false
		}
		for _, c := range s {
			if c < 'a' || c > 'z' {
				if c != '\'' && c != '-' {
					return false
				}
			}
		}
		return true
	}
	for _, def := range d.Defs {
		for _, e := range append(slices.Clone(def.Flag), def.Suggest...) {
			a, b, ok := strings.Cut(e, "->")
			if !ok || strings.Contains(b, ",") {
				continue
			}
			a, b = strings.TrimSpace(a), strings.TrimSpace(b)
			if a == b || !isWord(a) || !isWord(b) {
				continue
			}
			byWord[b] = append(byWord[b], a)
		}
	}
	words := make([]string, 0, len(byWord))
	for w, ms := range byWord {
		slices.Sort(ms)
		byWord[w] = slices.Compact(ms)
		words = append(words, w)
	}
	slices.Sort(words)
	var buf bytes.Buffer
	n, np := 0, 0
	for _, w := range words {
		ms := byWord[w]
		fmt.Fprintf(&buf, "%s\t%s\n", w, strings.Join(ms, " "))
		n++
		np += len(ms)
	}
	log.Printf("misspellings: %d words, %d misspellings", n, np)
	return writeGzip(filepath.Join(out, "misspellings.txt.gz"), buf.Bytes())
}

func writeGzip(path string, b []byte) error {
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	log.Printf("%s: %d bytes (%d raw)", path, z.Len(), len(b))
	return os.WriteFile(path, z.Bytes(), 0o644)
}

// ---------------------------------------------------------------- verses

// genVerses writes verses.txt.gz: every verse of the King James Version, one
// line each, "Book chapter:verse<TAB>text", in canonical order, as printed
// (without line wrapping) by the bible program of the Debian package
// bible-kjv (data from bible-kjv-text).
func genVerses(bible, out string) error {
	cmd := exec.Command(bible, "-l0", "Gen1:1-Rev22:21")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("%s: %v: %s", bible, err, stderr.Bytes())
	}
	header := regexp.MustCompile(`^(\S.*) ([0-9]+)$`)
	verse := regexp.MustCompile(`^ +([0-9]+) (\S.*)$`)
	var buf bytes.Buffer
	book, chapter := "", ""
	chapters, verses, next := 0, 0, 0
	for i, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimRight(line, " \r")
		if line == "" {
			continue
		}
		if m := header.FindStringSubmatch(line); m != nil {
			book, chapter, next = m[1], m[2], 1
			chapters++
			continue
		}
		m := verse.FindStringSubmatch(line)
		if m == nil || book == "" {
			return fmt.Errorf("%s output line %d: unexpected %q", bible, i+1, line)
		}
		if m[1] != fmt.Sprint(next) {
			return fmt.Errorf("%s %s: verse %s, want %d", book, chapter, m[1], next)
		}
		if strings.Contains(m[2], "\t") {
			return fmt.Errorf("%s %s:%s: tab in text", book, chapter, m[1])
		}
		next++
		verses++
		fmt.Fprintf(&buf, "%s %s:%s\t%s\n", book, chapter, m[1], m[2])
	}
	log.Printf("verses: %d chapters, %d verses", chapters, verses)
	if chapters != 1189 || verses != 31102 {
		return fmt.Errorf("got %d chapters and %d verses, want the KJV's 1189 and 31102", chapters, verses)
	}
	return writeGzip(filepath.Join(out, "verses.txt.gz"), buf.Bytes())
}

// ---------------------------------------------------------------- senses

// minExamples is the fewest example sentences a synset needs to be written.
const minExamples = 2

// genSenses writes senses.txt.gz: one line per WordNet synset with at least
// minExamples example sentences, "pos offset<TAB>lemmas<TAB>definition<TAB>
// example<TAB>example...", lemmas separated by "; " with underscores as
// spaces and adjective position markers ("(a)", "(p)", "(ip)") removed, the
// definition being the gloss without its quoted examples. The files are read
// in the order adj, adv, noun, verb and each in file order.
func genSenses(dir, out string) error {
	quoted := regexp.MustCompile(`"([^"]*)"`)
	marker := regexp.MustCompile(`\((a|p|ip)\)$`)
	var buf bytes.Buffer
	synsets, kept, examples := 0, 0, 0
	for _, pos := range []string{"adj", "adv", "noun", "verb"} {
		raw, err := os.ReadFile(filepath.Join(dir, "data."+pos))
		if err != nil {
			return err
		}
		for n, line := range strings.Split(string(raw), "\n") {
			if line == "" || strings.HasPrefix(line, "  ") { // licence header
				continue
			}
			head, gloss, ok := strings.Cut(line, " | ")
			f := strings.Fields(head)
			if !ok || len(f) < 4 {
				return fmt.Errorf("data.%s line %d: no synset", pos, n+1)
			}
			synsets++
			words, err := strconv.ParseInt(f[3], 16, 32)
			if err != nil || len(f) < 4+2*int(words) {
				return fmt.Errorf("data.%s line %d: bad word count %q", pos, n+1, f[3])
			}
			var lemmas []string
			for w := range int(words) {
				l := marker.ReplaceAllString(f[4+2*w], "")
				lemmas = append(lemmas, strings.ReplaceAll(l, "_", " "))
			}
			var ex []string
			for _, m := range quoted.FindAllStringSubmatch(gloss, -1) {
				if e := strings.TrimSpace(m[1]); e != "" {
					ex = append(ex, e)
				}
			}
			if len(ex) < minExamples {
				continue
			}
			def := strings.TrimSpace(quoted.ReplaceAllString(gloss, ""))
			def = strings.TrimSpace(strings.Trim(def, "; "))
			for _, s := range append([]string{def}, append(lemmas, ex...)...) {
				if strings.ContainsAny(s, "\t\n") {
					return fmt.Errorf("data.%s line %d: tab or newline in %q", pos, n+1, s)
				}
			}
			kept++
			examples += len(ex)
			fmt.Fprintf(&buf, "%s %s\t%s\t%s\t%s\n", pos, f[0], strings.Join(lemmas, "; "), def, strings.Join(ex, "\t"))
		}
	}
	log.Printf("senses: %d synsets, %d with >= %d examples (%d examples)", synsets, kept, minExamples, examples)
	return writeGzip(filepath.Join(out, "senses.txt.gz"), buf.Bytes())
}

// ---------------------------------------------------------------- glyphs

type fontFile struct {
	path   string // relative to the fonts dir
	family string
	f      *sfnt.Font
}

// candidate reports whether r may be a glyphs class: a graphic, non-mark,
// non-compatibility code point of the allowed (non-CJK) ranges.
func candidate(r rune) bool {
	allowed := (r >= 0x21 && r < 0x2E80) ||
		(r >= 0xA4D0 && r < 0xA4FF) || // Lisu
		(r >= 0xA500 && r < 0xA6FF) || // Vai, Cyrillic Ext-B, Bamum
		(r >= 0xA720 && r < 0xA830) || // Latin Ext-D, Syloti Nagri
		(r >= 0xA840 && r < 0xA9E0) || // Phags-pa .. Javanese
		(r >= 0xAA00 && r < 0xAB00) || // Cham .. Tai Viet, Meetei ext
		(r >= 0xAB00 && r < 0xAC00) // Ethiopic Ext-A, Latin Ext-E, Cherokee sup, Meetei Mayek
	if !allowed {
		return false
	}
	switch {
	case r >= 0x2500 && r < 0x25A0: // box drawing, block elements
		return false
	case r >= 0x2800 && r < 0x2900: // braille
		return false
	case r >= 0x1100 && r < 0x1200: // Hangul Jamo
		return false
	case r >= 0x2E80: // CJK radicals and beyond (already excluded)
		return false
	}
	if !unicode.IsGraphic(r) || unicode.IsSpace(r) || unicode.In(r, unicode.M, unicode.Cf, unicode.Co, unicode.Han, unicode.Hangul, unicode.Hiragana, unicode.Katakana, unicode.Yi, unicode.Bopomofo) {
		return false
	}
	s := string(r)
	return norm.NFKC.String(s) == s
}

func familyOf(rel string) string {
	base := strings.TrimSuffix(filepath.Base(rel), filepath.Ext(rel))
	fam, _, _ := strings.Cut(base, "-")
	fam = strings.Replace(fam, "UI", "", 1)
	fam = strings.TrimSuffix(fam, "Bold")
	fam = strings.TrimSuffix(fam, "Oblique")
	fam = strings.TrimSuffix(fam, "Italic")
	fam = strings.TrimSuffix(fam, "Mono")
	return strings.ToLower(fam)
}

func loadFonts(dir string) ([]*fontFile, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ext := strings.ToLower(filepath.Ext(p))
		if !d.IsDir() && (ext == ".ttf" || ext == ".otf") {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(paths)
	var fonts []*fontFile
	for _, p := range paths {
		low := strings.ToLower(p)
		if strings.Contains(low, "cjk") || strings.Contains(low, "emoji") || strings.Contains(low, "lastresort") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		f, err := sfnt.Parse(b)
		if err != nil {
			log.Printf("skip %s: %v", p, err)
			continue
		}
		rel, _ := filepath.Rel(dir, p)
		fonts = append(fonts, &fontFile{path: rel, family: familyOf(rel), f: f})
	}
	return fonts, nil
}

// render draws r in font f and returns the side x side feature (values 0..1)
// or nil when the font lacks the glyph or the glyph has no ink.
func render(ff *fontFile, r rune, buf *sfnt.Buffer) []float64 {
	gi, err := ff.f.GlyphIndex(buf, r)
	if err != nil || gi == 0 {
		return nil
	}
	segs, err := ff.f.LoadGlyph(buf, gi, fixed.I(ppem), nil)
	if err != nil || len(segs) == 0 {
		return nil
	}
	minX, maxX := math.Inf(1), math.Inf(-1)
	for _, s := range segs {
		for _, a := range s.Args[:segmentPoints(s.Op)] {
			x := float64(a.X) / 64
			minX = min(minX, x)
			maxX = max(maxX, x)
		}
	}
	dx := float32(float64(canvas)/2 - (minX+maxX)/2)
	dy := float32(baseline)
	ras := vector.NewRasterizer(canvas, canvas)
	ras.DrawOp = draw.Src
	p := func(a fixed.Point26_6) (float32, float32) {
		return float32(a.X)/64 + dx, float32(a.Y)/64 + dy
	}
	outline(ras, segs, p, false)
	ras.ClosePath()
	return cellFeatures(ras, side, side, canvas/side)
}

// cellFeatures draws ras (rows·cell x cols·cell pixels) and returns the
// rows x cols feature: each cell's mean ink (0..1), blurred (blurRect); nil
// when the drawing has less than 4 pixels' worth of ink.
func cellFeatures(ras *vector.Rasterizer, rows, cols, cell int) []float64 {
	w, h := cols*cell, rows*cell
	dst := image.NewAlpha(image.Rect(0, 0, w, h))
	ras.Draw(dst, dst.Bounds(), image.Opaque, image.Point{})
	feat := make([]float64, rows*cols)
	ink := 0.0
	for y := range h {
		for x := range w {
			v := float64(dst.Pix[y*dst.Stride+x]) / 255
			feat[(y/cell)*cols+x/cell] += v
			ink += v
		}
	}
	if ink < 4 {
		return nil
	}
	for i := range feat {
		feat[i] /= float64(cell * cell)
	}
	return blurRect(feat, rows, cols)
}

func hash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

type rendering struct {
	font int
	pix  []byte
}

type class struct {
	r     rune
	rends []rendering
}

// glyphSet is what one glyph data file holds: the candidate code points,
// how many renderings a class keeps at most, and the names of the data
// file and of its font list.
type glyphSet struct {
	cands             []rune
	maxRend           int
	dataFile, fontsTo string
}

// genGlyphs writes glyphs.bin.gz and glyph-fonts.txt: the non-CJK code
// points of candidate, up to maxRend renderings each.
func genGlyphs(dir, out string) error {
	var cands []rune
	for r := rune(0x21); r < 0xAC00; r++ {
		if candidate(r) {
			cands = append(cands, r)
		}
	}
	return genGlyphSet(dir, out, glyphSet{cands: cands, maxRend: maxRend, dataFile: "glyphs.bin.gz", fontsTo: "glyph-fonts.txt"})
}

// hangulRend is how many renderings a Hangul class keeps at most (fewer
// than the glyphs' maxRend, to keep the data file small).
const hangulRend = 8

// genHangul writes hangul.bin.gz and hangul-fonts.txt, the held-out hangul
// family: the precomposed Hangul syllables (U+AC00..U+D7A3; phonetic
// syllable blocks, not CJK ideographs) whose FNV-1a hash of their UTF-8
// form is 0 mod 4, about a quarter of the 11,172, rendered as the glyphs
// are by the fonts that map them.
func genHangul(dir, out string) error {
	var cands []rune
	for r := rune(0xAC00); r <= 0xD7A3; r++ {
		if hash(string(r))%4 == 0 {
			cands = append(cands, r)
		}
	}
	return genGlyphSet(dir, out, glyphSet{cands: cands, maxRend: hangulRend, dataFile: "hangul.bin.gz", fontsTo: "hangul-fonts.txt"})
}

// genGlyphSet renders set's candidates by the fonts under dir that map
// them (round-robin over font families, at least minRend renderings from
// minFam families per class) and writes the data file and its font list.
func genGlyphSet(dir, out string, set glyphSet) error {
	fonts, err := loadFonts(dir)
	if err != nil {
		return err
	}
	if len(fonts) == 0 {
		return errors.New("no fonts found")
	}
	log.Printf("%d fonts", len(fonts))
	cands := set.cands
	log.Printf("%d candidate code points", len(cands))
	var buf sfnt.Buffer
	var classes []class
	usedFont := map[int]bool{}
	for _, r := range cands {
		// Fonts that map r, grouped by family.
		byFam := map[string][]int{}
		for i, ff := range fonts {
			if gi, err := ff.f.GlyphIndex(&buf, r); err == nil && gi != 0 {
				byFam[ff.family] = append(byFam[ff.family], i)
			}
		}
		if len(byFam) < minFam {
			continue
		}
		fams := make([]string, 0, len(byFam))
		for f, is := range byFam {
			fams = append(fams, f)
			sort.Slice(is, func(a, b int) bool {
				return hash(fmt.Sprint(r, fonts[is[a]].path)) < hash(fmt.Sprint(r, fonts[is[b]].path))
			})
		}
		sort.Slice(fams, func(a, b int) bool { return hash(fmt.Sprint(r, fams[a])) < hash(fmt.Sprint(r, fams[b])) })
		// Round-robin over families until maxRend non-empty renderings.
		var rends []rendering
		famsUsed := map[string]bool{}
		for round := 0; len(rends) < set.maxRend; round++ {
			any := false
			for _, fam := range fams {
				if len(rends) >= set.maxRend {
					break
				}
				is := byFam[fam]
				if round >= len(is) {
					continue
				}
				any = true
				feat := render(fonts[is[round]], r, &buf)
				if feat == nil {
					continue
				}
				pix := make([]byte, len(feat))
				for i, v := range feat {
					pix[i] = byte(math.Round(min(1, max(0, v)) * 255))
				}
				rends = append(rends, rendering{font: is[round], pix: pix})
				famsUsed[fam] = true
			}
			if !any {
				break
			}
		}
		if len(rends) < minRend || len(famsUsed) < minFam {
			continue
		}
		for _, rd := range rends {
			usedFont[rd.font] = true
		}
		classes = append(classes, class{r: r, rends: rends})
	}
	log.Printf("%d classes", len(classes))
	// Font table: only fonts used.
	fontIdx := map[int]int{}
	var fontNames []string
	for i := range fonts {
		if usedFont[i] {
			fontIdx[i] = len(fontNames)
			fontNames = append(fontNames, fonts[i].path)
		}
	}
	// PCA of all stored bitmaps, normalized as at run time (glyphs.go: normalize).
	var rows [][]float64
	for _, c := range classes {
		for _, rd := range c.rends {
			v := make([]float64, len(rd.pix))
			for i, p := range rd.pix {
				v[i] = float64(p)
			}
			rows = append(rows, normalize(v))
		}
	}
	d := side * side
	mean, axes, kept, err := principalAxes(rows, pcaDims)
	if err != nil {
		return err
	}
	log.Printf("PCA: %d axes keep %.3f of the variance", pcaDims, kept)

	// Binary layout, little-endian (see glyphs.go: decodeGlyphs).
	var b binWriter
	b.WriteString("GLYPHS01")
	b.put(uint32(side), uint32(pcaDims), uint32(len(fontNames)))
	for _, n := range fontNames {
		b.putString(n)
	}
	for _, m := range mean {
		b.put(float32(m))
	}
	for _, a := range axes {
		for i := 0; i < d; i++ {
			b.put(float32(a[i]))
		}
	}
	b.put(uint32(len(classes)))
	for _, c := range classes {
		b.put(uint32(c.r), uint8(len(c.rends)))
		for _, rd := range c.rends {
			b.put(uint16(fontIdx[rd.font]))
		}
	}
	// Pixels last, delta-coded along rows for compressibility.
	for _, c := range classes {
		for _, rd := range c.rends {
			prev := byte(0)
			for i, p := range rd.pix {
				if i%side == 0 {
					prev = 0
				}
				b.WriteByte(p - prev)
				prev = p
			}
		}
	}
	if b.err != nil {
		return b.err
	}
	if err := writeGzip(filepath.Join(out, set.dataFile), b.Bytes()); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, set.fontsTo), []byte(strings.Join(fontNames, "\n")+"\n"), 0o644)
}

// binWriter is a buffer of little-endian binary data that keeps the first
// error of its writes.
type binWriter struct {
	bytes.Buffer
	err error
}

// put appends the fixed-size values vs.
func (b *binWriter) put(vs ...any) {
	for _, v := range vs {
		if b.err == nil {
			b.err = binary.Write(&b.Buffer, binary.LittleEndian, v)
		}
	}
}

// putString appends s after its length in bytes as a uint16.
func (b *binWriter) putString(s string) {
	b.put(uint16(len(s)))
	b.WriteString(s)
}

// principalAxes returns the mean of rows (all of one length d), the n
// principal axes of their covariance (eigenvectors of the largest
// eigenvalues, largest first, each of length d) and the share of the total
// variance they keep.
func principalAxes(rows [][]float64, n int) (mean []float64, axes [][]float64, kept float64, err error) {
	d := len(rows[0])
	x := mat.NewDense(len(rows), d, nil)
	for i, v := range rows {
		x.SetRow(i, v)
	}
	mean = make([]float64, d)
	for j := 0; j < d; j++ {
		mean[j] = stat.Mean(mat.Col(nil, j, x), nil)
	}
	cov := mat.NewSymDense(d, nil)
	stat.CovarianceMatrix(cov, x, nil)
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		return nil, nil, 0, errors.New("eigen decomposition failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	total := 0.0
	for _, v := range vals {
		total += v
	}
	for k := 0; k < n; k++ {
		kept += vals[d-1-k]
		axes = append(axes, mat.Col(nil, d-1-k, &vecs))
	}
	return mean, axes, kept / total, nil
}

// normalize subtracts x's average and scales it to unit norm, as
// realdata.normalize does at run time.
func normalize(x []float64) []float64 {
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	ss := 0.0
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	out := make([]float64, len(x))
	if ss == 0 {
		return out
	}
	sd := math.Sqrt(ss)
	for i, v := range x {
		out[i] = (v - m) / sd
	}
	return out
}

// outline adds a glyph's segments to ras, each point mapped by p; with
// closeEach, every contour is closed before the next one starts and at the
// end (the word renderings), else only the pen moves between contours and
// the caller closes the last one (the glyph renderings, as their data was
// made).
func outline(ras *vector.Rasterizer, segs sfnt.Segments, p func(fixed.Point26_6) (float32, float32), closeEach bool) {
	started := false
	for _, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			if started && closeEach {
				ras.ClosePath()
			}
			started = true
			ras.MoveTo(p(s.Args[0]))
		case sfnt.SegmentOpLineTo:
			ras.LineTo(p(s.Args[0]))
		case sfnt.SegmentOpQuadTo:
			x1, y1 := p(s.Args[0])
			x2, y2 := p(s.Args[1])
			ras.QuadTo(x1, y1, x2, y2)
		case sfnt.SegmentOpCubeTo:
			x1, y1 := p(s.Args[0])
			x2, y2 := p(s.Args[1])
			x3, y3 := p(s.Args[2])
			ras.CubeTo(x1, y1, x2, y2, x3, y3)
		}
	}
	if started && closeEach {
		ras.ClosePath()
	}
}
