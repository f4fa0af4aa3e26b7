package summary

import (
	"slices"
	"testing"

	"github.com/cleanex/cleanex/internal/benchcases"
)

// TestBinaryRoundTrip: ReadBinary(AppendBinary(s)) holds the same numbers as
// s, bit for bit, precomputed values included; damaged forms are refused.
func TestBinaryRoundTrip(t *testing.T) {
	cases, err := benchcases.Load(benchcases.Dir())
	if err != nil {
		t.Fatal(err)
	}
	s := summarise(t, cases[1].Sample, 16).Sample
	if _, err := AppendBinary(nil, cases[1].Sample); err == nil {
		t.Error("a matrix Sample was encoded")
	}
	b, err := AppendBinary(nil, s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadBinary(b)
	if err != nil {
		t.Fatal(err)
	}
	ranks := s.KnotRanks()
	if !slices.Equal(got.KnotRanks(), ranks) || got.K != s.K || !slices.Equal(got.Observed, s.Observed) {
		t.Fatal("ranks, K or the observed curve differ")
	}
	for i := range s.N() {
		a, c := s.Point(i, nil), got.Point(i, nil)
		if a.Label != c.Label || a.Below != c.Below || a.Ties != c.Ties || a.Correct != c.Correct ||
			a.Mean != c.Mean || a.M2 != c.M2 || a.MaxAbs != c.MaxAbs || !slices.Equal(a.Values, c.Values) {
			t.Fatalf("point %d differs", i)
		}
	}
	for _, cut := range []int{0, 3, 10, len(b) / 2, len(b) - 1} {
		if _, err := ReadBinary(b[:cut]); err == nil {
			t.Errorf("cut at %d bytes: no error", cut)
		}
	}
}
