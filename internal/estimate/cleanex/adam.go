package cleanex

import (
	"math"

	"github.com/cleanex/cleanex/internal/detmath"
)

// adam is the Adam optimiser (Kingma & Ba 2015) with bias correction:
//
//	m = b1 m + (1-b1) g,  v = b2 v + (1-b2) g^2,
//	theta -= lr (m / (1-b1^t)) / (sqrt(v / (1-b2^t)) + eps).
//
// Hand-written: it is a few lines and gonum has no stochastic optimisers.
type adam[T float] struct {
	lr, b1, b2, eps float64
	m, v            []T
	t               int
}

func newAdam[T float](n int, lr float64) *adam[T] {
	return &adam[T]{lr: lr, b1: 0.9, b2: 0.999, eps: 1e-8, m: make([]T, n), v: make([]T, n)}
}

// step updates p in place from the gradient g.
func (a *adam[T]) step(p, g []T) {
	a.t++
	c1 := 1 - detmath.Pow(a.b1, float64(a.t))
	c2 := 1 - detmath.Pow(a.b2, float64(a.t))
	lr := T(a.lr * math.Sqrt(c2) / c1)
	eps := T(a.eps * math.Sqrt(c2))
	b1, b2 := T(a.b1), T(a.b2)
	m, v := a.m[:len(p)], a.v[:len(p)]
	g = g[:len(p)]
	for i := range p {
		gi := g[i]
		m[i] = b1*m[i] + (1-b1)*gi
		v[i] = b2*v[i] + (1-b2)*gi*gi
		p[i] -= lr * m[i] / (T(math.Sqrt(float64(v[i]))) + eps)
	}
}
