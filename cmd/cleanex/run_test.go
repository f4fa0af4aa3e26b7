package main

import (
	"bytes"
	"compress/gzip"
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
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

// cli runs the command with stdin and returns its exit status, stdout and stderr.
func cli(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// readCSV parses a CSV written by the command.
func readCSV(t *testing.T, s string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	if err != nil {
		t.Fatalf("output is not CSV: %v\n%s", err, s)
	}
	return recs
}

const small = "label,a,b,c\na,0.9,0.1,0.2\nb,0.5,0.4,0.6\nc,0.3,0.7,0.5\n"

// TestErrors checks the exit status and the single stderr line of bad
// invocations and bad input.
func TestErrors(t *testing.T) {
	good := writeFile(t, "good.csv", small)
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string // part of the one stderr line
	}{
		{"no command", "", nil, 2, "no command"},
		{"unknown command", "", []string{"fit"}, 2, `unknown command "fit"`},
		{"k2 missing", "", []string{"predict", good}, 2, "--k2 is required"},
		{"k2 one", "", []string{"predict", "--k2", "1", good}, 2, "--k2 1"},
		{"k2 not a number", "", []string{"predict", "--k2", "many", good}, 2, `invalid value "many" for flag -k2`},
		{"unknown flag", "", []string{"predict", "--k2", "5", "--speed", good}, 2, "flag provided but not defined: -speed"},
		{"unknown method", "", []string{"predict", "--k2", "5", "--methods", "plugin,svm", good}, 2, `unknown method "svm"`},
		{"unknown preset", "", []string{"predict", "--k2", "5", "--preset", "slow", good}, 2, `unknown preset "slow"`},
		{"unknown kde bandwidth", "", []string{"backtest", "--kde-bandwidth", "x", good}, 2, `kde bandwidth selector "x": use lcv or ucv`},
		{"bad direction", "", []string{"predict", "--k2", "5", "--direction", "up", good}, 2, `direction "up"`},
		{"no file", "", []string{"predict", "--k2", "5"}, 2, "want one input file (or - for standard input), or two .npy files (the scores and the labels); got 0 arguments"},
		{"two files", "", []string{"predict", "--k2", "5", good, good}, 2, "good.csv is not an .npy array; two input files are the scores and the labels as .npy files"},
		{"three files", "", []string{"predict", "--k2", "5", good, good, good}, 2, "got 3 arguments"},
		{"missing file", "", []string{"predict", "--k2", "5", filepath.Join(t.TempDir(), "none.csv")}, 2, "none.csv"},
		{"text in a score", "label,a,b\na,1,x\nb,2,3\n", []string{"predict", "--k2", "5", "-"}, 2, `standard input: row 2, column "b": not a number`},
		{"ragged row", "label,a,b\na,1,2\nb,2\n", []string{"predict", "--k2", "5", "-"}, 2, "row 3: wrong number of fields"},
		{"unknown label", "label,a,b\na,1,2\nz,2,3\n", []string{"predict", "--k2", "5", "-"}, 2, `row 3, column "label": unknown label "z"`},
		{"empty input", "", []string{"predict", "--k2", "5", "-"}, 2, "the file is empty"},
		{"class without points", "label,a,b,c\na,1,2,3\nb,2,3,4\n", []string{"predict", "--k2", "5", "-"}, 2, `classes without test points: "c"`},
		{"truth missing", "", []string{"predict", "--k2", "5", "--truth", filepath.Join(t.TempDir(), "t.csv"), good}, 2, "--truth"},
		{"truth header", "", []string{"predict", "--k2", "5", "--truth", writeFile(t, "t.csv", "x,y\n2,0.5\n"), good}, 2, "row 1: header"},
		{"truth gap", "", []string{"predict", "--k2", "5", "--truth", writeFile(t, "t.csv", "k,truth\n2,0.5\n4,0.3\n"), good}, 2, `row 3: k = "4", want 3`},
		{"truth value", "", []string{"predict", "--k2", "5", "--truth", writeFile(t, "t.csv", "k,truth\n2,1.5\n"), good}, 2, `row 2: truth "1.5"`},
		{"truth ragged", "", []string{"predict", "--k2", "5", "--truth", writeFile(t, "t.csv", "k,truth\n2\n"), good}, 2, "row 2:"},
		{"truth folder", "", []string{"predict", "--k2", "5", "--truth", t.TempDir(), good}, 2, "a folder, not a file: give the k,truth CSV"},
		{"truth empty", "", []string{"predict", "--k2", "5", "--truth", writeFile(t, "t.csv", "k,truth\n"), good}, 2, "no rows"},
		{"truth gzip cut short", "", []string{"predict", "--k2", "5", "--truth", writeFile(t, "t.csv.gz", string(gzipped(t, "k,truth\n2,0.5\n3,0.25\n")[:20])), good}, 2, "the gzip-compressed data is damaged or cut short"},
		{"truth binary", "", []string{"predict", "--k2", "5", "--truth", writeFile(t, "t.bin", "\x00\x01"+strings.Repeat("x", 200)+",y"), good}, 2, "...\", want k,truth"},
		{"simulate d", "", []string{"simulate", "--d", "0"}, 2, "dimension d = 0"},
		{"simulate sigma2", "", []string{"simulate", "--sigma2", "-1"}, 2, "sigma2 = -1"},
		{"simulate k", "", []string{"simulate", "--k", "1"}, 2, "K = 1 classes"},
		{"simulate r", "", []string{"simulate", "--r", "0"}, 2, "r = 0 points"},
		{"simulate huge", "", []string{"simulate", "--k", "1000000", "--r", "1000"}, 2, "point coordinates"},
		{"simulate dist", "", []string{"simulate", "--classes", "cauchy"}, 2, `--classes: distribution "cauchy"`},
		{"simulate k1", "", []string{"simulate", "--k", "10", "--k1", "11"}, 2, "k1 = 11"},
		{"simulate argument", "", []string{"simulate", "extra"}, 2, `unexpected argument "extra"`},
		{"simulate truth dir", "", []string{"simulate", "--k", "5", "--r", "1", "--truth", t.TempDir()}, 2, "--truth"},
		{"backtest k1 above K", "", []string{"backtest", "--k1", "4", good}, 2, "--k1 4: it must be from 2 to 2, one less than the file's 3 classes"},
		{"backtest k1 below 2", "", []string{"backtest", "--k1", "1", good}, 2, "--k1 1: it must be from 2 to 2, one less than the file's 3 classes"},
		{"backtest k1 equal to K", "", []string{"backtest", "--k1", "3", good}, 2, "--k1 3: the file has 3 classes, so every pilot would be the whole file"},
		{"backtest on 2 classes", "label,a,b\na,1,2\nb,2,1\n", []string{"backtest", "--k1", "2", "-"}, 2, "the file has 2 classes; a backtest draws pilots of k1 classes, from 2 to one less than the file's, and predicts the accuracy at all of them, so it needs a file of at least 3 classes"},
		{"backtest on 2 classes, default k1", "label,a,b\na,1,2\nb,2,1\n", []string{"backtest", "-"}, 2, "so it needs a file of at least 3 classes"},
		{"backtest reps", "", []string{"backtest", "--k1", "2", "--reps", "0", good}, 2, "--reps 0"},
		{"backtest bad csv", "label;a;b\na;1;2\nb;2;nan\n", []string{"backtest", "--k1", "2", "-"}, 2, `row 3, column "b": not a finite number`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cli(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Errorf("exit status %d, want %d (stderr %q)", code, tc.code, errs)
			}
			if strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") {
				t.Errorf("stderr is not one line: %q", errs)
			}
			if !strings.Contains(errs, tc.want) {
				t.Errorf("stderr %q does not contain %q", errs, tc.want)
			}
			if out != "" {
				t.Errorf("stdout not empty on error: %q", out)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	code, out, _ := cli(t, "", "-h")
	if code != 0 || !strings.Contains(out, "cleanex predict --k2 N") {
		t.Errorf("cleanex -h: status %d, stdout %q", code, out)
	}
	code, _, errs := cli(t, "", "predict", "-h")
	if code != 0 || !strings.Contains(errs, "-k2 int") {
		t.Errorf("cleanex predict -h: status %d, stderr %q", code, errs)
	}
}

// TestPredictCSV checks the curves CSV of docs/formats.md §3 on a 3-class matrix
// whose plug-in curve is known in closed form: R = (2, 0, 1), so
// E_k = (1 + 0 + 0.5^(k-1)) / 3 and Abar_2 = (1 + 0 + 0.5) / 3, Abar_3 = 1/3.
func TestPredictCSV(t *testing.T) {
	// flags after the file are accepted too
	code, out, errs := cli(t, small, "predict", "-", "--k2", "6", "--methods", "plugin", "--direction", "higher", "--estimate=false")
	if code != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	recs := readCSV(t, out)
	if got := strings.Join(recs[0], ","); got != "k,observed,plugin" {
		t.Fatalf("header %q, want k,observed,plugin", got)
	}
	if len(recs) != 6 {
		t.Fatalf("%d rows, want a header and k = 2..6", len(recs))
	}
	for i, rec := range recs[1:] {
		k := i + 2
		if rec[0] != strconv.Itoa(k) {
			t.Errorf("row %d: k = %q", i+2, rec[0])
		}
		wantObs := map[int]string{2: "0.5", 3: "0.3333333333333333"}[k]
		if k <= 3 {
			if v, err := strconv.ParseFloat(rec[1], 64); err != nil || math.Abs(v-mustFloat(wantObs)) > 1e-15 {
				t.Errorf("k=%d: observed %q, want %s", k, rec[1], wantObs)
			}
		} else if rec[1] != "" {
			t.Errorf("k=%d: observed %q, want empty above k1 = 3", k, rec[1])
		}
		want := (1 + math.Pow(0.5, float64(k-1))) / 3
		if v, err := strconv.ParseFloat(rec[2], 64); err != nil || math.Abs(v-want) > 1e-15 {
			t.Errorf("k=%d: plugin %q, want %v", k, rec[2], want)
		}
	}
	// auto direction picks higher here, so the output is the same
	_, auto, _ := cli(t, small, "predict", "--k2", "6", "--methods", "plugin", "--estimate=false", "-")
	if auto != out {
		t.Errorf("auto direction output differs from higher:\n%s\n%s", auto, out)
	}
	// k2 below K is allowed
	code, out, _ = cli(t, small, "predict", "--k2", "2", "--methods", "plugin", "-")
	if recs := readCSV(t, out); code != 0 || len(recs) != 2 || recs[1][0] != "2" {
		t.Errorf("k2 = 2: status %d, output %q", code, out)
	}
}

func mustFloat(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// TestSimulatePredictRoundTrip simulates a pilot, predicts with the plug-in,
// and checks the column against an independent computation from the raw
// distances: R_x by direct counting, E_k = mean_x (R_x/(k1-1))^(k-1) by math.Pow.
func TestSimulatePredictRoundTrip(t *testing.T) {
	args := []string{"simulate", "--classes", "uniform", "--points", "normal", "--d", "3", "--sigma2", "0.2", "--k", "60", "--r", "4", "--seed", "7", "--k1", "12"}
	code, pilot, errs := cli(t, "", args...)
	if code != 0 {
		t.Fatalf("simulate: status %d: %s", code, errs)
	}
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Uniform, Points: simulate.Normal, D: 3, Sigma2: 0.2, K: 60, R: 4, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	want, err := w.Pilot(12, 7)
	if err != nil {
		t.Fatal(err)
	}
	m, err := scores.Parse(strings.NewReader(pilot))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Classes, want.Classes) || !slices.Equal(m.Labels, want.Labels) || !slices.Equal(m.Scores, want.Scores) {
		t.Fatal("simulate --k1 output differs from World.Pilot")
	}

	code, out, errs := cli(t, pilot, "predict", "--k2", "60", "--methods", "plugin", "--estimate=false", "-")
	if code != 0 {
		t.Fatalf("predict: status %d: %s", code, errs)
	}
	recs := readCSV(t, out)
	if strings.Join(recs[0], ",") != "k,observed,plugin" || len(recs) != 60 {
		t.Fatalf("header %v, %d rows", recs[0], len(recs))
	}
	k1 := m.K()
	var rs []float64
	for i := 0; i < m.N(); i++ {
		row, y := m.Row(i), m.Labels[i]
		r := 0
		for j, v := range row {
			if j != y && v > row[y] { // distances: lower is better, ties lose
				r++
			}
		}
		rs = append(rs, float64(r))
	}
	for _, rec := range recs[1:] {
		k, _ := strconv.Atoi(rec[0])
		e := 0.0
		for _, r := range rs {
			e += math.Pow(r/float64(k1-1), float64(k-1))
		}
		e /= float64(len(rs))
		got, err := strconv.ParseFloat(rec[2], 64)
		if err != nil || math.Abs(got-e) > 1e-12 {
			t.Errorf("k=%d: plugin %q, independent %v", k, rec[2], e)
		}
		if (k <= k1) != (rec[1] != "") {
			t.Errorf("k=%d: observed %q (k1 = %d)", k, rec[1], k1)
		}
	}
}

// TestSimulateTruth checks that simulate --truth writes simulate.Truth
// exactly and that the full matrix's observed curve is that truth.
func TestSimulateTruth(t *testing.T) {
	truthFile := filepath.Join(t.TempDir(), "truth.csv")
	code, full, errs := cli(t, "", "simulate", "--d", "2", "--sigma2", "0.3", "--k", "25", "--r", "3", "--seed", "5", "--points", "uniform", "--truth", truthFile)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Uniform, D: 2, Sigma2: 0.3, K: 25, R: 3, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	truth := w.Truth()
	b, err := os.ReadFile(truthFile)
	if err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, string(b))
	if strings.Join(recs[0], ",") != "k,truth" || len(recs) != 25 {
		t.Fatalf("truth file header %v, %d rows; want k,truth and k = 2..25", recs[0], len(recs))
	}
	for i, rec := range recs[1:] {
		if v, err := strconv.ParseFloat(rec[1], 64); rec[0] != strconv.Itoa(i+2) || err != nil || v != truth[i+2] {
			t.Errorf("truth row %v, want %d,%v", rec, i+2, truth[i+2])
		}
	}
	m, err := scores.Parse(strings.NewReader(full))
	if err != nil {
		t.Fatal(err)
	}
	if m.K() != 25 || m.N() != 75 {
		t.Fatalf("full matrix %d x %d, want 75 x 25", m.N(), m.K())
	}
	// predict on the full matrix: its observed column is the truth, and
	// --truth adds the truth column
	code, out, _ := cli(t, full, "predict", "--k2", "25", "--methods", "plugin", "--estimate=false", "--truth", truthFile, "-")
	if code != 0 {
		t.Fatal("predict failed")
	}
	recs = readCSV(t, out)
	if strings.Join(recs[0], ",") != "k,observed,plugin,truth" {
		t.Fatalf("predict --truth header %v", recs[0])
	}
	for i, rec := range recs[1:] {
		obs, _ := strconv.ParseFloat(rec[1], 64)
		tr, _ := strconv.ParseFloat(rec[3], 64)
		if math.Abs(obs-truth[i+2]) > 1e-15 || tr != truth[i+2] {
			t.Errorf("k=%d: observed %v, truth column %v, truth %v", i+2, obs, tr, truth[i+2])
		}
	}
}

// TestSimulateGroups checks that simulate --group --tau2 writes the grouped
// world of simulate.Generate, and that a grouping without a valid τ² is
// refused with a message naming the flag's value and what it must be.
func TestSimulateGroups(t *testing.T) {
	code, got, errs := cli(t, "", "simulate", "--d", "3", "--sigma2", "0.1", "--k", "24", "--r", "2", "--seed", "8", "--group", "6", "--tau2", "0.05")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 3, Sigma2: 0.1, K: 24, R: 2, Seed: 8, Group: 6, Tau2: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	if err := w.WriteCSV(&want, w.AllClasses()); err != nil {
		t.Fatal(err)
	}
	if got != want.String() {
		t.Errorf("simulate --group 6 --tau2 0.05 differs from the grouped world")
	}
	_, ungrouped, _ := cli(t, "", "simulate", "--d", "3", "--sigma2", "0.1", "--k", "24", "--r", "2", "--seed", "8")
	if ungrouped == got {
		t.Errorf("--group 6 wrote the ungrouped world")
	}
	for _, c := range []struct{ args, want []string }{
		{[]string{"--group", "4"}, []string{"tau2 = 0 with groups of 4 classes", "above 0"}},
		{[]string{"--group", "4", "--tau2", "-1"}, []string{"tau2 = -1"}},
		{[]string{"--group", "-3"}, []string{"group = -3", "at least 0"}},
		{[]string{"--tau2", "0.05"}, []string{"--tau2 applies only with --group above 1", "--group is 0"}},
		{[]string{"--group", "1", "--tau2", "0.05"}, []string{"--tau2 applies only with --group above 1", "--group is 1"}},
	} {
		code, out, errs := cli(t, "", append([]string{"simulate", "--k", "20"}, c.args...)...)
		if code == 0 || out != "" {
			t.Errorf("simulate %v: status %d with %d bytes written, want a refusal", c.args, code, len(out))
		}
		for _, w := range c.want {
			if !strings.Contains(errs, w) {
				t.Errorf("simulate %v: message %q lacks %q", c.args, errs, w)
			}
		}
	}
}

func TestBacktestOutput(t *testing.T) {
	_, full, _ := cli(t, "", "simulate", "--d", "2", "--k", "30", "--r", "2", "--seed", "2")
	code, out, errs := cli(t, full, "backtest", "--k1", "10", "--reps", "3", "--methods", "plugin", "--estimate=false", "-")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	recs := readCSV(t, out)
	if got := strings.Join(recs[0], ","); got != "rep,method,rmse,predicted_at_30,true_at_30,seconds,lo_at_30,hi_at_30,covered_at_30,width_at_30" {
		t.Fatalf("header %q", got)
	}
	if len(recs) != 5 || recs[4][0] != "median" || recs[1][1] != "plugin" {
		t.Fatalf("rows %v, want 3 reps and a median", recs)
	}
	var rmse []float64
	for _, rec := range recs[1:4] {
		v, err := strconv.ParseFloat(rec[2], 64)
		if err != nil || !(v >= 0 && v <= 1) {
			t.Errorf("rmse %q", rec[2])
		}
		rmse = append(rmse, v)
		if rec[4] != recs[1][4] {
			t.Errorf("true accuracy at K differs between reps: %q %q", rec[4], recs[1][4])
		}
	}
	slices.Sort(rmse)
	if med, _ := strconv.ParseFloat(recs[4][2], 64); med != rmse[1] {
		t.Errorf("median rmse %v, want %v", med, rmse[1])
	}

	// with the estimate (the default), its rows carry the interval at K,
	// whether it held the truth and its width; its median row the share that
	// held it and the median width; stderr reports the coverage too
	code, out, errs = cli(t, full, "backtest", "--k1", "10", "--reps", "3", "--methods", "plugin", "-")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	covered := 0
	var widths []float64
	for _, rec := range readCSV(t, out)[1:] {
		if rec[1] != "estimate" {
			if rec[8] != "" || rec[9] != "" {
				t.Errorf("row %v without an interval has coverage or width", rec)
			}
			continue
		}
		if rec[0] == "median" {
			cov, _ := strconv.ParseFloat(rec[8], 64)
			w, _ := strconv.ParseFloat(rec[9], 64)
			slices.Sort(widths)
			if cov != float64(covered)/3 || w != widths[1] {
				t.Errorf("median row %v: coverage %v and width %v, want %v and %v", rec, cov, w, float64(covered)/3, widths[1])
			}
			continue
		}
		pred, _ := strconv.ParseFloat(rec[3], 64)
		truth, _ := strconv.ParseFloat(rec[4], 64)
		lo, err1 := strconv.ParseFloat(rec[6], 64)
		hi, err2 := strconv.ParseFloat(rec[7], 64)
		if err1 != nil || err2 != nil || !(lo <= pred && pred <= hi) {
			t.Fatalf("estimate row %v: interval [%q, %q] around %v", rec, rec[6], rec[7], pred)
		}
		want := "0"
		if lo <= truth && truth <= hi {
			covered++
			want = "1"
		}
		w, _ := strconv.ParseFloat(rec[9], 64)
		if rec[8] != want || math.Abs(w-(hi-lo)) > 1e-9 {
			t.Errorf("estimate row %v: covered %q and width %q, want %s and %v", rec, rec[8], rec[9], want, hi-lo)
		}
		widths = append(widths, w)
	}
	if want := fmt.Sprintf("estimate: the 80%% interval at k = 30 held the truth on %d of 3 pilots", covered); !strings.Contains(errs, want) {
		t.Errorf("stderr %q, want %q", errs, want)
	}
}

// TestProgressSilentOffTerminal checks that progress writes nothing when
// stderr is a regular file, and draws a line with an ETA on a writer marked
// as a terminal.
func TestProgressSilentOffTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := newProgress(f, "predict")
	p.update(0.5, "plugin")
	p.done()
	if fi, _ := f.Stat(); fi.Size() != 0 {
		t.Errorf("progress wrote %d bytes to a regular file", fi.Size())
	}
	var buf bytes.Buffer
	p = &progress{w: &buf, label: "predict", start: time.Now().Add(-10 * time.Second)}
	p.update(0.25, "cleanex")
	p.done()
	if got := buf.String(); !strings.Contains(got, "predict:  25.0%  cleanex  elapsed 10s  ETA 30s") {
		t.Errorf("progress line %q", got)
	}
}

// TestPredictAllMethods runs predict with the default method list on a small
// simulated pilot: one column per registered method, every value in [0, 1]
// and non-increasing in k.
func TestPredictAllMethods(t *testing.T) {
	_, pilot, _ := cli(t, "", "simulate", "--k", "60", "--r", "5", "--k1", "15", "--d", "3", "--sigma2", "0.2", "--seed", "4")
	code, out, errs := cli(t, pilot, "predict", "--k2", "60", "-")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	recs := readCSV(t, out)
	if got, want := strings.Join(recs[0], ","), "k,observed,estimate,estimate_lo,estimate_hi,"+strings.Join(methods.Names, ","); got != want {
		t.Fatalf("header %q, want %q", got, want)
	}
	for _, rec := range recs[1:] {
		est, _ := strconv.ParseFloat(rec[2], 64)
		lo, _ := strconv.ParseFloat(rec[3], 64)
		hi, _ := strconv.ParseFloat(rec[4], 64)
		if !(lo <= est && est <= hi) {
			t.Fatalf("k=%s: interval [%v, %v] misses the estimate %v", rec[0], lo, hi, est)
		}
	}
	for j := 2; j < len(recs[0]); j++ {
		prev := 1.0
		for _, rec := range recs[1:] {
			v, err := strconv.ParseFloat(rec[j], 64)
			if err != nil || v < 0 || v > 1 || v > prev+1e-12 {
				t.Fatalf("%s at k=%s: %q after %v", recs[0][j], rec[0], rec[j], prev)
			}
			prev = v
		}
	}
}

// TestPredictEstimateIsEngines checks that predict's estimate columns and its
// CleaneX column are exactly what internal/recommend computes on the same
// pilot with the same seed (the page calls the same code).
func TestPredictEstimateIsEngines(t *testing.T) {
	_, pilot, _ := cli(t, "", "simulate", "--k", "60", "--r", "5", "--k1", "15", "--d", "3", "--sigma2", "0.2", "--seed", "4")
	code, out, errs := cli(t, pilot, "predict", "--k2", "60", "--seed", "3", "--methods", "cleanex", "--direction", "lower", "-")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	m, err := scores.Parse(strings.NewReader(pilot))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := accuracy.NewSample(m, scores.Lower)
	if err != nil {
		t.Fatal(err)
	}
	table, err := recommend.DefaultTable()
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := recommend.Run(context.Background(), s, 60, 3, table.Calibration, nil)
	if err != nil || want.Err != nil {
		t.Fatal(err, want.Err)
	}
	recs := readCSV(t, out)
	if got := strings.Join(recs[0], ","); got != "k,observed,estimate,estimate_lo,estimate_hi,cleanex" {
		t.Fatalf("header %q", got)
	}
	for _, rec := range recs[1:] {
		k, _ := strconv.Atoi(rec[0])
		for j, c := range []accuracy.Curve{want.Estimate, want.Lo, want.Hi, want.CleaneX} {
			if v, _ := strconv.ParseFloat(rec[2+j], 64); v != c[k] {
				t.Fatalf("k = %d, %s: CLI %v, engine %v", k, recs[0][2+j], v, c[k])
			}
		}
	}
}

// TestUsageNamesEveryFlag checks that the usage line of each command names
// every flag the command defines (as "cleanex COMMAND -h" lists them), and
// that the command lines of README.md's examples use only those flags, so
// the three cannot drift apart.
func TestUsageNamesEveryFlag(t *testing.T) {
	lines := map[string]string{}
	for _, l := range strings.Split(usage, "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == "cleanex" {
			lines[f[1]] = l
		}
	}
	defined := map[string][]string{}
	for _, cmd := range []string{"predict", "simulate", "backtest", "summarise"} {
		code, _, errs := cli(t, "", cmd, "-h")
		if code != 0 {
			t.Fatalf("cleanex %s -h: status %d", cmd, code)
		}
		for _, l := range strings.Split(errs, "\n") {
			if f := strings.Fields(l); len(f) > 0 && strings.HasPrefix(l, "  -") {
				defined[cmd] = append(defined[cmd], strings.TrimPrefix(f[0], "-"))
			}
		}
		if len(defined[cmd]) == 0 {
			t.Fatalf("cleanex %s -h lists no flags: %q", cmd, errs)
		}
		for _, name := range defined[cmd] {
			if !strings.Contains(lines[cmd], "--"+name+" ") && !strings.Contains(lines[cmd], "--"+name+"=") {
				t.Errorf("usage of %s does not name --%s: %q", cmd, name, lines[cmd])
			}
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// An example is a line starting "build/cleanex COMMAND" and the lines
	// that continue it with a trailing backslash.
	var cmd string
	for _, l := range strings.Split(string(readme), "\n") {
		if f := strings.Fields(l); cmd == "" && len(f) > 1 && f[0] == "build/cleanex" {
			cmd = f[1]
		}
		if cmd == "" {
			continue
		}
		for _, tok := range strings.Fields(strings.NewReplacer("[", " ", "]", " ").Replace(l)) {
			if !strings.HasPrefix(tok, "--") {
				continue
			}
			name, _, _ := strings.Cut(strings.TrimPrefix(tok, "--"), "=")
			if !slices.Contains(defined[cmd], name) {
				t.Errorf("README.md: example of %s uses --%s, which %s does not define", cmd, name, cmd)
			}
		}
		if !strings.HasSuffix(strings.TrimSpace(l), "\\") {
			cmd = ""
		}
	}
}

// gzipped returns s compressed with gzip.
func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestPredictTruthGzip: --truth reads a gzip-compressed k,truth CSV (as the
// benchmark cases keep theirs) to the same truth column as the plain one.
func TestPredictTruthGzip(t *testing.T) {
	good := writeFile(t, "good.csv", small)
	truth := "k,truth\n2,0.75\n3,0.5\n4,0.375\n"
	args := []string{"predict", "--k2", "4", "--methods", "plugin", "--estimate=false", "--truth"}
	code, want, errs := cli(t, "", append(args, writeFile(t, "t.csv", truth), good)...)
	if code != 0 || !strings.Contains(want, ",0.375\n") {
		t.Fatalf("plain truth: exit %d, stderr %q, stdout %q", code, errs, want)
	}
	code, got, errs := cli(t, "", append(args, writeFile(t, "t.csv.gz", string(gzipped(t, truth))), good)...)
	if code != 0 || got != want {
		t.Errorf("gzip-compressed truth: exit %d, stderr %q, stdout\n%s\nwant\n%s", code, errs, got, want)
	}
}
