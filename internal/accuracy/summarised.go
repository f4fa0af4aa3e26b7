package accuracy

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ErrSummarised is returned by what needs every score of the pilot (the
// published CleaneX encoding, class subsets of the scores) when the Sample
// was built from a per-point summary.
var ErrSummarised = errors.New("needs the full score matrix; a summary holds only order statistics of the scores")

// PointSummary is what a summary keeps of one test point, with its scores
// oriented so that higher is better.
type PointSummary struct {
	// Label is the point's class index in 0..K-1.
	Label int
	// Correct is the correct class's score.
	Correct float64
	// Below is R_x, the number of incorrect scores strictly below Correct;
	// Ties is the number equal to it.
	Below, Ties int
	// Mean, M2 and MaxAbs describe all K scores of the row: their mean, the
	// sum of squared deviations from that mean, and the largest |score|.
	Mean, M2, MaxAbs float64
	// Values holds the incorrect scores at the sample's knot ranks (the
	// ranks given to NewSummarisedSample), in that order.
	Values []float64
}

// summarised holds what a Sample built from a summary has instead of its
// scores.
type summarised struct {
	// ranks are the knot ranks from the top, ascending, ending at K-1.
	ranks []int
	// values holds, row-major N x len(ranks), each point's knot values.
	values []float64
	// ties, mean, m2, maxAbs are per point, as in PointSummary.
	ties             []int
	mean, m2, maxAbs []float64
	// precomputed holds per-point values a method computed from the full
	// rows, by key (see Precomputed).
	precomputed map[string][]float64
}

// NewSummarisedSample builds the Sample of a pilot of k classes from its
// per-point summaries. ranks lists the knot ranks every point's Values
// follow; they must be ascending, start at 1 and end at k-1 (the lowest
// incorrect score), and every point's Values must be non-increasing along
// them and agree with Correct, Below and Ties (the highest k-1-Below-Ties
// incorrect scores lie above Correct, the lowest Below below it), and their
// Mean, M2 and MaxAbs must be possible for scores between their highest and
// lowest (PointSummary.Check). Weights
// and the observed curve are exact (they need only R_x); IncorrectRow and
// IncorrectAt interpolate between knots (see IncorrectAt). precomputed
// (may be nil) holds per-point values, one per point in order, that methods
// computed from the full rows, by key (see Precomputed).
func NewSummarisedSample(k int, ranks []int, pts []PointSummary, precomputed map[string][]float64) (*Sample, error) {
	if k < 2 {
		return nil, ErrTooFewClasses
	}
	m := k - 1
	if len(ranks) == 0 || ranks[0] != 1 || ranks[len(ranks)-1] != m {
		return nil, fmt.Errorf("summary: knot ranks must run from 1 to K-1 = %d", m)
	}
	for j := 1; j < len(ranks); j++ {
		if ranks[j] <= ranks[j-1] {
			return nil, fmt.Errorf("summary: knot ranks must ascend (%d after %d)", ranks[j], ranks[j-1])
		}
	}
	n := len(pts)
	sizes := make([]int, k)
	for i, p := range pts {
		if p.Label < 0 || p.Label >= k {
			return nil, fmt.Errorf("point %d: class index %d is outside 0..%d", i+1, p.Label, k-1)
		}
		sizes[p.Label]++
	}
	for y, r := range sizes {
		if r == 0 {
			return nil, fmt.Errorf("class %d has no points", y)
		}
	}
	nk := len(ranks)
	for key, v := range precomputed {
		if len(v) != n {
			return nil, fmt.Errorf("summary: %d precomputed values %q for %d points", len(v), key, n)
		}
	}
	sm := &summarised{
		precomputed: precomputed,
		ranks:       slices.Clone(ranks),
		values:      make([]float64, n*nk),
		ties:        make([]int, n),
		mean:        make([]float64, n),
		m2:          make([]float64, n),
		maxAbs:      make([]float64, n),
	}
	s := &Sample{
		K:       k,
		Labels:  make([]int, n),
		Weight:  make([]float64, n),
		Correct: make([]float64, n),
		R:       make([]int, n),
		summary: sm,
	}
	for i, p := range pts {
		if err := p.Check(k, ranks); err != nil {
			return nil, fmt.Errorf("point %d: %w", i+1, err)
		}
		s.Labels[i] = p.Label
		s.Weight[i] = 1 / float64(k*sizes[p.Label])
		s.Correct[i] = p.Correct
		s.R[i] = p.Below
		copy(sm.values[i*nk:(i+1)*nk], p.Values)
		sm.ties[i], sm.mean[i], sm.m2[i], sm.maxAbs[i] = p.Ties, p.Mean, p.M2, p.MaxAbs
	}
	s.Observed = Observed(s.R, s.Weight, k)
	return s, nil
}

// Check verifies one point's summary for a pilot of k classes whose
// summary holds the given knot ranks (as NewSummarisedSample requires):
// counts, finite values, order statistics that agree with Correct, Below
// and Ties, and moments that scores between the row's highest and lowest
// can have (checkMoments).
func (p PointSummary) Check(k int, ranks []int) error {
	m := k - 1
	if p.Below < 0 || p.Ties < 0 || p.Below+p.Ties > m {
		return fmt.Errorf("below = %d and ties = %d must be counts of the %d incorrect classes", p.Below, p.Ties, m)
	}
	if len(p.Values) != len(ranks) {
		return fmt.Errorf("%d order statistics for %d knot ranks", len(p.Values), len(ranks))
	}
	for _, v := range append([]float64{p.Correct, p.Mean, p.M2, p.MaxAbs}, p.Values...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("a value is %v; every value must be a finite number", v)
		}
	}
	above := m - p.Below - p.Ties // ranks 1..above lie above the correct score
	for j, r := range ranks {
		v := p.Values[j]
		if j > 0 && v > p.Values[j-1] {
			return fmt.Errorf("the incorrect score at rank %d (%v) is above the one at rank %d (%v): order statistics must not rise with the rank", r, v, ranks[j-1], p.Values[j-1])
		}
		switch {
		case r <= above && !(v > p.Correct):
			return fmt.Errorf("the incorrect score at rank %d (%v) must lie above the correct score %v: %d incorrect scores are above it", r, v, p.Correct, above)
		case r > above && r <= above+p.Ties && v != p.Correct:
			return fmt.Errorf("the incorrect score at rank %d (%v) must tie the correct score %v (ties = %d)", r, v, p.Correct, p.Ties)
		case r > above+p.Ties && !(v < p.Correct):
			return fmt.Errorf("the incorrect score at rank %d (%v) must lie below the correct score %v: %d incorrect scores are below it", r, v, p.Correct, p.Below)
		}
	}
	if !(p.M2 >= 0) || !(p.MaxAbs >= 0) {
		return fmt.Errorf("m2 = %v and maxabs = %v must not be negative", p.M2, p.MaxAbs)
	}
	return p.checkMoments(k)
}

// momentTolerance is the relative slack checkMoments allows for rounding in
// however the moments were computed (float64 sums over up to 10^6 scores
// are off by far less; the mistakes it catches are off by a factor).
const momentTolerance = 1e-6

// checkMoments checks Mean, M2 and MaxAbs against the row's extreme
// scores, which the summary keeps: the highest, hi = max(Correct, the
// incorrect score at rank 1), and the lowest, lo = min(Correct, the one
// at rank K-1). Any K numbers whose largest is hi and smallest lo have a
// mean in [lo, hi], a largest |score| of max(|hi|, |lo|), and a sum of
// squared deviations m2 with (hi-mean)^2 + (lo-mean)^2 <= m2 (two of the
// terms) and m2 <= K (hi-lo)^2 / 4 (Popoviciu's bound on the variance).
// The bounds are computed in units of s = max(|hi|, |lo|) and compared in
// the scores' own, with a slack of K times the smallest float64 beside the
// relative one, because the squares of scores below about 1e-154 underflow
// (m2 is then 0 or subnormal, as pooled expects and works around). The
// checks catch the mistakes a summary written by hand makes: the variance
// in place of m2 (always below the lower bound), the sum of squares without
// centring, moments of the scores before they were oriented
// higher-is-better.
func (p PointSummary) checkMoments(k int) error {
	hi := max(p.Correct, p.Values[0])
	lo := min(p.Correct, p.Values[len(p.Values)-1])
	s := max(math.Abs(hi), math.Abs(lo))
	if s == 0 {
		return nil // every score is 0: the moments are 0 or rounding
	}
	const tol = momentTolerance
	under := float64(k) * math.SmallestNonzeroFloat64 // underflow, absolute
	if p.Mean < lo-tol*s-under || p.Mean > hi+tol*s+under {
		return fmt.Errorf("mean = %v lies outside the point's scores, which run from %v to %v: mean is the mean of the point's K scores, oriented higher-is-better as the other columns (negated distances)", p.Mean, lo, hi)
	}
	if math.Abs(p.MaxAbs/s-1) > tol {
		return fmt.Errorf("maxabs = %v, but the largest |score| of the point (its correct score, top1 or lowest) is %v: maxabs is the largest absolute value of the point's K scores", p.MaxAbs, s)
	}
	mu, h, l := p.Mean/s, hi/s, lo/s
	a, b := h-mu, l-mu
	least := a*a + b*b
	most := float64(k) * (h - l) * (h - l) / 4
	slack := tol * float64(k) * tol
	switch {
	case p.M2 < (least*(1-tol)-slack)*s*s-under:
		return fmt.Errorf("m2 = %v is below %.6g, the least the sum of squared deviations from the mean can be for scores from %v to %v with mean %v: m2 is the sum over the point's K scores of (score - mean)^2, not their variance (VAR_POP(s) * COUNT(*) in SQL)", p.M2, least*s*s, lo, hi, p.Mean)
	case p.M2 > (most*(1+tol)+slack)*s*s+under:
		return fmt.Errorf("m2 = %v is above %.6g, the most the sum of squared deviations from the mean can be for %d scores from %v to %v: m2 is the sum over the point's K scores of (score - mean)^2, not the sum of their squares", p.M2, most*s*s, k, lo, hi)
	}
	return nil
}

// Precomputed returns the per-point values stored under key when s was
// built from rows that are gone (for example a method's C_x, computed from
// each full row while the rows were scored in blocks; the key names the
// method and its setting, e.g. "kde:lcv"), or nil.
func (s *Sample) Precomputed(key string) []float64 {
	if s.summary == nil {
		return nil
	}
	return s.summary.precomputed[key]
}

// Ties returns the number of point i's incorrect scores equal to its
// correct score.
func (s *Sample) Ties(i int) int {
	if s.summary != nil {
		return s.summary.ties[i]
	}
	inc := s.IncorrectRow(i)
	t := 0
	for j := s.R[i]; j < len(inc) && inc[j] == s.Correct[i]; j++ {
		t++
	}
	return t
}

// TiedShare returns the share of the test points, weighted as the accuracy
// weighs them (w_x), whose correct score equals at least one incorrect
// score (Ties(i) > 0): ties count against a point, so each of them is an
// error at every k where a tied class is among the k.
func (s *Sample) TiedShare() float64 {
	share := 0.0
	for i, w := range s.Weight {
		if s.Ties(i) > 0 {
			share += w
		}
	}
	return share
}

// TiesNoteShare is the share of tied points (TiedShare) from which
// TiesNote speaks.
const TiesNoteShare = 0.1

// TiesNote says, when a share t (TiedShare) of at least TiesNoteShare of
// the points tie their true class with a wrong one, what that does and what
// to do; "" otherwise.
func TiesNote(t float64) string {
	if t < TiesNoteShare {
		return ""
	}
	return fmt.Sprintf("%.0f%% of your test points score their true class exactly as high as a wrong class (scores rounded to few decimals, or a coarse classifier); a tie counts as an error, so the accuracies here are lower than untied scores would give: use scores with more decimals if you have them", 100*t)
}

// Summarised reports whether s was built from a per-point summary (it then
// holds order statistics of the incorrect scores instead of the scores).
func (s *Sample) Summarised() bool { return s.summary != nil }

// IncorrectAt returns point i's incorrect score at rank r from the top
// (1 = the highest, K-1 = the lowest). For a Sample built from a summary it
// is exact at the knot ranks; between knots a and b it is the linear
// interpolation in rank, v_a + (r - a)/(b - a) (v_b - v_a), moved, when that
// would contradict the point's exact counts, to the nearest float64 above
// or below the correct score (or onto it, within the ties), so that
// R_x and the ties stay exact.
func (s *Sample) IncorrectAt(i, r int) float64 {
	m := s.K - 1
	if s.summary == nil {
		return s.Incorrect[i*m+m-r]
	}
	sm := s.summary
	nk := len(sm.ranks)
	vals := sm.values[i*nk : (i+1)*nk]
	j, found := slices.BinarySearch(sm.ranks, r)
	if found {
		return vals[j]
	}
	a, b := sm.ranks[j-1], sm.ranks[j]
	v := vals[j-1] + float64(r-a)/float64(b-a)*(vals[j]-vals[j-1])
	return s.clampToCounts(i, r, v)
}

// clampToCounts moves v, an interpolated incorrect score at rank r of point
// i, to the side of the correct score its rank puts it on.
func (s *Sample) clampToCounts(i, r int, v float64) float64 {
	c := s.Correct[i]
	above := s.K - 1 - s.R[i] - s.summary.ties[i]
	switch {
	case r <= above:
		return max(v, math.Nextafter(c, math.Inf(1)))
	case r <= above+s.summary.ties[i]:
		return c
	default:
		return min(v, math.Nextafter(c, math.Inf(-1)))
	}
}

// summarisedRow returns point i's K-1 incorrect scores sorted ascending,
// rebuilt from the knots as IncorrectAt describes, into buf (grown as needed).
func (s *Sample) summarisedRow(i int, buf []float64) []float64 {
	m := s.K - 1
	buf = slices.Grow(buf[:0], m)[:m]
	sm := s.summary
	nk := len(sm.ranks)
	vals := sm.values[i*nk : (i+1)*nk]
	for j, r := range sm.ranks {
		buf[m-r] = vals[j]
		if j == 0 {
			continue
		}
		a, va, vb := sm.ranks[j-1], vals[j-1], vals[j]
		for rr := a + 1; rr < r; rr++ {
			buf[m-rr] = s.clampToCounts(i, rr, va+float64(rr-a)/float64(r-a)*(vb-va))
		}
	}
	return buf
}

// ScoreMoments returns a power of two f with max |f v| in [1/2, 1) over all
// N x K oriented scores v of s (f = 1 when every score is 0; 2^1023 when
// every score is subnormal, see PowerOfTwoBelow), and the mean
// and the population standard deviation of the scaled scores f v; a zero
// deviation is replaced by 1. Scaling by a power of two is exact, so scores
// of any magnitude give finite moments. For a Sample built from a summary
// the moments combine the rows' means and sums of squares (Chan et al.'s
// pairwise update: M2 = sum_x M2_x + K sum_x (mean_x - mean)^2).
func (s *Sample) ScoreMoments() (f, mean, sd float64) {
	if s.summary != nil {
		return s.summarisedMoments()
	}
	big := 0.0
	for _, c := range s.Correct {
		big = max(big, math.Abs(c))
	}
	for _, v := range s.Incorrect {
		big = max(big, math.Abs(v))
	}
	f = PowerOfTwoBelow(big)
	n := 0
	for i, c := range s.Correct {
		mean += c * f
		for _, v := range s.IncorrectRow(i) {
			mean += v * f
		}
		n += s.K
	}
	mean /= float64(n)
	for i, c := range s.Correct {
		d := c*f - mean
		sd += d * d
		for _, v := range s.IncorrectRow(i) {
			d := v*f - mean
			sd += d * d
		}
	}
	sd = math.Sqrt(sd / float64(n))
	if sd == 0 || math.IsNaN(sd) {
		sd = 1
	}
	return f, mean, sd
}

// PowerOfTwoBelow returns the power of two f with f big in [1/2, 1), or 1
// when big is 0 or +Inf. For a big so small (subnormal, below about
// 1.1e-308) that this f would overflow, it returns the largest power of two,
// 2^1023, which brings big to at least about 2^-51. Scaling by it is exact.
func PowerOfTwoBelow(big float64) float64 {
	if big > 0 {
		_, e := math.Frexp(big)
		return math.Ldexp(1, min(-e, 1023))
	}
	return 1
}

func (s *Sample) summarisedMoments() (f, mean, sd float64) {
	sm := s.summary
	f = PowerOfTwoBelow(slices.Max(sm.maxAbs))
	k := float64(s.K)
	for _, mu := range sm.mean {
		mean += mu * f
	}
	mean /= float64(len(sm.mean))
	ss := 0.0
	for i, mu := range sm.mean {
		d := mu*f - mean
		ss += sm.m2[i]*f*f + k*d*d
	}
	sd = math.Sqrt(ss / (k * float64(len(sm.mean))))
	if sd == 0 || math.IsNaN(sd) {
		sd = 1
	}
	return f, mean, sd
}

// SummarisePoint returns what a summary keeps of one point: its class
// label, its correct score c and its K-1 incorrect scores inc sorted
// ascending (both oriented higher-is-better), with R_x = below (the number
// of inc strictly below c); Values holds the incorrect scores at the given
// ranks from the top. The row's mean is (c + sum inc) / K, summed in that
// order, and M2 = (c - mean)^2 + sum (inc_j - mean)^2.
func SummarisePoint(label int, c float64, inc []float64, below int, ranks []int) PointSummary {
	m := len(inc)
	p := PointSummary{Label: label, Correct: c, Below: below, Values: make([]float64, len(ranks))}
	for j := below; j < m && inc[j] == c; j++ {
		p.Ties++
	}
	p.Mean, p.MaxAbs = c, math.Abs(c)
	for _, v := range inc {
		p.Mean += v
		p.MaxAbs = max(p.MaxAbs, math.Abs(v))
	}
	p.Mean /= float64(m + 1)
	p.M2 = (c - p.Mean) * (c - p.Mean)
	for _, v := range inc {
		p.M2 += (v - p.Mean) * (v - p.Mean)
	}
	for j, r := range ranks {
		p.Values[j] = inc[m-r]
	}
	return p
}

// KnotRanks returns the ranks a Sample built from a summary keeps of every
// point's incorrect scores (nil for a Sample built from a score matrix).
func (s *Sample) KnotRanks() []int {
	if s.summary == nil {
		return nil
	}
	return slices.Clone(s.summary.ranks)
}

// Point returns what a summary keeps of point i: for a Sample built from a
// summary, what it was built from; for one built from a score matrix,
// SummarisePoint at the given ranks.
func (s *Sample) Point(i int, ranks []int) PointSummary {
	if s.summary == nil {
		return SummarisePoint(s.Labels[i], s.Correct[i], s.IncorrectRow(i), s.R[i], ranks)
	}
	sm := s.summary
	nk := len(sm.ranks)
	return PointSummary{Label: s.Labels[i], Correct: s.Correct[i], Below: s.R[i], Ties: sm.ties[i],
		Mean: sm.mean[i], M2: sm.m2[i], MaxAbs: sm.maxAbs[i], Values: slices.Clone(sm.values[i*nk : (i+1)*nk])}
}

// PrecomputedKeys returns the keys of the precomputed per-point values, sorted.
func (s *Sample) PrecomputedKeys() []string {
	if s.summary == nil {
		return nil
	}
	keys := make([]string, 0, len(s.summary.precomputed))
	for k := range s.summary.precomputed {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
