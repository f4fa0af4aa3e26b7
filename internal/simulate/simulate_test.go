package simulate

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
)

func mustGenerate(t testing.TB, cfg Config) *World {
	t.Helper()
	w, err := Generate(cfg)
	if err != nil {
		t.Fatalf("Generate(%+v): %v", cfg, err)
	}
	return w
}

func TestValidate(t *testing.T) {
	ok := Config{Classes: Normal, Points: Normal, D: 5, Sigma2: 0.1, K: 20, R: 3, Seed: 1}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid config rejected: %v", err)
	}
	tests := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"d zero", func(c *Config) { c.D = 0 }, "dimension d = 0"},
		{"d huge", func(c *Config) { c.D = MaxD + 1 }, "dimension"},
		{"sigma2 zero", func(c *Config) { c.Sigma2 = 0 }, "sigma2 = 0"},
		{"sigma2 negative", func(c *Config) { c.Sigma2 = -1 }, "sigma2 = -1"},
		{"sigma2 NaN", func(c *Config) { c.Sigma2 = math.NaN() }, "sigma2 = NaN"},
		{"sigma2 Inf", func(c *Config) { c.Sigma2 = math.Inf(1) }, "sigma2 = +Inf"},
		{"K one", func(c *Config) { c.K = 1 }, "K = 1 classes"},
		{"K huge", func(c *Config) { c.K = MaxK + 1 }, "at most"},
		{"r zero", func(c *Config) { c.R = 0 }, "r = 0 points"},
		{"too many coordinates", func(c *Config) { c.K, c.R, c.D = 100000, 1000, 10 }, "point coordinates"},
		{"r overflow", func(c *Config) { c.R = math.MaxInt }, "point coordinates"},
		{"bad class dist", func(c *Config) { c.Classes = Dist(7) }, "class distribution"},
		{"bad point dist", func(c *Config) { c.Points = Dist(-1) }, "point distribution"},
		{"group negative", func(c *Config) { c.Group = -2 }, "group = -2 classes"},
		{"groups without tau2", func(c *Config) { c.Group = 4 }, "tau2 = 0 with groups of 4"},
		{"groups with tau2 NaN", func(c *Config) { c.Group, c.Tau2 = 4, math.NaN() }, "tau2 = NaN"},
		{"groups with tau2 Inf", func(c *Config) { c.Group, c.Tau2 = 4, math.Inf(1) }, "tau2 = +Inf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			_, err := Generate(c)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Generate error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestParseDist(t *testing.T) {
	for _, d := range []Dist{Normal, Uniform} {
		got, err := ParseDist(d.String())
		if err != nil || got != d {
			t.Errorf("ParseDist(%q) = %v, %v", d.String(), got, err)
		}
	}
	if _, err := ParseDist("gamma"); err == nil || !strings.Contains(err.Error(), "normal or uniform") {
		t.Errorf("ParseDist(gamma) error = %v", err)
	}
}

// worldHash hashes the bits of the centres, the points, a few scores and the
// weight per rank R_x (the truth curve's input; TestPinned checks the curve
// at k = 100 to the bit).
func worldHash(w *World) uint64 {
	h := fnv.New64a()
	put := func(v float64) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	for _, v := range w.Centres {
		put(v)
	}
	for _, v := range w.Points {
		put(v)
	}
	for i := 0; i < w.N(); i += 7 {
		put(w.Score(i, (i*13)%w.Config.K))
	}
	byR, _ := w.weightByR(context.Background(), nil)
	for _, v := range byR {
		put(v)
	}
	return h.Sum64()
}

// TestPinned pins the generated bits for every distribution pair. The same
// test under GOOS=js GOARCH=wasm proves the generator is bit-identical there.
func TestPinned(t *testing.T) {
	tests := []struct {
		classes, points Dist
		first           float64 // the first point's first coordinate
		hash            uint64
		truth100        float64 // Truth at k = 100
	}{
		{Normal, Normal, 1.3219431474827137, 0x7151c9c7238a0755, 0.6753189696105064},
		{Normal, Uniform, 1.7512246126107742, 0x59d2fc782b889a99, 0.6424411482728037},
		{Uniform, Normal, -1.2171863656520978, 0x3db8cb88c1f2ce7a, 0.6703190385038467},
		{Uniform, Uniform, -0.7879049005240373, 0xcad3c17ec5faf825, 0.653786875131017},
	}
	for _, tc := range tests {
		cfg := Config{Classes: tc.classes, Points: tc.points, D: 5, Sigma2: 0.2, K: 200, R: 10, Seed: 20210504}
		w := mustGenerate(t, cfg)
		if got := worldHash(w); got != tc.hash || w.Points[0] != tc.first {
			t.Errorf("%v/%v: first point coordinate %v hash %#x, want %v %#x", tc.classes, tc.points, w.Points[0], got, tc.first, tc.hash)
		}
		truth := w.Truth()
		if truth[100] != tc.truth100 {
			t.Errorf("%v/%v: Truth at k=100 = %v, want %v (to the bit)", tc.classes, tc.points, truth[100], tc.truth100)
		}
	}
}

// TestPinnedGroups pins the bits of a grouped world, and checks that groups of
// 0 or 1 class (with any τ²) give the paper's world, bit for bit.
func TestPinnedGroups(t *testing.T) {
	paper := Config{Classes: Normal, Points: Uniform, D: 5, Sigma2: 0.2, K: 200, R: 10, Seed: 20210504}
	for _, g := range []int{0, 1} {
		c := paper
		c.Group, c.Tau2 = g, 0.3
		if got := worldHash(mustGenerate(t, c)); got != 0x59d2fc782b889a99 {
			t.Errorf("group %d: hash %#x, want the paper world's 0x59d2fc782b889a99", g, got)
		}
	}
	c := paper
	c.Group, c.Tau2 = 8, 0.1
	w := mustGenerate(t, c)
	const wantHash, wantTruth = 0xd3160290ad2b3696, 0.5188542558289544
	if got, truth := worldHash(w), w.Truth()[100]; got != wantHash || truth != wantTruth {
		t.Errorf("groups of 8: hash %#x truth at k=100 %v, want %#x %v (to the bit)", got, truth, uint64(wantHash), wantTruth)
	}
}

// TestPrefix checks that a world with fewer classes is a prefix of one with
// more (same seed, d, r, distributions, groups), also when the smaller world
// ends inside a group.
func TestPrefix(t *testing.T) {
	for _, d := range []Dist{Normal, Uniform} {
		for _, g := range []int{0, 4} {
			small := mustGenerate(t, Config{Classes: d, Points: d, D: 3, Sigma2: 0.1, K: 10, R: 4, Seed: 9, Group: g, Tau2: 0.2})
			big := mustGenerate(t, Config{Classes: d, Points: d, D: 3, Sigma2: 0.1, K: 25, R: 4, Seed: 9, Group: g, Tau2: 0.2})
			if !slices.Equal(small.Centres, big.Centres[:len(small.Centres)]) || !slices.Equal(small.Points, big.Points[:len(small.Points)]) {
				t.Errorf("%v, groups of %d: the K=10 world is not a prefix of the K=25 world", d, g)
			}
		}
		small := mustGenerate(t, Config{Classes: d, Points: d, D: 3, Sigma2: 0.1, K: 10, R: 4, Seed: 9})
		other := mustGenerate(t, Config{Classes: d, Points: d, D: 3, Sigma2: 0.1, K: 10, R: 4, Seed: 10})
		if slices.Equal(small.Centres, other.Centres) {
			t.Errorf("%v: seeds 9 and 10 give the same centres", d)
		}
	}
}

// TestMoments checks means, variances and supports against the closed forms:
// centres have mean 0 and variance 1 per coordinate (U(-√3, √3) too); point
// offsets x - y have mean 0 and variance σ² (U(-√(3σ²), √(3σ²)) too). With
// n draws the sample mean's sd is sqrt(var/n); the tolerance is 5 sd, and for
// the variance 5 sd of the sample variance (sqrt((μ4 - σ⁴)/n), μ4 ≤ 3σ⁴).
func TestMoments(t *testing.T) {
	const sigma2 = 0.3
	for _, cd := range []Dist{Normal, Uniform} {
		for _, pd := range []Dist{Normal, Uniform} {
			w := mustGenerate(t, Config{Classes: cd, Points: pd, D: 4, Sigma2: sigma2, K: 2000, R: 5, Seed: 3})
			check := func(what string, xs []float64, variance, bound float64) {
				n := float64(len(xs))
				mean, m2 := 0.0, 0.0
				for _, v := range xs {
					mean += v
					if bound > 0 && math.Abs(v) > bound {
						t.Fatalf("%v/%v %s: %v outside ±%v", cd, pd, what, v, bound)
					}
				}
				mean /= n
				for _, v := range xs {
					m2 += (v - mean) * (v - mean)
				}
				m2 /= n
				if tol := 5 * math.Sqrt(variance/n); math.Abs(mean) > tol {
					t.Errorf("%v/%v %s: mean %v, want 0 ± %v", cd, pd, what, mean, tol)
				}
				if tol := 5 * math.Sqrt(2*variance*variance/n); math.Abs(m2-variance) > tol {
					t.Errorf("%v/%v %s: variance %v, want %v ± %v", cd, pd, what, m2, variance, tol)
				}
			}
			bound := 0.0
			if cd == Uniform {
				bound = math.Sqrt(3)
			}
			check("centres", w.Centres, 1, bound)
			off := make([]float64, len(w.Points))
			d := w.Config.D
			for i := range off {
				off[i] = w.Points[i] - w.Centres[w.Label(i/d)*d+i%d]
			}
			bound = 0
			if pd == Uniform {
				bound = math.Sqrt(3*sigma2) * (1 + 1e-12)
			}
			check("offsets", off, sigma2, bound)
		}
	}
}

// TestGroupMoments checks grouped centres against the closed forms: the
// classes of a group share one centre c with mean 0 and variance 1 per
// coordinate, and a class's offset from it has mean 0 and variance τ²; so the
// difference of two classes of one group has variance 2τ², and of two classes
// of different groups 2(1 + τ²). The group centre is estimated as the mean of
// its g classes' centres, whose offsets' mean has variance τ²/g: the offsets
// from that mean have variance τ²(1 - 1/g). Tolerances are 5 standard
// deviations of a sample variance, sqrt(2/n)·variance (exact for normal
// draws; uniform ones have lighter tails).
func TestGroupMoments(t *testing.T) {
	const g, tau2 = 5, 0.2
	for _, cd := range []Dist{Normal, Uniform} {
		w := mustGenerate(t, Config{Classes: cd, Points: Normal, D: 4, Sigma2: 0.1, K: 4000, R: 1, Seed: 5, Group: g, Tau2: tau2})
		d := w.Config.D
		var within, between, groupMean []float64
		for j := 0; j < w.Config.K; j += g {
			for t := 0; t < d; t++ {
				m := 0.0
				for a := j; a < j+g; a++ {
					m += w.Centres[a*d+t]
				}
				m /= g
				groupMean = append(groupMean, m)
				for a := j; a < j+g; a++ {
					within = append(within, w.Centres[a*d+t]-m)
				}
				if j+g < w.Config.K {
					between = append(between, w.Centres[(j+g)*d+t]-w.Centres[j*d+t])
				}
			}
		}
		check := func(what string, xs []float64, want float64) {
			v := 0.0
			for _, x := range xs {
				v += x * x
			}
			v /= float64(len(xs))
			if tol := 5 * math.Sqrt(2/float64(len(xs))) * want; math.Abs(v-want) > tol {
				t.Errorf("%v %s: mean square %v, want %v ± %v", cd, what, v, want, tol)
			}
		}
		check("offsets within a group", within, tau2*(1-1.0/g))
		check("group centres", groupMean, 1+tau2/g)
		check("classes of neighbouring groups", between, 2*(1+tau2))
	}
}

// TestTruthBruteForce compares Truth with an average over every k-subset of
// the classes that contains the point's class: the point is correct when its
// distance to its class is strictly below the distance to every other class
// of the subset.
func TestTruthBruteForce(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		// a large sigma2 in d = 1 makes errors frequent
		w := mustGenerate(t, Config{Classes: Uniform, Points: Normal, D: 1, Sigma2: 0.5, K: 7, R: 3, Seed: seed})
		truth := w.Truth()
		k := w.Config.K
		if truth.Max() != k {
			t.Fatalf("Truth covers k up to %d, want %d", truth.Max(), k)
		}
		for kk := 2; kk <= k; kk++ {
			hits, total := 0.0, 0.0
			for mask := 0; mask < 1<<k; mask++ {
				if popcount(mask) != kk {
					continue
				}
				for i := 0; i < w.N(); i++ {
					y := w.Label(i)
					if mask&(1<<y) == 0 {
						continue
					}
					total++
					ok := true
					for j := 0; j < k; j++ {
						if j != y && mask&(1<<j) != 0 && w.Score(i, j) <= w.Score(i, y) {
							ok = false
						}
					}
					if ok {
						hits++
					}
				}
			}
			if want := hits / total; math.Abs(truth[kk]-want) > 1e-12 {
				t.Errorf("seed %d k=%d: Truth %v, brute force %v", seed, kk, truth[kk], want)
			}
		}
	}
}

func TestTruthContext(t *testing.T) {
	w := mustGenerate(t, Config{D: 2, Sigma2: 0.1, K: 300, R: 2, Seed: 1})
	var calls, last int
	c, err := w.TruthContext(context.Background(), func(done, total int) {
		if total != 600 || done < last || done > total {
			t.Errorf("progress(%d, %d) after %d", done, total, last)
		}
		calls, last = calls+1, done
	})
	if err != nil || !slices.Equal(c, w.Truth()) {
		t.Fatalf("TruthContext = %v, %v; differs from Truth", c, err)
	}
	if calls != 4 || last != 600 { // at 0, 256, 512 and the end
		t.Errorf("%d progress calls ending at %d, want 4 ending at 600", calls, last)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.TruthContext(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled TruthContext error = %v", err)
	}
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// TestTruthEqualsObserved checks that the streamed Truth is bit-for-bit the
// observed curve of the full score matrix, and that the CSV round trip through
// scores.Parse reproduces the matrix exactly.
func TestTruthEqualsObserved(t *testing.T) {
	w := mustGenerate(t, Config{Classes: Normal, Points: Uniform, D: 2, Sigma2: 0.2, K: 40, R: 3, Seed: 5})
	m, err := w.Matrix(w.AllClasses())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := w.WriteCSV(&buf, w.AllClasses()); err != nil {
		t.Fatal(err)
	}
	parsed, err := scores.Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(parsed.Classes, m.Classes) || !slices.Equal(parsed.Labels, m.Labels) || !slices.Equal(parsed.Scores, m.Scores) {
		t.Fatal("WriteCSV then Parse does not reproduce Matrix")
	}
	if m.Classes[0] != "c0000" || m.Classes[39] != "c0039" {
		t.Errorf("class names %q..%q, want c0000..c0039", m.Classes[0], m.Classes[39])
	}
	s, dir, err := accuracy.NewSample(parsed, scores.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if dir != scores.Lower {
		t.Errorf("auto direction = %v, want lower (distances)", dir)
	}
	if got := w.Truth(); !slices.Equal(got, s.Observed) {
		t.Errorf("Truth differs from the observed curve of the full matrix:\n%v\n%v", got, s.Observed)
	}
}

func TestPilot(t *testing.T) {
	w := mustGenerate(t, Config{Classes: Normal, Points: Normal, D: 3, Sigma2: 0.1, K: 50, R: 2, Seed: 1})
	cls, err := w.SampleClasses(10, 77)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := w.SampleClasses(10, 77)
	other, _ := w.SampleClasses(10, 78)
	if !slices.Equal(cls, again) || slices.Equal(cls, other) {
		t.Errorf("SampleClasses not a function of its seed: %v %v %v", cls, again, other)
	}
	if !slices.IsSorted(cls) || len(slices.Compact(slices.Clone(cls))) != 10 || cls[0] < 0 || cls[9] >= 50 {
		t.Errorf("SampleClasses = %v, want 10 distinct sorted classes in 0..49", cls)
	}
	m, err := w.Pilot(10, 77)
	if err != nil {
		t.Fatal(err)
	}
	if m.K() != 10 || m.N() != 20 {
		t.Fatalf("pilot is %d x %d, want 20 x 10", m.N(), m.K())
	}
	for i := 0; i < m.N(); i++ {
		y := cls[m.Labels[i]]
		p := y*w.Config.R + i%w.Config.R
		for a, j := range cls {
			if m.Row(i)[a] != w.Score(p, j) {
				t.Fatalf("pilot row %d column %d = %v, want Score(%d, %d) = %v", i, a, m.Row(i)[a], p, j, w.Score(p, j))
			}
		}
		if m.Classes[m.Labels[i]] != w.ClassName(y) {
			t.Fatalf("pilot row %d labelled %q, want %q", i, m.Classes[m.Labels[i]], w.ClassName(y))
		}
	}
	for _, bad := range []int{1, 51} {
		if _, err := w.SampleClasses(bad, 1); !errors.Is(err, ErrClasses) {
			t.Errorf("SampleClasses(%d) error = %v, want ErrClasses", bad, err)
		}
	}
	for _, bad := range [][]int{{3}, {1, 1}, {0, 50}, {-1, 2}} {
		if _, err := w.Matrix(bad); !errors.Is(err, ErrClasses) {
			t.Errorf("Matrix(%v) error = %v, want ErrClasses", bad, err)
		}
	}
}

func BenchmarkTruth(b *testing.B) {
	w := mustGenerate(b, Config{Classes: Normal, Points: Normal, D: 5, Sigma2: 0.1, K: 2000, R: 10, Seed: 1})
	b.ResetTimer()
	for b.Loop() {
		w.Truth()
	}
}

func BenchmarkGenerate(b *testing.B) {
	cfg := Config{Classes: Normal, Points: Normal, D: 5, Sigma2: 0.1, K: 2000, R: 10, Seed: 1}
	for b.Loop() {
		mustGenerate(b, cfg)
	}
}

// CheckBrowserSize refuses pilots above MaxPilotScores and worlds above
// MaxTruthWork, naming what to lower, and accepts those at the bounds.
func TestCheckBrowserSize(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		k1   int
		want string
	}{
		{Config{K: 2000, R: 10, D: 5}, 1000, ""},
		{Config{K: 2000, R: 30, D: 5}, 1000, ""}, // 3e7 scores: the bound
		{Config{K: 2000, R: 31, D: 5}, 1000, "r·k1² = 31,000,000 scores (248 MB), more than the 30,000,000"},
		{Config{K: 20000, R: 100, D: 5}, 100, ""}, // K²·r·d = 2e11: the bound
		{Config{K: 20000, R: 100, D: 6}, 100, "K²·r·d = 240,000,000,000 steps, more than the 200,000,000,000"},
	} {
		err := CheckBrowserSize(tc.cfg, tc.k1)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v, k1 = %d: %v, want %q", tc.cfg, tc.k1, err, tc.want)
		}
	}
}
