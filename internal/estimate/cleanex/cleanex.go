// Package cleanex is the CleaneX estimator (Slavutsky & Benjamini, ICLR 2021,
// Section 4, Algorithm 1): a network f maps a point's scores to
// C_x = sigma(f(x)), trained so that the predicted curve
// E_k = sum_x w_x C_x^(k-1) matches the observed curve Abar_k for
// k = 2..K, by minimising
//
//	L = sum_{k=2..K} (sum_x w_x C_x^(k-1) - Abar_k)^2
//
// with analytic gradients; the prediction at k2 > K is E_k2 with the fitted C_x.
//
// Scores are used oriented higher-is-better (accuracy.Sample). For distances
// (lower is better, as in the paper's simulation) that is a negation: the
// paper's "straightforward modifications", a sign flip the first layer absorbs.
//
// Two presets: "paper", exactly the published network and training, and
// "fast", the default: a small network on a tail-focused encoding of the
// scores, trained by L-BFGS, costing about 1/3,700 of the published one at
// K = 100 (see Fast and Preset.FLOPs).
package cleanex

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/detmath"
	"github.com/cleanex/cleanex/internal/estimate"
)

// Preset is one CleaneX configuration: input encoding, architecture and training.
type Preset struct {
	// Name is "paper" or "fast" (or a study's label).
	Name string
	// Inputs is the input encoding.
	Inputs Inputs
	// TailRatio is the growth factor of the geometric ranks of the TailGaps
	// encodings (tailRanks).
	TailRatio float64
	// Hidden holds the sizes of the ReLU hidden layers; the output is one logit.
	Hidden []int
	// LearningRate is Adam's step size.
	LearningRate float64
	// Steps is the number of full-batch Adam steps, or the maximum number of
	// L-BFGS loss evaluations, per network.
	Steps int
	// Optimizer is Adam (Steps full-batch steps at LearningRate) or LBFGS
	// (at most Steps loss evaluations).
	Optimizer Optimizer
	// Networks is how many networks are fitted, network m initialised from
	// the PCG stream (Seed, initStream+m). The predicted curve is the mean of
	// their curves, E_k = (1/M) sum_m sum_x w_x C_{x,m}^(k-1) (each member fits
	// the observed curve, so their mean does too); Result.C is the mean of
	// their C_x, which keeps E_2 = sum_x w_x C_x exact. Averaging C_x before
	// the power would bias E_k down at large k (Jensen's inequality).
	Networks int
	// Restarts is how many times a network whose fit is degenerate (see
	// Estimator.Fit) is trained again from a new initialisation (from the
	// second restart on, first fitted to the per-R_x logits of freeFit,
	// pretrain) before Fit gives up with ErrDegenerate.
	Restarts int
	// MaxTrainPoints, when positive and smaller than the pilot's N, trains
	// on a class-stratified subsample of about that many points (see
	// trainSubsample); the fitted network then gives C_x for every point.
	MaxTrainPoints int

	// Knobs for tests and studies (unexported; zero in every preset).
	noCheck    bool    // accept every fit unchecked
	hiddenBias float64 // initial bias of the hidden units
	decay      float64 // L2 penalty lambda sum w^2 on the weights (not biases)
	bestOf     int     // fit this many non-degenerate attempts per network and keep the lowest loss
}

// Optimizer selects the training algorithm.
type Optimizer int

const (
	// Adam is full-batch Adam (the paper's).
	Adam Optimizer = iota
	// LBFGS is full-batch limited-memory BFGS (trainLBFGS): float32
	// network, float64 optimiser vectors.
	LBFGS
)

// Paper returns the published configuration (Section 5): all K sorted scores
// in, hidden layers 512 and 128 with ReLU, sigmoid output, Glorot-uniform
// initialisation, Adam with learning rate 1e-4, 10,000 full-batch steps;
// a degenerate fit (Estimator.Fit) is retrained at most twice.
func Paper() Preset {
	return Preset{Name: "paper", Inputs: AllScores, Hidden: []int{512, 128},
		LearningRate: 1e-4, Steps: 10000, Networks: 1, Restarts: 2}
}

// Fast returns the default configuration (see docs/cleanex-fast.md): the
// TailGaps encoding (the correct score and its gaps to the incorrect scores
// of geometric ranks 1, 2, 3, 5, 8, ..., 13 inputs at K = 100, 17 at
// K = 500), hidden layers 32 and 16, and at most
// 300 full-batch L-BFGS evaluations. Convergence of the curve loss was what
// the shrunken Adam variants lacked (they stall on a plateau where all C_x
// are nearly equal); L-BFGS reaches losses of 1e-7..1e-9 in 300 evaluations.
// Cost (see FLOPs): 1.9 GFLOP at K = 100, r = 10 and 5.7 GFLOP at K = 500
// (its 5,000 points trained on a subsample of MaxTrainPoints = 2,000),
// times the attempts: a degenerate fit (Estimator.Fit) is retrained at most
// six times.
func Fast() Preset {
	return Preset{Name: "fast", Inputs: TailGaps, TailRatio: 1.5, Hidden: []int{32, 16},
		Optimizer: LBFGS, Steps: 300, Networks: 1, Restarts: 6, MaxTrainPoints: 2000}
}

// FLOPs returns the floating-point operations of a fit on n points and k
// classes at most (L-BFGS may stop early, a degenerate fit adds restarts):
// on the t training points (n, or about MaxTrainPoints when that is
// smaller), each step or evaluation costs 6 t M for the network (forward
// 2 t M, backward 4 t M, with M the multiply-adds of one forward pass per
// point) and 6 t k for the loss (running powers forward and backward), times
// Steps and Networks; a subsampled fit adds one forward pass, 2 n M, per
// network.
func (p Preset) FLOPs(n, k int) float64 {
	sizes := slices.Concat([]int{inputSize(p.Inputs, k, p.TailRatio)}, p.Hidden, []int{1})
	macs := 0
	for l := 0; l+1 < len(sizes); l++ {
		macs += sizes[l] * sizes[l+1]
	}
	t, extra := float64(n), 0.0
	if p.MaxTrainPoints > 0 && n > p.MaxTrainPoints {
		t = float64(min(n, ((p.MaxTrainPoints+k-1)/k)*k))
		extra = 2 * float64(n) * float64(macs)
	}
	perStep := 6*t*float64(macs) + 6*t*float64(k)
	return float64(p.Networks) * (float64(p.Steps)*perStep + extra)
}

// PresetByName returns the preset called name ("fast" or "paper").
func PresetByName(name string) (Preset, error) {
	switch name {
	case "fast":
		return Fast(), nil
	case "paper":
		return Paper(), nil
	}
	return Preset{}, fmt.Errorf("cleanex: unknown preset %q (want fast or paper)", name)
}

// validate checks p's fields.
func (p Preset) validate() error {
	switch {
	case p.Inputs != AllScores && p.Inputs != TailGaps:
		return fmt.Errorf("cleanex: preset %q: unknown input encoding %d", p.Name, p.Inputs)
	case p.Inputs == TailGaps && !(p.TailRatio > 1):
		return fmt.Errorf("cleanex: preset %q: tail ratio %g must exceed 1", p.Name, p.TailRatio)
	case p.Steps < 1 || p.Networks < 1:
		return fmt.Errorf("cleanex: preset %q: steps %d and networks %d must be positive", p.Name, p.Steps, p.Networks)
	case p.Restarts < 0:
		return fmt.Errorf("cleanex: preset %q: restarts %d must not be negative", p.Name, p.Restarts)
	case p.Optimizer != Adam && p.Optimizer != LBFGS:
		return fmt.Errorf("cleanex: preset %q: unknown optimizer %d", p.Name, p.Optimizer)
	case p.Optimizer == Adam && !(p.LearningRate > 0):
		return fmt.Errorf("cleanex: preset %q: learning rate %g must be positive", p.Name, p.LearningRate)
	}
	for _, h := range p.Hidden {
		if h < 1 {
			return fmt.Errorf("cleanex: preset %q: hidden layer size %d must be positive", p.Name, h)
		}
	}
	return nil
}

// Estimator is CleaneX with a preset; the zero Preset means Fast(). Seed
// fixes the initialisation: equal seeds give identical results.
type Estimator struct {
	// Preset is the configuration (PresetByName).
	Preset Preset
	// Seed seeds the PCG generator of the Glorot initialisation.
	Seed uint64
}

// Name returns "cleanex".
func (Estimator) Name() string { return "cleanex" }

// initStream is the PCG stream (its second seed word) of the first network's
// initialisation; network m's attempt a uses initStream + m + a 2^32.
const initStream = 0x00636c65_616e6578 // "\x00cleanex"

// rowBlock is how many points a forward or backward pass handles between
// checks of the context, so a large fit stops well within a second.
const rowBlock = 256

// progressEvery is how often (in steps) progress is reported.
const progressEvery = 10

// ErrK2 is returned when k2 < 2.
var ErrK2 = errors.New("cleanex: k2 must be at least 2")

// Fit trains the preset's network(s) on s and returns E_k = sum_x w_x C_x^(k-1)
// for k = 0..k2 (averaged over the networks, see Preset.Networks), the fitted
// C_x and the training loss per step (networks one after the other, the
// accepted attempt of each).
//
// Every network's fit is checked (checker.check): a fit that is no better
// than one C shared by all points, that misses the observed curve at some
// k <= K by more than its sampling noise, or whose C_x are all stuck at 0 or
// 1 is degenerate. A degenerate network is trained again from a new
// initialisation, the PCG stream (Seed, initStream + m + a 2^32) for network
// m's attempt a, at most Preset.Restarts times. From the second restart on
// (a >= 2), the new network is first fitted to the logits of the best
// per-R_x choice of C (freeFit) on the training points (pretrain), so it
// starts from a curve that beats the constant C, and then trained on the
// curve loss; the first restart starts from the plain initialisation, whose
// fits extrapolate better where it succeeds (on the bank's glyph pilots at
// k1 = 200 pretrained restarts predicted lower at k = 2000 on 4 of 5
// pilots, all below the truth). When every attempt is degenerate Fit
// returns an error wrapping ErrDegenerate with the reason.
// The returned curve lies in [0, 1] and is non-increasing in k.
func (e Estimator) Fit(ctx context.Context, s *accuracy.Sample, k2 int, progress func(estimate.Progress)) (estimate.Result, error) {
	p := e.Preset
	if p.Name == "" && p.Steps == 0 {
		p = Fast()
	}
	if err := p.validate(); err != nil {
		return estimate.Result{}, err
	}
	if k2 < 2 {
		return estimate.Result{}, ErrK2
	}
	if p.Inputs == AllScores && s.Summarised() {
		return estimate.Result{}, fmt.Errorf("cleanex %s preset: %w", p.Name, accuracy.ErrSummarised)
	}
	n := s.N()
	x := encode[float32](s, p.Inputs, p.TailRatio)
	sizes := slices.Concat([]int{inputSize(p.Inputs, s.K, p.TailRatio)}, p.Hidden, []int{1})
	// The network trains on xt (nt points with weights wt): all points, or a
	// class-stratified subsample of a large pilot.
	xt, nt, wt, rt := x, n, s.Weight, s.R
	if p.MaxTrainPoints > 0 && n > p.MaxTrainPoints {
		var kept []int
		xt, kept, wt = trainSubsample(s, x, sizes[0], p.MaxTrainPoints, e.Seed)
		nt, rt = len(kept), make([]int, len(kept))
		for j, i := range kept {
			rt[j] = s.R[i]
		}
	}
	cl := newCurveLoss(wt, s.Observed, ones(s.K+1), s.K)
	// liveC is the C_x that progress reports carry: the training points' own
	// only when they are all the points.
	liveC := func() []float64 {
		if nt == n {
			return cl.c
		}
		return nil
	}
	ch := newChecker(s, nt)
	total := p.Steps * p.Networks
	used := 0 // evaluation budgets of finished attempts, for progress
	var losses []float64
	cx := make([]float64, n)
	curve := make(accuracy.Curve, k2+1)
	mc := make([]float64, n)
	// Outside the published preset, the output bias starts at
	// logit(Abar_2), so the initial mean C_x is the observed rAUC.
	b0 := 0.0
	if p.Inputs != AllScores {
		a2 := min(max(s.Observed[2], 1e-6), 1-1e-6)
		b0 = detmath.Log(a2 / (1 - a2))
	}
	bestOf := max(p.bestOf, 1)
	bestC := make([]float64, n)
	var free []float64 // restarts' pretraining targets, logit C_R per point (pretrain)
	for member := range p.Networks {
		var why error
		good := 0
		bestLoss := math.Inf(1)
		var bestLosses []float64
		for attempt := 0; attempt < bestOf+p.Restarts && good < bestOf; attempt++ {
			if attempt > 0 {
				total += p.Steps
			}
			rng := rand.New(rand.NewPCG(e.Seed, initStream+uint64(member)+uint64(attempt)<<32))
			var attemptLosses []float64
			last := 0
			done := func(step int, loss float64) {
				attemptLosses = append(attemptLosses, loss)
				if step%progressEvery == 0 || step == p.Steps {
					last = step
					estimate.Report(progress, estimate.Progress{Method: e.Name(),
						Step: used + step, Total: total, Loss: loss, C: liveC()})
				}
			}
			net := newMLP[float32](sizes, rng)
			net.b[len(net.b)-1][0] = float32(b0)
			if p.hiddenBias != 0 {
				for l := 0; l+1 < len(net.b); l++ {
					for i := range net.b[l] {
						net.b[l][i] = float32(p.hiddenBias)
					}
				}
			}
			var z []float32
			var err error
			if attempt >= 2 {
				if free == nil {
					byR := ch.freeLogits()
					free = make([]float64, nt)
					for i, r := range rt {
						free[i] = min(max(byR[r], -pretrainLogit), pretrainLogit)
					}
				}
				if err := pretrain(ctx, net, xt, nt, wt, free); err != nil {
					return estimate.Result{}, err
				}
			}
			if p.Optimizer == LBFGS {
				z, err = trainLBFGS(ctx, net, xt, nt, func(z, dz []float32) float64 { return lossGrad(cl, z, dz) }, p.decay, p.Steps, done)
			} else {
				z, err = train(ctx, net, xt, nt, cl, p, done)
			}
			// The constant-C comparison of check uses the loss on the
			// training points, the objective the network minimised.
			trainLoss := math.NaN()
			if err == nil && nt < n {
				trainLoss = lossGrad(cl, z, nil)
				z, err = predict(ctx, net, x, n)
			}
			if err != nil {
				return estimate.Result{}, err
			}
			used += p.Steps
			if last < p.Steps && len(attemptLosses) > 0 { // L-BFGS stopped early: the attempt is done
				estimate.Report(progress, estimate.Progress{Method: e.Name(),
					Step: used, Total: total, Loss: attemptLosses[len(attemptLosses)-1], C: liveC()})
			}
			for i, zi := range z {
				mc[i] = detmath.Exp(logSigmoid(float64(zi)))
			}
			var l float64
			if l, why = ch.check(mc, trainLoss); why == nil || p.noCheck {
				why = nil
				good++
				if l < bestLoss || good == 1 {
					bestLoss, bestLosses = l, attemptLosses
					copy(bestC, mc)
				}
			}
		}
		if good == 0 {
			return estimate.Result{}, fmt.Errorf("%w: network %d of %d, after %d attempts: %v", ErrDegenerate, member+1, p.Networks, bestOf+p.Restarts, why)
		}
		losses = append(losses, bestLosses...)
		for i, c := range bestC {
			cx[i] += c / float64(p.Networks)
		}
		for k, v := range accuracy.Expected(bestC, s.Weight, k2) {
			curve[k] += v / float64(p.Networks)
		}
	}
	// Expected settles each network's curve into [0, 1], non-increasing, so
	// one network's curve (v / 1 added to 0) is that curve exactly. The
	// average of several stays non-increasing, but its shares of 1 may round
	// above 1: clamp it again.
	if p.Networks > 1 {
		curve[0], curve[1] = 1, 1
		for k := 2; k <= k2; k++ {
			curve[k] = min(max(curve[k], 0), curve[k-1])
		}
	}
	return estimate.Result{Curve: curve, C: cx, Losses: losses}, nil
}

// train runs p.Steps full-batch Adam steps on net and returns the final
// logits; after each step it calls done(step, loss before the step).
func train[T float](ctx context.Context, net *mlp[T], x []T, n int, cl *curveLoss, p Preset,
	done func(step int, loss float64)) ([]T, error) {
	ws := newWorkspace(net, n)
	ws.act[0] = x
	opt := newAdam[T](len(net.params), p.LearningRate)
	dz := make([]T, n)
	forward := func() error {
		for lo := 0; lo < n; lo += rowBlock {
			if err := ctx.Err(); err != nil {
				return err
			}
			net.forward(ws, lo, min(lo+rowBlock, n))
		}
		return nil
	}
	z := ws.act[len(ws.act)-1]
	for step := 1; step <= p.Steps; step++ {
		if err := forward(); err != nil {
			return nil, err
		}
		loss := lossGrad(cl, z, dz)
		for lo := 0; lo < n; lo += rowBlock {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			net.backward(dz, ws, lo, min(lo+rowBlock, n), lo == 0)
		}
		opt.step(net.params, ws.grad)
		done(step, loss)
	}
	if err := forward(); err != nil {
		return nil, err
	}
	return z, nil
}

// trainLBFGS minimises the loss over net's parameters with limited-memory
// BFGS (lbfgs), using at most maxEvals loss-and-gradient evaluations, and
// returns the final logits; done(eval, loss) is called after each evaluation.
// The network runs in T; the optimiser's vectors are float64. With decay > 0
// the minimised objective is L + decay sum w^2 over the weights (not the
// biases); done still receives L.
func trainLBFGS[T float](ctx context.Context, net *mlp[T], x []T, n int, lossFn func(z, dz []T) float64, decay float64, maxEvals int,
	done func(step int, loss float64)) ([]T, error) {
	ws := newWorkspace(net, n)
	ws.act[0] = x
	dz := make([]T, n)
	z := ws.act[len(ws.act)-1]
	evals := 0
	g := make([]float64, len(net.params))
	eval := func() (float64, error) {
		for lo := 0; lo < n; lo += rowBlock {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			net.forward(ws, lo, min(lo+rowBlock, n))
		}
		l := lossFn(z, dz)
		pen := 0.0
		for lo := 0; lo < n; lo += rowBlock {
			net.backward(dz, ws, lo, min(lo+rowBlock, n), lo == 0)
		}
		for i, v := range ws.grad {
			g[i] = float64(v)
		}
		if decay > 0 {
			off := 0
			for l, w := range net.w {
				for i, v := range w {
					g[off+i] += 2 * decay * float64(v)
					pen += decay * float64(v) * float64(v)
				}
				off += len(w) + len(net.b[l])
			}
		}
		evals++
		done(evals, l)
		return l + pen, nil
	}
	if err := lbfgs(net.params, g, eval, maxEvals); err != nil {
		return nil, err
	}
	for lo := 0; lo < n; lo += rowBlock {
		net.forward(ws, lo, min(lo+rowBlock, n))
	}
	return slices.Clone(z), nil
}

// lbfgs minimises a function of p with limited-memory BFGS: eval returns the
// function at the current p and writes its gradient into g. It makes at most
// maxEvals evaluations, counting the first at the starting point, and leaves
// p at the best point it accepted. The optimiser's vectors are float64
// whatever T is. It stops early when an accepted step improves the function
// by less than a relative 1e-10, when the direction is not a descent
// direction, or when the budget runs out inside a line search.
//
// It is split as gonum/optimize splits it: lbfgsDirection (the memory and
// the two-loop recursion, gonum's LBFGS NextDirectioner) gives the search
// direction, backtrack (gonum's Backtracking Linesearcher) the step along it.
// Hand-written rather than gonum/optimize so that a fit has the same bits
// natively and in wasm (TestSameEverywhere): gonum's LBFGS and line searches
// run their vector arithmetic through gonum's floats and blas, which use
// assembly kernels on amd64 (with their own summation order) and pure Go in
// wasm, so the two would drift apart in the last bits and the optimiser
// would amplify that; the loops of dot, axpy and scale run in one fixed order
// everywhere.
func lbfgs[T float](p []T, g []float64, eval func() (float64, error), maxEvals int) error {
	dim := len(p)
	evals := 1
	f, err := eval()
	if err != nil {
		return err
	}
	gPrev := slices.Clone(g)
	var dir lbfgsDirection
	d := make([]float64, dim)
	x0 := make([]float64, dim)
	for evals < maxEvals {
		step := dir.direction(gPrev, d)
		slope := dot(gPrev, d)
		if !(slope < 0) {
			break
		}
		for i, v := range p {
			x0[i] = float64(v)
		}
		f0 := f
		var n int
		var accepted bool
		f, n, accepted, err = backtrack(p, x0, d, f0, slope, step, eval, maxEvals-evals)
		evals += n
		if err != nil {
			return err
		}
		if !accepted {
			// The budget ran out before a step was accepted: back to x0.
			for i := range p {
				p[i] = T(x0[i])
			}
			break
		}
		sv, yv := make([]float64, dim), make([]float64, dim)
		for i := range p {
			sv[i] = float64(p[i]) - x0[i]
			yv[i] = g[i] - gPrev[i]
		}
		copy(gPrev, g)
		dir.update(sv, yv)
		if f0-f <= 1e-10*math.Abs(f0) {
			break
		}
	}
	return nil
}

// lbfgsDirection is L-BFGS's memory, the last lbfgsMemory correction pairs
// s = x_{i+1} - x_i, y = g_{i+1} - g_i with rho = 1/(s·y), and the search
// direction it gives.
type lbfgsDirection struct {
	s, y  [][]float64
	rho   []float64
	alpha [lbfgsMemory]float64
}

// direction writes into d the search direction -H g, H the memory's
// inverse-Hessian approximation (two-loop recursion, initial matrix
// (s·y / y·y) I of the newest pair), and returns the first trial step
// length: 1 with a memory, and without one (d = -g) firstStep/|g| capped at 1.
func (m *lbfgsDirection) direction(g, d []float64) float64 {
	for i := range d {
		d[i] = -g[i]
	}
	for j := len(m.s) - 1; j >= 0; j-- {
		m.alpha[j] = m.rho[j] * dot(m.s[j], d)
		axpy(-m.alpha[j], m.y[j], d)
	}
	step := 1.0
	if k := len(m.s); k > 0 {
		scale(dot(m.s[k-1], m.y[k-1])/dot(m.y[k-1], m.y[k-1]), d)
	} else {
		step = min(1, firstStep/math.Max(math.Sqrt(dot(g, g)), 1e-12))
	}
	for j := range m.s {
		b := m.rho[j] * dot(m.y[j], d)
		axpy(m.alpha[j]-b, m.s[j], d)
	}
	return step
}

// update adds the pair (s, y) when its curvature is positive enough
// (s·y > 1e-12 y·y), dropping the oldest pair when the memory is full; it
// keeps s and y.
func (m *lbfgsDirection) update(s, y []float64) {
	sy := dot(s, y)
	if !(sy > 1e-12*dot(y, y)) {
		return
	}
	if len(m.s) == lbfgsMemory {
		m.s, m.y, m.rho = m.s[1:], m.y[1:], m.rho[1:]
	}
	m.s, m.y, m.rho = append(m.s, s), append(m.y, y), append(m.rho, 1/sy)
}

// backtrack is a backtracking line search from x0, where the function is f0
// and its derivative along d is slope < 0: it sets p = x0 + step d and
// evaluates, accepting the first step with sufficient decrease
// f <= f0 + armijo step slope (Armijo), else multiplying step by contraction,
// for at most budget evaluations. It returns the last value, the number of
// evaluations and whether a step was accepted (p then holds that point).
func backtrack[T float](p []T, x0, d []float64, f0, slope, step float64, eval func() (float64, error), budget int) (f float64, n int, accepted bool, err error) {
	for n < budget {
		for i := range p {
			p[i] = T(x0[i] + step*d[i])
		}
		n++
		if f, err = eval(); err != nil {
			return f, n, false, err
		}
		if f <= f0+armijo*step*slope {
			return f, n, true, nil
		}
		step *= contraction
	}
	return f, n, false, nil
}

// armijo is the sufficient-decrease constant of backtrack, and contraction
// the factor it shrinks a rejected step by.
const (
	armijo      = 1e-4
	contraction = 0.3
)

// lbfgsMemory is the number of correction pairs L-BFGS keeps.
const lbfgsMemory = 10

// firstStep is the length of L-BFGS's first trial step (along the negative
// gradient).
const firstStep = 1.0

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// axpy sets y += a x.
func axpy(a float64, x, y []float64) {
	for i, v := range x {
		y[i] += a * v
	}
}

// scale sets y *= a.
func scale(a float64, y []float64) {
	for i := range y {
		y[i] *= a
	}
}

// ones returns n ones (the paper's equal weights omega_k of the loss terms).
func ones(n int) []float64 {
	o := make([]float64, n)
	for i := range o {
		o[i] = 1
	}
	return o
}

// pretrain fits net's logits z_x on the n rows of x to the targets t by
// weighted least squares, L = sum_x w_x (z_x - t_x)^2, with at most
// pretrainEvals L-BFGS evaluations (trainLBFGS).
func pretrain[T float](ctx context.Context, net *mlp[T], x []T, n int, w, t []float64) error {
	_, err := trainLBFGS(ctx, net, x, n, func(z, dz []T) float64 {
		l := 0.0
		for i, zi := range z {
			d := float64(zi) - t[i]
			l += w[i] * d * d
			dz[i] = T(2 * w[i] * d)
		}
		return l
	}, 0, pretrainEvals, func(int, float64) {})
	return err
}

// pretrainEvals bounds pretrain's evaluations; pretrainLogit clamps its
// targets to [-pretrainLogit, pretrainLogit] (freeFit's logits of points
// that are always or never right run off to large values).
const (
	pretrainEvals = 150
	pretrainLogit = 15
)

// trainSubsample returns a class-stratified subsample of the pilot's points
// for training: from each class y, the first m_y of its points in an order
// shuffled by the PCG stream (seed, subsampleStream), m_y = min(r_y,
// ceil(max / K)), with weights 1 / (K m_y), so every class still weighs 1/K
// (the class-balanced accuracy the loss fits). x holds the inputs of all
// points, size per row; the subsample's rows are copied in point order. It
// returns the rows, the indices of the kept points and their weights.
func trainSubsample[T float](s *accuracy.Sample, x []T, size, max int, seed uint64) ([]T, []int, []float64) {
	perClass := (max + s.K - 1) / s.K
	byClass := make([][]int, s.K)
	for i, y := range s.Labels {
		byClass[y] = append(byClass[y], i)
	}
	rng := rand.New(rand.NewPCG(seed, subsampleStream))
	keep := make([]bool, s.N())
	m := make([]int, s.K)
	for y, pts := range byClass {
		rng.Shuffle(len(pts), func(i, j int) { pts[i], pts[j] = pts[j], pts[i] })
		m[y] = min(len(pts), perClass)
		for _, i := range pts[:m[y]] {
			keep[i] = true
		}
	}
	var xt []T
	var kept []int
	var wt []float64
	for i, ok := range keep {
		if ok {
			xt = append(xt, x[i*size:(i+1)*size]...)
			kept = append(kept, i)
			wt = append(wt, 1/(float64(s.K)*float64(m[s.Labels[i]])))
		}
	}
	return xt, kept, wt
}

// subsampleStream is the PCG stream that shuffles each class's points for
// trainSubsample.
const subsampleStream = 0x00000073_75627361 // "subsa"

// predict returns the network's logits for all n rows of x.
func predict[T float](ctx context.Context, net *mlp[T], x []T, n int) ([]T, error) {
	ws := newWorkspace(net, n)
	ws.act[0] = x
	for lo := 0; lo < n; lo += rowBlock {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		net.forward(ws, lo, min(lo+rowBlock, n))
	}
	return ws.act[len(ws.act)-1], nil
}
