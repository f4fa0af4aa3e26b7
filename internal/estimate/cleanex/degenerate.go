package cleanex

import (
	"errors"
	"fmt"
	"math"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/detmath"
)

// ErrDegenerate is returned (wrapped with the reason) when every attempt of a
// fit ended degenerate: no better than one shared C for all points, off the
// observed curve beyond its sampling noise, or with all C_x stuck at 0 or 1.
var ErrDegenerate = errors.New("cleanex: the network fit is degenerate")

// Thresholds of the degenerate-fit check (check).
const (
	// tolSE is how many standard errors of Abar_k the fitted E_k may be off.
	tolSE = 3.0
	// tolFloor is the smallest tolerance on |E_k - Abar_k|, also used where
	// the standard error is 0 (every point agrees).
	tolFloor = 0.005
	// constRatio: a fit must reach at most this fraction of the loss of the
	// best constant-C fit, unless the observed curve is itself nearly of
	// the constant form (constRMS).
	constRatio = 0.25
	// constRMS is the root mean square of E_k - Abar_k (k = 2..K) below which
	// the best constant C counts as describing the observed curve exactly, so
	// a network need not beat it (all points tie, or every R_x is K-1).
	constRMS = 1e-4
	// constMinK is the smallest K at which the constant-C comparison applies:
	// with fewer than 5 observed values (k = 2..K) one shared C fits the
	// curve about as well as any network.
	constMinK = 6
	// satLogit is |z| from which C_x = sigma(z) counts as saturated
	// (1 - C < 1.4e-11 or C < 1.4e-11).
	satLogit = 25.0
	// satShare is the weight share of saturated points that makes a fit
	// saturated.
	satShare = 0.99
)

// tolerance holds, per k = 0..K, how far a fitted E_k may be from the
// observed Abar_k:
//
//	tol_k = max(tolSE se_k, tolFloor, 1/(4N)),  se_k^2 = sum_x w_x^2 (t_x(k) - Abar_k)^2,
//
// where t_x(k) = prod_{i=1..k-1} (R_x+1-i)/(K-i) is point x's term of
// Abar_k = sum_x w_x t_x(k) (accuracy.Observed): se_k is the standard error
// of that weighted mean over independent points. 1/(4N) is a quarter of the
// resolution of an observed accuracy on N points. When the network was
// trained on only n of the N points (Preset.MaxTrainPoints), its curve over
// all points can be no closer than a curve measured on n points: se_k is
// scaled by sqrt(N / n) and the floor uses 1/(4n).
func tolerance(s *accuracy.Sample, trained int) []float64 {
	k := s.K
	w1 := make([]float64, k) // sum of w_x per R
	w2 := make([]float64, k) // sum of w_x^2 per R
	for i, r := range s.R {
		w1[r] += s.Weight[i]
		w2[r] += s.Weight[i] * s.Weight[i]
	}
	logs := make([]float64, k+1)
	for i := 1; i <= k; i++ {
		logs[i] = detmath.Log(float64(i))
	}
	v := make([]float64, k+1)
	a := s.Observed
	for r := range k {
		if w1[r] == 0 {
			continue
		}
		// t_r(kk) as in accuracy.ObservedByR; zero once kk-1 > r.
		lp := 0.0
		for kk := 2; kk <= k; kk++ {
			t := 0.0
			if kk <= r+1 {
				i := kk - 1
				lp += logs[r+1-i] - logs[k-i]
				t = detmath.Exp(lp)
			}
			d := t - a[kk]
			v[kk] += w2[r] * d * d
		}
	}
	trained = min(max(trained, 1), s.N())
	scale := float64(s.N()) / float64(trained)
	floor := max(tolFloor, 1/(4*float64(trained)))
	tol := make([]float64, k+1)
	for kk := 2; kk <= k; kk++ {
		tol[kk] = max(tolSE*math.Sqrt(v[kk]*scale), floor)
	}
	return tol
}

// constFit returns the best constant C: the c in [0, 1] minimising
//
//	L(c) = sum_{k=2..K} (c^(k-1) - Abar_k)^2
//
// (with weights summing to 1, E_k = c^(k-1) when every C_x = c), and L(c).
// It scans a grid of 257 logits in [-20, 20], then refines the best cell by
// golden-section search on the logit.
func constFit(target accuracy.Curve) (c, loss float64) {
	kmax := target.Max()
	f := func(z float64) float64 {
		c := detmath.Exp(logSigmoid(z))
		p, l := 1.0, 0.0
		for k := 2; k <= kmax; k++ {
			p *= c
			d := p - target[k]
			l += d * d
		}
		return l
	}
	const lo, hi, grid = -20.0, 20.0, 256
	step := (hi - lo) / grid
	best, bz := math.Inf(1), 0.0
	for i := 0; i <= grid; i++ {
		z := lo + float64(i)*step
		if l := f(z); l < best {
			best, bz = l, z
		}
	}
	a, b := bz-step, bz+step
	const g = 0.6180339887498949 // (sqrt(5) - 1) / 2
	x1, x2 := b-g*(b-a), a+g*(b-a)
	f1, f2 := f(x1), f(x2)
	for range 60 {
		if f1 <= f2 {
			b, x2, f2 = x2, x1, f1
			x1 = b - g*(b-a)
			f1 = f(x1)
		} else {
			a, x1, f1 = x1, x2, f2
			x2 = a + g*(b-a)
			f2 = f(x2)
		}
	}
	z := bz
	if m := min(f1, f2); m < best {
		best = m
		if f1 <= f2 {
			z = x1
		} else {
			z = x2
		}
	}
	return detmath.Exp(logSigmoid(z)), best
}

// freeFit returns the loss of the best per-R_x choice of C, and its logits
// indexed by R (0 where no point has that R): one logit per
// distinct value R of R_x, shared by the points with that R, chosen by
// lbfgs (at most freeEvals evaluations, from logit(Abar_2)) to minimise
//
//	L = sum_{k=2..K} (sum_R W_R C_R^(k-1) - Abar_k)^2,   W_R = sum_{x: R_x = R} w_x.
//
// Abar_k depends on the points only through R_x, so this is what a network
// whose C_x depends on R_x alone can reach; its cost is O(G K) per
// evaluation for G distinct values.
func freeFit(s *accuracy.Sample) (float64, []float64) {
	byR := make([]float64, s.K)
	for i, r := range s.R {
		byR[r] += s.Weight[i]
	}
	var w []float64
	for _, v := range byR {
		if v > 0 {
			w = append(w, v)
		}
	}
	cl := newCurveLoss(w, s.Observed, ones(s.K+1), s.K)
	a2 := min(max(s.Observed[2], 1e-6), 1-1e-6)
	z := make([]float64, len(w))
	for i := range z {
		z[i] = detmath.Log(a2 / (1 - a2))
	}
	g := make([]float64, len(w))
	best := math.Inf(1)
	eval := func() (float64, error) {
		l := lossGrad(cl, z, g)
		best = min(best, l)
		return l, nil
	}
	_ = lbfgs(z, g, eval, freeEvals) // eval never fails
	zr := make([]float64, s.K)
	j := 0
	for r, v := range byR {
		if v > 0 {
			zr[r] = z[j]
			j++
		}
	}
	return best, zr
}

// freeEvals bounds freeFit's evaluations.
const freeEvals = 500

// checker judges fits of one sample (check): it holds the observed curve's
// tolerance and the losses of the best constant C and per-R_x C.
type checker struct {
	s         *accuracy.Sample
	tol       []float64
	constLoss float64   // L of the best constant C
	freeLoss  float64   // L of the best per-R_x C (freeFit)
	freeByR   []float64 // that fit's logits by R, nil until freeFit has run
	constOK   bool      // no need to beat the constant (see check)
	edge      float64   // sigma(-satLogit): a C_x this close to 0 or 1 is saturated
}

func newChecker(s *accuracy.Sample, trained int) *checker {
	ch := &checker{s: s, tol: tolerance(s, trained), edge: detmath.Exp(logSigmoid(-satLogit))}
	_, ch.constLoss = constFit(s.Observed)
	ch.constOK = s.K < constMinK || ch.constLoss <= float64(s.K-1)*constRMS*constRMS
	if !ch.constOK {
		ch.freeLoss, ch.freeByR = freeFit(s)
		ch.constOK = ch.freeLoss > constRatio*ch.constLoss
	}
	return ch
}

// freeLogits returns freeFit's logits by R, running it on first use.
func (ch *checker) freeLogits() []float64 {
	if ch.freeByR == nil {
		ch.freeLoss, ch.freeByR = freeFit(ch.s)
	}
	return ch.freeByR
}

// worst returns the first k <= K where |E_k - Abar_k| exceeds tol_k, or 0
// when there is none.
func (ch *checker) worst(e accuracy.Curve) int {
	for k := 2; k <= ch.s.K; k++ {
		if !(math.Abs(e[k]-ch.s.Observed[k]) <= ch.tol[k]) {
			return k
		}
	}
	return 0
}

// check returns the fit's loss L (below) and nil when the fit with
// C_x = cx[x] is usable, or an error saying why it is degenerate:
//
//   - saturated: points holding at least satShare of the weight have
//     C_x within sigma(-satLogit) of 0 or 1 (a flat curve) while the observed
//     curve falls by more than tol_K between k = 2 and K;
//   - off the observed curve: |E_k - Abar_k| > tol_k at some k <= K
//     (E_k = sum_x w_x C_x^(k-1), see tolerance);
//   - no better than constant: L = sum_{k=2..K} (E_k - Abar_k)^2 exceeds
//     constRatio times the loss of the best constant C (constFit), unless
//     that constant's RMS error is below constRMS, or K < constMinK, or
//     even the best per-R_x choice of C (freeFit) does not beat it by that
//     factor (then the observed curve cannot tell easy points from hard
//     ones, and a network cannot either). A constant C fits the
//     observed curve at k <= K to within about 1e-3 in many pilots, yet
//     its prediction at k2 >> K is far too low (C^(k2-1) decays
//     geometrically), so matching the curve alone does not suffice.
//     When trainLoss is not NaN (a network trained on a subsample of the
//     points), the comparison uses trainLoss, the network's L on the
//     points it was trained on, instead of L over all points: the best
//     constant's loss is the same on any set of points (the weights sum to
//     1), while L over all points adds the subsample's sampling noise, which
//     on a pilot that is right on nearly every point is as large as the
//     constant's loss itself.
//
// It also rejects C_x outside [0, 1] (NaN included).
func (ch *checker) check(cx []float64, trainLoss float64) (float64, error) {
	s := ch.s
	sat, edge := 0.0, ch.edge
	for i, c := range cx {
		if !(c >= 0 && c <= 1) {
			return math.NaN(), fmt.Errorf("the network produced C_x = %g for point %d", c, i)
		}
		if c <= edge || 1-c <= edge {
			sat += s.Weight[i]
		}
	}
	a := s.Observed
	if sat >= satShare && a[2]-a[s.K] > ch.tol[s.K] {
		return math.NaN(), fmt.Errorf("%.0f%% of the points' C_x are stuck at 0 or 1, so the predicted curve is flat, but the observed accuracy falls from %.4f at k=2 to %.4f at k=%d",
			100*sat, a[2], a[s.K], s.K)
	}
	e := accuracy.Expected(cx, s.Weight, s.K)
	loss := 0.0
	for k := 2; k <= s.K; k++ {
		d := e[k] - a[k]
		loss += d * d
	}
	if k := ch.worst(e); k > 0 {
		return loss, fmt.Errorf("the fitted curve gives %.4f at k=%d where the observed accuracy is %.4f (tolerance %.4f from its sampling noise)",
			e[k], k, a[k], ch.tol[k])
	}
	cmp, on := loss, ""
	if !math.IsNaN(trainLoss) {
		cmp, on = trainLoss, " on its training points"
	}
	if !ch.constOK && cmp > constRatio*ch.constLoss {
		return loss, fmt.Errorf("the fit's loss%s %.3g is no better than %.3g of a single C shared by all points", on, cmp, ch.constLoss)
	}
	return loss, nil
}
