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

// tinyPower is where the running power w_x C_x^(k-1) is dropped: its
// remaining contributions are below 1e-200 each, far under float64 resolution
// of the loss, and stopping avoids slow subnormal arithmetic. (In blocks of
// four points the check runs every 16 k, so a term may go down to about
// 1e-200 * C^15 before the block stops.)
const tinyPower = 1e-200

// curveLoss is the CleaneX objective
//
//	L = sum_{k=2..kmax} omega_k (E_k - Abar_k)^2,   E_k = sum_x w_x C_x^(k-1),  C_x = sigma(z_x),
//
// (omega_k = 1 in the paper) with its gradient
//
//	dL/dz_x = w_x (1 - C_x) sum_k r_k C_x^(k-1),   r_k = 2 omega_k (E_k - Abar_k) (k-1),
//
// since dC^(k-1)/dz = (k-1) C^(k-1) (1 - C). E_k is accumulated from running
// products w_x C_x^(k-1), with C_x = exp(log sigma(z)) and 1 - C_x =
// exp(log sigma(-z)) so points with C_x near 1 keep their precision; the
// polynomial sum_k r_k C^(k-1) is evaluated by Horner's rule up to the k
// where the running products stopped. It costs O(N kmax) per evaluation, in
// float64.
type curveLoss struct {
	w      []float64 // w_x
	target []float64 // Abar_k, k = 0..kmax
	omega  []float64 // omega_k, k = 0..kmax
	kmax   int
	e, r   []float64 // scratch: E_k and r_k
	c, cm  []float64 // C_x and 1 - C_x of the last evaluation
	stop   []int     // per block of four points, the last k of its running products
}

func newCurveLoss(w, target, omega []float64, kmax int) *curveLoss {
	n := len(w)
	return &curveLoss{w: w, target: target, omega: omega, kmax: kmax,
		e: make([]float64, kmax+1), r: make([]float64, kmax+1),
		c: make([]float64, n), cm: make([]float64, n), stop: make([]int, n/4+1)}
}

// lossGrad returns L for the logits z and, when dz is not nil, writes dL/dz
// into it; cl.c receives C_x = sigma(z_x). Points are processed four at a
// time so that the four running products (and Horner recurrences) form
// independent dependency chains (the loop is latency-bound otherwise); a
// fifth and later leftover point forms its own block.
func lossGrad[T float](cl *curveLoss, z []T, dz []T) float64 {
	kmax := cl.kmax
	e := cl.e[:kmax+1]
	r := cl.r[:kmax+1]
	clear(e)
	n := len(z)
	c, cm, w := cl.c[:n], cl.cm[:n], cl.w[:n]
	for i, zi := range z {
		c[i] = sig(zi)
		cm[i] = sigNeg(zi)
	}
	i := 0
	for ; i+4 <= n; i += 4 {
		c0, c1, c2, c3 := c[i], c[i+1], c[i+2], c[i+3]
		q0, q1, q2, q3 := w[i]*c0, w[i+1]*c1, w[i+2]*c2, w[i+3]*c3
		k := 2
		for ; k < len(e)-1; k++ { // k < kmax
			e[k] += (q0 + q1) + (q2 + q3)
			q0, q1, q2, q3 = q0*c0, q1*c1, q2*c2, q3*c3
			if k&15 == 0 && q0 < tinyPower && q1 < tinyPower && q2 < tinyPower && q3 < tinyPower {
				break
			}
		}
		if k == kmax {
			e[k] += (q0 + q1) + (q2 + q3)
		}
		cl.stop[i/4] = k
	}
	if i < n {
		cl.stop[i/4] = 2
	}
	for ; i < n; i++ {
		ci := c[i]
		q := w[i] * ci
		k := 2
		for ; k < kmax && q > tinyPower; k++ {
			e[k] += q
			q *= ci
		}
		if k == kmax {
			e[k] += q
		}
		cl.stop[i/4] = max(cl.stop[i/4], k)
	}
	loss := 0.0
	for k := 2; k <= kmax; k++ {
		d := e[k] - cl.target[k]
		loss += cl.omega[k] * d * d
		r[k] = 2 * cl.omega[k] * d * float64(k-1)
	}
	if dz == nil || kmax < 2 {
		if dz != nil {
			clear(dz)
		}
		return loss
	}
	dz = dz[:n]
	i = 0
	for ; i+4 <= n; i += 4 {
		c0, c1, c2, c3 := c[i], c[i+1], c[i+2], c[i+3]
		kt := cl.stop[i/4]
		s0 := r[kt]
		s1, s2, s3 := s0, s0, s0
		rt := r[:kt]
		for k := len(rt) - 1; k >= 2; k-- { // k = kt-1 .. 2
			rk := rt[k]
			s0, s1, s2, s3 = s0*c0+rk, s1*c1+rk, s2*c2+rk, s3*c3+rk
		}
		dz[i] = T(w[i] * cm[i] * (s0 * c0))
		dz[i+1] = T(w[i+1] * cm[i+1] * (s1 * c1))
		dz[i+2] = T(w[i+2] * cm[i+2] * (s2 * c2))
		dz[i+3] = T(w[i+3] * cm[i+3] * (s3 * c3))
	}
	if i < n {
		kt := cl.stop[i/4]
		for ; i < n; i++ {
			ci := c[i]
			s := r[kt]
			for k := kt - 1; k >= 2; k-- {
				s = s*ci + r[k]
			}
			dz[i] = T(w[i] * cm[i] * (s * ci))
		}
	}
	return loss
}

// sig returns C = sigma(z) = exp(log sigma(z)).
func sig[T float](z T) float64 { return detmath.Exp(logSigmoid(float64(z))) }

// sigNeg returns 1 - C = sigma(-z), accurate when C is near 1.
func sigNeg[T float](z T) float64 { return detmath.Exp(logSigmoid(-float64(z))) }
