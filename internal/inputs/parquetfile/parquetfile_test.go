package parquetfile_test

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/inputs/parquetfile"
	"github.com/cleanex/cleanex/internal/scores"
)

// write writes rows of type T (its fields give the columns, in order).
func write[T any](t *testing.T, rows []T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type long struct {
	Point string  `parquet:"point"`
	Class string  `parquet:"class"`
	Score float64 `parquet:"score"`
	Label string  `parquet:"label"`
}

type longInt struct {
	Point int64   `parquet:"Point"`
	Class int32   `parquet:"CLASS"`
	Score float32 `parquet:"score"`
	True  int64   `parquet:"true_class"`
}

type longNull struct {
	Point string   `parquet:"point"`
	Class string   `parquet:"class"`
	Score *float64 `parquet:"score,optional"`
	Label string   `parquet:"label"`
}

type longExtra struct {
	Point string  `parquet:"point"`
	Class string  `parquet:"class"`
	Score float64 `parquet:"score"`
	Label string  `parquet:"label"`
	Split string  `parquet:"split"`
}

type longNoPoint struct {
	Class string  `parquet:"class"`
	Score float64 `parquet:"score"`
	Label string  `parquet:"label"`
}

type wide struct {
	Label string  `parquet:"label"`
	A     float64 `parquet:"a"`
	B     float64 `parquet:"b"`
	C     int64   `parquet:"c"`
}

type wideNamed struct {
	Point string   `parquet:"point"`
	Label string   `parquet:"true_class"`
	A     float32  `parquet:"a"`
	B     *float64 `parquet:"b,optional"`
}

type wideText struct {
	Label string `parquet:"label"`
	A     string `parquet:"a"`
	B     float64
}

type longNoScore struct {
	Point string `parquet:"point"`
	Class string `parquet:"class"`
	Label string `parquet:"label"`
	A     float64
}

type longTwoLabels struct {
	Point string  `parquet:"point"`
	Class string  `parquet:"class"`
	Score float64 `parquet:"score"`
	Label string  `parquet:"label"`
	True  string  `parquet:"true_class"`
}

type longTwoPoints struct {
	Point  string  `parquet:"point"`
	Point2 string  `parquet:"Point"`
	Class  string  `parquet:"class"`
	Score  float64 `parquet:"score"`
	Label  string  `parquet:"label"`
}

type longNoClass struct {
	Point string `parquet:"point"`
	Label string `parquet:"label"`
	Score string `parquet:"score"`
	A     float64
}

type longNoLabel struct {
	Point string  `parquet:"point"`
	Class string  `parquet:"class"`
	Score float64 `parquet:"score"`
}

type wideID struct {
	ID string  `parquet:"id"`
	A  float64 `parquet:"a"`
	B  float64 `parquet:"b"`
}

type wideIndex struct {
	Index int64   `parquet:"__index_level_0__"`
	Label string  `parquet:"label"`
	A     float64 `parquet:"a"`
	B     float64 `parquet:"b"`
}

// pilot is 3 points x 2 classes in long form: p0, p1 of class a, p2 of b.
func pilot() []long {
	return []long{
		{"p0", "a", 0.9, "a"}, {"p0", "b", 0.1, "a"},
		{"p1", "a", 0.6, "a"}, {"p1", "b", 0.4, "a"},
		{"p2", "a", 0.2, "b"}, {"p2", "b", 0.7, "b"},
	}
}

var want = &scores.Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 0, 1}, Scores: []float64{0.9, 0.1, 0.6, 0.4, 0.2, 0.7}}

func same(t *testing.T, name string, got, want *scores.Matrix) {
	t.Helper()
	if !slices.Equal(got.Classes, want.Classes) || !slices.Equal(got.Labels, want.Labels) || !slices.Equal(got.Scores, want.Scores) {
		t.Errorf("%s: %+v, want %+v", name, got, want)
	}
}

// TestForms: long and wide files, ids as strings or integers, columns in
// any order and case, float32 and integer scores, the pandas index column.
func TestForms(t *testing.T) {
	shuffled := pilot()
	shuffled[0], shuffled[5] = shuffled[5], shuffled[0] // p2's b row first: p2 and b come first
	f32 := func(v ...float64) []float64 {
		for i := range v {
			v[i] = float64(float32(v[i]))
		}
		return v
	}
	b := 0.1
	for _, tc := range []struct {
		name string
		file []byte
		want *scores.Matrix
	}{
		{"long", write(t, pilot()), want},
		{"long, rows in any order", write(t, shuffled), &scores.Matrix{Classes: []string{"b", "a"}, Labels: []int{0, 1, 1},
			Scores: []float64{0.7, 0.2, 0.1, 0.9, 0.4, 0.6}}},
		{"long, integer ids", write(t, []longInt{{10, 0, 0.9, 0}, {10, 1, 0.1, 0}, {11, 1, 0.7, 1}, {11, 0, 0.2, 1}}),
			&scores.Matrix{Classes: []string{"0", "1"}, Labels: []int{0, 1}, Scores: f32(0.9, 0.1, 0.2, 0.7)}},
		{"wide", write(t, []wide{{"a", 0.9, 0.1, 3}, {"b", 0.2, 0.7, -1}, {" c ", 0, 0, 5}}),
			&scores.Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1, 2}, Scores: []float64{0.9, 0.1, 3, 0.2, 0.7, -1, 0, 0, 5}}},
		{"wide, named points", write(t, []wideNamed{{"x", "b", 0.9, &b}, {"y", "a", 0.5, &b}}),
			&scores.Matrix{Classes: []string{"a", "b"}, Labels: []int{1, 0}, Scores: []float64{float64(float32(0.9)), 0.1, 0.5, 0.1}}},
		{"wide, pandas index", write(t, []wideIndex{{7, "a", 0.9, 0.1}, {8, "b", 0.2, 0.7}}),
			&scores.Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 1}, Scores: []float64{0.9, 0.1, 0.2, 0.7}}},
	} {
		m, err := parquetfile.Decode(tc.file)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		same(t, tc.name, m, tc.want)
	}
}

// TestErrors: each malformed Parquet pilot is refused with one line naming
// the row and the point and class, or the column.
func TestErrors(t *testing.T) {
	dup := append(pilot(), long{"p1", "b", 0.3, "a"})
	missing := pilot()[:5]
	missing = append(missing, long{"p3", "b", 0.5, "b"}, long{"p3", "a", 0.5, "b"})
	nan := pilot()
	nan[3].Score = math.NaN()
	conflict := pilot()
	conflict[3].Label = "b"
	unknown := pilot()
	unknown[4].Label, unknown[5].Label = "zz", "zz"
	noPoints := pilot()
	for i := range noPoints {
		noPoints[i].Label = "a"
	}
	x := 0.5
	nulls := []longNull{{"p0", "a", &x, "a"}, {"p0", "b", nil, "a"}, {"p1", "a", &x, "b"}, {"p1", "b", &x, "b"}}
	damagedFile := write(t, pilot())
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"duplicate pair", write(t, dup), `row 6 (point "p1", class "b"): conflicting values: a second row for this (point, class) pair (the first is row 3); give each pair once`},
		{"missing pair", write(t, missing), `point "p2", class "b": missing: no row for this (point, class) pair; 4 points x 2 classes need 8 rows, the file has 7`},
		{"NaN", write(t, nan), `row 3 (point "p1", class "b"): not a finite number: NaN; replace it with a finite score`},
		{"null score", write(t, nulls), `row 1 (point "p0", class "b"): empty cell: the score is empty (null)`},
		{"label conflict", write(t, conflict), `row 3 (point "p1", class "b"): conflicting values: label "b", but row 2 gives this point the label "a"`},
		{"unknown label", write(t, unknown), `row 4 (point "p2"), column "label": unknown label "zz": the true class must be one of the 2 classes of column "class"`},
		{"class without points", write(t, noPoints), `classes without test points: "b"`},
		{"one class", write(t, []long{{"p0", "a", 1, "a"}}), `column "class": fewer than 2 class columns: it names 1 class`},
		{"label and true_class", write(t, []longTwoLabels{{"p0", "a", 1, "a", "a"}}), `conflicting values: both a label and a true_class column; keep one, the true class of each point`},
		{"two point columns", write(t, []longTwoPoints{{"p0", "p0", "a", 1, "a"}}), `column "Point": conflicting values: two columns are named "point"; keep one`},
		{"extra column", write(t, []longExtra{{"p0", "a", 1, "a", "test"}}), `column "split": wrong shape: a long Parquet file has only the columns point, class, score and label; drop the others`},
		{"no point column", write(t, []longNoPoint{{"a", 1, "a"}}), "missing: a long Parquet file (it has class and score columns) also needs a point column (the point's id); this one has none"},
		{"long without score", write(t, []longNoScore{{"p0", "a", "a", 1}}), `missing: a column "class" but no column score: a long Parquet file has the columns point, class, score and label (or true_class); add the score column (or, for a wide file, rename column "class")`},
		{"long without class", write(t, []longNoClass{{"p0", "a", "x", 1}}), `missing: a column "score" but no column class: a long Parquet file has the columns point, class, score and label (or true_class); add the class column`},
		{"long without label", write(t, []longNoLabel{{"p0", "a", 1}}), "also needs a label or true_class column (its true class); this one has none"},
		{"wide, text scores", write(t, []wideText{{"a", "x", 1}}), `column "a": wrong type: type STRING; in a wide Parquet file every column but "label" (the true class) is a class and holds numbers`},
		{"wide, unknown label", write(t, []wide{{"a", 0.9, 0.1, 3}, {"d", 0.2, 0.7, -1}}), `row 1, column "label": unknown label "d": it must equal one of the class column names`},
		{"wide, no label column", write(t, []wideID{{"img1", 0.9, 0.1}}), `row 0, column "id": unknown label "img1": no column is named label or true_class, so the first column, "id", was read as the true classes`},
		{"wide, NaN", write(t, []wide{{"a", 0.9, math.Inf(1), 3}}), `row 0, column "b": not a finite number: +Inf`},
		{"wide, null", write(t, []wideNamed{{"x", "a", 0.9, nil}}), `row 0 (point "x"), column "b": empty cell: the score is empty (null)`},
		{"damaged", damagedFile[:len(damagedFile)-20], "unreadable file: the Parquet file cannot be read"},
		{"not parquet", []byte("PAR1 and nothing more"), "unreadable file: the Parquet file cannot be read"},
		{"footer longer than the file", []byte("PAR1PAR1\x00\x00\x00\x7fPAR1"), "unreadable file: the Parquet file cannot be read (it does not start and end with PAR1 around a footer that fits)"},
	} {
		_, err := parquetfile.Decode(tc.file)
		if err == nil {
			t.Errorf("%s: no error, want %q", tc.name, tc.want)
			continue
		}
		if msg := err.Error(); strings.ContainsAny(msg, "\n\r") || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: %q\n  want %q on one line", tc.name, msg, tc.want)
		}
		var ie *inputs.Error
		if !errors.As(err, &ie) {
			t.Errorf("%s: %T is not an *inputs.Error", tc.name, err)
		}
	}
}

// TestThroughRead: inputs.Reader hands Parquet to the decoder.
func TestThroughRead(t *testing.T) {
	d, err := inputs.Reader{Parquet: parquetfile.Decoder{}}.Read(bytes.NewReader(write(t, pilot())))
	if err != nil {
		t.Fatal(err)
	}
	same(t, "through Read", d.Matrix, want)
}

type longDecimal32 struct {
	Point string `parquet:"point"`
	Class string `parquet:"class"`
	Score int32  `parquet:"score,decimal(1:2)"`
	Label string `parquet:"label"`
}

type wideDecimal struct {
	Label string `parquet:"label"`
	A     int64  `parquet:"a,decimal(4:18)"`
	B     []byte `parquet:"b,decimal(3:20)"`
}

// decimalBytes is v as the 9 big-endian two's complement bytes of a
// DECIMAL of precision 20.
func decimalBytes(v int64) []byte {
	b := make([]byte, 9)
	if v < 0 {
		b[0] = 0xff
	}
	for i := 8; i >= 1; i-- {
		b[i] = byte(v)
		v >>= 8
	}
	return b
}

// TestDecimalScores: DECIMAL score columns (DuckDB writes a literal such as
// 1.0 as one) are read as the float64 nearest to their value, whichever of
// INT32, INT64 and FIXED_LEN_BYTE_ARRAY holds them, in long and wide form.
func TestDecimalScores(t *testing.T) {
	long := []longDecimal32{{"p0", "a", 9, "a"}, {"p0", "b", 1, "a"}, {"p1", "a", 6, "a"}, {"p1", "b", -4, "a"}, {"p2", "a", 2, "b"}, {"p2", "b", 7, "b"}}
	wide := []wideDecimal{{"a", 12345, decimalBytes(-1500)}, {"b", -2, decimalBytes(123456789012345678)}}
	for _, tc := range []struct {
		name string
		file []byte
		want *scores.Matrix
	}{
		{"long, DECIMAL(2,1) in INT32", write(t, long), &scores.Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 0, 1},
			Scores: []float64{0.9, 0.1, 0.6, -0.4, 0.2, 0.7}}},
		{"wide, DECIMAL(18,4) in INT64 and DECIMAL(20,3) in bytes", write(t, wide), &scores.Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 1},
			Scores: []float64{1.2345, -1.5, -0.0002, 123456789012345.678}}},
	} {
		m, err := parquetfile.Decode(tc.file)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		same(t, tc.name, m, tc.want)
	}
}
