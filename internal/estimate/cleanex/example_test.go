package cleanex_test

import (
	"context"
	"fmt"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate/cleanex"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

// Fit the fast preset on a 40-class pilot of a simulated problem and
// predict the accuracy at 400 classes.
func Example() {
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Normal,
		D: 5, Sigma2: 0.1, K: 400, R: 5, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := w.Pilot(40, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _, err := accuracy.NewSample(m, scores.Lower) // scores are distances
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := cleanex.PresetByName("fast")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := cleanex.Estimator{Preset: p, Seed: 1}.Fit(context.Background(), s, 400, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("observed at k=40: %.2f\n", s.Observed[40])
	fmt.Printf("predicted at k=40: %.2f, at k=400: %.2f\n", res.Curve[40], res.Curve[400])
	fmt.Printf("true at k=400: %.2f\n", w.Truth()[400])
	// Output:
	// observed at k=40: 0.91
	// predicted at k=40: 0.91, at k=400: 0.60
	// true at k=400: 0.69
}
