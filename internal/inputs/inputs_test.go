package inputs_test

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/inputs/parquetfile"
	"github.com/cleanex/cleanex/internal/scores"
)

// all reads every format, Parquet included.
var all = inputs.Reader{Parquet: parquetfile.Decoder{}}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// reference is tiny.csv as scores.Parse reads it.
func reference(t *testing.T) *scores.Matrix {
	t.Helper()
	m, err := scores.Parse(bytes.NewReader(readFile(t, "tiny.csv")))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sameMatrix fails unless got has want's classes and labels and, for each
// score, the bits of conv(want's score).
func sameMatrix(t *testing.T, name string, got, want *scores.Matrix, conv func(float64) float64) {
	t.Helper()
	if !slices.Equal(got.Classes, want.Classes) || !slices.Equal(got.Labels, want.Labels) || len(got.Scores) != len(want.Scores) {
		t.Fatalf("%s: classes %q labels %v (%d scores), want %q %v (%d)", name, got.Classes, got.Labels, len(got.Scores), want.Classes, want.Labels, len(want.Scores))
	}
	for x, v := range want.Scores {
		if math.Float64bits(got.Scores[x]) != math.Float64bits(conv(v)) {
			t.Fatalf("%s: score %d is %v, want %v", name, x, got.Scores[x], conv(v))
		}
	}
}

func exact(v float64) float64 { return v }

// viaFloat32 is v rounded to float32 and back, which float64 holds exactly:
// what a float32 score of v reads as.
func viaFloat32(v float64) float64 { return float64(float32(v)) }

// TestSamePilot: every file of testdata holds the tiny pilot and reads to
// the matrix of tiny.csv: bit for bit where the scores are float64, and to
// float64(float32(v)) from float32 scores, which float64 holds exactly.
func TestSamePilot(t *testing.T) {
	want := reference(t)
	if want.N() != 24 || want.K() != 6 {
		t.Fatalf("tiny.csv has %d points, %d classes; want 24, 6", want.N(), want.K())
	}
	for _, tc := range []struct {
		file   string
		format inputs.Format
		conv   func(float64) float64
	}{
		{"tiny.csv", inputs.CSV, exact},
		{"tiny.csv.gz", inputs.Gzip, exact},
		{"tiny.tsv.gz", inputs.Gzip, exact},
		{"tiny.npz", inputs.NPZ, exact},
		{"tiny_f32.npz", inputs.NPZ, viaFloat32},
		{"tiny_long.parquet", inputs.Parquet, exact},
		{"tiny_wide.parquet", inputs.Parquet, exact},
	} {
		b := readFile(t, tc.file)
		if f, err := inputs.Detect(b[:min(len(b), scores.SniffBytes)]); f != tc.format || err != nil {
			t.Errorf("%s: Detect = %v, %v; want %v", tc.file, f, err, tc.format)
		}
		d, err := all.Read(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if d.Summary != nil || d.Matrix == nil {
			t.Fatalf("%s: %+v, want a matrix", tc.file, d)
		}
		sameMatrix(t, tc.file, d.Matrix, want, tc.conv)
	}
	// The pair of .npy files, in both orders.
	s, l := readFile(t, "tiny_scores.npy"), readFile(t, "tiny_labels.npy")
	for _, pair := range [][2][]byte{{s, l}, {l, s}} {
		packed, err := inputs.PackNPY(pair[0], pair[1])
		if err != nil {
			t.Fatal(err)
		}
		d, err := inputs.Read(bytes.NewReader(packed))
		if err != nil {
			t.Fatal(err)
		}
		sameMatrix(t, "tiny_scores.npy + tiny_labels.npy", d.Matrix, want, exact)
	}
	// A gzip-compressed .npz.
	d, err := inputs.Read(bytes.NewReader(gz(t, readFile(t, "tiny.npz"))))
	if err != nil {
		t.Fatal(err)
	}
	sameMatrix(t, "tiny.npz.gz", d.Matrix, want, exact)
}

// TestDetect: the magic numbers, text, and scores.Sniff's refusals.
func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		head string
		want inputs.Format
		err  string
	}{
		{"label,a,b\n", inputs.CSV, ""},
		{"\uFEFFlabel\ta\tb\n", inputs.CSV, ""},
		{"", inputs.CSV, ""},
		{"\x1f\x8b\x08\x00", inputs.Gzip, ""},
		{"PK\x03\x04\x14\x00", inputs.NPZ, ""},
		{"\x93NUMPY\x01\x00", inputs.NPY, ""},
		{"PAR1\x15\x04", inputs.Parquet, ""},
		{"BZh91AY&SY\x01", inputs.CSV, "row 1: not valid UTF-8 text: this is a bzip2-compressed file; decompress it (bunzip2) and give the CSV inside"},
		{"\xfd7zXZ\x00\x00", inputs.CSV, "this is an xz-compressed file"},
		{"\x28\xb5\x2f\xfd\x04", inputs.CSV, "this is a zstd-compressed file"},
		{"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", inputs.CSV, "this is an old Excel .xls workbook"},
		{"label,a\x00b", inputs.CSV, "the file holds NUL bytes"},
	} {
		f, err := inputs.Detect([]byte(tc.head))
		switch {
		case tc.err == "" && (err != nil || f != tc.want):
			t.Errorf("Detect(%q) = %v, %v; want %v", tc.head, f, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Detect(%q) = %v; want the error %q", tc.head, err, tc.err)
		}
	}
	for f, s := range map[inputs.Format]string{inputs.CSV: "CSV", inputs.Gzip: "gzip", inputs.NPZ: "NPZ", inputs.NPY: "NPY", inputs.Parquet: "Parquet"} {
		if f.String() != s {
			t.Errorf("%d.String() = %q, want %q", int(f), f.String(), s)
		}
	}
}

// npyRaw writes an .npy file by hand (header version 1), for arrays npyio
// does not write: Fortran order, other dtypes, damaged files.
func npyRaw(dtype string, fortran bool, shape string, data []byte) []byte {
	order := "False"
	if fortran {
		order = "True"
	}
	h := fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", dtype, order, shape)
	for (10+len(h)+1)%64 != 0 {
		h += " "
	}
	h += "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), byte(len(h)>>8))
	return append(append(b, h...), data...)
}

// structuredNPY is an .npy array of a structured dtype, whose descr is
// the list of its fields (unquoted, unlike npyRaw's).
func structuredNPY(descr, shape string, data []byte) []byte {
	h := fmt.Sprintf("{'descr': %s, 'fortran_order': False, 'shape': %s, }", descr, shape)
	for (10+len(h)+1)%64 != 0 {
		h += " "
	}
	h += "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), byte(len(h)>>8))
	return append(append(b, h...), data...)
}

// le writes values little-endian.
func le(vs ...any) []byte {
	var b bytes.Buffer
	for _, v := range vs {
		binary.Write(&b, binary.LittleEndian, v)
	}
	return b.Bytes()
}

// utf32 writes strings as NumPy's <U{width} does.
func utf32(width int, ss ...string) []byte {
	var b []byte
	for _, s := range ss {
		r := []rune(s)
		for i := range width {
			var c uint32
			if i < len(r) {
				c = uint32(r[i])
			}
			b = binary.LittleEndian.AppendUint32(b, c)
		}
	}
	return b
}

// zipOf stores the named files in a zip archive.
func zipOf(files ...string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		w, _ := zw.Create(files[i])
		w.Write([]byte(files[i+1]))
	}
	zw.Close()
	return buf.Bytes()
}

// pilotNPZ is an .npz of 4 points x 3 classes with the given scores,
// labels and (when not "") classes arrays.
func pilotNPZ(s, l, c []byte) []byte {
	files := []string{"scores.npy", string(s), "labels.npy", string(l)}
	if c != nil {
		files = append(files, "classes.npy", string(c))
	}
	return zipOf(files...)
}

var (
	goodScores  = npyRaw("<f8", false, "(4, 3)", le(0.9, 0.1, 0.2, 0.4, 0.5, 0.1, 0.2, 0.8, 0.3, 0.1, 0.2, 0.7))
	goodLabels  = npyRaw("<i8", false, "(4,)", le(int64(0), int64(0), int64(1), int64(2)))
	goodClasses = npyRaw("<U1", false, "(3,)", utf32(1, "a", "b", "c"))
	// sortedScores are the scores of points of the classes dog, cat, emu
	// and dog, each highest in its class's column, the columns in sorted
	// order: cat, dog, emu.
	sortedScores = npyRaw("<f8", false, "(4, 3)", le(0.1, 0.8, 0.1, 0.7, 0.2, 0.1, 0.2, 0.1, 0.7, 0.3, 0.6, 0.1))
	// sortedScores10 and sortedLabels10 are those 4 points 10 times over.
	sortedScores10 = npyRaw("<f8", false, "(40, 3)", le(repeatAny(10, 0.1, 0.8, 0.1, 0.7, 0.2, 0.1, 0.2, 0.1, 0.7, 0.3, 0.6, 0.1)...))
	sortedLabels10 = npyRaw("<U3", false, "(40,)", utf32(3, repeatString(10, "dog", "cat", "emu", "dog")...))
)

// repeatAny returns vs n times over.
func repeatAny(n int, vs ...any) []any {
	var out []any
	for range n {
		out = append(out, vs...)
	}
	return out
}

// repeatString returns ss n times over.
func repeatString(n int, ss ...string) []string {
	var out []string
	for range n {
		out = append(out, ss...)
	}
	return out
}

// oneLine fails unless err is a one-line message holding each of want.
func oneLine(t *testing.T, name string, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %q", name, want)
		return
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("%s: %q is not one line", name, msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("%s: %q\n  does not say %q", name, msg, w)
		}
	}
}

// TestNumPy: the arrays of an .npz as NumPy writes them: Fortran order,
// float16 and float32 scores, big-endian numbers, byte-string labels,
// version 2 headers; string labels with and without classes.
func TestNumPy(t *testing.T) {
	want := &scores.Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 0, 1, 2},
		Scores: []float64{0.9, 0.1, 0.2, 0.4, 0.5, 0.1, 0.2, 0.8, 0.3, 0.1, 0.2, 0.7}}
	names := []string{"0", "1", "2"}
	h := func(v ...uint16) []byte { return le(v) } // float16 bits
	for _, tc := range []struct {
		name    string
		s, l, c []byte
		classes []string
		conv    func(float64) float64
	}{
		{"int labels, classes", goodScores, goodLabels, goodClasses, nil, exact},
		{"int labels, no classes", goodScores, goodLabels, nil, names, exact},
		{"string labels, no classes", goodScores, npyRaw("<U1", false, "(4,)", utf32(1, "a", "a", "b", "c")), nil, nil, exact},
		// b, a, c in order of first appearance, which fits the scores (the
		// true class has the highest score on 3 of the 4 points; in sorted
		// order, on 2)
		{"string labels, no classes, not sorted", goodScores, npyRaw("<U1", false, "(4,)", utf32(1, "b", "b", "a", "c")), nil, []string{"b", "a", "c"}, exact},
		{"string labels, classes", goodScores, npyRaw("<U2", false, "(4,)", utf32(2, "a", "a ", "b", "c")), goodClasses, nil, exact},
		{"byte-string labels", goodScores, npyRaw("|S1", false, "(4,)", []byte("aabc")), nil, nil, exact},
		{"uint8 labels", goodScores, npyRaw("|u1", false, "(4,)", []byte{0, 0, 1, 2}), goodClasses, nil, exact},
		{"big-endian", npyRaw(">f8", false, "(4, 3)", func() []byte {
			var b bytes.Buffer
			binary.Write(&b, binary.BigEndian, want.Scores)
			return b.Bytes()
		}()), npyRaw(">i4", false, "(4,)", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2}), goodClasses, nil, exact},
		{"Fortran order", npyRaw("<f8", true, "(4, 3)", le(0.9, 0.4, 0.2, 0.1, 0.1, 0.5, 0.8, 0.2, 0.2, 0.1, 0.3, 0.7)), goodLabels, goodClasses, nil, exact},
		{"float32", npyRaw("<f4", false, "(4, 3)", le(float32(0.9), float32(0.1), float32(0.2), float32(0.4), float32(0.5), float32(0.1), float32(0.2), float32(0.8), float32(0.3), float32(0.1), float32(0.2), float32(0.7))), goodLabels, goodClasses, nil,
			viaFloat32},
		// float16 bits of 0.9, 0.1, 0.2, 0.4, 0.5, 0.1, 0.2, 0.8, 0.3, 0.1, 0.2, 0.7 (numpy.float16(...).view(numpy.uint16)).
		{"float16", npyRaw("<f2", false, "(4, 3)", h(0x3b33, 0x2e66, 0x3266, 0x3666, 0x3800, 0x2e66, 0x3266, 0x3a66, 0x34cd, 0x2e66, 0x3266, 0x399a)), goodLabels, goodClasses, nil, float16},
	} {
		d, err := inputs.Read(bytes.NewReader(pilotNPZ(tc.s, tc.l, tc.c)))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		w := *want
		if tc.classes != nil {
			w.Classes = tc.classes
		}
		sameMatrix(t, tc.name, d.Matrix, &w, tc.conv)
	}
}

// float16 rounds v to the nearest float16 (ties to even) for the normal
// range the test uses, independently of npyio: 10 bits of mantissa.
func float16(v float64) float64 {
	e := math.Floor(math.Log2(math.Abs(v)))
	q := math.Ldexp(1, int(e)-10)
	return math.RoundToEven(v/q) * q
}

// TestNumPyErrors: each damaged or inconsistent NumPy pilot is refused with
// one line naming the array and the place.
// TestNumPyNameOrderNeedsEvidence: with 4 points, the sorted order's better
// fit (4 points against 1) is within what chance gives, so the labels are
// read as the file says, in order of first appearance; 10 times as many
// points with the same pattern are refused (TestNumPyErrors).
func TestNumPyNameOrderNeedsEvidence(t *testing.T) {
	d, err := inputs.Read(bytes.NewReader(pilotNPZ(sortedScores, npyRaw("<U3", false, "(4,)", utf32(3, "dog", "cat", "emu", "dog")), nil)))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.Matrix.Classes, ","); got != "dog,cat,emu" {
		t.Errorf("classes %s, want dog,cat,emu (order of first appearance)", got)
	}
}

func TestNumPyErrors(t *testing.T) {
	nan := npyRaw("<f8", false, "(4, 3)", le(0.9, 0.1, 0.2, 0.4, 0.5, 0.1, 0.2, 0.8, math.NaN(), 0.1, 0.2, 0.7))
	for _, tc := range []struct {
		name string
		file []byte
		want []string
	}{
		{"NaN", pilotNPZ(nan, goodLabels, goodClasses), []string{`scores.npy: point 2, class 2 ("c"): not a finite number: NaN; replace it with a finite score`}},
		{"Inf", pilotNPZ(npyRaw("<f8", false, "(4, 3)", le(0.9, 0.1, 0.2, 0.4, 0.5, math.Inf(-1), 0.2, 0.8, 0.3, 0.1, 0.2, 0.7)), goodLabels, nil), []string{`scores.npy: point 1, class 2 ("2"): not a finite number: -Inf`}},
		{"0-D scores", pilotNPZ(npyRaw("<f8", false, "()", make([]byte, 8)), goodLabels, nil), []string{"scores.npy: wrong shape (): a single value; save an array (scores N x K, labels N)"}},
		{"1-D scores", pilotNPZ(npyRaw("<f8", false, "(10,)", make([]byte, 80)), goodLabels, nil), []string{"scores.npy: wrong shape (10,): want a 2-D array of N points x K classes"}},
		{"int scores", pilotNPZ(npyRaw("<i8", false, "(4, 3)", make([]byte, 96)), goodLabels, nil), []string{"scores.npy: wrong type: dtype <i8: scores must be floating-point", "scores.astype(numpy.float64)"}},
		{"one class", pilotNPZ(npyRaw("<f8", false, "(4, 1)", make([]byte, 32)), goodLabels, nil), []string{"scores.npy: fewer than 2 class columns: shape (4, 1)"}},
		{"no points", pilotNPZ(npyRaw("<f8", false, "(0, 3)", nil), npyRaw("<i8", false, "(0,)", nil), nil), []string{"scores.npy: no data rows: shape (0, 3) holds no test points"}},
		{"labels too short", pilotNPZ(goodScores, npyRaw("<i8", false, "(3,)", le(int64(0), int64(1), int64(2))), nil), []string{"labels.npy: wrong shape (3,): want 4 labels (a 1-D array, one per row of scores.npy)"}},
		{"scores transposed", pilotNPZ(npyRaw("<f8", false, "(3, 4)", make([]byte, 96)), goodLabels, nil), []string{"labels.npy: wrong shape (4,): want 3 labels (a 1-D array, one per row of scores.npy)", "scores.npy has 3 rows and 4 columns, one per label: if its rows are the classes, save its transpose (S.T) instead"}},
		{"labels 2-D", pilotNPZ(goodScores, npyRaw("<i8", false, "(4, 1)", le(int64(0), int64(0), int64(1), int64(2))), nil), []string{"labels.npy: wrong shape (4, 1): want 4 labels"}},
		{"labels counted from 1", pilotNPZ(goodScores, npyRaw("<i8", false, "(4,)", le(int64(1), int64(1), int64(2), int64(3))), nil), []string{"labels.npy: point 3: unknown label 3: integer labels are column indices of scores, 0..2", "the labels run from 1 to 3: if they count the columns from 1, subtract 1 (labels - 1)"}},
		{"label out of range", pilotNPZ(goodScores, npyRaw("<i8", false, "(4,)", le(int64(0), int64(3), int64(1), int64(2))), nil), []string{"labels.npy: point 1: unknown label 3: integer labels are column indices of scores, 0..2"}},
		{"-1 as uint64", pilotNPZ(goodScores, npyRaw("<u8", false, "(4,)", le(uint64(0), uint64(1), ^uint64(0), uint64(2))), nil), []string{"labels.npy: point 2: unknown label 18446744073709551615: integer labels are column indices of scores, 0..2"}},
		{"negative label", pilotNPZ(goodScores, npyRaw("<i2", false, "(4,)", le(int16(0), int16(0), int16(-1), int16(2))), nil), []string{"labels.npy: point 2: unknown label -1"}},
		{"float labels", pilotNPZ(goodScores, npyRaw("<f8", false, "(4,)", le(0.0, 0.0, 1.0, 2.0)), nil), []string{"labels.npy: wrong type: dtype <f8: labels must be integers 0..2 or class names; convert them with labels.astype(int)"}},
		{"object labels", pilotNPZ(goodScores, npyRaw("|O", false, "(4,)", make([]byte, 32)), nil), []string{"labels.npy: wrong type: dtype |O: Python objects, which are not read; convert names with a.astype(str)"}},
		{"empty string labels", pilotNPZ(goodScores, npyRaw("|S0", false, "(4,)", nil), nil), []string{"labels.npy: wrong type: dtype |S0: strings of width 0 (every one empty); save the names themselves with a.astype(str)"}},
		{"empty unicode classes", pilotNPZ(goodScores, goodLabels, npyRaw("<U0", false, "(3,)", nil)), []string{"classes.npy: wrong type: dtype <U0: strings of width 0"}},
		{"bool labels", pilotNPZ(goodScores, npyRaw("|b1", false, "(4,)", make([]byte, 4)), nil), []string{"labels.npy: wrong type: dtype |b1: booleans; convert labels with a.astype(int)"}},
		{"bool scores", pilotNPZ(npyRaw("|b1", false, "(4, 3)", make([]byte, 12)), goodLabels, nil), []string{"scores.npy: wrong type: dtype |b1: booleans; give floating-point numbers: convert them with a.astype(numpy.float64)"}},
		{"complex scores", pilotNPZ(npyRaw("<c16", false, "(4, 3)", make([]byte, 192)), goodLabels, nil), []string{"scores.npy: wrong type: dtype <c16: complex numbers; give real scores"}},
		{"datetime scores", pilotNPZ(npyRaw("<M8[s]", false, "(4, 3)", make([]byte, 96)), goodLabels, nil), []string{"scores.npy: wrong type: dtype <M8[s]: give floats (scores)"}},
		// A structured array, whose field names hold b, c and O (it was
		// called booleans).
		{"structured scores", pilotNPZ(structuredNPY("[('b', '<f8'), ('cO', '<f8')]", "(4, 3)", make([]byte, 192)), goodLabels, nil), []string{"scores.npy: wrong type: dtype [('b', '<f8'), ('cO', '<f8')]: a structured array (named fields), which is not read; save each field as an array of its own"}},
		{"unknown name", pilotNPZ(goodScores, npyRaw("<U2", false, "(4,)", utf32(2, "a", "a", "zz", "c")), goodClasses), []string{`labels.npy: point 2: unknown label "zz": it must be one of the 3 names in classes.npy`}},
		{"empty label", pilotNPZ(goodScores, npyRaw("<U1", false, "(4,)", utf32(1, "a", "", "b", "c")), nil), []string{"labels.npy: point 1: empty cell: the label is empty"}},
		{"names in sorted column order, no classes", pilotNPZ(sortedScores10, sortedLabels10, nil), []string{
			"labels.npy: conflicting values: the labels name the classes but classes.npy is missing, so the columns of scores.npy are read as the classes in order of first appearance",
			`("dog", "cat", "emu"), and then 10 of the 40 points' true class has the best score of its row; in sorted order ("cat", "dog", "emu"), as scikit-learn's classes_ orders them, 40 of the 40 do`,
			"numpy.savez(f, scores=S, labels=y, classes=names)"}},
		{"too few names", pilotNPZ(goodScores, npyRaw("<U1", false, "(4,)", utf32(1, "a", "a", "b", "b")), nil), []string{"labels.npy: wrong shape: 2 distinct labels for the 3 columns of scores.npy", "classes=names"}},
		{"class without points", pilotNPZ(goodScores, npyRaw("<i8", false, "(4,)", le(int64(0), int64(0), int64(2), int64(2))), goodClasses), []string{`labels.npy: classes without test points: "b"; every class needs at least one point`}},
		{"classes wrong length", pilotNPZ(goodScores, goodLabels, npyRaw("<U1", false, "(2,)", utf32(1, "a", "b"))), []string{"classes.npy: wrong shape (2,): want 3 class names"}},
		{"classes not strings", pilotNPZ(goodScores, goodLabels, npyRaw("<i8", false, "(3,)", make([]byte, 24))), []string{"classes.npy: wrong type: dtype <i8: class names must be strings"}},
		{"duplicate class", pilotNPZ(goodScores, goodLabels, npyRaw("<U1", false, "(3,)", utf32(1, "a", "b", "a"))), []string{`classes.npy: classes 0 and 2: duplicate class name: both are "a"`}},
		{"truncated data", pilotNPZ(npyRaw("<f8", false, "(4, 3)", make([]byte, 90)), goodLabels, nil), []string{"scores.npy: unreadable file: the header announces shape (4, 3) of <f8 but the file holds 90 bytes of data"}},
		{"huge shape", pilotNPZ(npyRaw("<f8", false, "(4000000000, 4000000000)", nil), goodLabels, nil), []string{"scores.npy: unreadable file: the header announces shape (4000000000, 4000000000)"}},
		{"garbled header", pilotNPZ([]byte("\x93NUMPY\x01\x00\x10\x00{'shape': (3,)}\n"), goodLabels, nil), []string{"scores.npy: unreadable file: the .npy array cannot be read"}},
		{"no newline", pilotNPZ([]byte("\x93NUMPY\x01\x00\x08\x00{'descr'"), goodLabels, nil), []string{"scores.npy: unreadable file: the .npy header is cut short or malformed"}},
		{"header past the end", pilotNPZ([]byte("\x93NUMPY\x01\x00\xff\xff{'descr'\n"), goodLabels, nil), []string{"scores.npy: unreadable file: the .npy header is cut short or malformed"}},
		{"not npy", pilotNPZ([]byte("label,a,b\n"), goodLabels, nil), []string{`scores.npy: unreadable file: not a .npy array (it does not start with \x93NUMPY)`}},
		{"version 3", pilotNPZ([]byte("\x93NUMPY\x03\x00\x08\x00\x00\x00{}     \n"), goodLabels, nil), []string{"scores.npy: unreadable file: .npy format version 3.0"}},
		{"no labels", zipOf("scores.npy", string(goodScores)), []string{"missing: the .npz holds scores.npy but no labels.npy; save the true class of each point with it: numpy.savez(f, scores=S, labels=y)"}},
		{"no scores", zipOf("labels.npy", string(goodLabels)), []string{"the .npz holds labels.npy but no scores.npy"}},
		{"unnamed arrays", zipOf("arr_0.npy", string(goodScores), "arr_1.npy", string(goodLabels)), []string{`a zip archive that holds no scores.npy/labels.npy (it holds "arr_0.npy", "arr_1.npy"); name the arrays`}},
		{"xlsx", zipOf("[Content_Types].xml", "<Types/>", "xl/workbook.xml", "<workbook/>"), []string{"a zip archive that holds no scores.npy/labels.npy: it looks like an Excel .xlsx workbook; save the sheet as CSV UTF-8"}},
		{"damaged zip", []byte("PK\x03\x04 and then nothing"), []string{"unreadable file: a zip archive that cannot be read (npz: could not create zip reader: zip: not a valid zip file); give an .npz written by numpy.savez(f, scores=S, labels=y), or save an Excel workbook's sheet as CSV UTF-8"}},
		{"npz cut short", pilotNPZ(goodScores, goodLabels, nil)[:150], []string{`unreadable file: an .npz (its first array is "scores.npy") whose zip directory, at the end of the file, cannot be read (`, "the file is damaged or cut short, as an interrupted copy or download leaves it; copy it again, or save it again with numpy.savez"}},
		{"lone npy", goodScores, []string{"missing: a single .npy array, so the labels are missing"}},
	} {
		_, err := inputs.Read(bytes.NewReader(tc.file))
		oneLine(t, tc.name, err, tc.want...)
		var ie *inputs.Error
		if err != nil && !errors.As(err, &ie) {
			t.Errorf("%s: %T is not an *inputs.Error", tc.name, err)
		}
	}
}

// TestPackNPY: the pair is told apart by shape; two arrays of the same rank
// or a file that is not an .npy are refused.
func TestPackNPY(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b []byte
		want string
	}{
		{"two 2-D", goodScores, goodScores, "wrong shape: the two .npy arrays have shapes (4, 3) and (4, 3); give one 2-D array of scores (N points x K classes) and one 1-D array of the N labels"},
		{"two 1-D", goodLabels, goodClasses, "the two .npy arrays have shapes (4,) and (3,)"},
		{"not npy", goodScores, []byte("label,a,b\n"), "the second .npy file: unreadable file: not a .npy array"},
	} {
		_, err := inputs.PackNPY(tc.a, tc.b)
		oneLine(t, tc.name, err, tc.want)
	}
	packed, err := inputs.PackNPY(goodLabels, goodScores)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(packed), int64(len(packed)))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range zr.File {
		if want := []string{"scores.npy", "labels.npy"}[i]; f.Name != want || f.Method != zip.Store {
			t.Errorf("member %d: %s (method %d), want %s stored", i, f.Name, f.Method, want)
		}
	}
}

// TestGzipErrors: a damaged gzip file, gzip inside gzip, and text refused
// inside gzip as it is outside.
func TestGzipErrors(t *testing.T) {
	csv := readFile(t, "tiny.csv.gz")
	for _, tc := range []struct {
		name string
		file []byte
		want []string
	}{
		{"cut short", csv[:len(csv)/2], []string{"the gzip-compressed data is damaged or cut short (unexpected EOF); compress the file again"}},
		{"bad header", []byte("\x1f\x8b\x08\x00label"), []string{"unreadable file: the gzip header cannot be read"}},
		{"gzip in gzip", gz(t, csv), []string{"a gzip file inside a gzip file"}},
		{"NUL inside", gz(t, []byte("label,a,b\x00\n")), []string{"row 1: not valid UTF-8 text: the file holds NUL bytes"}},
		{"CSV error inside", gz(t, []byte("label\ta\tb\na\t0.5\tx\n")), []string{`row 2, column "b": not a number: "x"`}},
	} {
		_, err := inputs.Read(bytes.NewReader(tc.file))
		oneLine(t, tc.name, err, tc.want...)
	}
}

// TestNoParquet: a Reader without a ParquetDecoder refuses Parquet and says
// where it is read.
func TestNoParquet(t *testing.T) {
	_, err := inputs.Read(bytes.NewReader(readFile(t, "tiny_long.parquet")))
	if !errors.Is(err, inputs.ErrNoParquet) {
		t.Fatalf("got %v, want ErrNoParquet", err)
	}
	oneLine(t, "no parquet", err, "the command line reads Parquet")
}

// TestValidate: a matrix a decoder built wrongly is refused with the place.
func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		m    scores.Matrix
		want string
	}{
		{scores.Matrix{Classes: []string{"a"}, Labels: []int{0}, Scores: []float64{1}}, "fewer than 2 class columns: found 1"},
		{scores.Matrix{Classes: []string{"a", ""}, Labels: []int{0}, Scores: []float64{1, 2}}, "class 1: empty class name"},
		{scores.Matrix{Classes: []string{"a", "b"}}, "no data rows"},
		{scores.Matrix{Classes: []string{"a", "b"}, Labels: []int{0}, Scores: []float64{1}}, "wrong shape: 1 scores for 1 points x 2 classes"},
		{scores.Matrix{Classes: []string{"a", "b"}, Labels: []int{2}, Scores: []float64{1, 2}}, "point 0: unknown label: label 2 is not a class index 0..1"},
		{scores.Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 1}, Scores: []float64{1, 2, 3, math.Inf(1)}}, `point 1, class 1 ("b"): not a finite number: +Inf`},
		{scores.Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 0}, Scores: []float64{1, 2, 3, 4}}, `classes without test points: "b"`},
	} {
		oneLine(t, tc.want, inputs.Validate(&tc.m), tc.want)
	}
	if err := inputs.Validate(reference(t)); err != nil {
		t.Errorf("tiny.csv: %v", err)
	}
}

// FuzzRead: whatever the bytes, Read returns a matrix that passes Validate
// (or a summary, or embeddings that pass CheckEmbeddings) or one line of
// error, and does not panic.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"tiny.csv", "tiny.csv.gz", "tiny.npz", "tiny_f32.npz", "tiny_long.parquet", "tiny_wide.parquet", "tiny_embeddings.npz", "tiny_embeddings.csv", "tiny_gallery.npz"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(pilotNPZ(goodScores, goodLabels, goodClasses))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := all.Read(bytes.NewReader(b))
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("%q is not one line", err)
			}
			return
		}
		switch {
		case d.Embeddings != nil:
			if err := d.CheckEmbeddings(); err != nil {
				t.Fatalf("Read gave embeddings that CheckEmbeddings refuses: %v", err)
			}
		case d.Matrix != nil:
			if err := inputs.Validate(d.Matrix); err != nil {
				t.Fatalf("Read gave a matrix that Validate refuses: %v", err)
			}
		case d.Summary == nil:
			t.Fatal("Read gave neither a matrix, a summary nor embeddings")
		}
	})
}
