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
// "fast", the default, a small tail-focused network that costs about a
// thousandth of the published one (see Preset).
package cleanex

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
)

// Preset is one CleaneX configuration: input encoding, architecture and training.
type Preset struct {
	// Name is "paper" or "fast" (or a study's label).
	Name string
	// Inputs is the input encoding.
	Inputs Inputs
	// TailRatio is the growth factor of the geometric ranks of TailGaps.
	TailRatio float64
	// Hidden holds the sizes of the ReLU hidden layers; the output is one logit.
	Hidden []int
	// LearningRate is Adam's step size.
	LearningRate float64
	// Steps is the number of full-batch Adam steps per network.
	Steps int
	// Networks is how many networks (seeds Seed, Seed+1, ...) are fitted;
	// the estimate averages their C_x.
	Networks int
}

// Paper returns the published configuration (Section 5): all K sorted scores
// in, hidden layers 512 and 128 with ReLU, sigmoid output, Glorot-uniform
// initialisation, Adam with learning rate 1e-4, 10,000 full-batch steps.
func Paper() Preset {
	return Preset{Name: "paper", Inputs: AllScores, Hidden: []int{512, 128},
		LearningRate: 1e-4, Steps: 10000, Networks: 1}
}

// Fast returns the default configuration (see the package's research notes
// in /work/notes/cleanex-research.md for how it was chosen).
func Fast() Preset {
	return Preset{Name: "fast", Inputs: TailGaps, TailRatio: 1.5, Hidden: []int{32, 16},
		LearningRate: 3e-3, Steps: 1000, Networks: 1}
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
	case !(p.LearningRate > 0):
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

// rowBlock is how many points a forward or backward pass handles between
// checks of the context, so a large fit stops well within a second.
const rowBlock = 256

// progressEvery is how often (in steps) progress is reported.
const progressEvery = 10

// ErrK2 is returned when k2 < 2.
var ErrK2 = errors.New("cleanex: k2 must be at least 2")

// Fit trains the preset's network(s) on s and returns E_k = sum_x w_x C_x^(k-1)
// for k = 0..k2, the fitted C_x and the training loss per step (networks one
// after the other).
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
	n := s.N()
	x := encode[float32](s, p.Inputs, p.TailRatio)
	sizes := slices.Concat([]int{inputSize(p.Inputs, s.K, p.TailRatio)}, p.Hidden, []int{1})
	omega := make([]float64, s.K+1)
	for k := range omega {
		omega[k] = 1
	}
	cl := newCurveLoss(s.Weight, s.Observed, omega, s.K)
	total := p.Steps * p.Networks
	losses := make([]float64, 0, total)
	cx := make([]float64, n)
	for member := range p.Networks {
		rng := rand.New(rand.NewPCG(e.Seed+uint64(member), 0x636c65616e6578))
		net := newMLP[float32](sizes, rng)
		z, err := train(ctx, net, x, n, cl, p, func(step int, loss float64) {
			losses = append(losses, loss)
			if step%progressEvery == 0 || step == p.Steps {
				estimate.Report(progress, estimate.Progress{Method: e.Name(),
					Step: member*p.Steps + step, Total: total, Loss: loss})
			}
		})
		if err != nil {
			return estimate.Result{}, err
		}
		for i, zi := range z {
			cx[i] += math.Exp(logSigmoid(float64(zi))) / float64(p.Networks)
		}
	}
	return estimate.Result{Curve: accuracy.Expected(cx, s.Weight, k2), C: cx, Losses: losses}, nil
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
