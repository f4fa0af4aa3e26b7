package recommend

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// TestFitSidedScaleWithQuantile draws Y - Z = s eps, s = 0.5 + 2 SE, eps ~
// N(0, 1): the 90% quantile of max(0, ±(Y - Z)) is 1.2816 s on both sides, so
// the quantile fit gives a = 1.2816 (0.5, 2) per side and standardised
// quantiles near ∓1.
func TestFitSidedScaleWithQuantile(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var obs []Observation
	for range 20000 {
		f := Features{SE: rng.Float64(), D: rng.Float64(), L: 4 * rng.Float64()}
		obs = append(obs, Observation{Z: 0, Y: (0.5 + 2*f.SE) * rng.NormFloat64(), F: f, Weight: 1})
	}
	cal, err := FitSidedScaleWith(obs, DefaultKnots(), ScaleQuantile)
	if err != nil {
		t.Fatal(err)
	}
	const z = 1.2816
	want := [NumCoef]float64{0.5 * z, 2 * z}
	for _, side := range []struct {
		name string
		got  [NumCoef]float64
	}{{"lower", cal.Coef}, {"upper", cal.CoefUp}} {
		for j := range want {
			// over 8 seeds of this draw, a_1 fell between 2.33 and 2.67
			// (a_0 0.56-0.68, a_2 0-0.10): the quantile fit trades the
			// terms off against each other
			tol := 0.12
			if j == 1 {
				tol = 0.3
			}
			if math.Abs(side.got[j]-want[j]) > tol {
				t.Errorf("%s side: a_%d = %.4f, want %.4f ± %.2f (all %v)", side.name, j, side.got[j], want[j], tol, side.got)
			}
		}
	}
	for j, l := range cal.Knots {
		if math.Abs(cal.QLo[j]+1) > 0.06 || math.Abs(cal.QHi[j]-1) > 0.06 {
			t.Errorf("quantiles at L = %.2f: %.3f, %.3f, want ∓1 ± 0.06", l, cal.QLo[j], cal.QHi[j])
		}
	}
}

// TestQuantileNNLSConstant: with the constant as the only non-zero feature,
// the check-loss fit is the weighted tau-quantile of the targets.
func TestQuantileNNLSConstant(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const m = 999
	rows := make([]float64, m*NumCoef)
	ts := make([]float64, m)
	w := make([]float64, m)
	for i := range m {
		rows[i*NumCoef] = 1
		ts[i] = rng.ExpFloat64()
		w[i] = 1
	}
	for _, tau := range []float64{0.5, 0.9} {
		a, err := quantileNNLS(rows, m, ts, w, tau)
		if err != nil {
			t.Fatal(err)
		}
		s := append([]float64(nil), ts...)
		sort.Float64s(s)
		lo, hi := s[int(tau*m)-2], s[int(tau*m)+1]
		if a[0] < lo || a[0] > hi {
			t.Errorf("tau = %v: a_0 = %.5f, want the sample quantile in [%.5f, %.5f]", tau, a[0], lo, hi)
		}
	}
}

// TestFitSidedScaleWithUnknown: an unknown method is an error.
func TestFitSidedScaleWithUnknown(t *testing.T) {
	obs := make([]Observation, 20)
	if _, err := FitSidedScaleWith(obs, DefaultKnots(), "nope"); err == nil {
		t.Error("unknown scale fit: no error")
	}
}

// TestFitSidedScaleWithNNLS: the "nnls" method is FitSidedScale.
func TestFitSidedScaleWithNNLS(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var obs []Observation
	for range 2000 {
		f := Features{SE: rng.Float64(), D: rng.Float64(), L: 3 * rng.Float64()}
		obs = append(obs, Observation{Y: (0.2 + f.SE) * rng.NormFloat64(), F: f, Weight: 1})
	}
	a, err := FitSidedScale(obs, DefaultKnots())
	if err != nil {
		t.Fatal(err)
	}
	b, err := FitSidedScaleWith(obs, DefaultKnots(), ScaleNNLS)
	if err != nil {
		t.Fatal(err)
	}
	if a.Coef != b.Coef || a.CoefUp != b.CoefUp {
		t.Errorf("nnls %v %v, FitSidedScale %v %v", b.Coef, b.CoefUp, a.Coef, a.CoefUp)
	}
}

// crossedBank draws observations in three groups: in "a" and "b" |Y - Z|
// follows D (a half-normal error times D, either side), in "c" it is three
// times as large, so a scale fitted without "c" under-states its residuals.
func crossedBank(n int) []Observation {
	rng := rand.New(rand.NewPCG(7, 8))
	var obs []Observation
	for _, g := range []string{"a", "b", "c"} {
		m := 1.0
		if g == "c" {
			m = 3
		}
		for range n {
			f := Features{SE: 0.1 + rng.Float64(), D: rng.Float64(), L: 4 * rng.Float64()}
			y := m * f.D * rng.NormFloat64()
			obs = append(obs, Observation{Z: 0, Y: y, F: f, Weight: 1, Group: g})
		}
	}
	return obs
}

// TestFitSidedScaleCrossedByHand recomputes the crossed quantiles by hand:
// each observation standardised by the side's a . v(F) of FitSidedScale on
// the other groups, then the weighted 10% and 90% quantiles (the smallest
// value whose cumulative weight reaches 10% / 90%) at the one knot L = 0.
func TestFitSidedScaleCrossedByHand(t *testing.T) {
	obs := crossedBank(400)
	knots := []float64{0}
	cal, err := FitSidedScaleCrossed(obs, knots)
	if err != nil {
		t.Fatal(err)
	}
	pooled, err := FitSidedScale(obs, knots)
	if err != nil {
		t.Fatal(err)
	}
	if cal.Coef != pooled.Coef || cal.CoefUp != pooled.CoefUp {
		t.Errorf("coefficients %v / %v, want FitSidedScale's %v / %v", cal.Coef, cal.CoefUp, pooled.Coef, pooled.CoefUp)
	}
	var zs []weightedZ
	for _, g := range []string{"a", "b", "c"} {
		var others []Observation
		for _, o := range obs {
			if o.Group != g {
				others = append(others, o)
			}
		}
		without, err := FitSidedScale(others, knots)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range obs {
			if o.Group != g {
				continue
			}
			zs = append(zs, weightedZ{standardised(without, o), o.Weight})
		}
	}
	quantile := func(p float64) float64 { return weightedQuantile(zs, p) }
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"q_lo", cal.QLo[0], quantile(0.1)},
		{"q_hi", cal.QHi[0], quantile(0.9)},
	} {
		if math.Abs(tc.got-tc.want) > 1e-12 {
			t.Errorf("%s = %.15g, want %.15g", tc.name, tc.got, tc.want)
		}
	}
	// the group unlike the others widens the crossed quantiles beyond the
	// pooled ones
	if !(cal.QLo[0] < pooled.QLo[0] && cal.QHi[0] > pooled.QHi[0]) {
		t.Errorf("crossed quantiles [%.3f, %.3f], want wider than the pooled [%.3f, %.3f]", cal.QLo[0], cal.QHi[0], pooled.QLo[0], pooled.QHi[0])
	}
}

// TestFitSidedScaleCrossedCopies gives every group the same observations:
// the scale fitted without any one group is the scale fitted on all, so
// the crossed calibration is FitSidedScale's.
func TestFitSidedScaleCrossedCopies(t *testing.T) {
	base := crossedBank(300)[:300] // group "a" only
	var obs []Observation
	for _, g := range []string{"x", "y", "z"} {
		for _, o := range base {
			o.Group = g
			obs = append(obs, o)
		}
	}
	cal, err := FitSidedScaleCrossed(obs, DefaultKnots())
	if err != nil {
		t.Fatal(err)
	}
	pooled, err := FitSidedScale(obs, DefaultKnots())
	if err != nil {
		t.Fatal(err)
	}
	for j := range pooled.QLo {
		if math.Abs(cal.QLo[j]-pooled.QLo[j]) > 1e-9 || math.Abs(cal.QHi[j]-pooled.QHi[j]) > 1e-9 {
			t.Errorf("knot %d: crossed [%.12f, %.12f], want FitSidedScale's [%.12f, %.12f]", j, cal.QLo[j], cal.QHi[j], pooled.QLo[j], pooled.QHi[j])
		}
	}
}

// TestFitSidedScaleCrossedOneGroup: with one group there is nothing to fit
// the scale on when it is left out.
func TestFitSidedScaleCrossedOneGroup(t *testing.T) {
	base := crossedBank(300)[:300]
	if _, err := FitSidedScaleCrossed(base, DefaultKnots()); err == nil {
		t.Error("one group: want an error")
	}
}

// TestRelativeNNLSFixedPoint: the relative fit is a fixed point of its own
// step, the non-negative least squares weighted by w_i / s_i^2 at its own
// scales s_i; on noiseless targets t = rows . a it returns a.
func TestRelativeNNLSFixedPoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const m = 400
	rows := make([]float64, m*NumCoef)
	exact := make([]float64, m)
	noisy := make([]float64, m)
	w := make([]float64, m)
	truth := []float64{0.1, 0.5, 0, 0.2, 0, 0, 0.3, 0.4}
	for i := range m {
		for j := range NumCoef {
			rows[i*NumCoef+j] = rng.Float64()
		}
		rows[i*NumCoef] = 1
		s := floats.Dot(rows[i*NumCoef:(i+1)*NumCoef], truth)
		exact[i] = s
		noisy[i] = s * math.Abs(rng.NormFloat64())
		w[i] = 1 + rng.Float64()
	}
	a, err := relativeNNLS(rows, m, exact, w)
	if err != nil {
		t.Fatal(err)
	}
	for j := range truth {
		if math.Abs(a[j]-truth[j]) > 1e-6 {
			t.Errorf("noiseless: a_%d = %.9f, want %.9f", j, a[j], truth[j])
		}
	}
	a, err = relativeNNLS(rows, m, noisy, w)
	if err != nil {
		t.Fatal(err)
	}
	ws := make([]float64, m)
	for i := range m {
		s := floats.Dot(rows[i*NumCoef:(i+1)*NumCoef], a)
		ws[i] = w[i] / (s * s)
	}
	step, err := weightedNNLS(rows, m, noisy, ws)
	if err != nil {
		t.Fatal(err)
	}
	for j := range a {
		if math.Abs(step[j]-a[j]) > 1e-6 {
			t.Errorf("one more step moves a_%d from %.9f to %.9f", j, a[j], step[j])
		}
	}
}

// TestFitFloorQuantiles: the floor is minus the 10% and the 90% quantile of
// (Y - Z) / log(population / largest) over the largest pilots at k =
// population, recomputed here by sorting; other observations do not count,
// and WithoutB gets the same floor.
func TestFitFloorQuantiles(t *testing.T) {
	const population, largest = 2000, 500
	l := math.Log(float64(population) / float64(largest))
	var obs []Observation
	var rs []float64
	for i := range 50 {
		r := float64(i-20) / 25 // -0.8 .. 1.16, in steps of 0.04
		rs = append(rs, r/l)
		obs = append(obs, Observation{Z: 1, Y: 1 + r, Weight: 1, K1: largest, At: population},
			// not the largest pilots' error at the population: ignored
			Observation{Z: 0, Y: 9, Weight: 1, K1: largest, At: 1000},
			Observation{Z: 0, Y: -9, Weight: 1, K1: 200, At: population})
	}
	sort.Float64s(rs)
	// the smallest value whose cumulative weight reaches 10% / 90% of 50
	lo, hi := rs[4], rs[44]
	cal := Calibration{WithoutB: &Calibration{}}
	got, err := FitFloor(cal, obs, population, largest)
	if err != nil {
		t.Fatal(err)
	}
	if got.Population != population || math.Abs(got.FloorLo+lo) > 1e-12 || math.Abs(got.FloorHi-hi) > 1e-12 {
		t.Errorf("floor %d: %v / %v, want %d: %v / %v", got.Population, got.FloorLo, got.FloorHi, population, -lo, hi)
	}
	if w := got.WithoutB; w.Population != population || w.FloorLo != got.FloorLo || w.FloorHi != got.FloorHi {
		t.Errorf("WithoutB's floor %d: %v / %v, want the same", w.Population, w.FloorLo, w.FloorHi)
	}
	if cal.WithoutB.Population != 0 {
		t.Error("FitFloor changed its argument's WithoutB")
	}
	if _, err := FitFloor(cal, obs[:9], population, largest); err == nil {
		t.Error("3 observations: want an error")
	}
}

// TestFitSidedScaleWithQuantileSides: residuals twice as large below the
// estimate as above it, Y - Z = e (e > 0) or 2 e (e < 0), e ~ N(0, 1), with
// every feature but the constant 0: the 90% quantile of max(0, Y - Z) is
// Phi^-1(0.9) = 1.2816 (half the mass at 0, the rest half-normal) and that
// of max(0, Z - Y) twice it, so the quantile fit gives a_0 = 1.2816 above
// and 2.5631 below.
func TestFitSidedScaleWithQuantileSides(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	var obs []Observation
	for range 20000 {
		e := rng.NormFloat64()
		if e < 0 {
			e *= 2
		}
		obs = append(obs, Observation{Z: 0, Y: e, Weight: 1})
	}
	cal, err := FitSidedScaleWith(obs, []float64{0}, ScaleQuantile)
	if err != nil {
		t.Fatal(err)
	}
	const z = 1.2816
	if math.Abs(cal.Coef[0]-2*z) > 0.08 || math.Abs(cal.CoefUp[0]-z) > 0.05 {
		t.Errorf("a_0 = %.4f below and %.4f above, want %.4f and %.4f", cal.Coef[0], cal.CoefUp[0], 2*z, z)
	}
}

// standardised returns o's residual over the scale cal gives it, (Y - Z) /
// s, s from the upper side's coefficients when Y >= Z and from the lower
// side's otherwise, recomputed here as the dot product of the coefficients
// and the features.
func standardised(cal Calibration, o Observation) float64 {
	coef := cal.Coef
	if o.Y >= o.Z {
		coef = cal.CoefUp
	}
	v := o.F.vector()
	s := 0.0
	for j := range v {
		s += coef[j] * v[j]
	}
	return (o.Y - o.Z) / s
}

// FitSpanShares takes the Nominal (80%) quantile of all the shares needed,
// at least 0.001, leaving the share unfitted (0) with fewer than
// MinSpanPilots pilots; the share of pilots without an error is the larger
// of that and their own quantile, with at least MinNoErrorPilots of them.
func TestFitSpanShares(t *testing.T) {
	ramp := func(n int, top float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[n-1-i] = top * float64(i) / float64(n-1) // top down to 0
		}
		return x
	}
	for _, tc := range []struct {
		name            string
		some, none      []float64
		share, noneWant float64
	}{
		// the empirical 80% quantile of 20 values is the 16th smallest
		{"ramp, no pilot without an error", ramp(20, 1.9), nil, 1.5, 0},
		{"none needed", make([]float64, 20), nil, 1e-3, 0},
		{"too few", ramp(19, 1.9), nil, 0, 0},
		{"nothing", nil, nil, 0, 0},
		// 0..1.9 and 0..0.9 by 0.1: the 24th smallest of the 30 is 1.3,
		// above the 8th of the 10 without an error, 0.7
		{"without an error, less", ramp(20, 1.9), ramp(10, 0.9), 1.3, 1.3},
		// 0..1.9 and 2.0..2.9: the 24th smallest is 2.3; of the 10
		// without an error, the 8th, 2.7
		{"without an error, their own", ramp(20, 1.9), func() []float64 {
			x := ramp(10, 0.9)
			for i := range x {
				x[i] += 2
			}
			return x
		}(), 2.3, 2.7},
		// 9 pilots without an error (0..8 by 1) are too few for their own
		// share; the 24th smallest of all 29 is 3
		{"without an error, too few", ramp(20, 1.9), ramp(9, 8), 3, 0},
	} {
		some := slices.Clone(tc.some)
		share, none := FitSpanShares(tc.some, tc.none)
		if math.Abs(share-tc.share) > 1e-12 || math.Abs(none-tc.noneWant) > 1e-12 {
			t.Errorf("%s: shares %v, %v; want %v, %v", tc.name, share, none, tc.share, tc.noneWant)
		}
		if !slices.Equal(some, tc.some) {
			t.Errorf("%s: FitSpanShares reordered its argument", tc.name)
		}
	}
}
