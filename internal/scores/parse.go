package scores

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseError is an input error located in the CSV: Row counts records from 1
// (the header is row 1); Column is the column's name ("" when the error
// concerns a whole row or the file).
type ParseError struct {
	Row    int
	Column string
	Err    error
}

// Error reads like "row 3, column "c0002": not a number: "abc" ...".
func (e *ParseError) Error() string {
	switch {
	case e.Row > 0 && e.Column != "":
		return fmt.Sprintf("row %d, column %q: %v", e.Row, e.Column, e.Err)
	case e.Row > 0:
		return fmt.Sprintf("row %d: %v", e.Row, e.Err)
	case e.Column != "":
		return fmt.Sprintf("column %q: %v", e.Column, e.Err)
	}
	return e.Err.Error()
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// ErrNotNumber and the errors below are the causes a ParseError wraps.
var (
	ErrNotNumber   = errors.New("not a number")
	ErrNotFinite   = errors.New("not a finite number")
	ErrEmptyCell   = errors.New("empty cell")
	ErrFieldCount  = errors.New("wrong number of fields")
	ErrUnknown     = errors.New("unknown label")
	ErrDuplicate   = errors.New("duplicate class name")
	ErrNoData      = errors.New("no data rows")
	ErrFewClasses  = errors.New("fewer than 2 class columns")
	ErrNoPoints    = errors.New("classes without test points")
	ErrEncoding    = errors.New("not valid UTF-8 text")
	ErrMalformed   = errors.New("malformed CSV")
	ErrEmptyHeader = errors.New("empty class name")
)

const bom = "\uFEFF"

// Parse reads a wide score-matrix CSV (FORMATS.md §1) from r: a header row
// naming the label column ("label", any case, else the first column) and one
// column per class, then one row per test point. The delimiter (comma,
// semicolon or tab) is the most frequent of the three in the header row,
// outside quotes. Errors are *ParseError values naming the row and column.
func Parse(r io.Reader) (*Matrix, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if b, err := br.Peek(3); err == nil && string(b) == bom {
		br.Discard(3)
	}
	delim, err := detectDelimiter(br)
	if err != nil {
		return nil, err
	}
	cr := csv.NewReader(br)
	cr.Comma = delim
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true

	header, err := cr.Read()
	if err == io.EOF {
		return nil, &ParseError{Err: fmt.Errorf("%w: the file is empty; the first row must name the label column and the classes", ErrNoData)}
	}
	if err != nil {
		return nil, csvError(1, err)
	}
	labelCol, classes, classCols, err := readHeader(header)
	if err != nil {
		return nil, err
	}
	width := len(header)
	colName := make([]string, width)
	for i, h := range header {
		colName[i] = strings.TrimSpace(h)
	}
	index := make(map[string]int, len(classes))
	for j, c := range classes {
		index[c] = j
	}
	m := &Matrix{Classes: classes}
	k := len(classes)
	for row := 2; ; row++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(row, err)
		}
		if len(rec) != width {
			if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
				continue // a blank line of spaces
			}
			return nil, &ParseError{Row: row, Err: fmt.Errorf("%w: %d fields where the header has %d (delimiter %s); every row needs a label and one score per class",
				ErrFieldCount, len(rec), width, delimName(delim))}
		}
		label := strings.TrimSpace(rec[labelCol])
		if !utf8.ValidString(label) {
			return nil, &ParseError{Row: row, Column: colName[labelCol], Err: fmt.Errorf("%w; save the file as UTF-8", ErrEncoding)}
		}
		y, ok := index[label]
		if !ok {
			if label == "" {
				return nil, &ParseError{Row: row, Column: colName[labelCol], Err: fmt.Errorf("%w: the label is empty; give the point's true class", ErrEmptyCell)}
			}
			return nil, &ParseError{Row: row, Column: colName[labelCol], Err: fmt.Errorf("%w %q: it must equal one of the class column names", ErrUnknown, clip(label))}
		}
		m.Labels = append(m.Labels, y)
		for _, c := range classCols {
			v, err := parseScore(rec[c])
			if err != nil {
				return nil, &ParseError{Row: row, Column: colName[c], Err: err}
			}
			m.Scores = append(m.Scores, v)
		}
		_ = k
	}
	if len(m.Labels) == 0 {
		return nil, &ParseError{Row: 2, Err: fmt.Errorf("%w: the file has a header but no test points; add one row per test point", ErrNoData)}
	}
	var missing []string
	for y, r := range m.ClassSizes() {
		if r == 0 {
			missing = append(missing, classes[y])
		}
	}
	if len(missing) > 0 {
		list := missing
		more := ""
		if len(list) > 10 {
			more = fmt.Sprintf(" and %d more", len(list)-10)
			list = list[:10]
		}
		return nil, &ParseError{Err: fmt.Errorf("%w: %s%s; every class column needs at least one row with that label (or drop the column)",
			ErrNoPoints, strings.Join(quoteAll(list), ", "), more)}
	}
	return m, nil
}

func readHeader(header []string) (labelCol int, classes []string, classCols []int, err error) {
	for i, h := range header {
		if !utf8.ValidString(h) {
			return 0, nil, nil, &ParseError{Row: 1, Err: fmt.Errorf("%w in column %d of the header; save the file as UTF-8", ErrEncoding, i+1)}
		}
		if strings.EqualFold(strings.TrimSpace(h), "label") {
			labelCol = i
			break
		}
	}
	seen := make(map[string]int)
	for i, h := range header {
		if i == labelCol {
			continue
		}
		name := strings.TrimSpace(h)
		if name == "" {
			return 0, nil, nil, &ParseError{Row: 1, Err: fmt.Errorf("%w in column %d of the header; every class column needs a name", ErrEmptyHeader, i+1)}
		}
		if j, dup := seen[name]; dup {
			return 0, nil, nil, &ParseError{Row: 1, Column: name, Err: fmt.Errorf("%w: columns %d and %d are both %q; class names must be unique", ErrDuplicate, j+1, i+1, clip(name))}
		}
		seen[name] = i
		classes = append(classes, name)
		classCols = append(classCols, i)
	}
	if len(classes) < 2 {
		return 0, nil, nil, &ParseError{Row: 1, Err: fmt.Errorf("%w: found %d; the header needs a label column and at least 2 class columns (is the delimiter a comma, semicolon or tab?)", ErrFewClasses, len(classes))}
	}
	return labelCol, classes, classCols, nil
}

// parseScore accepts a plain decimal number with optional sign and exponent.
func parseScore(cell string) (float64, error) {
	s := strings.TrimSpace(cell)
	if s == "" {
		return 0, fmt.Errorf("%w: every score must be a number", ErrEmptyCell)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
			if strings.EqualFold(s, "nan") || strings.Contains(strings.ToLower(s), "inf") {
				return 0, fmt.Errorf("%w: %q; replace it with a finite score", ErrNotFinite, clip(s))
			}
			return 0, fmt.Errorf("%w: %q; scores are plain decimal numbers like 0.25 or -1.5e-3", ErrNotNumber, clip(s))
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) {
			return 0, fmt.Errorf("%w: %q overflows a 64-bit float; rescale the scores", ErrNotFinite, clip(s))
		}
		if !errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%w: %q; scores are plain decimal numbers like 0.25 or -1.5e-3", ErrNotNumber, clip(s))
		}
	}
	return v, nil
}

// detectDelimiter peeks at the header row and returns the most frequent of
// ',', ';' and '\t' outside double quotes (',' when none occurs).
func detectDelimiter(br *bufio.Reader) (rune, error) {
	var line []byte
	for n := 4096; ; n *= 2 {
		b, err := br.Peek(n)
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line = b[:i]
			break
		}
		if err != nil { // EOF or buffer full: use what there is
			line = b
			if errors.Is(err, bufio.ErrBufferFull) {
				break
			}
			break
		}
	}
	counts := map[byte]int{}
	quoted := false
	for _, c := range line {
		switch {
		case c == '"':
			quoted = !quoted
		case !quoted && (c == ',' || c == ';' || c == '\t'):
			counts[c]++
		}
	}
	best := byte(',')
	for _, c := range []byte{',', ';', '\t'} {
		if counts[c] > counts[best] {
			best = c
		}
	}
	return rune(best), nil
}

func csvError(row int, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{Row: row, Err: fmt.Errorf("%w: %v at line %d, column %d; check the quoting (RFC 4180: a quote inside a quoted field is doubled)", ErrMalformed, pe.Err, pe.Line, pe.Column)}
	}
	return &ParseError{Row: row, Err: fmt.Errorf("reading the file: %w", err)}
}

func delimName(d rune) string {
	switch d {
	case ';':
		return "semicolon"
	case '\t':
		return "tab"
	}
	return "comma"
}

func clip(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strings.ToValidUTF8(s, "?")
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}
