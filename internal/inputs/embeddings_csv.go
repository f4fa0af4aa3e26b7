package inputs

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/scores"
)

// embeddingsDelimiter returns the delimiter of the first line br holds (as
// far as it has buffered) when that line is an embeddings header
// (EmbeddingsHeader); ok is false otherwise.
func embeddingsDelimiter(br *bufio.Reader) (delim byte, ok bool) {
	head, _ := br.Peek(br.Buffered())
	return EmbeddingsHeader(head)
}

// EmbeddingsHeader reports whether the first line of head is the header
// row of an embeddings CSV: its first two cells are "set" and "label" (any
// case, optionally quoted, after an optional byte-order mark); delim is
// the character that ends the first cell: a comma, semicolon or tab.
func EmbeddingsHeader(head []byte) (delim byte, ok bool) {
	head = bytes.TrimPrefix(head, []byte("\uFEFF"))
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	i := bytes.IndexAny(head, ",;\t")
	if i < 0 {
		return 0, false
	}
	cell := func(b []byte) string { return strings.TrimSpace(strings.Trim(strings.TrimSpace(string(b)), `"`)) }
	second, _, _ := bytes.Cut(head[i+1:], head[i:i+1])
	return head[i], strings.EqualFold(cell(head[:i]), "set") && strings.EqualFold(cell(second), "label")
}

// embedSets are the values of an embeddings CSV's set column.
const embedSets = "test, train or gallery"

// parseEmbeddingsCSV reads an embeddings CSV from br, whose header row
// starts with the cell "set" delimited by delim: a header
// set,label,<d coordinate columns>, then one row per embedding whose set is
// test, train or gallery (train and gallery not both), its class and its d
// coordinates. Classes are the labels in order of first appearance among
// the test rows, then among the reference rows. Errors are
// *scores.ParseError values naming the row (the header is row 1) and the
// column.
func parseEmbeddingsCSV(br *bufio.Reader, delim byte) (*Data, error) {
	lim := &scores.LineLimit{R: br}
	cr := csv.NewReader(lim)
	cr.Comma = rune(delim)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, csvError(err, lim)
	}
	header = slices.Clone(header) // the next Read reuses the slice
	header[0] = strings.TrimPrefix(header[0], "\uFEFF")
	d := len(header) - 2
	if d == 0 {
		return nil, &scores.ParseError{Row: 1, Err: errors.New("the header set,label has no coordinate columns after it; give one column per coordinate of the embeddings")}
	}
	src := &embedSource{csv: true, coords: make([]string, d)}
	for j, h := range header[2:] {
		src.coords[j] = strings.TrimSpace(h)
		if src.coords[j] == "" {
			src.coords[j] = "#" + strconv.Itoa(j+3)
		}
	}
	var test, ref embed.Set
	test.D, ref.D = d, d
	var testNames, refNames []string
	refSetRow := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(err, lim)
		}
		row, _ := cr.FieldPos(0)
		if len(rec) != d+2 {
			return nil, &scores.ParseError{Row: row, Err: fmt.Errorf("%w: %d, want %d: set, label and %d coordinates", scores.ErrFieldCount, len(rec), d+2, d)}
		}
		set := strings.ToLower(strings.TrimSpace(rec[0]))
		switch set {
		case "test":
		case SetTrain, SetGallery:
			if src.refSet == "" {
				src.refSet, refSetRow = set, row
			} else if set != src.refSet {
				return nil, &scores.ParseError{Row: row, Column: header[0], Err: fmt.Errorf("%w: %s after %s rows (the first on row %d): a file gives training embeddings or a gallery, not both", ErrConflict, quoted(set), quoted(src.refSet), refSetRow)}
			}
		default:
			return nil, &scores.ParseError{Row: row, Column: header[0], Err: fmt.Errorf("%s is not a set: each row's set is %s", quoted(rec[0]), embedSets)}
		}
		label := trimName(rec[1])
		if label == "" {
			return nil, &scores.ParseError{Row: row, Column: header[1], Err: fmt.Errorf("%w: every embedding needs its class", scores.ErrEmptyCell)}
		}
		s, names, rows := &test, &testNames, &src.testRows
		if set != "test" {
			s, names, rows = &ref, &refNames, &src.refRows
		}
		for j, cell := range rec[2:] {
			v, err := parseCoordinate(cell)
			if err != nil {
				return nil, &scores.ParseError{Row: row, Column: src.coords[j], Err: err}
			}
			s.Vectors = append(s.Vectors, v)
		}
		*names = append(*names, label)
		*rows = append(*rows, row)
	}
	switch {
	case len(testNames) == 0:
		return nil, &scores.ParseError{Err: fmt.Errorf("%w: no row has the set test; give the test embeddings (set test) with the training (train) or gallery (gallery) ones", scores.ErrNoData)}
	case len(refNames) == 0:
		return nil, &scores.ParseError{Err: fmt.Errorf("%w: no row has the set train or gallery; give the references the test embeddings are scored against: training embeddings (train, scored by class centroids) or a gallery (gallery)", ErrMissing)}
	}
	index := map[string]int{}
	var classes []string
	for _, set := range []struct {
		names  []string
		labels *[]int
	}{{testNames, &test.Labels}, {refNames, &ref.Labels}} {
		*set.labels = make([]int, len(set.names))
		for i, name := range set.names {
			y, ok := index[name]
			if !ok {
				y = len(classes)
				index[name] = y
				classes = append(classes, name)
			}
			(*set.labels)[i] = y
		}
	}
	p := &embed.Problem{Classes: classes, Test: test, References: ref}
	defaultScoring(p, src.refSet)
	data := &Data{Embeddings: p, embedded: src}
	if err := data.checkEmbeddings(false); err != nil {
		return nil, err
	}
	return data, nil
}

// csvError turns an error of encoding/csv (or of scores.LineLimit) into a
// *scores.ParseError naming the row.
func csvError(err error, lim *scores.LineLimit) error {
	var pe *scores.ParseError
	if errors.As(err, &pe) {
		return pe
	}
	var ce *csv.ParseError
	if errors.As(err, &ce) {
		return &scores.ParseError{Row: ce.Line, Err: fmt.Errorf("%w: %v", scores.ErrMalformed, ce.Err)}
	}
	if errors.Is(err, io.EOF) {
		return &scores.ParseError{Err: fmt.Errorf("%w: the file is empty", scores.ErrNoData)}
	}
	return &scores.ParseError{Row: lim.Lines + 1, Err: err}
}

// parseCoordinate reads a plain decimal number (an optional sign, digits
// with an optional decimal point, an optional exponent), surrounded by
// optional spaces, and refuses NaN, infinities and numbers beyond float64;
// a decimal comma (a semicolon-delimited file from a European locale) is
// named as such.
func parseCoordinate(cell string) (float64, error) {
	s := strings.TrimSpace(cell)
	if s == "" {
		return 0, fmt.Errorf("%w: every coordinate must be a number", scores.ErrEmptyCell)
	}
	plain := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
			plain = false
			break
		}
	}
	low := strings.ToLower(s)
	if low == "nan" || strings.Contains(low, "inf") {
		return 0, fmt.Errorf("%w: %s; every coordinate must be a finite number", scores.ErrNotFinite, quoted(s))
	}
	v, err := strconv.ParseFloat(s, 64)
	if plain && errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) {
		return 0, fmt.Errorf("%w: %s overflows a 64-bit float; rescale the embeddings", scores.ErrNotFinite, quoted(s))
	}
	if !plain || (err != nil && !errors.Is(err, strconv.ErrRange)) {
		if strings.Contains(s, ",") {
			return 0, fmt.Errorf("%w: %s; write the decimal separator as a point (0.25, not 0,25)", scores.ErrNotNumber, quoted(s))
		}
		return 0, fmt.Errorf("%w: %s; coordinates are plain decimal numbers like 0.25 or -1.5e-3", scores.ErrNotNumber, quoted(s))
	}
	return v, nil
}
