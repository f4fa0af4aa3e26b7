package embed_test

import (
	"context"
	"fmt"

	"github.com/cleanex/cleanex/internal/embed"
)

// Three classes in the plane, two training embeddings each (their centroids
// are the class references) and one test point per class, scored by
// Euclidean distance to the centroids without building the score matrix.
func ExampleSummarise() {
	p := &embed.Problem{
		Classes: []string{"cat", "dog", "fox"},
		References: embed.Set{D: 2, Labels: []int{0, 0, 1, 1, 2, 2},
			Vectors: []float64{0, 0, 0, 2, 4, 0, 4, 2, 8, 0, 8, 2}},
		Test: embed.Set{D: 2, Labels: []int{0, 1, 2},
			Vectors: []float64{0.5, 1, 5, 1, 4.5, 1}}, // the fox test point lies nearer the dogs
		Metric: embed.Euclidean, Reference: embed.Centroid,
	}
	s, err := embed.Summarise(context.Background(), p, embed.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("R_x:", s.R)
	fmt.Printf("observed accuracy at 2 and 3 classes: %.3f %.3f\n", s.Observed[2], s.Observed[3])
	// Output:
	// R_x: [2 2 1]
	// observed accuracy at 2 and 3 classes: 0.833 0.667
}
