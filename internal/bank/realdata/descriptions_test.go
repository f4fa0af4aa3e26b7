package realdata

import (
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
)

// descWords returns the words of a text, computed here from its fields:
// lower-cased, "'", "’" and "-" removed, any other non-letter a separator.
func descWords(s string) []string {
	return strings.FieldsFunc(strings.NewReplacer("'", "", "\u2019", "", "-", "").Replace(strings.ToLower(s)), func(r rune) bool { return !unicode.IsLetter(r) })
}

// TestDescriptionPool checks the pool: a held-out family after
// pronunciations, 5,095
// classes with 27,046 sentences, unique package names whose FNV-1a hash is
// even, 4..10 distinct sentences of at least 8 words each, a few known
// packages in and out, and every idf > 0.
func TestDescriptionPool(t *testing.T) {
	held := HeldOutFamilies()
	if slices.Contains(Families(), Descriptions) || slices.Index(held, Descriptions) <= slices.Index(held, Pronunciations) {
		t.Fatalf("families %v, held out %v", Families(), held)
	}
	p, err := loadDescriptions()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := PoolSize(Descriptions); n != 5095 || len(p.names) != n || len(p.shorts) != n || len(p.sentences) != 27046 {
		t.Fatalf("pool: %d classes (%d names, %d short descriptions), %d sentences; want 5095 and 27046", n, len(p.names), len(p.shorts), len(p.sentences))
	}
	names := map[string]bool{}
	for c, f := range tabLines(t, descriptionsData) {
		if f[0] != p.names[c] || names[f[0]] {
			t.Fatalf("line %d: package %q, pool class %s (or repeated)", c+1, f[0], p.names[c])
		}
		names[f[0]] = true
		h := fnv.New64a()
		h.Write([]byte(f[0]))
		if h.Sum64()%2 != 0 {
			t.Errorf("package %s: FNV-1a hash odd", f[0])
		}
		ss := f[2:]
		if len(ss) < 4 || len(ss) > 10 || p.start[c+1]-p.start[c] != len(ss) {
			t.Fatalf("package %s: %d sentences (%d in the pool), want 4..10", f[0], len(ss), p.start[c+1]-p.start[c])
		}
		seen := map[string]bool{}
		for i, s := range ss {
			if seen[s] || len(descWords(s)) < 8 || len(descWords(s)) != wordCount(p.sentences[p.start[c]+i]) {
				t.Fatalf("package %s: sentence %q repeated or of %d words (%d in the pool)", f[0], s, len(descWords(s)), wordCount(p.sentences[p.start[c]+i]))
			}
			seen[s] = true
		}
	}
	for name, want := range map[string]bool{
		"9wm":                     true,
		"imagemagick":             true,
		"python3-pyqrcode":        true,
		"0ad":                     false, // 3 sentences of 8 words or more
		"adapterremoval-examples": false, // the first paragraph of adapterremoval's description
		"bash":                    false, // FNV-1a hash odd
	} {
		if names[name] != want {
			t.Errorf("package %s in the pool: %v, want %v", name, names[name], want)
		}
	}
	checkIDF(t, p.tfidf)
}

// TestDescriptionScores checks a small population against an independent
// computation of each point's score for its own class, from the data file's
// texts: words as descWords; weights (1 + ln tf)·ln(D/df) over the pool's D
// documents (short descriptions and sentences); the cosine summed over a map
// of terms. A class's template is its short description and 2 of its
// sentences and its points are the others in order, so the test tries every
// pair of sentences as the template and wants one that gives all the
// class's own scores. It also checks the shape: 2..8 points per class,
// scores in [0, 1].
func TestDescriptionScores(t *testing.T) {
	const k = 30
	m, dir, err := Population(Descriptions, 3, k)
	if err != nil {
		t.Fatal(err)
	}
	checkMatrix(t, m, k)
	if dir != scores.Higher {
		t.Fatalf("direction %v", dir)
	}
	lines := tabLines(t, descriptionsData)
	class := map[string][]string{}
	var docs []string
	for _, f := range lines {
		class[f[0]] = f[1:]
		docs = append(docs, f[1:]...)
	}
	ref := newRefTFIDF(descWords, docs)
	for j, c := range m.Classes {
		var own []float64
		for i, y := range m.Labels {
			if y == j {
				own = append(own, m.Scores[i*k+j])
			}
			for _, v := range m.Row(i) {
				if v < 0 || v > 1+1e-12 {
					t.Fatalf("point %d: score %v out of [0, 1]", i, v)
				}
			}
		}
		short, ss := class[c][0], class[c][1:]
		if len(own) < 2 || len(own) > 8 || len(own) != len(ss)-2 {
			t.Fatalf("class %s: %d points of %d sentences", c, len(own), len(ss))
		}
		found := 0
		for a := range ss {
			for b := a + 1; b < len(ss); b++ {
				tmpl := ref.vec(short + " " + ss[a] + " " + ss[b])
				match, i := true, 0
				for s := range ss {
					if s == a || s == b {
						continue
					}
					if math.Abs(refCosine(ref.vec(ss[s]), tmpl)-own[i]) > 1e-12 {
						match = false
					}
					i++
				}
				if match {
					found++
				}
			}
		}
		if found == 0 {
			t.Errorf("class %s: no pair of its sentences as the template gives its points' scores %v", c, own)
		}
	}
}

// TestDescriptionsAccuracyAndPoints checks that the accuracy falls as
// classes are added and that every class of a 2,000-class population has
// 2..8 points (TestPopulationShapeAndDeterminism checks the bits per seed).
func TestDescriptionsAccuracyAndPoints(t *testing.T) {
	a, dir, err := Population(Descriptions, 7, 300)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := accuracy.NewSample(a, dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Observed[10] <= s.Observed[300] || s.Observed[300] <= 0.3 || s.Observed[2] >= 1 {
		t.Errorf("accuracy %.3f at 2 classes, %.3f at 10, %.3f at 300", s.Observed[2], s.Observed[10], s.Observed[300])
	}
	m, _, err := Population(Descriptions, 1, 2000)
	if err != nil {
		t.Fatal(err)
	}
	checkMatrix(t, m, 2000)
	sizes := make([]int, m.K())
	for _, y := range m.Labels {
		sizes[y]++
	}
	if lo, hi := slices.Min(sizes), slices.Max(sizes); lo < 2 || hi > maxDescPoints {
		t.Errorf("classes of %d..%d points, want 2..%d", lo, hi, maxDescPoints)
	}
}

// TestDescriptionsReport prints the measurements of the README; run with
// REALDATA_REPORT=1 go test -run TestDescriptionsReport -v ./internal/bank/realdata/.
func TestDescriptionsReport(t *testing.T) {
	reportPopulations(t, Descriptions, func(seed uint64, m *scores.Matrix, s *accuracy.Sample, el time.Duration) {
		zeroCorrect, zeros, tied, tiedZero := 0, 0, 0, 0
		for i, y := range m.Labels {
			row := m.Row(i)
			if row[y] == 0 {
				zeroCorrect++
			}
			tie := false
			for j, v := range row {
				if j != y && v == 0 {
					zeros++
				}
				if j != y && v == row[y] {
					tie = true
				}
			}
			if tie {
				tied++
				if row[y] == 0 {
					tiedZero++
				}
			}
		}
		pairs := float64(m.N() * (m.K() - 1))
		t.Logf("  seed %d: k=2000 built in %v; N=%d (%.2f per class); Abar_k at 2, 10, 100, 500, 2000: %.4f %.4f %.4f %.4f %.4f; correct scores 0: %d; incorrect 0: %.3f; points whose correct score ties an incorrect one: %d (%.4f; %d of them at 0)",
			seed, el.Round(time.Millisecond), m.N(), float64(m.N())/float64(m.K()), s.Observed[2], s.Observed[10], s.Observed[100], s.Observed[500], s.Observed[2000],
			zeroCorrect, float64(zeros)/pairs, tied, float64(tied)/float64(m.N()), tiedZero)
	})
}
