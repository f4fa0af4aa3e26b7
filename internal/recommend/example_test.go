package recommend_test

import (
	"context"
	"fmt"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

// Recommend the accuracy at 1,000 classes from a pilot of 50 classes of one of
// the paper's simulated worlds, and compare it with the world's exact curve.
func ExampleRun() {
	w, err := simulate.Generate(simulate.Config{
		Classes: simulate.Normal, Points: simulate.Normal,
		D: 5, Sigma2: 0.1, K: 1000, R: 5, Seed: 3,
	})
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
	table, err := recommend.DefaultTable()
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _, err := recommend.Run(context.Background(), s, 1000, 1, table.Calibration, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	if out.Err != nil {
		fmt.Println(out.Err)
		return
	}
	truth := w.Truth()
	fmt.Printf("at k = 50 (the pilot's own accuracy): %.2f\n", out.Estimate[50])
	fmt.Printf("at k = 1000: %.2f (80%% interval %.2f-%.2f); truth %.2f\n", out.Estimate[1000], out.Lo[1000], out.Hi[1000], truth[1000])
	fmt.Println("from:", out.Sources, "warnings:", len(out.Warnings))
	// Output:
	// at k = 50 (the pilot's own accuracy): 0.91
	// at k = 1000: 0.52 (80% interval 0.42-0.62); truth 0.52
	// from: [regression pooled tail cleanex ×4] warnings: 0
}
