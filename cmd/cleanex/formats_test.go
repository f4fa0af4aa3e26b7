package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tinyPilot names a file of internal/inputs/testdata: the same 24-point,
// 6-class pilot in every format.
func tinyPilot(name string) string {
	return filepath.Join("..", "..", "internal", "inputs", "testdata", name)
}

// TestFormats: predict gives the same curves CSV, byte for byte, from the
// tiny pilot in every format: a file, standard input, or a pair of .npy
// files in either order; backtest reads them too.
func TestFormats(t *testing.T) {
	args := []string{"predict", "--k2", "12", "--methods", "plugin,kde", "--estimate=false"}
	code, want, errs := cli(t, "", append(args, tinyPilot("tiny.csv"))...)
	if code != 0 || !strings.HasPrefix(want, "k,observed,plugin,kde\n") {
		t.Fatalf("tiny.csv: exit %d, stdout %q, stderr %q", code, want, errs)
	}
	for _, files := range [][]string{
		{"tiny.csv.gz"}, {"tiny.tsv.gz"}, {"tiny.npz"}, {"tiny_long.parquet"}, {"tiny_wide.parquet"},
		{"tiny_scores.npy", "tiny_labels.npy"}, {"tiny_labels.npy", "tiny_scores.npy"},
	} {
		a := slices.Clone(args)
		for _, f := range files {
			a = append(a, tinyPilot(f))
		}
		if code, out, errs := cli(t, "", a...); code != 0 || out != want {
			t.Errorf("%v: exit %d, stderr %q, stdout differs from tiny.csv's: %v", files, code, errs, out != want)
		}
	}
	for _, f := range []string{"tiny.csv.gz", "tiny.npz", "tiny_wide.parquet"} {
		b, err := os.ReadFile(tinyPilot(f))
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := run(append(slices.Clone(args), "-"), bytes.NewReader(b), &out, &errb); code != 0 || out.String() != want {
			t.Errorf("%s on standard input: exit %d, stderr %q", f, code, errb.String())
		}
	}
	for _, files := range [][]string{{"tiny_long.parquet"}, {"tiny_scores.npy", "tiny_labels.npy"}} {
		a := []string{"backtest", "--k1", "3", "--reps", "2", "--methods", "plugin", "--estimate=false"}
		for _, f := range files {
			a = append(a, tinyPilot(f))
		}
		if code, out, errs := cli(t, "", a...); code != 0 || !strings.HasPrefix(out, "rep,method,rmse,predicted_at_6,") {
			t.Errorf("backtest %v: exit %d, stderr %q, stdout %q", files, code, errs, out)
		}
	}
}

// TestFormatErrors: a bad pair or a bad binary file exits 2 with one line
// naming the file and the place.
func TestFormatErrors(t *testing.T) {
	s, l := tinyPilot("tiny_scores.npy"), tinyPilot("tiny_labels.npy")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{s, "-"}, "standard input (-) cannot be one of them"},
		{[]string{s, tinyPilot("tiny.csv")}, "tiny.csv is not an .npy array"},
		{[]string{s, s}, "tiny_scores.npy + " + s + ": wrong shape: the two .npy arrays have shapes (24, 6) and (24, 6)"},
		{[]string{l}, "tiny_labels.npy: missing: a single .npy array, so the labels are missing"},
		{[]string{s, writeFile(t, "cut.npy.gz", "\x1f\x8b\x08\x00")}, "cut.npy.gz: the gzip-compressed data is damaged or cut short"},
	} {
		code, out, errs := cli(t, "", append([]string{"predict", "--k2", "12"}, tc.args...)...)
		if code != exitInput || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestNPYPairGzip: a pair of gzip-compressed .npy files reads as the plain
// pair does.
func TestNPYPairGzip(t *testing.T) {
	args := []string{"predict", "--k2", "12", "--methods", "plugin", "--estimate=false"}
	var files []string
	for _, f := range []string{"tiny_scores.npy", "tiny_labels.npy"} {
		b, err := os.ReadFile(tinyPilot(f))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, writeFile(t, f+".gz", string(gzipped(t, string(b)))))
	}
	code, want, errs := cli(t, "", append(slices.Clone(args), tinyPilot("tiny_scores.npy"), tinyPilot("tiny_labels.npy"))...)
	if code != 0 {
		t.Fatalf("plain pair: exit %d, %s", code, errs)
	}
	code, got, errs := cli(t, "", append(args, files[1], files[0])...)
	if code != 0 || got != want {
		t.Errorf("gzip-compressed pair: exit %d, stderr %q, stdout\n%s\nwant\n%s", code, errs, got, want)
	}
}
