package recommend

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
)

// constCurve returns the curve c_k = v for k = 2..n (c_0 = c_1 = 1).
func constCurve(v float64, n int) accuracy.Curve {
	c := make(accuracy.Curve, n+1)
	for k := range c {
		c[k] = v
		if k < 2 {
			c[k] = 1
		}
	}
	return c
}

// logitOf is log(p / (1 - p)) with p clamped to [eps, 1 - eps], written out
// here as the package doc states it.
func logitOf(p, eps float64) float64 {
	p = math.Max(eps, math.Min(1-eps, p))
	return math.Log(p) - math.Log1p(-p)
}

// Every curve of the result is non-increasing from k = 2 on, the first step
// (k = 2 to 3) included, even when the methods' curves rise there: here a
// pilot of 2 classes whose methods rise from its 0.8 at k = 2 to 0.85 at 3.
func TestResultNonIncreasingFromTwo(t *testing.T) {
	const k1, k2 = 2, 12
	rising := func(shift float64) accuracy.Curve {
		c := constCurve(0.8, k2)
		for k := 3; k <= k2; k++ {
			c[k] = 0.85 + shift - 0.01*float64(k-3)
		}
		return c
	}
	f := Fits{K1: k1, N: 200, Observed: accuracy.Curve{1, 1, 0.8}, ClassSE: accuracy.Curve{0, 0, 0.01},
		Regression: rising(0), Pooled: rising(0.01), Tail: rising(-0.01)}
	cal := Calibration{Coef: [NumCoef]float64{0.05}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
	res, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]accuracy.Curve{"estimate": res.Estimate, "middle": res.Middle, "centre": res.Centre, "lo": res.Lo, "hi": res.Hi} {
		for k := 3; k <= k2; k++ {
			if c[k] > c[k-1] {
				t.Errorf("%s rises from %v at k = %d to %v at k = %d", name, c[k-1], k-1, c[k], k)
			}
		}
	}
}

// From k1 to 2 k1 the interval holds, on each side, fade times its reach
// beyond the estimate at k1 (fade = 1 - log(k / k1) / log 2), and no more
// when the calibrated interval and the Wilson interval reach less: here the
// calibrated quantiles shrink from ±3 at L = 0 to ±1 from L = 0.1 on, so
// the faded hold is what sets the band for a while. Each bound is
// recomputed from the package doc's rule and then made non-increasing in k.
func TestFadedHoldBeyondPilot(t *testing.T) {
	const k1, k2, n = 100, 400, 2000
	const a0 = 0.3
	cal := Calibration{Coef: [NumCoef]float64{a0}, Knots: []float64{0, 0.1}, QLo: []float64{-3, -1}, QHi: []float64{3, 1}}
	curve := func(shift float64) accuracy.Curve { return lineCurve(k2, shift) }
	f := Fits{K1: k1, N: n, Observed: curve(0)[:k1+1], ClassSE: make(accuracy.Curve, k1+1),
		Regression: curve(0.05), Pooled: curve(0.06), Tail: curve(0.055), CleaneX: []accuracy.Curve{curve(0.05)}}
	res, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	sig := func(z float64) float64 { return 1 / (1 + math.Exp(-z)) }
	a := f.Observed[k1]
	wlo, whi := wilson(a, n)
	e1 := res.Estimate[k1]
	reachLo, reachHi := e1-res.Lo[k1], res.Hi[k1]-e1
	lo, hi := res.Lo[k1], res.Hi[k1]
	bound := false
	for k := k1 + 1; k < 2*k1; k++ {
		l := math.Log(float64(k) / k1)
		fade := 1 - l/math.Ln2
		q := 1.0
		if l < 0.1 {
			q = 3 - 2*l/0.1
		}
		e := res.Estimate[k]
		z := logitOf(e, 0.5/n)
		rawLo := math.Max(0, math.Min(math.Min(sig(z-q*a0), e-(a-wlo)), e-fade*reachLo))
		rawHi := math.Min(1, math.Max(math.Max(sig(z+q*a0), e+(whi-a)), e+fade*reachHi))
		bound = bound || e-fade*reachLo < math.Min(sig(z-q*a0), e-(a-wlo))
		lo, hi = math.Min(lo, rawLo), math.Min(hi, rawHi)
		if math.Abs(res.Lo[k]-lo) > 1e-12 || math.Abs(res.Hi[k]-hi) > 1e-12 {
			t.Errorf("k = %d: interval [%.15g, %.15g], want [%.15g, %.15g]", k, res.Lo[k], res.Hi[k], lo, hi)
		}
	}
	if !bound {
		t.Error("the faded hold never set the lower bound: the test does not test it")
	}
}

// The floor beyond the calibrated population is measured from P =
// max(Population, k1), on each side with its own rate: at k2 the bounds are
// sigma(logit est -/+ Floor log(k2 / P)) exactly when the floor is wider
// than the rest, and Floored says so even when only the upper side widens.
func TestFloorExactAtK2(t *testing.T) {
	sig := func(z float64) float64 { return 1 / (1 + math.Exp(-z)) }
	for _, tc := range []struct {
		name                 string
		k1, k2, population   int
		floorLo, floorHi     float64
		wantLoFloor, floored bool
	}{
		{"population above k1", 20, 200, 50, 0.6, 0.8, true, true},
		{"k1 above population", 100, 400, 50, 0.6, 0.8, true, true},
		{"upper side only", 20, 200, 50, 0, 0.8, false, true},
	} {
		se := make(accuracy.Curve, tc.k1+1)
		for k := 2; k <= tc.k1; k++ {
			se[k] = 0.001
		}
		f := Fits{K1: tc.k1, N: 20000, Observed: geometric(0.999, tc.k1), ClassSE: se,
			Regression: geometric(0.9991, tc.k2), Pooled: geometric(0.9988, tc.k2), Tail: geometric(0.9989, tc.k2),
			CleaneX: []accuracy.Curve{geometric(0.999, tc.k2), geometric(0.9992, tc.k2)}}
		base := Calibration{Coef: [NumCoef]float64{0.01}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
		cal := base
		cal.Population, cal.FloorLo, cal.FloorHi = tc.population, tc.floorLo, tc.floorHi
		without, err := Recommend(f, tc.k2, base)
		if err != nil {
			t.Fatal(err)
		}
		with, err := Recommend(f, tc.k2, cal)
		if err != nil {
			t.Fatal(err)
		}
		p := max(tc.population, tc.k1)
		for k := 2; k <= p; k++ {
			if with.Lo[k] != without.Lo[k] || with.Hi[k] != without.Hi[k] {
				t.Fatalf("%s, k = %d: [%v, %v] with the floor, [%v, %v] without, want the same up to P = %d", tc.name, k, with.Lo[k], with.Hi[k], without.Lo[k], without.Hi[k], p)
			}
		}
		beyond := math.Log(float64(tc.k2) / float64(p))
		z := logitOf(with.Estimate[tc.k2], 0.5/float64(f.N))
		wantLo := without.Lo[tc.k2]
		if tc.wantLoFloor {
			wantLo = sig(z - tc.floorLo*beyond)
		}
		wantHi := sig(z + tc.floorHi*beyond)
		if (tc.wantLoFloor && !(wantLo < without.Lo[tc.k2])) || !(wantHi > without.Hi[tc.k2]) {
			t.Fatalf("%s: the floor [%v, %v] is not wider than the interval without it [%v, %v]: the test does not test it", tc.name, wantLo, wantHi, without.Lo[tc.k2], without.Hi[tc.k2])
		}
		if math.Abs(with.Lo[tc.k2]-wantLo) > 1e-12 || math.Abs(with.Hi[tc.k2]-wantHi) > 1e-12 {
			t.Errorf("%s: interval at k2 [%.15g, %.15g], want [%.15g, %.15g]", tc.name, with.Lo[tc.k2], with.Hi[tc.k2], wantLo, wantHi)
		}
		if with.Floored != tc.floored || without.Floored {
			t.Errorf("%s: Floored %v (without a floor %v), want %v", tc.name, with.Floored, without.Floored, tc.floored)
		}
	}
}

// D_k is the range, in the logit clamped at 0.5/N, of the median's members,
// KDE's curve and the estimate itself: where the pilot's own accuracy lies
// above every method (within the pilot and while the gap fades out) the
// range reaches up to the estimate.
func TestDisagreementTakesInTheEstimate(t *testing.T) {
	const k1, k2, n = 100, 400, 2000
	curve := func(shift float64) accuracy.Curve { return lineCurve(k2, shift) }
	f := Fits{K1: k1, N: n, Observed: curve(0)[:k1+1], ClassSE: make(accuracy.Curve, k1+1),
		Regression: curve(0.05), Pooled: curve(0.06), Tail: curve(0.055), KDE: curve(0.07),
		CleaneX: []accuracy.Curve{curve(0.045), curve(0.055)}}
	cal := Calibration{Coef: [NumCoef]float64{0.1}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
	res, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	above := 0
	for k := 2; k <= k2; k++ {
		zs := []float64{logitOf(res.Estimate[k], 0.5/n)}
		for _, c := range []accuracy.Curve{f.Regression, f.Pooled, f.Tail, f.KDE, MeanCurve(f.CleaneX, k2)} {
			zs = append(zs, logitOf(c[k], 0.5/n))
		}
		sort.Float64s(zs)
		if want := zs[len(zs)-1] - zs[0]; math.Abs(res.Features[k].D-want) > 1e-9 {
			t.Errorf("k = %d: D = %.12g, want %.12g", k, res.Features[k].D, want)
		}
		if res.Estimate[k] > f.Regression[k] {
			above++
		}
	}
	if above < k1 {
		t.Errorf("the estimate lies above the methods at %d values of k only: the test does not test it", above)
	}
}

// CentreLogit clamps at 0.5/N (the pilot cannot tell accuracies closer to 0
// or 1 apart), at 1e-6 when N is unknown or so large that 0.5/N is smaller;
// Logit always at 1e-6; both are finite at 0 and 1.
func TestLogitClamps(t *testing.T) {
	for _, tc := range []struct {
		n   int
		eps float64
	}{{100, 0.005}, {2000, 0.00025}, {0, 1e-6}, {10_000_000, 1e-6}} {
		f := Fits{N: tc.n}
		want := math.Log((1 - tc.eps) / tc.eps)
		if got := f.CentreLogit(1); math.Abs(got-want) > 1e-9 {
			t.Errorf("N = %d: CentreLogit(1) = %v, want log((1-eps)/eps) = %v, eps = %v", tc.n, got, want, tc.eps)
		}
		if got := f.CentreLogit(0); math.Abs(got+want) > 1e-9 {
			t.Errorf("N = %d: CentreLogit(0) = %v, want %v", tc.n, got, -want)
		}
		if got := f.CentreLogit(0.5); got != 0 {
			t.Errorf("N = %d: CentreLogit(1/2) = %v, want 0", tc.n, got)
		}
	}
	want := math.Log((1 - 1e-6) / 1e-6)
	if got := Logit(1); math.Abs(got-want) > 1e-9 {
		t.Errorf("Logit(1) = %v, want %v", got, want)
	}
	if got := Logit(0); math.Abs(got+want) > 1e-9 {
		t.Errorf("Logit(0) = %v, want %v", got, -want)
	}
}

// TestKnotQuantilesByL places every observation exactly at a knot L_j (or
// beyond the last knot): the triangle weights are then 1 at its own knot
// and 0 at every other, so each knot's quantiles are those of its own
// observations alone, standardised by the fitted sided scale, whatever the
// other knots hold. The residuals' spread grows with the knot, so any
// leak between knots moves the quantiles.
func TestKnotQuantilesByL(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	knots := []float64{0, 1, 2, 3}
	var obs []Observation
	for j := range knots {
		for i := range 300 {
			l := knots[j]
			if j == len(knots)-1 && i%3 == 0 {
				l += 0.5 + rng.Float64() // beyond the last knot: its weight stays 1
			}
			f := Features{SE: 0.1 + rng.Float64(), D: rng.Float64(), L: l}
			obs = append(obs, Observation{Z: 0, Y: math.Pow(2, float64(j)) * f.SE * rng.NormFloat64(), F: f, Weight: 1 + rng.Float64()})
		}
	}
	cal, err := FitSidedScale(obs, knots)
	if err != nil {
		t.Fatal(err)
	}
	for j, kj := range knots {
		var zs []weightedZ
		for _, o := range obs {
			if o.F.L != kj && !(j == len(knots)-1 && o.F.L > kj) {
				continue
			}
			zs = append(zs, weightedZ{standardised(cal, o), o.Weight})
		}
		if lo, hi := weightedQuantile(zs, 0.1), weightedQuantile(zs, 0.9); math.Abs(cal.QLo[j]-lo) > 1e-12 || math.Abs(cal.QHi[j]-hi) > 1e-12 {
			t.Errorf("knot L = %v: quantiles [%.15g, %.15g], want those of its own observations [%.15g, %.15g]", kj, cal.QLo[j], cal.QHi[j], lo, hi)
		}
	}
}

// From 2 k1 on (no hold of the pilot's interval left, no floor) each bound
// is sigma(c_k + q s_k) with the scale of its own side,
// s_k = a . (1, SE, D, S, L U, L SE, L SEK, B), computed here from the
// features the result reports and the quantiles interpolated by hand, when
// it reaches further than the Wilson interval; then made non-increasing.
func TestIntervalFromFeatures(t *testing.T) {
	const k1, k2, n = 20, 200, 2000
	f := testFits(k1, k2)
	f.N = n
	f.TailSpread = 1.5 // U = 0.5
	cal := Calibration{Coef: [NumCoef]float64{0.05, 0.5, 0.3, 0.2, 0.1, 0.2, 0.3, 0},
		CoefUp: [NumCoef]float64{0.08, 0.2, 0.1, 0.4, 0.05, 0.1, 0.15, 0},
		Knots:  []float64{0, 2}, QLo: []float64{-1, -1.5}, QHi: []float64{1.2, 1.6}}
	res, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	sig := func(z float64) float64 { return 1 / (1 + math.Exp(-z)) }
	scale := func(a [NumCoef]float64, ft Features) float64 {
		return a[0] + a[1]*ft.SE + a[2]*ft.D + a[3]*ft.S + a[4]*ft.L*0.5 + a[5]*ft.L*ft.SE + a[6]*ft.L*ft.SEK + a[7]*ft.B
	}
	a := f.Observed[k1]
	wlo, whi := wilson(a, n)
	lo, hi := res.Lo[2*k1-1], res.Hi[2*k1-1]
	wider := 0
	for k := 2 * k1; k <= k2; k++ {
		ft := res.Features[k]
		if ft.SEK == ft.SE || ft.S == 0 || ft.D == 0 {
			t.Fatalf("k = %d: features %+v: the test wants SEK apart from SE, and S and D above 0", k, ft)
		}
		l := math.Log(float64(k) / k1)
		if math.Abs(ft.L-l) > 1e-12 {
			t.Fatalf("k = %d: L = %v, want %v", k, ft.L, l)
		}
		t2 := min(l/2, 1)
		qlo, qhi := -1-0.5*t2, 1.2+0.4*t2
		e := res.Estimate[k]
		z := logitOf(e, 0.5/n)
		rawLo := max(0, min(e, sig(z+qlo*scale(cal.Coef, ft)), e-(a-wlo)))
		rawHi := min(1, max(e, sig(z+qhi*scale(cal.CoefUp, ft)), e+(whi-a)))
		if sig(z+qlo*scale(cal.Coef, ft)) < e-(a-wlo) && sig(z+qhi*scale(cal.CoefUp, ft)) > e+(whi-a) {
			wider++
		}
		lo, hi = min(lo, rawLo), min(hi, rawHi)
		if math.Abs(res.Lo[k]-lo) > 1e-12 || math.Abs(res.Hi[k]-hi) > 1e-12 {
			t.Errorf("k = %d: interval [%.15g, %.15g], want [%.15g, %.15g]", k, res.Lo[k], res.Hi[k], lo, hi)
		}
	}
	if wider == 0 {
		t.Error("the calibrated interval never reaches beyond the Wilson one: the test does not test it")
	}
}
