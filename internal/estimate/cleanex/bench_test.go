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
