package accuracy

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/cleanex/cleanex/internal/scores"
)

// probabilityMatrix returns a matrix of k classes whose rows are class
// probabilities (positive, summing to 1), which NewSample reads as their
// logarithms.
func probabilityMatrix(rng *rand.Rand, k, perClass int) *scores.Matrix {
	m := randomMatrix(rng, k, perClass, 1000)
	for i := range m.N() {
		row := m.Row(i)
		sum := 0.0
		for j := range row {
			row[j] += 1 + rng.Float64()
			sum += row[j]
		}
		for j := range row {
			row[j] /= sum
		}
	}
	return m
}

func TestObservedAndSubsetEqualsSubset(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	cases := []struct {
		name string
		m    *scores.Matrix
		d    scores.Direction
	}{
		{"ties, higher", randomMatrix(rng, 14, 5, 3), scores.Higher},
		{"ties, lower", randomMatrix(rng, 14, 5, 3), scores.Lower},
		{"ties, auto", randomMatrix(rng, 9, 4, 4), scores.Auto},
		{"distinct, lower", randomMatrix(rng, 30, 3, 1<<30), scores.Lower},
		{"class probabilities", probabilityMatrix(rng, 12, 4), scores.Higher},
	}
	for _, c := range cases {
		for range 10 {
			classes := rng.Perm(c.m.K())[:2+rng.IntN(c.m.K()-1)]
			full, wantDir, err := NewSample(c.m, c.d)
			if err != nil {
				t.Fatal(err)
			}
			want, err := full.Subset(classes)
			if err != nil {
				t.Fatal(err)
			}
			truth, got, dir, err := ObservedAndSubset(c.m, c.d, classes)
			if err != nil {
				t.Fatalf("%s %v: %v", c.name, classes, err)
			}
			// The same values reached the same way: bit-identical.
			if !slices.Equal(truth, full.Observed) {
				t.Errorf("%s: truth %v, NewSample's observed curve %v", c.name, truth, full.Observed)
			}
			if dir != wantDir {
				t.Errorf("%s: direction %v, NewSample's %v", c.name, dir, wantDir)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %v: pilot differs from NewSample(...).Subset:\n got %+v\nwant %+v", c.name, classes, got, want)
			}
		}
	}
	if !probabilityMatrixReadAsLogs(t, cases[4].m) {
		t.Error("the class-probability case does not exercise the logarithm: NewSample did not take it")
	}
}

// probabilityMatrixReadAsLogs reports whether NewSample reads m as class
// probabilities, so that the test above compares a mapped orientation.
func probabilityMatrixReadAsLogs(t *testing.T, m *scores.Matrix) bool {
	s, _, err := NewSample(m, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	return s.LogProbabilities
}

func TestObservedAndSubsetRefuses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := randomMatrix(rng, 6, 3, 5)
	for _, bad := range [][]int{{0, 0}, {0, 6}, {-1, 2}} {
		if _, _, _, err := ObservedAndSubset(m, scores.Higher, bad); err == nil {
			t.Errorf("classes %v: no error", bad)
		}
	}
	if _, _, _, err := ObservedAndSubset(m, scores.Higher, []int{2}); !errors.Is(err, ErrTooFewClasses) {
		t.Errorf("one class: %v, want ErrTooFewClasses", err)
	}
	empty := &scores.Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1}, Scores: []float64{1, 0, 0, 0, 1, 0}}
	if _, _, _, err := ObservedAndSubset(empty, scores.Higher, []int{0, 1}); err == nil {
		t.Error("a class without points: no error")
	}
}
