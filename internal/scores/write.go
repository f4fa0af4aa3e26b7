package scores

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Writer writes the wide score-matrix CSV of docs/formats.md §1 row by row (comma
// delimited, LF line ends, RFC 4180 quoting of names that need it), so a
// matrix too large to hold can be streamed. Scores are written with
// strconv 'g' and the shortest precision that parses back to the same
// float64, so Parse(WriteCSV(m)) reproduces m exactly, unless Digits is set.
type Writer struct {
	// Digits, if positive, writes each score rounded to that many significant
	// digits (smaller files, as classifiers usually export them) instead of
	// the shortest exact representation.
	Digits int

	w       *bufio.Writer
	classes []string
	buf     []byte
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 1<<16)} }

// WriteHeader writes the header row: "label" then the class names.
func (cw *Writer) WriteHeader(classes []string) error {
	if len(classes) < 2 {
		return fmt.Errorf("write CSV: %w: %d given", ErrFewClasses, len(classes))
	}
	cw.classes = classes
	b := append(cw.buf[:0], "label"...)
	for _, c := range classes {
		b = append(b, ',')
		b = appendField(b, c)
	}
	b = append(b, '\n')
	cw.buf = b
	_, err := cw.w.Write(b)
	return err
}

// WriteRow writes one point: the name of class label, then its scores (one
// per class, in header order).
func (cw *Writer) WriteRow(label int, scores []float64) error {
	if label < 0 || label >= len(cw.classes) {
		return fmt.Errorf("write CSV: label index %d outside 0..%d", label, len(cw.classes)-1)
	}
	if len(scores) != len(cw.classes) {
		return fmt.Errorf("write CSV: %w: %d scores for %d classes", ErrFieldCount, len(scores), len(cw.classes))
	}
	prec := -1 // shortest exact
	if cw.Digits > 0 {
		prec = cw.Digits
	}
	b := appendField(cw.buf[:0], cw.classes[label])
	for _, v := range scores {
		b = append(b, ',')
		b = strconv.AppendFloat(b, v, 'g', prec, 64)
	}
	b = append(b, '\n')
	cw.buf = b
	_, err := cw.w.Write(b)
	return err
}

// Flush writes any buffered data to the underlying writer.
func (cw *Writer) Flush() error { return cw.w.Flush() }

// WriteCSV writes m as a wide score-matrix CSV (see Writer).
func WriteCSV(w io.Writer, m *Matrix) error {
	cw := NewWriter(w)
	if err := cw.WriteHeader(m.Classes); err != nil {
		return err
	}
	for i, y := range m.Labels {
		if err := cw.WriteRow(y, m.Row(i)); err != nil {
			return err
		}
	}
	return cw.Flush()
}

// appendField appends s, quoted per RFC 4180 when it holds a delimiter the
// parser could detect (comma, semicolon, tab), a quote, a line break or
// surrounding spaces.
func appendField(b []byte, s string) []byte {
	if !strings.ContainsAny(s, ",;\t\"\r\n") && strings.TrimSpace(s) == s {
		return append(b, s...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"')
}
