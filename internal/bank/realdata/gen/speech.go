package main

import (
	"bytes"
	"fmt"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/go-audio/wav"
	"gonum.org/v1/gonum/dsp/fourier"
)

// Speech: every fifth word (in sorted order) of the misspellings data's
// correct words of 3..12 lower-case letters is spoken by two speech
// synthesizers of Debian (espeak-ng in six English accents, each with its
// default and its "f3" voice variant, and flite with four voices): 16
// renditions per word. Each rendition becomes a time-normalised cepstrum
// (speechFeatures), and the principal axes of all of them reduce it to
// speechDims numbers, stored as int8 with one scale.
const (
	speechEvery  = 5  // every speechEvery-th candidate word is kept
	speechMels   = 24 // mel bands
	speechCeps   = 12 // cepstral coefficients kept (c1..c12)
	speechFrames = 20 // frames after time normalisation
	speechDims   = 32 // principal axes stored
	speechNFFT   = 1024
)

// speechRenditions names the renditions, in storage order, and says how to
// make each: an espeak-ng voice (with "+variant") or a flite voice.
var speechRenditions = func() []string {
	var out []string
	for _, v := range []string{"en-us", "en-gb", "en-gb-scotland", "en-gb-x-rp", "en-029", "en-us-nyc"} {
		out = append(out, "espeak-"+v, "espeak-"+v+"+f3")
	}
	for _, v := range []string{"kal", "awb", "rms", "slt"} {
		out = append(out, "flite-"+v)
	}
	return out
}()

// synthCommand returns the command that speaks word into path as rendition r.
func synthCommand(r, word, path string) *exec.Cmd {
	if v, ok := strings.CutPrefix(r, "espeak-"); ok {
		return exec.Command("espeak-ng", "-v", v, "-w", path, word)
	}
	return exec.Command("flite", "-voice", strings.TrimPrefix(r, "flite-"), "-t", word, "-o", path)
}

// speechWords returns the words of misspellings.txt.gz in dir that the
// speech family speaks: correct words of 3..12 letters a-z, sorted, every
// speechEvery-th from the first.
func speechWords(dir string) ([]string, error) {
	words, err := misspellingsWords(dir)
	if err != nil {
		return nil, err
	}
	ok := regexp.MustCompile(`^[a-z]{3,12}$`)
	var all []string
	for w := range words {
		if ok.MatchString(w) {
			all = append(all, w)
		}
	}
	sort.Strings(all)
	var out []string
	for i := 0; i < len(all); i += speechEvery {
		out = append(out, all[i])
	}
	return out, nil
}

// genSpeech writes speech.bin.gz. Spoken renditions are kept in wavDir
// (wavDir/word/rendition.wav) and made when missing, so a rerun reuses them.
func genSpeech(wavDir, out string) error {
	words, err := speechWords(out)
	if err != nil {
		return err
	}
	type job struct{ w, r int }
	jobs := make(chan job)
	feats := make([][][]float64, len(words))
	for i := range feats {
		feats[i] = make([][]float64, len(speechRenditions))
	}
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range runtime.NumCPU() + 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				word, r := words[j.w], speechRenditions[j.r]
				path := filepath.Join(wavDir, word, r+".wav")
				if st, err := os.Stat(path); err != nil || st.Size() == 0 {
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
						if b, err := synthCommand(r, word, path).CombinedOutput(); err != nil {
							log.Printf("%s %s: %v: %s", word, r, err, b)
						}
					}
				}
				v, err := speechFeatures(path)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("%s: %w", path, err)
				}
				feats[j.w][j.r] = v
				mu.Unlock()
			}
		}()
	}
	for w := range words {
		for r := range speechRenditions {
			jobs <- job{w, r}
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	var rows [][]float64
	for _, fw := range feats {
		rows = append(rows, fw...)
	}
	mean, axes, kept, err := principalAxes(rows, speechDims)
	if err != nil {
		return err
	}
	log.Printf("speech: %d words x %d renditions; PCA: %d axes keep %.3f of the variance", len(words), len(speechRenditions), speechDims, kept)
	coef := make([]float64, 0, len(rows)*speechDims)
	maxAbs := 0.0
	for _, x := range rows {
		for _, a := range axes {
			c := 0.0
			for i, v := range x {
				c += (v - mean[i]) * a[i]
			}
			coef = append(coef, c)
			maxAbs = math.Max(maxAbs, math.Abs(c))
		}
	}
	scale := maxAbs / 127

	// Binary layout, little-endian (see speech.go: decodeSpeech).
	var b binWriter
	b.WriteString("SPEECH01")
	b.put(uint32(speechDims), uint32(len(speechRenditions)))
	for _, r := range speechRenditions {
		b.putString(r)
	}
	b.put(scale, uint32(len(words)))
	for _, word := range words {
		b.putString(word)
	}
	for _, c := range coef {
		b.put(int8(math.Round(c / scale)))
	}
	if b.err != nil {
		return b.err
	}
	return writeGzip(filepath.Join(out, "speech.bin.gz"), b.Bytes())
}

// speechFeatures reads a 16-bit mono WAV file and returns its time-normalised
// cepstrum: 25 ms Hamming frames every 10 ms, the power spectrum (a
// speechNFFT-point FFT) summed by speechMels triangular filters spaced evenly
// on the mel scale (mel = 2595 log10(1 + f/700)) from 100 to 7,000 Hz, the log
// of each band, its DCT-II coefficients 1..speechCeps (c0, the loudness, left
// out); the frames between the first and last whose energy is within 40 dB of
// the loudest (silence trimmed), each coefficient's mean over them subtracted
// (cepstral mean normalisation, which removes a fixed voice colouring), and
// the track resampled linearly to speechFrames frames. The result has
// speechFrames * speechCeps values, frame by frame.
func speechFeatures(path string) ([]float64, error) {
	// The decoder reads a few bytes at a time: it reads from memory, not
	// from the file.
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	d := wav.NewDecoder(bytes.NewReader(raw))
	buf, err := d.FullPCMBuffer()
	if err != nil {
		return nil, err
	}
	if buf.Format == nil || buf.Format.NumChannels != 1 || d.BitDepth != 16 {
		return nil, fmt.Errorf("want 16-bit mono, have %d channels of %d bits", buf.Format.NumChannels, d.BitDepth)
	}
	sr := float64(buf.Format.SampleRate)
	x := make([]float64, len(buf.Data))
	for i, v := range buf.Data {
		x[i] = float64(v) / 32768
	}
	flen, hop := int(math.Round(0.025*sr)), int(math.Round(0.010*sr))
	if len(x) < flen || flen > speechNFFT {
		return nil, fmt.Errorf("%d samples at %g Hz: too short, or frames longer than the FFT", len(x), sr)
	}
	nfr := 1 + (len(x)-flen)/hop
	// Mel filter bank on the FFT bins.
	mel := func(f float64) float64 { return 2595 * math.Log10(1+f/700) }
	hz := func(m float64) float64 { return 700 * (math.Pow(10, m/2595) - 1) }
	lo, hi := mel(100), mel(7000)
	edges := make([]float64, speechMels+2)
	for i := range edges {
		edges[i] = hz(lo + (hi-lo)*float64(i)/float64(speechMels+1))
	}
	nb := speechNFFT/2 + 1
	// The filters each FFT bin k (at frequency k sr / speechNFFT) falls in,
	// with its weight in each, and the Hamming window, computed once.
	type tap struct {
		m int
		w float64
	}
	taps := make([][]tap, nb)
	for k := range nb {
		f := float64(k) * sr / speechNFFT
		for m := range speechMels {
			l, c, r := edges[m], edges[m+1], edges[m+2]
			if f > l && f < r {
				taps[k] = append(taps[k], tap{m, math.Min((f-l)/(c-l), (r-f)/(r-c))})
			}
		}
	}
	window := make([]float64, flen)
	for i := range window {
		window[i] = 0.54 - 0.46*math.Cos(2*math.Pi*float64(i)/float64(flen-1))
	}
	fft := fourier.NewFFT(speechNFFT)
	frame := make([]float64, speechNFFT)
	var coeffs []complex128
	logMel := make([][]float64, nfr)
	energy := make([]float64, nfr)
	for t := range nfr {
		clear(frame)
		for i := range flen {
			frame[i] = x[t*hop+i] * window[i]
		}
		coeffs = fft.Coefficients(coeffs, frame)
		bands := make([]float64, speechMels)
		total := 0.0
		for k := range nb {
			p := real(coeffs[k])*real(coeffs[k]) + imag(coeffs[k])*imag(coeffs[k])
			total += p
			for _, tp := range taps[k] {
				bands[tp.m] += p * tp.w
			}
		}
		for m := range bands {
			bands[m] = math.Log(bands[m] + 1e-10)
		}
		logMel[t] = bands
		energy[t] = math.Log(total + 1e-10)
	}
	top := math.Inf(-1)
	for _, e := range energy {
		top = math.Max(top, e)
	}
	first, last := -1, -1
	for t, e := range energy {
		if e > top-math.Log(1e4) {
			if first < 0 {
				first = t
			}
			last = t
		}
	}
	track := logMel[first : last+1]
	ceps := make([][]float64, len(track))
	avg := make([]float64, speechCeps)
	for t, bands := range track {
		c := make([]float64, speechCeps)
		for j := range c {
			for m, v := range bands {
				c[j] += v * math.Cos(math.Pi/speechMels*(float64(m)+0.5)*float64(j+1))
			}
			avg[j] += c[j] / float64(len(track))
		}
		ceps[t] = c
	}
	out := make([]float64, 0, speechFrames*speechCeps)
	for i := range speechFrames {
		pos := float64(i) * float64(len(ceps)-1) / float64(speechFrames-1)
		a := int(pos)
		b := min(a+1, len(ceps)-1)
		w := pos - float64(a)
		for j := range speechCeps {
			out = append(out, (1-w)*(ceps[a][j]-avg[j])+w*(ceps[b][j]-avg[j]))
		}
	}
	return out, nil
}
