package detmath

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// inputs returns a fixed spread of arguments: random over several scales plus edge cases.
func inputs() []float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0, 1, -1, 0.5, 1e-300, 1e-20, 0.84375, 1.25, 1 / 0.35, 6, 27.9, 28, 700, -700, 709.7, -745}
	for i := 0; i < 20000; i++ {
		scale := math.Pow(10, float64(rng.IntN(8))-4)
		xs = append(xs, (2*rng.Float64()-1)*scale)
	}
	return xs
}

// ulps returns the distance in units in the last place between a and b.
func ulps(a, b float64) float64 {
	if a == b || (math.IsNaN(a) && math.IsNaN(b)) {
		return 0
	}
	return math.Abs(a-b) / math.Abs(math.Nextafter(b, math.Inf(1))-b)
}

func TestAgainstMath(t *testing.T) {
	exact := runtime.GOARCH == "wasm" // math runs the same portable code there
	funcs := []struct {
		name string
		f, g func(float64) float64
		tol  float64
	}{
		{"Exp", Exp, math.Exp, 2},
		{"Log", func(x float64) float64 { return Log(math.Abs(x)) }, func(x float64) float64 { return math.Log(math.Abs(x)) }, 1},
		{"Erfc", Erfc, math.Erfc, 2},
	}
	for _, fn := range funcs {
		for _, x := range inputs() {
			got, want := fn.f(x), fn.g(x)
			if exact && math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s(%v) = %v, math = %v: must be bit-identical under wasm", fn.name, x, got, want)
			}
			if d := ulps(got, want); d > fn.tol {
				t.Fatalf("%s(%v) = %v, math = %v: %v ulp apart, want <= %v", fn.name, x, got, want, d, fn.tol)
			}
		}
	}
}

func TestSpecialValues(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	cases := []struct {
		name      string
		got, want float64
	}{
		{"Exp(+Inf)", Exp(inf), inf}, {"Exp(-Inf)", Exp(-inf), 0}, {"Exp(0)", Exp(0), 1}, {"Exp(1000)", Exp(1000), inf},
		{"Log(0)", Log(0), -inf}, {"Log(+Inf)", Log(inf), inf}, {"Log(1)", Log(1), 0},
		{"Erfc(+Inf)", Erfc(inf), 0}, {"Erfc(-Inf)", Erfc(-inf), 2}, {"Erfc(0)", Erfc(0), 1}, {"Erfc(30)", Erfc(30), 0},
		{"Pow(2, 10)", Pow(2, 10), 1024}, {"Pow(0, 3)", Pow(0, 3), 0}, {"Pow(5, 0)", Pow(5, 0), 1},
	}
	for _, c := range cases {
		if math.Abs(c.got-c.want) > 1e-12*math.Max(1, math.Abs(c.want)) && c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	for name, v := range map[string]float64{"Exp(NaN)": Exp(nan), "Log(-1)": Log(-1), "Log(NaN)": Log(nan), "Erfc(NaN)": Erfc(nan), "Pow(-2, 0.5)": Pow(-2, 0.5)} {
		if !math.IsNaN(v) {
			t.Errorf("%s = %v, want NaN", name, v)
		}
	}
}

// TestSameEverywhere pins a hash of many results: the native and the wasm test
// runs (./build.sh test runs both) check the same value, so together they prove
// the results are bit-identical across the two platforms.
func TestSameEverywhere(t *testing.T) {
	h := fnv.New64a()
	var b [8]byte
	put := func(v float64) {
		u := math.Float64bits(v)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
	for _, x := range inputs() {
		put(Exp(x))
		put(Log(math.Abs(x)))
		put(Erfc(x))
		put(Pow(math.Abs(x), 1.7))
	}
	const want = 0x72e8d813a71f2eeb
	if got := h.Sum64(); got != want {
		t.Errorf("hash of results = %#x, want %#x (platform-dependent arithmetic crept in)", got, uint64(want))
	}
}

func BenchmarkExp(b *testing.B) {
	s := 0.0
	for i := 0; b.Loop(); i++ {
		s += Exp(float64(i%1000) * -0.01)
	}
	_ = s
}

// TestVariance compares Variance with closed forms: {1, 2, 3, 4} has sample
// variance 5/3; 1..n has n (n + 1) / 12; a constant has 0.
func TestVariance(t *testing.T) {
	if got := Variance([]float64{1, 2, 3, 4}); math.Abs(got-5.0/3) > 1e-15 {
		t.Errorf("Variance(1..4) = %v, want 5/3", got)
	}
	x := make([]float64, 1000)
	for i := range x {
		x[i] = float64(i + 1)
	}
	if got, want := Variance(x), 1000.0*1001/12; math.Abs(got-want) > 1e-9*want {
		t.Errorf("Variance(1..1000) = %v, want %v", got, want)
	}
	if got := Variance([]float64{7, 7, 7}); got != 0 {
		t.Errorf("Variance of a constant = %v, want 0", got)
	}
}
