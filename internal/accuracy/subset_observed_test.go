package accuracy

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cleanex/cleanex/internal/scores"
)

func TestSubsetObservedEqualsSubset(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	m := randomMatrix(rng, 12, 5, 3) // unequal class sizes and ties
	for _, d := range []scores.Direction{scores.Higher, scores.Lower} {
		s, _, err := NewSample(m, d)
		if err != nil {
			t.Fatal(err)
		}
		for range 30 {
			classes := rng.Perm(s.K)[:2+rng.IntN(s.K-1)]
			sub, err := s.Subset(classes)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.SubsetObserved(classes)
			if err != nil {
				t.Fatal(err)
			}
			// Same weights summed per R in the same point order: bit-identical.
			if !slices.Equal(got, sub.Observed) {
				t.Errorf("%v %v: SubsetObserved %v, Subset().Observed %v", d, classes, got, sub.Observed)
			}
		}
	}
	s, _, err := NewSample(m, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]int{{0, 0}, {0, 12}, {-1, 2}} {
		if _, err := s.SubsetObserved(bad); err == nil {
			t.Errorf("SubsetObserved(%v): no error", bad)
		}
	}
	if _, err := s.SubsetObserved([]int{3}); !errors.Is(err, ErrTooFewClasses) {
		t.Errorf("SubsetObserved of one class: %v, want ErrTooFewClasses", err)
	}
}
