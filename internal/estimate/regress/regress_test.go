package regress

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/scores"
)

// simSample draws a pilot like the paper's simulation: k class centres
// N(0, I_d), r points per class at centre + N(0, sigma2 I_d), scored by the
// Euclidean distance to each centre (lower is better).
func simSample(tb testing.TB, k, r, d int, sigma2 float64, seed uint64) *accuracy.Sample {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	centres := make([]float64, k*d)
	for i := range centres {
		centres[i] = rng.NormFloat64()
	}
	m := &scores.Matrix{Classes: make([]string, k)}
	for c := range k {
		m.Classes[c] = fmt.Sprintf("c%d", c)
	}
	x := make([]float64, d)
	for c := range k {
		for range r {
			for j := range x {
				x[j] = centres[c*d+j] + math.Sqrt(sigma2)*rng.NormFloat64()
			}
			m.Labels = append(m.Labels, c)
			for c2 := range k {
				dist := 0.0
				for j := range x {
					v := x[j] - centres[c2*d+j]
					dist += v * v
				}
				m.Scores = append(m.Scores, math.Sqrt(dist))
			}
		}
	}
	s, _, err := accuracy.NewSample(m, scores.Lower)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestFitCurveIsAnAccuracyCurve(t *testing.T) {
	for _, tc := range []struct {
		k1, k2 int
		sigma2 float64
	}{
		{40, 400, 0.1},
		{40, 20, 0.2}, // k2 < k1
		{3, 50, 0.5},  // smallest pilot: subsamples of 2 classes
		{25, 1000, 0.02},
	} {
		t.Run(fmt.Sprintf("k1=%d,k2=%d", tc.k1, tc.k2), func(t *testing.T) {
			s := simSample(t, tc.k1, 5, 5, tc.sigma2, 7)
			res, err := Estimator{Boot: 5, Seed: 3}.Fit(context.Background(), s, tc.k2, nil)
			if err != nil {
				t.Fatal(err)
			}
			c := res.Curve
			if c.Max() != tc.k2 || c[0] != 1 || c[1] != 1 {
				t.Fatalf("curve covers k = 0..%d with c[0], c[1] = %g, %g; want 0..%d, 1, 1", c.Max(), c[0], c[1], tc.k2)
			}
			for k := 2; k <= tc.k2; k++ {
				if !(c[k] >= 0 && c[k] <= 1) {
					t.Fatalf("c[%d] = %g, outside [0, 1]", k, c[k])
				}
				if c[k] > c[k-1] {
					t.Fatalf("c[%d] = %.17g > c[%d] = %.17g: not non-increasing", k, c[k], k-1, c[k-1])
				}
			}
			if res.C != nil {
				t.Errorf("C has %d values, want nil (the method has no per-point C_x)", len(res.C))
			}
		})
	}
}

// TestFitDegenerateCurves: a perfect classifier (Abar_k = 1) is extrapolated
// as 1 by the constant basis; one whose correct class never wins, or ties
// everywhere (ties lose: Abar_k = 0), as 0.
func TestFitDegenerateCurves(t *testing.T) {
	const k, r, k2 = 12, 3, 200
	for _, tc := range []struct {
		name    string
		correct float64 // the correct score; incorrect scores are 0.5
		want    float64
	}{
		{"always wins", 1, 1},
		{"never wins", 0, 0},
		{"all tied", 0.5, 0},
	} {
		m := &scores.Matrix{Classes: make([]string, k)}
		for c := range k {
			m.Classes[c] = fmt.Sprint(c)
			for range r {
				m.Labels = append(m.Labels, c)
				for j := range k {
					v := 0.5
					if j == c {
						v = tc.correct
					}
					m.Scores = append(m.Scores, v)
				}
			}
		}
		s, _, err := accuracy.NewSample(m, scores.Higher)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Estimator{Boot: 4}.Fit(context.Background(), s, k2, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for kk := 2; kk <= k2; kk++ {
			if math.Abs(res.Curve[kk]-tc.want) > 1e-12 {
				t.Fatalf("%s: c[%d] = %g, want %g", tc.name, kk, res.Curve[kk], tc.want)
			}
		}
	}
}

func TestFitIsDeterministicAndReportsProgress(t *testing.T) {
	s := simSample(t, 30, 4, 5, 0.1, 11)
	var steps []estimate.Progress
	e := Estimator{Boot: 6, Seed: 42}
	a, err := e.Fit(context.Background(), s, 300, func(p estimate.Progress) { steps = append(steps, p) })
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.Fit(context.Background(), s, 300, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k := range a.Curve {
		if a.Curve[k] != b.Curve[k] {
			t.Fatalf("two fits with seed 42 differ at k = %d: %g, %g", k, a.Curve[k], b.Curve[k])
		}
	}
	if len(steps) != e.Boot+1 {
		t.Fatalf("%d progress reports, want Boot + 1 = %d", len(steps), e.Boot+1)
	}
	for i, p := range steps {
		if p.Method != "regression" || p.Step != i+1 || p.Total != e.Boot+1 || !(p.Loss >= 0) {
			t.Errorf("report %d = %+v, want method regression, step %d of %d, loss >= 0", i, p, i+1, e.Boot+1)
		}
	}
	if len(a.Losses) != e.Boot {
		t.Errorf("%d losses, want one per subsample (%d)", len(a.Losses), e.Boot)
	}
	for i := 1; i < len(a.Losses); i++ {
		if a.Losses[i] < 0 {
			t.Errorf("loss %d = %g < 0", i, a.Losses[i])
		}
	}
}

func TestFitCancel(t *testing.T) {
	s := simSample(t, 30, 4, 5, 0.1, 5)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Estimator{}).Fit(ctx, s, 100, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before the fit: err = %v, want context.Canceled", err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	reports := 0
	_, err := Estimator{Boot: 25}.Fit(ctx, s, 100, func(p estimate.Progress) {
		reports++
		if p.Step == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled at step 3: err = %v, want context.Canceled", err)
	}
	if reports != 3 {
		t.Errorf("%d progress reports after cancelling at step 3, want 3", reports)
	}
}

func TestFitErrors(t *testing.T) {
	two := simSample(t, 2, 3, 5, 0.1, 1)
	ten := simSample(t, 10, 3, 5, 0.1, 1)
	for _, tc := range []struct {
		name string
		e    Estimator
		s    *accuracy.Sample
		k2   int
	}{
		{"two classes", Estimator{}, two, 10},
		{"negative Boot", Estimator{Boot: -1}, ten, 10},
		{"k2 = 1", Estimator{}, ten, 1},
	} {
		if _, err := tc.e.Fit(context.Background(), tc.s, tc.k2, nil); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestFitRecoversBasisCurve fits a curve that is itself a non-negative
// combination of the basis (what an exact model would produce) and checks the
// prediction up to k2 = 20 k1 against the generating curve.
func TestFitRecoversBasisCurve(t *testing.T) {
	const k1, k2 = 100, 2000
	mmax := muMax(k1)
	for _, s := range []float64{0.2, 0.5, 1.0} {
		b := mustBasis(t, meanGrid(mmax, s), s, k2)
		beta := make([]float64, b.cols)
		// Mass 0.5, 0.3, 0.15 on three means and 0.05 on the constant.
		n := len(b.mus)
		beta[n/4], beta[n/2], beta[3*n/4], beta[n] = 0.5, 0.3, 0.15, 0.05
		y := make([]float64, k1-1)
		for k := 2; k <= k1; k++ {
			y[k-2] = b.predict(beta, k)
		}
		coef, err := newReduced(b.rows(k1), k1-1, b.cols).fit(y)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for k := 2; k <= k2; k++ {
			worst = math.Max(worst, math.Abs(b.predict(coef, k)-b.predict(beta, k)))
		}
		if worst > 1e-6 {
			t.Errorf("s = %.1f: prediction off the generating curve by %.2g (k <= %d), want <= 1e-6", s, worst, k2)
		}
	}
}

// TestRecoversCoefficients uses a small, well-conditioned basis (four means
// far apart) so the coefficients themselves are identified.
func TestRecoversCoefficients(t *testing.T) {
	const s, k1 = 0.3, 200
	mus := []float64{-1, 0.5, 2, 3.5}
	b := mustBasis(t, mus, s, k1)
	for _, beta := range [][]float64{
		{0.1, 0.4, 0.3, 0.2, 0},
		{0, 0.6, 0, 0.3, 0.1},
		{0, 0, 0, 0, 1},
	} {
		y := make([]float64, k1-1)
		for k := 2; k <= k1; k++ {
			y[k-2] = b.predict(beta, k)
		}
		coef, err := nnls(b.rows(k1), k1-1, b.cols, y)
		if err != nil {
			t.Fatal(err)
		}
		for j := range beta {
			if math.Abs(coef[j]-beta[j]) > 1e-8 {
				t.Errorf("beta %v: recovered %v (coefficient %d off by %.2g), want within 1e-8", beta, coef, j, coef[j]-beta[j])
				break
			}
		}
	}
}

func TestEstimatorName(t *testing.T) {
	var e estimate.Estimator = Estimator{}
	if e.Name() != "regression" {
		t.Errorf("Name() = %q", e.Name())
	}
}

func BenchmarkFit(b *testing.B) {
	for _, k1 := range []int{100, 500} {
		s := simSample(b, k1, 10, 5, 0.1, uint64(k1))
		b.Run(fmt.Sprintf("k1=%d", k1), func(b *testing.B) {
			for b.Loop() {
				if _, err := (Estimator{Seed: 1}).Fit(context.Background(), s, 2000, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
