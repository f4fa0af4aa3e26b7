package regress_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate/regress"
	"github.com/cleanex/cleanex/internal/scores"
)

// A pilot of 60 classes whose points each have a known C_x, so the true curve
// is E[C^(k-1)]: the regression extrapolates the observed curve to 600 classes.
// Ten times beyond the pilot its bandwidth, chosen on half-pilots of 30
// classes, can miss badly, as here (0.01 against 0.11): one reason the
// product answers with the recommended estimate and its interval.
func ExampleEstimator() {
	const k1, r, k2 = 60, 8, 600
	rng := rand.New(rand.NewPCG(1, 2))
	m := &scores.Matrix{Classes: make([]string, k1)}
	for c := range m.Classes {
		m.Classes[c] = fmt.Sprint("class", c)
	}
	var cx []float64
	for y := range k1 {
		for range r {
			// C_x = Phi(Z), Z ~ N(2, 0.8^2); the correct score is the C_x
			// quantile of the uniform incorrect scores.
			c := 0.5 * math.Erfc(-(2+0.8*rng.NormFloat64())/math.Sqrt2)
			cx = append(cx, c)
			m.Labels = append(m.Labels, y)
			for j := range k1 {
				if j == y {
					m.Scores = append(m.Scores, c)
				} else {
					m.Scores = append(m.Scores, rng.Float64())
				}
			}
		}
	}
	s, _, err := accuracy.NewSample(m, scores.Higher)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := regress.Estimator{Seed: 1}.Fit(context.Background(), s, k2, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	w := make([]float64, len(cx))
	for i := range w {
		w[i] = 1 / float64(len(cx))
	}
	truth := accuracy.Expected(cx, w, k2)
	for _, k := range []int{2, 60, 600} {
		fmt.Printf("k = %3d: predicted %.2f, E[C^(k-1)] of the pilot's points %.2f\n", k, res.Curve[k], truth[k])
	}
	// Output:
	// k =   2: predicted 0.93, E[C^(k-1)] of the pilot's points 0.93
	// k =  60: predicted 0.32, E[C^(k-1)] of the pilot's points 0.34
	// k = 600: predicted 0.01, E[C^(k-1)] of the pilot's points 0.11
}
