package embed

import (
	"context"
	"slices"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate/kde"
	"github.com/cleanex/cleanex/internal/summary"
)

// A RowSummariser fed the explicit score matrix's rows, oriented, gives
// every point the summary and the KDE C_x that Summarise gives it, bit for
// bit; it refuses a row of the wrong length or class.
func TestRowSummariserEqualsSummarise(t *testing.T) {
	p := simulated(3, 160, 4, 2, 0.8, false)
	est := kde.Estimator{Bandwidth: kde.LCV}
	s, err := Summarise(context.Background(), p, Options{KDE: est, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Matrix(p)
	if err != nil {
		t.Fatal(err)
	}
	k := len(p.Classes)
	ranks := summary.KnotRanks(k, summary.DefaultQuantiles)
	rs, err := NewRowSummariser(k, ranks, est)
	if err != nil {
		t.Fatal(err)
	}
	want := s.Precomputed(est.Key())
	row := make([]float64, k)
	for i, y := range m.Labels {
		for j, v := range m.Row(i) {
			row[j] = -v // distances: lower is better
		}
		before := slices.Clone(row)
		got, c, err := rs.Summarise(y, row)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(row, before) {
			t.Fatal("Summarise changed the row")
		}
		if exp := s.Point(i, nil); !samePoint(got, exp) || c != want[i] {
			t.Fatalf("point %d: %+v, C %v; Summarise gives %+v, C %v", i, got, c, exp, want[i])
		}
	}
	// In two steps, the same.
	inc := make([]float64, k-1)
	for i, y := range m.Labels {
		for j, v := range m.Row(i) {
			row[j] = -v
		}
		got, err := rs.Point(y, row, inc)
		if err != nil {
			t.Fatal(err)
		}
		if !samePoint(got, s.Point(i, nil)) || !slices.IsSorted(inc) || rs.C(got, inc) != want[i] {
			t.Fatalf("point %d in two steps differs", i)
		}
	}
	if _, err := rs.Point(0, row, inc[1:]); err == nil {
		t.Error("too little room for the incorrect scores was accepted")
	}
	if _, _, err := rs.Summarise(k, row); err == nil {
		t.Error("a class outside 0..K-1 was accepted")
	}
	if _, _, err := rs.Summarise(0, row[1:]); err == nil {
		t.Error("a short row was accepted")
	}
	if _, err := NewRowSummariser(1, nil, est); err == nil {
		t.Error("one class was accepted")
	}
}

func samePoint(a, b accuracy.PointSummary) bool {
	return a.Label == b.Label && a.Correct == b.Correct && a.Below == b.Below && a.Ties == b.Ties &&
		a.Mean == b.Mean && a.M2 == b.M2 && a.MaxAbs == b.MaxAbs && slices.Equal(a.Values, b.Values)
}
