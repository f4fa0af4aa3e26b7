package report

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
)

func example() Curves {
	return Curves{
		K1:       2,
		K2:       5,
		Observed: accuracy.Curve{1, 1, 0.9},
		Truth:    accuracy.Curve{1, 1, 0.9, 0.8, 0.7, 0.6},
		Methods: []Method{
			{Name: "cleanex", Curve: accuracy.Curve{1, 1, 0.9, 0.8, 0.7, 0.5}, Seconds: 2},
			{Name: "plugin", Curve: accuracy.Curve{1, 1, 0.9, 0.81, 0.72, 0.625}, Seconds: 0.5},
		},
	}
}

func TestKs(t *testing.T) {
	for _, tc := range []struct {
		k1, k2 int
		want   string
	}{
		{100, 2000, "[100 200 500 1000 2000]"},
		{100, 4000, "[100 200 500 1000 2000 4000]"},
		{100, 10000, "[100 200 500 1000 2000 5000 10000]"},
		{100, 50000, "[100 1000 10000 50000]"},
		{0, 5, "[5]"},
		{100, 500, "[100 200 500]"},
		{2, 5, "[2 4 5]"},
		{10, 10, "[10]"},
	} {
		if got := fmt.Sprint(Curves{K1: tc.k1, K2: tc.k2}.Ks()); got != tc.want {
			t.Errorf("Ks(%d, %d) = %s, want %s", tc.k1, tc.k2, got, tc.want)
		}
	}
}

func TestTable(t *testing.T) {
	rows := example().Table()
	names := []string{"observed", "plugin", "cleanex", "truth"}
	if len(rows) != len(names) {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		if r.Name != names[i] {
			t.Fatalf("row %d is %s, want %s", i, r.Name, names[i])
		}
	}
	// cleanex differs from the truth only at k = 5 by 0.1: RMSE = sqrt(0.01/4) = 0.05.
	if got := rows[2].RMSE; math.Abs(got-0.05) > 1e-12 {
		t.Errorf("cleanex RMSE %v, want 0.05", got)
	}
	// observed has values at k = 2 only.
	if o := rows[0].At; o[0] != 0.9 || !math.IsNaN(o[1]) || !math.IsNaN(o[2]) {
		t.Errorf("observed row %v", o)
	}
	if p := rows[1].At; p[1] != 0.72 || p[2] != 0.625 {
		t.Errorf("plugin row %v", p)
	}
}

func TestWriteCSV(t *testing.T) {
	var b strings.Builder
	if err := example().WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	want := `k,observed,plugin,cleanex,truth
2,0.9,0.9,0.9,0.9
3,,0.81,0.8,0.8
4,,0.72,0.7,0.7
5,,0.625,0.5,0.6
`
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func ExampleCurves_WriteCSV() {
	c := Curves{K1: 2, K2: 3, Observed: accuracy.Curve{1, 1, 0.75},
		Methods: []Method{{Name: "plugin", Curve: accuracy.Curve{1, 1, 0.75, 0.5625}}}}
	if err := c.WriteCSV(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// k,observed,plugin
	// 2,0.75,0.75
	// 3,,0.5625
}

// The table's RMSE runs over k = 2..K2 only, even when the curves (here
// the truth, a method and the estimate, each given to k = 5) reach
// further: with K2 = 4 it is recomputed here over k = 2..4. Column("k")
// gives k = 2..K2, one per row of the other columns.
func TestTableRMSEUpToK2(t *testing.T) {
	c := example()
	c.K2 = 4
	c.Estimate = accuracy.Curve{1, 1, 0.85, 0.8, 0.75, 0.1}
	rmse := func(p accuracy.Curve) float64 {
		s := 0.0
		for k := 2; k <= 4; k++ {
			s += (p[k] - c.Truth[k]) * (p[k] - c.Truth[k])
		}
		return math.Sqrt(s / 3)
	}
	for _, r := range c.Table() {
		var want float64
		switch r.Name {
		case "estimate":
			want = rmse(c.Estimate)
		case "cleanex":
			want = rmse(c.Methods[0].Curve)
		case "plugin":
			want = rmse(c.Methods[1].Curve)
		default:
			continue
		}
		if math.Abs(r.RMSE-want) > 1e-12 {
			t.Errorf("%s: RMSE %v, want %v (over k = 2..4)", r.Name, r.RMSE, want)
		}
	}
	ks, ok := c.Column("k")
	if len(ks) != c.K2-1 {
		t.Fatalf("column k has %d values, want %d", len(ks), c.K2-1)
	}
	for i, k := range ks {
		if k != float64(i+2) || !ok[i] {
			t.Errorf("column k, row %d: %v (%v), want %d", i, k, ok[i], i+2)
		}
	}
}
