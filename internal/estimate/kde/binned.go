package kde

import (
	"github.com/cleanex/cleanex/internal/detmath"
	"math"
)

// binGrid is one binning resolution: c bins per kernel bandwidth hb, with the
// kernel tables on bin offsets, which do not depend on h.
//
// The two linear-binning steps (spreading a source over two bins, and
// interpolating the target between two bins) each add the variance
// u(1-u) delta^2, delta^2/6 on average, to the kernel. So the tables are built
// such that the effective kernels have the intended variance: the LCV kernel
// exp(-z^2/2) runs at hb = h / sqrt(1 + 1/(3 c^2)) (variance hb^2 + delta^2/3 =
// h^2), and the UCV convolution kernel exp(-z^2/4) at variance
// 2 h^2 - delta^2/3 before binning; each binned sum is rescaled by the ratio of
// the kernel masses.
type binGrid struct {
	// c is the number of bins per hb (delta = hb / c).
	c float64
	// g2[k] = exp(-(k/c)^2/2): the kernel at hb at k bins.
	g2 []float64
	// g4[k] = exp(-k^2 / (2 v4)), v4 = 2 c^2 + 1/3 (in bins^2): the UCV
	// convolution kernel.
	g4 []float64
	// scale2 = h/hb and scale4 = sqrt(2 h^2 / (v4 delta^2)): mass ratios of
	// the target kernels to the binned ones.
	scale2, scale4 float64
}

func newBinGrid(c float64) binGrid {
	v4 := 2*c*c + 1.0/3
	g := binGrid{
		c:      c,
		g2:     make([]float64, int(math.Ceil(lcvCut*c))+1),
		g4:     make([]float64, int(math.Ceil(ucvCut*math.Sqrt(v4/2)))+1),
		scale2: math.Sqrt(1 + 1/(3*c*c)),
		scale4: math.Sqrt((2*c*c + 2.0/3) / v4),
	}
	for k := range g.g2 {
		z := float64(k) / c
		g.g2[k] = detmath.Exp(-z * z / 2)
	}
	for k := range g.g4 {
		g.g4[k] = detmath.Exp(-float64(k*k) / (2 * v4))
	}
	return g
}

// workspace holds the buffers of the binned cross-validation criteria, reused
// across points (one per Fit; not safe for concurrent use).
type workspace struct {
	// coarse and fine are the binning resolutions of the LCV coarse grid
	// search and of its Brent refinement. UCV, flat near its minimum and prone
	// to spurious local minima, uses fine on its grid and ucvFine for Brent.
	coarse, fine, ucvFine binGrid
	// wp holds the linearly binned weights with zero padding on each side.
	wp []float64
	// sums holds the binned kernel sums at the bins.
	sums []float64
	// bin and frac hold each score's bin and position in it.
	bin  []int
	frac []float64
}

func newWorkspace() *workspace {
	return &workspace{coarse: newBinGrid(coarseBinsPerH), fine: newBinGrid(fineBinsPerH), ucvFine: newBinGrid(ucvFineBinsPerH)}
}

// bandwidth returns the bandwidth the selector picks for the sorted scores x
// (0 when there are fewer than two distinct scores).
func (ws *workspace) bandwidth(x []float64, sel Selector) float64 {
	if sel == UCV {
		return searchBandwidth(x,
			func(h float64) float64 { return -ws.ucv(x, h, &ws.fine) },
			func(h float64) float64 { return -ws.ucv(x, h, &ws.ucvFine) }, ucvLow, ucvHigh)
	}
	return searchBandwidth(x,
		func(h float64) float64 { return ws.lcv(x, h, &ws.coarse) },
		func(h float64) float64 { return ws.lcv(x, h, &ws.fine) }, lcvLow, lcvHigh)
}

// binData spreads the sorted scores x over bins of width delta by linear
// binning (a score a fraction u into bin a puts 1-u on bin a and u on bin a+1).
// It returns the number of bins m; bin a lives at wp[pad+a].
func (ws *workspace) binData(x []float64, delta float64, pad int) (m int) {
	n := len(x)
	inv := 1 / delta
	x0 := x[0]
	m = int((x[n-1]-x0)*inv) + 2
	size := m + 2*pad
	if cap(ws.wp) < size {
		ws.wp = make([]float64, size)
		ws.sums = make([]float64, size)
	}
	ws.wp = ws.wp[:size]
	ws.sums = ws.sums[:size]
	clear(ws.wp)
	if cap(ws.bin) < n {
		ws.bin = make([]int, n)
		ws.frac = make([]float64, n)
	}
	bin, frac := ws.bin[:n], ws.frac[:n]
	ws.bin, ws.frac = bin, frac
	// Rounding is monotone, so every t is at most t(x[n-1]) and a <= m-2.
	w := ws.wp[pad : pad+m]
	// x is sorted, so the bins a come in non-decreasing order: the weights of
	// bins cur and cur+1 are carried in w0 and w1 and stored when a moves
	// on, adding every term in the order of x as w[a] += 1-u; w[a+1] += u
	// would, without a chain of stores and loads through memory.
	cur := 0
	w0, w1 := w[0], w[1]
	for i, v := range x {
		t := (v - x0) * inv
		a := int(t)
		u := t - float64(a)
		bin[i] = a
		frac[i] = u
		if a != cur {
			w[cur], w[cur+1] = w0, w1
			cur = a
			w0, w1 = w[a], w[a+1]
		}
		w0 += 1 - u
		w1 += u
	}
	w[cur], w[cur+1] = w0, w1
	return m
}

// lcv returns the leave-one-out log likelihood
//
//	sum_i log( (1/((n-1) h)) sum_{j != i} phi((x_i - x_j)/h) )
//
// of the sorted scores x at bandwidth h, from the binned kernel sums of grid g
// (kernel bandwidth hb, see binGrid). A point's own binned contribution,
// (1-u)((1-u) + u g1) + u(u + (1-u) g1) with g1 = exp(-1/(2 c^2)), is
// subtracted exactly; terms whose remaining sum is below exactBelow (no
// neighbour within about 2.4 h, where binning is least accurate relatively) are
// recomputed by the exact direct sum at h.
func (ws *workspace) lcv(x []float64, h float64, grid *binGrid) float64 {
	n := len(x)
	hb := h / grid.scale2
	g := grid.g2
	l := len(g) - 1
	pad := l
	m := ws.binData(x, hb/grid.c, pad)
	wp, sums := ws.wp, ws.sums
	for a := pad; a < pad+m; a++ {
		if wp[a] == 0 {
			continue
		}
		s := g[0] * wp[a]
		// s += g[k] (wp[a-k] + wp[a+k]), k = 1..l, written with slices of
		// one length so the compiler drops the bounds checks.
		right := wp[a+1 : a+l+1]
		left := wp[a-l : a][:len(right)]
		gk := g[1:][:len(right)]
		for k, rv := range right {
			s += gk[k] * (left[len(left)-1-k] + rv)
		}
		sums[a] = s
	}
	selfCoef := 2 * (1 - g[1])
	// Binned terms lie in [exactBelow, n]: a product of 8 of them stays far
	// inside float64's range, so their logs are summed as one product whose
	// binary exponent is moved to exp2 every 8 factors (one math.Log in all).
	logSum, prod, inProd, nExact, exp2 := 0.0, 1.0, 0, 0, 0
	s := sums[pad : pad+m]
	frac := ws.frac[:n]
	for i, a := range ws.bin[:n] {
		u := frac[i]
		// a+1 <= m-1; where u = 0 the sum at a+1 (maybe stale) has weight 0.
		// Interpolated sum minus the point's own binned contribution
		// (1-u)((1-u) + u g1) + u(u + (1-u) g1) = 1 - 2u(1-u)(1-g1).
		sa := s[a]
		v := sa + u*(s[a+1]-sa) - 1 + u*(1-u)*selfCoef
		if v < exactBelow {
			nExact++
			logSum += detmath.Log(looKernelSum(x, i, h)) // -Inf when isolated
			continue
		}
		prod *= v
		inProd++
		if inProd == 8 {
			fr, e := frexpNormal(prod)
			prod, inProd = fr, 0
			exp2 += e
		}
	}
	logSum += detmath.Log(prod) + float64(exp2)*math.Ln2
	nb := float64(n - nExact)
	return logSum - nb*detmath.Log(hb) - float64(nExact)*detmath.Log(h) - float64(n)*detmath.Log(float64(n-1)*math.Sqrt(2*math.Pi))
}

// looKernelSum returns sum_{j != i} exp(-((x_i - x_j)/h)^2/2) over the sorted
// scores x, skipping the terms below 1e-16 (|x_i - x_j| > 8.6 h).
func looKernelSum(x []float64, i int, h float64) float64 {
	xi, reach := x[i], kernCut*h
	s := 0.0
	for j := i - 1; j >= 0 && xi-x[j] <= reach; j-- {
		z := (xi - x[j]) / h
		s += detmath.Exp(-z * z / 2)
	}
	for j := i + 1; j < len(x) && x[j]-xi <= reach; j++ {
		z := (x[j] - xi) / h
		s += detmath.Exp(-z * z / 2)
	}
	return s
}

// ucv returns the least-squares cross-validation criterion
//
//	UCV(h) = int fhat^2 - (2/n) sum_i fhat_{-i}(x_i)
//	       = (n + P4) / (2 sqrt(pi) n^2 h) - 2 P2 / (sqrt(2 pi) n (n-1) h),
//
// with P_c = sum_{i != j} exp(-(x_i - x_j)^2 / (c h^2)), from the
// autocorrelation of the weights binned on grid g minus the exact binned
// self-pairs, rescaled by the kernel mass ratios (see binGrid).
func (ws *workspace) ucv(x []float64, h float64, grid *binGrid) float64 {
	n := len(x)
	l2, l4 := len(grid.g2)-1, len(grid.g4)-1
	pad := max(l2, l4)
	m := ws.binData(x, h/grid.scale2/grid.c, pad)
	wp := ws.wp
	// ac[k] = sum_a w_a w_{a+k}; reuse sums as its buffer.
	ac := ws.sums[:l4+1]
	clear(ac)
	for a := pad; a < pad+m; a++ {
		wa := wp[a]
		if wa == 0 {
			continue
		}
		row := wp[a : a+l4+1]
		for k, v := range row {
			ac[k] += wa * v
		}
	}
	// Self pairs of the binned data: sum_i [(1-u)^2 + u^2 + 2u(1-u) g(1)].
	q := 0.0
	for _, u := range ws.frac {
		q += 2 * u * (1 - u)
	}
	fn := float64(n)
	p2 := ac[0] - (fn - q + q*grid.g2[1])
	for k := 1; k <= l2; k++ {
		p2 += 2 * ac[k] * grid.g2[k]
	}
	p4 := ac[0] - (fn - q + q*grid.g4[1])
	for k := 1; k <= l4; k++ {
		p4 += 2 * ac[k] * grid.g4[k]
	}
	p2 *= grid.scale2
	p4 *= grid.scale4
	return (fn+p4)/(2*math.Sqrt(math.Pi)*fn*fn*h) - 2*p2/(math.Sqrt(2*math.Pi)*fn*(fn-1)*h)
}

// frexpNormal is math.Frexp for a normal x > 0 (as every product of binned
// terms is: they lie in [exactBelow, n]), from its bits: x = fr 2^e with fr
// in [1/2, 1). Written by hand because math.Frexp, which also handles zeros,
// subnormals and infinities, is a function call costing several percent of
// a wasm summary.
func frexpNormal(x float64) (fr float64, e int) {
	b := math.Float64bits(x)
	e = int(b>>52&0x7ff) - 1022
	return math.Float64frombits(b&^(0x7ff<<52) | 1022<<52), e
}
