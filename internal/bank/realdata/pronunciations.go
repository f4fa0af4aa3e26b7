package realdata

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/scores"
)

// pronData is written by ./gen (see README.md): a header line
// "word<TAB>en-us<TAB>voice...", then per English word (of Debian's
// wamerican list) "word<TAB>" and its IPA transcription by espeak-ng in each
// voice (phonemes separated by "_", as espeak-ng printed it), tab-separated,
// the en-us voice first.
//
//go:embed data/pronunciations.txt.gz
var pronData []byte

// pronTemplateVoice is the voice whose transcription is a word's template;
// the transcriptions in the other voices are its test points.
const pronTemplateVoice = "en-us"

// pronFeat is a transcription's padded phoneme bigram and trigram vectors.
type pronFeat struct {
	bi, tri gramVec
}

// pronPool is the decoded pronunciations data.
type pronPool struct {
	voices []string     // voices[0] is pronTemplateVoice
	words  []string     // pool words (classes), ascending
	trans  [][]string   // per word, per voice, its transcription as stored
	feats  [][]pronFeat // per word, per voice
	ngrams int          // number of distinct phoneme n-gram ids
}

// loadPronunciations decodes the embedded pronunciations data once, on
// first use.
var loadPronunciations = decoded("pronunciations", pronData, decodePronunciations)

func decodePronunciations(gz []byte) (*pronPool, error) {
	p := &pronPool{}
	ids := map[string]int32{}
	var head []string
	err := gzipLines(gz, func(n int, text string) error {
		f := strings.Split(text, "\t")
		if n == 1 {
			if len(f) < 3 || f[0] != "word" || f[1] != pronTemplateVoice {
				return fmt.Errorf("header %q: want word<TAB>%s<TAB>other voices", text, pronTemplateVoice)
			}
			head, p.voices = f, f[1:]
			return nil
		}
		if len(f) != len(head) || f[0] == "" {
			return fmt.Errorf("line %d: want a word and %d transcriptions, have %d fields", n, len(p.voices), len(f))
		}
		if len(p.words) > 0 && f[0] <= p.words[len(p.words)-1] {
			return fmt.Errorf("line %d: word %q after %q: words are not sorted", n, f[0], p.words[len(p.words)-1])
		}
		feats := make([]pronFeat, len(p.voices))
		for v, t := range f[1:] {
			ph := pronPhonemes(t)
			if len(ph) == 0 {
				return fmt.Errorf("line %d: word %q has no phonemes in voice %s", n, f[0], p.voices[v])
			}
			padded := append(append([]string{"^"}, ph...), "$")
			feats[v] = pronFeat{bi: phonemeGrams(padded, 2, ids), tri: phonemeGrams(padded, 3, ids)}
		}
		p.words = append(p.words, f[0])
		p.trans = append(p.trans, f[1:])
		p.feats = append(p.feats, feats)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if head == nil {
		return nil, fmt.Errorf("no header line")
	}
	p.ngrams = len(ids)
	return p, nil
}

// pronPhonemes splits an IPA transcription as espeak-ng prints it with
// --sep=_ into its phonemes: split on "_", the stress marks (U+02C8,
// U+02CC) removed, empty phonemes (syllable marks with no IPA form)
// dropped. A phoneme may be several characters ("aɪ", "tʃ", "ɑːɹ").
func pronPhonemes(s string) []string {
	var out []string
	for _, ph := range strings.Split(s, "_") {
		if ph = strings.ReplaceAll(strings.ReplaceAll(ph, "ˈ", ""), "ˌ", ""); ph != "" {
			out = append(out, ph)
		}
	}
	return out
}

// phonemeGrams returns the count vector of the n-grams of the phoneme
// sequence ph, interning them in ids (keyed by the phonemes joined with
// spaces, which no phoneme holds).
func phonemeGrams(ph []string, n int, ids map[string]int32) gramVec {
	keys := make([]string, 0, len(ph))
	for i := 0; i+n <= len(ph); i++ {
		keys = append(keys, strings.Join(ph[i:i+n], " "))
	}
	return countVec(keys, ids)
}

// population builds the matrix for the given pool words (ascending): a
// word's template is its en-us transcription, its test points are its
// transcriptions in the other voices (in the data's voice order, identical
// ones included), and a point's score for a word is
//
//	(cos_bigram + cos_trigram)/2,
//
// the cosines taken between phoneme n-gram count vectors of the
// transcriptions padded with a start and an end symbol. Nothing here is
// random: a population depends only on which words it holds.
func (p *pronPool) population(classes []int) *scores.Matrix {
	k := len(classes)
	m := &scores.Matrix{Classes: make([]string, k)}
	bis := make([]gramVec, k)
	tris := make([]gramVec, k)
	var points []pronFeat
	for j, c := range classes {
		m.Classes[j] = p.words[c]
		bis[j], tris[j] = p.feats[c][0].bi, p.feats[c][0].tri
		for _, f := range p.feats[c][1:] {
			points = append(points, f)
			m.Labels = append(m.Labels, j)
		}
	}
	biIdx, triIdx := index(bis, p.ngrams), index(tris, p.ngrams)
	m.Scores = make([]float64, len(points)*k)
	dot2 := make([]float64, k)
	dot3 := make([]float64, k)
	for i, f := range points {
		clear(dot2)
		clear(dot3)
		accumulate(f.bi, biIdx, dot2)
		accumulate(f.tri, triIdx, dot3)
		row := m.Scores[i*k : (i+1)*k]
		for j := range row {
			cos2 := dot2[j] / float64(f.bi.norm*bis[j].norm)
			cos3 := dot3[j] / float64(f.tri.norm*tris[j].norm)
			row[j] = (cos2 + cos3) / 2
		}
	}
	return m
}
