package draw

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// check fails unless cls holds k distinct classes of 0..K-1 in ascending order.
func check(t *testing.T, cls []int, K, k int) {
	t.Helper()
	if len(cls) != k || !slices.IsSorted(cls) {
		t.Fatalf("%v: want %d ascending classes", cls, k)
	}
	for i, c := range cls {
		if c < 0 || c >= K || i > 0 && c == cls[i-1] {
			t.Fatalf("%v: want %d distinct classes of 0..%d", cls, k, K-1)
		}
	}
}

// TestClassesIsPerm checks that Classes equals the first k of rand.Perm on the
// same stream, sorted: the draw backtest and simulate made before this package.
func TestClassesIsPerm(t *testing.T) {
	d := New(7, 0x74657374_74657374)
	rng := rand.New(rand.NewPCG(7, 0x74657374_74657374))
	for _, kk := range [][2]int{{10, 3}, {50, 50}, {2, 2}, {1000, 17}} {
		got := d.Classes(kk[0], kk[1])
		want := rng.Perm(kk[0])[:kk[1]]
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("Classes(%d, %d) = %v, want %v", kk[0], kk[1], got, want)
		}
		check(t, got, kk[0], kk[1])
	}
}

// TestContinue checks Continue against a partial Fisher-Yates shuffle written
// out, over several calls that carry the permutation, and that each draw is
// k distinct classes.
func TestContinue(t *testing.T) {
	const K, k = 30, 11
	d := New(3, 0x72656772_65737300)
	rng := rand.New(rand.NewPCG(3, 0x72656772_65737300))
	perm := make([]int, K)
	for i := range perm {
		perm[i] = i
	}
	for range 20 {
		for i := range k {
			j := i + rng.IntN(K-i)
			perm[i], perm[j] = perm[j], perm[i]
		}
		want := slices.Clone(perm[:k])
		slices.Sort(want)
		got := d.Continue(K, k)
		if !slices.Equal(got, want) {
			t.Fatalf("Continue = %v, want %v", got, want)
		}
		check(t, got, K, k)
	}
}

// TestUniform checks that each class comes up about k/K of the time in both
// draws (a loose bound: 6 standard deviations).
func TestUniform(t *testing.T) {
	const K, k, n = 20, 5, 20000
	for name, f := range map[string]func(*Drawer) []int{
		"Classes":  func(d *Drawer) []int { return d.Classes(K, k) },
		"Continue": func(d *Drawer) []int { return d.Continue(K, k) },
	} {
		d := New(1, 2)
		var count [K]int
		for range n {
			for _, c := range f(d) {
				count[c]++
			}
		}
		p := float64(k) / K
		mean, sd := n*p, 6*math.Sqrt(n*p*(1-p))
		for c, v := range count {
			if float64(v) < mean-sd || float64(v) > mean+sd {
				t.Errorf("%s: class %d drawn %d times, want %.0f ± %.0f", name, c, v, mean, sd)
			}
		}
	}
}
