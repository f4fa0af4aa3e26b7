package scores

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseError is an input error located in the CSV. Row is the 1-based line of
// the file on which the offending record starts (the header is row 1 unless
// blank lines precede it; 0 when the error concerns the whole file); Column is
// the column's name ("" when the error concerns a whole row or the file).
type ParseError struct {
	Row    int
	Column string
	Err    error
}

// Error reads like "row 3, column "c0002": not a number: "abc" ...". A
// column name longer than 40 bytes is cut there ("..." appended), so that a
// class named by a sentence still gives a message of one short line.
func (e *ParseError) Error() string {
	switch {
	case e.Row > 0 && e.Column != "":
		return fmt.Sprintf("row %d, column %q: %v", e.Row, clip(e.Column), e.Err)
	case e.Row > 0:
		return fmt.Sprintf("row %d: %v", e.Row, e.Err)
	case e.Column != "":
		return fmt.Sprintf("column %q: %v", clip(e.Column), e.Err)
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
	ErrNotTable    = errors.New("not a table of scores")
)

const bom = "\uFEFF"

// Parse reads a wide score-matrix CSV (docs/formats.md §1) from r: a header row
// naming the label column ("label", any case, else the first column) and one
// column per class, then one row per test point. The delimiter (comma,
// semicolon or tab) is the most frequent of the three in the header row,
// outside quotes, a tie broken by the first data row (detectDelimiter).
// Quoting follows RFC 4180 (as encoding/csv reads it, without
// lazy quotes); a UTF-8 byte-order mark, CRLF line ends and empty lines are
// accepted. Errors are *ParseError values naming the row and column.
//
// The input is streamed: only the current record and the scores read so far
// are held. The record reader and the number scanner are hand-written because
// encoding/csv and strconv.ParseFloat on per-cell strings cost several times
// more (BenchmarkParse).
func Parse(r io.Reader) (*Matrix, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if b, err := br.Peek(3); err == nil && string(b) == bom {
		br.Discard(3)
	}
	if loneCR(br) {
		br = bufio.NewReaderSize(crToLF{br}, 1<<16)
	}
	cr := &recordReader{br: br}
	if d, ok := excelSep(br); ok {
		cr.delim = d
		cr.line = 1
	} else {
		cr.delim = detectDelimiter(br)
	}

	header, err := cr.read()
	if err == io.EOF {
		return nil, &ParseError{Row: 1, Err: fmt.Errorf("%w: the file is empty; the first row must name the label column and the classes", ErrNoData)}
	}
	if err != nil {
		return nil, err
	}
	headerRow := cr.start
	names := make([]string, len(header))
	for i, h := range header {
		names[i] = string(h)
	}
	labelCol, classes, classCols, err := readHeader(names, headerRow)
	if err != nil {
		return nil, err
	}
	explicitLabel := strings.EqualFold(strings.TrimSpace(names[labelCol]), "label")
	width := len(names)
	colName := make([]string, width)
	for i, h := range names {
		colName[i] = strings.TrimSpace(h)
	}
	cr.names = colName
	index := make(map[string]int, len(classes))
	for j, c := range classes {
		index[c] = j
	}
	k := len(classes)
	m := &Matrix{Classes: classes}
	// Scores are gathered in chunks (growing to 64 rows or 512 KiB) and joined
	// once at the end, which copies each value once instead of about twice
	// with append's doubling.
	chunkMax := max(k*64, 1<<16)
	var chunks [][]float64
	cur := make([]float64, 0, 4*k)
	for {
		rec, err := cr.read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		row := cr.start
		if len(rec) != width {
			if len(rec) == 1 && len(bytes.TrimSpace(rec[0])) == 0 {
				continue // a line of spaces
			}
			return nil, &ParseError{Row: row, Err: fmt.Errorf("%w: %d fields where the header has %d (delimiter %s%s); every row needs a label and one score per class",
				ErrFieldCount, len(rec), width, delimName(cr.delim), otherDelimiter(rec, cr.delim))}
		}
		label := bytes.TrimSpace(rec[labelCol])
		y, ok := index[string(label)]
		if !ok {
			switch {
			case len(label) == 0:
				return nil, &ParseError{Row: row, Column: colName[labelCol], Err: fmt.Errorf("%w: the label is empty; give the point's true class", ErrEmptyCell)}
			case !utf8.Valid(label):
				return nil, &ParseError{Row: row, Column: colName[labelCol], Err: fmt.Errorf("%w; save the file as UTF-8", ErrEncoding)}
			}
			why := longTableHint(colName)
			if why == "" {
				why = unknownLabelHint(string(label), classes, explicitLabel)
			}
			if why == "" && !explicitLabel {
				why = guessedLabelHint(rec, labelCol, colName, index)
			}
			if why == "" {
				why = "it must equal one of the class column names"
			}
			return nil, &ParseError{Row: row, Column: colName[labelCol], Err: fmt.Errorf("%w %q: %s", ErrUnknown, clip(string(label)), why)}
		}
		if len(cur)+k > cap(cur) {
			chunks = append(chunks, cur)
			cur = make([]float64, 0, min(2*cap(cur), chunkMax))
		}
		m.Labels = append(m.Labels, y)
		for _, c := range classCols {
			v, err := parseScore(rec[c])
			if err != nil {
				if _, isClass := index[string(bytes.TrimSpace(rec[c]))]; isClass && errors.Is(err, ErrNotNumber) {
					err = fmt.Errorf("%w: %q is a class name, so column %d looks like a second label column; keep one label column (named label) and one score column per class", ErrNotNumber, clip(string(bytes.TrimSpace(rec[c]))), c+1)
				}
				return nil, &ParseError{Row: row, Column: colName[c], Err: err}
			}
			cur = append(cur, v)
		}
	}
	if len(m.Labels) == 0 {
		return nil, &ParseError{Row: headerRow + 1, Err: fmt.Errorf("%w: the file has a header but no test points; add one row per test point", ErrNoData)}
	}
	m.Scores = make([]float64, 0, len(m.Labels)*k)
	for _, c := range chunks {
		m.Scores = append(m.Scores, c...)
	}
	m.Scores = append(m.Scores, cur...)

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
		return nil, &ParseError{Column: missing[0], Err: fmt.Errorf("%w: %s%s; every class column needs at least one row with that label (or drop the column)",
			ErrNoPoints, strings.Join(quoteAll(list), ", "), more)}
	}
	return m, nil
}

// guessedLabelHint explains an unknown label in a file without a column
// named label, whose first column was therefore read as the true classes:
// it says so, and names a column of the row rec that holds a class name
// (the labels, under another name such as true_class or target), if any.
func guessedLabelHint(rec [][]byte, labelCol int, colName []string, index map[string]int) string {
	hint := fmt.Sprintf("no column is named label, so the first column, %q, was read as the true classes, and its values must be class column names", clip(colName[labelCol]))
	for c, f := range rec {
		if c == labelCol {
			continue
		}
		if v := bytes.TrimSpace(f); len(v) > 0 {
			if _, isClass := index[string(v)]; isClass {
				return fmt.Sprintf("%s; column %d, %q, holds the class name %q on this row: if it holds the true classes, name it label", hint, c+1, clip(colName[c]), clip(string(v)))
			}
		}
	}
	return hint + "; name the column that holds each point's true class label"
}

// readHeader finds the label column and the class columns of the header row
// (which starts on line row).
func readHeader(header []string, row int) (labelCol int, classes []string, classCols []int, err error) {
	for i, h := range header {
		if !utf8.ValidString(h) {
			return 0, nil, nil, &ParseError{Row: row, Err: fmt.Errorf("%w in column %d of the header; save the file as UTF-8", ErrEncoding, i+1)}
		}
		if strings.IndexByte(h, 0) >= 0 {
			return 0, nil, nil, &ParseError{Row: row, Err: fmt.Errorf("%w: column %d of the header holds NUL bytes (a UTF-16 or binary file?); save the scores as a UTF-8 CSV", ErrEncoding, i+1)}
		}
	}
	labelCol = -1
	for i, h := range header {
		if strings.EqualFold(strings.TrimSpace(h), "label") {
			labelCol = i
			break
		}
	}
	if labelCol < 0 && isCurvesHeader(header) {
		return 0, nil, nil, &ParseError{Row: row, Err: fmt.Errorf("%w: this is a file of predicted curves (k, observed, estimate, …), as the page's \"Export curves\" and cleanex predict write them; give the pilot's score file the curves came from", ErrNotTable)}
	}
	labelCol = max(labelCol, 0)
	seen := make(map[string]int)
	for i, h := range header {
		if i == labelCol {
			continue
		}
		name := strings.TrimSpace(h)
		if name == "" {
			fix := "every class column needs a name"
			switch {
			case i == 0:
				fix = "the first column has no name, as pandas' to_csv writes the DataFrame's index there: write the file with index=False, or delete that column"
			case i == len(header)-1:
				fix = "the header row ends with a delimiter: remove it from the end of every row, or name the column"
			}
			return 0, nil, nil, &ParseError{Row: row, Err: fmt.Errorf("%w in column %d of the header; %s", ErrEmptyHeader, i+1, fix)}
		}
		if strings.EqualFold(name, "label") {
			return 0, nil, nil, &ParseError{Row: row, Column: name, Err: fmt.Errorf("%w: columns %d and %d are both named %q; keep one label column (the true class) and one score column per class", ErrDuplicate, labelCol+1, i+1, clip(name))}
		}
		if j, dup := seen[name]; dup {
			return 0, nil, nil, &ParseError{Row: row, Column: name, Err: fmt.Errorf("%w: columns %d and %d are both %q; class names must be unique", ErrDuplicate, j+1, i+1, clip(name))}
		}
		seen[name] = i
		classes = append(classes, name)
		classCols = append(classCols, i)
	}
	if len(classes) < 2 {
		return 0, nil, nil, &ParseError{Row: row, Err: fmt.Errorf("%w: found %d; the header needs a label column and at least 2 class columns (is the delimiter a comma, semicolon or tab?)", ErrFewClasses, len(classes))}
	}
	return labelCol, classes, classCols, nil
}

// isCurvesHeader reports whether a header without a label column is that of
// a file of predicted curves (docs/formats.md §3): its first column is k and
// another is observed.
func isCurvesHeader(header []string) bool {
	if len(header) < 2 || strings.TrimSpace(header[0]) != "k" {
		return false
	}
	for _, h := range header[1:] {
		if strings.TrimSpace(h) == "observed" {
			return true
		}
	}
	return false
}

// parseScore reads a plain decimal number with optional sign, point and
// exponent, surrounded by optional spaces. Numbers of at most 15 significant
// digits with a decimal exponent within ±22 are converted exactly here
// (Clinger's fast path: one correctly rounded multiplication or division of
// two exact float64s); other plain numbers go to strconv.ParseFloat, so every
// result is the correctly rounded float64 (checked against strconv by
// TestParseScoreMatchesStrconv and FuzzParse).
func parseScore(cell []byte) (float64, error) {
	s := bytes.TrimSpace(cell)
	v, ok, plain := fastFloat(s)
	if ok {
		return v, nil
	}
	if !plain {
		return 0, notNumber(s)
	}
	v, err := strconv.ParseFloat(string(s), 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) {
			return 0, fmt.Errorf("%w: %q overflows a 64-bit float; rescale the scores", ErrNotFinite, clip(string(s)))
		}
		if !errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%w: %q; scores are plain decimal numbers like 0.25 or -1.5e-3", ErrNotNumber, clip(string(s)))
		}
		// Underflow: strconv returns the nearest float64 (0 or a subnormal).
	}
	return v, nil
}

// notNumber explains why the trimmed cell s is not a plain decimal number.
func notNumber(s []byte) error {
	if len(s) == 0 {
		return fmt.Errorf("%w: every score must be a number; fill in the point's score for this class, or remove the point's row", ErrEmptyCell)
	}
	str := string(s)
	low := strings.ToLower(str)
	switch {
	case low == "nan" || strings.Contains(low, "inf"):
		return fmt.Errorf("%w: %q; replace it with a finite score", ErrNotFinite, clip(str))
	case bytes.IndexByte(s, ',') >= 0 && bytes.IndexByte(s, '.') >= 0:
		// 1,234.5 or 1.234,5: one of the two groups thousands
		return fmt.Errorf("%w: %q; leave out the thousands separators and write the decimal separator as a point (1234.5, not 1,234.5 or 1.234,5)", ErrNotNumber, clip(str))
	case bytes.IndexByte(s, ',') >= 0:
		return fmt.Errorf("%w: %q; write the decimal separator as a point (0.25, not 0,25) and leave out thousands separators (1000, not 1,000)", ErrNotNumber, clip(str))
	case digitsApart(s):
		return fmt.Errorf("%w: %q; leave out the spaces that group the digits (1000, not 1 000)", ErrNotNumber, clip(str))
	}
	return fmt.Errorf("%w: %q; scores are plain decimal numbers like 0.25 or -1.5e-3", ErrNotNumber, clip(str))
}

// digitsApart reports whether the trimmed cell s is a plain number once its
// spaces (also no-break and narrow no-break ones) are taken out, as
// spreadsheets in some locales group thousands: "1 000", "12 345.5".
func digitsApart(s []byte) bool {
	str := string(s)
	joined := strings.NewReplacer(" ", "", "\u00a0", "", "\u202f", "").Replace(str)
	if joined == str {
		return false
	}
	_, _, plain := fastFloat([]byte(joined))
	return plain
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// fastFloat scans s for [+-] digits [. digits] [(e|E) [+-] digits] (at least
// one significand digit); plain reports whether s has that form. When the
// significand has at most 15 significant digits (below 2^53, so exact) and the
// decimal exponent is within ±22 (10^e exact), ok is true and v is the
// correctly rounded value.
func fastFloat(s []byte) (v float64, ok, plain bool) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var mant uint64
	nd, exp := 0, 0 // significant digits in mant; decimal exponent
	digits, dot, many := false, false, false
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits = true
			switch {
			case mant == 0 && c == '0':
				if dot {
					exp--
				}
			case nd == 15:
				many = true // too many digits for the fast path; keep checking the syntax
			default:
				mant = mant*10 + uint64(c-'0')
				nd++
				if dot {
					exp--
				}
			}
			continue
		}
		if c == '.' && !dot {
			dot = true
			continue
		}
		break
	}
	if !digits {
		return 0, false, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		e, ed := 0, 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if e < 10000 {
				e = e*10 + int(s[i]-'0')
			}
			ed++
		}
		if ed == 0 {
			return 0, false, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != len(s) {
		return 0, false, false
	}
	if many {
		return 0, false, true
	}
	if mant != 0 {
		switch {
		case exp >= 0 && exp <= 22:
			v = float64(mant) * pow10[exp]
		case exp < 0 && exp >= -22:
			v = float64(mant) / pow10[-exp]
		default:
			return 0, false, true
		}
	}
	if neg {
		v = -v
	}
	return v, true, true
}

// detectDelimiter peeks at the header row and returns the most frequent of
// ',', ';' and '\t' outside double quotes (',' when none occurs). When two
// of them are equally frequent (a TSV whose class names hold one comma
// each, "Paris, FR"), the first data row breaks the tie: the delimiter it
// holds as often as the header does wins; failing that, the comma, then the
// semicolon.
func detectDelimiter(br *bufio.Reader) byte {
	var head []byte
	for n := 4096; ; n *= 2 {
		b, err := br.Peek(n)
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			head = b
			if j := bytes.IndexByte(b[i+1:], '\n'); j >= 0 || err != nil {
				break // the header and the next line, or all there is
			}
		}
		if err != nil { // EOF or buffer full: use what there is
			head = b
			break
		}
	}
	line, rest, _ := bytes.Cut(head, []byte{'\n'})
	counts := delimCounts(line)
	best := byte(',')
	for _, c := range []byte{',', ';', '\t'} {
		if counts[c] > counts[best] {
			best = c
		}
	}
	var tied []byte
	for _, c := range []byte{',', ';', '\t'} {
		if counts[c] == counts[best] {
			tied = append(tied, c)
		}
	}
	if len(tied) < 2 || counts[best] == 0 {
		return best
	}
	for len(rest) > 0 {
		var next []byte
		next, rest, _ = bytes.Cut(rest, []byte{'\n'})
		if len(bytes.TrimSpace(next)) == 0 {
			continue // blank lines are skipped
		}
		row := delimCounts(next)
		var match []byte
		for _, c := range tied {
			if row[c] == counts[c] {
				match = append(match, c)
			}
		}
		if len(match) == 1 {
			return match[0]
		}
		break
	}
	return best
}

// delimCounts counts the commas, semicolons and tabs of line outside double
// quotes.
func delimCounts(line []byte) (counts [256]int) {
	quoted := false
	for _, c := range line {
		switch {
		case c == '"':
			quoted = !quoted
		case !quoted && (c == ',' || c == ';' || c == '\t'):
			counts[c]++
		}
	}
	return counts
}

// otherDelimiter hints, for a row with the wrong number of fields, at a
// delimiter other than delim that the row seems to use.
func otherDelimiter(rec [][]byte, delim byte) string {
	for _, d := range []byte{',', ';', '\t'} {
		if d == delim {
			continue
		}
		for _, f := range rec {
			if bytes.IndexByte(f, d) >= 0 {
				return "; this row seems to use " + delimName(d)
			}
		}
	}
	return ""
}

func delimName(d byte) string {
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
