package tail

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/detmath"
	"github.com/cleanex/cleanex/internal/estimate/esttest"
	"github.com/cleanex/cleanex/internal/scores"
	"gonum.org/v1/gonum/stat"
)

// tailPilot returns a pilot of k classes and n points whose incorrect
// scores (higher is better) are drawn per point from one of the given tail
// laws (point i uses laws[i % len(laws)]), each point with its own scale
// and shift when affine is true (the same draws either way); the correct
// score is the largest of 3 more draws.
func tailPilot(t *testing.T, k, n int, seed uint64, affine bool, laws ...func(*rand.Rand) float64) *accuracy.Sample {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	m := &scores.Matrix{Classes: make([]string, k), Scores: make([]float64, n*k), Labels: make([]int, n)}
	for j := range k {
		m.Classes[j] = fmt.Sprint("c", j)
	}
	for i := range n {
		law := laws[i%len(laws)]
		scale, shift := detmath.Exp(rng.NormFloat64()), 10*rng.NormFloat64()
		if !affine {
			scale, shift = 1, 0
		}
		y := i % k
		m.Labels[i] = y
		for j := range k {
			m.Scores[i*k+j] = shift + scale*law(rng)
		}
		m.Scores[i*k+y] = shift + scale*max(law(rng), law(rng), law(rng))
	}
	return esttest.Sample(t, m, scores.Higher)
}

func exponential(r *rand.Rand) float64 { return r.ExpFloat64() }
func uniform(r *rand.Rand) float64     { return r.Float64() }
func pareto(r *rand.Rand) float64      { return detmath.Pow(1-r.Float64(), -1.0/2) } // tail index 2

// bruteSpread computes the spread the plain way (bruteExcesses), t = top
// excess / σ for every point with σ > 0; the reference is 20,000 draws of
// m-1 pooled values (uniformly: every weight is 1), max / mean, from a
// generator of its own.
func bruteSpread(s *accuracy.Sample) float64 {
	m, points, pool := bruteExcesses(s)
	var logT []float64
	for _, p := range points {
		if p.sigma > 0 {
			logT = append(logT, math.Log(p.top/p.sigma))
		}
	}
	rng := rand.New(rand.NewPCG(99, 98))
	var logRef []float64
	for range 20000 {
		sum, top := 0.0, 0.0
		for range m - 1 {
			v := pool[rng.IntN(len(pool))]
			sum, top = sum+v, max(top, v)
		}
		logRef = append(logRef, math.Log(top*float64(m-1)/sum))
	}
	return stat.Variance(logT, nil) / stat.Variance(logRef, nil)
}

// TestSpread compares Spread with bruteSpread on pilots of one tail law and
// of two (within 5%: both references are random draws), and checks what
// it is for: a pilot whose points mix two tail shapes has a larger spread
// than pilots of either shape alone. One light tail (uniform, exponential)
// gives a spread near or below 1; one heavy tail (Pareto of index 2) about
// 1.5, since standardising each point by its own mean excess, as the pool
// does, damps its largest values. Too few classes for two excesses per
// point, or squashed scores, give 0.
func TestSpread(t *testing.T) {
	laws := map[string]func(*rand.Rand) float64{"uniform": uniform, "exponential": exponential, "pareto": pareto}
	spread := map[string]float64{}
	for _, names := range [][]string{{"uniform"}, {"exponential"}, {"pareto"}, {"uniform", "exponential"}, {"exponential", "pareto"}} {
		var ls []func(*rand.Rand) float64
		for _, n := range names {
			ls = append(ls, laws[n])
		}
		s := tailPilot(t, 101, 1000, 3, true, ls...)
		name := strings.Join(names, " and ")
		h, b := Spread(s), bruteSpread(s)
		spread[name] = h
		t.Logf("%s: spread %.3f, brute force %.3f", name, h, b)
		if math.Abs(h/b-1) > 0.05 {
			t.Errorf("%s: spread %.3f, brute force %.3f: want them within 5%%", name, h, b)
		}
	}
	for _, mix := range [][2]string{{"uniform", "exponential"}, {"exponential", "pareto"}} {
		if both := spread[mix[0]+" and "+mix[1]]; both < max(spread[mix[0]], spread[mix[1]])+0.05 {
			t.Errorf("%s and %s mixed: spread %.3f, want it above either alone (%.3f, %.3f) by 0.05",
				mix[0], mix[1], both, spread[mix[0]], spread[mix[1]])
		}
	}
	if h := spread["uniform"]; !(h > 0.6 && h < 1) {
		t.Errorf("one uniform law: spread %.3f, want it in (0.6, 1)", h)
	}
	if h := Spread(tailPilot(t, 9, 100, 3, true, exponential)); h != 0 {
		t.Errorf("9 classes (one excess per point): spread %v, want 0", h)
	}
	// Scores squashed as sharp probabilities are: the top excess is most
	// of every point's excess sum, and the spread cannot tell.
	squash := func(r *rand.Rand) float64 { return detmath.Exp(8 * r.NormFloat64()) }
	if h := Spread(tailPilot(t, 101, 1000, 3, true, squash)); h != 0 {
		t.Errorf("squashed scores: spread %v, want 0", h)
	}
}

// TestSpreadIgnoresScaleAndShift: a scale and a shift per point leave the
// spread as it is (up to rounding in the excesses).
func TestSpreadIgnoresScaleAndShift(t *testing.T) {
	a := Spread(tailPilot(t, 101, 500, 7, false, exponential, pareto))
	b := Spread(tailPilot(t, 101, 500, 7, true, exponential, pareto))
	if math.Abs(a/b-1) > 1e-9 {
		t.Errorf("spread %v of the plain scores, %v with a scale and shift per point; want them equal", a, b)
	}
}

// TestLargestOf: a draw of largestOf(rest) is distributed as the largest of
// rest values drawn one by one by weight; their means over 20,000 draws
// agree within 1.5% (exponential values, weights 1, 2 and 5 by rank), for
// 1 value and for 40.
func TestLargestOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	weights := []float64{1, 2, 5}
	pool := make([]float64, 3*400)
	for i := range pool {
		pool[i] = rng.ExpFloat64()
	}
	var cum []float64
	total := 0.0
	for i := range pool {
		total += weights[i%3]
		cum = append(cum, total)
	}
	one := func() float64 { // one value drawn by weight, the plain way
		i, _ := slices.BinarySearch(cum, rng.Float64()*total)
		return pool[i]
	}
	largest := largestOf(pool, weights)
	for _, rest := range []int{1, 40} {
		plain, fast := 0.0, 0.0
		for range 20000 {
			top := 0.0
			for range rest {
				top = max(top, one())
			}
			plain += top / 20000
			fast += largest(rest) / 20000
		}
		if math.Abs(fast/plain-1) > 0.015 {
			t.Errorf("the largest of %d: mean %.4f drawn at once, %.4f drawn one by one", rest, fast, plain)
		}
	}
}

// TestSpreadBeyondDraws: beyond SpreadDraws excesses per point (a pilot of
// 1,201 classes: 299 excesses) a mix of two tail shapes still has a larger
// spread than either shape alone.
func TestSpreadBeyondDraws(t *testing.T) {
	if m, _, _ := excessRanks(tailPilot(t, 1201, 1201, 4, true, exponential)); m-1 <= SpreadDraws {
		t.Fatalf("threshold rank %d: not beyond %d draws", m, SpreadDraws)
	}
	u := Spread(tailPilot(t, 1201, 1201, 4, true, uniform))
	e := Spread(tailPilot(t, 1201, 1201, 4, true, exponential))
	both := Spread(tailPilot(t, 1201, 1201, 4, true, uniform, exponential))
	t.Logf("spread at 1,201 classes: uniform %.3f, exponential %.3f, both %.3f", u, e, both)
	if !(u > 0 && e > 0 && both > max(u, e)+0.05) {
		t.Errorf("spread at 1,201 classes: uniform %.3f, exponential %.3f, both %.3f; want both above either by 0.05", u, e, both)
	}
}

// TestSpreadSameEverywhere pins the spread's bits: fixed draws, detmath's
// logarithm and exponential, sums in a fixed order (the wasm tests run it
// under node).
func TestSpreadSameEverywhere(t *testing.T) {
	h := fnv.New64a()
	for _, s := range []*accuracy.Sample{
		esttest.Sample(t, esttest.Pilot(t, 150, 4), scores.Lower),
		tailPilot(t, 601, 601, 5, true, exponential, pareto),
	} {
		binary.Write(h, binary.LittleEndian, math.Float64bits(Spread(s)))
	}
	const want = 0x820ca4709fca3ba6
	if got := h.Sum64(); got != want {
		t.Errorf("hash of the spreads = %#x, want %#x (platform-dependent arithmetic crept in)", got, uint64(want))
	}
}

// BenchmarkSpread times the spread on the Pilot of 100 and of 500 classes
// with 4 points each.
func BenchmarkSpread(b *testing.B) {
	for _, k1 := range []int{100, 500} {
		s := esttest.Sample(b, esttest.Pilot(b, k1, 42), scores.Lower)
		b.Run(fmt.Sprintf("k1=%d", k1), func(b *testing.B) {
			for b.Loop() {
				Spread(s)
			}
		})
	}
}

// TestSquashed: scores squashed as sharp probabilities are (the top excess
// most of each point's excess sum) are squashed; one shared law or a mix of
// laws is not; a pilot of 10 classes (2 excesses per point) cannot tell.
func TestSquashed(t *testing.T) {
	squash := func(r *rand.Rand) float64 { return detmath.Exp(8 * r.NormFloat64()) }
	for _, tc := range []struct {
		name string
		k    int
		laws []func(*rand.Rand) float64
		want bool
	}{
		{"squashed", 101, []func(*rand.Rand) float64{squash}, true},
		{"uniform", 101, []func(*rand.Rand) float64{uniform}, false},
		{"exponential and Pareto", 101, []func(*rand.Rand) float64{exponential, pareto}, false},
		{"squashed, 10 classes", 10, []func(*rand.Rand) float64{squash}, false},
	} {
		if got := Squashed(tailPilot(t, tc.k, 500, 3, true, tc.laws...)); got != tc.want {
			t.Errorf("%s: Squashed %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSquashedThreshold builds pilots of 21 classes (m = 5: n = 4 excesses
// per point, every rank a knot of weight 1) from two row shapes whose top
// excess is a known share of the excess sum: 0.35 (not squashed, t_x =
// 1.4 <= n/2) and 0.6 (t_x = 2.4 > n/2). Squashed is true exactly when
// more than half of the points have the 0.6 shape (11 of 22 is not).
func TestSquashedThreshold(t *testing.T) {
	const k = 21
	shapes := [][4]float64{{3.5, 2.5, 2, 2}, {6, 2, 1, 1}} // shares 0.35, 0.6 of the sum
	build := func(sharp, points int) *accuracy.Sample {
		m := &scores.Matrix{Classes: make([]string, k)}
		for j := range m.Classes {
			m.Classes[j] = fmt.Sprint("c", j)
		}
		for x := range points {
			shape := shapes[0]
			if x < sharp {
				shape = shapes[1]
			}
			f := 1 + 0.1*float64(x) // each row its own unit
			inc := []float64{shape[0], shape[1], shape[2], shape[3], 0}
			for j := 1; j <= k-1-5; j++ {
				inc = append(inc, -float64(j))
			}
			row := make([]float64, k)
			i := 0
			for col := range row {
				if col == x%k {
					row[col] = 100 * f
					continue
				}
				row[col] = inc[i] * f
				i++
			}
			m.Labels = append(m.Labels, x%k)
			m.Scores = append(m.Scores, row...)
		}
		return esttest.Sample(t, m, scores.Higher)
	}
	for _, tc := range []struct {
		sharp, points int
		want          bool
	}{{0, 21, false}, {10, 21, false}, {11, 21, true}, {21, 21, true}, {11, 22, false}, {12, 22, true}} {
		if got := Squashed(build(tc.sharp, tc.points)); got != tc.want {
			t.Errorf("%d of %d points with the top excess 0.6 of the sum: Squashed %v, want %v", tc.sharp, tc.points, got, tc.want)
		}
	}
}
