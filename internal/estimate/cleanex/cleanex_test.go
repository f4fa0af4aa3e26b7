package cleanex

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/scores"
)

// toySample builds a sample of k classes with r points each whose scores are
// noisy similarities: the correct class scores 1 + noise, others noise.
func toySample(t testing.TB, k, r int, seed uint64) *accuracy.Sample {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	m := &scores.Matrix{}
	for j := range k {
		m.Classes = append(m.Classes, string(rune('A'+j%26))+string(rune('a'+j/26)))
	}
	for y := range k {
		for range r {
			m.Labels = append(m.Labels, y)
			for j := range k {
				v := rng.NormFloat64()
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
	return s
}

// tinyPreset is a cheap configuration for tests of the training mechanics;
// its fits are too short to pass the degenerate-fit check, which it skips.
func tinyPreset(opt Optimizer) Preset {
	return Preset{Name: "tiny", Inputs: TailGaps, TailRatio: 1.5, Hidden: []int{6, 4},
		Optimizer: opt, LearningRate: 1e-2, Steps: 60, Networks: 1, noCheck: true}
}

func TestPaperPreset(t *testing.T) {
	p, err := PresetByName("paper")
	if err != nil {
		t.Fatal(err)
	}
	want := Preset{Name: "paper", Inputs: AllScores, Hidden: []int{512, 128}, Optimizer: Adam,
		LearningRate: 1e-4, Steps: 10000, Networks: 1, Restarts: 2}
	if !equalPreset(p, want) {
		t.Fatalf("paper preset = %+v, want %+v", p, want)
	}
	// Shapes at K = 100: 100 inputs (correct + 99 sorted incorrect), 512, 128, 1.
	const k = 100
	sizes := slices.Concat([]int{inputSize(p.Inputs, k, p.TailRatio)}, p.Hidden, []int{1})
	if !slices.Equal(sizes, []int{100, 512, 128, 1}) {
		t.Fatalf("sizes %v", sizes)
	}
	net := newMLP[float32](sizes, rand.New(rand.NewPCG(1, 2)))
	if got, want := len(net.params), 100*512+512+512*128+128+128+1; got != want {
		t.Fatalf("%d parameters, want %d", got, want)
	}
	if got := net.macs(); got != 100*512+512*128+128 {
		t.Fatalf("macs %d", got)
	}
	// Glorot uniform: |w| <= a = sqrt(6/(fan_in+fan_out)), variance a^2/3; zero biases.
	for l, w := range net.w {
		a := math.Sqrt(6 / float64(sizes[l]+sizes[l+1]))
		v := 0.0
		for _, x := range w {
			if math.Abs(float64(x)) > a {
				t.Fatalf("layer %d weight %g outside ±%g", l, x, a)
			}
			v += float64(x) * float64(x)
		}
		v /= float64(len(w))
		// tolerance: 5 standard errors of the mean of x^2 (sd of x^2 is a^2*2/sqrt(45))
		if se := a * a * 2 / math.Sqrt(45) / math.Sqrt(float64(len(w))); math.Abs(v-a*a/3) > 5*se {
			t.Errorf("layer %d weight variance %g, want %g ± %g", l, v, a*a/3, 5*se)
		}
		for _, b := range net.b[l] {
			if b != 0 {
				t.Fatalf("layer %d bias %g, want 0", l, b)
			}
		}
	}
	opt := newAdam[float32](1, p.LearningRate)
	if opt.lr != 1e-4 || opt.b1 != 0.9 || opt.b2 != 0.999 {
		t.Fatalf("adam %+v", opt)
	}
}

func equalPreset(a, b Preset) bool {
	return a.Name == b.Name && a.Inputs == b.Inputs && a.TailRatio == b.TailRatio &&
		slices.Equal(a.Hidden, b.Hidden) && a.Optimizer == b.Optimizer &&
		a.LearningRate == b.LearningRate && a.Steps == b.Steps && a.Networks == b.Networks &&
		a.Restarts == b.Restarts
}

func TestPresetByName(t *testing.T) {
	f, err := PresetByName("fast")
	if err != nil || !equalPreset(f, Fast()) {
		t.Fatalf("fast: %+v, %v", f, err)
	}
	if err := f.validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := PresetByName("slow"); err == nil {
		t.Fatal("unknown preset accepted")
	}
	bad := Fast()
	bad.Hidden = []int{0}
	if err := bad.validate(); err == nil {
		t.Fatal("zero-width layer accepted")
	}
}

func TestTailRanks(t *testing.T) {
	tests := []struct {
		m     int
		ratio float64
		want  []int
	}{
		{99, 1.5, []int{1, 2, 3, 5, 8, 12, 18, 27, 41, 62, 93, 99}},
		{1, 1.5, []int{1}},
		{5, 2, []int{1, 2, 4, 5}},
	}
	for _, tc := range tests {
		if got := tailRanks(tc.m, tc.ratio); !slices.Equal(got, tc.want) {
			t.Errorf("tailRanks(%d, %g) = %v, want %v", tc.m, tc.ratio, got, tc.want)
		}
	}
}

func TestEncode(t *testing.T) {
	s := toySample(t, 5, 4, 1)
	// Independent moments of all scores (no scaling needed at this magnitude).
	var all []float64
	for i := range s.N() {
		all = append(append(all, s.Correct[i]), s.IncorrectRow(i)...)
	}
	mean, sd := stat.PopMeanStdDev(all, nil)
	x := encode[float64](s, AllScores, 0)
	for i := range s.N() {
		row := x[i*5 : (i+1)*5]
		want := append([]float64{s.Correct[i]}, s.IncorrectRow(i)...)
		for j := range want {
			if w := (want[j] - mean) / sd; math.Abs(row[j]-w) > 1e-12 {
				t.Fatalf("AllScores row %d col %d = %g, want %g", i, j, row[j], w)
			}
		}
	}
	size := inputSize(TailGaps, 5, 1.5)
	g := encode[float64](s, TailGaps, 1.5)
	ranks := tailRanks(4, 1.5)
	for i := range s.N() {
		inc := s.IncorrectRow(i)
		for j, rk := range ranks {
			if w := (s.Correct[i] - inc[len(inc)-rk]) / sd; math.Abs(g[i*size+1+j]-w) > 1e-12 {
				t.Fatalf("TailGaps row %d gap %d = %g, want %g", i, j, g[i*size+1+j], w)
			}
		}
	}
	// The gap to the highest incorrect score orders points like c - max(incorrect).
	for a := range s.N() {
		for b := range s.N() {
			da := s.Correct[a] - slices.Max(s.IncorrectRow(a))
			db := s.Correct[b] - slices.Max(s.IncorrectRow(b))
			if (da < db) != (g[a*size+1] < g[b*size+1]) {
				t.Fatalf("gap order differs for points %d and %d", a, b)
			}
		}
	}
}

func TestFit(t *testing.T) {
	s := toySample(t, 12, 4, 3)
	for _, opt := range []Optimizer{Adam, LBFGS} {
		p := tinyPreset(opt)
		var steps []int
		res, err := Estimator{Preset: p, Seed: 5}.Fit(context.Background(), s, 40, func(pr estimate.Progress) {
			if pr.Method != "cleanex" || pr.Total != p.Steps {
				t.Fatalf("progress %+v", pr)
			}
			steps = append(steps, pr.Step)
			if len(pr.C) != s.N() {
				t.Fatalf("progress carries %d C_x for %d points", len(pr.C), s.N())
			}
			for _, c := range pr.C {
				if !(c > 0 && c < 1) {
					t.Fatalf("progress C_x = %g outside (0,1)", c)
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Curve) != 41 || res.Curve[0] != 1 || res.Curve[1] != 1 {
			t.Fatalf("curve length %d, start %v", len(res.Curve), res.Curve[:2])
		}
		for k := 2; k <= 40; k++ {
			if !(res.Curve[k] <= res.Curve[k-1]) || res.Curve[k] < 0 {
				t.Fatalf("curve not non-increasing in [0,1] at k=%d: %g after %g", k, res.Curve[k], res.Curve[k-1])
			}
		}
		for _, c := range res.C {
			if !(c > 0 && c < 1) {
				t.Fatalf("C_x = %g outside (0,1)", c)
			}
		}
		// The curve is sum_x w_x C_x^(k-1) of the returned C.
		if want := accuracy.Expected(res.C, s.Weight, 40); accuracy.RMSE(want, res.Curve) > 1e-15 {
			t.Fatal("curve is not Expected(C)")
		}
		if len(res.Losses) == 0 || len(res.Losses) > p.Steps || len(steps) == 0 {
			t.Fatalf("%d losses, %d progress calls", len(res.Losses), len(steps))
		}
		if first, last := res.Losses[0], res.Losses[len(res.Losses)-1]; !(last < first/10) {
			t.Errorf("optimizer %d: loss %g -> %g, want at least a tenfold decrease", opt, first, last)
		}
		if !slices.IsSorted(steps) || steps[len(steps)-1] != p.Steps {
			t.Errorf("progress steps not increasing to %d: %v", p.Steps, steps)
		}
		again, err := Estimator{Preset: p, Seed: 5}.Fit(context.Background(), s, 40, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(again.Curve, res.Curve) || !slices.Equal(again.C, res.C) {
			t.Error("same seed gave a different fit")
		}
		other, err := Estimator{Preset: p, Seed: 6}.Fit(context.Background(), s, 40, nil)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(other.C, res.C) {
			t.Error("another seed gave the same fit")
		}
	}
}

func TestFitCancel(t *testing.T) {
	s := toySample(t, 10, 3, 4)
	for _, opt := range []Optimizer{Adam, LBFGS} {
		ctx, cancel := context.WithCancel(context.Background())
		calls := 0
		_, err := Estimator{Preset: tinyPreset(opt)}.Fit(ctx, s, 20, func(estimate.Progress) {
			calls++
			cancel()
		})
		if !errors.Is(err, context.Canceled) || calls != 1 {
			t.Errorf("optimizer %d: err %v after %d progress calls, want Canceled after 1", opt, err, calls)
		}
	}
}

func TestFitErrors(t *testing.T) {
	s := toySample(t, 4, 2, 5)
	if _, err := (Estimator{}).Fit(context.Background(), s, 1, nil); !errors.Is(err, ErrK2) {
		t.Errorf("k2=1: %v", err)
	}
	bad := tinyPreset(Adam)
	bad.LearningRate = 0
	if _, err := (Estimator{Preset: bad}).Fit(context.Background(), s, 10, nil); err == nil {
		t.Error("zero learning rate accepted")
	}
}

// TestFitEnsemble checks that with several networks the curve is the mean of
// the members' curves (each member is the one-network fit of the same
// stream) and that E_2 = sum_x w_x C_x still holds for the averaged C_x.
func TestFitEnsemble(t *testing.T) {
	s := toySample(t, 10, 3, 8)
	p := tinyPreset(LBFGS)
	p.Networks = 2
	res, err := Estimator{Preset: p, Seed: 3}.Fit(context.Background(), s, 30, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Losses) > 2*p.Steps {
		t.Fatalf("%d losses for 2 networks of at most %d steps", len(res.Losses), p.Steps)
	}
	// Member 0 alone is the one-network fit with the same seed.
	one := p
	one.Networks = 1
	m0, err := Estimator{Preset: one, Seed: 3}.Fit(context.Background(), s, 30, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Recover member 1's C_x from the averaged C and member 0's C.
	c1 := make([]float64, len(res.C))
	for i := range c1 {
		c1[i] = 2*res.C[i] - m0.C[i]
	}
	e1 := accuracy.Expected(c1, s.Weight, 30)
	for k := 2; k <= 30; k++ {
		if want := (m0.Curve[k] + e1[k]) / 2; math.Abs(res.Curve[k]-want) > 1e-9 {
			t.Fatalf("k=%d: curve %g, mean of members %g", k, res.Curve[k], want)
		}
	}
	if e2 := accuracy.RAUC(res.C, s.Weight); math.Abs(e2-res.Curve[2]) > 1e-12 {
		t.Errorf("E_2 %g, sum w C %g", res.Curve[2], e2)
	}
}

// TestFLOPs checks the cost formula against hand counts: the paper network
// at K = 100, r = 10 costs 6 * 1000 * (100*512 + 512*128 + 128*1) per step
// plus 6 * 1000 * 100 for the loss, 10,000 steps (about 7,000 GFLOP); fast
// stays within budgets of 3 GFLOP at K = 100 and 15 at K = 500 (r = 10),
// and at K = 500 trains on 2,000 of the 5,000 points (MaxTrainPoints, whole
// classes of 500 draws: ceil(2000 / 500) * 500) after one forward pass over
// all 5,000, 5.7 GFLOP (Fast's doc comment).
func TestFLOPs(t *testing.T) {
	want := 1e4 * (6*1000*float64(100*512+512*128+128) + 6*1000*100)
	if got := Paper().FLOPs(1000, 100); math.Abs(got-want) > 1e-6*want {
		t.Errorf("paper FLOPs %g, want %g", got, want)
	}
	wantFast := 300 * (6*1000*float64(13*32+32*16+16) + 6*1000*100)
	if got := Fast().FLOPs(1000, 100); math.Abs(got-wantFast) > 1e-6*wantFast || got > 3e9 {
		t.Errorf("fast FLOPs at K=100: %g, want %g (<= 3e9)", got, wantFast)
	}
	macs500 := float64(17*32 + 32*16 + 16)
	want500 := 300*(6*2000*macs500+6*2000*500) + 2*5000*macs500
	if got := Fast().FLOPs(5000, 500); math.Abs(got-want500) > 1e-6*want500 || got > 15e9 || math.Abs(got-5.7e9) > 0.05e9 {
		t.Errorf("fast FLOPs at K=500: %g, want %g (5.7e9, <= 15e9)", got, want500)
	}
}

// TestFitSmallAndDegenerate runs the default preset on the smallest samples
// (2 and 3 classes) and on constant scores, where every point ties.
func TestFitSmallAndDegenerate(t *testing.T) {
	for _, k := range []int{2, 3} {
		s := toySample(t, k, 3, uint64(k))
		res, err := Estimator{}.Fit(context.Background(), s, 10, nil)
		if err != nil {
			t.Fatalf("K=%d: %v", k, err)
		}
		for kk := 2; kk <= 10; kk++ {
			if v := res.Curve[kk]; !(v >= 0 && v <= 1) || v > res.Curve[kk-1] {
				t.Fatalf("K=%d: curve[%d] = %g after %g", k, kk, v, res.Curve[kk-1])
			}
		}
	}
	m := &scores.Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1, 2},
		Scores: []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}}
	s, _, err := accuracy.NewSample(m, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Estimator{}.Fit(context.Background(), s, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Every point loses its ties: the observed curve is 0 for k >= 2, and the
	// fit must get close to it.
	if res.Curve[2] > 0.05 {
		t.Errorf("all-tie sample: predicted %g at k=2, observed 0", res.Curve[2])
	}
}

// TestSameEverywhere pins a hash of a fit's bits (curve, C_x and the losses,
// which see every rounding of the float64 loss): the native
// and the wasm test runs (./build.sh test runs both) check the same value, so
// the command line and the browser give the same CleaneX curve to the last
// bit. It holds because the fit path uses only detmath, portable math
// functions and the fixed-order kernels of kernels.go.
func TestSameEverywhere(t *testing.T) {
	s := toySample(t, 30, 5, 11)
	p := Fast()
	p.Steps = 60
	res, err := Estimator{Preset: p, Seed: 2}.Fit(context.Background(), s, 300, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	for _, v := range slices.Concat(res.Curve, res.C, res.Losses) {
		binary.Write(h, binary.LittleEndian, math.Float64bits(v))
	}
	const want = 0xbc8933bb442cabbd
	if got := h.Sum64(); got != want {
		t.Errorf("hash of the fit = %#x, want %#x (platform-dependent arithmetic crept in)", got, uint64(want))
	}
}
