package parquetfile_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/inputs/parquetfile"
	"github.com/cleanex/cleanex/internal/scores"
)

// gz returns b compressed with gzip.
func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// bitsEqual reports whether two matrices have the same classes, labels and
// scores, bit for bit (so -0 differs from 0).
func bitsEqual(a, b *scores.Matrix) bool {
	return slices.Equal(a.Classes, b.Classes) && slices.Equal(a.Labels, b.Labels) &&
		slices.EqualFunc(a.Scores, b.Scores, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// roundTrip converts file to CSV and checks that both scores.Parse and
// inputs.Read (the compute worker's reader, without Parquet) read it to
// want, bit for bit.
func roundTrip(t *testing.T, name string, file []byte, want *scores.Matrix) {
	t.Helper()
	var csv bytes.Buffer
	if err := parquetfile.WriteCSV(&csv, file); err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	m, err := scores.Parse(bytes.NewReader(csv.Bytes()))
	if err != nil {
		t.Errorf("%s: the CSV does not parse: %v\n%.300s", name, err, csv.Bytes())
		return
	}
	if !bitsEqual(m, want) {
		t.Errorf("%s: the CSV parses to %+v, Decode gives %+v", name, m, want)
	}
	d, err := inputs.Read(bytes.NewReader(csv.Bytes()))
	if err != nil || d.Matrix == nil || !bitsEqual(d.Matrix, want) {
		t.Errorf("%s: inputs.Read reads the CSV as %+v (%v), Decode gives %+v", name, d, err, want)
	}
}

// TestWriteCSVTestdata: every Parquet file of internal/inputs/testdata,
// plain and gzip-compressed, converts to a CSV that parses to exactly the
// matrix Decode gives.
func TestWriteCSVTestdata(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "*.parquet"))
	if err != nil || len(files) < 2 {
		t.Fatalf("the Parquet files of the testdata: %v, %v", files, err)
	}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := parquetfile.Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		roundTrip(t, filepath.Base(path), b, want)
		roundTrip(t, filepath.Base(path)+".gz", gz(t, b), want)
	}
}

// TestWriteCSVExact: scores that a short decimal does not hold (thirds,
// float32 values, subnormals, extremes, negative zero) and class names the
// CSV must quote come back bit for bit.
func TestWriteCSVExact(t *testing.T) {
	vals := []float64{1.0 / 3, -2.0 / 3, float64(float32(0.1)), 5e-324, -math.SmallestNonzeroFloat64 * 3,
		math.MaxFloat64, -math.MaxFloat64, math.Copysign(0, -1), 0, 1e21, 1e-7, 123456789.123456789, -1e-300}
	names := []string{`a,b`, `semi;colon`, "tab\there", `quote"d`, "héllo wörld", "\uFEFFbom", "sep=;", "#1", "0", "labels", "x y"}
	var rows []long
	for p := range 2 * len(names) {
		for j, c := range names {
			label := names[p%len(names)]
			rows = append(rows, long{Point: string(rune('A' + p)), Class: c, Score: vals[(p*len(names)+j)%len(vals)], Label: label})
		}
	}
	file := write(t, rows)
	want, err := parquetfile.Decode(file)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(want.Classes, names) {
		t.Fatalf("Decode's classes %q, want %q", want.Classes, names)
	}
	roundTrip(t, "awkward values and names", file, want)
}

// TestWriteCSVErrors: a malformed Parquet file gives the message the
// command line's reader gives (the one the page showed when its compute
// workers read Parquet), and class names the CSV cannot carry are refused
// naming the class; nothing is written then.
func TestWriteCSVErrors(t *testing.T) {
	dup := append(pilot(), long{"p1", "b", 0.3, "a"})
	nan := pilot()
	nan[3].Score = math.NaN()
	damagedFile := write(t, pilot())
	native := inputs.Reader{Parquet: parquetfile.Decoder{}}
	for name, file := range map[string][]byte{
		"duplicate pair": write(t, dup),
		"NaN":            write(t, nan),
		"NaN, gzip":      gz(t, write(t, nan)),
		"wide, NaN":      write(t, []wide{{"a", 0.9, math.Inf(1), 3}}),
		"wide, null":     write(t, []wideNamed{{"x", "a", 0.9, nil}}),
		"damaged":        damagedFile[:len(damagedFile)-20],
		"damaged gzip":   gz(t, damagedFile)[:100],
		"footer":         []byte("PAR1PAR1\x00\x00\x00\x7fPAR1"),
	} {
		_, want := native.Read(bytes.NewReader(file))
		if want == nil {
			t.Fatalf("%s: the native reader reads it", name)
		}
		var out bytes.Buffer
		err := parquetfile.WriteCSV(&out, file)
		if err == nil || err.Error() != want.Error() {
			t.Errorf("%s: %v\n  want %q", name, err, want)
		}
		if out.Len() != 0 {
			t.Errorf("%s: %d bytes written", name, out.Len())
		}
	}

	named := func(a, b string) []byte {
		return write(t, []long{{"p0", a, 0.9, a}, {"p0", b, 0.1, a}, {"p1", a, 0.2, b}, {"p1", b, 0.7, b}})
	}
	for name, tc := range map[string]struct {
		file []byte
		want string
	}{
		"a class named label": {named("a", "Label"), `class 1 ("Label"): duplicate class name: a class named label cannot be read here`},
		"a line break":        {named("a\nb", "c"), `class 0 ("a\nb"): not valid UTF-8 text: a class name holding a line break or a NUL byte cannot be read here`},
		"a carriage return":   {named("a", "b\rc"), `class 1 ("b\rc"): not valid UTF-8 text: a class name holding a line break`},
		"a NUL byte":          {named("a\x00", "b"), `class 0 ("a\x00"): not valid UTF-8 text: a class name holding a line break or a NUL byte`},
		"a summary's columns": {write(t, everyPair("correct", "below", "ties", "m2")),
			"duplicate class name: classes named correct, below and ties with m2, maxabs, top1 or q1 cannot be read here"},
		"not Parquet": {[]byte("label,a,b\na,1,2\nb,3,4\n"), "unreadable file: this is not a Parquet file (nor a gzip-compressed one)"},
	} {
		var out bytes.Buffer
		err := parquetfile.WriteCSV(&out, tc.file)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.ContainsAny(err.Error(), "\r\n") {
			t.Errorf("%s: %q\n  want %q... on one line", name, err, tc.want)
		}
		var ie *inputs.Error
		if !errors.As(err, &ie) {
			t.Errorf("%s: %T is not an *inputs.Error", name, err)
		}
		if _, nerr := native.Read(bytes.NewReader(tc.file)); nerr != nil && name != "not Parquet" && name != "a NUL byte" {
			t.Errorf("%s: the native reader refuses it too (%v): the test's file is wrong", name, nerr)
		}
		if out.Len() != 0 {
			t.Errorf("%s: %d bytes written", name, out.Len())
		}
	}
}

// everyPair is a long table of one point per class, labelled by it, with a
// score for every class (the point's own class scores 1, the others 0.5).
func everyPair(classes ...string) []long {
	var rows []long
	for i, y := range classes {
		for _, c := range classes {
			s := 0.5
			if c == y {
				s = 1
			}
			rows = append(rows, long{"p" + strconv.Itoa(i), c, s, y})
		}
	}
	return rows
}

// TestWriteCSVWordClasses: classes that are words, among them correct,
// below and ties (not a summary's own columns m2, maxabs, top1 or q1), are
// converted and read back as the same score matrix.
func TestWriteCSVWordClasses(t *testing.T) {
	file := write(t, everyPair("correct", "below", "ties", "apple"))
	var out bytes.Buffer
	if err := parquetfile.WriteCSV(&out, file); err != nil {
		t.Fatal(err)
	}
	d, err := inputs.Read(&out)
	if err != nil {
		t.Fatal(err)
	}
	if d.Matrix == nil || !slices.Equal(d.Matrix.Classes, []string{"correct", "below", "ties", "apple"}) {
		t.Errorf("read back as %+v, want the score matrix of the classes correct, below, ties, apple", d)
	}
}
