//go:build benchcases

package kde

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/backtest"
	"github.com/cleanex/cleanex/internal/benchcases"
)

var median = backtest.Median

func mean(v []float64) float64 { return stat.Mean(v, nil) }

// TestBenchmarkCases fits KDE (LCV and UCV) on the 16 pilot cases and compares
// the RMSE against the truth (k = 2..2000) with the reference columns kde:lcv
// and kde:ucv. Run with: go test -tags benchcases -run BenchmarkCases -v.
// With KDE_EXACT=1 it also runs the same search on the exact O(n^2) criteria
// (minutes) and reports those RMSEs and the RMSE between the two curves.
func TestBenchmarkCases(t *testing.T) {
	cases, err := benchcases.Load(benchcases.Dir())
	if err != nil {
		t.Fatalf("benchmark cases: %v (BENCH_CASES overrides benchcases.CasesDir)", err)
	}
	var out strings.Builder
	fmt.Fprintf(&out, "%-22s %8s %8s %8s %8s\n", "case", "LCV", "ref-lcv", "UCV", "ref-ucv")
	var lcv, refL, ucv, refU []float64
	for _, c := range cases {
		file, s, truth := c.Name, c.Sample, c.Truth
		var got [2]float64
		for i, sel := range []Selector{LCV, UCV} {
			res, err := Estimator{Bandwidth: sel}.Fit(context.Background(), s, truth.Max(), nil)
			if err != nil {
				t.Fatal(err)
			}
			got[i] = accuracy.RMSE(res.Curve, truth)
			if os.Getenv("KDE_EXACT") == "1" {
				ce := make([]float64, s.N())
				for p := range ce {
					x := s.IncorrectRow(p)
					ce[p] = exactC(s.Correct[p], x, exactBandwidth(x, sel))
				}
				ex := accuracy.Expected(ce, s.Weight, truth.Max())
				t.Logf("%s %v: fast %.4f exact %.4f (RMSE vs truth); fast vs exact curve RMSE %.2e",
					file, sel, got[i], accuracy.RMSE(ex, truth), accuracy.RMSE(res.Curve, ex))
			}
		}
		rl, ru := c.Reference["kde:lcv"], c.Reference["kde:ucv"]
		lcv, ucv, refL, refU = append(lcv, got[0]), append(ucv, got[1]), append(refL, rl), append(refU, ru)
		fmt.Fprintf(&out, "%-22s %8.4f %8.4f %8.4f %8.4f\n", file, got[0], rl, got[1], ru)
	}
	fmt.Fprintf(&out, "%-22s %8.4f %8.4f %8.4f %8.4f\n", "median", median(lcv), median(refL), median(ucv), median(refU))
	fmt.Fprintf(&out, "%-22s %8.4f %8.4f %8.4f %8.4f\n", "mean", mean(lcv), mean(refL), mean(ucv), mean(refU))
	t.Log("\n" + out.String())
	if d := math.Abs(median(lcv) - median(refL)); d > 0.005 {
		t.Errorf("LCV median RMSE %.4f differs from the reference %.4f by %.4f > 0.005", median(lcv), median(refL), d)
	}
}
