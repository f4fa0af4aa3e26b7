// Copyright 2009 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.
//
// Exp, expmulti, Log and Erfc are ported from Go's math package (exp.go,
// log.go, erf.go), which took them from FreeBSD's msun; the Sun Microsystems
// notices that came with e_exp.c, e_log.c and s_erf.c are in the LICENSE file
// of this folder.

// Package detmath holds the elementary functions (and a sample variance) whose results must be
// bit-for-bit the same natively and in WebAssembly, so that an iterative fit
// (CleaneX's training, KDE's bandwidth search) gives the same answer in the
// command line and in the browser.
//
// Go's math.Exp and math.Log run assembly on amd64 (and math.Erfc calls
// math.Exp), while GOOS=js GOARCH=wasm runs Go's portable code: the two agree
// only to about one ulp, and an optimiser amplifies that last bit into visible
// differences. No maintained library offers platform-independent versions, so
// this package carries Go's own portable algorithms (from FreeBSD's msun, as in
// Go's math package; BSD licence, see LICENSE here), which compile to the same instructions on
// every platform without fused multiply-adds (GOAMD64=v1 and wasm never fuse).
// Under wasm each function therefore equals its math counterpart exactly (tested).
package detmath

import "math"

// Exp returns e**x: Exp(+Inf) = +Inf, Exp(NaN) = NaN, and values past the
// range overflow to +Inf or underflow to 0. Argument reduction x = k ln2 + r,
// |r| <= ln2/2, then a degree-5 minimax rational approximation of e**r.
func Exp(x float64) float64 {
	const (
		ln2Hi     = 6.93147180369123816490e-01
		ln2Lo     = 1.90821492927058770002e-10
		log2e     = 1.44269504088896338700e+00
		overflow  = 7.09782712893383973096e+02
		underflow = -7.45133219101941108420e+02
		nearZero  = 1.0 / (1 << 28)
	)
	switch {
	case math.IsNaN(x):
		return x
	case x > overflow:
		return math.Inf(1)
	case x < underflow:
		return 0
	case -nearZero < x && x < nearZero:
		return 1 + x
	}
	var k int
	switch {
	case x < 0:
		k = int(log2e*x - 0.5)
	case x > 0:
		k = int(log2e*x + 0.5)
	}
	hi := x - float64(k)*ln2Hi
	lo := float64(k) * ln2Lo
	return expmulti(hi, lo, k)
}

// expmulti returns e**r * 2**k with r = hi - lo.
func expmulti(hi, lo float64, k int) float64 {
	const (
		p1 = 1.66666666666666657415e-01
		p2 = -2.77777777770155933842e-03
		p3 = 6.61375632143793436117e-05
		p4 = -1.65339022054652515390e-06
		p5 = 4.13813679705723846039e-08
	)
	r := hi - lo
	t := r * r
	c := r - t*(p1+t*(p2+t*(p3+t*(p4+t*p5))))
	y := 1 - ((lo - (r*c)/(2-c)) - hi)
	return math.Ldexp(y, k)
}

// Log returns the natural logarithm of x: Log(+Inf) = +Inf, Log(0) = -Inf,
// Log(x < 0) = NaN. Reduction x = 2**k (1+f), sqrt(2)/2 < 1+f < sqrt(2), then
// log(1+f) = 2s + s R(s*s) with s = f/(2+f) and R a degree-14 polynomial.
func Log(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		l1    = 6.666666666666735130e-01
		l2    = 3.999999999940941908e-01
		l3    = 2.857142874366239149e-01
		l4    = 2.222219843214978396e-01
		l5    = 1.818357216161805012e-01
		l6    = 1.531383769920937332e-01
		l7    = 1.479819860511658591e-01
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := s * s
	s4 := s2 * s2
	t1 := s2 * (l1 + s4*(l3+s4*(l5+s4*l7)))
	t2 := s4 * (l2 + s4*(l4+s4*l6))
	R := t1 + t2
	hfsq := 0.5 * f * f
	return k*ln2Hi - ((hfsq - (s*(hfsq+R) + k*ln2Lo)) - f)
}

// Erfc returns the complementary error function 1 - erf(x), by the rational
// approximations of FreeBSD's s_erf.c on |x| < 0.84375, < 1.25, < 1/0.35 and
// < 28, with exp(-x*x) split for accuracy; Erfc(+Inf) = 0, Erfc(-Inf) = 2.
func Erfc(x float64) float64 {
	const (
		erx  = 8.45062911510467529297e-01
		pp0  = 1.28379167095512558561e-01
		pp1  = -3.25042107247001499370e-01
		pp2  = -2.84817495755985104766e-02
		pp3  = -5.77027029648944159157e-03
		pp4  = -2.37630166566501626084e-05
		qq1  = 3.97917223959155352819e-01
		qq2  = 6.50222499887672944485e-02
		qq3  = 5.08130628187576562776e-03
		qq4  = 1.32494738004321644526e-04
		qq5  = -3.96022827877536812320e-06
		pa0  = -2.36211856075265944077e-03
		pa1  = 4.14856118683748331666e-01
		pa2  = -3.72207876035701323847e-01
		pa3  = 3.18346619901161753674e-01
		pa4  = -1.10894694282396677476e-01
		pa5  = 3.54783043256182359371e-02
		pa6  = -2.16637559486879084300e-03
		qa1  = 1.06420880400844228286e-01
		qa2  = 5.40397917702171048937e-01
		qa3  = 7.18286544141962662868e-02
		qa4  = 1.26171219808761642112e-01
		qa5  = 1.36370839120290507362e-02
		qa6  = 1.19844998467991074170e-02
		ra0  = -9.86494403484714822705e-03
		ra1  = -6.93858572707181764372e-01
		ra2  = -1.05586262253232909814e+01
		ra3  = -6.23753324503260060396e+01
		ra4  = -1.62396669462573470355e+02
		ra5  = -1.84605092906711035994e+02
		ra6  = -8.12874355063065934246e+01
		ra7  = -9.81432934416914548592e+00
		sa1  = 1.96512716674392571292e+01
		sa2  = 1.37657754143519042600e+02
		sa3  = 4.34565877475229228821e+02
		sa4  = 6.45387271733267880336e+02
		sa5  = 4.29008140027567833386e+02
		sa6  = 1.08635005541779435134e+02
		sa7  = 6.57024977031928170135e+00
		sa8  = -6.04244152148580987438e-02
		rb0  = -9.86494292470009928597e-03
		rb1  = -7.99283237680523006574e-01
		rb2  = -1.77579549177547519889e+01
		rb3  = -1.60636384855821916062e+02
		rb4  = -6.37566443368389627722e+02
		rb5  = -1.02509513161107724954e+03
		rb6  = -4.83519191608651397019e+02
		sb1  = 3.03380607434824582924e+01
		sb2  = 3.25792512996573918826e+02
		sb3  = 1.53672958608443695994e+03
		sb4  = 3.19985821950859553908e+03
		sb5  = 2.55305040643316442583e+03
		sb6  = 4.74528541206955367215e+02
		sb7  = -2.24409524465858183362e+01
		tiny = 1.0 / (1 << 56)
	)
	switch {
	case math.IsNaN(x):
		return math.NaN()
	case math.IsInf(x, 1):
		return 0
	case math.IsInf(x, -1):
		return 2
	}
	sign := false
	if x < 0 {
		x = -x
		sign = true
	}
	if x < 0.84375 {
		var temp float64
		if x < tiny {
			temp = x
		} else {
			z := x * x
			r := pp0 + z*(pp1+z*(pp2+z*(pp3+z*pp4)))
			s := 1 + z*(qq1+z*(qq2+z*(qq3+z*(qq4+z*qq5))))
			y := r / s
			if x < 0.25 {
				temp = x + x*y
			} else {
				temp = 0.5 + (x*y + (x - 0.5))
			}
		}
		if sign {
			return 1 + temp
		}
		return 1 - temp
	}
	if x < 1.25 {
		s := x - 1
		p := pa0 + s*(pa1+s*(pa2+s*(pa3+s*(pa4+s*(pa5+s*pa6)))))
		q := 1 + s*(qa1+s*(qa2+s*(qa3+s*(qa4+s*(qa5+s*qa6)))))
		if sign {
			return 1 + erx + p/q
		}
		return 1 - erx - p/q
	}
	if x < 28 {
		s := 1 / (x * x)
		var r, ss float64
		if x < 1/0.35 {
			r = ra0 + s*(ra1+s*(ra2+s*(ra3+s*(ra4+s*(ra5+s*(ra6+s*ra7))))))
			ss = 1 + s*(sa1+s*(sa2+s*(sa3+s*(sa4+s*(sa5+s*(sa6+s*(sa7+s*sa8)))))))
		} else {
			if sign && x > 6 {
				return 2
			}
			r = rb0 + s*(rb1+s*(rb2+s*(rb3+s*(rb4+s*(rb5+s*rb6)))))
			ss = 1 + s*(sb1+s*(sb2+s*(sb3+s*(sb4+s*(sb5+s*(sb6+s*sb7))))))
		}
		z := math.Float64frombits(math.Float64bits(x) & 0xffffffff00000000)
		e := Exp(-z*z-0.5625) * Exp((z-x)*(z+x)+r/ss)
		if sign {
			return 2 - e/x
		}
		return e / x
	}
	if sign {
		return 2
	}
	return 0
}

// Pow returns x**y for x > 0 as Exp(y Log(x)) (1 when y = 0, 0 when x = 0 and
// y > 0); it is less accurate than math.Pow (a few ulp for moderate y Log(x))
// but the same on every platform. Negative x gives NaN.
func Pow(x, y float64) float64 {
	switch {
	case y == 0:
		return 1
	case x == 0 && y > 0:
		return 0
	case x < 0 || math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	}
	return Exp(y * Log(x))
}
