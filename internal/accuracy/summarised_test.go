package accuracy

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/scores"
)

// subsets calls f with every h-subset of 0..k-1, ascending.
func subsets(k, h int, f func([]int)) {
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) == h {
			f(cur)
			return
		}
		for c := start; c < k; c++ {
			rec(c+1, append(cur, c))
		}
	}
	rec(0, nil)
}

// TestExpectedSubsetObservedBruteForce checks the expectation two ways by
// brute force: averaged over every h-subset S of the classes, both the
// realised SubsetObserved(S) and ExpectedSubsetObserved(S) give the full
// observed curve up to h (with equal class sizes, every point is in the
// same number of subsets); and for each point, the average over every
// (h-1)-subset of its K-1 competitors of C(R^S, k-1)/C(h-1, k-1) is its term
// prod (R+1-i)/(K-i) that the expectation uses.
func TestExpectedSubsetObservedBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const k, h = 7, 4
	m := &scores.Matrix{Classes: []string{"a", "b", "c", "d", "e", "f", "g"}}
	for y := range k {
		for range 3 {
			m.Labels = append(m.Labels, y)
			for range k {
				m.Scores = append(m.Scores, float64(rng.IntN(5)))
			}
		}
	}
	s, _, err := NewSample(m, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	realised := make(Curve, h+1)
	expected := make(Curve, h+1)
	count := 0
	subsets(k, h, func(cls []int) {
		a, err := s.SubsetObserved(cls)
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.ExpectedSubsetObserved(cls)
		if err != nil {
			t.Fatal(err)
		}
		for kk := 2; kk <= h; kk++ {
			realised[kk] += a[kk]
			expected[kk] += b[kk]
		}
		count++
	})
	for kk := 2; kk <= h; kk++ {
		r, e := realised[kk]/float64(count), expected[kk]/float64(count)
		if math.Abs(r-s.Observed[kk]) > 1e-12 || math.Abs(e-s.Observed[kk]) > 1e-12 {
			t.Errorf("k = %d: mean realised %v, mean expected %v, observed %v (tolerance 1e-12)", kk, r, e, s.Observed[kk])
		}
	}
	// Per point: the hypergeometric average of the competitor draw.
	for i := range s.N() {
		for kk := 2; kk <= h; kk++ {
			sum, n := 0.0, 0
			subsets(k-1, h-1, func(comp []int) {
				below := 0
				for _, c := range comp {
					if c < s.R[i] { // the R smallest incorrect scores lie below
						below++
					}
				}
				sum += binom(below, kk-1) / binom(h-1, kk-1)
				n++
			})
			term := 1.0
			for j := 1; j < kk; j++ {
				term *= float64(s.R[i]+1-j) / float64(k-j)
			}
			if got := sum / float64(n); math.Abs(got-term) > 1e-12 {
				t.Errorf("point %d, k = %d: brute force %v, product %v", i, kk, got, term)
			}
		}
	}
	if _, err := s.ExpectedSubsetObserved([]int{2}); !errors.Is(err, ErrTooFewClasses) {
		t.Errorf("one class: %v, want ErrTooFewClasses", err)
	}
	if _, err := s.ExpectedSubsetObserved([]int{1, 1}); err == nil {
		t.Error("a repeated class: no error")
	}
}

func binom(n, r int) float64 {
	if r < 0 || r > n {
		return 0
	}
	v := 1.0
	for i := 1; i <= r; i++ {
		v = v * float64(n-r+i) / float64(i)
	}
	return v
}

// summariseSample builds the summarised Sample of s keeping the given ranks,
// as package summary does, for the tests here.
func summariseSample(t *testing.T, s *Sample, ranks []int) *Sample {
	t.Helper()
	pts := make([]PointSummary, s.N())
	for i := range pts {
		pts[i] = SummarisePoint(s.Labels[i], s.Correct[i], s.IncorrectRow(i), s.R[i], ranks)
	}
	out, err := NewSummarisedSample(s.K, ranks, pts, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSummarisedSample(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	m := randomMatrix(rng, 30, 4, 6) // ties are frequent
	s, _, err := NewSample(m, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	all := make([]int, s.K-1)
	for j := range all {
		all[j] = j + 1
	}
	for _, ranks := range [][]int{all, {1, 2, 3, 5, 8, 12, 18, 29}, {1, 29}} {
		sum := summariseSample(t, s, ranks)
		if !sum.Summarised() || s.Summarised() {
			t.Fatal("Summarised is wrong")
		}
		for i := range s.N() {
			if sum.R[i] != s.R[i] || sum.Weight[i] != s.Weight[i] || sum.Correct[i] != s.Correct[i] {
				t.Fatalf("point %d: R, weight or correct score differ", i)
			}
			row, exact := sum.IncorrectRow(i), s.IncorrectRow(i)
			for j, v := range row {
				r := s.K - 1 - j
				if j > 0 && v < row[j-1] {
					t.Fatalf("ranks %v, point %d: the rebuilt row falls at %d", ranks, i, j)
				}
				// The counts below, tied and above the correct score stay exact.
				if (exact[j] < s.Correct[i]) != (v < s.Correct[i]) || (exact[j] == s.Correct[i]) != (v == s.Correct[i]) {
					t.Fatalf("ranks %v, point %d, rank %d: %v is on another side of %v than %v", ranks, i, r, v, s.Correct[i], exact[j])
				}
				if got := sum.IncorrectAt(i, r); got != v {
					t.Fatalf("IncorrectAt(%d, %d) = %v, IncorrectRow has %v", i, r, got, v)
				}
			}
			for _, r := range ranks {
				if got, want := sum.IncorrectAt(i, r), s.IncorrectAt(i, r); got != want {
					t.Fatalf("knot rank %d of point %d: %v, want %v", r, i, got, want)
				}
			}
		}
		for k := range s.Observed {
			if sum.Observed[k] != s.Observed[k] {
				t.Fatalf("observed curve differs at k = %d", k)
			}
		}
		f1, mean1, sd1 := s.ScoreMoments()
		f2, mean2, sd2 := sum.ScoreMoments()
		if f1 != f2 || math.Abs(mean1-mean2) > 1e-12 || math.Abs(sd1-sd2) > 1e-12 {
			t.Errorf("moments (%v, %v, %v), from the summary (%v, %v, %v)", f1, mean1, sd1, f2, mean2, sd2)
		}
		if _, err := sum.Subset([]int{0, 1}); !errors.Is(err, ErrSummarised) {
			t.Errorf("Subset of a summarised sample: %v", err)
		}
		if _, err := sum.SubsetObserved([]int{0, 1}); !errors.Is(err, ErrSummarised) {
			t.Errorf("SubsetObserved of a summarised sample: %v", err)
		}
	}
	// With every rank kept the rebuilt rows are the rows.
	sum := summariseSample(t, s, all)
	for i := range s.N() {
		for j, v := range sum.IncorrectRow(i) {
			if v != s.IncorrectRow(i)[j] {
				t.Fatalf("point %d: every rank kept, yet the row differs at %d", i, j)
			}
		}
	}
}

func TestNewSummarisedSampleRefuses(t *testing.T) {
	// scores 1, 2, 0 and 1, 0, -1: mean 1 and 0, m2 2 and 2
	ok := PointSummary{Label: 0, Correct: 1, Below: 1, Ties: 0, Mean: 1, M2: 2, MaxAbs: 2, Values: []float64{2, 0}}
	other := PointSummary{Label: 1, Correct: 1, Below: 2, Mean: 0, M2: 2, MaxAbs: 1, Values: []float64{0, -1}}
	if _, err := NewSummarisedSample(3, []int{1, 2}, []PointSummary{ok, other, {Label: 2, Correct: 1, Below: 2, Mean: 0, M2: 2, MaxAbs: 1, Values: []float64{0, -1}}}, nil); err != nil {
		t.Fatalf("the consistent summaries are refused: %v", err)
	}
	for _, c := range []struct {
		name  string
		k     int
		ranks []int
		pts   []PointSummary
	}{
		{"one class", 1, []int{1}, nil},
		{"ranks not ending at K-1", 3, []int{1}, []PointSummary{ok, other}},
		{"ranks falling", 3, []int{2, 1, 2}, []PointSummary{ok, other}},
		{"a class without points", 3, []int{1, 2}, []PointSummary{ok, ok}},
		{"label out of range", 3, []int{1, 2}, []PointSummary{ok, other, {Label: 3}}},
		{"values rising", 3, []int{1, 2}, []PointSummary{ok, {Label: 1, Correct: 5, Below: 2, Values: []float64{0, 1}}, {Label: 2, Correct: 5, Below: 2, Values: []float64{0, -1}}}},
		{"counts too large", 3, []int{1, 2}, []PointSummary{ok, {Label: 1, Correct: 5, Below: 2, Ties: 1, Values: []float64{0, -1}}, other}},
		{"a score above the correct one counted below", 3, []int{1, 2}, []PointSummary{ok, {Label: 1, Correct: 0.5, Below: 2, Values: []float64{3, 0}}, other}},
		{"NaN", 3, []int{1, 2}, []PointSummary{ok, {Label: 1, Correct: math.NaN(), Below: 2, Values: []float64{0, -1}}, other}},
	} {
		if _, err := NewSummarisedSample(c.k, c.ranks, c.pts, nil); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

// TestCheckMoments: a point's mean, m2 and maxabs must be possible for
// the scores its summary keeps. The extreme scores of the row are known
// (the correct score, top1 and the lowest incorrect score), and for any K
// numbers with mean mu, largest hi and smallest lo, hi >= mu >= lo,
// max|score| = max(|hi|, |lo|), and (hi-mu)^2 + (lo-mu)^2 <= m2 <=
// K (hi-lo)^2 / 4 (Popoviciu). Each case is a mistake made when writing a
// summary by hand; the row summarised by SummarisePoint passes.
func TestCheckMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const k = 50
	inc := make([]float64, k-1)
	for j := range inc {
		inc[j] = 10 + rng.NormFloat64() // distances negated below: scores near -10
	}
	for j := range inc {
		inc[j] = -inc[j]
	}
	slices.Sort(inc)
	c := -9.0
	below := 0
	for below < len(inc) && inc[below] < c {
		below++
	}
	ranks := []int{1, 2, 3, 5, 8, 12, 18, 27, 41, k - 1}
	good := SummarisePoint(0, c, inc, below, ranks)
	if err := good.Check(k, ranks); err != nil {
		t.Fatalf("SummarisePoint's summary is refused: %v", err)
	}
	// the moments recomputed independently, as the NumPy recipe does
	all := append([]float64{c}, inc...)
	mean := 0.0
	for _, v := range all {
		mean += v
	}
	mean /= k
	m2, sq := 0.0, 0.0
	for _, v := range all {
		m2 += (v - mean) * (v - mean)
		sq += v * v
	}
	if math.Abs(mean-good.Mean) > 1e-12 || math.Abs(m2-good.M2) > 1e-9 {
		t.Fatalf("SummarisePoint: mean %v m2 %v, want %v %v", good.Mean, good.M2, mean, m2)
	}
	for _, tc := range []struct {
		name string
		edit func(p *PointSummary)
		want string
	}{
		{"variance instead of m2", func(p *PointSummary) { p.M2 /= k }, "m2 ="},
		{"sample variance instead of m2", func(p *PointSummary) { p.M2 /= k - 1 }, "m2 ="},
		{"sum of squares instead of m2", func(p *PointSummary) { p.M2 = sq }, "m2 ="},
		{"m2 times K", func(p *PointSummary) { p.M2 *= k }, "m2 ="},
		{"mean of the distances (not negated)", func(p *PointSummary) { p.Mean = -p.Mean }, "mean ="},
		{"mean 0", func(p *PointSummary) { p.Mean = 0 }, "mean ="},
		{"maxabs too small", func(p *PointSummary) { p.MaxAbs = 1 }, "maxabs ="},
		{"maxabs too large", func(p *PointSummary) { p.MaxAbs *= 2 }, "maxabs ="},
	} {
		p := good
		p.Values = slices.Clone(good.Values)
		tc.edit(&p)
		err := p.Check(k, ranks)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %q", tc.name, err, tc.want)
		}
	}
	// Two classes: the bounds are tight (m2 = (hi-lo)^2 / 2), and the
	// variance, half of it, is refused.
	two := SummarisePoint(0, 3, []float64{1}, 1, []int{1})
	if err := two.Check(2, []int{1}); err != nil {
		t.Errorf("K = 2: %v", err)
	}
	two.M2 /= 2
	if err := two.Check(2, []int{1}); err == nil {
		t.Errorf("K = 2, the variance as m2: no error")
	}
	// Equal and spread scores, tiny (their squares underflow: m2 is 0 or
	// subnormal) and huge: all pass.
	for _, v := range []float64{0, 1e-300, 1e-160, 1e-140, 0.1, 3e140} {
		p := SummarisePoint(0, v, []float64{v, v, v}, 0, []int{1, 2, 3})
		if err := p.Check(4, []int{1, 2, 3}); err != nil {
			t.Errorf("equal scores %v: %v", v, err)
		}
		if v == 0 {
			continue
		}
		p = SummarisePoint(0, 3*v, []float64{v, 2 * v, 2.5 * v}, 3, []int{1, 2, 3})
		if err := p.Check(4, []int{1, 2, 3}); err != nil {
			t.Errorf("scores %v to %v: %v", v, 3*v, err)
		}
	}
}

// TestCheckMomentsPopoviciuBound: the largest m2 of K numbers between lo
// and hi is K (hi-lo)^2 / 4 for even K, reached by half of them at each
// end (each lies (hi-lo)/2 from the mean). That row's summary passes, and
// the same row with m2 1% above the bound is refused.
func TestCheckMomentsPopoviciuBound(t *testing.T) {
	const k = 8
	const lo, hi = -3.0, 5.0
	// correct score hi, 3 incorrect at hi, 4 at lo: below = 4, ties = 3
	inc := []float64{lo, lo, lo, lo, hi, hi, hi}
	ranks := []int{1, 2, 3, 4, 5, 6, 7}
	p := SummarisePoint(0, hi, inc, 4, ranks)
	bound := float64(k) * (hi - lo) * (hi - lo) / 4
	if math.Abs(p.M2-bound) > 1e-12*bound || p.Mean != (hi+lo)/2 {
		t.Fatalf("the row's m2 %v and mean %v, want the bound %v and %v", p.M2, p.Mean, bound, (hi+lo)/2)
	}
	if err := p.Check(k, ranks); err != nil {
		t.Fatalf("a row at the bound is refused: %v", err)
	}
	p.M2 = 1.01 * bound
	if err := p.Check(k, ranks); err == nil || !strings.Contains(err.Error(), "m2 =") {
		t.Errorf("m2 1%% above K (hi-lo)^2/4: error %v, want one naming m2", err)
	}
}
