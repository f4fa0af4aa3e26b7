package realdata

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
)

// The held-out wordimages family is kept out of the bank's families and
// comes last among the held-out ones; its pool holds at least 4,000
// distinct sorted words of 4..12 letters a-z, none a class of another
// family that uses words (misspellings, speech, pronunciations) nor a
// correct word of the misspellings data; each word has 6..12 renderings,
// each by a font of another font family (family keys as in
// data/wordimage-fonts.txt), and no rendering's coordinates are all zero.
func TestWordImagePool(t *testing.T) {
	held := HeldOutFamilies()
	if slices.Contains(Families(), WordImages) || held[len(held)-1] != WordImages || slices.Index(held, WordImages) <= slices.Index(held, Descriptions) {
		t.Fatalf("families %v, held out %v", Families(), held)
	}
	p, err := loadWordImages()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.words) < 4000 || p.dims != 48 {
		t.Fatalf("pool: %d words, %d dims; want >= 4000, 48", len(p.words), p.dims)
	}
	if n, err := PoolSize(WordImages); err != nil || n != len(p.words) {
		t.Errorf("PoolSize = %d, %v; pool has %d words", n, err, len(p.words))
	}
	others := map[string]string{}
	w, err := loadWords()
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range w.words {
		others[x] = Misspellings
	}
	if err := gzipLines(wordsData, func(_ int, text string) error {
		word, _, _ := strings.Cut(text, "\t")
		if _, ok := others[word]; !ok {
			others[word] = "the misspellings data"
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	sp, err := loadSpeech()
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range sp.words {
		others[x] = Speech
	}
	pr, err := loadPronunciations()
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range pr.words {
		others[x] = Pronunciations
	}
	family := fontFamilies(t)
	for c, x := range p.words {
		if strings.Trim(x, "abcdefghijklmnopqrstuvwxyz") != "" || len(x) < 4 || len(x) > 12 || (c > 0 && x <= p.words[c-1]) {
			t.Fatalf("word %d %q: not 4..12 letters a-z, or not after %q", c, x, p.words[max(c-1, 0)])
		}
		if f, ok := others[x]; ok {
			t.Errorf("word %q is also a word of %s", x, f)
		}
		n := p.start[c+1] - p.start[c]
		if n < 6 || n > 12 {
			t.Fatalf("word %q has %d renderings, want 6..12", x, n)
		}
		fams := map[string]bool{}
		for i := p.start[c]; i < p.start[c+1]; i++ {
			fams[family[p.fonts[p.font[i]]]] = true
		}
		if len(fams) != n {
			t.Fatalf("word %q: %d renderings from %d font families", x, n, len(fams))
		}
	}
	v := make([]float64, p.dims)
	for i := range p.font {
		p.vector(i, v)
		norm := 0.0
		for _, x := range v {
			norm += x * x
		}
		if !(norm > 0) || math.IsInf(norm, 0) {
			t.Fatalf("rendering %d: coordinates %v", i, v)
		}
	}
}

// fontFamilies reads data/wordimage-fonts.txt: per font file, its family key.
func fontFamilies(t *testing.T) map[string]string {
	t.Helper()
	raw, err := os.ReadFile("data/wordimage-fonts.txt")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		path, fam, ok := strings.Cut(line, "\t")
		if !ok || fam == "" {
			t.Fatalf("wordimage-fonts.txt line %q: want path<TAB>family", line)
		}
		out[path] = fam
	}
	return out
}

// TestWordImageScores checks every score of a small population against a
// direct computation from the stored int8 coordinates: the same draw (the
// family's random stream: the words by pick, then per word a shuffle of its
// renderings), the first 4 averaged into the template, the next (up to 8)
// the points, and the Euclidean distance written out here; it also checks
// the direction and that a word's renderings lie nearer their own template.
func TestWordImageScores(t *testing.T) {
	p, err := loadWordImages()
	if err != nil {
		t.Fatal(err)
	}
	m, dir, err := Population(WordImages, 5, 30)
	if err != nil {
		t.Fatal(err)
	}
	checkMatrix(t, m, 30)
	if dir != scores.Lower {
		t.Fatalf("direction %v, want Lower", dir)
	}
	dims := p.dims
	var want []float64
	templates := make([][]float64, len(m.Classes))
	var points [][]float64
	rng := rand.New(rand.NewPCG(5, 0x776f7264696d0001))
	idx := pick(rng, len(p.words), 30)
	for j, c := range idx {
		if p.words[c] != m.Classes[j] {
			t.Fatalf("class %d is %q, the direct draw gives %q", j, m.Classes[j], p.words[c])
		}
		n := p.start[c+1] - p.start[c]
		order := make([]int, n)
		for i := range order {
			order[i] = p.start[c] + i
		}
		rng.Shuffle(n, func(a, b int) { order[a], order[b] = order[b], order[a] })
		templates[j] = make([]float64, dims)
		for _, ri := range order[:4] {
			for k := range dims {
				templates[j][k] += float64(p.coef[ri*dims+k]) * p.scale[k] / 4
			}
		}
		for _, ri := range order[4:min(n, 12)] {
			x := make([]float64, dims)
			for k := range dims {
				x[k] = float64(p.coef[ri*dims+k]) * p.scale[k]
			}
			points = append(points, x)
		}
	}
	if len(points) != m.N() {
		t.Fatalf("%d points, direct draw %d", m.N(), len(points))
	}
	for _, x := range points {
		for _, tm := range templates {
			ss := 0.0
			for k := range dims {
				ss += (x[k] - tm[k]) * (x[k] - tm[k])
			}
			want = append(want, math.Sqrt(ss))
		}
	}
	for i, v := range m.Scores {
		if math.Abs(v-want[i]) > 1e-12*max(1, want[i]) || !(v >= 0) {
			t.Fatalf("score %d (point %d, class %d) = %v, direct %v", i, i/m.K(), i%m.K(), v, want[i])
		}
	}
	own, other := 0.0, 0.0
	for i, y := range m.Labels {
		for j, v := range m.Row(i) {
			if j == y {
				own += v
			} else {
				other += v / float64(m.K()-1)
			}
		}
	}
	if !(own < 0.8*other) {
		t.Errorf("mean distance to the own template %.3f, to the others %.3f: want the own clearly nearer", own/float64(m.N()), other/float64(m.N()))
	}
}

// TestWordImagesAccuracy checks the difficulty: about 0.65 at 10 classes,
// about 0.3 at 1,000 (the family is hard: a word's renderings differ in
// width, slant and weight from font to font).
func TestWordImagesAccuracy(t *testing.T) {
	m, dir, err := Population(WordImages, 3, 1000)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := accuracy.NewSample(m, dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Observed[10] <= s.Observed[1000] || s.Observed[10] < 0.5 || s.Observed[1000] < 0.15 || s.Observed[1000] > 0.5 {
		t.Errorf("accuracy %.3f at 10 classes, %.3f at 1000", s.Observed[10], s.Observed[1000])
	}
}

// TestWordImagesReport prints the measurements of the package README; run
// with REALDATA_REPORT=1 go test -run TestWordImagesReport -v
// ./internal/bank/realdata/.
func TestWordImagesReport(t *testing.T) {
	reportPopulations(t, WordImages, func(seed uint64, m *scores.Matrix, s *accuracy.Sample, el time.Duration) {
		top1 := 0
		for i, y := range m.Labels {
			row := m.Row(i)
			best := 0
			for j, v := range row {
				if v < row[best] {
					best = j
				}
			}
			if best == y {
				top1++
			}
		}
		t.Logf("  seed %d: k=2000 built in %v; N=%d (%.2f per class); Abar_k at 2, 10, 100, 500, 2000: %.4f %.4f %.4f %.4f %.4f; top-1 per point %.4f",
			seed, el.Round(time.Millisecond), m.N(), float64(m.N())/float64(m.K()), s.Observed[2], s.Observed[10], s.Observed[100], s.Observed[500], s.Observed[2000],
			float64(top1)/float64(m.N()))
	})
}
