package main

import (
	"bufio"
	"bytes"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Pronunciations (held out): English words of Debian's wamerican list,
// transcribed into phonemes by espeak-ng in each of its own English voices.
// The words are the list's lower-case words of 4..12 letters a-z that the
// speech family does not speak, sorted, every pronEvery-th from the first;
// a word is dropped when espeak-ng reads it as several words (Roman
// numerals) or when its en-us transcription equals that of a word kept
// before it (homophones in en-us: the first is kept).
const (
	pronEvery = 10 // every pronEvery-th candidate word is kept
	// pronTemplateVoice is the voice whose transcription is a class's
	// template; it comes first in the data file.
	pronTemplateVoice = "en-us"
	// pronCheckEvery: every pronCheckEvery-th word is also transcribed
	// alone, to check that the batched output lines align with the words.
	pronCheckEvery = 97
)

// espeakVoices returns the template voice and then, sorted, the other
// English voices of espeak-ng's own (the "gmw/" voice files listed by
// `espeak-ng --voices=en`); the MBROLA voices ("mb/" files) are left out:
// they need the separate mbrola program and voice databases.
func espeakVoices() ([]string, error) {
	out, err := exec.Command("espeak-ng", "--voices=en").Output()
	if err != nil {
		return nil, fmt.Errorf("espeak-ng --voices=en: %w", err)
	}
	var others []string
	found := false
	for _, line := range strings.Split(string(out), "\n")[1:] {
		f := strings.Fields(line)
		// Pty Language Age/Gender VoiceName File [Other languages]
		if len(f) < 5 || !strings.HasPrefix(f[4], "gmw/") {
			continue
		}
		switch name := f[1]; {
		case name == pronTemplateVoice:
			found = true
		case !slices.Contains(others, name):
			others = append(others, name)
		}
	}
	if !found || len(others) < 2 {
		return nil, fmt.Errorf("espeak-ng --voices=en: want %s and at least 2 other English voices, have %v (en-us found: %v)", pronTemplateVoice, others, found)
	}
	slices.Sort(others)
	return append([]string{pronTemplateVoice}, others...), nil
}

// pronWords returns the pronunciations family's words: pronCandidates,
// every pronEvery-th from the first.
func pronWords(dict, dir string) ([]string, error) {
	all, err := pronCandidates(dict, dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for i := 0; i < len(all); i += pronEvery {
		out = append(out, all[i])
	}
	log.Printf("pronunciations: %d candidate words, %d kept (every %d-th)", len(all), len(out), pronEvery)
	return out, nil
}

// pronCandidates returns the candidate words of the word list at dict (one
// word a line), without the speech family's words (read from
// misspellings.txt.gz in dir): lower-case words of 4..12 letters a-z,
// sorted, each once.
func pronCandidates(dict, dir string) ([]string, error) {
	raw, err := os.ReadFile(dict)
	if err != nil {
		return nil, err
	}
	spoken, err := speechWords(dir)
	if err != nil {
		return nil, fmt.Errorf("the speech family's words: %w", err)
	}
	isSpoken := map[string]bool{}
	for _, w := range spoken {
		isSpoken[w] = true
	}
	ok := regexp.MustCompile(`^[a-z]{4,12}$`)
	var all []string
	left := 0
	for _, w := range strings.Split(string(raw), "\n") {
		switch {
		case !ok.MatchString(w):
		case isSpoken[w]:
			left++
		default:
			all = append(all, w)
		}
	}
	slices.Sort(all)
	all = slices.Compact(all)
	log.Printf("%d candidate words of %s (%d spoken by the speech family left out)", len(all), dict, left)
	return all, nil
}

// transcribe returns espeak-ng's IPA transcription of each word in voice,
// phonemes separated by "_", one word per clause ("word." a line, so that
// no word's pronunciation depends on its neighbours). It checks that the
// output has one line per word, and that every pronCheckEvery-th word
// transcribed alone gives its line.
func transcribe(voice string, words []string, tmp string) ([]string, error) {
	args := []string{"-v", voice, "-q", "--ipa", "--sep=_"}
	var in bytes.Buffer
	for _, w := range words {
		fmt.Fprintf(&in, "%s.\n", w)
	}
	path := filepath.Join(tmp, "words-"+voice+".txt")
	if err := os.WriteFile(path, in.Bytes(), 0o644); err != nil {
		return nil, err
	}
	out, err := exec.Command("espeak-ng", append(args, "-f", path)...).Output()
	if err != nil {
		return nil, fmt.Errorf("espeak-ng -v %s: %w", voice, err)
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		lines = append(lines, strings.TrimSpace(sc.Text()))
	}
	if len(lines) != len(words) {
		return nil, fmt.Errorf("espeak-ng -v %s: %d lines for %d words", voice, len(lines), len(words))
	}
	for i := 0; i < len(words); i += pronCheckEvery {
		one, err := exec.Command("espeak-ng", append(args, words[i]+".")...).Output()
		if err != nil {
			return nil, fmt.Errorf("espeak-ng -v %s %s: %w", voice, words[i], err)
		}
		if got := strings.TrimSpace(string(one)); got != lines[i] {
			return nil, fmt.Errorf("espeak-ng -v %s: %q alone gives %q, in the batch %q: lines misaligned", voice, words[i], got, lines[i])
		}
	}
	return lines, nil
}

// pronPhonemes splits an IPA transcription into its phonemes as the
// run-time code does (realdata: pronPhonemes): on "_", stress marks
// removed, empty phonemes (syllable marks with no IPA form) dropped.
func pronPhonemes(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "_") {
		if p = strings.ReplaceAll(strings.ReplaceAll(p, "ˈ", ""), "ˌ", ""); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// genPronunciations writes pronunciations.txt.gz: a header line
// "word<TAB>voice<TAB>voice...", then per kept word "word<TAB>" and its
// transcription in each voice (as espeak-ng printed it), tab-separated,
// the template voice (en-us) first.
func genPronunciations(dict, out string) error {
	voices, err := espeakVoices()
	if err != nil {
		return err
	}
	words, err := pronWords(dict, out)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "pronunciations")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	trans := make([][]string, len(voices))
	for v, voice := range voices {
		if trans[v], err = transcribe(voice, words, tmp); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "word\t%s\n", strings.Join(voices, "\t"))
	seen := map[string]string{}
	kept, identical, points := 0, 0, 0
	for i, w := range words {
		var several []string
		for v := range voices {
			if strings.ContainsAny(trans[v][i], " \t") || trans[v][i] == "" {
				several = append(several, voices[v])
			}
		}
		if len(several) > 0 {
			log.Printf("pronunciations: %q left out: read as several words (or none) by %v: %q", w, several, trans[0][i])
			continue
		}
		key := strings.Join(pronPhonemes(trans[0][i]), " ")
		if first, ok := seen[key]; ok {
			log.Printf("pronunciations: %q left out: sounds as %q in %s (/%s/)", w, first, pronTemplateVoice, key)
			continue
		}
		seen[key] = w
		kept++
		buf.WriteString(w)
		for v := range voices {
			buf.WriteString("\t" + trans[v][i])
			if v > 0 {
				points++
				if slices.Equal(pronPhonemes(trans[v][i]), pronPhonemes(trans[0][i])) {
					identical++
				}
			}
		}
		buf.WriteString("\n")
	}
	log.Printf("pronunciations: %d words, voices %v; %d of %d test transcriptions equal their word's %s one", kept, voices, identical, points, pronTemplateVoice)
	return writeGzip(filepath.Join(out, "pronunciations.txt.gz"), buf.Bytes())
}
