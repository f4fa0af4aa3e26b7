package cleanex

import (
	"math"

	"github.com/cleanex/cleanex/internal/detmath"
)

// softplus returns log(1 + e^x) without overflow: max(x, 0) + log1p(e^-|x|).
func softplus(x float64) float64 {
	return math.Max(x, 0) + math.Log1p(detmath.Exp(-math.Abs(x)))
}

// logSigmoid returns log sigma(z) = -softplus(-z), finite for every finite z.
func logSigmoid(z float64) float64 { return -softplus(-z) }

// tinyPower is where the running power C^(k-1) is dropped: its remaining
// contributions are below 1e-200 each, far under float64 resolution of the
// loss, and stopping avoids slow subnormal arithmetic. (In blocks of four
// points the check runs every 16 k, so a power may go down to about
// 1e-200 * C^15 before the block stops.)
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
	c      []float64 // C_x of the last evaluation
}

func newCurveLoss(w, target, omega []float64, kmax int) *curveLoss {
	return &curveLoss{w: w, target: target, omega: omega, kmax: kmax,
		e: make([]float64, kmax+1), r: make([]float64, kmax+1), c: make([]float64, len(w))}
}

// lossGrad returns L for the logits z and, when dz is not nil, writes dL/dz
// into it; cl.c receives C_x = sigma(z_x).
// Points are processed four at a time so that the four running products
// form independent dependency chains (the loop is latency-bound otherwise).
func lossGrad[T float](cl *curveLoss, z []T, dz []T) float64 {
	e := cl.e
	clear(e)
	kmax := cl.kmax
	n := len(z)
	i := 0
	for ; i+4 <= n; i += 4 {
		c0, c1, c2, c3 := sig(z[i]), sig(z[i+1]), sig(z[i+2]), sig(z[i+3])
		cl.c[i], cl.c[i+1], cl.c[i+2], cl.c[i+3] = c0, c1, c2, c3
		w0, w1, w2, w3 := cl.w[i], cl.w[i+1], cl.w[i+2], cl.w[i+3]
		p0, p1, p2, p3 := c0, c1, c2, c3
		for k := 2; k <= kmax; k++ {
			e[k] += w0*p0 + w1*p1 + w2*p2 + w3*p3
			p0, p1, p2, p3 = p0*c0, p1*c1, p2*c2, p3*c3
			if k&15 == 0 && max(p0, p1, p2, p3) < tinyPower {
				break
			}
		}
	}
	for ; i < n; i++ {
		c := sig(z[i])
		cl.c[i] = c
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
	i = 0
	for ; i+4 <= n; i += 4 {
		c0, c1, c2, c3 := sig(z[i]), sig(z[i+1]), sig(z[i+2]), sig(z[i+3])
		p0, p1, p2, p3 := c0, c1, c2, c3
		var s0, s1, s2, s3 float64
		for k := 2; k <= kmax; k++ {
			rk := r[k]
			s0, s1, s2, s3 = s0+rk*p0, s1+rk*p1, s2+rk*p2, s3+rk*p3
			p0, p1, p2, p3 = p0*c0, p1*c1, p2*c2, p3*c3
			if k&15 == 0 && max(p0, p1, p2, p3) < tinyPower {
				break
			}
		}
		dz[i] = T(cl.w[i] * sigNeg(z[i]) * s0)
		dz[i+1] = T(cl.w[i+1] * sigNeg(z[i+1]) * s1)
		dz[i+2] = T(cl.w[i+2] * sigNeg(z[i+2]) * s2)
		dz[i+3] = T(cl.w[i+3] * sigNeg(z[i+3]) * s3)
	}
	for ; i < n; i++ {
		c := sig(z[i])
		p := c
		s := 0.0
		for k := 2; k <= kmax && p > tinyPower; k++ {
			s += r[k] * p
			p *= c
		}
		dz[i] = T(cl.w[i] * sigNeg(z[i]) * s)
	}
	return loss
}

// sig returns C = sigma(z) = exp(log sigma(z)).
func sig[T float](z T) float64 { return detmath.Exp(logSigmoid(float64(z))) }

// sigNeg returns 1 - C = sigma(-z), accurate when C is near 1.
func sigNeg[T float](z T) float64 { return detmath.Exp(logSigmoid(-float64(z))) }
