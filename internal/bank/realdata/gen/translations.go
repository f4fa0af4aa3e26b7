package main

import (
	"bytes"
	"fmt"
	"log"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Translations: every verse of the King James Version with its text in the
// World English Bible, both read from the SWORD modules of Debian (packages
// sword-text-kjv and sword-text-web) with the diatheke program (package
// diatheke), verses aligned by reference (book, chapter, verse, as diatheke
// names them in each module's own versification).
const (
	// kjvModule and webModule are the SWORD modules read.
	kjvModule = "engKJV2006eb"
	webModule = "engWEB2015eb"
	// bibleRange is the diatheke key of the whole Protestant canon; the WEB
	// module holds the deuterocanonical books too, which the pool ignores
	// (only the KJV's references are looked up in the WEB).
	bibleRange = "Gen 1:1-Rev 22:21"
	// minTranslationWords is the fewest words a verse needs in both
	// translations to enter the pool (words as the run-time code counts
	// them: translationTerms).
	minTranslationWords = 8
	// kjvBooks, kjvChapters and kjvVerses are what the KJV module must hold.
	kjvBooks, kjvChapters, kjvVerses = 66, 1189, 31102
)

// verseRef matches a verse reference as diatheke prints it before a
// verse's text, "Book chapter:verse: " (books like "Genesis", "I Samuel",
// "Song of Solomon", "Revelation of John", "Esther (Greek)"). Section and psalm headings that
// diatheke prints before a reference (on the same line, and repeated for
// later verses) hold no such pattern, so the first match is the reference.
var verseRef = regexp.MustCompile(`((?:[IV]+ )?[A-Z][a-z]+(?: [a-zA-Z]+)*(?: \([A-Z][a-z]+\))?) ([0-9]+):([0-9]+): `)

// moduleVerse is one verse of a module: its book, chapter and verse number
// and its text.
type moduleVerse struct {
	book           string
	chapter, verse int
	text           string
}

// ref returns the verse's reference, "Book chapter:verse".
func (v moduleVerse) ref() string { return fmt.Sprintf("%s %d:%d", v.book, v.chapter, v.verse) }

// readModule returns the verses of bibleRange in the SWORD module mod, read
// with diatheke in its OSIS output format (one verse a line, after its
// reference and any headings), in the module's order, as plain text:
// titles and notes dropped with their content, a space put between
// adjacent <w> elements (the WEB's markup omits it in about a hundred
// places, e.g. "God</w><w>created" in Genesis 1:1), the <w> tags removed
// and the other markup replaced by a space, the USFM character markers
// left in the KJV's text removed (26 places, "\nd LORD"), runs of white
// space made one space.
func readModule(diatheke, mod string) ([]moduleVerse, error) {
	cmd := exec.Command(diatheke, "-b", mod, "-f", "OSIS", "-k", bibleRange)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s -b %s: %v: %s", diatheke, mod, err, stderr.Bytes())
	}
	dropped := regexp.MustCompile(`<title[^>]*>.*?</title>|<note[^>]*>.*?</note>`)
	word := regexp.MustCompile(`</?w(?: [^>]*)?>`)
	tag := regexp.MustCompile(`<[^>]*>`)
	usfm := regexp.MustCompile(`\\[a-z]+\*?`)
	var out []moduleVerse
	for i, line := range strings.Split(string(raw), "\n") {
		loc := verseRef.FindStringSubmatchIndex(line)
		if loc == nil {
			if strings.TrimSpace(line) == "" || strings.TrimSpace(line) == "("+mod+")" {
				continue
			}
			return nil, fmt.Errorf("%s line %d: no verse reference in %q", mod, i+1, line)
		}
		ch, _ := strconv.Atoi(line[loc[4]:loc[5]])
		vn, _ := strconv.Atoi(line[loc[6]:loc[7]])
		text := dropped.ReplaceAllString(line[loc[1]:], " ")
		text = strings.ReplaceAll(text, "</w><w", "</w> <w")
		text = word.ReplaceAllString(text, "")
		text = tag.ReplaceAllString(text, " ")
		text = usfm.ReplaceAllString(text, "")
		text = strings.Join(strings.Fields(text), " ")
		if strings.ContainsAny(text, "<>\t") {
			return nil, fmt.Errorf("%s %s %d:%d: markup or tab left in %q", mod, line[loc[2]:loc[3]], ch, vn, text)
		}
		out = append(out, moduleVerse{book: line[loc[2]:loc[3]], chapter: ch, verse: vn, text: text})
	}
	return out, nil
}

// translationTerms returns the words of text as the run-time code
// (realdata's terms, after reading "’" as an apostrophe) finds them: letters
// lower-cased, apostrophes ("'", "’") and hyphens removed, any other
// character a separator.
func translationTerms(text string) []string {
	var out []string
	var w []rune
	for _, r := range text + " " {
		switch {
		case unicode.IsLetter(r):
			w = append(w, unicode.ToLower(r))
		case r == '\'' || r == '’' || r == '-':
		case len(w) > 0:
			out = append(out, string(w))
			w = w[:0]
		}
	}
	return out
}

// genTranslations writes translations.txt.gz: one line per pool verse,
// "Book chapter:verse<TAB>KJV text<TAB>WEB text", in the KJV's canonical
// order. A verse is kept when both texts hold at least minTranslationWords
// words (translationTerms) and no earlier kept verse has the same KJV words
// (the same bag of words: its template would be the same vector), which
// drops exact repeats of a KJV text and repeats that differ only in
// punctuation or capitals. The KJV module
// must hold its 66 books, 1189 chapters and 31102 verses, each chapter's
// verses numbered from 1.
func genTranslations(diatheke, out string) error {
	kjv, err := readModule(diatheke, kjvModule)
	if err != nil {
		return err
	}
	web, err := readModule(diatheke, webModule)
	if err != nil {
		return err
	}
	books, chapters := 0, 0
	for i, v := range kjv {
		switch {
		case i == 0 || v.book != kjv[i-1].book:
			books++
			chapters++
			if v.chapter != 1 || v.verse != 1 {
				return fmt.Errorf("%s: book starts at %d:%d", kjvModule, v.chapter, v.verse)
			}
		case v.chapter != kjv[i-1].chapter:
			chapters++
			if v.chapter != kjv[i-1].chapter+1 || v.verse != 1 {
				return fmt.Errorf("%s: %s follows %s", kjvModule, v.ref(), kjv[i-1].ref())
			}
		case v.verse != kjv[i-1].verse+1:
			return fmt.Errorf("%s: %s follows %s", kjvModule, v.ref(), kjv[i-1].ref())
		}
	}
	if books != kjvBooks || chapters != kjvChapters || len(kjv) != kjvVerses {
		return fmt.Errorf("%s: %d books, %d chapters, %d verses; want %d, %d, %d", kjvModule, books, chapters, len(kjv), kjvBooks, kjvChapters, kjvVerses)
	}
	webText := map[string]string{}
	for _, v := range web {
		if _, dup := webText[v.ref()]; dup {
			return fmt.Errorf("%s: %s twice", webModule, v.ref())
		}
		webText[v.ref()] = v.text
	}
	var buf bytes.Buffer
	seen := map[string]bool{}
	missing, empty, short, dups, kept := 0, 0, 0, 0, 0
	for _, v := range kjv {
		w, ok := webText[v.ref()]
		kt := translationTerms(v.text)
		slices.Sort(kt)
		bag := strings.Join(kt, " ")
		switch {
		case !ok:
			missing++
		case w == "":
			empty++
			log.Printf("translations: %s empty in %s", v.ref(), webModule)
		case len(kt) < minTranslationWords || len(translationTerms(w)) < minTranslationWords:
			short++
		case seen[bag]:
			dups++
		default:
			seen[bag] = true
			kept++
			fmt.Fprintf(&buf, "%s\t%s\t%s\n", v.ref(), v.text, w)
		}
	}
	log.Printf("translations: %d KJV verses; %d not in %s, %d empty there, %d with fewer than %d words, %d repeating a kept verse's KJV words; %d kept",
		len(kjv), missing, webModule, empty, short, minTranslationWords, dups, kept)
	return writeGzip(filepath.Join(out, "translations.txt.gz"), buf.Bytes())
}
