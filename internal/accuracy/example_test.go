package accuracy_test

import (
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
)

// Three classes, distances (lower is better); class a has two test points.
func ExampleNewSample() {
	csv := `label,a,b,c
a,0.1,0.5,0.9
a,0.6,0.4,0.8
b,0.7,0.2,0.3
c,0.4,0.5,0.3
`
	m, err := scores.Parse(strings.NewReader(csv))
	if err != nil {
		fmt.Println(err)
		return
	}
	s, dir, err := accuracy.NewSample(m, scores.Auto)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("direction:", dir)
	fmt.Println("R_x:", s.R)
	for k := 2; k <= s.K; k++ {
		fmt.Printf("accuracy at %d classes: %.4f\n", k, s.Observed[k])
	}
	// Output:
	// direction: lower
	// R_x: [2 1 2 2]
	// accuracy at 2 classes: 0.9167
	// accuracy at 3 classes: 0.8333
}

func ExampleExpected() {
	// Two equally weighted points whose correct class beats a random incorrect
	// class with probability 0.9 and 0.5.
	e := accuracy.Expected([]float64{0.9, 0.5}, []float64{0.5, 0.5}, 4)
	fmt.Printf("%.4f %.4f %.4f\n", e[2], e[3], e[4])
	// Output: 0.7000 0.5300 0.4270
}
