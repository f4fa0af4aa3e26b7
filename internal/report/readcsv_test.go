package report

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
)

// A curves CSV read back gives the curves written, and writing them again
// gives the same bytes.
func TestReadCSVRoundTrip(t *testing.T) {
	c := example()
	c.Estimate = accuracy.Curve{1, 1, 0.9, 0.79, 0.7, 0.55}
	c.EstimateLo = accuracy.Curve{1, 1, 0.85, 0.7, 0.6, 0.45}
	c.EstimateHi = accuracy.Curve{1, 1, 0.95, 0.85, 0.8, 0.65}
	c.Methods[0].Curve[4] = 1.0 / 3 // a value needing all its digits
	var b bytes.Buffer
	if err := c.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCSV(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatalf("ReadCSV: %v\n%s", err, b.String())
	}
	if got.K1 != c.K1 || got.K2 != c.K2 {
		t.Errorf("K1, K2 = %d, %d; want %d, %d", got.K1, got.K2, c.K1, c.K2)
	}
	for _, pair := range []struct {
		name      string
		got, want accuracy.Curve
	}{
		{"observed", got.Observed, c.Observed}, {"truth", got.Truth, c.Truth},
		{"estimate", got.Estimate, c.Estimate}, {"estimate_lo", got.EstimateLo, c.EstimateLo},
		{"estimate_hi", got.EstimateHi, c.EstimateHi},
	} {
		if !slices.Equal(pair.got, pair.want) {
			t.Errorf("%s = %v, want %v", pair.name, pair.got, pair.want)
		}
	}
	if len(got.Methods) != len(c.Methods) {
		t.Fatalf("%d methods, want %d", len(got.Methods), len(c.Methods))
	}
	for _, m := range c.Methods {
		i := slices.IndexFunc(got.Methods, func(g Method) bool { return g.Name == m.Name })
		if i < 0 || !slices.Equal(got.Methods[i].Curve, m.Curve) || !math.IsNaN(got.Methods[i].Seconds) {
			t.Errorf("method %s read back as %+v, want curve %v and no time", m.Name, got.Methods[max(i, 0)], m.Curve)
		}
	}
	var again bytes.Buffer
	if err := got.WriteCSV(&again); err != nil {
		t.Fatal(err)
	}
	if again.String() != b.String() {
		t.Errorf("written again:\n%s\nwant\n%s", again.String(), b.String())
	}
}

func TestReadCSVErrors(t *testing.T) {
	for _, tc := range []struct{ name, csv, want string }{
		{"empty", "", "header"},
		{"no observed", "k,plugin\n2,0.9\n", "want k,observed"},
		{"unknown column", "k,observed,magic\n2,0.9,0.8\n", `column 3, "magic": not a curve`},
		{"twice", "k,observed,plugin,plugin\n2,0.9,0.8,0.8\n", `column 4, "plugin": named twice`},
		{"no rows", "k,observed\n", "no rows"},
		{"k out of order", "k,observed\n2,0.9\n4,0.8\n", `row 3, column "k": "4", want 3`},
		{"not an accuracy", "k,observed,plugin\n2,0.9,1.5\n", `row 2, column "plugin": "1.5" is not an accuracy`},
		{"gap", "k,observed,plugin\n2,0.9,\n3,0.8,0.7\n", `row 3, column "plugin": a value after an empty cell`},
		{"short row", "k,observed,plugin\n2,0.9\n", "row 2"},
		{"no observed values", "k,observed,plugin\n2,,0.9\n", "observed column is empty"},
	} {
		_, err := ReadCSV(strings.NewReader(tc.csv))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}
