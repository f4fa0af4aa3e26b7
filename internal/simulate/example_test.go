package simulate_test

import (
	"fmt"
	"os"

	"github.com/cleanex/cleanex/internal/simulate"
)

// Generate a small problem, write the score matrix of a 3-class pilot and
// print the exact accuracy over all classes at k = 2 and k = K.
func Example() {
	w, err := simulate.Generate(simulate.Config{
		Classes: simulate.Normal, Points: simulate.Normal,
		D: 5, Sigma2: 0.1, K: 20, R: 2, Seed: 1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	cls, err := w.SampleClasses(3, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("pilot classes:", cls)
	m, err := w.Matrix(cls)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("pilot matrix:", m.N(), "points x", m.K(), "classes", m.Classes)
	truth := w.Truth()
	fmt.Printf("truth at k=2: %.4f, at k=%d: %.4f\n", truth[2], w.Config.K, truth[w.Config.K])
	if err := w.WriteCSV(os.Stdout, cls[:2]); err != nil {
		fmt.Println(err)
	}
	// Output:
	// pilot classes: [6 12 17]
	// pilot matrix: 6 points x 3 classes [c0006 c0012 c0017]
	// truth at k=2: 0.9974, at k=20: 0.9500
	// label,c0006,c0012
	// c0006,1.0414738755061568,1.6504251508055272
	// c0006,0.46437127871356004,0.788154416346582
	// c0012,0.786140414043667,0.6623858250239281
	// c0012,1.299616906673762,0.42652951820498636
}
