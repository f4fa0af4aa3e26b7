package kde

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/scores"
)

// exactLCV is the direct O(n^2) leave-one-out log likelihood, the reference the
// binned criterion is checked against.
func exactLCV(x []float64, h float64) float64 {
	n := len(x)
	total := 0.0
	for i := range n {
		s := 0.0
		for j := range n {
			if j != i {
				z := (x[i] - x[j]) / h
				s += math.Exp(-z * z / 2)
			}
		}
		total += math.Log(s / (float64(n-1) * h * math.Sqrt(2*math.Pi)))
	}
	return total
}

// exactUCV is the direct O(n^2) least-squares cross-validation criterion.
func exactUCV(x []float64, h float64) float64 {
	n := float64(len(x))
	p2, p4 := 0.0, 0.0
	for i := range x {
		for j := range x {
			if j != i {
				z := (x[i] - x[j]) / h
				p2 += math.Exp(-z * z / 2)
				p4 += math.Exp(-z * z / 4)
			}
		}
	}
	return (n+p4)/(2*math.Sqrt(math.Pi)*n*n*h) - 2*p2/(math.Sqrt(2*math.Pi)*n*(n-1)*h)
}

// exactBandwidth runs the same search as the estimator on the exact criteria.
func exactBandwidth(x []float64, sel Selector) float64 {
	if sel == UCV {
		crit := func(h float64) float64 { return -exactUCV(x, h) }
		return searchBandwidth(x, crit, crit, ucvLow, ucvHigh)
	}
	crit := func(h float64) float64 { return exactLCV(x, h) }
	return searchBandwidth(x, crit, crit, lcvLow, lcvHigh)
}

// exactC is C_x by the direct sum of Phi over all incorrect scores.
func exactC(c float64, s []float64, h float64) float64 {
	sum := 0.0
	for _, v := range s {
		sum += 0.5 * math.Erfc((v-c)/(h*math.Sqrt2))
	}
	return sum / float64(len(s))
}

// simSample draws the paper's simulation (docs/formats.md §4 in spirit): k class
// centres and r points per class in d = 5 dimensions, points = centre + noise
// of variance sigma2, scores = Euclidean distances (lower is better).
func simSample(tb testing.TB, k, r int, sigma2 float64, seed uint64) *accuracy.Sample {
	tb.Helper()
	const d = 5
	rng := rand.New(rand.NewPCG(seed, 0x6b6465))
	centres := make([]float64, k*d)
	for i := range centres {
		centres[i] = rng.NormFloat64()
	}
	m := &scores.Matrix{Classes: make([]string, k)}
	for j := range k {
		m.Classes[j] = fmt.Sprintf("c%d", j)
	}
	x := make([]float64, d)
	sd := math.Sqrt(sigma2)
	for y := range k {
		for range r {
			for t := range d {
				x[t] = centres[y*d+t] + sd*rng.NormFloat64()
			}
			m.Labels = append(m.Labels, y)
			for j := range k {
				ss := 0.0
				for t := range d {
					dd := x[t] - centres[j*d+t]
					ss += dd * dd
				}
				m.Scores = append(m.Scores, math.Sqrt(ss))
			}
		}
	}
	s, _, err := accuracy.NewSample(m, scores.Lower)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestParseSelector(t *testing.T) {
	tests := []struct {
		in   string
		want Selector
		ok   bool
	}{
		{"lcv", LCV, true}, {"", LCV, true}, {"LCV", LCV, true},
		{"ucv", UCV, true}, {"UCV", UCV, true},
		{"bcv", LCV, false}, {"silverman", LCV, false},
	}
	for _, tt := range tests {
		got, err := ParseSelector(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseSelector(%q) = %v, %v; want %v, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
		if tt.ok && got.String() != strings.ToLower(cmp.Or(tt.in, "lcv")) {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
}

// TestKernelCDFSymmetric: incorrect scores placed symmetrically around the
// correct score add up to one half per pair for every h, since
// Phi(z) + Phi(-z) = 1; the one score that ties the correct score is a loss
// and adds 0, so C_x = 6/13.
func TestKernelCDFSymmetric(t *testing.T) {
	const c = 1.7
	var s []float64
	for _, d := range []float64{0.01, 0.3, 0.3, 1.2, 5, 40} {
		s = append(s, c-d, c+d)
	}
	s = append(s, c) // one tie at the centre: a loss
	slices.Sort(s)
	for _, h := range []float64{0, 1e-3, 0.1, 1, 10, 1e4} {
		if got := kernelCDF(c, s, h); math.Abs(got-6.0/13) > 1e-15 {
			t.Errorf("h=%g: C = %.17g, want 6/13", h, got)
		}
	}
}

// TestKernelCDFDirect holds the windowed C_x against the direct sum of Phi
// over all scores (the window only drops terms below 1e-16).
func TestKernelCDFDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	s := make([]float64, 300)
	for i := range s {
		s[i] = rng.NormFloat64() * 2
	}
	slices.Sort(s)
	for _, h := range []float64{0.01, 0.2, 1, 5} {
		for _, c := range []float64{-7, -1, 0, 0.5, 3, 9} {
			got, want := kernelCDF(c, s, h), exactC(c, s, h)
			if math.Abs(got-want) > 1e-14 {
				t.Errorf("h=%g c=%g: windowed %.17g, direct %.17g", h, c, got, want)
			}
		}
	}
	// One incorrect score: C = Phi((c - s)/h).
	if got, want := kernelCDF(1, []float64{0}, 0.5), 0.5*math.Erfc(-2/math.Sqrt2); math.Abs(got-want) > 1e-16 {
		t.Errorf("single score: %g, want Phi(2) = %g", got, want)
	}
}

// TestLCVNearSilverman: for a large normal sample the LCV bandwidth is close
// to the normal-reference (Silverman) bandwidth 1.06 sd n^(-1/5). CV bandwidths
// converge slowly (relative error O(n^(-1/10))), so the check is on the median
// over 9 samples of n = 2000, within 15%.
func TestLCVNearSilverman(t *testing.T) {
	const n = 2000
	ws := newWorkspace()
	var ratios []float64
	for seed := range uint64(9) {
		rng := rand.New(rand.NewPCG(seed, 11))
		x := make([]float64, n)
		for i := range x {
			x[i] = 3 + 0.5*rng.NormFloat64()
		}
		slices.Sort(x)
		silverman := 1.06 * stat.StdDev(x, nil) * math.Pow(n, -0.2)
		ratios = append(ratios, ws.bandwidth(x, LCV)/silverman)
	}
	slices.Sort(ratios)
	if med := ratios[len(ratios)/2]; math.Abs(med-1) > 0.15 {
		t.Errorf("median h_LCV / h_Silverman = %.3f (all %.3f), want within 15%% of 1", med, ratios)
	}
}

// TestBinnedMatchesExact holds the fast (binned) bandwidth search against the
// same search on the direct O(n^2) criteria. Stated tolerance: per point
// |C_fast - C_exact| <= 3e-3; the median |log(h_fast/h_exact)| <= 0.02; the
// RMSE (k = 2..2000) between the curves <= 3e-3 (pilots of N = 120, n = 59 and
// N = 50 of 200, n = 199, extrapolated to 2000 classes).
func TestBinnedMatchesExact(t *testing.T) {
	for _, tc := range []struct {
		k, r, every int
		sigma2      float64
		curveTol    float64
	}{
		{k: 60, r: 2, every: 1, sigma2: 0.1, curveTol: 3e-3},
		{k: 200, r: 1, every: 4, sigma2: 0.2, curveTol: 3e-3},
	} {
		s := simSample(t, tc.k, tc.r, tc.sigma2, uint64(tc.k))
		for _, sel := range []Selector{LCV, UCV} {
			ws := newWorkspace()
			var cf, ce, w, dlogh []float64
			for i := 0; i < s.N(); i += tc.every {
				x := s.IncorrectRow(i)
				hf, he := ws.bandwidth(x, sel), exactBandwidth(x, sel)
				cf = append(cf, kernelCDF(s.Correct[i], x, hf))
				ce = append(ce, exactC(s.Correct[i], x, he))
				w = append(w, s.Weight[i])
				dlogh = append(dlogh, math.Abs(math.Log(hf/he)))
				if d := math.Abs(cf[len(cf)-1] - ce[len(ce)-1]); d > 3e-3 {
					t.Errorf("k=%d %v point %d: C fast %.5f exact %.5f (h %.4g vs %.4g)", tc.k, sel, i, cf[len(cf)-1], ce[len(ce)-1], hf, he)
				}
			}
			ef, ee := accuracy.Expected(cf, w, 2000), accuracy.Expected(ce, w, 2000)
			maxd := 0.0
			for k := 2; k <= 2000; k++ {
				maxd = max(maxd, math.Abs(ef[k]-ee[k]))
			}
			rmse := accuracy.RMSE(ef, ee)
			slices.Sort(dlogh)
			med := dlogh[len(dlogh)/2]
			t.Logf("k=%d %v: curve RMSE %.2e, max|dE_k| %.2e, median |dlog h| %.4f", tc.k, sel, rmse, maxd, med)
			if rmse > tc.curveTol || med > 0.02 {
				t.Errorf("k=%d %v: curve RMSE %.2e (tol %.0e), median |dlog h| %.4f (tol 0.02)", tc.k, sel, rmse, tc.curveTol, med)
			}
		}
	}
}

// TestDegenerate: fewer than two distinct incorrect scores give h = 0 and the
// empirical CDF with ties counted as losses (the share of incorrect scores
// strictly below the correct one, as R_x counts).
func TestDegenerate(t *testing.T) {
	ws := newWorkspace()
	for _, tc := range []struct {
		x    []float64
		c, C float64
	}{
		{[]float64{2}, 3, 1}, {[]float64{2}, 1, 0}, {[]float64{2}, 2, 0},
		{[]float64{1, 1, 1}, 1, 0}, {[]float64{1, 1, 1, 1}, 5, 1},
	} {
		for _, sel := range []Selector{LCV, UCV} {
			h := ws.bandwidth(tc.x, sel)
			if got := kernelCDF(tc.c, tc.x, h); h != 0 || got != tc.C {
				t.Errorf("%v x=%v c=%g: h=%g C=%g, want h=0 C=%g", sel, tc.x, tc.c, h, got, tc.C)
			}
		}
	}
}

// TestCurveShape: the curve is 1 at k = 0, 1, lies in [0, 1], is non-increasing,
// and E_2 equals sum_x w_x C_x.
func TestCurveShape(t *testing.T) {
	s := simSample(t, 40, 3, 0.2, 3)
	for _, sel := range []Selector{LCV, UCV} {
		var steps []int
		res, err := Estimator{Bandwidth: sel}.Fit(context.Background(), s, 500, func(p estimate.Progress) {
			steps = append(steps, p.Step)
			if p.Method != "kde" || p.Total != s.N() || !math.IsNaN(p.Loss) {
				t.Errorf("progress %+v", p)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Curve
		if c.Max() != 500 || c[0] != 1 || c[1] != 1 || len(res.C) != s.N() {
			t.Fatalf("%v: curve length %d, C length %d", sel, len(c), len(res.C))
		}
		for k := 2; k <= 500; k++ {
			if c[k] < 0 || c[k] > 1 || c[k] > c[k-1] {
				t.Fatalf("%v: curve[%d] = %g after %g", sel, k, c[k], c[k-1])
			}
		}
		if want := accuracy.RAUC(res.C, s.Weight); math.Abs(c[2]-want) > 1e-12 {
			t.Errorf("%v: E_2 = %g, sum w C = %g", sel, c[2], want)
		}
		if len(steps) == 0 || steps[len(steps)-1] != s.N() {
			t.Errorf("%v: progress steps %v, want the last = %d", sel, steps, s.N())
		}
	}
}

// cancelAfter is a context whose Err turns to Canceled after n calls.
type cancelAfter struct {
	context.Context
	n *int
}

func (c cancelAfter) Err() error {
	*c.n--
	if *c.n < 0 {
		return context.Canceled
	}
	return nil
}

func TestCancel(t *testing.T) {
	s := simSample(t, 100, 2, 0.1, 5)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Estimator{}).Fit(ctx, s, 100, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: err = %v", err)
	}
	n := 2 // the first check and one in-loop check pass, the next fails
	if _, err := (Estimator{}).Fit(cancelAfter{context.Background(), &n}, s, 100, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled during: err = %v", err)
	}
	if _, err := (Estimator{Bandwidth: Selector(9)}).Fit(context.Background(), s, 100, nil); err == nil {
		t.Error("unknown selector: no error")
	}
}

func BenchmarkFit(b *testing.B) {
	for _, k1 := range []int{100, 500} {
		s := simSample(b, k1, 10, 0.1, 42)
		b.Run(fmt.Sprintf("k1=%d", k1), func(b *testing.B) {
			for b.Loop() {
				if _, err := (Estimator{}).Fit(context.Background(), s, 2000, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSameEverywhere pins a hash of two fits' bits: the native and the wasm
// test runs (./build.sh test runs both) check the same value, so the command
// line and the browser give the same KDE curve to the last bit.
func TestSameEverywhere(t *testing.T) {
	s := simSample(t, 40, 5, 0.2, 7)
	h := fnv.New64a()
	for _, sel := range []Selector{LCV, UCV} {
		res, err := Estimator{Bandwidth: sel}.Fit(context.Background(), s, 400, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range append(res.C, res.Curve...) {
			binary.Write(h, binary.LittleEndian, math.Float64bits(v))
		}
	}
	const want = 0x48432de62c974aa
	if got := h.Sum64(); got != want {
		t.Errorf("hash of the fits = %#x, want %#x (platform-dependent arithmetic crept in)", got, uint64(want))
	}
}

// TestFrexpNormal compares frexpNormal with math.Frexp on normal numbers.
func TestFrexpNormal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	xs := []float64{math.SmallestNonzeroFloat64 * (1 << 52), 0.5, 1, 3, math.MaxFloat64}
	for range 10000 {
		xs = append(xs, math.Ldexp(1+rng.Float64(), rng.IntN(2000)-1000))
	}
	for _, x := range xs {
		f1, e1 := frexpNormal(x)
		f2, e2 := math.Frexp(x)
		if f1 != f2 || e1 != e2 {
			t.Fatalf("frexpNormal(%v) = %v, %d; math.Frexp %v, %d", x, f1, e1, f2, e2)
		}
	}
}

// BenchmarkPointScorer computes one point's C_x (LCV bandwidth) from a row
// of 9,999 incorrect scores, as for a pilot of 10,000 classes.
func BenchmarkPointScorer(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	inc := make([]float64, 9999)
	for i := range inc {
		inc[i] = rng.NormFloat64()
	}
	slices.Sort(inc)
	ps := Estimator{Bandwidth: LCV}.NewPointScorer(len(inc) + 1)
	for b.Loop() {
		below, _ := slices.BinarySearch(inc, 1.5)
		ps.C(1.5, inc, below)
	}
}
