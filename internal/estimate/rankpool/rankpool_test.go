package rankpool

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestWeights(t *testing.T) {
	for _, tc := range []struct {
		ranks []int
		end   int
		want  []float64
	}{
		{[]int{1, 2, 3, 4}, 5, []float64{1, 1, 1, 1}},
		{[]int{1, 2, 5, 10}, 20, []float64{1, 2, 4, 7.5}},
		{[]int{3}, 7, []float64{3.5}},
	} {
		if got := Weights(tc.ranks, tc.end); !slices.Equal(got, tc.want) {
			t.Errorf("Weights(%v, %d) = %v, want %v", tc.ranks, tc.end, got, tc.want)
		}
	}
}

// Below and Above agree with a plain count over every value and its weight,
// ties counting half, and add up to Total.
func TestBelowAboveBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	weights := Weights([]int{1, 2, 3, 5, 8, 12}, 20) // 1, 1, 1.5, 2.5, 3.5, 6
	type item struct{ v, w float64 }
	var all []item
	p := New(weights, 40)
	for range 40 {
		for j, w := range weights {
			v := float64(rng.IntN(9)) / 4 // many ties
			p.Add(j, v)
			all = append(all, item{v, w})
		}
	}
	p.Sort()
	total := 0.0
	for _, it := range all {
		total += it.w
	}
	if p.Total() != total {
		t.Errorf("Total = %v, want %v", p.Total(), total)
	}
	for _, v := range []float64{-1, 0, 0.25, 0.3, 1, 2, 3} {
		below, above := 0.0, 0.0
		for _, it := range all {
			switch {
			case it.v < v:
				below += it.w
			case it.v > v:
				above += it.w
			default:
				below += it.w / 2
				above += it.w / 2
			}
		}
		if got := p.Below(v); got != below {
			t.Errorf("Below(%v) = %v, want %v", v, got, below)
		}
		if got := p.Above(v); got != above {
			t.Errorf("Above(%v) = %v, want %v", v, got, above)
		}
		if p.Below(v)+p.Above(v) != total {
			t.Errorf("Below + Above at %v = %v, want the total %v", v, p.Below(v)+p.Above(v), total)
		}
	}
}

func ExamplePool() {
	// Three values at rank 1 and two at rank 4 of ranks up to 7: rank 1
	// weighs (4 - 0)/2 = 2, rank 4 weighs (7 - 1)/2 = 3.
	p := New(Weights([]int{1, 4}, 7), 3)
	for _, v := range []float64{0.1, 0.5, 0.9} {
		p.Add(0, v)
	}
	p.Add(1, 0.5)
	p.Add(1, 0.2)
	p.Sort()
	fmt.Println(p.Total(), p.Below(0.5), p.Above(0.5))
	// Output: 12 7.5 4.5
}
