package kde_test

import (
	"context"
	"fmt"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate/kde"
	"github.com/cleanex/cleanex/internal/scores"
)

// Four classes, two test points each; scores are similarities (higher is
// better). KDE smooths each point's 3 incorrect scores into a CDF, evaluates it
// at the correct score and extrapolates E_k = sum_x w_x C_x^(k-1).
func ExampleEstimator_Fit() {
	m := &scores.Matrix{
		Classes: []string{"a", "b", "c", "d"},
		Labels:  []int{0, 0, 1, 1, 2, 2, 3, 3},
		Scores: []float64{
			0.9, 0.2, 0.4, 0.1,
			0.6, 0.5, 0.3, 0.7,
			0.3, 0.8, 0.2, 0.1,
			0.4, 0.7, 0.5, 0.2,
			0.1, 0.3, 0.9, 0.4,
			0.2, 0.6, 0.5, 0.4,
			0.3, 0.2, 0.1, 0.8,
			0.5, 0.1, 0.4, 0.9,
		},
	}
	s, _, err := accuracy.NewSample(m, scores.Higher)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := kde.Estimator{Bandwidth: kde.LCV}.Fit(context.Background(), s, 100, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("observed accuracy at 4 classes: %.3f\n", s.Observed[4])
	fmt.Printf("KDE accuracy at 4, 10, 100 classes: %.2f %.2f %.2f\n", res.Curve[4], res.Curve[10], res.Curve[100])
	// Output:
	// observed accuracy at 4 classes: 0.750
	// KDE accuracy at 4, 10, 100 classes: 0.77 0.66 0.46
}
