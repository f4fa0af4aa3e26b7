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

// TestSummariseOutOfRange: scores whose moments a summary cannot hold (a
// sum of squared deviations that overflows, or underflows to 0 while the
// scores vary) are refused with one line naming the point and what to do,
// and nothing is written: such a summary could not be read back, or would
// give CleaneX a spread of 0. Scores of ordinary size, and rows whose
// scores are all equal (m2 = 0 exactly), are summarised.
func TestSummariseOutOfRange(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"1e308", "label,a,b,c\na,1e308,-1e308,0\nb,1,2,3\nc,1,2,3\n", "point 1: its scores reach 1e+308 in absolute value, out of a summary's range: the sum of squared deviations of its scores (m2) overflows a 64-bit float; divide every score by a power of ten"},
		{"1e200", "label,a,b,c\na,3,2,1\nb,1,2e200,3\nc,1,2,3\n", "point 2: its scores reach 2e+200"},
		{"1e-300", "label,a,b,c\na,3e-300,2e-300,1e-300\nb,1e-300,2e-300,3e-300\nc,1e-300,2e-300,3e-300\n", "point 1: its scores reach only 3e-300 in absolute value, out of a summary's range: the sum of squared deviations of its scores (m2) underflows a 64-bit float; multiply every score by a power of ten"},
		{"ordinary", "label,a,b,c\na,3e-90,2e-90,1e-90\nb,1e90,2e90,3e90\nc,1,2,3\n", ""},
		{"a constant row", "label,a,b,c\na,1e-300,1e-300,1e-300\nb,1,2,3\nc,1,2,3\n", ""},
	} {
		code, out, errs := cli(t, tc.in, "summarise", "-")
		if tc.want == "" {
			if code != 0 || len(strings.Split(strings.TrimSpace(out), "\n")) != 4 {
				t.Errorf("%s: exit %d, stderr %q, output\n%s", tc.name, code, errs, out)
			}
			continue
		}
		if code != exitInput || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "cleanex summarise: standard input: "+tc.want) {
			t.Errorf("%s: exit %d, %d bytes written, stderr %q; want exit 2 and one line with %q", tc.name, code, len(out), errs, tc.want)
		}
	}
}
