package plugin

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/scores"
)

// sample has K = 3 classes, unequal sizes (2, 1, 1), higher is better.
func sample(t *testing.T) *accuracy.Sample {
	t.Helper()
	m := &scores.Matrix{
		Classes: []string{"a", "b", "c"},
		Labels:  []int{0, 0, 1, 2},
		Scores: []float64{
			0.9, 0.1, 0.2, // beats both: R = 2
			0.5, 0.5, 0.1, // ties b, beats c: R = 1
			0.3, 0.35, 0.4, // beats a only: R = 1
			0.9, 0.8, 0.1, // beats neither: R = 0
		},
	}
	s, _, err := accuracy.NewSample(m, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestFitClosedForm(t *testing.T) {
	s := sample(t)
	var last estimate.Progress
	res, err := Estimator{}.Fit(context.Background(), s, 6, func(p estimate.Progress) { last = p })
	if err != nil {
		t.Fatal(err)
	}
	// w = 1/(K r_y): 1/6, 1/6, 1/3, 1/3; C = R/(K-1) = 1, 1/2, 1/2, 0.
	wantC := []float64{1, 0.5, 0.5, 0}
	for i, c := range res.C {
		if c != wantC[i] {
			t.Errorf("C[%d] = %v, want %v", i, c, wantC[i])
		}
	}
	for k := 2; k <= 6; k++ {
		want := 1.0/6 + (1.0/6+1.0/3)*math.Pow(0.5, float64(k-1))
		if math.Abs(res.Curve[k]-want) > 1e-15 {
			t.Errorf("E_%d = %v, want %v", k, res.Curve[k], want)
		}
	}
	// At k = 2 the plug-in equals the observed accuracy: both are sum_x w_x R_x/(K-1).
	if math.Abs(res.Curve[2]-s.Observed[2]) > 1e-15 {
		t.Errorf("E_2 = %v, observed %v", res.Curve[2], s.Observed[2])
	}
	if last.Method != "plugin" || last.Step != last.Total {
		t.Errorf("final progress %+v, want method plugin and step = total", last)
	}
}

func TestFitCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Estimator{}).Fit(ctx, sample(t), 5, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func ExampleEstimator_Fit() {
	m := &scores.Matrix{
		Classes: []string{"cat", "dog"},
		Labels:  []int{0, 1},
		Scores:  []float64{0.9, 0.2, 0.6, 0.4},
	}
	s, _, _ := accuracy.NewSample(m, scores.Higher)
	res, _ := Estimator{}.Fit(context.Background(), s, 4, nil)
	fmt.Printf("C = %v, E_2..E_4 = %.3f %.3f %.3f\n", res.C, res.Curve[2], res.Curve[3], res.Curve[4])
	// Output: C = [1 0], E_2..E_4 = 0.500 0.500 0.500
}
