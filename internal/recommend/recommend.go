// Package recommend turns the fits of several methods on one pilot into one
// recommended accuracy curve with an 80% interval at every k.
//
// The estimate is, up to the pilot's k1 classes, the pilot's observed curve
// Abar_k (the mean accuracy over every k-subset of its classes); from 2 k1
// on, the centre g_k, the methods' middle m_k drawn a share TrendWeight = w
// of the way towards the pilot's trend line t_k (in logit),
//
//	logit g_k = (1 - w) logit m_k + w t_k,
//	t_k = logit Abar_k1 + b log(k / k1),  b = (logit Abar_k1 - logit Abar_h) / log(k1 / h),  h = floor(k1 / 2)
//
// (the pilot's own accuracy curve carried on at the slope of its last
// doubling of classes; t_k = logit Abar_k up to k1); and between them the
// centre shifted by the gap at k1, fading out linearly in log k,
//
//	est_k = sigma(logit g_k + (1 - log(k / k1) / log 2) (logit Abar_k1 - logit g_k1)).
//
// The middle m_k is a median in logit space of the regression of
// Zheng et al., the pooled method (internal/estimate/pooled), the tail
// method (internal/estimate/tail) and the mean curve of several CleaneX fits
// (different seeds), cx_k = (1/M) sum_m E_k^(m), with CleaneX counted once
// for a pilot of at most SmallPilot classes,
//
//	z1_k = median(logit reg_k, logit pool_k, logit tail_k, logit cx_k)
//
// (the mean of the middle two), twice for a pilot of at least LargePilot,
//
//	z2_k = median(logit reg_k, logit pool_k, logit tail_k, logit cx_k, logit cx_k)
//
// (CleaneX itself when it lies between the lowest and the highest of the
// other three, else the one of those two it lies beyond), and in between
// m_k = sigma((2 - c) z1_k + (c - 1) z2_k) with c = CleaneXCount(k1). When
// the pilot's points do not share one tail shape (tail spread H above
// SharedTail), the pooled and the tail method, which assume they do, give
// way as CleaneX's count grows: m_k = sigma((1 - v) zall_k + v zrest_k),
// zall_k the blend above and zrest_k the same without those two, with
// v = ShapeWeight(k1, H) = c - 1. A
// method that failed drops out (with an even number of curves left, the
// median is the mean of the middle two). No weight is fitted to the curves,
// and one method that breaks down on a pilot cannot carry the estimate with
// it. The trend line has no model of the scores and cannot break down; it
// ignores how the curve bends beyond the pilot, and its share w is small.
//
// The interval is a location-scale model in logit space with a scale per side,
//
//	[sigma(c_k + q_lo(L_k) s_lo,k), sigma(c_k + q_hi(L_k) s_hi,k)],
//	s_k = a_0 + a_1 SE_k + a_2 D_k + a_3 S_k + a_4 L_k U + a_5 L_k SE_k + a_6 L_k SEK_k + a_7 B_k,
//
// centred at c_k = logit(est_k) with est_k clamped to [0.5/N, 1 - 0.5/N]
// (the pilot cannot tell accuracies closer to 0 or 1 apart). Its features
// are measured on the user's own pilot: SE_k, the class-sampling standard
// error of the observed curve (ClassSE) at min(k, k1) in logit units, with a
// binomial floor (see Fits.N); D_k, how far apart the methods are: the
// range (highest minus lowest logit) of the combined curves and KDE's curve
// (Kay et al.; not a member of the median), the same on both sides, since
// the methods' disagreement does not tell on which side the truth lies;
// S_k, the standard deviation of
// logit E_k^(m) over the CleaneX seeds; L_k = max(0, log(k / k1)), how far the
// curve is extrapolated (the quantiles depend on it too); U = min(1,
// max(0, H - 1)), how far the pilot's tail spread H (Fits.TailSpread) says
// its points do not share one tail shape (0 when they do or H is unknown, 1
// from H = 2 on): every member's extrapolation is then less sure; SEK_k =
// se_k / (p_k (1 - p_k)), the same class-sampling standard error se_k (in
// accuracy units) carried to the estimate's own level p_k = min(sigma(c_k),
// a_k), a_k the pilot's accuracy at min(k, k1) that SE_k is measured at: an
// error of se_k in accuracy weighs more in logit where the estimate is low,
// so the interval widens where the accuracy falls far below the pilot's;
// and B_k, the pilot's half-sampling spread
// (internal/halfsample: how much the pooled and the tail method's
// extrapolation to k moves over random halves of the pilot's classes). A
// pilot whose B_k is unknown (given as a per-point summary, which has no
// classes to draw) gets the calibration fitted without it
// (Calibration.WithoutB). The logits of the features clamp probabilities
// to [0.5/N, 1 - 0.5/N] as well. The coefficients (one set per side) and the
// quantiles come from a Calibration fitted on the benchmark bank, its
// first two replicates and its larger worlds (internal/bank; 864 pilots) by
// cmd/calibrate and embedded in the package
// (calibration.json). The interval is never narrower than the Wilson interval
// of the pilot's own accuracy, at k <= k1 it holds that Wilson interval, and
// from k1 to 2 k1 that hold fades out linearly in log k (no step at k1).
package recommend

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/halfsample"
	"github.com/cleanex/cleanex/internal/limits"
)

// Fits are the curves of one pilot that the recommendation combines.
type Fits struct {
	// K1 is the pilot's number of classes.
	K1 int
	// Observed is the pilot's exact observed curve, k = 0..K1.
	Observed accuracy.Curve
	// ClassSE is ClassSE of the pilot, k = 0..K1.
	ClassSE accuracy.Curve
	// N is the pilot's number of points (0 when unknown): it sets a floor
	// under SE_k for pilots whose observed accuracy is at or near 1 (see
	// features).
	N int
	// Regression, Pooled and Tail are those methods' curves (nil when they
	// failed).
	Regression, Pooled, Tail accuracy.Curve
	// CleaneX holds the curves of the CleaneX fits that succeeded.
	CleaneX []accuracy.Curve
	// KDE is the curve of the KDE method of Kay et al. (nil when it failed):
	// not a member of the median, it counts in the methods' range D_k.
	KDE accuracy.Curve
	// TiedShare is the share of the points that tie their true class with a
	// wrong one (accuracy.Sample.TiedShare; 0 when unknown). From MostlyTied
	// on, a low accuracy at 2 classes comes from the ties, so the warning
	// about the score direction is left out.
	TiedShare float64
	// Squashed reports scores squashed for the pooled and the tail method
	// (tail.Squashed: each point's top wrong-class excess carries most of its
	// excess sum, as with sharp probabilities read as they are): their models
	// then have little to go on, and CleaneX counts twice.
	Squashed bool
	// Spread is the pilot's half-sampling spread (halfsample.Measure): how
	// much the pooled and the tail method's extrapolation moves when half of
	// the pilot's classes are drawn. It is empty when unknown (a pilot given
	// as a per-point summary, or of fewer than halfsample.MinClasses
	// classes); the interval then uses Calibration.WithoutB.
	Spread halfsample.Spread
	// TailSpread is the pilot's tail spread H (tail.Spread; 0 when it
	// cannot tell or is unknown): above SharedTail the points do not share
	// the tail shape the pooled and the tail method assume, and those two
	// fade out of the median as CleaneX's count grows (ShapeWeight).
	TailSpread float64
	// CleaneXCount, when not 0, is how many times the CleaneX mean counts
	// in the median instead of CleaneXCount(K1) (or 2 when Squashed), from
	// 1 to 2 (cmd/calibrate sets it to compare rules).
	CleaneXCount float64
}

// TrendWeight is w, the share of the pilot's trend line in the estimate's
// centre (package doc). It is the weight at which the estimate's mean RMSE
// over k = 2..K on the 768 calibration pilots (the bank and its first two
// replicates) is lowest: flat within 0.0001 from 0.2 to 0.3, and the
// smallest weight of that range is taken (docs/recommendation.md, "The
// pilot's trend").
const TrendWeight = 0.2

// trendSlope returns b, the slope of the pilot's trend line (package doc)
// in logit per unit of log k, from its observed curve in the logit clamped
// at eps, and false when the pilot has fewer than 4 classes (no last
// doubling to measure).
func trendSlope(f Fits, eps float64) (float64, bool) {
	h := f.K1 / 2
	if h < 2 {
		return 0, false
	}
	return (clampedLogit(f.Observed[f.K1], eps) - clampedLogit(f.Observed[h], eps)) / math.Log(float64(f.K1)/float64(h)), true
}

// SmallPilot and LargePilot are the pilot sizes, in classes, at or below
// which CleaneX counts once in the estimate's median and at or above which it
// counts twice: the smallest and the largest pilots of the benchmark bank
// (internal/bank), where the rule was measured.
const (
	SmallPilot = 50
	LargePilot = 500
)

// CleaneXCount returns how many times the CleaneX mean counts in the
// estimate's median for a pilot of k1 classes,
//
//	c(k1) = 1 + min(1, max(0, ln(k1 / SmallPilot) / ln(LargePilot / SmallPilot))):
//
// 1 up to 50 classes, 2 from 500, 1.30 at 100 and 1.60 at 200. CleaneX is
// fitted to the pilot's observed curve and learns more from a longer one,
// while the pooled and the tail method rest on a model of the scores whose
// error does not shrink with k1: on every set of pilots measured (the bank,
// three fresh replicates of it, the held-out families and pilots of 10-30
// classes) counting CleaneX once was the better choice at k1 = 50 and
// twice at k1 = 500 (docs/recommendation.md).
func CleaneXCount(k1 int) float64 {
	w := math.Log(float64(k1)/SmallPilot) / math.Log(float64(LargePilot)/SmallPilot)
	return 1 + min(1, max(0, w))
}

// SharedTail is the largest tail spread H (tail.Spread) at which the
// pilot's points are taken to share one tail shape, as the pooled and the
// tail method assume: H is about 1 when the pool of standardised excesses
// reproduces how far the points' largest scores reach (0.95-1.01 on
// average on the bank's simulated families, 1.06 on speech; 1.17-2.76 on
// its glyphs, verses, misspellings and senses). The limit was set, before
// any error was measured, from those per-family values
// (docs/recommendation.md, "The tail spread").
const SharedTail = 1.1

// UnsharedTails returns U = min(1, max(0, h - 1)) for a pilot whose tail
// spread is h: 0 when its points share one tail shape (h about 1) or h is
// unknown (0), rising to 1 at h = 2. L_k U is a feature of the interval's
// scale: where the points' tails differ, every member's extrapolation is
// less sure (docs/recommendation.md, "Unshared tails in the interval").
func UnsharedTails(h float64) float64 {
	if !(h > 1) {
		return 0
	}
	return min(1, h-1)
}

// shapeMember reports whether the median's member called name rests on a
// shared tail shape of the scores: the pooled and the tail method.
func shapeMember(name string) bool { return name == "pooled" || name == "tail" }

// ShapeWeight returns v, the share by which the members that rest on a
// shared tail shape (the pooled and the tail method) leave the median of a
// pilot of k1 classes whose tail spread is h:
//
//	v = CleaneXCount(k1) - 1 when h > SharedTail, else 0,
//
// 0 up to 50 classes, 1 from 500. The middle value is then
// (1 - v) m_all + v m_rest in logit, m_rest the blended median of the other
// members. Where the points' tails differ, those two methods' error at
// long extrapolation does not shrink with the pilot's size while CleaneX's
// does, so they give way as CleaneX's count grows; at 50 classes, where
// the fitted methods see a short observed curve, they keep their place
// (docs/recommendation.md, "The shape members by the tail spread").
func ShapeWeight(k1 int, h float64) float64 {
	if !(h > SharedTail) {
		return 0
	}
	return CleaneXCount(k1) - 1
}

// cleanexCount returns f.CleaneXCount when it is not 0, else 2 for squashed
// scores and CleaneXCount(f.K1) otherwise.
func (f Fits) cleanexCount() float64 {
	switch {
	case f.CleaneXCount != 0:
		return f.CleaneXCount
	case f.Squashed:
		return 2
	}
	return CleaneXCount(f.K1)
}

// single returns the field of f that holds the curve of the method called
// name, one of the methods fitted once (regression, pooled, tail, kde); nil
// for CleaneX (f.CleaneX holds its fits) and any other name.
func (f *Fits) single(name string) *accuracy.Curve {
	switch name {
	case "regression":
		return &f.Regression
	case "pooled":
		return &f.Pooled
	case "tail":
		return &f.Tail
	case "kde":
		return &f.KDE
	}
	return nil
}

// InMedian reports whether the method called name is a member of the
// estimate's median (regression, pooled, tail, cleanex); KDE only counts in
// the methods' range D_k.
func InMedian(name string) bool { return name != "kde" && slices.Contains(Methods(), name) }

// MostlyTied is the share of tied points (Fits.TiedShare) from which the
// answer mostly counts ties: the page warns of it under the headline.
const MostlyTied = 0.5

// Features are the interval model's inputs at one k (see the package doc).
type Features struct {
	// SE, D, S, L, SEK and B are SE_k, D_k, S_k, L_k, SEK_k and B_k (B 0
	// when unknown), and U the pilot's unshared tails, min(1, max(0, H -
	// 1)) of its tail spread H (0 when unknown).
	SE, D, S, L, SEK, B, U float64
	// BKnown reports that B was measured (the pilot's Fits.Spread is not
	// empty); without it the interval uses Calibration.WithoutB.
	BKnown bool
}

// NumCoef is the number of scale coefficients a_j.
const NumCoef = 8

// vector returns the features multiplied by a_0..a_7: (1, SE, D, S, L U, L SE, L SEK, B).
func (f Features) vector() [NumCoef]float64 {
	return [NumCoef]float64{1, f.SE, f.D, f.S, f.L * f.U, f.L * f.SE, f.L * f.SEK, f.B}
}

// Calibration holds the fitted constants of the recommendation.
type Calibration struct {
	// Coef holds a_0..a_7 of the scale s_k of the lower side; CoefUp those
	// of the upper side, or all zero for one scale on both sides (Coef).
	Coef   [NumCoef]float64 `json:"coef"`
	CoefUp [NumCoef]float64 `json:"coef_up"`
	// Knots holds increasing values of L_k at which QLo and QHi are given:
	// the 10% and 90% quantiles of the standardised residual
	// (logit(truth_k) - c_k) / s_k (s_k the scale of the residual's side) on
	// the calibration bank near that L.
	// Between knots they are interpolated linearly, beyond the ends held
	// constant (Quantiles).
	Knots []float64 `json:"knots"`
	QLo   []float64 `json:"q_lo"`
	QHi   []float64 `json:"q_hi"`
	// WithoutB, when not nil, is the calibration fitted on the same pilots
	// with B_k left out (0 on every pilot): the one used for a pilot whose
	// half-sampling spread is unknown (For).
	WithoutB *Calibration `json:"without_b,omitempty"`
	// Population is the number of classes of the calibration bank's
	// worlds, the largest k the quantiles were measured at; FloorLo and
	// FloorHi (logit per unit of log k) bound the interval from below
	// beyond it: at k > P = max(Population, k1) the interval reaches at
	// least FloorLo log(k / P) below the estimate's logit and FloorHi
	// log(k / P) above it (a pilot with too few errors, whose interval is
	// the methods' span, aside). They are the 10% and 90% quantiles of
	// (logit truth - logit estimate) / log(Population / k1) at k =
	// Population over the bank's largest pilots (FitFloor): the error of
	// the extrapolation that does not shrink with the pilot's size, carried
	// beyond the bank at the rate those pilots showed. 0 for none.
	Population int     `json:"population,omitempty"`
	FloorLo    float64 `json:"floor_lo,omitempty"`
	FloorHi    float64 `json:"floor_hi,omitempty"`
	// SpanShare is s, how far towards the methods' curves the interval of a
	// pilot with fewer than FewErrors errors reaches beyond k1 (Spanned):
	// at least to sigma(z - s (z - logit lowest_k)) below and sigma(z + s
	// (logit highest_k - z)) above, z the estimate's logit and lowest_k,
	// highest_k the lowest and the highest method's curve (the median's
	// members and KDE). It is the Nominal quantile of the share each such
	// calibration pilot needed to hold its truth at K (FitSpanShares). 0, in
	// a calibration fitted on too few such pilots, takes in the methods'
	// curves in full (s = 1). SpanShareNone is the share of a pilot with no
	// error at all at k1, when it is not 0: at least SpanShare, and as much
	// as the calibration's pilots without an error needed.
	SpanShare     float64 `json:"span_share,omitempty"`
	SpanShareNone float64 `json:"span_share_none,omitempty"`
}

// WithSpanShares returns cal, and its WithoutB, with the span shares
// SpanShare = share and SpanShareNone = none.
func (cal Calibration) WithSpanShares(share, none float64) Calibration {
	cal.SpanShare, cal.SpanShareNone = share, none
	if cal.WithoutB != nil {
		without := *cal.WithoutB
		without.SpanShare, without.SpanShareNone = share, none
		cal.WithoutB = &without
	}
	return cal
}

// spanShare returns the share s of the methods' span the interval of a
// Spanned pilot takes in: SpanShareNone for a pilot without an error
// (noError) when it is set, else SpanShare, or 1 when that is 0.
func (cal Calibration) spanShare(noError bool) float64 {
	switch {
	case noError && cal.SpanShareNone > 0:
		return cal.SpanShareNone
	case cal.SpanShare == 0:
		return 1
	}
	return cal.SpanShare
}

// For returns the calibration for pilot f: cal itself when f's
// half-sampling spread is known or cal has no WithoutB, else *cal.WithoutB.
func (cal Calibration) For(f Fits) Calibration {
	return cal.forB(len(f.Spread.K) > 0)
}

// forFeatures is For for the pilot whose features at some k are ft.
func (cal Calibration) forFeatures(ft Features) Calibration { return cal.forB(ft.BKnown) }

func (cal Calibration) forB(known bool) Calibration {
	if known || cal.WithoutB == nil {
		return cal
	}
	return *cal.WithoutB
}

// Quantiles returns q_lo and q_hi at extrapolation L (see Knots).
func (cal Calibration) Quantiles(l float64) (lo, hi float64) {
	n := len(cal.Knots)
	switch {
	case n == 0:
		return 0, 0
	case l <= cal.Knots[0]:
		return cal.QLo[0], cal.QHi[0]
	case l >= cal.Knots[n-1]:
		return cal.QLo[n-1], cal.QHi[n-1]
	}
	j := 1
	for cal.Knots[j] < l {
		j++
	}
	t := (l - cal.Knots[j-1]) / (cal.Knots[j] - cal.Knots[j-1])
	return cal.QLo[j-1] + t*(cal.QLo[j]-cal.QLo[j-1]), cal.QHi[j-1] + t*(cal.QHi[j]-cal.QHi[j-1])
}

// validate checks that the knots increase and match the quantiles.
func (cal Calibration) validate() error {
	if len(cal.Knots) == 0 || len(cal.QLo) != len(cal.Knots) || len(cal.QHi) != len(cal.Knots) {
		return fmt.Errorf("recommend: calibration has %d knots, %d lower and %d upper quantiles", len(cal.Knots), len(cal.QLo), len(cal.QHi))
	}
	for j := range cal.Knots {
		if j > 0 && !(cal.Knots[j] > cal.Knots[j-1]) || !(cal.QLo[j] <= cal.QHi[j]) {
			return fmt.Errorf("recommend: calibration knot %d is out of order", j)
		}
	}
	if cal.Population < 0 || !(cal.FloorLo >= 0) || !(cal.FloorHi >= 0) || math.IsInf(cal.FloorLo, 0) || math.IsInf(cal.FloorHi, 0) {
		return fmt.Errorf("recommend: calibration floor %v / %v beyond %d classes is not a width", cal.FloorLo, cal.FloorHi, cal.Population)
	}
	for _, sh := range []float64{cal.SpanShare, cal.SpanShareNone} {
		if !(sh >= 0) || math.IsInf(sh, 0) {
			return fmt.Errorf("recommend: calibration's span share %v is not a share", sh)
		}
	}
	if cal.WithoutB != nil {
		if err := cal.WithoutB.validate(); err != nil {
			return fmt.Errorf("without B: %w", err)
		}
	}
	return nil
}

// Result is the recommendation for k = 0..k2.
type Result struct {
	// Estimate is the recommended curve; Lo and Hi bound its 80% interval.
	Estimate, Lo, Hi accuracy.Curve
	// Middle is the methods' middle value m_k at every k (the blended
	// median of the package doc); Centre is g_k, the middle drawn
	// TrendWeight of the way towards the pilot's trend line: the estimate
	// from 2 k1 on.
	Middle, Centre accuracy.Curve
	// Trend is the pilot's trend line sigma(t_k) at every k (the package
	// doc), nil for a pilot of fewer than 4 classes, which has none.
	Trend accuracy.Curve
	// Sources names the methods that went into the estimate ("regression",
	// "cleanex ×M").
	Sources []string
	// CleaneXCount is how many times the CleaneX mean counted in the median,
	// from 1 to 2 (CleaneXCount; 0 without CleaneX).
	CleaneXCount float64
	// ShapeWeight is v, the share by which the pooled and the tail method
	// left the median (ShapeWeight; 0 when they kept their place), and
	// TailSpread the pilot's tail spread H that decided it (Fits.TailSpread).
	ShapeWeight, TailSpread float64
	// MiddleAll and MiddleRest are, when ShapeWeight > 0, the blended
	// medians of all members and of the members other than the pooled and
	// the tail method: Middle = sigma((1 - v) logit MiddleAll + v logit
	// MiddleRest). Both nil when ShapeWeight is 0.
	MiddleAll, MiddleRest accuracy.Curve
	// Features holds the interval model's inputs at each k (for the evidence
	// shown to the user).
	Features []Features
	// Warnings says, in sentences for the user, where the recommendation
	// rests on little evidence (see FewErrors) or its interval goes beyond
	// what the calibration saw (a ratio k2 / k1 above e^(last knot)).
	Warnings []string
	// Spanned reports that beyond k1 the interval reaches the share
	// SpanShare (Calibration.SpanShare, or SpanShareNone for a pilot with no
	// error) of the way to the lowest and the highest method's curve, the
	// pilot having fewer than FewErrors errors at k1; SpanShare is 0 when
	// Spanned is false.
	Spanned   bool
	SpanShare float64
	// Floored reports that at k2 the floor beyond the calibrated
	// population (Calibration.FloorLo, FloorHi) widens the interval.
	Floored bool
}

// FewErrors is the number of misclassified pilot points at k1 (N (1 -
// Abar_k1)) below which Recommend warns that predictions beyond k1 rest on
// little evidence, and widens the interval beyond k1 towards every
// method's curve (the median's members and KDE; Calibration.SpanShare):
// with so few errors the tail of the score distribution that decides the
// accuracy at larger k is barely seen, and the interval calibrated on
// pilots with more errors cannot tell which method's extrapolation holds.
const FewErrors = 10

// ErrNoFits is returned when none of regression, the pooled method, the tail method and CleaneX is available.
var ErrNoFits = errors.New("recommend: none of regression, the pooled method, the tail method and CleaneX produced a usable curve, so there is no estimate to recommend")

// logitClamp bounds probabilities away from 0 and 1 before the logit.
const logitClamp = 1e-6

// Logit returns log(p / (1 - p)) with p clamped to [1e-6, 1 - 1e-6], the
// logit every combination and residual of this package uses.
func Logit(p float64) float64 { return clampedLogit(p, logitClamp) }

// clampedLogit returns log(p / (1 - p)) with p first clamped to [eps, 1 - eps].
func clampedLogit(p, eps float64) float64 {
	p = min(max(p, eps), 1-eps)
	return math.Log(p / (1 - p))
}

// featureClamp returns how far from 0 and 1 a probability is clamped before
// the logits of the interval's features D and S: half a point of the
// pilot (0.5 / N), since the pilot cannot tell accuracies closer to 0 or 1
// apart, so a curve that reaches exactly 1 at small k does not make the
// methods look wildly apart; logitClamp when N is unknown.
func featureClamp(f Fits) float64 {
	if f.N > 0 {
		return max(logitClamp, 0.5/float64(f.N))
	}
	return logitClamp
}

// CentreLogit returns the logit in which the interval of a pilot with these
// fits is centred and scaled: log(p / (1 - p)) with p clamped to
// [eps, 1 - eps], eps = 0.5 / N (see featureClamp). A calibration bank's
// residuals must be measured in it: logit(truth) - logit(estimate), both
// clamped so.
func (f Fits) CentreLogit(p float64) float64 { return clampedLogit(p, featureClamp(f)) }

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// MeanCurve returns the pointwise mean of the curves for k = 0..k2 (each
// must reach k2).
func MeanCurve(cs []accuracy.Curve, k2 int) accuracy.Curve {
	m := make(accuracy.Curve, k2+1)
	for _, c := range cs {
		for k := 0; k <= k2; k++ {
			m[k] += c[k] / float64(len(cs))
		}
	}
	return m
}

// Recommend combines f into the recommended curve and its interval for
// k = 0..k2 with the constants of cal.
func Recommend(f Fits, k2 int, cal Calibration) (Result, error) {
	var cx []accuracy.Curve
	for _, c := range f.CleaneX {
		if c.Max() >= k2 {
			cx = append(cx, c)
		}
	}
	var mean accuracy.Curve
	if len(cx) > 0 {
		mean = MeanCurve(cx, k2)
	}
	return combine(f, cx, mean, k2, cal)
}

// combine is Recommend with the CleaneX curves that reach k2 (cx) and
// their mean already chosen.
func combine(f Fits, cx []accuracy.Curve, mean accuracy.Curve, k2 int, cal Calibration) (Result, error) {
	if k2 < 2 {
		return Result{}, fmt.Errorf("recommend: k2 = %d: it must be at least 2", k2)
	}
	if err := cal.validate(); err != nil {
		return Result{}, err
	}
	cal = cal.For(f)
	if f.K1 < 2 || f.Observed.Max() < f.K1 || f.ClassSE.Max() < f.K1 {
		return Result{}, fmt.Errorf("recommend: the pilot's observed curve and its standard errors must cover k = 0..k1 = %d", f.K1)
	}
	var parts []accuracy.Curve // the other members' curves, then CleaneX's mean (once)
	var rest []accuracy.Curve  // the same without the shape members
	var sources []string
	for _, m := range Methods() {
		if c := f.single(m); InMedian(m) && c != nil && *c != nil && c.Max() >= k2 {
			parts = append(parts, *c)
			sources = append(sources, m)
			if !shapeMember(m) {
				rest = append(rest, *c)
			}
		}
	}
	count := 0.0
	if len(cx) > 0 {
		count = f.cleanexCount()
		parts = append(parts, mean)
		rest = append(rest, mean)
		sources = append(sources, fmt.Sprintf("cleanex ×%d", len(cx)))
	}
	if len(parts) == 0 {
		return Result{}, ErrNoFits
	}
	// v is the shape members' share out of the median (ShapeWeight): the
	// middle value blends the median of all members and that of the rest
	v := 0.0
	if len(rest) > 0 && len(rest) < len(parts) {
		v = ShapeWeight(f.K1, f.TailSpread)
	}
	res := Result{Estimate: make(accuracy.Curve, k2+1), Middle: make(accuracy.Curve, k2+1), Centre: make(accuracy.Curve, k2+1), Lo: make(accuracy.Curve, k2+1),
		Hi: make(accuracy.Curve, k2+1), Sources: sources, CleaneXCount: count, ShapeWeight: v, TailSpread: f.TailSpread, Features: make([]Features, k2+1)}
	if v > 0 {
		res.MiddleAll, res.MiddleRest = make(accuracy.Curve, k2+1), make(accuracy.Curve, k2+1)
	}
	// The medians with CleaneX once and twice, blended with weight
	// count - 1 on the second, of all members and of the rest.
	w2 := max(0, count-1)
	all, others := newMedians(len(parts)), newMedians(len(rest))
	eps := featureClamp(f)
	// k1Lo and k1Hi are the interval at k1 (it holds the pilot's Wilson
	// interval there); unset (lo > hi) until k reaches k1.
	k1Lo, k1Hi := 1.0, 0.0
	// gap is how far (in logit) the pilot's measured accuracy at k1 lies
	// from the methods' middle there; set when k reaches k1.
	gap := 0.0
	errs := f.ErrorsAtK1()
	res.Spanned = f.Spans(k2)
	if res.Spanned {
		res.SpanShare = cal.spanShare(f.NoError())
	}
	slope, trend := trendSlope(f, eps)
	if trend {
		res.Trend = make(accuracy.Curve, k2+1)
	}
	for k := 0; k <= k2; k++ {
		if k < 2 {
			res.Estimate[k], res.Middle[k], res.Centre[k], res.Lo[k], res.Hi[k] = 1, 1, 1, 1, 1
			if v > 0 {
				res.MiddleAll[k], res.MiddleRest[k] = 1, 1
			}
			if trend {
				res.Trend[k] = 1
			}
			continue
		}
		// mids are the middle values the blend uses: all members' unless
		// v = 1, the rest's when v > 0
		all.fill(parts, k)
		z := all.z(w2)
		var mids []float64
		if v < 1 {
			mids = all.mids(w2, mids)
		}
		if v > 0 {
			others.fill(rest, k)
			zr := others.z(w2)
			res.MiddleAll[k], res.MiddleRest[k] = sigmoid(z), sigmoid(zr)
			z = (1-v)*z + v*zr
			mids = others.mids(w2, mids)
		}
		lowest, highest := all.ps1[0], all.ps1[len(all.ps1)-1]
		if f.KDE != nil && f.KDE.Max() >= k2 {
			lowest, highest = min(lowest, f.KDE[k]), max(highest, f.KDE[k])
		}
		mid := sigmoid(z)
		a, exact := agree(mids)
		if exact = exact && (a < logitClamp || a > 1-logitClamp); exact {
			// the middle curves agree on an accuracy the clamped logit
			// cannot hold (an exact 0 or 1): keep it
			mid = a
		}
		centre := mid
		if trend {
			t := clampedLogit(f.Observed[min(k, f.K1)], eps)
			if k > f.K1 {
				t += slope * math.Log(float64(k)/float64(f.K1))
			}
			res.Trend[k] = sigmoid(t)
			if !exact {
				centre = sigmoid((1-TrendWeight)*z + TrendWeight*t)
			}
		}
		ft := features(f, cx, k)
		// fade falls linearly in log k from 1 at k1 to 0 at 2 k1
		fade := 1 - ft.L/math.Ln2
		est := centre
		switch {
		case k <= f.K1:
			// within the pilot, its measured accuracy: the observed curve is
			// the mean over every k-subset of its classes
			est = f.Observed[k]
			if k == f.K1 {
				gap = Logit(est) - Logit(centre)
			}
		case fade > 0:
			// from k1 to 2 k1 the gap to the centre fades out
			est = sigmoid(Logit(centre) + fade*gap)
		}
		zc := clampedLogit(est, eps)
		// the range of the curves around the estimate, so that it is 0 when
		// the clamp moves the estimate's logit past them
		ft.D = max(clampedLogit(highest, eps), zc) - min(clampedLogit(lowest, eps), zc)
		ft.SEK = carriedSE(f, k, sigmoid(zc))
		sLo, sHi := cal.scales(ft)
		res.Features[k] = ft
		res.Estimate[k], res.Middle[k], res.Centre[k] = est, mid, centre
		qlo, qhi := cal.Quantiles(ft.L)
		res.Lo[k] = min(res.Estimate[k], sigmoid(zc+qlo*sLo))
		res.Hi[k] = max(res.Estimate[k], sigmoid(zc+qhi*sHi))
		if f.N > 0 {
			// Never narrower than the binomial uncertainty of the pilot's own
			// accuracy: the interval's distances below and above the estimate
			// are at least those of the Wilson 80% interval of Abar_min(k, k1)
			// on N points.
			a := f.Observed[min(k, f.K1)]
			wlo, whi := wilson(a, f.N)
			res.Lo[k] = max(0, min(res.Lo[k], res.Estimate[k]-(a-wlo)))
			res.Hi[k] = min(1, max(res.Hi[k], res.Estimate[k]+(whi-a)))
			if k <= f.K1 {
				// within the pilot, the Wilson interval of its own accuracy
				// at k is inside the interval too
				res.Lo[k], res.Hi[k] = min(res.Lo[k], wlo), max(res.Hi[k], whi)
			} else if fade > 0 && k1Lo <= k1Hi {
				// from k1 to 2 k1 that hold fades out linearly in log k:
				// the interval reaches as far beyond the estimate as
				// fade times the Wilson interval at k1 reached beyond the
				// estimate at k1, so the band has no step at k1
				res.Lo[k] = max(0, min(res.Lo[k], res.Estimate[k]-fade*(res.Estimate[f.K1]-k1Lo)))
				res.Hi[k] = min(1, max(res.Hi[k], res.Estimate[k]+fade*(k1Hi-res.Estimate[f.K1])))
			}
			if k == f.K1 {
				k1Lo, k1Hi = res.Lo[k], res.Hi[k]
			}
		}
		if p := max(cal.Population, f.K1); !res.Spanned && cal.Population > 0 && k > p {
			// beyond the calibrated population, at least the floor
			beyond := math.Log(float64(k) / float64(p))
			lo, hi := sigmoid(zc-cal.FloorLo*beyond), sigmoid(zc+cal.FloorHi*beyond)
			if k == k2 {
				res.Floored = lo < res.Lo[k] || hi > res.Hi[k]
			}
			res.Lo[k], res.Hi[k] = min(res.Lo[k], lo), max(res.Hi[k], hi)
		}
		if res.Spanned && k > f.K1 {
			// a pilot with too few errors says little about which method's
			// extrapolation holds: the interval reaches the calibrated share
			// of the way to every one of them
			lo, hi := lowest, highest
			if s := res.SpanShare; s != 1 {
				lo = sigmoid(zc - s*max(0, zc-clampedLogit(lowest, eps)))
				hi = sigmoid(zc + s*max(0, clampedLogit(highest, eps)-zc))
			}
			res.Lo[k], res.Hi[k] = min(res.Lo[k], lo), max(res.Hi[k], hi)
		}
	}
	if f.K1 >= 2 && f.Observed[2] < ChanceAt2 && f.TiedShare < MostlyTied {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"At 2 classes your pilot picks the true class only %s of the time, less than the 50%% of a coin toss: its correct classes score worse than wrong ones more often than not, so the scores are most likely read in the wrong direction (similarities taken as distances, or the reverse); check the score direction.",
			limits.Percent(f.Observed[2])))
	}
	if res.Spanned {
		// errs is a class-balanced count (a whole number when every class
		// has as many points), so it is rounded, and tiny float remainders
		// of a pilot right on every point read as none.
		few := fmt.Sprintf("about %.0f", errs)
		switch {
		case f.NoError():
			few = "none"
		case errs > float64(f.N)-0.5:
			few = "all"
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"Your pilot misclassifies %s of its %s test points at %s classes, too few errors to show what happens beyond %s classes: treat the estimate as rough (the interval is widened towards every method's prediction); more test points would show more errors.",
			few, limits.Thousands(f.N), limits.Thousands(f.K1), limits.Thousands(f.K1)))
	}
	if f.K1 < SmallestCalibratedK1 && k2 > f.K1 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"Your pilot has only %d classes; the interval was calibrated on test pilots of %d to %d classes, so for a pilot this small it is likely too narrow (on test pilots of 10 to 30 classes carried to 2,000 it held the true accuracy 72%% of the time, 46-88%% by kind of data), and beyond %d classes the estimate rests more on each method's assumptions than on your data: add classes to the pilot if you can.",
			f.K1, SmallestCalibratedK1, LargestCalibratedK1, f.K1))
	}
	if n := len(cal.Knots); n > 1 && k2 > f.K1 && math.Log(float64(k2)/float64(f.K1)) > cal.Knots[n-1]+1e-9 {
		most := math.Exp(cal.Knots[n-1])
		beyond := fmt.Sprintf("You extrapolate %s× beyond your pilot (%s classes to %s); the interval was calibrated on test pilots extrapolated at most %.0f×",
			limits.Thousands(int(math.Round(float64(k2)/float64(f.K1)))), limits.Thousands(f.K1), limits.Thousands(k2), most)
		if f.K1 >= SmallestCalibratedK1 && f.K1 < LargeWorldsK1 && k2 <= LongestTestedRatio*f.K1 {
			res.Warnings = append(res.Warnings, beyond+". On test pilots of 50 and 100 classes carried 50× and 100× it still held the true accuracy 84% of the time (69-94% by kind of data), but no one method was best on every kind of data there, and on some the estimate was far from the best one: read the answer as rough; a pilot with more classes would give a firmer answer.")
		} else {
			res.Warnings = append(res.Warnings, beyond+", so here it is likely too narrow: a pilot with more classes would give a firmer answer.")
		}
	} else if f.K1 >= LargeWorldsK1 && k2 > CalibratedPopulation {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"Your pilot has %s classes and you ask about %s, more than the %s classes of most test worlds the interval was calibrated on: on test pilots of 200 and 500 classes carried to worlds of 5,500-20,000 classes it held the true accuracy 79-90%% of the time (two draws), but 69-88%% on misspellings, whose estimate drifts from the truth the further it is carried, and on held-out test pilots of 500-2,000 classes carried to 4,500-20,000 classes 67-94%% of the time: read the interval as possibly too narrow.",
			limits.Thousands(f.K1), limits.Thousands(k2), limits.Thousands(CalibratedPopulation)))
	}
	monotone(res.Estimate)
	monotone(res.Middle)
	monotone(res.Centre)
	monotone(res.Lo)
	monotone(res.Hi)
	return res, nil
}

// SmallestCalibratedK1 and LargestCalibratedK1 are the smallest and the
// largest pilot (k1) of the bank the interval was calibrated on
// (internal/bank.K1s); a smaller pilot gets a warning.
const (
	SmallestCalibratedK1 = 50
	LargestCalibratedK1  = 500
)

// LongestTestedRatio is the longest extrapolation k2 / k1 at which the
// interval of a pilot of SmallestCalibratedK1 classes or more, but fewer
// than LargeWorldsK1, was tested beyond the calibration's
// (internal/bank.Long: pilots of 50 and 100 classes carried to 5,000;
// docs/recommendation.md, "Pilots carried 50 and 100 times"); up to it, the
// warning about a long extrapolation of such a pilot quotes that test.
const LongestTestedRatio = 100

// CalibratedPopulation is the number of classes of the bank's worlds
// (internal/bank.PopulationK). A pilot of LargeWorldsK1 classes or more
// asked about more classes than this gets a warning: in the bank's larger
// worlds and held out, such pilots' intervals were too narrow on some
// families (docs/recommendation.md, "Pilots larger than the bank's").
const CalibratedPopulation = 2000

// LargeWorldsK1 is the smallest pilot of the bank's larger worlds
// (internal/bank.LargeK1s), pilots of 200 and 500 classes in worlds of
// 5,500-20,000 classes that the interval is calibrated on as well.
const LargeWorldsK1 = 200

// ChanceAt2 is the accuracy of a coin toss between 2 classes: a pilot below
// it at k = 2 most likely has its scores read in the wrong direction.
const ChanceAt2 = 0.5

// monotone makes c non-increasing from k = 2 on by a running minimum (the
// accuracy can only fall as classes are added).
func monotone(c accuracy.Curve) {
	for k := 3; k < len(c); k++ {
		c[k] = min(c[k], c[k-1])
	}
}

// scale returns s_k for the features ft with the coefficients coef.
func scale(coef [NumCoef]float64, ft Features) float64 {
	v := ft.vector()
	s := 0.0
	for j, a := range coef {
		s += a * v[j]
	}
	return s
}

// sided reports whether the calibration has its own upper-side coefficients.
func (cal Calibration) sided() bool { return cal.CoefUp != [NumCoef]float64{} }

// scales returns the scales of the lower and the upper side of the interval.
func (cal Calibration) scales(ft Features) (lo, hi float64) {
	if !cal.sided() {
		s := scale(cal.Coef, ft)
		return s, s
	}
	return scale(cal.Coef, ft), scale(cal.CoefUp, ft)
}

// pilotLevel returns the pilot's accuracy a at min(k, k1) and its
// class-sampling standard error se in accuracy units, from which SE_k =
// se / (a (1 - a)).
func pilotLevel(f Fits, k int) (a, se float64) {
	kk := min(k, f.K1)
	a = min(max(f.Observed[kk], logitClamp), 1-logitClamp)
	se = f.ClassSE[kk]
	if f.N > 0 {
		// Shrink the accuracy towards 1/2 as if two points more had been
		// right and two wrong, and keep at least the binomial standard error
		// of N points, so a pilot that is right on every point still gets
		// an interval.
		n := float64(f.N)
		a = (n*f.Observed[kk] + 2) / (n + 4)
		se = max(se, math.Sqrt(a*(1-a)/n))
	}
	return a, se
}

// carriedSE returns SEK_k = se / (p (1 - p)) with p = min(est, a): the
// pilot's class-sampling standard error se at min(k, k1) (pilotLevel) in the
// logit of the estimate est at k instead of the pilot's accuracy a. An
// estimate above a (as the shrunk accuracy of a pilot with few errors may
// be) counts as a: SEK_k is then SE_k, rather than growing without bound as
// the estimate nears 1.
func carriedSE(f Fits, k int, est float64) float64 {
	a, se := pilotLevel(f, k)
	p := min(est, a)
	return se / (p * (1 - p))
}

// features returns the interval model's inputs SE, S, L, U and B at k.
func features(f Fits, cx []accuracy.Curve, k int) Features {
	a, se := pilotLevel(f, k)
	ft := Features{SE: se / (a * (1 - a)), L: math.Max(0, math.Log(float64(k)/float64(f.K1))), U: UnsharedTails(f.TailSpread)}
	if len(f.Spread.K) > 0 {
		ft.B, ft.BKnown = f.Spread.At(k), true
	}
	if len(cx) > 1 {
		m, m2 := 0.0, 0.0
		eps := featureClamp(f)
		for _, c := range cx {
			z := clampedLogit(c[k], eps)
			m += z
			m2 += z * z
		}
		n := float64(len(cx))
		m /= n
		ft.S = math.Sqrt(max(0, (m2-n*m*m)/(n-1)))
	}
	return ft
}

// medianLogit returns the median of the sorted accuracies ps in logit
// space: the logit of the middle one, or the mean of the logits of the
// middle two (Logit is non-decreasing, so the order is kept).
func medianLogit(ps []float64) float64 {
	n := len(ps)
	return (Logit(ps[(n-1)/2]) + Logit(ps[n/2])) / 2
}

// medians holds one k's values of the median's members, sorted, with
// CleaneX's mean (the last member) once (ps1) and twice (ps2).
type medians struct{ ps1, ps2 []float64 }

func newMedians(n int) *medians {
	return &medians{ps1: make([]float64, n), ps2: make([]float64, 0, n+1)}
}

// fill sets the values at k of the curves parts (CleaneX's mean last).
func (m *medians) fill(parts []accuracy.Curve, k int) {
	for i, c := range parts {
		m.ps1[i] = c[k]
	}
	m.ps2 = append(append(m.ps2[:0], m.ps1...), m.ps1[len(m.ps1)-1])
	slices.Sort(m.ps1)
	slices.Sort(m.ps2)
}

// z returns the blended median in logit, (1 - w2) median(ps1) + w2 median(ps2).
func (m *medians) z(w2 float64) float64 {
	return (1-w2)*medianLogit(m.ps1) + w2*medianLogit(m.ps2)
}

// mids appends to dst the middle values that the blended median with
// weight w2 uses: those of ps1 when w2 < 1, of ps2 when w2 > 0.
func (m *medians) mids(w2 float64, dst []float64) []float64 {
	if w2 < 1 {
		dst = append(dst, m.ps1[(len(m.ps1)-1)/2], m.ps1[len(m.ps1)/2])
	}
	if w2 > 0 {
		dst = append(dst, m.ps2[(len(m.ps2)-1)/2], m.ps2[len(m.ps2)/2])
	}
	return dst
}

// agree reports whether the values mids are all one value a.
func agree(mids []float64) (a float64, ok bool) {
	for _, m := range mids {
		if m != mids[0] {
			return 0, false
		}
	}
	return mids[0], true
}

// wilsonZ is the standard normal quantile of 90%, for a two-sided 80% interval.
const wilsonZ = 1.2815515655446004

// wilson returns the Wilson score 80% interval of a proportion p observed on
// n points: (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n).
func wilson(p float64, n int) (lo, hi float64) {
	nf := float64(n)
	z2 := wilsonZ * wilsonZ
	c := (p + z2/(2*nf)) / (1 + z2/nf)
	h := wilsonZ * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / (1 + z2/nf)
	return max(0, c-h), min(1, c+h)
}

// Shares splits the interval's width in logit units at one k into the
// parts of the scale model, each a fraction of the whole (they sum to 1).
type Shares struct {
	// ClassSample is the part of SE_k, half of L_k SE_k, half of L_k SEK_k
	// and B_k: which classes the pilot happens to hold.
	ClassSample float64
	// Disagreement is the part of D_k: how far apart the methods are.
	Disagreement float64
	// SeedSpread is the part of S_k: how much CleaneX's seeds differ.
	SeedSpread float64
	// Extrapolation is the part of L_k U, half of L_k SE_k and half of
	// L_k SEK_k: how far beyond the pilot the curve is carried.
	Extrapolation float64
	// Floor is the part of the constant a_0.
	Floor float64
}

// Shares returns the parts of the interval's width at the features ft: each
// term a_j v_j of each side's scale, weighted by that side's quantile
// (|q_lo| below, q_hi above), over the total |q_lo| s_lo + q_hi s_hi; the
// coefficients and quantiles are WithoutB's when ft's B is unknown, those
// of the interval such a pilot gets.
func (cal Calibration) Shares(ft Features) Shares {
	cal = cal.forFeatures(ft)
	qlo, qhi := cal.Quantiles(ft.L)
	var t [NumCoef]float64
	add := func(coef [NumCoef]float64, f Features, q float64) {
		v := f.vector()
		for j := range v {
			t[j] += math.Abs(q) * coef[j] * v[j]
		}
	}
	if cal.sided() {
		add(cal.Coef, ft, qlo)
		add(cal.CoefUp, ft, qhi)
	} else {
		add(cal.Coef, ft, qlo)
		add(cal.Coef, ft, qhi)
	}
	total := 0.0
	for _, x := range t {
		total += x
	}
	if !(total > 0) {
		return Shares{}
	}
	return Shares{Floor: t[0] / total, ClassSample: (t[1] + t[5]/2 + t[6]/2 + t[7]) / total, Disagreement: t[2] / total,
		SeedSpread: t[3] / total, Extrapolation: (t[4] + t[5]/2 + t[6]/2) / total}
}
