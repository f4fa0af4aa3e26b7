package cleanex

import (
	"math"
	"math/rand/v2"
)

// float is the element type of a network: float32 for fitting, float64 for
// the gradient check.
type float interface{ ~float32 | ~float64 }

// mlp is a fully connected network with sizes[0] inputs, ReLU hidden layers
// of sizes[1..L-1] units and one linear output, the logit z (C = sigmoid(z)).
// No maintained pure-Go library offers a small MLP with hand-written
// gradients of a custom loss and a float32 path, so it is written here on top
// of the deterministic kernels of kernels.go.
type mlp[T float] struct {
	sizes  []int
	params []T   // every weight and bias, contiguous (the optimiser's vector)
	w, b   [][]T // views into params: w[l] is sizes[l] x sizes[l+1] row-major, b[l] has sizes[l+1]
}

// newMLP returns a network with Glorot-uniform weights,
// w ~ U(-a, a) with a = sqrt(6 / (fan_in + fan_out)), and zero biases.
func newMLP[T float](sizes []int, rng *rand.Rand) *mlp[T] {
	n := 0
	for l := 0; l+1 < len(sizes); l++ {
		n += sizes[l]*sizes[l+1] + sizes[l+1]
	}
	m := &mlp[T]{sizes: sizes, params: make([]T, n)}
	m.w, m.b = layerViews(sizes, m.params)
	for l := range m.w {
		a := math.Sqrt(6 / float64(sizes[l]+sizes[l+1]))
		for i := range m.w[l] {
			m.w[l][i] = T((2*rng.Float64() - 1) * a)
		}
	}
	return m
}

// layerViews splits a parameter vector into per-layer weight and bias views.
func layerViews[T float](sizes []int, p []T) (w, b [][]T) {
	off := 0
	for l := 0; l+1 < len(sizes); l++ {
		nw := sizes[l] * sizes[l+1]
		w = append(w, p[off:off+nw:off+nw])
		off += nw
		b = append(b, p[off:off+sizes[l+1]:off+sizes[l+1]])
		off += sizes[l+1]
	}
	return w, b
}

// macs returns the multiply-adds of one forward pass for one point.
func (m *mlp[T]) macs() int {
	s := 0
	for l := 0; l+1 < len(m.sizes); l++ {
		s += m.sizes[l] * m.sizes[l+1]
	}
	return s
}

// workspace holds the activations and gradients of one batch of n points, so
// that training allocates nothing per step.
type workspace[T float] struct {
	n      int
	act    [][]T // act[l]: n x sizes[l]; act[0] is the input (set by the caller, not owned), act[L-1] the logits z
	delta  [][]T // delta[l]: dLoss/d(pre-activation of layer l), n x sizes[l], l >= 1
	grad   []T   // dLoss/dparams, laid out like params
	gw, gb [][]T
	wt     [][]T // wt[l]: the transpose of w[l] (sizes[l+1] x sizes[l]), refreshed by forward
}

func newWorkspace[T float](m *mlp[T], n int) *workspace[T] {
	L := len(m.sizes)
	ws := &workspace[T]{n: n, act: make([][]T, L), delta: make([][]T, L), grad: make([]T, len(m.params))}
	for l := 1; l < L; l++ {
		ws.act[l] = make([]T, n*m.sizes[l])
		ws.delta[l] = make([]T, n*m.sizes[l])
		ws.wt = append(ws.wt, make([]T, m.sizes[l-1]*m.sizes[l]))
	}
	ws.gw, ws.gb = layerViews(m.sizes, ws.grad)
	return ws
}

// forward computes the logits of rows lo..hi-1 of the n x sizes[0] inputs
// x (set as ws.act[0] by the caller) into ws.act[L-1][lo:hi]: each layer is
// h = ReLU(a W + b) (no ReLU on the output). A pass over the points starts at
// lo = 0, where the weights' transposes are refreshed from the parameters.
func (m *mlp[T]) forward(ws *workspace[T], lo, hi int) {
	L := len(m.sizes)
	rows := hi - lo
	for l := 0; l+1 < L; l++ {
		in, out := m.sizes[l], m.sizes[l+1]
		if lo == 0 {
			transpose(ws.wt[l], m.w[l], in, out)
		}
		a := ws.act[l][lo*in : hi*in]
		h := ws.act[l+1][lo*out : hi*out]
		abt(h, a, ws.wt[l], rows, out, in, m.b[l], l+2 < L, nil)
	}
}

// backward adds the gradient contribution of rows lo..hi-1 to ws.grad
// (overwriting it when first is true), given dz = dLoss/dz for all n points,
// after forward on the same rows: with delta the gradient at a layer's
// pre-activation, dW = a^T delta, db = column sums of delta, and the previous
// layer's delta = (delta W^T) masked by ReLU'(its pre-activation).
func (m *mlp[T]) backward(dz []T, ws *workspace[T], lo, hi int, first bool) {
	L := len(m.sizes)
	rows := hi - lo
	copy(ws.delta[L-1][lo:hi], dz[lo:hi])
	for l := L - 2; l >= 0; l-- {
		in, out := m.sizes[l], m.sizes[l+1]
		d := ws.delta[l+1][lo*out : hi*out]
		a := ws.act[l][lo*in : hi*in]
		atbAdd(ws.gw[l], a, d, rows, in, out, first)
		colSumsAdd(ws.gb[l], d, rows, out, first)
		if l == 0 {
			break
		}
		// ReLU'(pre-activation) is read from act[l] > 0.
		abt(ws.delta[l][lo*in:hi*in], d, m.w[l], rows, in, out, nil, false, a)
	}
}
