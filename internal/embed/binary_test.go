package embed

import (
	"context"
	"slices"
	"testing"

	"github.com/cleanex/cleanex/internal/estimate/kde"
	"github.com/cleanex/cleanex/internal/summary"
)

// TestBinaryKeepsPrecomputed: the binary form of a summarised Sample keeps
// KDE's precomputed C_x, so a worker that receives it gives the same KDE
// curve as the one that scored the embeddings.
func TestBinaryKeepsPrecomputed(t *testing.T) {
	p := simulated(3, 30, 5, 2, 0.8, false)
	s, err := Summarise(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := summary.AppendBinary(nil, s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := summary.ReadBinary(b)
	if err != nil {
		t.Fatal(err)
	}
	key := kde.Estimator{}.Key()
	if !slices.Equal(got.Precomputed(key), s.Precomputed(key)) || got.Precomputed(key) == nil {
		t.Fatal("the precomputed C_x were not kept")
	}
	a, _ := kde.Estimator{}.Fit(context.Background(), s, 100, nil)
	c, _ := kde.Estimator{}.Fit(context.Background(), got, 100, nil)
	if !slices.Equal(a.Curve, c.Curve) {
		t.Error("KDE curves differ after the round trip")
	}
}
