package bank_test

import (
	"context"
	"fmt"

	"github.com/cleanex/cleanex/internal/bank"
)

// List the bank's families, then build one simulated pilot of 50 classes
// with the exact accuracy curve of its world of 2,000 classes.
func Example() {
	fmt.Println("families:", bank.Families())
	fmt.Println("pilots:", len(bank.Pilots()), "of", bank.K1s, "classes")
	ps := bank.Select([]string{"sim-d5"}, []int{50})
	l, err := ps[0].Load(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("pilot:", l.Pilot.ID, "k1 =", l.Sample.K, "points =", len(l.Sample.Labels))
	fmt.Printf("observed at k1: %.3f; truth at k1: %.3f, at K = %d: %.3f\n",
		l.Sample.Observed[l.Sample.K], l.Truth[l.Sample.K], l.Pilot.K, l.Truth[l.Pilot.K])
	// Output:
	// families: [sim-d3 sim-d5 sim-d10 real-glyphs real-misspellings real-verses real-senses real-speech]
	// pilots: 256 of [50 100 200 500] classes
	// pilot: sim-d5/Yn-Xn-s0.1/k50/w5000001 k1 = 50 points = 500
	// observed at k1: 0.938; truth at k1: 0.923, at K = 2000: 0.444
}
