package realdata_test

import (
	"fmt"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/bank/realdata"
)

// Draw 50 words and their real misspellings, and read the accuracy curve.
func ExamplePopulation() {
	m, dir, err := realdata.Population(realdata.Misspellings, 1, 50)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _, err := accuracy.NewSample(m, dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("classes:", m.K(), "direction:", dir)
	fmt.Println("every class has a point:", s.N() >= m.K())
	fmt.Printf("accuracy at 2 classes: %.2f\n", s.Observed[2])
	// Output:
	// classes: 50 direction: higher
	// every class has a point: true
	// accuracy at 2 classes: 1.00
}
