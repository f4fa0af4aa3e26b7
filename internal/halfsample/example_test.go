package halfsample_test

import (
	"context"
	"fmt"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/halfsample"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

// Measure on a simulated pilot of 50 classes: the spread is given on a grid
// up to 64 × 50 classes and read at any k with At.
func ExampleMeasure() {
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 5, Sigma2: 0.1, K: 500, R: 5, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := w.Pilot(50, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _, err := accuracy.NewSample(m, scores.Lower)
	if err != nil {
		fmt.Println(err)
		return
	}
	sp, err := halfsample.Measure(context.Background(), s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("grid:", sp.K[0], "to", sp.K[len(sp.K)-1])
	fmt.Println("spread at 500 classes above 0:", sp.At(500) > 0)
	// Output:
	// grid: 2 to 3200
	// spread at 500 classes above 0: true
}
