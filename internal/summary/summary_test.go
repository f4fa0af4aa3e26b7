package summary

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/benchcases"
	"github.com/cleanex/cleanex/internal/scores"
)

// summarise writes the summary of s with q steps and parses it back.
func summarise(t *testing.T, s *accuracy.Sample, q int) *Table {
	t.Helper()
	classes := make([]string, s.K)
	for j := range classes {
		classes[j] = fmt.Sprintf("class %d", j)
	}
	var buf bytes.Buffer
	if err := WriteSample(&buf, classes, s, q); err != nil {
		t.Fatal(err)
	}
	tab, err := Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestRoundTrip checks that Parse reads back what Write wrote: the classes,
// labels, R_x, the observed curve and the order statistics at every rank
// the summary keeps, bit for bit, on a benchmark pilot of 100 classes, with
// 2 and 16 steps (which keep fewer ranks than its 99 incorrect ones) and
// DefaultQuantiles (which keeps all of them).
func TestRoundTrip(t *testing.T) {
	cases, err := benchcases.Load(benchcases.Dir())
	if err != nil {
		t.Fatal(err)
	}
	s := cases[0].Sample
	for _, q := range []int{2, 16, DefaultQuantiles} {
		tab := summarise(t, s, q)
		got := tab.Sample
		if got.K != s.K || got.N() != s.N() {
			t.Fatalf("q = %d: %d points of %d classes, want %d of %d", q, got.N(), got.K, s.N(), s.K)
		}
		for i := range s.N() {
			if got.R[i] != s.R[i] || got.Correct[i] != s.Correct[i] || tab.Classes[got.Labels[i]] != fmt.Sprintf("class %d", s.Labels[i]) {
				t.Fatalf("q = %d, point %d: R, correct score or class differ", q, i)
			}
			for _, r := range KnotRanks(s.K, q) {
				if a, b := got.IncorrectAt(i, r), s.IncorrectAt(i, r); a != b {
					t.Fatalf("q = %d, point %d, rank %d: %v, want %v", q, i, r, a, b)
				}
			}
		}
		for k, v := range s.Observed {
			if got.Observed[k] != v {
				t.Fatalf("q = %d: observed curve differs at k = %d", q, k)
			}
		}
	}
}

func TestKnotRanks(t *testing.T) {
	top := TopRanks()
	want := []int{1, 2, 3, 5, 8, 12, 18, 27, 41, 62, 93, 140, 210, 315, 473, 710}
	for i, r := range want {
		if top[i] != r {
			t.Fatalf("TopRanks starts %v, want %v", top[:len(want)], want)
		}
	}
	for _, c := range []struct{ k, q, n int }{{3, 4, 2}, {100, 128, 99}, {1000, 2, 16 + 2}} {
		r := KnotRanks(c.k, c.q)
		if r[0] != 1 || r[len(r)-1] != c.k-1 || len(r) != c.n {
			t.Errorf("KnotRanks(%d, %d) = %v: want %d ranks from 1 to %d", c.k, c.q, r, c.n, c.k-1)
		}
	}
	if got := QuantileRank(64, 1999, 128); got != 1+64*1998/128 {
		t.Errorf("QuantileRank(64, 1999, 128) = %d", got)
	}
}

// TestParseRefuses feeds Parse broken summaries, each made from a good one
// by one edit, and checks that the message names the row and column.
func TestParseRefuses(t *testing.T) {
	cases, err := benchcases.Load(benchcases.Dir())
	if err != nil {
		t.Fatal(err)
	}
	var good bytes.Buffer
	classes := make([]string, cases[0].Sample.K)
	for j := range classes {
		classes[j] = fmt.Sprintf("c%d", j)
	}
	if err := WriteSample(&good, classes, cases[0].Sample, 4); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(good.String(), "\n"), "\n")
	header := strings.Split(lines[0], ",")
	col := func(name string) int {
		for i, h := range header {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %q", name)
		return -1
	}
	edit := func(row int, name, value string) string {
		out := append([]string(nil), lines...)
		f := strings.Split(out[row-1], ",")
		f[col(name)] = value
		out[row-1] = strings.Join(f, ",")
		return strings.Join(out, "\n") + "\n"
	}
	cell := func(row int, name string) string { return strings.Split(lines[row-1], ",")[col(name)] }
	scaled := func(v string, f float64) string {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatal(err)
		}
		return strconv.FormatFloat(x*f, 'g', -1, 64)
	}
	dropColumn := func(name string) string {
		var out []string
		for _, l := range lines {
			f := strings.Split(l, ",")
			j := col(name)
			out = append(out, strings.Join(append(f[:j:j], f[j+1:]...), ","))
		}
		return strings.Join(out, "\n") + "\n"
	}
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"empty", "", []string{"no data rows"}},
		{"header only", lines[0] + "\n", []string{"no data rows", "give one row per test point"}},
		{"missing column", dropColumn("q2"), []string{`column "q2"`, "missing"}},
		{"not a count", edit(3, "below", "many"), []string{"row 3", `column "below"`, "not a count", "holds a whole number, 0 or more"}},
		{"classes differ", edit(4, "classes", "99"), []string{"row 4", `column "classes"`, "first row says"}},
		{"missing scores", edit(2, "scores", "99"), []string{"row 2", `column "scores"`, "99 scores for 100 classes"}},
		{"NaN", edit(5, "correct", "NaN"), []string{"row 5", `column "correct"`, "finite", "check the scores it was made from"}},
		{"Inf m2", edit(5, "m2", "+Inf"), []string{"row 5", `column "m2"`, "finite", "rescale them"}},
		{"text", edit(5, "mean", "abc"), []string{"row 5", `column "mean"`, `not a number: "abc"; a summary holds plain decimal numbers`}},
		{"decimal comma", edit(5, "mean", `"0,5"`), []string{"row 5", `column "mean"`, "write the decimal separator as a point"}},
		{"empty cell", edit(5, "q1", ""), []string{"row 5", `column "q1"`, "empty", "needs a number on every row", "make the summary again"}},
		{"empty label", edit(5, "label", ""), []string{"row 5", `column "label"`, "empty", "give the point's true class"}},
		{"short row", strings.Join(lines[:4], "\n") + ",\n", []string{"row 4", "wrong number of fields", "where the header has"}},
		{"duplicate column", strings.Replace(lines[0], "mean", "m2", 1) + "\n" + lines[1] + "\n", []string{"row 1", `column "m2"`, "keep one of them"}},
		{"rising", edit(6, "top2", "1e9"), []string{"row 6", "rank 2", "make the summary again"}},
		{"counts", edit(7, "below", "100"), []string{"row 7", "below = 100", "make the summary again"}},
		{"too few classes", strings.Join(lines[:3], "\n") + "\n", []string{"the labels name 1 class but", "classes says 100"}},
		{"one class", edit(2, "classes", "1"), []string{"row 2", "2 to"}},
		{"repeated point", edit(4, "point", cell(2, "point")), []string{"row 4", `column "point"`, fmt.Sprintf("point %q already appeared on row 2", cell(2, "point"))}},
		{"no correct score", edit(5, "correct", ""), []string{"row 5", `column "correct"`, fmt.Sprintf("point %q", cell(5, "point")), "empty cell", "no score for its label"}},
		{"no quantile columns", "point,label,classes,scores,correct,below,ties,mean,m2,maxabs,lowest\n", []string{"row 1", "no quantile columns q1, q2", "docs/summary.md"}},
		{"variance as m2", edit(5, "m2", scaled(cell(5, "m2"), 1/float64(cases[0].Sample.K))), []string{"row 5", "m2 =", "not their variance", "make the summary again"}},
		{"mean of scores not oriented", edit(5, "mean", scaled(cell(5, "mean"), -1)), []string{"row 5", "mean =", "outside the point's scores", "make the summary again"}},
		{"long line", lines[0] + "\n" + lines[1] + "\n" + strings.Repeat("1", scores.MaxLineBytes+1), []string{"row 3", "longer than 32 MiB"}},
	} {
		_, err := Parse(strings.NewReader(c.text))
		var pe *scores.ParseError
		if err == nil || !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want a *scores.ParseError", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, err, w)
			}
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: the message is more than one line: %q", c.name, err)
		}
	}
}

func TestIsHeader(t *testing.T) {
	if !IsHeader(Header(8)) || !IsHeader([]string{"\uFEFFCorrect", " below", "TIES", "M2"}) {
		t.Error("a summary header is not recognised")
	}
	// a summary with a repeated column is still a summary, which Parse
	// refuses naming the column, not a score matrix with a repeated class
	dup := append(Header(8), "below")
	if !IsHeader(dup) {
		t.Errorf("the summary header with a second below column is not recognised")
	}
	_, err := Parse(strings.NewReader(strings.Join(dup, ",") + "\n"))
	var pe *scores.ParseError
	if !errors.As(err, &pe) || pe.Row != 1 || pe.Column != "below" || err.Error() != `row 1, column "below": the column appears twice; keep one of them` {
		t.Errorf("a summary with two below columns: %v, want row 1, column below: the column appears twice", err)
	}
	for _, h := range [][]string{
		{"label", "correct", "below", "c3"},
		// a classifier of words: its classes include correct, below and ties
		{"label", "apple", "below", "correct", "mean", "lowest", "ties", "scores"},
	} {
		if IsHeader(h) {
			t.Errorf("the score matrix header %q is taken for a summary", h)
		}
	}
}

// TestRecipeFile checks that the SQL recipe the repository ships
// (assets/summary.sql) is SQL(DefaultQuantiles).
func TestRecipeFile(t *testing.T) {
	want, err := SQL(DefaultQuantiles)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "assets", "summary.sql"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Error("assets/summary.sql is not SQL(DefaultQuantiles): regenerate it with go run ./cmd/cleanex summarise -sql > assets/summary.sql")
	}
	if _, err := SQL(1); err == nil {
		t.Error("SQL(1): no error")
	}
}
