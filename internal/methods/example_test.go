package methods_test

import (
	"context"
	"fmt"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/scores"
)

// Build the methods of a list and fit them on a small pilot.
func ExampleNewList() {
	ests, err := methods.NewList("plugin", methods.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	m := &scores.Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 1},
		Scores: []float64{0.9, 0.1, 0.8, 0.3}}
	s, _, err := accuracy.NewSample(m, scores.Higher)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range ests {
		res, err := e.Fit(context.Background(), s, 4, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %.3f %.3f %.3f\n", e.Name(), res.Curve[2], res.Curve[3], res.Curve[4])
	}
	_, err = methods.New("svm", methods.Options{})
	fmt.Println(err != nil)
	// Output:
	// plugin: 0.500 0.500 0.500
	// true
}
