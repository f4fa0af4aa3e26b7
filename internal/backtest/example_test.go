package backtest_test

import (
	"context"
	"fmt"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/backtest"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/estimate/plugin"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

// Backtest the plug-in on a simulated problem of 40 classes with pilots of 10.
func ExampleRun() {
	w, err := simulate.Generate(simulate.Config{D: 3, Sigma2: 0.2, K: 40, R: 5, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := w.Matrix(w.AllClasses())
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _, err := accuracy.NewSample(m, scores.Lower)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := backtest.Run(context.Background(), s, backtest.Config{K1: 10, Reps: 4, Seed: 1},
		[]estimate.Estimator{plugin.Estimator{}}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	med := res.Medians[0]
	fmt.Printf("%d fits; %s: median RMSE %.3f, predicted %.3f vs true %.3f at K = %d\n",
		len(res.Rows), med.Method, med.RMSE, med.Predicted, med.True, res.K)
	// Output:
	// 4 fits; plugin: median RMSE 0.190, predicted 0.772 vs true 0.460 at K = 40
}
