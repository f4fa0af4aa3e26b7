package regress

import (
	"context"
	"fmt"
	"math"
	"testing"
)

func mustBasis(t testing.TB, mus []float64, s float64, kmax int) *basis {
	t.Helper()
	b, err := newBasis(context.Background(), mus, s, kmax)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBasisAtTwoClasses: E[Phi(Z)] = Phi(mu / sqrt(1 + s^2)) for Z ~ N(mu, s^2).
func TestBasisAtTwoClasses(t *testing.T) {
	for _, s := range Bandwidths() {
		mus := meanGrid(muMax(2000), s)
		b := mustBasis(t, mus, s, 2)
		for j, mu := range mus {
			want := normCDF(mu / math.Sqrt(1+s*s))
			if got := b.row(2)[j]; math.Abs(got-want) > 1e-12 {
				t.Errorf("s = %.1f, mu = %.4f: b(2) = %.16g, closed form %.16g (diff %.2g)", s, mu, got, want, got-want)
			}
		}
		if c := b.row(2)[b.cols-1]; c != 1 {
			t.Errorf("s = %.1f: constant column = %g, want 1", s, c)
		}
	}
}

// simpsonBasis is the brute-force reference: composite Simpson on
// z in [-12, 12] with 48,000 panels, each power evaluated as
// exp((k-1) log Phi(x)) with log Phi(x) = log1p(-Phi(-x)) in the upper tail.
func simpsonBasis(mu, s float64, ks []int) []float64 {
	const zmax, panels = 12.0, 48000
	h := 2 * zmax / panels
	out := make([]float64, len(ks))
	for i := 0; i <= panels; i++ {
		z := -zmax + float64(i)*h
		c := 2.0
		switch {
		case i == 0 || i == panels:
			c = 1
		case i%2 == 1:
			c = 4
		}
		w := c * h / 3 * math.Exp(-z*z/2) / math.Sqrt(2*math.Pi)
		x := mu + s*z
		var lq float64
		if x > 0 {
			lq = math.Log1p(-normCDF(-x))
		} else {
			lq = math.Log(normCDF(x))
		}
		for j, k := range ks {
			out[j] += w * math.Exp(float64(k-1)*lq)
		}
	}
	return out
}

// TestBasisQuadrature holds the trapezoid basis against brute-force Simpson
// integration, at the means and bandwidths the fits use (k1 up to 1000) and k
// up to 20,000, where Phi(mu + s z)^(k-1) is sharpest.
func TestBasisQuadrature(t *testing.T) {
	if testing.Short() {
		t.Skip("brute-force integrals")
	}
	ks := []int{2, 3, 10, 100, 500, 2000, 20000}
	kmax := ks[len(ks)-1]
	const tol = 1e-11
	for _, s := range []float64{0.1, 0.3, 0.5, 0.8, 1.0} {
		mus := []float64{-muMax(1000), -2, 0, 1.5, 3, muMax(100), muMax(1000)}
		b := mustBasis(t, mus, s, kmax)
		for j, mu := range mus {
			want := simpsonBasis(mu, s, ks)
			for i, k := range ks {
				got := b.row(k)[j]
				if d := math.Abs(got - want[i]); d > tol {
					t.Errorf("s = %.1f, mu = %.3f, k = %d: quadrature %.15g, Simpson %.15g (diff %.2g > %g)", s, mu, k, got, want[i], d, tol)
				}
			}
		}
	}
}

func TestBasisIsNonIncreasingInK(t *testing.T) {
	for _, s := range []float64{0.1, 1.0} {
		b := mustBasis(t, meanGrid(muMax(500), s), s, 3000)
		for j := range b.cols {
			prev := 1.0
			for k := 2; k <= b.kmax; k++ {
				v := b.row(k)[j]
				if v > prev || v < 0 {
					t.Fatalf("s = %.1f, column %d: b(%d) = %.17g after %.17g", s, j, k, v, prev)
				}
				prev = v
			}
		}
	}
}

func TestMeanGrid(t *testing.T) {
	for _, k1 := range []int{3, 10, 100, 500, 5000} {
		top := muMax(k1)
		if want := -normQuantileLow(k1); math.Abs(top-want) > 1e-9 {
			t.Errorf("k1 = %d: muMax = %g, want %g", k1, top, want)
		}
		for _, s := range Bandwidths() {
			name := fmt.Sprintf("k1=%d,s=%.1f", k1, s)
			g := meanGrid(top, s)
			n := int(math.Ceil(top / s))
			if n <= 1 {
				if len(g) != 1 || g[0] != 0 {
					t.Errorf("%s: grid %v, want [0]", name, g)
				}
				continue
			}
			if len(g) != 2*n-1 {
				t.Errorf("%s: %d means, want %d", name, len(g), 2*n-1)
			}
			if math.Abs(g[0]+top) > 1e-12 || math.Abs(g[len(g)-1]-top) > 1e-12 {
				t.Errorf("%s: grid runs %g..%g, want %g..%g", name, g[0], g[len(g)-1], -top, top)
			}
			for i := 1; i < len(g); i++ {
				d := g[i] - g[i-1]
				if d < s-1e-12 || math.Abs(d-top/float64(n-1)) > 1e-12 {
					t.Errorf("%s: spacing %g, want muMax/(n-1) = %g >= s", name, d, top/float64(n-1))
					break
				}
			}
		}
	}
}

// normQuantileLow returns Phi^-1(1/k1^2) by bisection on normCDF.
func normQuantileLow(k1 int) float64 {
	p := 1 / (float64(k1) * float64(k1))
	lo, hi := -40.0, 0.0
	for range 200 {
		mid := (lo + hi) / 2
		if normCDF(mid) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// TestMixtureCurveMatchesBasis checks that the curve computed column by column
// equals min(1, basis.predict) exactly, and that it honours cancellation.
func TestMixtureCurveMatchesBasis(t *testing.T) {
	const s, k2 = 0.3, 1500
	mus := meanGrid(muMax(100), s)
	b := mustBasis(t, mus, s, k2)
	coef := make([]float64, b.cols)
	coef[2], coef[len(mus)/2], coef[len(mus)-3], coef[len(mus)] = 0.2, 0.5, 0.25, 0.08
	c, err := mixtureCurve(context.Background(), mus, s, coef, k2)
	if err != nil {
		t.Fatal(err)
	}
	if c.Max() != k2 || c[0] != 1 || c[1] != 1 {
		t.Fatalf("curve covers 0..%d, starts %g %g", c.Max(), c[0], c[1])
	}
	for k := 2; k <= k2; k++ {
		if want := math.Min(1, b.predict(coef, k)); c[k] != want {
			t.Fatalf("k = %d: mixtureCurve %.17g, predict %.17g", k, c[k], want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := mixtureCurve(ctx, mus, s, coef, k2); err != context.Canceled {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}
	if _, err := newBasis(ctx, mus, s, k2); err != context.Canceled {
		t.Errorf("newBasis cancelled: err = %v, want context.Canceled", err)
	}
}
