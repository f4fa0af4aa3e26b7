package recommend

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/halfsample"
	"github.com/cleanex/cleanex/internal/scores"
)

// geometric returns the curve c_k = a^(k-1), k = 0..n (c_0 = c_1 = 1).
func geometric(a float64, n int) accuracy.Curve {
	c := make(accuracy.Curve, n+1)
	for k := range c {
		c[k] = math.Pow(a, float64(max(k-1, 0)))
	}
	return c
}

func testFits(k1, k2 int) Fits {
	se := make(accuracy.Curve, k1+1)
	for k := 2; k <= k1; k++ {
		se[k] = 0.01
	}
	return Fits{K1: k1, Observed: geometric(0.99, k1), ClassSE: se,
		Regression: geometric(0.9915, k2), Pooled: geometric(0.98, k2), Tail: geometric(0.985, k2),
		CleaneX: []accuracy.Curve{geometric(0.9895, k2), geometric(0.9905, k2)}}
}

// testCalibration is a small calibration for the tests of the median: the
// scale from the constant, SE, D, S and L, one knot at log-ratio 1.
func testCalibration() Calibration {
	return Calibration{Coef: [NumCoef]float64{0.1, 1, 1, 1, 0.1, 0, 0},
		Knots: []float64{0, 1}, QLo: []float64{-1.3, -1.5}, QHi: []float64{1.2, 1.4}}
}

func TestRecommendMedian(t *testing.T) {
	const k1, k2 = 20, 200
	f := testFits(k1, k2)
	f.CleaneXCount = 2 // the median of five
	cal := testCalibration()
	res, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{2, 10, 20, 50, 200} {
		cx := (f.CleaneX[0][k] + f.CleaneX[1][k]) / 2
		// pooled (0.98) < tail (0.985) < CleaneX mean (about 0.99) < regression
		// (0.9915) at every k >= 2: the middle one of the five is CleaneX
		if want := sigmoid(Logit(cx)); math.Abs(res.Middle[k]-want) > 1e-12 {
			t.Errorf("middle at k = %d: %v, want the middle curve (CleaneX mean) %v", k, res.Middle[k], want)
		}
		ft := res.Features[k]
		// the range of the curves: regression the highest, pooled the lowest
		if d := Logit(f.Regression[k]) - Logit(f.Pooled[k]); math.Abs(ft.D-d) > 1e-9 {
			t.Errorf("D at k = %d: %v, want %v", k, ft.D, d)
		}
		z1, z2 := Logit(f.CleaneX[0][k]), Logit(f.CleaneX[1][k])
		if s := math.Abs(z1-z2) / math.Sqrt2; math.Abs(ft.S-s) > 1e-9 {
			t.Errorf("S at k = %d: %v, want %v (sd of two values)", k, ft.S, s)
		}
		if l := math.Max(0, math.Log(float64(k)/k1)); math.Abs(ft.L-l) > 1e-12 {
			t.Errorf("L at k = %d: %v, want %v", k, ft.L, l)
		}
		if !(res.Lo[k] <= res.Estimate[k] && res.Estimate[k] <= res.Hi[k]) {
			t.Errorf("k = %d: interval [%v, %v] misses the estimate %v", k, res.Lo[k], res.Hi[k], res.Estimate[k])
		}
	}
	for k := 3; k <= k2; k++ {
		for name, c := range map[string]accuracy.Curve{"estimate": res.Estimate, "lo": res.Lo, "hi": res.Hi} {
			if c[k] > c[k-1] {
				t.Fatalf("%s rises at k = %d", name, k)
			}
		}
	}
	if got := strings.Join(res.Sources, ", "); got != "regression, pooled, tail, cleanex ×2" {
		t.Errorf("sources %q", got)
	}
}

// TestCleaneXCount: CleaneX counts once up to SmallPilot classes, twice
// from LargePilot, and c(k1) = 1 + ln(k1/50)/ln(10) times in between.
func TestCleaneXCount(t *testing.T) {
	for _, tc := range []struct {
		k1   int
		want float64
	}{{2, 1}, {20, 1}, {50, 1}, {100, 1 + math.Log(2)/math.Log(10)}, {158, 1 + math.Log(3.16)/math.Log(10)}, {200, 1 + math.Log(4)/math.Log(10)}, {500, 2}, {5000, 2}} {
		if got := CleaneXCount(tc.k1); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("CleaneXCount(%d) = %v, want %v", tc.k1, got, tc.want)
		}
	}
}

// TestCleaneXCountInTheMedian: on the test fits (pooled 0.98 < tail 0.985
// < CleaneX mean about 0.99 < regression 0.9915 at every k), CleaneX
// counted once gives the mean in logit of the middle two, tail and
// CleaneX; twice gives CleaneX itself; a count in between blends the two
// in logit, (2 - c) z1 + (c - 1) z2. The pilot's k1 sets the count unless
// its scores are squashed (twice) or Fits.CleaneXCount sets it, and
// Result.CleaneXCount reports it.
func TestCleaneXCountInTheMedian(t *testing.T) {
	const k2 = 1000
	cal := testCalibration()
	for _, tc := range []struct {
		name  string
		k1    int
		set   float64
		count float64
	}{
		{"k1 = 50: once", 50, 0, 1},
		{"k1 = 500: twice", 500, 0, 2},
		{"k1 = 200: in between", 200, 0, CleaneXCount(200)},
		{"k1 = 500, set to once", 500, 1, 1},
		{"k1 = 50, set to 1.5", 50, 1.5, 1.5},
		{"k1 = 50, squashed scores: twice", 50, 0, 2},
	} {
		f := testFits(tc.k1, k2)
		f.CleaneXCount = tc.set
		f.Squashed = strings.Contains(tc.name, "squashed")
		res, err := Recommend(f, k2, cal)
		if err != nil {
			t.Fatal(err)
		}
		if res.CleaneXCount != tc.count {
			t.Errorf("%s: Result.CleaneXCount %v, want %v", tc.name, res.CleaneXCount, tc.count)
		}
		for _, k := range []int{2, 20, 200, 1000} {
			cx := Logit((f.CleaneX[0][k] + f.CleaneX[1][k]) / 2)
			z1, z2 := (Logit(f.Tail[k])+cx)/2, cx
			want := (2-tc.count)*z1 + (tc.count-1)*z2
			if math.Abs(Logit(res.Middle[k])-want) > 1e-9 {
				t.Errorf("%s, k = %d: middle %v, want %v", tc.name, k, res.Middle[k], sigmoid(want))
			}
		}
	}
}

// TestShapeWeight: v = CleaneXCount(k1) - 1 above SharedTail, 0 at or
// below it and when the tail spread is unknown (0).
func TestShapeWeight(t *testing.T) {
	for _, tc := range []struct {
		k1   int
		h    float64
		want float64
	}{
		{200, 0, 0}, {200, 1, 0}, {200, SharedTail, 0}, {200, math.NaN(), 0},
		{50, 1.6, 0}, {20, 2.5, 0}, {100, 1.6, math.Log(2) / math.Log(10)},
		{200, 1.11, math.Log(4) / math.Log(10)}, {500, 1.6, 1}, {2000, 3, 1},
	} {
		if got := ShapeWeight(tc.k1, tc.h); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("ShapeWeight(%d, %v) = %v, want %v", tc.k1, tc.h, got, tc.want)
		}
	}
}

// TestUnsharedTails: U = min(1, max(0, h - 1)); 0 for an unknown spread.
func TestUnsharedTails(t *testing.T) {
	for h, want := range map[float64]float64{0: 0, 0.8: 0, 1: 0, 1.25: 0.25, 1.6: 0.6, 2: 1, 3.7: 1, math.NaN(): 0} {
		if got := UnsharedTails(h); math.Abs(got-want) > 1e-12 {
			t.Errorf("UnsharedTails(%v) = %v, want %v", h, got, want)
		}
	}
}

// TestIntervalWidensWithUnsharedTails: with a calibration whose scale is
// a_0 + a_4 L U, the lower bound beyond the pilot is sigma(c + q_lo (a_0 +
// a_4 L U)), c the estimate's logit, so a pilot whose tail spread is 1.5
// gets a lower bound below that of one whose points share their tails, and
// the features hold U.
func TestIntervalWidensWithUnsharedTails(t *testing.T) {
	const k1, k2 = 20, 200
	cal := Calibration{Coef: [NumCoef]float64{0.1, 0, 0, 0, 1, 0, 0, 0},
		Knots: []float64{0, 1}, QLo: []float64{-1.3, -1.5}, QHi: []float64{1.2, 1.4}}
	var lows []float64
	for _, h := range []float64{1, 1.5} {
		f := testFits(k1, k2)
		f.TailSpread = h
		res, err := Recommend(f, k2, cal)
		if err != nil {
			t.Fatal(err)
		}
		ft := res.Features[k2]
		if ft.U != UnsharedTails(h) {
			t.Errorf("H = %v: U %v, want %v", h, ft.U, UnsharedTails(h))
		}
		want := sigmoid(f.CentreLogit(res.Estimate[k2]) - 1.5*(0.1+ft.L*ft.U))
		if math.Abs(res.Lo[k2]-want) > 1e-12 {
			t.Errorf("H = %v: lower bound at k2 %v, want %v", h, res.Lo[k2], want)
		}
		lows = append(lows, res.Lo[k2])
	}
	if !(lows[1] < lows[0]) {
		t.Errorf("lower bounds %v: unshared tails should reach lower", lows)
	}
}

// TestShapeMembersLeaveTheMedian: on the test fits (pooled 0.98 < tail
// 0.985 < CleaneX mean about 0.99 < regression 0.9915 at every k), a
// pilot whose tail spread is above SharedTail gets the middle
// (1 - v) zall + v zrest in logit, zall the blended median of all four
// members (the mean of tail and CleaneX once, CleaneX twice) and zrest
// that of regression and CleaneX alone (their mean once, CleaneX twice),
// v = ShapeWeight(k1, H); the methods' range D still spans the pooled
// method; without the pooled and the tail method's curves nothing moves.
func TestShapeMembersLeaveTheMedian(t *testing.T) {
	const k2 = 1000
	cal := testCalibration()
	for _, tc := range []struct {
		name    string
		k1      int
		h       float64
		noShape bool
		v       float64
	}{
		{"shared tail", 200, 1.05, false, 0},
		{"unknown spread", 200, 0, false, 0},
		{"50 classes", 50, 1.6, false, 0},
		{"200 classes", 200, 1.6, false, CleaneXCount(200) - 1},
		{"500 classes", 500, 2.7, false, 1},
		{"no pooled or tail curve", 500, 2.7, true, 0},
	} {
		f := testFits(tc.k1, k2)
		f.TailSpread = tc.h
		if tc.noShape {
			f.Pooled, f.Tail = nil, nil
		}
		res, err := Recommend(f, k2, cal)
		if err != nil {
			t.Fatal(err)
		}
		if res.ShapeWeight != tc.v || res.TailSpread != tc.h {
			t.Errorf("%s: Result.ShapeWeight %v, TailSpread %v, want %v, %v", tc.name, res.ShapeWeight, res.TailSpread, tc.v, tc.h)
		}
		if (res.MiddleAll != nil) != (tc.v > 0) {
			t.Errorf("%s: MiddleAll set %v, want %v", tc.name, res.MiddleAll != nil, tc.v > 0)
		}
		c := CleaneXCount(tc.k1)
		for _, k := range []int{2, 20, 200, 1000} {
			cx := Logit((f.CleaneX[0][k] + f.CleaneX[1][k]) / 2)
			reg := Logit(f.Regression[k])
			zrest := (2-c)*(reg+cx)/2 + (c-1)*cx
			want := zrest
			if !tc.noShape {
				zall := (2-c)*(Logit(f.Tail[k])+cx)/2 + (c-1)*cx
				want = (1-tc.v)*zall + tc.v*zrest
				if tc.v > 0 && (math.Abs(Logit(res.MiddleAll[k])-zall) > 1e-9 || math.Abs(Logit(res.MiddleRest[k])-zrest) > 1e-9) {
					t.Errorf("%s, k = %d: MiddleAll %v, MiddleRest %v, want %v, %v", tc.name, k, res.MiddleAll[k], res.MiddleRest[k], sigmoid(zall), sigmoid(zrest))
				}
				if d := reg - Logit(f.Pooled[k]); math.Abs(res.Features[k].D-d) > 1e-9 {
					t.Errorf("%s, k = %d: D %v, want %v (regression to pooled)", tc.name, k, res.Features[k].D, d)
				}
			}
			if math.Abs(Logit(res.Middle[k])-want) > 1e-9 {
				t.Errorf("%s, k = %d: middle %v, want %v", tc.name, k, res.Middle[k], sigmoid(want))
			}
		}
	}
}

// TestRecommendFallbacks: a method that failed drops out of the median.
func TestRecommendFallbacks(t *testing.T) {
	const k1, k2 = 20, 100
	cal := Calibration{Coef: [NumCoef]float64{0.1}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
	f := testFits(k1, k2)
	f.CleaneXCount = 2 // CleaneX twice, the rule's median at k1 >= 500
	f.Regression = nil
	res, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	cx := (f.CleaneX[0][k2] + f.CleaneX[1][k2]) / 2
	// pooled < tail < CleaneX, CleaneX: the median of four is the logit mean of the tail method and CleaneX
	if want := sigmoid((Logit(f.Tail[k2]) + Logit(cx)) / 2); math.Abs(res.Middle[k2]-want) > 1e-12 {
		t.Errorf("without regression the middle is %v, want the logit mean of the tail method and CleaneX %v", res.Middle[k2], want)
	}
	// CleaneX the lowest: the median of five is the pooled method, the second lowest of the others
	f = testFits(k1, k2)
	f.CleaneXCount = 2
	f.CleaneX = []accuracy.Curve{geometric(0.97, k2)}
	if res, err = Recommend(f, k2, cal); err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.Middle[k2]-f.Pooled[k2]) > 1e-12 {
		t.Errorf("CleaneX lowest: middle %v, want the pooled method's %v", res.Middle[k2], f.Pooled[k2])
	}
	f = testFits(k1, k2)
	f.CleaneXCount = 2
	f.CleaneX = nil
	if res, err = Recommend(f, k2, cal); err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.Middle[k2]-f.Tail[k2]) > 1e-12 {
		t.Errorf("without CleaneX: middle %v, want the middle of regression, pooled and tail, the tail method's %v", res.Middle[k2], f.Tail[k2])
	}
	f = testFits(k1, k2)
	f.CleaneXCount = 2
	f.Regression, f.Pooled = nil, nil
	if res, err = Recommend(f, k2, cal); err != nil || math.Abs(res.Middle[k2]-cx) > 1e-12 {
		t.Errorf("tail and CleaneX: %v (%v), want CleaneX %v (the median of tail, CleaneX, CleaneX)", res.Middle[k2], err, cx)
	}
	f.Tail = nil
	if res, err = Recommend(f, k2, cal); err != nil || math.Abs(res.Middle[k2]-cx) > 1e-12 {
		t.Errorf("CleaneX alone: %v (%v), want %v", res.Middle[k2], err, cx)
	}
	f = testFits(k1, k2)
	f.CleaneXCount = 2
	f.CleaneX, f.Pooled, f.Tail = nil, nil, nil
	if res, err = Recommend(f, k2, cal); err != nil || math.Abs(res.Middle[k2]-f.Regression[k2]) > 1e-12 {
		t.Errorf("regression alone: %v (%v), want %v", res.Middle[k2], err, f.Regression[k2])
	}
	f.Regression = nil
	if _, err := Recommend(f, k2, cal); !errors.Is(err, ErrNoFits) {
		t.Errorf("no fits: error %v, want ErrNoFits", err)
	}
}

func TestCheckFit(t *testing.T) {
	const k1, k2 = 20, 100
	f := testFits(k1, k2)
	flat := make(accuracy.Curve, k2+1)
	for k := range flat {
		flat[k] = 1
	}
	nan := geometric(0.99, k2)
	nan[50] = math.NaN()
	rising := geometric(0.99, k2)
	rising[60] = rising[59] + 0.01
	for _, tc := range []struct {
		name string
		c    accuracy.Curve
		want string // "" when the curve must pass
	}{
		{"observed continued", geometric(0.99, k2), ""},
		{"within tolerance", geometric(0.9905, k2), ""},
		{"flat at 1", flat, "the pilot's exact accuracy"},
		{"NaN", nan, "not an accuracy"},
		{"rising", rising, "rises"},
	} {
		err := CheckFit(tc.c, f, true)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want an error mentioning %q", tc.name, err, tc.want)
		}
	}
}

func TestAssembleLeavesOutFailedFits(t *testing.T) {
	const k1, k2 = 20, 100
	f := testFits(k1, k2)
	flat := make(accuracy.Curve, k2+1)
	for k := range flat {
		flat[k] = 1
	}
	jobs := Jobs(7)
	kde := geometric(0.97, k2) // below every other curve: it sets the lower end of D
	curves := []accuracy.Curve{f.Regression, f.Pooled, f.Tail, kde, f.CleaneX[0], flat, f.CleaneX[1], nil}
	errs := []error{nil, nil, nil, nil, nil, nil, nil, errors.New("cancelled by a test")}
	cal := Calibration{Coef: [NumCoef]float64{0.1}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
	out := Assemble(Fits{K1: k1, Observed: f.Observed, ClassSE: f.ClassSE}, jobs, curves, errs, k2, cal)
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	if len(out.Failed) != 2 || out.Failed["cleanex seed 8"] == "" || out.Failed["cleanex seed 10"] == "" {
		t.Errorf("failed = %v, want seeds 8 (flat curve) and 10 (error)", out.Failed)
	}
	if want := (f.CleaneX[0][k2] + f.CleaneX[1][k2]) / 2; out.CleaneX == nil || math.Abs(out.CleaneX[k2]-want) > 1e-12 {
		t.Errorf("CleaneX mean %v, want %v from the two good seeds", out.CleaneX[k2], want)
	}
	if !slices.Equal(out.Sources, []string{"regression", "pooled", "tail", "cleanex ×2"}) {
		t.Errorf("sources %v, want the median's members (not KDE)", out.Sources)
	}
	if d := Logit(f.Regression[k2]) - Logit(kde[k2]); math.Abs(out.Features[k2].D-d) > 1e-9 {
		t.Errorf("D at k2: %v, want %v (regression to KDE)", out.Features[k2].D, d)
	}
	if out.CleaneXCount != 1 {
		t.Errorf("k1 = %d: CleaneX counted %v times, want once", k1, out.CleaneXCount)
	}
	// The pilot's own fields go through: squashed scores count CleaneX twice.
	squashed := Fits{K1: k1, Observed: f.Observed, ClassSE: f.ClassSE, Squashed: true}
	if out := Assemble(squashed, jobs, curves, errs, k2, cal); out.CleaneXCount != 2 {
		t.Errorf("squashed scores: CleaneX counted %v times, want twice", out.CleaneXCount)
	}
}

// TestClassSEBruteForce compares ClassSE with a direct computation of each
// class's accuracy a_y(k) as a product over i, on a random pilot with unequal
// class sizes and ties.
func TestClassSEBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const k = 7
	m := &scores.Matrix{}
	for j := range k {
		m.Classes = append(m.Classes, string(rune('a'+j)))
	}
	for y := range k {
		for range 1 + y%3 {
			m.Labels = append(m.Labels, y)
			for j := range k {
				v := float64(rng.IntN(5))
				if j == y {
					v += 1.5
				}
				m.Scores = append(m.Scores, v)
			}
		}
	}
	s, _, err := accuracy.NewSample(m, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	se := ClassSE(s)
	for kk := 2; kk <= k; kk++ {
		a := make([]float64, k)
		for i, y := range s.Labels {
			t := 1.0
			for j := 1; j <= kk-1; j++ {
				t *= math.Max(float64(s.R[i]+1-j), 0) / float64(k-j)
			}
			a[y] += s.Weight[i] * float64(k) * t
		}
		mean, v := 0.0, 0.0
		for _, x := range a {
			mean += x / k
		}
		for _, x := range a {
			v += (x - mean) * (x - mean) / (k - 1)
		}
		if want := math.Sqrt(v / k); math.Abs(se[kk]-want) > 1e-12 {
			t.Errorf("k = %d: ClassSE %v, brute force %v", kk, se[kk], want)
		}
		if math.Abs(mean-s.Observed[kk]) > 1e-12 {
			t.Errorf("k = %d: mean class accuracy %v, observed %v", kk, mean, s.Observed[kk])
		}
	}
}

// TestFitScaleRecoversModel draws residuals Y - Z = s eps with a known scale
// s = 0.5 + 2 SE and eps ~ N(0, 1); NNLS of |Y - Z| gives a = E|eps| (0.5, 2)
// and the standardised quantiles are ±1.2816 / E|eps|.
func TestFitScaleRecoversModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var obs []Observation
	for range 40000 {
		f := Features{SE: rng.Float64(), D: rng.Float64(), L: 3 * rng.Float64()}
		s := 0.5 + 2*f.SE
		obs = append(obs, Observation{Z: 0, Y: s * rng.NormFloat64(), F: f, Weight: 1})
	}
	cal, err := FitScale(obs, DefaultKnots())
	if err != nil {
		t.Fatal(err)
	}
	eabs := math.Sqrt(2 / math.Pi)
	want := [NumCoef]float64{0.5 * eabs, 2 * eabs, 0, 0, 0, 0, 0}
	for j := range want {
		if math.Abs(cal.Coef[j]-want[j]) > 0.03 {
			t.Errorf("a_%d = %.4f, want %.4f ± 0.03 (all %v)", j, cal.Coef[j], want[j], cal.Coef)
		}
	}
	q := 1.2816 / eabs
	for j, l := range cal.Knots {
		if math.Abs(cal.QLo[j]+q) > 0.08 || math.Abs(cal.QHi[j]-q) > 0.08 {
			t.Errorf("quantiles at L = %.2f: %.3f, %.3f, want ∓%.3f ± 0.08", l, cal.QLo[j], cal.QHi[j], q)
		}
	}
}

func TestQuantilesInterpolate(t *testing.T) {
	cal := Calibration{Knots: []float64{0, 1, 3}, QLo: []float64{-1, -2, -4}, QHi: []float64{1, 3, 4}}
	for _, tc := range []struct{ l, lo, hi float64 }{
		{-1, -1, 1}, {0, -1, 1}, {0.5, -1.5, 2}, {1, -2, 3}, {2, -3, 3.5}, {3, -4, 4}, {9, -4, 4},
	} {
		lo, hi := cal.Quantiles(tc.l)
		if math.Abs(lo-tc.lo) > 1e-12 || math.Abs(hi-tc.hi) > 1e-12 {
			t.Errorf("L = %v: (%v, %v), want (%v, %v)", tc.l, lo, hi, tc.lo, tc.hi)
		}
	}
}

// TestWilson compares with a closed form: p = 1 on n points gives
// lo = n / (n + z²) and hi = 1.
func TestWilson(t *testing.T) {
	for _, n := range []int{1, 4, 100} {
		lo, hi := wilson(1, n)
		if want := float64(n) / (float64(n) + wilsonZ*wilsonZ); math.Abs(lo-want) > 1e-12 || hi != 1 {
			t.Errorf("n = %d: (%v, %v), want (%v, 1)", n, lo, hi, want)
		}
	}
	if lo, hi := wilson(0.5, 100); math.Abs(lo+hi-1) > 1e-12 || math.Abs(hi-lo-2*wilsonZ*0.05/(1+wilsonZ*wilsonZ/100)*math.Sqrt(1+wilsonZ*wilsonZ/100)) > 1e-3 {
		t.Errorf("p = 0.5, n = 100: (%v, %v) not symmetric about 1/2 with half-width about z/20", lo, hi)
	}
}

// TestSaturatedPilotGetsAnInterval: a pilot right on every point still gets
// an interval at least as wide as the binomial one.
func TestSaturatedPilotGetsAnInterval(t *testing.T) {
	const k1, k2, n = 2, 3, 4
	f := Fits{K1: k1, N: n, Observed: accuracy.Curve{1, 1, 1}, ClassSE: accuracy.Curve{0, 0, 0},
		CleaneX: []accuracy.Curve{{1, 1, 0.999999, 0.999998}}}
	cal := Calibration{Coef: [NumCoef]float64{1e-3}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
	res, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	wlo, _ := wilson(1, n)
	if res.Lo[k2] > res.Estimate[k2]-(1-wlo)+1e-12 {
		t.Errorf("lower bound %v at k2, want at most %v", res.Lo[k2], res.Estimate[k2]-(1-wlo))
	}
}

// TestFitSidedScaleRecoversSides draws residuals whose scale differs by
// side: 2 D below the estimate and 0.5 + D above; each side's regression of
// |Y - Z| on the features recovers E|eps| times those coefficients (eps
// half-normal).
func TestFitSidedScaleRecoversSides(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var obs []Observation
	for range 40000 {
		f := Features{D: rng.Float64(), L: 3 * rng.Float64()}
		e := math.Abs(rng.NormFloat64())
		y := -2 * f.D * e
		if rng.IntN(2) == 0 {
			y = (0.5 + f.D) * e
		}
		obs = append(obs, Observation{Z: 0, Y: y, F: f, Weight: 1})
	}
	cal, err := FitSidedScale(obs, DefaultKnots())
	if err != nil {
		t.Fatal(err)
	}
	eabs := math.Sqrt(2 / math.Pi)
	for _, tc := range []struct {
		name      string
		got, want [NumCoef]float64
	}{
		{"lower", cal.Coef, [NumCoef]float64{1e-3, 0, 2 * eabs}},
		{"upper", cal.CoefUp, [NumCoef]float64{0.5 * eabs, 0, eabs}},
	} {
		for j := range tc.want {
			if math.Abs(tc.got[j]-tc.want[j]) > 0.04 {
				t.Errorf("%s side: a_%d = %.4f, want %.4f ± 0.04 (all %v)", tc.name, j, tc.got[j], tc.want[j], tc.got)
			}
		}
	}
}

func TestSharesSumToOne(t *testing.T) {
	cal := Calibration{Coef: [NumCoef]float64{0.1, 1, 0.5, 0.2, 0.1, 0.3, 0.05, 0.4}, CoefUp: [NumCoef]float64{0.2, 0.5, 1, 0, 0.2, 0.1, 0, 0.6},
		Knots: []float64{0, 2}, QLo: []float64{-1, -1.5}, QHi: []float64{1, 1.2}}
	ft := Features{SE: 0.2, D: 0.4, S: 0.05, L: 1.5, SEK: 0.4, B: 0.3, BKnown: true}
	sh := cal.Shares(ft)
	if sum := sh.ClassSample + sh.Disagreement + sh.SeedSpread + sh.Extrapolation + sh.Floor; math.Abs(sum-1) > 1e-12 {
		t.Errorf("shares %+v sum to %v", sh, sum)
	}
	// the floor's share by hand: |q| a_0 on each side over the two sides' widths
	qlo, qhi := cal.Quantiles(ft.L)
	lo, hi := cal.scales(ft)
	if want := (-qlo*0.1 + qhi*0.2) / (-qlo*lo + qhi*hi); math.Abs(sh.Floor-want) > 1e-12 {
		t.Errorf("floor share %v, want %v", sh.Floor, want)
	}
}

// A pilot whose half-sampling spread is unknown gets the shares of the
// calibration it is given, WithoutB: its coefficients and its quantiles.
func TestSharesWithoutB(t *testing.T) {
	without := Calibration{Coef: [NumCoef]float64{0.3, 1, 0.5}, CoefUp: [NumCoef]float64{0.1, 0.2, 1},
		Knots: []float64{0, 2}, QLo: []float64{-1, -3}, QHi: []float64{1, 1.1}}
	cal := Calibration{Coef: [NumCoef]float64{0.1, 1, 0.5, 0.2, 0.1, 0.3, 0.05, 0.4}, CoefUp: [NumCoef]float64{0.2, 0.5, 1, 0, 0.2, 0.1, 0, 0.6},
		Knots: []float64{0, 2}, QLo: []float64{-1, -1.5}, QHi: []float64{1, 1.2}, WithoutB: &without}
	ft := Features{SE: 0.2, D: 0.4, S: 0.05, L: 1.5, SEK: 0.4}
	if got, want := cal.Shares(ft), without.Shares(ft); got != want {
		t.Errorf("shares without B %+v, want those of WithoutB %+v", got, want)
	}
}

func TestWarnsOnFewErrors(t *testing.T) {
	const k1, k2 = 20, 100
	cal := Calibration{Coef: [NumCoef]float64{0.1}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
	f := testFits(k1, k2)
	f.N = 400 // 400 (1 - 0.99^19) = 70 errors at k1: no warning
	if res, err := Recommend(f, k2, cal); err != nil || len(others(res.Warnings)) != 0 {
		t.Errorf("warnings %v (%v), want none", res.Warnings, err)
	}
	for _, tc := range []struct {
		name     string
		observed accuracy.Curve
		want     string
	}{
		{"0.76 errors", geometric(0.9999, k1), "misclassifies about 1 of its 400 test points at 20 classes, too few errors to show"},
		{"3 errors", geometric(math.Pow(1-3.0/400, 1.0/19), k1), "misclassifies about 3 of its 400"},
		// right on every point, up to a float remainder of the class-balanced sum
		{"none", geometric(1-1e-16, k1), "misclassifies none of its 400 test points"},
	} {
		f.Observed = tc.observed
		res, err := Recommend(f, k2, cal)
		if ws := others(res.Warnings); err != nil || len(ws) != 1 || !strings.Contains(ws[0], tc.want) {
			t.Errorf("%s: warnings %q (%v), want one containing %q", tc.name, res.Warnings, err, tc.want)
		}
	}
}

// fewErrorsPilot returns fits of a pilot of 20 classes and 4,000 points
// with errs errors at k1 (the methods' curves of testFits to k2 = 100, KDE
// below them all), and a calibration whose interval is far narrower than
// the methods' range.
func fewErrorsPilot(errs float64) (Fits, Calibration) {
	const k1, k2 = 20, 100
	f := testFits(k1, k2)
	f.N = 4000
	f.KDE = geometric(0.95, k2)
	f.Observed = geometric(math.Pow(1-errs/4000, 1.0/(k1-1)), k1)
	return f, Calibration{Coef: [NumCoef]float64{0.001}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
}

// A pilot with fewer than FewErrors errors at k1 gets an interval that
// takes in every method's curve beyond k1 (KDE's too); one with more
// errors keeps the calibrated interval.
func TestFewErrorsSpanTheMethods(t *testing.T) {
	const k1, k2 = 20, 100
	f, cal := fewErrorsPilot(4000 * (1 - math.Pow(0.99, k1-1)))
	spans := func(res Result, k int) bool {
		lo, hi := f.KDE[k], f.KDE[k]
		for _, c := range []accuracy.Curve{f.Regression, f.Pooled, f.Tail, MeanCurve(f.CleaneX, k2)} {
			lo, hi = min(lo, c[k]), max(hi, c[k])
		}
		return res.Lo[k] <= lo && hi <= res.Hi[k]
	}
	// 4000 (1 - 0.99^19) = 695 errors at k1: the calibrated interval, far
	// narrower than the methods' range
	res, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	if spans(res, k2) || res.Spanned {
		t.Errorf("695 errors: interval [%v, %v] at k2 spans every method (Spanned %v)", res.Lo[k2], res.Hi[k2], res.Spanned)
	}
	// 3 errors
	f, _ = fewErrorsPilot(3)
	if res, err = Recommend(f, k2, cal); err != nil {
		t.Fatal(err)
	}
	if !res.Spanned {
		t.Error("3 errors: Spanned is false")
	}
	for k := k1 + 1; k <= k2; k++ {
		if !spans(res, k) {
			t.Errorf("3 errors, k = %d: interval [%v, %v] misses a method's curve (KDE %v)", k, res.Lo[k], res.Hi[k], f.KDE[k])
		}
	}
}

// With a span share s, a pilot with too few errors gets an interval that
// reaches, in logit, the share s of the way from the estimate to the lowest
// and the highest method's curve beyond k1 (none on a side where the
// estimate is beyond every curve), where that is wider than the calibrated
// interval: half way for s = 0.5; in full for an unfitted share. A pilot
// without an error takes SpanShareNone when it is set.
func TestSpanShareWidensPartWay(t *testing.T) {
	const k1, k2 = 20, 100
	f, cal := fewErrorsPilot(3)
	// regression above the estimate, KDE below it
	f.Regression = geometric(1-1e-5, k2)
	none, _ := fewErrorsPilot(0)
	none.Regression = f.Regression
	for _, tc := range []struct {
		errs    float64
		share   float64 // SpanShare
		shareNo float64 // SpanShareNone
		want    float64 // the share used
	}{
		{3, 0.25, 0, 0.25}, {3, 0.5, 0.9, 0.5}, {3, 0.75, 0, 0.75}, {0, 0.25, 0.5, 0.5}, {0, 0.5, 0, 0.5},
	} {
		f := f
		if tc.errs == 0 {
			f = none
		}
		cal.SpanShare, cal.SpanShareNone = tc.share, tc.shareNo
		s := tc.want
		res, err := Recommend(f, k2, cal)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Spanned || res.SpanShare != s {
			t.Fatalf("%v errors, shares %v and %v: Spanned %v, share %v; want %v", tc.errs, tc.share, tc.shareNo, res.Spanned, res.SpanShare, s)
		}
		for _, k := range []int{2 * k1, k2} {
			lowest, highest := f.KDE[k], f.KDE[k]
			for _, c := range []accuracy.Curve{f.Regression, f.Pooled, f.Tail, MeanCurve(f.CleaneX, k2)} {
				lowest, highest = min(lowest, c[k]), max(highest, c[k])
			}
			z := f.CentreLogit(res.Estimate[k])
			wantLo := z - s*max(0, z-f.CentreLogit(lowest))
			wantHi := z + s*max(0, f.CentreLogit(highest)-z)
			if got := f.CentreLogit(res.Lo[k]); math.Abs(got-wantLo) > 1e-9 {
				t.Errorf("s = %v, k = %d: logit of the lower bound %v, want %v", s, k, got, wantLo)
			}
			if got := f.CentreLogit(res.Hi[k]); math.Abs(got-wantHi) > 1e-9 {
				t.Errorf("s = %v, k = %d: logit of the upper bound %v, want %v", s, k, got, wantHi)
			}
		}
	}
	cal.SpanShare = 0
	whole, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	if want := min(f.KDE[k2], f.Pooled[k2]); math.Abs(whole.Lo[k2]-want) > 1e-12 {
		t.Errorf("unfitted share: lower bound %v at k2, want the lowest curve %v", whole.Lo[k2], want)
	}
	cal.SpanShare = -0.5
	if _, err := Recommend(f, k2, cal); err == nil {
		t.Error("a negative span share: no error")
	}
}

// NeededSpanShare finds the least share at which the interval holds the
// truth: the interval with that share holds it and one 0.002 smaller does
// not; 0 when the calibrated interval holds it, 4 when no share up to 4
// does, and no share for a pilot with many errors.
func TestNeededSpanShare(t *testing.T) {
	const k1, k2 = 20, 100
	f, cal := fewErrorsPilot(3)
	holds := func(s, truth float64) bool {
		c := cal
		c.SpanShare = s
		res, err := Recommend(f, k2, c)
		if err != nil {
			t.Fatal(err)
		}
		return res.Lo[k2] <= truth && truth <= res.Hi[k2]
	}
	narrow, err := Recommend(f, k2, Calibration{Coef: cal.Coef, Knots: cal.Knots, QLo: cal.QLo, QHi: cal.QHi, SpanShare: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		truth float64
		want  float64 // -1: between 0 and 4, checked by holds
	}{
		{"inside the calibrated interval", narrow.Estimate[k2], 0},
		{"near KDE", (f.KDE[k2] + narrow.Lo[k2]) / 2, -1},
		{"beyond KDE", f.KDE[k2] * 0.9, -1},
		{"far beyond", 0, maxSpanShare},
	} {
		s, ok, err := NeededSpanShare(f, k2, tc.truth, cal)
		if err != nil || !ok {
			t.Fatalf("%s: share %v, ok %v, %v", tc.name, s, ok, err)
		}
		switch {
		case tc.want >= 0 && s != tc.want:
			t.Errorf("%s: share %v, want %v", tc.name, s, tc.want)
		case tc.want < 0 && (s <= 0.002 || s >= maxSpanShare || !holds(s, tc.truth) || holds(s-0.002, tc.truth)):
			t.Errorf("%s: share %v is not the least that holds %v", tc.name, s, tc.truth)
		}
	}
	f.Observed = geometric(0.99, k1) // 695 errors at k1
	if s, ok, err := NeededSpanShare(f, k2, 0.5, cal); err != nil || ok {
		t.Errorf("695 errors: share %v, ok %v, %v; want no share", s, ok, err)
	}
}

// A k2 / k1 beyond the calibration's last knot gets a warning; one at the
// last knot does not. For a pilot of SmallestCalibratedK1 classes or more,
// but fewer than LargeWorldsK1, carried at most LongestTestedRatio times it
// quotes the test of such pilots; otherwise it says the interval is likely
// too narrow.
func TestWarnsBeyondCalibratedRatio(t *testing.T) {
	cal := Calibration{Coef: [NumCoef]float64{0.1}, Knots: []float64{0, math.Log(40)}, QLo: []float64{-1, -2}, QHi: []float64{1, 2}}
	const (
		tested = ". On test pilots of 50 and 100 classes carried 50× and 100× it still held the true accuracy 84% of the time"
		narrow = ", so here it is likely too narrow"
	)
	for _, tc := range []struct {
		k1, k2 int
		want   string
	}{
		{20, 800, ""},
		{20, 1000, "You extrapolate 50× beyond your pilot (20 classes to 1,000); the interval was calibrated on test pilots extrapolated at most 40×" + narrow},
		{50, 2000, ""},
		{50, 2500, "You extrapolate 50× beyond your pilot (50 classes to 2,500); the interval was calibrated on test pilots extrapolated at most 40×" + tested},
		{50, 5000, "You extrapolate 100× beyond your pilot (50 classes to 5,000); the interval was calibrated on test pilots extrapolated at most 40×" + tested},
		{50, 5001, "You extrapolate 100× beyond your pilot (50 classes to 5,001); the interval was calibrated on test pilots extrapolated at most 40×" + narrow},
		{100, 20_000, "You extrapolate 200× beyond your pilot (100 classes to 20,000); the interval was calibrated on test pilots extrapolated at most 40×" + narrow},
		{199, 10_000, "You extrapolate 50× beyond your pilot (199 classes to 10,000); the interval was calibrated on test pilots extrapolated at most 40×" + tested},
		{LargeWorldsK1, 10_000, "You extrapolate 50× beyond your pilot (200 classes to 10,000); the interval was calibrated on test pilots extrapolated at most 40×" + narrow},
	} {
		f := testFits(tc.k1, tc.k2)
		f.N = 20 * tc.k1
		res, err := Recommend(f, tc.k2, cal)
		if err != nil {
			t.Fatal(err)
		}
		switch ws := others(res.Warnings); {
		case tc.want == "" && len(ws) != 0:
			t.Errorf("k1 = %d, k2 = %d: warnings %q, want none", tc.k1, tc.k2, res.Warnings)
		case tc.want != "" && (len(ws) != 1 || !strings.HasPrefix(ws[0], tc.want)):
			t.Errorf("k1 = %d, k2 = %d: warnings %q, want %q…", tc.k1, tc.k2, res.Warnings, tc.want)
		}
	}
}

// A pilot of at least LargeWorldsK1 classes asked about more than
// CalibratedPopulation classes gets a warning that its interval is likely
// too narrow; a smaller pilot, or a k2 within the bank's population, does
// not, and beyond the calibrated ratio only that ratio's warning is given.
func TestWarnsOnLargePilot(t *testing.T) {
	cal := Calibration{Coef: [NumCoef]float64{0.1}, Knots: []float64{0, math.Log(40)}, QLo: []float64{-1, -2}, QHi: []float64{1, 2}}
	const large = "Your pilot has 500 classes and you ask about 5,000, more than the 2,000 classes of most test worlds"
	for _, tc := range []struct {
		k1, k2 int
		want   string
	}{
		{LargestCalibratedK1, 5000, large},
		{LargestCalibratedK1, CalibratedPopulation, ""},
		{LargeWorldsK1, 5000, "Your pilot has 200 classes and you ask about 5,000, more than"},
		{LargeWorldsK1 - 1, 5000, ""},
		{1000, 50_000, "You extrapolate 50×"},
	} {
		f := testFits(tc.k1, tc.k2)
		f.N = 10 * tc.k1
		res, err := Recommend(f, tc.k2, cal)
		if err != nil {
			t.Fatal(err)
		}
		switch ws := others(res.Warnings); {
		case tc.want == "" && len(ws) != 0:
			t.Errorf("k1 = %d, k2 = %d: warnings %q, want none", tc.k1, tc.k2, ws)
		case tc.want != "" && (len(ws) != 1 || !strings.HasPrefix(ws[0], tc.want)):
			t.Errorf("k1 = %d, k2 = %d: warnings %q, want one starting %q", tc.k1, tc.k2, ws, tc.want)
		}
	}
}

// A pilot right at 2 classes less often than a coin toss (its scores most
// likely read in the wrong direction) gets a warning naming the direction;
// one at 0.5 or above does not, nor one whose points mostly tie (its low
// accuracy comes from the ties).
func TestWarnsBelowChance(t *testing.T) {
	const k1, k2 = 20, 100
	cal := Calibration{Coef: [NumCoef]float64{0.1}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
	for _, tc := range []struct {
		at2, tied float64
		want      string
	}{
		{0.5, 0, ""},
		{0.31, 0, "At 2 classes your pilot picks the true class only 31% of the time"},
		{0.31, 0.49, "At 2 classes your pilot picks the true class only 31% of the time"},
		{0.31, MostlyTied, ""},
	} {
		f := testFits(k1, k2)
		f.N = 400
		f.TiedShare = tc.tied
		f.Observed = geometric(tc.at2, k1)
		res, err := Recommend(f, k2, cal)
		if err != nil {
			t.Fatal(err)
		}
		var dir []string
		for _, w := range res.Warnings {
			if strings.Contains(w, "score direction") {
				dir = append(dir, w)
			}
		}
		switch {
		case tc.want == "" && len(dir) != 0:
			t.Errorf("accuracy %v at 2: warnings %q, want none about the direction", tc.at2, dir)
		case tc.want != "" && (len(dir) != 1 || !strings.HasPrefix(dir[0], tc.want)):
			t.Errorf("accuracy %v at 2: warnings %q, want %q…", tc.at2, res.Warnings, tc.want)
		}
	}
}

// Where the curves in the middle of the median agree on an exact 0 or 1,
// which the clamped logit cannot hold, the estimate keeps it: a pilot whose
// methods all say 0 (every point tied) gets 0, not 1e-6, and no warning
// about the direction, only that all its points are misclassified.
func TestEstimateKeepsExactZero(t *testing.T) {
	const k1, k2 = 20, 100
	cal := Calibration{Coef: [NumCoef]float64{0.1}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
	zero := make(accuracy.Curve, k2+1)
	f := Fits{K1: k1, N: 6, Observed: zero[:k1+1], ClassSE: zero[:k1+1], Regression: zero, Pooled: zero,
		CleaneX: []accuracy.Curve{zero}, TiedShare: 1}
	res, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	if ws := others(res.Warnings); len(ws) != 1 || !strings.Contains(ws[0], "misclassifies all of its 6 test points") {
		t.Errorf("warnings %q, want one saying that all 6 points are misclassified", res.Warnings)
	}
	for k := 2; k <= k2; k++ {
		if res.Estimate[k] != 0 || res.Lo[k] != 0 || !(res.Hi[k] > 0) {
			t.Fatalf("k = %d: estimate %g [%g, %g], want 0 with an interval above it", k, res.Estimate[k], res.Lo[k], res.Hi[k])
		}
	}
}

// others returns the warnings other than the one about a pilot smaller than
// the calibration's (the tests' pilots have 20 classes).
func others(ws []string) []string {
	var out []string
	for _, w := range ws {
		if !strings.HasPrefix(w, "Your pilot has only") {
			out = append(out, w)
		}
	}
	return out
}

// A pilot of fewer classes than the bank's smallest gets a warning when it
// is extrapolated; one of at least that many, or one asked about within its
// own classes, does not.
func TestWarnsOnSmallPilot(t *testing.T) {
	cal := Calibration{Coef: [NumCoef]float64{0.1}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
	for _, tc := range []struct {
		k1, k2 int
		want   bool
	}{
		{20, 200, true}, {SmallestCalibratedK1 - 1, 100, true}, {SmallestCalibratedK1, 500, false}, {20, 20, false},
	} {
		f := testFits(tc.k1, tc.k2)
		f.N = 100 * tc.k1
		res, err := Recommend(f, tc.k2, cal)
		if err != nil {
			t.Fatal(err)
		}
		got := len(res.Warnings) - len(others(res.Warnings))
		const measured = "(on test pilots of 10 to 30 classes carried to 2,000 it held the true accuracy 72% of the time, 46-88% by kind of data)"
		if want := fmt.Sprintf("Your pilot has only %d classes; the interval was calibrated on test pilots of 50 to 500 classes", tc.k1); (got == 1) != tc.want || (tc.want && (!strings.HasPrefix(res.Warnings[0], want) || !strings.Contains(res.Warnings[0], measured))) {
			t.Errorf("k1 = %d, k2 = %d: warnings %q", tc.k1, tc.k2, res.Warnings)
		}
	}
}

// Within the pilot, the interval holds the Wilson interval of the pilot's
// own accuracy: a pilot right on every point gets an upper bound of 1 there,
// even where the methods' curves stop just short of 1.
func TestIntervalHoldsWilsonWithinPilot(t *testing.T) {
	const k1, k2 = 3, 6
	cal := Calibration{Coef: [NumCoef]float64{0.1}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
	near := func(v float64) accuracy.Curve {
		c := make(accuracy.Curve, k2+1)
		for k := range c {
			c[k] = v
		}
		return c
	}
	obs := near(1 - 1e-16)[:k1+1]
	f := Fits{K1: k1, N: 6, Observed: obs, ClassSE: make(accuracy.Curve, k1+1),
		Regression: near(1 - 3e-16), Pooled: near(0.95), CleaneX: []accuracy.Curve{near(1 - 1.3e-6)}}
	res, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := wilson(obs[k1], f.N)
	for k := 2; k <= k1; k++ {
		if res.Hi[k] != 1 || res.Lo[k] > lo || hi != 1 {
			t.Errorf("k = %d: interval [%v, %v], want it to hold the Wilson interval [%v, %v]", k, res.Lo[k], res.Hi[k], lo, hi)
		}
	}
}

// The estimate is the pilot's observed curve up to k1 and the centre (the
// methods' middle drawn towards the pilot's trend) from 2 k1 on; between
// them the centre is shifted by the gap at k1, fading out linearly in log k. The interval holds the pilot's Wilson
// interval at k1, that hold fades out the same way, so the band has no step
// at k1, and from 2 k1 on it is back at the calibrated interval. The pilot's
// own accuracy lies well above every method's curve here.
func TestEstimateJoinsTheMiddle(t *testing.T) {
	const k1, k2 = 100, 400
	cal := Calibration{Coef: [NumCoef]float64{0.01}, CoefUp: [NumCoef]float64{0.01}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
	curve := func(shift float64) accuracy.Curve { return lineCurve(k2, shift) }
	f := Fits{K1: k1, N: 2000, Observed: curve(0)[:k1+1], ClassSE: make(accuracy.Curve, k1+1),
		Regression: curve(0.05), Pooled: curve(0.06), Tail: curve(0.055), CleaneX: []accuracy.Curve{curve(0.05)}}
	res, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	gap := Logit(f.Observed[k1]) - Logit(res.Centre[k1])
	if gap < 0.3 {
		t.Fatalf("gap at k1 %v: the test wants the pilot well above the methods", gap)
	}
	for k := 2; k <= k2; k++ {
		want := res.Centre[k]
		switch {
		case k <= k1:
			want = f.Observed[k]
		case k < 2*k1:
			want = sigmoid(Logit(res.Centre[k]) + (1-math.Log(float64(k)/k1)/math.Ln2)*gap)
		}
		if math.Abs(res.Estimate[k]-want) > 1e-12 {
			t.Errorf("k = %d: estimate %v, want %v (centre %v)", k, res.Estimate[k], want, res.Centre[k])
		}
	}
	wlo, whi := wilson(f.Observed[k1], f.N)
	reach := res.Hi[k1] - res.Estimate[k1]
	if res.Hi[k1] < whi || res.Lo[k1] > wlo {
		t.Fatalf("at k1 the interval [%v, %v] does not hold the Wilson interval [%v, %v]", res.Lo[k1], res.Hi[k1], wlo, whi)
	}
	for k := k1 + 1; k < 2*k1; k++ {
		fade := 1 - math.Log(float64(k)/k1)/math.Ln2
		if got := res.Hi[k] - res.Estimate[k]; got < fade*reach-1e-12 {
			t.Errorf("k = %d: upper bound %v above the estimate, want at least %v (the faded hold)", k, got, fade*reach)
		}
	}
	if step, most := res.Hi[k1]-res.Hi[k1+1], res.Estimate[k1]-res.Estimate[k1+1]+reach*math.Log(float64(k1+1)/k1)/math.Ln2+1e-12; step > most {
		t.Errorf("upper bound falls by %v from k1 to k1 + 1, want at most %v", step, most)
	}
	// from 2 k1 on: the calibrated reach (scale 0.01, q_hi 1), never less
	// than the Wilson interval's reach at k1
	for k := 2 * k1; k <= k2; k++ {
		e := res.Estimate[k]
		want := max(sigmoid(Logit(e)+0.01)-e, whi-f.Observed[k1])
		if got := res.Hi[k] - e; math.Abs(got-want) > 1e-12 {
			t.Errorf("k = %d: upper bound %v above the estimate, want %v", k, got, want)
		}
	}
}

// Methods names each method of Jobs once, in order; all but KDE are members
// of the median.
func TestMethods(t *testing.T) {
	if got := Methods(); !slices.Equal(got, []string{"regression", "pooled", "tail", "kde", "cleanex"}) {
		t.Errorf("Methods() = %v", got)
	}
	for _, m := range Methods() {
		if InMedian(m) == (m == "kde") {
			t.Errorf("InMedian(%q) = %v", m, InMedian(m))
		}
	}
}

// The half-sampling spread B widens the interval beyond the pilot as its
// coefficients say; a pilot without it gets exactly the interval of the
// calibration's WithoutB, and For picks between them.
func TestHalfSamplingSpread(t *testing.T) {
	const k1, k2 = 50, 150
	withB := Calibration{Coef: [NumCoef]float64{0.01, 0.5, 0, 0, 0, 0, 0, 0.4}, CoefUp: [NumCoef]float64{0.01, 0.5, 0, 0, 0, 0, 0, 0.6},
		Knots: []float64{0, 3}, QLo: []float64{-1.3, -1.5}, QHi: []float64{1.3, 1.4}}
	without := Calibration{Coef: [NumCoef]float64{0.05, 0.8}, CoefUp: [NumCoef]float64{0.05, 0.9},
		Knots: []float64{0, 3}, QLo: []float64{-1.2, -1.6}, QHi: []float64{1.2, 1.5}}
	withB.WithoutB = &without
	f := testFits(k1, k2)
	f.N = 500
	width := func(b float64) float64 {
		g := f
		g.Spread = halfsample.Spread{K: []int{2, k2}, B: []float64{b, b}}
		if cal := withB.For(g); cal.WithoutB == nil {
			t.Fatalf("For chose WithoutB for a pilot with B")
		}
		res, err := Recommend(g, k2, withB)
		if err != nil {
			t.Fatal(err)
		}
		if ft := res.Features[k2]; !ft.BKnown || ft.B != b {
			t.Fatalf("features at k2 = %+v, want B %v known", ft, b)
		}
		return res.Hi[k2] - res.Lo[k2]
	}
	if w1, w2 := width(1), width(2); !(w2 > w1) {
		t.Errorf("width at k2 with B = 2 (%v) not above that with B = 1 (%v)", w2, w1)
	}
	if cal := withB.For(f); cal.WithoutB != nil || cal.Coef != without.Coef {
		t.Fatalf("For a pilot without B gave %+v, want WithoutB", cal)
	}
	got, err := Recommend(f, k2, withB)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Recommend(f, k2, without)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Lo, want.Lo) || !slices.Equal(got.Hi, want.Hi) || got.Features[k2].BKnown {
		t.Errorf("a pilot without B: interval not WithoutB's")
	}
	bad := withB
	bad.WithoutB = &Calibration{Knots: []float64{0}, QLo: []float64{1}, QHi: []float64{0}}
	if _, err := Recommend(f, k2, bad); err == nil || !strings.Contains(err.Error(), "without B") {
		t.Errorf("a broken WithoutB: %v, want an error naming it", err)
	}
}

// SEK_k is the pilot's class-sampling error in accuracy units divided by
// p (1 - p) at the estimate's level p, at most the pilot's own accuracy; the
// interval's features carry it at every k, 0 weight of it at k <= k1 (L = 0).
func TestCarriedSE(t *testing.T) {
	const k1, k2 = 20, 400
	f := testFits(k1, k2)
	a := f.Observed[k1]
	for _, tc := range []struct {
		name string
		est  float64
		want float64
	}{
		{"estimate below the pilot", 0.1, 0.01 / (0.1 * 0.9)},
		{"estimate at the pilot", a, 0.01 / (a * (1 - a))},
		{"estimate above the pilot counts as the pilot", 0.999, 0.01 / (a * (1 - a))},
	} {
		if got := carriedSE(f, k2, tc.est); math.Abs(got-tc.want) > 1e-12*tc.want {
			t.Errorf("%s: SEK = %v, want %v", tc.name, got, tc.want)
		}
	}
	// with N points, the shrunk accuracy and the binomial floor of SE_k
	f.N = 400
	sa := (400*a + 2) / 404
	se := max(0.01, math.Sqrt(sa*(1-sa)/400))
	if got, want := carriedSE(f, k2, 0.2), se/(0.2*0.8); math.Abs(got-want) > 1e-12*want {
		t.Errorf("with N = 400: SEK = %v, want %v", got, want)
	}
	cal := Calibration{Coef: [NumCoef]float64{0.1, 1, 1, 1, 0.1, 0, 0.5}, Knots: []float64{0, 1}, QLo: []float64{-1.3, -1.5}, QHi: []float64{1.2, 1.4}}
	res, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{k1, 2 * k1, k2} {
		ft := res.Features[k]
		if want := carriedSE(f, k, sigmoid(f.CentreLogit(res.Estimate[k]))); math.Abs(ft.SEK-want) > 1e-12*want {
			t.Errorf("k = %d: feature SEK %v, want carriedSE at the estimate %v", k, ft.SEK, want)
		}
		if k == k1 && ft.L != 0 {
			t.Errorf("k = k1: L = %v, want 0, so that L·SEK adds nothing within the pilot", ft.L)
		}
	}
}

// Beyond the calibrated population P = max(Population, k1) the interval
// reaches at least FloorLo log(k / P) below the estimate's logit and FloorHi
// log(k / P) above it; up to P it is the interval without the floor.
func TestFloorBeyondPopulation(t *testing.T) {
	const k1, k2, population = 20, 200, 50
	f := testFits(k1, k2)
	f.N = 2000
	base := Calibration{Coef: [NumCoef]float64{0.01}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
	cal := base
	cal.Population, cal.FloorLo, cal.FloorHi = population, 0.3, 0.5
	without, err := Recommend(f, k2, base)
	if err != nil {
		t.Fatal(err)
	}
	with, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	for k := 2; k <= k2; k++ {
		if k <= population {
			if with.Lo[k] != without.Lo[k] || with.Hi[k] != without.Hi[k] {
				t.Fatalf("k = %d: [%v, %v] with the floor, [%v, %v] without, want the same up to %d", k, with.Lo[k], with.Hi[k], without.Lo[k], without.Hi[k], population)
			}
			continue
		}
		beyond := math.Log(float64(k) / population)
		c := Logit(with.Estimate[k])
		if lo := sigmoid(c - 0.3*beyond); with.Lo[k] > lo+1e-12 {
			t.Errorf("k = %d: lower bound %v, want at most %v", k, with.Lo[k], lo)
		}
		if hi := sigmoid(c + 0.5*beyond); with.Hi[k] < hi-1e-12 && k == k2 {
			// both bounds are made non-increasing in k, so the upper one
			// is checked where nothing after it can lower it
			t.Errorf("k = %d: upper bound %v, want at least %v", k, with.Hi[k], hi)
		}
	}
	if !(with.Lo[k2] < without.Lo[k2] && with.Hi[k2] > without.Hi[k2]) {
		t.Errorf("at k2 the floor does not widen [%v, %v]", without.Lo[k2], without.Hi[k2])
	}
}

// TestTrend: from 2 k1 on the estimate is the centre g_k, the methods'
// middle drawn TrendWeight of the way (in logit) towards the pilot's trend
// line, computed here by hand from the observed curve of the test fits
// (Abar_k = 0.99^(k-1)): t_k = logit Abar_k1 + b log(k / k1), b the slope
// over the last doubling, from Abar_(k1/2) to Abar_k1. A pilot of fewer
// than 4 classes has no last doubling: its centre is the middle.
func TestTrend(t *testing.T) {
	const k1, k2 = 40, 400
	cal := Calibration{Coef: [NumCoef]float64{0.1}, Knots: []float64{0}, QLo: []float64{-1}, QHi: []float64{1}}
	f := testFits(k1, k2)
	f.N = 4000
	res, err := Recommend(f, k2, cal)
	if err != nil {
		t.Fatal(err)
	}
	a1, ah := 0.99*math.Pow(0.99, k1-2), math.Pow(0.99, k1/2-1)
	b := (math.Log(a1/(1-a1)) - math.Log(ah/(1-ah))) / math.Log(2)
	if b >= 0 {
		t.Fatalf("slope %v: the observed curve falls, so the trend must fall", b)
	}
	for _, k := range []int{2 * k1, 100, 200, k2} {
		trend := math.Log(a1/(1-a1)) + b*math.Log(float64(k)/k1)
		want := sigmoid((1-TrendWeight)*Logit(res.Middle[k]) + TrendWeight*trend)
		if math.Abs(res.Estimate[k]-want) > 1e-12 || res.Centre[k] != res.Estimate[k] {
			t.Errorf("k = %d: estimate %v (centre %v), want %v", k, res.Estimate[k], res.Centre[k], want)
		}
		if math.Abs(res.Trend[k]-sigmoid(trend)) > 1e-12 {
			t.Errorf("k = %d: trend %v, want %v", k, res.Trend[k], sigmoid(trend))
		}
	}
	// the trend falls more slowly than the methods here, so it lifts the
	// estimate above the middle
	if res.Estimate[k2] <= res.Middle[k2] {
		t.Errorf("at k2 the estimate %v is not above the middle %v", res.Estimate[k2], res.Middle[k2])
	}
	small := testFits(3, 30)
	if res, err = Recommend(small, 30, cal); err != nil {
		t.Fatal(err)
	}
	for k := 6; k <= 30; k++ {
		if res.Estimate[k] != res.Middle[k] {
			t.Fatalf("k1 = 3, k = %d: estimate %v, want the middle %v (no trend)", k, res.Estimate[k], res.Middle[k])
		}
	}
	if res.Trend != nil {
		t.Errorf("k1 = 3: a trend line %v, want none", res.Trend[:6])
	}
}

// lineCurve returns the curve 0.95 - 0.0004 k - shift, k = 0..k2: the
// straight curves the interval's tests place the methods on.
func lineCurve(k2 int, shift float64) accuracy.Curve {
	c := make(accuracy.Curve, k2+1)
	for k := range c {
		c[k] = 0.95 - 0.0004*float64(k) - shift
	}
	return c
}

// weightedZ is a standardised residual z with its weight w.
type weightedZ struct{ z, w float64 }

// weightedQuantile returns the smallest z whose cumulative weight, in
// ascending order of z, reaches p of the total (the rule the calibration's
// knot quantiles follow); zs is sorted in place.
func weightedQuantile(zs []weightedZ, p float64) float64 {
	sort.Slice(zs, func(a, b int) bool { return zs[a].z < zs[b].z })
	total := 0.0
	for _, v := range zs {
		total += v.w
	}
	cum := 0.0
	for _, v := range zs {
		cum += v.w
		if cum >= p*total {
			return v.z
		}
	}
	return zs[len(zs)-1].z
}
