package cleanex

import (
	"math"
	"math/rand/v2"
	"testing"
)

// lossOf runs the network on x and returns the curve loss (and, with dz
// non-nil, fills ws.grad by backpropagation).
func lossOf(net *mlp[float64], ws *workspace[float64], cl *curveLoss, n int, withGrad bool) float64 {
	net.forward(ws, 0, n)
	z := ws.act[len(ws.act)-1]
	if !withGrad {
		return lossGrad[float64](cl, z, nil)
	}
	dz := make([]float64, n)
	l := lossGrad(cl, z, dz)
	// two row blocks, to check the accumulation across blocks as well
	net.backward(dz, ws, 0, n/2, true)
	net.backward(dz, ws, n/2, n, false)
	return l
}

// TestGradientCheck compares the analytic gradient of every parameter of
// every layer (weights and biases, three layers) with central finite
// differences of the float64 network.
func TestGradientCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, k = 7, 6
	sizes := []int{4, 5, 3, 1}
	net := newMLP[float64](sizes, rng)
	for i := range net.params { // non-zero biases too, away from ReLU kinks at init
		net.params[i] += 0.1 * rng.NormFloat64()
	}
	x := make([]float64, n*sizes[0])
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	w := make([]float64, n)
	for i := range w {
		w[i] = (1 + float64(i%3)) / 14 // unequal weights summing to 1
	}
	target := []float64{1, 1, 0.8, 0.6, 0.5, 0.45, 0.4}
	omega := []float64{1, 1, 1, 1.5, 0.5, 2, 1}
	cl := newCurveLoss(w, target, omega, k)
	ws := newWorkspace(net, n)
	ws.act[0] = x
	lossOf(net, ws, cl, n, true)
	grad := append([]float64(nil), ws.grad...)
	const h = 1e-6
	for i := range net.params {
		orig := net.params[i]
		net.params[i] = orig + h
		lp := lossOf(net, ws, cl, n, false)
		net.params[i] = orig - h
		lm := lossOf(net, ws, cl, n, false)
		net.params[i] = orig
		fd := (lp - lm) / (2 * h)
		if d := math.Abs(fd - grad[i]); d > 1e-6*math.Max(1, math.Abs(fd)) {
			t.Errorf("param %d: analytic %.10g, finite difference %.10g", i, grad[i], fd)
		}
	}
	// the check must have exercised every layer with non-zero gradients
	gw, gb := layerViews(sizes, grad)
	for l := range gw {
		nz := 0
		for _, v := range append(append([]float64(nil), gw[l]...), gb[l]...) {
			if v != 0 {
				nz++
			}
		}
		if nz == 0 {
			t.Errorf("layer %d has an all-zero gradient", l)
		}
	}
}

// TestLossGradExtremeLogits checks dL/dz against finite differences and the
// loss against a direct evaluation, for logits where C_x is near 0 or 1.
func TestLossGradExtremeLogits(t *testing.T) {
	z := []float64{-30, -3, 0.5, 4, 9, 15}
	w := []float64{0.1, 0.2, 0.2, 0.2, 0.2, 0.1}
	const k = 50
	target := make([]float64, k+1)
	omega := make([]float64, k+1)
	for i := range target {
		target[i] = math.Pow(0.99, float64(i))
		omega[i] = 1
	}
	cl := newCurveLoss(w, target, omega, k)
	dz := make([]float64, len(z))
	l := lossGrad(cl, z, dz)
	direct := 0.0
	for kk := 2; kk <= k; kk++ {
		e := 0.0
		for i, zi := range z {
			e += w[i] * math.Pow(1/(1+math.Exp(-zi)), float64(kk-1))
		}
		direct += (e - target[kk]) * (e - target[kk])
	}
	if math.Abs(l-direct) > 1e-12*math.Max(1, direct) {
		t.Errorf("loss %.15g, direct %.15g", l, direct)
	}
	for i := range z {
		// h: large enough that the running-product rounding (relative ~k eps)
		// is negligible against the change of C_x even where 1-C_x ~ 3e-7.
		const h = 1e-3
		orig := z[i]
		z[i] = orig + h
		lp := lossGrad[float64](cl, z, nil)
		z[i] = orig - h
		lm := lossGrad[float64](cl, z, nil)
		z[i] = orig
		fd := (lp - lm) / (2 * h)
		if math.Abs(fd-dz[i]) > 1e-5*math.Max(1e-3, math.Abs(fd)) {
			t.Errorf("z=%g: analytic %.10g, finite difference %.10g", z[i], dz[i], fd)
		}
	}
}
