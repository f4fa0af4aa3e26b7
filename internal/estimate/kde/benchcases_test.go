//go:build benchcases

package kde

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
)

// benchDir holds the 16 benchmark cases; KDE_BENCH_DIR overrides it.
func benchDir() string {
	if d := os.Getenv("KDE_BENCH_DIR"); d != "" {
		return d
	}
	return "/work/shared/benchmark/sim-d5-k100"
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// readTruth reads a k,truth file into a Curve (c[0] = c[1] = 1).
func readTruth(t *testing.T, path string) accuracy.Curve {
	t.Helper()
	rows := readCSV(t, path)
	c := accuracy.Curve{1, 1}
	for i, r := range rows[1:] {
		k, err1 := strconv.Atoi(r[0])
		v, err2 := strconv.ParseFloat(r[1], 64)
		if err1 != nil || err2 != nil || k != i+2 {
			t.Fatalf("%s row %d: bad k,truth %q", path, i+2, r)
		}
		c = append(c, v)
	}
	return c
}

func median(x []float64) float64 {
	y := slices.Clone(x)
	slices.Sort(y)
	n := len(y)
	if n%2 == 1 {
		return y[n/2]
	}
	return (y[n/2-1] + y[n/2]) / 2
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// TestBenchmarkCases fits KDE (LCV and UCV) on the 16 pilot cases and compares
// the RMSE against the truth (k = 2..2000) with the reference columns kde:lcv
// and kde:ucv. Run with: go test -tags benchcases -run BenchmarkCases -v.
// With KDE_EXACT=1 it also runs the same search on the exact O(n^2) criteria
// (minutes) and reports those RMSEs and the RMSE between the two curves.
func TestBenchmarkCases(t *testing.T) {
	dir := benchDir()
	ref := readCSV(t, filepath.Join(dir, "reference_rmse.csv"))
	col := map[string]int{}
	for j, name := range ref[0] {
		col[name] = j
	}
	var out strings.Builder
	fmt.Fprintf(&out, "%-22s %8s %8s %8s %8s\n", "case", "LCV", "ref-lcv", "UCV", "ref-ucv")
	var lcv, refL, ucv, refU []float64
	for _, row := range ref[1:] {
		file := row[col["file"]]
		f, err := os.Open(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		m, err := scores.Parse(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		s, dir2, err := accuracy.NewSample(m, scores.Auto)
		if err != nil {
			t.Fatal(err)
		}
		if dir2 != scores.Lower {
			t.Fatalf("%s: direction %v, want lower", file, dir2)
		}
		truth := readTruth(t, filepath.Join(dir, strings.TrimSuffix(file, ".csv")+"_truth.csv"))
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
		rl, _ := strconv.ParseFloat(row[col["kde:lcv"]], 64)
		ru, _ := strconv.ParseFloat(row[col["kde:ucv"]], 64)
		lcv, ucv, refL, refU = append(lcv, got[0]), append(ucv, got[1]), append(refL, rl), append(refU, ru)
		fmt.Fprintf(&out, "%-22s %8.4f %8.4f %8.4f %8.4f\n", strings.TrimSuffix(file, ".csv"), got[0], rl, got[1], ru)
	}
	fmt.Fprintf(&out, "%-22s %8.4f %8.4f %8.4f %8.4f\n", "median", median(lcv), median(refL), median(ucv), median(refU))
	fmt.Fprintf(&out, "%-22s %8.4f %8.4f %8.4f %8.4f\n", "mean", mean(lcv), mean(refL), mean(ucv), mean(refU))
	t.Log("\n" + out.String())
	if d := math.Abs(median(lcv) - median(refL)); d > 0.005 {
		t.Errorf("LCV median RMSE %.4f differs from the reference %.4f by %.4f > 0.005", median(lcv), median(refL), d)
	}
}
