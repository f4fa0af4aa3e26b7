package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/summary"
)

// TestSummarise: summarise writes internal/summary/testdata/tiny_summary.csv
// from the tiny pilot (the committed file is its output), predict gives the
// same curves, byte for byte, from that summary as from the matrix (every
// method, the estimate included; not its interval, which for a summary
// comes from the calibration without the half-sampling spread, since a
// summary keeps no classes to draw), --sql prints assets/summary.sql, and a
// summary is refused where it cannot serve: backtest, --direction lower,
// summarise on a summary.
func TestSummarise(t *testing.T) {
	sumFile := filepath.Join("..", "..", "internal", "summary", "testdata", "tiny_summary.csv")
	code, out, errs := cli(t, "", "summarise", tinyPilot("tiny.csv"))
	if code != 0 {
		t.Fatalf("summarise: exit %d, stderr %q", code, errs)
	}
	committed, err := os.ReadFile(sumFile)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(committed) {
		t.Errorf("%s is not what summarise writes: regenerate it with cleanex summarise internal/inputs/testdata/tiny.csv", sumFile)
	}
	args := []string{"predict", "--k2", "30", "--seed", "2"}
	_, want, _ := cli(t, "", append(args, tinyPilot("tiny.csv"))...)
	if code, got, errs := cli(t, "", append(args, sumFile)...); code != 0 || withoutInterval(t, got) != withoutInterval(t, want) || !strings.Contains(got, "estimate_lo") {
		t.Errorf("predict on the summary: exit %d, stderr %q, same as on the matrix: %v", code, errs, withoutInterval(t, got) == withoutInterval(t, want))
	}
	recipe, err := summary.SQL(summary.DefaultQuantiles)
	if err != nil {
		t.Fatal(err)
	}
	if code, got, _ := cli(t, "", "summarise", "--sql"); code != 0 || got != recipe {
		t.Errorf("summarise --sql: exit %d, not the recipe", code)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"backtest", "--k1", "3", sumFile}, "backtest draws subsets"},
		{[]string{"predict", "--k2", "30", "--direction", "lower", sumFile}, "does not apply to it"},
		{[]string{"summarise", sumFile}, "is a per-point summary already"},
		{[]string{"summarise", "--quantiles", "1", tinyPilot("tiny.csv")}, "--quantiles"},
		{[]string{"summarise", "--sql", "x.csv"}, "reads no file"},
	} {
		code, _, errs := cli(t, "", c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q, want one line with %q", c.args, code, errs, c.want)
		}
	}
}

// withoutInterval returns the curves CSV out without its estimate_lo and
// estimate_hi columns: a pilot read as per-point summaries (a summary file,
// embeddings) has the same curves as its score matrix, but its interval
// comes from the calibration without the half-sampling spread
// (recommend.Calibration.WithoutB), which needs the matrix's classes.
func withoutInterval(t *testing.T, out string) string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("reading the curves CSV: %v", err)
	}
	var keep []int
	for i, name := range recs[0] {
		if name != "estimate_lo" && name != "estimate_hi" {
			keep = append(keep, i)
		}
	}
	var b strings.Builder
	for _, r := range recs {
		for j, i := range keep {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(r[i])
		}
		b.WriteByte('\n')
	}
	return b.String()
}
