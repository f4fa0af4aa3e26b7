package cleanex

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

// simSample is a pilot of the paper's simulation: d = 5, normal classes and
// points, sigma^2 = 0.1, k1 classes, r = 10.
func simSample(b testing.TB, k1 int) *accuracy.Sample {
	b.Helper()
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Normal,
		D: 5, Sigma2: 0.1, K: k1, R: 10, Seed: 42})
	if err != nil {
		b.Fatal(err)
	}
	m, err := w.Matrix(w.AllClasses())
	if err != nil {
		b.Fatal(err)
	}
	s, _, err := accuracy.NewSample(m, scores.Lower)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkFit times a whole fit of the fast preset (k2 = 2000).
func BenchmarkFit(b *testing.B) {
	for _, k1 := range []int{100, 500} {
		b.Run(fmt.Sprintf("fast/k1=%d", k1), func(b *testing.B) {
			s := simSample(b, k1)
			e := Estimator{Preset: Fast()}
			b.ResetTimer()
			for b.Loop() {
				if _, err := e.Fit(context.Background(), s, 2000, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStep times one full-batch training step (forward, loss, backward,
// Adam) of the paper preset at k1 = 100, r = 10; a paper fit is 10,000 of them.
func BenchmarkStep(b *testing.B) {
	s := simSample(b, 100)
	p := Paper()
	x := encode[float32](s, p.Inputs, p.TailRatio)
	sizes := slices.Concat([]int{inputSize(p.Inputs, s.K, p.TailRatio)}, p.Hidden, []int{1})
	net := newMLP[float32](sizes, rand.New(rand.NewPCG(1, 2)))
	cl := newCurveLoss(s.Weight, s.Observed, ones(s.K+1), s.K)
	p.Steps = 1
	b.Run("paper/k1=100", func(b *testing.B) {
		for b.Loop() {
			if _, err := train(context.Background(), net, x, s.N(), cl, p, func(int, float64) {}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkKernel times the dense-layer kernels on the fast network's first
// layer at k1 = 100, r = 10 (1000 points, 13 inputs, 32 units): the forward
// product with bias and ReLU, the weight gradient a^T delta and the
// back-propagated delta W^T with the ReLU mask.
func BenchmarkKernel(b *testing.B) {
	const n, in, out = 1000, 13, 32
	rng := rand.New(rand.NewPCG(1, 2))
	fill := func(k int) []float32 {
		v := make([]float32, k)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	a, w, wt, bias, h, d, g, da := fill(n*in), fill(in*out), make([]float32, in*out), fill(out), make([]float32, n*out), fill(n*out), make([]float32, in*out), make([]float32, n*in)
	transpose(wt, w, in, out)
	b.Run("forward", func(b *testing.B) {
		for b.Loop() {
			abt(h, a, wt, n, out, in, bias, true, nil)
		}
	})
	b.Run("weightgrad", func(b *testing.B) {
		for b.Loop() {
			atbAdd(g, a, d, n, in, out, true)
		}
	})
	b.Run("delta", func(b *testing.B) {
		for b.Loop() {
			abt(da, d, w, n, in, out, nil, false, a)
		}
	})
}

// BenchmarkEval times one loss-and-gradient evaluation of the fast preset
// (forward, curve loss, backward) at k1 = 100 and 500, r = 10; a fast fit
// makes at most 300 of them.
func BenchmarkEval(b *testing.B) {
	for _, k1 := range []int{100, 500} {
		s := simSample(b, k1)
		p := Fast()
		x := encode[float32](s, p.Inputs, p.TailRatio)
		sizes := slices.Concat([]int{inputSize(p.Inputs, s.K, p.TailRatio)}, p.Hidden, []int{1})
		net := newMLP[float32](sizes, rand.New(rand.NewPCG(1, 2)))
		cl := newCurveLoss(s.Weight, s.Observed, ones(s.K+1), s.K)
		ws := newWorkspace(net, s.N())
		ws.act[0] = x
		dz := make([]float32, s.N())
		z := ws.act[len(ws.act)-1]
		b.Run(fmt.Sprintf("net/k1=%d", k1), func(b *testing.B) {
			for b.Loop() {
				net.forward(ws, 0, s.N())
				net.backward(dz, ws, 0, s.N(), true)
			}
		})
		b.Run(fmt.Sprintf("loss/k1=%d", k1), func(b *testing.B) {
			for b.Loop() {
				lossGrad(cl, z, dz)
			}
		})
	}
}
