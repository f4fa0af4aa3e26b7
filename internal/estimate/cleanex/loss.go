package cleanex

import "math"

// softplus returns log(1 + e^x) without overflow: max(x, 0) + log1p(e^-|x|).
func softplus(x float64) float64 {
	return math.Max(x, 0) + math.Log1p(math.Exp(-math.Abs(x)))
}

// logSigmoid returns log sigma(z) = -softplus(-z), finite for every finite z.
func logSigmoid(z float64) float64 { return -softplus(-z) }

// tinyPower is where the running power C^(k-1) is dropped: its remaining
// contributions are below 1e-200 each, far under float64 resolution of the
// loss, and stopping avoids slow subnormal arithmetic.
const tinyPower = 1e-200

// curveLoss is the CleaneX objective
//
//	L = sum_{k=2..kmax} omega_k (E_k - Abar_k)^2,   E_k = sum_x w_x C_x^(k-1),  C_x = sigma(z_x),
//
// (omega_k = 1 in the paper) with its gradient
//
//	dL/dz_x = w_x (1 - C_x) sum_k 2 omega_k (E_k - Abar_k) (k-1) C_x^(k-1),
//
// since dC^(k-1)/dz = (k-1) C^(k-1) (1 - C). C_x^(k-1) = exp((k-1) log C_x)
// is formed as running products of exp(log sigma(z)), and 1 - C_x as
// exp(log sigma(-z)), so points with C_x near 1 keep their precision.
// It costs O(N kmax) per evaluation, in float64.
type curveLoss struct {
	w      []float64 // w_x
	target []float64 // Abar_k, k = 0..kmax
	omega  []float64 // omega_k, k = 0..kmax
	kmax   int
	e, r   []float64 // scratch: E_k and 2 omega_k (E_k - Abar_k) (k-1)
}

func newCurveLoss(w, target, omega []float64, kmax int) *curveLoss {
	return &curveLoss{w: w, target: target, omega: omega, kmax: kmax,
		e: make([]float64, kmax+1), r: make([]float64, kmax+1)}
}

// lossGrad returns L for the logits z and, when dz is not nil, writes dL/dz into it.
func lossGrad[T float](cl *curveLoss, z []T, dz []T) float64 {
	e := cl.e
	clear(e)
	kmax := cl.kmax
	for i, zi := range z {
		c := math.Exp(logSigmoid(float64(zi)))
		wi := cl.w[i]
		p := c
		for k := 2; k <= kmax && p > tinyPower; k++ {
			e[k] += wi * p
			p *= c
		}
	}
	loss := 0.0
	for k := 2; k <= kmax; k++ {
		d := e[k] - cl.target[k]
		loss += cl.omega[k] * d * d
		cl.r[k] = 2 * cl.omega[k] * d * float64(k-1)
	}
	if dz == nil {
		return loss
	}
	r := cl.r
	for i, zi := range z {
		zf := float64(zi)
		c := math.Exp(logSigmoid(zf))
		p := c
		s := 0.0
		for k := 2; k <= kmax && p > tinyPower; k++ {
			s += r[k] * p
			p *= c
		}
		dz[i] = T(cl.w[i] * math.Exp(logSigmoid(-zf)) * s)
	}
	return loss
}
