package main

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// FuzzPredict runs predict end to end on a small score matrix and flags built
// from the fuzzer's bytes. Whatever the input: no panic; a non-zero exit
// status comes with exactly one line on stderr; on exit status 0 every value
// written is a finite accuracy in [0, 1] and every column is non-increasing
// in k.
func FuzzPredict(f *testing.F) {
	f.Add([]byte{3, 6, 5, 0, 0, 90, 10, 20, 80, 30, 10, 20, 70, 30, 10, 60, 50, 30, 20, 80, 40, 50, 45})
	f.Add([]byte{2, 4, 3, 15, 1, 90, 10, 20, 80, 60, 40, 30, 10})
	f.Add([]byte{4, 8, 40, 7, 2, 255, 0, 255, 0, 1, 1, 1, 1, 200, 100, 50, 25})
	f.Add([]byte{3, 3, 2, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		args, csvText := predictCase(data)
		var out, errb bytes.Buffer
		code := run(args, strings.NewReader(csvText), &out, &errb)
		stderr := errb.String()
		if code != 0 {
			if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
				t.Fatalf("%v on\n%s\nexit %d with stderr %q: want one line", args, csvText, code, stderr)
			}
			return
		}
		checkCurvesCSV(t, out.String(), fmt.Sprintf("%v on\n%s", args, csvText))
	})
}

// predictCase turns fuzz bytes into predict's arguments and a score CSV:
// byte 0 picks K (2..5), byte 1 the rows (1..12), byte 2 k2 (0..40), byte 3
// the methods (a bit mask; 0 means all), byte 4 the direction and the score
// scale (from 1e-200 to 1e200), the rest the scores and labels.
func predictCase(data []byte) ([]string, string) {
	at := func(i int) int {
		if i < len(data) {
			return int(data[i])
		}
		return 0
	}
	k := 2 + at(0)%4
	n := 1 + at(1)%12
	k2 := at(2) % 41
	var ms []string
	for i, m := range []string{"plugin", "kde", "regression", "cleanex"} {
		if at(3)&(1<<i) != 0 {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		ms = []string{"plugin", "kde", "regression", "cleanex"}
	}
	dir := []string{"auto", "higher", "lower"}[at(4)%3]
	scale := []float64{1, 1e-200, 1e200, 9e307 / 255, 1e-3}[(at(4)/3)%5]
	var b strings.Builder
	b.WriteString("label")
	for j := range k {
		fmt.Fprintf(&b, ",c%d", j)
	}
	b.WriteByte('\n')
	p := 5
	for i := range n {
		y := i % k // every class gets a point once n >= k
		if i >= k {
			y = at(p) % k
			p++
		}
		fmt.Fprintf(&b, "c%d", y)
		for range k {
			v := float64(at(p)) - 128
			p++
			b.WriteByte(',')
			b.WriteString(strconv.FormatFloat(v*scale, 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	args := []string{"predict", "--k2", strconv.Itoa(k2), "--methods", strings.Join(ms, ","), "--direction", dir, "--seed", strconv.Itoa(at(5)), "-"}
	return args, b.String()
}

// checkCurvesCSV checks a curves CSV: a header starting with k, then rows
// k = 2, 3, ... whose non-empty cells are finite accuracies in [0, 1],
// non-increasing down every column.
func checkCurvesCSV(t *testing.T, out, what string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "k,") {
		t.Fatalf("%s: output is not a curves CSV:\n%s", what, out)
	}
	cols := strings.Split(lines[0], ",")
	prev := make([]float64, len(cols))
	for j := range prev {
		prev[j] = 1
	}
	for i, line := range lines[1:] {
		cells := strings.Split(line, ",")
		if len(cells) != len(cols) || cells[0] != strconv.Itoa(i+2) {
			t.Fatalf("%s: row %q does not match the header %q", what, line, lines[0])
		}
		for j := 1; j < len(cells); j++ {
			if cells[j] == "" {
				continue
			}
			v, err := strconv.ParseFloat(cells[j], 64)
			switch {
			case err != nil || math.IsNaN(v) || v < 0 || v > 1:
				t.Fatalf("%s: column %s at k = %s is %q, not an accuracy in [0, 1]", what, cols[j], cells[0], cells[j])
			case v > prev[j]:
				t.Fatalf("%s: column %s rises from %v to %v at k = %s", what, cols[j], prev[j], v, cells[0])
			}
			prev[j] = v
		}
	}
}
