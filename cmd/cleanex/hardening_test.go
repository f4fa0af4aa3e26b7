package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/simulate"
)

// smallCSV is the 3-class matrix the hardening checks start from.
const smallCSV = "label,a,b,c\na,.9,.1,.2\na,.8,.3,.1\nb,.2,.7,.3\nb,.1,.6,.5\nc,.3,.2,.8\nc,.4,.5,.45\n"

// twoCSV has two classes, the documented minimum.
const twoCSV = "label,a,b\na,.9,.1\nb,.2,.8\na,.6,.4\nb,.3,.1\n"

// endless is an input without line ends: byte b forever.
type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

// TestHardeningErrors: flags and inputs that could crash, hang, fill memory
// or point the wrong way exit 2 with one line saying what is wrong and what
// to do.
func TestHardeningErrors(t *testing.T) {
	small := writeFile(t, "small.csv", smallCSV)
	tests := []struct {
		name  string
		stdin io.Reader
		args  []string
		want  string
	}{
		{"k2 max int", nil, []string{"predict", "--k2", "9223372036854775807", "--methods", "plugin", small}, "--k2 9223372036854775807: too large"},
		{"k2 1e12", nil, []string{"predict", "--k2", "1000000000000", "--methods", "plugin", small}, "the largest --k2 accepted is 10,000,000 classes; at 1000000000000 a run would need ~270 TB"},
		{"k2 beyond int64", nil, []string{"predict", "--k2", "99999999999999999999", small}, "out of range"},
		{"dev zero", endless(0), []string{"predict", "--k2", "10", "-"}, "holds NUL bytes"},
		{"no line ends", endless('a'), []string{"predict", "--k2", "10", "-"}, "a line longer than 32 MiB without a line end"},
		{"gzip", strings.NewReader("\x1f\x8b\x08\x08label,a,b\n"), []string{"predict", "--k2", "10", "-"}, "standard input: unreadable file: the gzip header cannot be read (unexpected EOF); compress the file again"},
		{"xlsx", strings.NewReader("PK\x03\x04label,a,b\n"), []string{"predict", "--k2", "10", "-"}, "standard input: unreadable file: a zip archive that cannot be read (npz: could not create zip reader: zip: not a valid zip file); give an .npz written by numpy.savez(f, scores=S, labels=y), or save an Excel workbook's sheet as CSV UTF-8"},
		{"empty npz", strings.NewReader("PK\x05\x06" + strings.Repeat("\x00", 18)), []string{"predict", "--k2", "10", "-"}, "standard input: missing: an empty zip archive, which holds no arrays; save the scores and the labels in it: numpy.savez(f, scores=S, labels=y)"},
		{"reps 1e9", nil, []string{"backtest", "--reps", "1000000000", small}, "--reps 1000000000: too many; the largest --reps accepted is 100000"},
		{"k2 octal", nil, []string{"predict", "--k2", "010", small}, `"010" has a leading zero`},
		{"k2 binary", nil, []string{"predict", "--k2", "0b101", small}, `"0b101" is not a plain decimal number`},
		{"k2 hex", nil, []string{"predict", "--k2", "0x10", small}, `"0x10" is not a plain decimal number`},
		{"simulate k octal", nil, []string{"simulate", "--k", "0100"}, `"0100" has a leading zero`},
		{"seed negative", nil, []string{"predict", "--k2", "5", "--seed", "-1", small}, `invalid value "-1" for flag -seed: "-1" is negative; give a whole number of 0 or more`},
		{"seed octal", nil, []string{"predict", "--k2", "5", "--seed", "017", small}, `"017" has a leading zero`},
		{"sigma2 1e308", nil, []string{"simulate", "--sigma2", "1e308", "--k", "5", "--r", "2"}, "sigma2 = 1e+308 with d = 5: the squared distances would overflow"},
		{"missing header", strings.NewReader(strings.SplitN(smallCSV, "\n", 2)[1]), []string{"predict", "--k2", "3", "-"}, "the first row looks like data, not a header"},
		{"two label columns", strings.NewReader("label,label,a,b\na,a,1,2\nb,b,2,1\n"), []string{"predict", "--k2", "3", "-"}, `columns 1 and 2 are both named "label"`},
		{"second label column", strings.NewReader("label,truth,a,b\na,a,1,2\nb,b,2,1\n"), []string{"predict", "--k2", "3", "-"}, `column 2 looks like a second label column`},
		{"normal form", strings.NewReader("label,caf\u00e9,b\ncafe\u0301,1,2\nb,2,1\n"), []string{"predict", "--k2", "3", "-"}, `another Unicode normal form`},
		{"invisible character", strings.NewReader("label,cafe,b\ncaf\u200be,1,2\nb,2,1\n"), []string{"predict", "--k2", "3", "-"}, `only by the invisible character(s) U+200B`},
		{"preset", nil, []string{"predict", "--k2", "3", "--preset", "slow", small}, `--preset: `},
		{"kde bandwidth", nil, []string{"predict", "--k2", "3", "--kde-bandwidth", "x", small}, `--kde-bandwidth: `},
		{"folder", nil, []string{"predict", "--k2", "5", "."}, ".: a folder, not a file: give the pilot's score file"},
		{"all scores equal", strings.NewReader("label,a,b,c\na,.5,.5,.5\nb,.5,.5,.5\nc,.5,.5,.5\n"), []string{"predict", "--k2", "5", "-"}, "every test point gives all of its classes the same score"},
		{"every row constant", strings.NewReader("label,a,b\na,1,1\nb,2,2\n"), []string{"backtest", "--k1", "2", "-"}, "the scores cannot tell the classes apart"},
		{"only regression on 2 classes", strings.NewReader(twoCSV), []string{"predict", "--k2", "3", "--methods", "regression", "--estimate=false", "-"}, "skipped regression: regression needs a pilot of at least 3 classes, this one has 2; add classes or choose other methods with --methods"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdin := tc.stdin
			if stdin == nil {
				stdin = strings.NewReader("")
			}
			var out, errb bytes.Buffer
			code := run(tc.args, stdin, &out, &errb)
			e := errb.String()
			if code != exitInput || strings.Count(e, "\n") != 1 || !strings.Contains(e, tc.want) {
				t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", tc.args, code, e, tc.want)
			}
		})
	}
}

// TestHardeningAccepted: inputs that were refused or misread and are now
// read as meant.
func TestHardeningAccepted(t *testing.T) {
	want := map[string][]string{"observed": {"0.9166666666666666", "0.8333333333333333"}, "plugin": {"0.9166666666666666", "0.8749999999999999"}}
	for _, tc := range []struct{ name, in string }{
		{"lone CR line ends", strings.ReplaceAll(smallCSV, "\n", "\r")},
		{"Excel sep line", "sep=;\r\n" + strings.ReplaceAll(smallCSV, ",", ";")},
		{"CRLF", strings.ReplaceAll(smallCSV, "\n", "\r\n")},
	} {
		code, out, errs := cli(t, tc.in, "predict", "--k2", "3", "--methods", "plugin", "-")
		if code != 0 {
			t.Errorf("%s: exit %d, stderr %q", tc.name, code, errs)
			continue
		}
		recs := readCSV(t, out)
		for name, w := range want {
			if got := column(recs, name); strings.Join(got, ",") != strings.Join(w, ",") {
				t.Errorf("%s: column %s = %v, want %v", tc.name, name, got, w)
			}
		}
	}
}

// column returns the cells of the named column below the header (nil when
// there is no such column).
func column(recs [][]string, name string) []string {
	for j, h := range recs[0] {
		if h == name {
			var out []string
			for _, r := range recs[1:] {
				out = append(out, r[j])
			}
			return out
		}
	}
	return nil
}

// TestTwoClasses: on two classes the methods that can run do, regression is
// skipped with a one-line reason, and the exit status is 0; the same for
// backtest --k1 2.
func TestTwoClasses(t *testing.T) {
	code, out, errs := cli(t, twoCSV, "predict", "--k2", "4", "-")
	if code != 0 {
		t.Fatalf("predict: exit %d, stderr %q", code, errs)
	}
	recs := readCSV(t, out)
	for _, m := range []string{"plugin", "kde", "cleanex"} {
		if len(column(recs, m)) != 3 {
			t.Errorf("predict: no %s column for k = 2..4 in\n%s", m, out)
		}
	}
	if column(recs, "regression") != nil {
		t.Errorf("predict: a regression column on two classes:\n%s", out)
	}
	if !strings.Contains(errs, "cleanex predict: skipped regression: regression needs a pilot of at least 3 classes, this one has 2\n") {
		t.Errorf("predict stderr %q", errs)
	}
	code, out, errs = cli(t, smallCSV, "backtest", "--k1", "2", "--reps", "2", "-")
	// plugin, kde, cleanex and the estimate (from CleaneX alone): 2 pilots and a median each
	if code != 0 || len(column(readCSV(t, out), "method")) != 2*4+4 || strings.Contains(out, "regression") {
		t.Errorf("backtest --k1 2: exit %d, stderr %q, output\n%s", code, errs, out)
	}
	if !strings.Contains(errs, "skipped regression") {
		t.Errorf("backtest --k1 2 stderr %q", errs)
	}
}

// TestScaleFree: multiplying every score of small.csv by 1e155 or 1e-200
// changes no method's curve by more than 1e-9, and the rank-based columns
// (observed, plug-in, regression) not at all.
func TestScaleFree(t *testing.T) {
	scaled := func(f float64) string {
		lines := strings.Split(strings.TrimSuffix(smallCSV, "\n"), "\n")
		for i := 1; i < len(lines); i++ {
			cells := strings.Split(lines[i], ",")
			for j := 1; j < len(cells); j++ {
				cells[j] = strconv.FormatFloat(mustFloat(cells[j])*f, 'g', -1, 64)
			}
			lines[i] = strings.Join(cells, ",")
		}
		return strings.Join(lines, "\n") + "\n"
	}
	curves := func(in string) [][]string {
		code, out, errs := cli(t, in, "predict", "--k2", "20", "--methods", "plugin,kde,regression", "-")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		return readCSV(t, out)
	}
	base := curves(smallCSV)
	for _, f := range []float64{1e155, 1e-200} {
		got := curves(scaled(f))
		for _, name := range []string{"observed", "plugin", "kde", "regression"} {
			want, have := column(base, name), column(got, name)
			if len(want) != 19 || len(have) != 19 {
				t.Fatalf("x%g: column %s has %d and %d rows, want 19", f, name, len(want), len(have))
			}
			for i, a := range want {
				b := have[i]
				exact := name != "kde"
				if (exact && a != b) || (!exact && (a == "") != (b == "")) || (!exact && a != "" && math.Abs(mustFloat(a)-mustFloat(b)) > 1e-9) {
					t.Errorf("x%g: %s at k = %d is %s, unscaled %s", f, name, i+2, b, a)
				}
			}
		}
	}
}

// TestCurveGuard: a curve with NaN, a value above 1 or too few k is refused
// with a message naming the value and k; a valid curve passes.
func TestCurveGuard(t *testing.T) {
	for _, tc := range []struct {
		c    accuracy.Curve
		want string
	}{
		{accuracy.Curve{1, 1, 0.5, 0.25}, ""},
		{accuracy.Curve{1, 1, math.NaN(), 0.25}, "it produced NaN at k = 2"},
		{accuracy.Curve{1, 1, 0.5, 1.0000000000000007}, "it produced 1.0000000000000007 at k = 3"},
		{accuracy.Curve{1, 1, 0.5}, "its curve stops at k = 2, want 3"},
	} {
		err := methods.CheckCurve(tc.c, 3)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("methods.CheckCurve(%v) = %v, want %q", tc.c, err, tc.want)
		}
	}
	var m methodIssues
	m.fail("cleanex", fmt.Errorf("it produced NaN at k = 2"))
	if err := m.finish("predict", io.Discard); err == nil || !strings.Contains(err.Error(), "method cleanex failed: it produced NaN at k = 2; the other methods' results were written") {
		t.Errorf("finish = %v", err)
	}
}

// TestHugeScoresFinite: six rows of scores at +-9e307 give finite accuracies
// in [0, 1] in every column that is written.
func TestHugeScoresFinite(t *testing.T) {
	in := "label,a,b,c\na,9e307,-9e307,-9e307\na,9e307,-9e307,9e307\nb,-9e307,9e307,-9e307\nb,9e307,9e307,-9e307\nc,-9e307,-9e307,9e307\nc,-9e307,9e307,9e307\n"
	var out, errb bytes.Buffer
	code := run([]string{"predict", "--k2", "6", "-"}, strings.NewReader(in), &out, &errb)
	if code != 0 && strings.Count(errb.String(), "\n") != 1 {
		t.Fatalf("exit %d with stderr %q", code, errb.String())
	}
	if out.Len() > 0 {
		checkCurvesCSV(t, out.String(), "scores at +-9e307")
	}
}

// TestTinySigmaTruth: simulate --sigma2 1e-6 --truth writes a truth file that
// predict --truth accepts (no value above 1 from rounding); the truth file
// may start with a UTF-8 byte-order mark.
func TestTinySigmaTruth(t *testing.T) {
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 5, Sigma2: 1e-6, K: 2000, R: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	truth := w.Truth()
	for k := 2; k <= truth.Max(); k++ {
		if !(truth[k] >= 0 && truth[k] <= 1) || truth[k] > truth[k-1] {
			t.Fatalf("truth at k = %d is %v (k-1: %v)", k, truth[k], truth[k-1])
		}
	}
	dir := t.TempDir()
	name := dir + "/t.csv"
	if err := writeTruth(name, truth); err != nil {
		t.Fatal(err)
	}
	if _, err := readTruth(name); err != nil {
		t.Errorf("readTruth of simulate's truth: %v", err)
	}
	bomFile := writeFile(t, "bom.csv", "\uFEFFk,truth\n2,0.5\n3,0.25\n")
	if c, err := readTruth(bomFile); err != nil || c[3] != 0.25 {
		t.Errorf("truth with a BOM: %v, %v", c, err)
	}
}

// TestScaleFreeInterval: the recommended estimate and its interval are the
// same bits when every score is multiplied by a power of two, even one so
// large that a row's sum of squares overflows (the half-sampling spread
// once dropped out there, silently widening the interval) or so small that
// it underflows.
func TestScaleFreeInterval(t *testing.T) {
	in, err := os.ReadFile(simulated(t, "sim.csv", "--k", "2000", "--k1", "20", "--seed", "3"))
	if err != nil {
		t.Fatal(err)
	}
	scaled := func(e int) string {
		lines := strings.Split(strings.TrimSuffix(string(in), "\n"), "\n")
		for i := 1; i < len(lines); i++ {
			cells := strings.Split(lines[i], ",")
			for j := 1; j < len(cells); j++ {
				cells[j] = strconv.FormatFloat(math.Ldexp(mustFloat(cells[j]), e), 'g', -1, 64)
			}
			lines[i] = strings.Join(cells, ",")
		}
		return strings.Join(lines, "\n") + "\n"
	}
	curves := func(in string) [][]string {
		code, out, errs := cli(t, in, "predict", "--k2", "60", "--methods", "pooled,tail", "-")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		return readCSV(t, out)
	}
	base := curves(string(in))
	for _, e := range []int{-900, -30, 30, 600, 1000} {
		got := curves(scaled(e))
		for _, name := range []string{"estimate", "estimate_lo", "estimate_hi", "pooled", "tail"} {
			if want, have := column(base, name), column(got, name); len(want) != 59 || !slices.Equal(want, have) {
				t.Errorf("x2^%d: column %s is %v, unscaled %v", e, name, have, want)
			}
		}
	}
}

// TestFailureKeepsNotes: when a method fails (CleaneX's paper preset on a
// summary), the one error line still carries how the scores were read and
// the estimate's warnings (here: a pilot of 20 classes), which a run
// without failures prints as lines of their own.
func TestFailureKeepsNotes(t *testing.T) {
	_, pilot, _ := cli(t, "", "simulate", "--d", "3", "--k", "200", "--r", "3", "--k1", "20", "--seed", "4")
	code, summary, errs := cli(t, pilot, "summarise", "-")
	if code != 0 {
		t.Fatalf("summarise: exit %d, %s", code, errs)
	}
	file := writeFile(t, "summary.csv", summary)
	code, out, errs := cli(t, "", "predict", "--k2", "400", "--methods", "plugin,cleanex", "--preset", "paper", file)
	if code != exitFailure || !strings.Contains(out, "estimate_lo") {
		t.Fatalf("exit %d, stdout %q: want exit 1 with the estimate written", code, out)
	}
	if strings.Count(errs, "\n") != 1 {
		t.Errorf("stderr is not one line: %q", errs)
	}
	for _, want := range []string{"method cleanex failed", "the other methods' results were written", "also: ", "Your pilot has only 20 classes"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr %q lacks %q", errs, want)
		}
	}
}
