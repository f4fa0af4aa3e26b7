package accuracy

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/detmath"
	"github.com/cleanex/cleanex/internal/scores"
)

// randomMatrix returns K classes with 1..maxR points each (unequal sizes) and
// integer scores in 0..levels-1, so ties between the correct and incorrect
// scores are frequent.
func randomMatrix(rng *rand.Rand, k, maxR, levels int) *scores.Matrix {
	m := &scores.Matrix{}
	for j := 0; j < k; j++ {
		m.Classes = append(m.Classes, fmt.Sprintf("c%d", j))
	}
	for y := 0; y < k; y++ {
		for n := 1 + rng.IntN(maxR); n > 0; n-- {
			m.Labels = append(m.Labels, y)
			for j := 0; j < k; j++ {
				v := float64(rng.IntN(levels))
				if j == y {
					v += float64(rng.IntN(2)) // correct classes tend to score higher
				}
				m.Scores = append(m.Scores, v)
			}
		}
	}
	// Shuffle the rows so classes are interleaved.
	n := m.N()
	perm := rng.Perm(n)
	labels := make([]int, n)
	sc := make([]float64, len(m.Scores))
	for i, p := range perm {
		labels[i] = m.Labels[p]
		copy(sc[i*k:(i+1)*k], m.Scores[p*k:(p+1)*k])
	}
	m.Labels, m.Scores = labels, sc
	return m
}

// bruteObserved averages, over every k-subset S of the classes, the
// class-balanced accuracy on S: the mean over classes y in S of the fraction of
// y's points whose correct score strictly beats (under d) every other class in S.
func bruteObserved(m *scores.Matrix, d scores.Direction) Curve {
	k := m.K()
	better := func(a, b float64) bool {
		if d == scores.Lower {
			return a < b
		}
		return a > b
	}
	c := make(Curve, k+1)
	c[0] = 1
	for size := 1; size <= k; size++ {
		total, count := 0.0, 0
		for mask := 0; mask < 1<<k; mask++ {
			if popcount(mask) != size {
				continue
			}
			acc := 0.0
			for y := 0; y < k; y++ {
				if mask&(1<<y) == 0 {
					continue
				}
				wins, pts := 0, 0
				for i, lab := range m.Labels {
					if lab != y {
						continue
					}
					pts++
					row := m.Row(i)
					win := true
					for j := 0; j < k; j++ {
						if j != y && mask&(1<<j) != 0 && !better(row[y], row[j]) {
							win = false
							break
						}
					}
					if win {
						wins++
					}
				}
				acc += float64(wins) / float64(pts)
			}
			total += acc / float64(size)
			count++
		}
		c[size] = total / float64(count)
	}
	return c
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

func TestObservedBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const tol = 1e-12
	for k := 2; k <= 8; k++ {
		for rep := 0; rep < 4; rep++ {
			levels := []int{2, 3, 5, 1000}[rep]
			m := randomMatrix(rng, k, 4, levels)
			for _, d := range []scores.Direction{scores.Higher, scores.Lower} {
				s, used, err := NewSample(m, d)
				if err != nil {
					t.Fatal(err)
				}
				if used != d {
					t.Fatalf("NewSample used %v, want %v", used, d)
				}
				want := bruteObserved(m, d)
				if len(s.Observed) != k+1 {
					t.Fatalf("K=%d: len(Observed) = %d, want %d", k, len(s.Observed), k+1)
				}
				for kk := 1; kk <= k; kk++ {
					if diff := math.Abs(s.Observed[kk] - want[kk]); diff > tol {
						t.Errorf("K=%d levels=%d %v: Abar_%d = %.15g, brute force %.15g (diff %.3g)",
							k, levels, d, kk, s.Observed[kk], want[kk], diff)
					}
				}
			}
		}
	}
}

// TestObservedTies pins the tie rule on a hand-made case: a correct score equal
// to an incorrect one loses to it.
func TestObservedTies(t *testing.T) {
	m := &scores.Matrix{
		Classes: []string{"a", "b", "c"},
		Labels:  []int{0, 0, 1, 2},
		Scores: []float64{
			1, 1, 0, // a ties b, beats c: R = 1
			2, 1, 0, // R = 2
			0, 1, 1, // b ties c, beats a: R = 1
			5, 5, 5, // all tied: R = 0
		},
	}
	s, _, err := NewSample(m, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 2, 1, 0}; !slices.Equal(s.R, want) {
		t.Fatalf("R = %v, want %v", s.R, want)
	}
	// Weights: class a has 2 points (1/6 each), b and c one point (1/3 each).
	// Abar_2 = sum_x w_x R_x/2 = 1/6*1/2 + 1/6*1 + 1/3*1/2 + 0 = 5/12.
	// Abar_3 = sum_x w_x 1[R_x = 2] = 1/6.
	for k, want := range map[int]float64{1: 1, 2: 5.0 / 12, 3: 1.0 / 6} {
		if math.Abs(s.Observed[k]-want) > 1e-15 {
			t.Errorf("Abar_%d = %v, want %v", k, s.Observed[k], want)
		}
	}
}

func TestSampleFields(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := randomMatrix(rng, 6, 5, 1000)
	s, _, err := NewSample(m, scores.Lower)
	if err != nil {
		t.Fatal(err)
	}
	sizes := m.ClassSizes()
	wsum := 0.0
	for i, y := range s.Labels {
		row := m.Row(i)
		if want := 1 / float64(s.K*sizes[y]); s.Weight[i] != want {
			t.Errorf("point %d: weight %v, want 1/(K r_y) = %v", i, s.Weight[i], want)
		}
		wsum += s.Weight[i]
		if s.Correct[i] != -row[y] {
			t.Errorf("point %d: correct %v, want the oriented score %v", i, s.Correct[i], -row[y])
		}
		inc := s.IncorrectRow(i)
		if !slices.IsSorted(inc) {
			t.Errorf("point %d: incorrect scores not sorted: %v", i, inc)
		}
		var want []float64
		r := 0
		for j, v := range row {
			if j != y {
				want = append(want, -v)
				if row[y] < v {
					r++
				}
			}
		}
		slices.Sort(want)
		if !slices.Equal(inc, want) {
			t.Errorf("point %d: incorrect %v, want %v", i, inc, want)
		}
		if s.R[i] != r {
			t.Errorf("point %d: R = %d, want %d", i, s.R[i], r)
		}
	}
	if math.Abs(wsum-1) > 1e-12 {
		t.Errorf("weights sum to %v, want 1", wsum)
	}
	// Abar_K is the class-balanced top-1 accuracy.
	top1 := 0.0
	for i, r := range s.R {
		if r == s.K-1 {
			top1 += s.Weight[i]
		}
	}
	if math.Abs(s.Observed[s.K]-top1) > 1e-12 {
		t.Errorf("Abar_K = %v, balanced top-1 accuracy %v", s.Observed[s.K], top1)
	}
	if c := s.PluginC(); len(c) != s.N() {
		t.Fatalf("PluginC: %d values for %d points", len(c), s.N())
	} else {
		for i, v := range c {
			if want := float64(s.R[i]) / float64(s.K-1); v != want {
				t.Errorf("PluginC[%d] = %v, want R/(K-1) = %v", i, v, want)
			}
		}
	}
}

func TestDirection(t *testing.T) {
	// Distances: the correct class has the smallest score.
	dist := &scores.Matrix{
		Classes: []string{"a", "b", "c"},
		Labels:  []int{0, 1, 2},
		Scores:  []float64{0.1, 0.9, 0.8, 0.7, 0.2, 0.9, 0.6, 0.5, 0.3},
	}
	for _, tc := range []struct {
		m    *scores.Matrix
		in   scores.Direction
		want scores.Direction
		r    []int
	}{
		{dist, scores.Auto, scores.Lower, []int{2, 2, 2}},
		{dist, scores.Lower, scores.Lower, []int{2, 2, 2}},
		{dist, scores.Higher, scores.Higher, []int{0, 0, 0}},
		{negate(dist), scores.Auto, scores.Higher, []int{2, 2, 2}},
		// All scores equal: no direction wins a pair, Auto falls back to Higher.
		{&scores.Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 1}, Scores: []float64{1, 1, 1, 1}},
			scores.Auto, scores.Higher, []int{0, 0}},
	} {
		s, used, err := NewSample(tc.m, tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if used != tc.want {
			t.Errorf("%v on %v: used %v, want %v", tc.in, tc.m.Scores, used, tc.want)
		}
		if !slices.Equal(s.R, tc.r) {
			t.Errorf("%v on %v: R = %v, want %v", tc.in, tc.m.Scores, s.R, tc.r)
		}
	}
}

func negate(m *scores.Matrix) *scores.Matrix {
	out := *m
	out.Scores = make([]float64, len(m.Scores))
	for i, v := range m.Scores {
		out.Scores[i] = -v
	}
	return &out
}

// subMatrix builds the matrix of the given classes (in that order) and their
// points directly from m, independently of Sample.Subset.
func subMatrix(m *scores.Matrix, classes []int) *scores.Matrix {
	pos := map[int]int{}
	sub := &scores.Matrix{}
	for j, c := range classes {
		pos[c] = j
		sub.Classes = append(sub.Classes, m.Classes[c])
	}
	for i, y := range m.Labels {
		j, ok := pos[y]
		if !ok {
			continue
		}
		sub.Labels = append(sub.Labels, j)
		row := m.Row(i)
		for _, c := range classes {
			sub.Scores = append(sub.Scores, row[c])
		}
	}
	return sub
}

func TestSubset(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	m := randomMatrix(rng, 8, 4, 4)
	for _, d := range []scores.Direction{scores.Higher, scores.Lower} {
		s, _, err := NewSample(m, d)
		if err != nil {
			t.Fatal(err)
		}
		for _, classes := range [][]int{{0, 1}, {7, 2, 5}, {3, 1, 0, 6, 4}, {0, 1, 2, 3, 4, 5, 6, 7}} {
			got, err := s.Subset(classes)
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := NewSample(subMatrix(m, classes), d)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%v %v", d, classes)
			if got.K != want.K || !slices.Equal(got.Labels, want.Labels) || !slices.Equal(got.R, want.R) {
				t.Errorf("%s: K/labels/R differ: %d %v %v, want %d %v %v", name, got.K, got.Labels, got.R, want.K, want.Labels, want.R)
			}
			if !slices.Equal(got.Weight, want.Weight) || !slices.Equal(got.Correct, want.Correct) || !slices.Equal(got.Incorrect, want.Incorrect) {
				t.Errorf("%s: weights or scores differ", name)
			}
			if !slices.Equal(got.Observed, want.Observed) {
				t.Errorf("%s: observed %v, want %v", name, got.Observed, want.Observed)
			}
		}
	}
	s, _, err := NewSample(m, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]int{{0, 0}, {0, 8}, {-1, 2}} {
		if _, err := s.Subset(bad); err == nil {
			t.Errorf("Subset(%v): no error", bad)
		}
	}
	if _, err := s.Subset([]int{3}); !errors.Is(err, ErrTooFewClasses) {
		t.Errorf("Subset of one class: %v, want ErrTooFewClasses", err)
	}
}

func TestNewSampleErrors(t *testing.T) {
	one := &scores.Matrix{Classes: []string{"a"}, Labels: []int{0}, Scores: []float64{1}}
	if _, _, err := NewSample(one, scores.Higher); !errors.Is(err, ErrTooFewClasses) {
		t.Errorf("one class: %v, want ErrTooFewClasses", err)
	}
	empty := &scores.Matrix{Classes: []string{"a", "b"}, Labels: []int{0}, Scores: []float64{1, 0}}
	if _, _, err := NewSample(empty, scores.Higher); err == nil || !strings.Contains(err.Error(), "no points") {
		t.Errorf("class without points: %v, want an error saying so", err)
	}
}

// expectedOnePointAtATime is Expected written as a loop over points, each
// adding its terms to every E_k: the order of summation Expected keeps.
func expectedOnePointAtATime(cx, w []float64, k2 int) Curve {
	c := make(Curve, max(k2, 1)+1)
	c[0], c[1] = 1, 1
	for i, p := range cx {
		if p <= 0 {
			continue
		}
		if p >= 1 {
			for kk := 2; kk <= k2; kk++ {
				c[kk] += w[i]
			}
			continue
		}
		lp := detmath.Log(p)
		v := 1.0
		for kk := 2; kk <= k2; kk++ {
			if (kk-2)%expAnchor == 0 {
				v = detmath.Exp(float64(kk-1) * lp)
			} else {
				v *= p
			}
			if v < 1e-300 {
				break
			}
			c[kk] += w[i] * v
		}
	}
	settle(c)
	return c
}

// TestExpectedSameBitsAsOnePointAtATime checks that carrying several points
// at once changes no bit: point counts that leave partial groups, C_x of 0,
// 1 and values whose powers fall below 1e-300 mid-block, k2 on and off a
// block boundary.
func TestExpectedSameBitsAsOnePointAtATime(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 9, 33} {
		for _, k2 := range []int{0, 1, 2, 3, 65, 66, 67, 129, 1000, 20000} {
			cx := make([]float64, n)
			w := make([]float64, n)
			for i := range cx {
				switch rng.IntN(6) {
				case 0:
					cx[i] = 0
				case 1:
					cx[i] = 1
				case 2:
					cx[i] = rng.Float64() * 0.01 // below 1e-300 within a few hundred k
				default:
					cx[i] = 1 - rng.ExpFloat64()*1e-3
				}
				w[i] = rng.Float64() / float64(n)
			}
			got, want := Expected(cx, w, k2), expectedOnePointAtATime(cx, w, k2)
			for k := range want {
				if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
					t.Fatalf("n=%d k2=%d: E_%d = %v, one point at a time %v", n, k2, k, got[k], want[k])
				}
			}
		}
	}
}

func TestExpected(t *testing.T) {
	w := []float64{0.1, 0.2, 0.3, 0.4}
	for _, c := range []float64{0, 0.25, 0.5, 0.9, 0.999, 1} {
		cx := []float64{c, c, c, c}
		e := Expected(cx, w, 60)
		if e[0] != 1 || e[1] != 1 {
			t.Errorf("C=%v: E_0, E_1 = %v, %v, want 1, 1", c, e[0], e[1])
		}
		for k := 2; k <= 60; k++ {
			want := math.Pow(c, float64(k-1))
			if math.Abs(e[k]-want) > 1e-14 {
				t.Errorf("C=%v: E_%d = %v, want C^(k-1) = %v", c, k, e[k], want)
			}
		}
	}
	// Mixed C_x against the direct sum, at large k where log space matters.
	cx := []float64{0.999, 0.5, 0.99999, 0.0, 1}
	wx := []float64{0.3, 0.1, 0.2, 0.15, 0.25}
	e := Expected(cx, wx, 5000)
	for _, k := range []int{2, 3, 10, 100, 1000, 5000} {
		want := 0.0
		for i, c := range cx {
			want += wx[i] * math.Pow(c, float64(k-1))
		}
		if math.Abs(e[k]-want) > 1e-12 {
			t.Errorf("E_%d = %v, want %v", k, e[k], want)
		}
	}
}

func TestRMSE(t *testing.T) {
	a := Curve{1, 1, 0.9, 0.8, 0.7}
	b := Curve{1, 1, 0.8, 0.8, 0.5, 0.1} // longer: k = 5 is ignored
	// k = 2..4: differences 0.1, 0, 0.2 -> sqrt(0.05/3).
	if got, want := RMSE(a, b), math.Sqrt(0.05/3); math.Abs(got-want) > 1e-15 {
		t.Errorf("RMSE = %v, want %v", got, want)
	}
	if got := RMSE(a, a); got != 0 {
		t.Errorf("RMSE(a, a) = %v, want 0", got)
	}
	if got := RMSE(Curve{1, 1}, a); !math.IsNaN(got) {
		t.Errorf("RMSE without k >= 2 = %v, want NaN", got)
	}
	// Up to k = 3: differences 0.1, 0 -> sqrt(0.01/2); a bound past both
	// curves' ends changes nothing; below 2 gives NaN.
	if got, want := RMSE(a, b, 3), math.Sqrt(0.01/2); math.Abs(got-want) > 1e-15 {
		t.Errorf("RMSE up to 3 = %v, want %v", got, want)
	}
	if got, want := RMSE(a, b, 100), RMSE(a, b); got != want {
		t.Errorf("RMSE up to 100 = %v, want %v", got, want)
	}
	if got := RMSE(a, b, 1); !math.IsNaN(got) {
		t.Errorf("RMSE up to 1 = %v, want NaN", got)
	}
}

func TestReversedROC(t *testing.T) {
	cx := []float64{0.9, 0.5, 0.5, 1, 0.2}
	w := []float64{0.1, 0.2, 0.3, 0.25, 0.15}
	pts := ReversedROC(cx, w)
	// Steps at u = 1 - C: 0 (C=1, 0.25), 0.1 (0.1), 0.5 (0.2+0.3), 0.8 (0.15), then u = 1.
	want := []ROCPoint{{0, 0}, {0, 0.25}, {0.1, 0.35}, {0.5, 0.85}, {0.8, 1}, {1, 1}}
	if len(pts) != len(want) {
		t.Fatalf("ReversedROC = %v, want %v", pts, want)
	}
	for i := range want {
		if math.Abs(pts[i].U-want[i].U) > 1e-15 || math.Abs(pts[i].Value-want[i].Value) > 1e-15 {
			t.Errorf("vertex %d = %v, want %v", i, pts[i], want[i])
		}
	}
	// The area under the step function is rAUC, which is E_2.
	area := 0.0
	for i := 0; i+1 < len(pts); i++ {
		area += (pts[i+1].U - pts[i].U) * pts[i].Value
	}
	rauc := RAUC(cx, w)
	if e2 := Expected(cx, w, 2)[2]; math.Abs(rauc-e2) > 1e-15 {
		t.Errorf("rAUC = %v, E_2 = %v", rauc, e2)
	}
	if math.Abs(area-rauc) > 1e-15 {
		t.Errorf("area under the rROC = %v, rAUC = %v", area, rauc)
	}
}

// The observed curve's Abar_2 equals the rAUC of the plug-in C_x.
func TestObservedIsPluginAtTwo(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	s, _, err := NewSample(randomMatrix(rng, 7, 6, 3), scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Observed[2], RAUC(s.PluginC(), s.Weight); math.Abs(got-want) > 1e-15 {
		t.Errorf("Abar_2 = %v, plug-in rAUC = %v", got, want)
	}
}

func BenchmarkObserved(b *testing.B) {
	for _, k := range []int{100, 500} {
		// r = 10 points per class with continuous scores, as in the paper's simulations.
		rng := rand.New(rand.NewPCG(1, uint64(k)))
		n := 10 * k
		r := make([]int, n)
		w := make([]float64, n)
		for i := range r {
			r[i] = rng.IntN(k)
			w[i] = 1 / float64(n)
		}
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			for b.Loop() {
				Observed(r, w, k)
			}
		})
	}
}

// BenchmarkNewSample measures building a Sample (orienting, sorting the
// incorrect scores, R_x and the observed curve) at k1 = 100 and 500, r = 10.
func BenchmarkNewSample(b *testing.B) {
	for _, k := range []int{100, 500} {
		rng := rand.New(rand.NewPCG(2, uint64(k)))
		m := &scores.Matrix{}
		for j := 0; j < k; j++ {
			m.Classes = append(m.Classes, fmt.Sprint(j))
		}
		for i := 0; i < 10*k; i++ {
			m.Labels = append(m.Labels, i%k)
			for j := 0; j < k; j++ {
				m.Scores = append(m.Scores, rng.NormFloat64())
			}
		}
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := NewSample(m, scores.Lower); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestTop1Hits counts, by brute force over the matrix, the points whose
// correct score strictly beats every other score of their row, under both
// directions, with frequent ties.
func TestTop1Hits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for range 20 {
		m := randomMatrix(rng, 2+rng.IntN(6), 4, 3)
		for _, d := range []scores.Direction{scores.Higher, scores.Lower} {
			want := 0
			for i, y := range m.Labels {
				row, win := m.Row(i), true
				for j, v := range row {
					if j != y && (d == scores.Higher && v >= row[y] || d == scores.Lower && v <= row[y]) {
						win = false
					}
				}
				if win {
					want++
				}
			}
			s, _, err := NewSample(m, d)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Top1Hits(); got != want {
				t.Fatalf("%v: Top1Hits = %d, want %d", d, got, want)
			}
		}
	}
}

// BenchmarkExpected evaluates the curve of 2,000 points up to k2 = 100,000
// (C_x near 1, as for a pilot of many classes), and the same one point at
// a time for the ratio.
func BenchmarkExpected(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, k2 = 2000, 100000
	cx, w := make([]float64, n), make([]float64, n)
	for i := range cx {
		cx[i] = 1 - rng.ExpFloat64()*1e-3
		w[i] = 1.0 / n
	}
	b.Run("grouped", func(b *testing.B) {
		for b.Loop() {
			Expected(cx, w, k2)
		}
	})
	b.Run("one-point-at-a-time", func(b *testing.B) {
		for b.Loop() {
			expectedOnePointAtATime(cx, w, k2)
		}
	})
}

// ScoreRow is the row Matrix gives (oriented: negated for lower-is-better
// scores), without a copy; a Sample built from a summary has none.
func TestScoreRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	m := randomMatrix(rng, 6, 3, 3)
	for _, d := range []scores.Direction{scores.Higher, scores.Lower} {
		s, _, err := NewSample(m, d)
		if err != nil {
			t.Fatal(err)
		}
		mm, err := s.Matrix()
		if err != nil {
			t.Fatal(err)
		}
		for i := range s.Labels {
			if got, want := s.ScoreRow(i), mm.Scores[i*s.K:(i+1)*s.K]; !slices.Equal(got, want) {
				t.Errorf("%v, row %d: %v, want %v", d, i, got, want)
			}
		}
		ranks := []int{1, 2, s.K - 1}
		pts := make([]PointSummary, s.N())
		for i := range pts {
			pts[i] = s.Point(i, ranks)
		}
		sum, err := NewSummarisedSample(s.K, ranks, pts, nil)
		if err != nil {
			t.Fatal(err)
		}
		if row := sum.ScoreRow(0); row != nil {
			t.Errorf("%v: a summary's row %v, want nil", d, row)
		}
	}
}

// NewSampleInPlace gives the Sample NewSample gives, for scores taken as
// they are, negated (lower is better), as logarithms (class probabilities)
// and as log-odds (one-vs-rest probabilities), and leaves the matrix with
// its classes and labels but no scores.
func TestNewSampleInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, k = 40, 5
	logits := &scores.Matrix{Classes: []string{"a", "b", "c", "d", "e"}, Labels: make([]int, n), Scores: make([]float64, n*k)}
	for i := range logits.Labels {
		logits.Labels[i] = i % k
		for j := range k {
			logits.Scores[i*k+j] = rng.NormFloat64()
		}
		logits.Scores[i*k+i%k] += 1.5
	}
	softmax := &scores.Matrix{Classes: logits.Classes, Labels: logits.Labels, Scores: make([]float64, n*k)}
	sigmoid := &scores.Matrix{Classes: logits.Classes, Labels: logits.Labels, Scores: make([]float64, n*k)}
	for i := range n {
		sum := 0.0
		for j := range k {
			sum += math.Exp(logits.Scores[i*k+j])
		}
		for j := range k {
			softmax.Scores[i*k+j] = math.Exp(logits.Scores[i*k+j]) / sum
			sigmoid.Scores[i*k+j] = 1 / (1 + math.Exp(3-logits.Scores[i*k+j]))
		}
	}
	for _, tc := range []struct {
		name string
		m    *scores.Matrix
		dir  scores.Direction
	}{
		{"logits", logits, scores.Higher},
		{"distances", logits, scores.Lower},
		{"auto", logits, scores.Auto},
		{"class probabilities", softmax, scores.Auto},
		{"one-vs-rest probabilities", sigmoid, scores.Auto},
	} {
		want, wantDir, err := NewSample(tc.m, tc.dir)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if read := want.LogProbabilities || want.LogOdds; read != strings.Contains(tc.name, "probabilities") {
			t.Fatalf("%s: NewSample read them as logarithms or log-odds: %v", tc.name, read)
		}
		m := &scores.Matrix{Classes: slices.Clone(tc.m.Classes), Labels: slices.Clone(tc.m.Labels), Scores: slices.Clone(tc.m.Scores)}
		got, gotDir, err := NewSampleInPlace(m, tc.dir)
		if err != nil {
			t.Fatalf("%s, in place: %v", tc.name, err)
		}
		if gotDir != wantDir || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the Sample in place (direction %v, log %v / %v) differs from NewSample's (%v, %v / %v)", tc.name, gotDir, got.LogProbabilities, got.LogOdds, wantDir, want.LogProbabilities, want.LogOdds)
		}
		if m.Scores != nil || !slices.Equal(m.Labels, tc.m.Labels) || !slices.Equal(m.Classes, tc.m.Classes) {
			t.Errorf("%s: the matrix after: %d scores, labels kept %v, classes kept %v", tc.name, len(m.Scores), slices.Equal(m.Labels, tc.m.Labels), slices.Equal(m.Classes, tc.m.Classes))
		}
	}
}
