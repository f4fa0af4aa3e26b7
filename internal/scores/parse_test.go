package scores

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

type validCase struct {
	name, in string
	want     Matrix
}

var validCases = []validCase{
	{"comma", "label,a,b\na,0.9,0.1\nb,0.2,0.8\n",
		Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 1}, Scores: []float64{0.9, 0.1, 0.2, 0.8}}},
	{"BOM and CRLF", "\uFEFFlabel,a,b\r\na,1,2\r\nb,3,4\r\n",
		Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 1}, Scores: []float64{1, 2, 3, 4}}},
	{"BOM before a quoted header", "\uFEFF\"label\",\"a\",\"b\"\nb,1,2\na,3,4\n",
		Matrix{Classes: []string{"a", "b"}, Labels: []int{1, 0}, Scores: []float64{1, 2, 3, 4}}},
	{"semicolon, quoted names with commas, label column last",
		"\"x, y\";\"z\";LABEL\n1;2;\"x, y\"\n3;4;z\n5;6;z\n",
		Matrix{Classes: []string{"x, y", "z"}, Labels: []int{0, 1, 1}, Scores: []float64{1, 2, 3, 4, 5, 6}}},
	{"tab, no label column, spaces around cells",
		"true\tc1\t c2 \nc2\t 0.5 \t-1e-3\nc1\t+2\t.5\n",
		Matrix{Classes: []string{"c1", "c2"}, Labels: []int{1, 0}, Scores: []float64{0.5, -1e-3, 2, 0.5}}},
	{"quotes and a newline inside quoted class names",
		"label,\"say \"\"hi\"\"\",\"two\nlines\"\n\"two\nlines\",1,2\n\"say \"\"hi\"\"\",3,4\n",
		Matrix{Classes: []string{`say "hi"`, "two\nlines"}, Labels: []int{1, 0}, Scores: []float64{1, 2, 3, 4}}},
	{"blank lines, a line of spaces, no final newline",
		"\nlabel,a,b\n\na,1,2\n   \n\r\nb,3,4",
		Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 1}, Scores: []float64{1, 2, 3, 4}}},
	{"final CR", "label,a,b\na,1,2\nb,3,4\r",
		Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 1}, Scores: []float64{1, 2, 3, 4}}},
	{"numbers beyond the fast path, underflow, negative zero",
		"label,a,b,c\na,0.12345678901234567,1e-400,-0\nb,123456789012345678901234567890,1E2,5.\nc,9007199254740993,1e23,-2.5e-30\n",
		Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 1, 2},
			Scores: []float64{0.12345678901234567, 0, math.Copysign(0, -1), 123456789012345678901234567890, 100, 5, 9007199254740993, 1e23, -2.5e-30}}},
	{"ties and unequal class sizes",
		"label,a,b,c\na,1,1,1\na,2,1,1\na,0,0,3\nb,1,1,0\nc,5,5,5\n",
		Matrix{Classes: []string{"a", "b", "c"}, Labels: []int{0, 0, 0, 1, 2},
			Scores: []float64{1, 1, 1, 2, 1, 1, 0, 0, 3, 1, 1, 0, 5, 5, 5}}},
	{"tab, class names holding one comma each (a tie broken by the first data row)",
		"label\tParis, FR\tRome, IT\n\nRome, IT\t0.2\t0.7\nParis, FR\t0.9\t0.1\n",
		Matrix{Classes: []string{"Paris, FR", "Rome, IT"}, Labels: []int{1, 0}, Scores: []float64{0.2, 0.7, 0.9, 0.1}}},
	{"semicolon, class names holding one comma each",
		"label;Paris, FR;Rome, IT\r\nParis, FR;0.9;0.1\r\nRome, IT;0.2;0.7\r\n",
		Matrix{Classes: []string{"Paris, FR", "Rome, IT"}, Labels: []int{0, 1}, Scores: []float64{0.9, 0.1, 0.2, 0.7}}},
	{"comma, class names holding one semicolon each",
		"label,a;b,c;d\na;b,1,2\nc;d,3,4\n",
		Matrix{Classes: []string{"a;b", "c;d"}, Labels: []int{0, 1}, Scores: []float64{1, 2, 3, 4}}},
	{"quoted scores", "label,a,b\n\"a\",\"1\",\" 2 \"\nb,3,\"4\"\n",
		Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 1}, Scores: []float64{1, 2, 3, 4}}},
}

func TestParseValid(t *testing.T) {
	for _, tc := range validCases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse(strings.NewReader(tc.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !slices.Equal(m.Classes, tc.want.Classes) {
				t.Errorf("classes %q, want %q", m.Classes, tc.want.Classes)
			}
			if !slices.Equal(m.Labels, tc.want.Labels) {
				t.Errorf("labels %v, want %v", m.Labels, tc.want.Labels)
			}
			if len(m.Scores) != len(tc.want.Scores) {
				t.Fatalf("scores %v, want %v", m.Scores, tc.want.Scores)
			}
			for i, v := range m.Scores {
				if math.Float64bits(v) != math.Float64bits(tc.want.Scores[i]) {
					t.Errorf("score %d = %v, want %v", i, v, tc.want.Scores[i])
				}
			}
		})
	}
}

type errorCase struct {
	name, in string
	is       error
	row      int
	column   string
	contains string // also expected in the message, when set
}

var errorCases = []errorCase{
	{"ragged row", "label,a,b\na,1,2\nb,1\n", ErrFieldCount, 3, "", "2 fields where the header has 3"},
	{"extra field", "label,a,b\na,1,2,\nb,1,2\n", ErrFieldCount, 2, "", "4 fields"},
	{"empty cell", "label,a,b\na,1,\nb,1,2\n", ErrEmptyCell, 2, "b", ""},
	{"NaN", "label,a,b\na,NaN,1\nb,1,2\n", ErrNotFinite, 2, "a", `"NaN"`},
	{"Inf", "label,a,b\na,1,2\nb,-Inf,2\n", ErrNotFinite, 3, "a", `"-Inf"`},
	{"text in a score", "label,a,b\na,1,2\nb,1,high\n", ErrNotNumber, 3, "b", `"high"`},
	{"two points in a number", "label,a,b\na,1.5.3,2\nb,1,2\n", ErrNotNumber, 2, "a", ""},
	{"hex number", "label,a,b\na,0x10,2\nb,1,2\n", ErrNotNumber, 2, "a", ""},
	{"decimal comma", "label;a;b\na;0,5;1\nb;1;2\n", ErrNotNumber, 2, "a", "write the decimal separator as a point (0.25, not 0,25) and leave out thousands separators (1000, not 1,000)"},
	{"thousands comma", "label,a,b\na,\"1,000\",1\nb,1,2\n", ErrNotNumber, 2, "a", "leave out thousands separators (1000, not 1,000)"},
	{"thousands comma and decimal point", "label,a,b\na,\"1,234.5\",1\nb,1,2\n", ErrNotNumber, 2, "a", "leave out the thousands separators and write the decimal separator as a point (1234.5, not 1,234.5 or 1.234,5)"},
	{"thousands point and decimal comma", "label;a;b\na;1.234,5;1\nb;1;2\n", ErrNotNumber, 2, "a", "leave out the thousands separators and write the decimal separator as a point"},
	{"thousands space", "label,a,b\na,1 000,1\nb,1,2\n", ErrNotNumber, 2, "a", "leave out the spaces that group the digits (1000, not 1 000)"},
	{"thousands no-break space", "label,a,b\na,-12\u00a0345.5,1\nb,1,2\n", ErrNotNumber, 2, "a", "leave out the spaces that group the digits"},
	{"two numbers", "label,a,b\na,1 x,1\nb,1,2\n", ErrNotNumber, 2, "a", "scores are plain decimal numbers"},
	{"overflow", "label,a,b\na,1,2\nb,1e999,2\n", ErrNotFinite, 3, "a", "overflows"},
	{"unknown label", "label,a,b\na,1,2\nc,1,2\n", ErrUnknown, 3, "label", `"c"`},
	{"no label column, labels last under another name", "a,b,c,true_class\n0.9,0.1,0.2,a\n", ErrUnknown, 2, "a",
		`unknown label "0.9": no column is named label, so the first column, "a", was read as the true classes`},
	{"no label column, point ids first", "point,a,b,y\np1,0.9,0.1,a\n", ErrUnknown, 2, "point",
		`column 4, "y", holds the class name "a" on this row: if it holds the true classes, name it label`},
	{"long table", "point,class,score,label\np1,a,0.9,a\np1,b,0.1,a\n", ErrUnknown, 2, "label",
		`unknown label "a": the header has the columns "class" and "score", as a long table has (one row per point and class)`},
	{"long table, true_class", "point,Class,Score,true_class\np1,a,0.9,a\n", ErrUnknown, 2, "point",
		`give it as Parquet, which is read in long form`},
	{"label in another case", "label,Cat,Dog\nCat,1,2\ndog,1,2\n", ErrUnknown, 3, "label", `"dog": it differs from the class column "Dog" only in upper and lower case`},
	{"number written another way", "label,1,2\n1,1,2\n2.0,1,2\n", ErrUnknown, 3, "label", `"2.0": it is the number of the class column "2" written another way`},
	{"column index", "label,cat,dog\n0,1,2\n1,1,2\n", ErrUnknown, 2, "label", `"0": it looks like a column index, but labels are class names ("cat", "dog"); write each point's class as its column is named`},
	{"empty label", "label,a,b\n,1,2\n", ErrEmptyCell, 2, "label", "label is empty"},
	{"label not UTF-8", "label,a,b\n\xff\xfe,1,2\n", ErrEncoding, 2, "label", ""},
	{"duplicate class", "label,a,b, a\na,1,2,3\nb,1,2,3\n", ErrDuplicate, 1, "a", "columns 2 and 4"},
	{"empty class name", "label,a,,b\na,1,2,3\n", ErrEmptyHeader, 1, "", "column 3"},
	{"pandas index column", ",label,a,b\n0,a,1,2\n1,b,2,1\n", ErrEmptyHeader, 1, "", "column 1 of the header; the first column has no name, as pandas' to_csv writes the DataFrame's index there: write the file with index=False, or delete that column"},
	{"trailing delimiter", "label,a,b,\na,1,2,\nb,2,1,\n", ErrEmptyHeader, 1, "", "column 4 of the header; the header row ends with a delimiter"},
	{"one class only", "label,a\na,1\n", ErrFewClasses, 1, "", "found 1"},
	{"header only", "label,a,b\n", ErrNoData, 2, "", "no test points"},
	{"header only, no newline", "label,a,b", ErrNoData, 2, "", ""},
	{"no data rows, only blank lines", "label,a,b\n\n\r\n", ErrNoData, 2, "", ""},
	{"empty file", "", ErrNoData, 1, "", "empty"},
	{"blank file", "\n\n", ErrNoData, 1, "", ""},
	{"a class with no points", "label,a,b,c,d\na,1,2,3,4\nb,1,2,3,4\n", ErrNoPoints, 0, "c", `"c", "d"`},
	{"mixed delimiters", "label,a,b\na,1,2\nb;1;2\n", ErrFieldCount, 3, "", "semicolon"},
	{"quoted newline inside a score", "label,a,b\na,\"1\n2\",3\nb,1,2\n", ErrNotNumber, 2, "a", ""},
	{"unclosed quote", "label,a,b\na,\"1,2\nb,1,2\n", ErrMalformed, 2, "a", "not closed"},
	{"quote inside an unquoted field", "label,a,b\na,1\"5,2\n", ErrMalformed, 2, "a", "does not start"},
	{"text after a closing quote", "label,a,b\na,1,\"2\"x\n", ErrMalformed, 2, "b", "closing quote"},
	{"bad quoting in the header", "label,\"a\"b,c\na,1,2\n", ErrMalformed, 1, "", "field 2"},
	{"BOM, error after it", "\uFEFFlabel,a,b\na,1,x\nb,1,2\n", ErrNotNumber, 2, "b", ""},
	{"CRLF ragged row", "label,a,b\r\na,1,2\r\nb,1\r\n", ErrFieldCount, 3, "", ""},
	{"rows are file lines", "label,a,b\n\na,1,2\n\nb,x,2\n", ErrNotNumber, 5, "a", ""},
	{"rows after a multi-line header", "label,\"a\nb\",c\n\"a\nb\",1,2\nc,1,zz\n", ErrNotNumber, 5, "c", ""},
	{"binary junk", "label,a,b\n\x89PNG\r\n\x1a\n\x00\x00\xff", ErrFieldCount, 2, "", ""},
	{"binary header", "\x89PNG\r\n\x1a\n", ErrEncoding, 1, "", "column 1"},
	{"header not UTF-8", "label,a\xff,b\na,1,2\n", ErrEncoding, 1, "", "column 2"},
	{"UTF-16 header", "l\x00a\x00b\x00e\x00l\x00,\x00a\x00,\x00b\x00\n\x00", ErrEncoding, 1, "", "NUL"},
	{"curves CSV", "k,observed,estimate,estimate_lo,estimate_hi,plugin\n2,0.99,0.99,0.98,0.995,0.99\n3,0.98,0.98,0.97,0.99,0.98\n", ErrNotTable, 1, "", "file of predicted curves"},
	{"curves CSV without the estimate", "k,observed,plugin\n2,0.99,0.99\n", ErrNotTable, 1, "", "give the pilot's score file the curves came from"},
}

func TestParseErrors(t *testing.T) {
	if len(errorCases) < 15 {
		t.Fatalf("only %d malformed inputs", len(errorCases))
	}
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse(strings.NewReader(tc.in))
			if err == nil {
				t.Fatalf("no error; parsed %+v", m)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a *ParseError", err, err)
			}
			if !errors.Is(err, tc.is) {
				t.Errorf("error %q does not wrap %q", err, tc.is)
			}
			if pe.Row != tc.row || pe.Column != tc.column {
				t.Errorf("error at row %d, column %q; want row %d, column %q (%v)", pe.Row, pe.Column, tc.row, tc.column, err)
			}
			msg := err.Error()
			if pe.Row == 0 && pe.Column == "" {
				t.Errorf("message names neither row nor column: %s", msg)
			}
			if pe.Row > 0 && !strings.Contains(msg, fmt.Sprintf("row %d", pe.Row)) {
				t.Errorf("message does not name row %d: %s", pe.Row, msg)
			}
			if pe.Column != "" && !strings.Contains(msg, strconv.Quote(pe.Column)) {
				t.Errorf("message does not name column %q: %s", pe.Column, msg)
			}
			if !strings.Contains(msg, tc.contains) {
				t.Errorf("message lacks %q: %s", tc.contains, msg)
			}
		})
	}
}

// TestParseLongLines reads a header and rows longer than the reader's 64 KiB
// buffer.
func TestParseLongLines(t *testing.T) {
	pad := strings.Repeat(" ", 40000)
	long := strings.Repeat("x", 70000)
	var b strings.Builder
	b.WriteString("label," + long + ",b,c\n")
	want := Matrix{Classes: []string{long, "b", "c"}}
	for i := 0; i < 6; i++ {
		y := i % 3
		b.WriteString(want.Classes[y])
		for j := 0; j < 3; j++ {
			v := float64(10*i + j)
			fmt.Fprintf(&b, ",%s%v%s", pad, v, pad)
			want.Scores = append(want.Scores, v)
		}
		b.WriteString("\n")
		want.Labels = append(want.Labels, y)
	}
	m, err := Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Classes, want.Classes) || !slices.Equal(m.Labels, want.Labels) || !slices.Equal(m.Scores, want.Scores) {
		t.Errorf("got labels %v scores %v, want %v %v", m.Labels, m.Scores, want.Labels, want.Scores)
	}
}

// TestParseCRLFAtBufferEnd: a CRLF file whose header's "\r" is the last
// byte of the first 64 KiB the reader looks at (its "\n" just beyond) is
// read as CRLF, not as lone-CR line ends, so rows keep their numbers.
func TestParseCRLFAtBufferEnd(t *testing.T) {
	const size = 1 << 16 // Parse's buffer
	header := "label,a,b," + strings.Repeat("c", size-1-len("label,a,b,"))
	if len(header) != size-1 {
		t.Fatalf("header of %d bytes", len(header))
	}
	in := header + "\r\na,1,2,3\r\nb,4,5,6\r\na,7,x,9\r\n"
	_, err := Parse(strings.NewReader(in))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Row != 4 || pe.Column != "b" {
		t.Errorf("error %v; want one at row 4, column \"b\"", err)
	}
}

// TestParseErrorLongColumn: a column named by a long text (a sentence, a
// verse) is cut in the message, which stays one short line.
func TestParseErrorLongColumn(t *testing.T) {
	long := strings.Repeat("In the beginning ", 400)
	_, err := Parse(strings.NewReader("label,a,\"" + long + "\"\na,1,x\n"))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Column != strings.TrimSpace(long) {
		t.Fatalf("error %v; want one naming the long column", err)
	}
	if msg := err.Error(); len(msg) > 200 || !strings.Contains(msg, `column "In the beginning In the beginning In the...": not a number`) {
		t.Errorf("message of %d bytes: %.300s", len(msg), msg)
	}
}

// checkAgainstCSV parses data (comma-delimited, header "label,...") with
// encoding/csv and strconv and compares with m.
func checkAgainstCSV(t *testing.T, data []byte, m *Matrix) {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(recs[0][1:], m.Classes) {
		t.Fatalf("classes differ")
	}
	k := m.K()
	for i, rec := range recs[1:] {
		if m.Classes[m.Labels[i]] != rec[0] {
			t.Fatalf("row %d: label %q, want %q", i+2, m.Classes[m.Labels[i]], rec[0])
		}
		for j, cell := range rec[1:] {
			want, err := strconv.ParseFloat(cell, 64)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Scores[i*k+j]; got != want {
				t.Fatalf("row %d, column %d: %v, want %v", i+2, j+1, got, want)
			}
		}
	}
}

// TestParseGenerated compares Parse with encoding/csv + strconv on generated
// files whose numbers take both the fast path and strconv.
func TestParseGenerated(t *testing.T) {
	for _, digits := range []int{3, 8, 15, 17} {
		data := genCSV(200, 40, digits)
		m, err := Parse(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		checkAgainstCSV(t, data, m)
	}
}

func TestParseScoreMatchesStrconv(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	cells := []string{"0", "-0", "+0.0", "1", "12345", "1e22", "1e-22", "123456789012345", "1234567890123456",
		"0.000000000000000000000000123", "9007199254740993", "4.9e-324", "2.2250738585072014e-308",
		"1.7976931348623157e308", "1e308", "1e-320", "3.", ".3", "-.3e+2", "1E+0", "0e999", "0.1", "0.3",
		"0.30000000000000004", "100000000000000000000000", "7e-23", "7e23"}
	for i := 0; i < 20000; i++ {
		v := math.Float64frombits(rng.Uint64())
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		f := []byte{'g', 'e', 'f'}[rng.IntN(3)]
		prec := rng.IntN(20) - 1
		if f == 'f' && math.Abs(v) > 1e30 {
			f = 'g'
		}
		cells = append(cells, strconv.FormatFloat(v, f, prec, 64))
		cells = append(cells, strconv.FormatFloat(rng.NormFloat64()*math.Pow(10, float64(rng.IntN(40)-20)), 'g', rng.IntN(17)+1, 64))
	}
	for _, c := range cells {
		want, err := strconv.ParseFloat(c, 64)
		if err != nil {
			t.Fatalf("bad test cell %q: %v", c, err)
		}
		got, err := parseScore([]byte(c))
		if err != nil {
			t.Fatalf("parseScore(%q): %v", c, err)
		}
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("parseScore(%q) = %v (%x), strconv %v (%x)", c, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
}

// FuzzParse feeds arbitrary bytes to Parse: it must not panic; an error must
// be a *ParseError naming a row or column; a success must satisfy the
// Matrix invariants and survive a WriteCSV round trip. The same input also
// checks the record reader against encoding/csv and the number scanner
// against strconv.
func FuzzParse(f *testing.F) {
	for _, tc := range validCases {
		f.Add([]byte(tc.in))
	}
	for _, tc := range errorCases {
		f.Add([]byte(tc.in))
	}
	f.Add(genCSV(5, 4, 6))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(bytes.NewReader(data))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a *ParseError", err, err)
			}
			if pe.Row == 0 && pe.Column == "" {
				t.Fatalf("error names neither row nor column: %v", err)
			}
			ends := bytes.Count(data, []byte("\n"))
			if ends == 0 {
				ends = bytes.Count(data, []byte("\r")) // lone CR line ends
			}
			if lines := ends + 2; pe.Row > lines {
				t.Fatalf("error at row %d of a %d-line input: %v", pe.Row, lines-1, err)
			}
		} else {
			checkInvariants(t, m)
		}
		compareRecords(t, data)
		if len(data) <= 64 {
			compareNumber(t, data)
		}
	})
}

func checkInvariants(t *testing.T, m *Matrix) {
	t.Helper()
	n, k := m.N(), m.K()
	if k < 2 || n < 1 || len(m.Scores) != n*k {
		t.Fatalf("N=%d K=%d len(Scores)=%d", n, k, len(m.Scores))
	}
	for _, y := range m.Labels {
		if y < 0 || y >= k {
			t.Fatalf("label %d out of range 0..%d", y, k-1)
		}
	}
	for y, r := range m.ClassSizes() {
		if r == 0 {
			t.Fatalf("class %q has no points", m.Classes[y])
		}
	}
	for _, v := range m.Scores {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("score %v is not finite", v)
		}
	}
	seen := map[string]bool{}
	for _, c := range m.Classes {
		if c == "" || c != strings.TrimSpace(c) || seen[c] {
			t.Fatalf("class name %q is empty, untrimmed or repeated", c)
		}
		seen[c] = true
		if strings.Contains(c, "\r") {
			return // "\r\n" inside a quoted name reads back as "\n": no exact round trip
		}
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, m); err != nil {
		t.Fatal(err)
	}
	back, err := Parse(&buf)
	if err != nil {
		t.Fatalf("re-parsing WriteCSV output: %v", err)
	}
	if !slices.Equal(back.Classes, m.Classes) || !slices.Equal(back.Labels, m.Labels) || !slices.Equal(back.Scores, m.Scores) {
		t.Fatalf("WriteCSV round trip changed the matrix")
	}
}

// compareRecords reads data with recordReader and with encoding/csv (same
// delimiter, after the same BOM handling): both must fail or both must give
// the same records, starting on the same lines.
func compareRecords(t *testing.T, data []byte) {
	t.Helper()
	data = bytes.TrimPrefix(data, []byte(bom))
	rr := &recordReader{br: newBufReader(data)}
	rr.delim = detectDelimiter(rr.br)
	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comma = rune(rr.delim)
	cr.FieldsPerRecord = -1
	for rec := 0; ; rec++ {
		got, gerr := rr.read()
		want, werr := cr.Read()
		if gerr != nil && werr == nil && errors.Is(gerr, ErrEncoding) {
			return // NUL bytes in a line longer than the buffer: refused here, read by encoding/csv
		}
		if (gerr == nil) != (werr == nil) || (gerr == io.EOF) != (werr == io.EOF) {
			t.Fatalf("record %d: recordReader error %v, encoding/csv error %v", rec, gerr, werr)
		}
		if gerr != nil {
			return
		}
		if len(got) != len(want) {
			t.Fatalf("record %d: %d fields, encoding/csv %d", rec, len(got), len(want))
		}
		for i := range got {
			if string(got[i]) != want[i] {
				t.Fatalf("record %d field %d: %q, encoding/csv %q", rec, i, got[i], want[i])
			}
		}
		if line, _ := cr.FieldPos(0); line != rr.start {
			t.Fatalf("record %d starts on line %d, encoding/csv says %d", rec, rr.start, line)
		}
	}
}

// compareNumber checks parseScore on data against strconv.ParseFloat on the
// trimmed text: the same value when both accept a plain decimal number.
func compareNumber(t *testing.T, data []byte) {
	t.Helper()
	got, err := parseScore(data)
	s := strings.TrimSpace(string(data))
	plain := s != "" && strings.Trim(s, "0123456789.+-eE") == ""
	want, serr := strconv.ParseFloat(s, 64)
	if serr != nil && errors.Is(serr, strconv.ErrRange) && !math.IsInf(want, 0) {
		serr = nil // underflow: the nearest float64 is accepted
	}
	switch {
	case err == nil && (!plain || serr != nil):
		t.Fatalf("parseScore(%q) = %v, but strconv says %v", data, got, serr)
	case err != nil && plain && serr == nil:
		t.Fatalf("parseScore(%q): %v, but strconv reads %v", data, err, want)
	case err == nil && math.Float64bits(got) != math.Float64bits(want):
		t.Fatalf("parseScore(%q) = %v, strconv %v", data, got, want)
	}
}

// genCSV returns a comma-delimited score matrix of n points and k classes with
// normal scores written with the given number of significant digits.
func genCSV(n, k, digits int) []byte {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(k)))
	var b bytes.Buffer
	b.WriteString("label")
	for j := 0; j < k; j++ {
		fmt.Fprintf(&b, ",c%04d", j)
	}
	b.WriteByte('\n')
	num := make([]byte, 0, 32)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "c%04d", i%k)
		for j := 0; j < k; j++ {
			b.WriteByte(',')
			b.Write(strconv.AppendFloat(num[:0], rng.NormFloat64()*3+5, 'g', digits, 64))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// BenchmarkParse parses generated matrices of 1000 x 100 (about 1 MB) and
// 5000 x 500 (about 25 MB) with 8 significant digits per score (the fast
// path), and 5000 x 500 with 17 (numpy/repr-style, through strconv).
func BenchmarkParse(b *testing.B) {
	for _, c := range []struct{ n, k, digits int }{{1000, 100, 8}, {5000, 500, 8}, {5000, 500, 17}} {
		data := genCSV(c.n, c.k, c.digits)
		b.Run(fmt.Sprintf("%dx%d/digits=%d", c.n, c.k, c.digits), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Parse(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// newBufReader uses bufio's smallest buffer (16 bytes) so that most lines
// take recordReader's long-line path.
func newBufReader(data []byte) *bufio.Reader {
	return bufio.NewReaderSize(bytes.NewReader(data), 16)
}
