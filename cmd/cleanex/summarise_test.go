package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/summary"
)

// TestSummarise: summarise writes internal/summary/testdata/tiny_summary.csv
// from the tiny pilot (the committed file is its output), predict gives the
// same curves, byte for byte, from that summary as from the matrix (every
// method, the estimate included), --sql prints assets/summary.sql, and a
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
	if code, got, errs := cli(t, "", append(args, sumFile)...); code != 0 || got != want || !strings.Contains(got, "estimate_lo") {
		t.Errorf("predict on the summary: exit %d, stderr %q, same as on the matrix: %v", code, errs, got == want)
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
