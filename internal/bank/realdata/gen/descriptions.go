package main

import (
	"bufio"
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
)

// Descriptions (held out): the English package descriptions of Debian 12
// (bookworm) main, as the archive's Translation-en index holds them
// (main/i18n/Translation-en, decompressed: `lz4cat` of apt's
// deb.debian.org_debian_dists_bookworm_main_i18n_Translation-en.lz4). A
// class is one distinct description: packages whose long descriptions
// start with the same paragraph (the binary packages of one source often
// share it) make one class, named by the first of them in file order, whose
// whole description is the class's. The long description is cut into
// sentences; a class needs descMinSentences of them and keeps its first
// descMaxSentences, and only the classes whose package name's FNV-1a 64-bit
// hash is 0 mod descEvery are written, to keep the file small.
const (
	// descMinWords is the fewest words a sentence needs (words as the
	// run-time code counts them: translationTerms).
	descMinWords = 8
	// descMinSentences is the fewest sentences a class needs.
	descMinSentences = 4
	// descMaxSentences is the most sentences a class keeps (its first).
	descMaxSentences = 10
	// descEvery: a class is kept when the hash of its package name is 0 mod
	// descEvery.
	descEvery = 2
)

// descRecord is one record of the Translation-en index: a package, its
// short description and its long description's paragraphs (each paragraph's
// lines joined by a space, white space runs made one space).
type descRecord struct {
	pkg, short string
	paras      []string
}

// readDescriptions parses the Translation-en index at path: records
// separated by blank lines, each "Package: name", "Description-md5: ..." and
// "Description-en: short" followed by the long description, lines starting
// with a space, a line " ." separating paragraphs.
func readDescriptions(path string) ([]descRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []descRecord
	var cur *descRecord
	var para []string
	inDesc := false
	endPara := func() {
		if cur != nil && len(para) > 0 {
			cur.paras = append(cur.paras, strings.Join(strings.Fields(strings.Join(para, " ")), " "))
		}
		para = para[:0]
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case line == "":
			endPara()
			cur, inDesc = nil, false
		case strings.HasPrefix(line, "Package: "):
			if cur != nil {
				return nil, fmt.Errorf("%s line %d: Package without a blank line before it", path, n)
			}
			recs = append(recs, descRecord{pkg: strings.TrimSpace(strings.TrimPrefix(line, "Package: "))})
			cur = &recs[len(recs)-1]
		case cur == nil:
			return nil, fmt.Errorf("%s line %d: %q outside a record", path, n, line)
		case strings.HasPrefix(line, "Description-md5: "):
		case strings.HasPrefix(line, "Description-en: "):
			cur.short = strings.Join(strings.Fields(strings.TrimPrefix(line, "Description-en: ")), " ")
			inDesc = true
		case strings.HasPrefix(line, " ") && inDesc:
			if strings.TrimSpace(line) == "." {
				endPara()
			} else {
				para = append(para, line)
			}
		default:
			return nil, fmt.Errorf("%s line %d: unexpected %q", path, n, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	endPara()
	for _, r := range recs {
		if r.pkg == "" || r.short == "" {
			return nil, fmt.Errorf("%s: record %q without a package name or short description", path, r.pkg)
		}
	}
	return recs, nil
}

// descSentences cuts a paragraph into sentences: after each ".", "!" or "?"
// that a space follows (so also after abbreviations such as "e.g."), and at
// the paragraph's end.
func descSentences(para string) []string {
	var out []string
	start := 0
	for i := 0; i+1 < len(para); i++ {
		if strings.IndexByte(".!?", para[i]) >= 0 && para[i+1] == ' ' {
			out = append(out, strings.TrimSpace(para[start:i+1]))
			start = i + 1
		}
	}
	if s := strings.TrimSpace(para[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// genDescriptions writes descriptions.txt.gz from the decompressed
// Translation-en index at path: one line per kept class,
// "package<TAB>short description<TAB>sentence<TAB>sentence...", in file
// order. Classes: the first record (in file order) of each distinct first
// paragraph of a long description (records without one, and a package
// name's later records, are skipped). Sentences: descSentences of every
// paragraph, those of at least descMinWords words, exact repeats within the
// class dropped; a class needs descMinSentences and keeps its first
// descMaxSentences; it is written when hash(package) % descEvery == 0.
func genDescriptions(path, out string) error {
	recs, err := readDescriptions(path)
	if err != nil {
		return err
	}
	firstPara, names := map[string]bool{}, map[string]bool{}
	var buf bytes.Buffer
	noLong, repeatName, shared, few, qualified, kept, sentences := 0, 0, 0, 0, 0, 0, 0
	for _, r := range recs {
		switch {
		case names[r.pkg]:
			repeatName++
			continue
		case len(r.paras) == 0:
			noLong++
			names[r.pkg] = true
			continue
		case firstPara[r.paras[0]]:
			shared++
			names[r.pkg] = true
			continue
		}
		names[r.pkg], firstPara[r.paras[0]] = true, true
		var ss []string
		seen := map[string]bool{}
		for _, p := range r.paras {
			for _, s := range descSentences(p) {
				if len(translationTerms(s)) >= descMinWords && !seen[s] {
					seen[s] = true
					ss = append(ss, s)
				}
			}
		}
		if len(ss) < descMinSentences {
			few++
			continue
		}
		qualified++
		if hash(r.pkg)%descEvery != 0 {
			continue
		}
		kept++
		ss = ss[:min(len(ss), descMaxSentences)]
		sentences += len(ss)
		fmt.Fprintf(&buf, "%s\t%s\t%s\n", r.pkg, r.short, strings.Join(ss, "\t"))
	}
	log.Printf("descriptions: %d records; %d repeat a package name, %d have no long description, %d share an earlier first paragraph, %d have fewer than %d sentences of %d words; %d qualify, %d kept (hash 0 mod %d) with %d sentences",
		len(recs), repeatName, noLong, shared, few, descMinSentences, descMinWords, qualified, kept, descEvery, sentences)
	return writeGzip(filepath.Join(out, "descriptions.txt.gz"), buf.Bytes())
}
