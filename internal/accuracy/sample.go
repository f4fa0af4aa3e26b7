// Package accuracy holds the quantities every estimator shares: the Sample
// (per test point its weight, correct score, sorted incorrect scores and R_x),
// the exact observed accuracy curve, the reversed ROC and the RMSE between
// curves. Formulas follow docs/formats.md §2 and the CleaneX paper.
package accuracy

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/cleanex/cleanex/internal/detmath"
	"github.com/cleanex/cleanex/internal/radix"
	"github.com/cleanex/cleanex/internal/scores"
)

// Sample is a score matrix oriented so that higher is better, with the
// per-point quantities the estimators read.
type Sample struct {
	// K is the number of classes.
	K int
	// Labels holds each point's class index in 0..K-1.
	Labels []int
	// Weight holds w_x = 1 / (K r_y), so the weights sum to 1 (class-balanced accuracy).
	Weight []float64
	// Correct holds each point's correct score, oriented so higher is better.
	Correct []float64
	// Incorrect holds, row-major N x (K-1), each point's incorrect scores
	// oriented so higher is better and sorted ascending.
	Incorrect []float64
	// R holds R_x, the number of incorrect classes the correct class strictly beats.
	R []int
	// Observed is the exact observed curve Abar_k, k = 0..K (see Observed).
	Observed Curve
	// LogProbabilities is true when the scores were class probabilities, or
	// looked like probabilities of a model that gives no point more than 1/2
	// (scores.ProbabilityCheck.LnMap), and
	// the Sample holds their natural logarithms; LogOdds when they looked
	// like probabilities whose rows do not sum to 1 and the Sample holds
	// their log-odds (Orientation).
	LogProbabilities, LogOdds bool
	// ScoresNote is what the user should be told about how the scores were
	// read (scores.ProbabilityCheck.Note; "" when nothing).
	ScoresNote string
	// scores holds the oriented N x K scores, kept for Subset.
	scores []float64
	// summary holds, for a Sample built from a per-point summary (then
	// Incorrect and scores are nil), what the summary kept of each row.
	summary *summarised
}

// N returns the number of points.
func (s *Sample) N() int { return len(s.Labels) }

// Top1Hits returns the number of points whose correct class strictly beats
// every incorrect one (R_x = K-1): the top-1 hits at K.
func (s *Sample) Top1Hits() int {
	hits := 0
	for _, r := range s.R {
		if r == s.K-1 {
			hits++
		}
	}
	return hits
}

// IncorrectRow returns point i's K-1 incorrect scores, sorted ascending: a
// view of Incorrect, or, for a Sample built from a summary, a new slice
// rebuilt from the knots (see IncorrectAt).
func (s *Sample) IncorrectRow(i int) []float64 {
	m := s.K - 1
	if s.summary != nil {
		return s.summarisedRow(i, nil)
	}
	return s.Incorrect[i*m : (i+1)*m]
}

// ScoreRow returns point i's K scores, oriented so higher is better, in
// class order: a view of the Sample's scores, not to be modified; nil for a
// Sample built from a summary, which has no scores.
func (s *Sample) ScoreRow(i int) []float64 {
	if s.summary != nil {
		return nil
	}
	return s.scores[i*s.K : (i+1)*s.K]
}

// Matrix returns the Sample's scores as a new matrix, oriented so higher is
// better, with the classes named "1".."K". A Sample built from a summary has
// no scores (ErrSummarised).
func (s *Sample) Matrix() (*scores.Matrix, error) {
	if s.summary != nil {
		return nil, fmt.Errorf("matrix: %w", ErrSummarised)
	}
	classes := make([]string, s.K)
	for j := range classes {
		classes[j] = strconv.Itoa(j + 1)
	}
	return &scores.Matrix{Classes: classes, Labels: slices.Clone(s.Labels), Scores: slices.Clone(s.scores)}, nil
}

// ErrTooFewClasses is returned when a sample would have fewer than 2 classes.
var ErrTooFewClasses = errors.New("at least 2 classes are needed")

// ErrConstantScores is returned when every test point gives all its classes
// the same score: such scores say nothing about which class is right.
var ErrConstantScores = errors.New("every test point gives all of its classes the same score, so the scores cannot tell the classes apart: check that the score columns hold the classifier's scores (not a constant or a placeholder)")

// CheckVaries returns ErrConstantScores when every point of s ties its
// correct class with all K-1 incorrect ones. The command line and the page
// refuse such a pilot; the methods themselves accept it (its observed curve
// is 0 from k = 2 on).
func (s *Sample) CheckVaries() error {
	for i := range s.Labels {
		if s.Ties(i) < s.K-1 {
			return nil
		}
	}
	return ErrConstantScores
}

// Orientation is how the scores of a matrix are read, so that higher is
// better: negated under scores.Lower; under scores.Higher taken as their
// logarithms when they are class probabilities
// (scores.ProbabilityCheck.LogMap), as their log-odds when they look like
// probabilities whose rows do not sum to 1
// (scores.ProbabilityCheck.LogOddsMap), as their logarithms when they look
// like probabilities of a model that gives no point more than 1/2
// (scores.ProbabilityCheck.LnMap), as they are otherwise. NewSample
// reads a matrix this way, and so does a caller that orients its rows one
// by one.
type Orientation struct {
	lower bool
	// logOf is the map of the scores (nil for none); logOdds says it is the
	// log-odds, not the logarithm.
	logOf   func(float64) float64
	logOdds bool
	note    string
}

// Orient returns the Orientation of m's scores under direction d (Higher or
// Lower; resolve Auto first, scores.Matrix.Resolve).
func Orient(m *scores.Matrix, d scores.Direction) Orientation {
	if d == scores.Lower {
		return Orientation{lower: true}
	}
	c := m.CheckProbabilities()
	if odds := c.LogOddsMap(); odds != nil {
		return Orientation{logOf: odds, logOdds: true, note: c.Note(m.N())}
	}
	if ln := c.LnMap(); ln != nil {
		return Orientation{logOf: ln, note: c.Note(m.N())}
	}
	return Orientation{logOf: c.LogMap(), note: c.Note(m.N())}
}

// Row writes the scores src, oriented, into dst (of src's length).
func (o Orientation) Row(dst, src []float64) {
	switch {
	case o.lower:
		for j, v := range src {
			dst[j] = -v
		}
	case o.logOf != nil:
		for j, v := range src {
			dst[j] = o.logOf(v)
		}
	default:
		copy(dst, src)
	}
}

// Mark records on s, a Sample of scores read with o, what o did:
// LogProbabilities, LogOdds and ScoresNote.
func (o Orientation) Mark(s *Sample) {
	s.LogProbabilities, s.LogOdds, s.ScoresNote = o.logOf != nil && !o.logOdds, o.logOdds, o.note
}

// NewSample orients m's scores by d (Auto is resolved first; Orient) and
// computes the per-point quantities. It returns the direction used. Scores
// taken higher-is-better that are class probabilities are replaced by their
// logarithms (LogProbabilities is set), scores that look like probabilities
// whose rows do not sum to 1 by their log-odds (LogOdds is set); ScoresNote
// says so, or that they nearly were class probabilities.
func NewSample(m *scores.Matrix, d scores.Direction) (*Sample, scores.Direction, error) {
	return orientedSample(m, d, make([]float64, len(m.Scores)))
}

// orientedSample is NewSample with m's scores oriented into dst (m.Scores
// itself for NewSampleInPlace), which the Sample keeps.
func orientedSample(m *scores.Matrix, d scores.Direction, dst []float64) (*Sample, scores.Direction, error) {
	d = m.Resolve(d)
	o := Orient(m, d)
	o.Row(dst, m.Scores)
	s, err := build(m.K(), slices.Clone(m.Labels), dst)
	if s != nil {
		o.Mark(s)
	}
	return s, d, err
}

// NewSampleInPlace is NewSample with m's scores oriented where they lie and
// handed to the Sample instead of copied, so that a large matrix is not
// held twice: afterwards m.Scores is nil (the Sample holds them, oriented),
// while m's classes and labels stay as they were.
func NewSampleInPlace(m *scores.Matrix, d scores.Direction) (*Sample, scores.Direction, error) {
	s, d, err := orientedSample(m, d, m.Scores)
	m.Scores = nil
	return s, d, err
}

// NewSampleAsIs computes the per-point quantities of m's scores taken
// higher-is-better exactly as they are: no class probabilities read as
// logarithms nor anything else Orient would do. For callers that have
// oriented the scores themselves (the calibration's studies of how each
// reading of probabilities serves the estimate).
func NewSampleAsIs(m *scores.Matrix) (*Sample, error) {
	return build(m.K(), slices.Clone(m.Labels), slices.Clone(m.Scores))
}

// Subset returns the Sample restricted to the given classes (indices into
// 0..K-1, distinct) and to the points of those classes; R_x, weights and the
// observed curve are recomputed against the subset only. A Sample built
// from a summary has no scores to subset (ErrSummarised).
func (s *Sample) Subset(classes []int) (*Sample, error) {
	if s.summary != nil {
		return nil, fmt.Errorf("subset: %w", ErrSummarised)
	}
	newIndex, err := s.subsetIndex(classes)
	if err != nil {
		return nil, err
	}
	k := len(classes)
	var labels []int
	var sc []float64
	for i, y := range s.Labels {
		if newIndex[y] < 0 {
			continue
		}
		labels = append(labels, newIndex[y])
		row := s.scores[i*s.K : (i+1)*s.K]
		for _, c := range classes {
			sc = append(sc, row[c])
		}
	}
	out, err := build(k, labels, sc)
	if out != nil {
		out.LogProbabilities, out.LogOdds, out.ScoresNote = s.LogProbabilities, s.LogOdds, s.ScoresNote
	}
	return out, err
}

// subsetIndex maps each of the K classes to its position in classes, or -1
// when it is not there; it rejects out-of-range and repeated indices.
func (s *Sample) subsetIndex(classes []int) ([]int, error) { return classIndex(s.K, classes) }

// classIndex maps each of k classes to its position in classes, or -1 when
// it is not there; it rejects out-of-range and repeated indices.
func classIndex(k int, classes []int) ([]int, error) {
	newIndex := make([]int, k)
	for i := range newIndex {
		newIndex[i] = -1
	}
	for j, c := range classes {
		if c < 0 || c >= k || newIndex[c] >= 0 {
			return nil, fmt.Errorf("subset: class index %d is out of range or repeated", c)
		}
		newIndex[c] = j
	}
	return newIndex, nil
}

func build(k int, labels []int, oriented []float64) (*Sample, error) {
	if k < 2 {
		return nil, ErrTooFewClasses
	}
	n := len(labels)
	sizes := make([]int, k)
	for _, y := range labels {
		sizes[y]++
	}
	for y, r := range sizes {
		if r == 0 {
			return nil, fmt.Errorf("class %d has no points", y)
		}
	}
	s := &Sample{
		K:         k,
		Labels:    labels,
		Weight:    make([]float64, n),
		Correct:   make([]float64, n),
		Incorrect: make([]float64, n*(k-1)),
		R:         make([]int, n),
		scores:    oriented,
	}
	buf := make([]float64, k-1)
	for i, y := range labels {
		row := oriented[i*k : (i+1)*k]
		c := row[y]
		s.Weight[i] = 1 / float64(k*sizes[y])
		s.Correct[i] = c
		inc := s.IncorrectRow(i)
		copy(inc, row[:y])
		copy(inc[y:], row[y+1:])
		radix.Float64s(inc, buf)
		// R_x: incorrect scores strictly below c (ties lose).
		r, _ := slices.BinarySearch(inc, c)
		s.R[i] = r
	}
	s.Observed = Observed(s.R, s.Weight, k)
	return s, nil
}

// Curve is an accuracy curve indexed by the number of classes: c[k] is the
// accuracy at k classes, for k = 0..len(c)-1; c[0] and c[1] are 1 by convention.
type Curve []float64

// Max returns the largest k the curve covers.
func (c Curve) Max() int { return len(c) - 1 }

// Observed returns the exact observed curve over all k-subsets of the K
// classes that contain each point's class, for k = 0..K:
//
//	Abar_k = sum_x w_x prod_{i=1..k-1} (R_x + 1 - i) / (K - i),
//
// computed in log space, grouping points by R_x (O(K^2) whatever N is);
// rounding is settled as in Expected.
// With equal class sizes this is 1/C(K,k) 1/(rk) sum_x C(R_x, k-1).
func Observed(r []int, w []float64, k int) Curve {
	byR := make([]float64, k) // total weight of the points with R_x = R
	for i, rx := range r {
		byR[rx] += w[i]
	}
	return ObservedByR(byR, k)
}

// ObservedByR is Observed with the weights already summed per value of R
// (byR[R] = sum of w_x over points with R_x = R, R = 0..K-1).
func ObservedByR(byR []float64, k int) Curve {
	return observedByR(byR, k, k)
}

// observedByR is ObservedByR for k = 0..kmax only (kmax <= K).
func observedByR(byR []float64, k, kmax int) Curve {
	c := make(Curve, kmax+1)
	c[0], c[1] = 1, 1
	// logs[i] = log i, i = 1..K: the log of term_k is a running sum of
	// logs[rv+1-i] - logs[K-i].
	logs := make([]float64, k+1)
	for i := 1; i <= k; i++ {
		logs[i] = detmath.Log(float64(i))
	}
	for rv, wsum := range byR {
		if wsum == 0 {
			continue
		}
		// term_k = prod_{i=1..k-1} (rv+1-i)/(K-i), zero once k-1 > rv.
		lp := 0.0
		for kk := 2; kk <= rv+1 && kk <= kmax; kk++ {
			i := kk - 1
			lp += logs[rv+1-i] - logs[k-i]
			c[kk] += wsum * detmath.Exp(lp)
		}
	}
	settle(c)
	return c
}

// settle removes what rounding adds to a sum of weighted non-increasing terms
// whose weights sum to 1 (values like 1.0000000000000002, or a rise of an
// ulp between two k): it clamps c[k], k >= 2, to [0, c[k-1]], with c[1] = 1.
func settle(c Curve) {
	for k := 2; k < len(c); k++ {
		c[k] = max(0, min(c[k], c[k-1]))
	}
}

// Expected returns the curve E_k = sum_x w_x C_x^(k-1), k = 0..max(k2, 1), with each
// power evaluated as exp((k-1) log C_x); C_x <= 0 contributes 0 for k >= 2.
// Rounding is settled so that the curve lies in [0, 1] and never rises with k
// (see settle).
// To save exp calls the power is re-anchored with exp every expAnchor steps and
// carried by multiplication in between (relative error below expAnchor ulp); a
// point stops contributing once its power falls below 1e-300. Every E_k adds
// the points' terms in their order, as a loop over points would; the points
// are taken expGroup at a time so that their multiplication chains overlap.
func Expected(cx, w []float64, k2 int) Curve {
	c := make(Curve, max(k2, 1)+1)
	c[0], c[1] = 1, 1
	if k2 < 2 {
		return c
	}
	var g expectedGroup
	for i, p := range cx {
		if p <= 0 {
			continue
		}
		g.add(p, w[i])
		if g.n == expGroup {
			g.accumulate(c)
			g.n = 0
		}
	}
	g.accumulate(c)
	settle(c)
	return c
}

const (
	// expAnchor is the number of k between two exp anchors of Expected.
	expAnchor = 256
	// expGroup is the number of points Expected carries at once
	// (accumulate is written out for four).
	expGroup = 4
)

// expectedGroup holds up to expGroup points of Expected: C_x, log C_x and
// w_x.
type expectedGroup struct {
	n  int
	p  [expGroup]float64
	lp [expGroup]float64
	w  [expGroup]float64
}

func (g *expectedGroup) add(p, w float64) {
	g.p[g.n], g.w[g.n] = p, w
	if p < 1 {
		g.lp[g.n] = detmath.Log(p)
	}
	g.n++
}

// accumulate adds the group's terms w_x C_x^(k-1) to c[k], k = 2..len(c)-1,
// in the points' order, block by block: each power is exp at the block's
// first k, then carried by multiplication; it is 1 for C_x >= 1, and 0 from
// its first value below 1e-300 on and for the unused places of a partial
// group, whose terms add exactly 0.
func (g *expectedGroup) accumulate(c Curve) {
	if g.n == 0 {
		return
	}
	k2 := len(c) - 1
	// stop[i] is the power below which point i stops (-1 once it has).
	var stop [expGroup]float64
	for i := range expGroup {
		stop[i] = -1
		if i < g.n {
			stop[i] = 1e-300
		}
	}
	for b := 2; b <= k2; b += expAnchor {
		if stop == [expGroup]float64{-1, -1, -1, -1} {
			return
		}
		var x, p [expGroup]float64
		for i := range expGroup {
			switch {
			case stop[i] < 0:
			case g.p[i] >= 1:
				x[i], p[i] = 1, 1
			default:
				x[i], p[i] = detmath.Exp(float64(b-1)*g.lp[i]), g.p[i]
			}
		}
		m := min(expAnchor, k2+1-b)
		cb := c[b : b+m]
		var w [expGroup]float64
		copy(w[:g.n], g.w[:g.n])
		w0, w1, w2, w3 := w[0], w[1], w[2], w[3]
		x0, x1, x2, x3 := x[0], x[1], x[2], x[3]
		p0, p1, p2, p3 := p[0], p[1], p[2], p[3]
		for j := range cb {
			if x0 < stop[0] || x1 < stop[1] || x2 < stop[2] || x3 < stop[3] {
				x, p = [expGroup]float64{x0, x1, x2, x3}, [expGroup]float64{p0, p1, p2, p3}
				for i := range expGroup {
					if x[i] < stop[i] {
						x[i], p[i], stop[i] = 0, 0, -1
					}
				}
				x0, x1, x2, x3 = x[0], x[1], x[2], x[3]
				p0, p1, p2, p3 = p[0], p[1], p[2], p[3]
			}
			cb[j] = cb[j] + w0*x0 + w1*x1 + w2*x2 + w3*x3
			x0 *= p0
			x1 *= p1
			x2 *= p2
			x3 *= p3
		}
	}
}

// RMSE returns sqrt(mean_{k=2..kmax} (a_k - b_k)^2) (docs/formats.md §2),
// kmax the shorter curve's Max or, when given, upTo if that is smaller (only
// the first upTo counts); NaN when kmax < 2.
func RMSE(a, b Curve, upTo ...int) float64 {
	kmax := min(a.Max(), b.Max())
	if len(upTo) > 0 {
		kmax = min(kmax, upTo[0])
	}
	if kmax < 2 {
		return math.NaN()
	}
	s := 0.0
	for k := 2; k <= kmax; k++ {
		d := a[k] - b[k]
		s += d * d
	}
	return math.Sqrt(s / float64(kmax-1))
}

// ROCPoint is one vertex of a reversed ROC step function.
type ROCPoint struct{ U, Value float64 }

// ReversedROC returns the reversed ROC rROC(u) = sum_x w_x 1[u > 1 - C_x] as
// the vertices of its step function, u ascending from 0 to 1: at each U the
// curve steps up to Value.
func ReversedROC(cx, w []float64) []ROCPoint {
	idx := make([]int, len(cx))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(1-cx[a], 1-cx[b]) })
	pts := []ROCPoint{{0, 0}}
	acc := 0.0
	for j, i := range idx {
		acc += w[i]
		if j+1 < len(idx) && 1-cx[idx[j+1]] == 1-cx[i] {
			continue
		}
		pts = append(pts, ROCPoint{U: math.Max(0, math.Min(1, 1-cx[i])), Value: acc})
	}
	if pts[len(pts)-1].U < 1 {
		pts = append(pts, ROCPoint{U: 1, Value: acc})
	}
	return pts
}

// RAUC returns the area under the reversed ROC, sum_x w_x C_x (= E_2).
func RAUC(cx, w []float64) float64 {
	s := 0.0
	for i, p := range cx {
		s += w[i] * math.Max(0, math.Min(1, p))
	}
	return s
}

// PluginC returns the plug-in estimate C_x = R_x / (K - 1) for every point.
func (s *Sample) PluginC() []float64 {
	c := make([]float64, s.N())
	for i, r := range s.R {
		c[i] = float64(r) / float64(s.K-1)
	}
	return c
}
