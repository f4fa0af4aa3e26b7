package summary

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
)

// remake is what to do about a summary that does not hold together.
const remake = "make the summary again with cleanex summarise or the recipe in docs/summary.md"

// IsHeader reports whether a CSV header row is a summary's: it names the
// columns correct, below and ties, and at least one of m2, maxabs, top1 and
// q1 (any case, a byte-order mark ignored). The second condition keeps a
// score matrix whose classes are words, among them "correct", "below" and
// "ties", from being taken for a summary: those four columns are a
// summary's own, not words a classifier's classes are named by. A column
// named twice still makes a summary's header, so that Parse names the
// repeated column.
func IsHeader(fields []string) bool {
	seen, own := map[string]bool{}, false
	for _, f := range fields {
		switch name := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(f, "\uFEFF"))); name {
		case "correct", "below", "ties":
			seen[name] = true
		case "m2", "maxabs", "top1", "q1":
			own = true
		}
	}
	return len(seen) == 3 && own
}

// Parse reads a summary CSV (Header's columns in any order, one row per
// point, as Write and the SQL recipe produce) into a Table. Class indices
// follow the labels' first appearance. Every error is a *scores.ParseError
// naming the row and column, or the file when the summary as a whole is
// wrong (labels naming fewer classes than the classes column says). A line
// longer than scores.MaxLineBytes is refused, as scores.Parse refuses it.
func Parse(r io.Reader) (*Table, error) {
	return ParseDelimited(r, ',')
}

// ParseDelimited is Parse for a summary whose fields are separated by
// delim: a comma, a semicolon or a tab (as a score matrix's may be).
func ParseDelimited(r io.Reader, delim rune) (*Table, error) {
	lim := &scores.LineLimit{R: r}
	cr := csv.NewReader(lim)
	cr.Comma = delim
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		if pe := lim.Err; pe != nil {
			return nil, pe
		}
		if errors.Is(err, io.EOF) {
			return nil, &scores.ParseError{Err: fmt.Errorf("%w: the file is empty; %s", scores.ErrNoData, remake)}
		}
		return nil, &scores.ParseError{Row: 1, Err: fmt.Errorf("%w: %v; %s", scores.ErrMalformed, err, remake)}
	}
	width := len(header)
	col, q, err := columnIndex(header)
	if err != nil {
		return nil, err
	}
	p := parser{col: col, q: q, cols: orderColumns(q), classIndex: map[string]int{}, pointRow: map[string]int{}}
	for {
		rec, err := cr.Read()
		if pe := lim.Err; pe != nil {
			return nil, pe
		}
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine
				err = pe.Err
			}
			if errors.Is(err, csv.ErrFieldCount) {
				return nil, &scores.ParseError{Row: line, Err: fmt.Errorf("%w: %d fields where the header has %d; every row of a summary has a cell for every column (empty for a top rank beyond K-1)", scores.ErrFieldCount, len(rec), width)}
			}
			return nil, &scores.ParseError{Row: line, Err: fmt.Errorf("%w: %v; %s", scores.ErrMalformed, err, remake)}
		}
		if err := p.row(rec, line); err != nil {
			return nil, err
		}
	}
	if len(p.points) == 0 {
		return nil, &scores.ParseError{Err: fmt.Errorf("%w: the summary has a header but no points; give one row per test point", scores.ErrNoData)}
	}
	if len(p.classes) != p.k {
		return nil, &scores.ParseError{Err: fmt.Errorf("%w: the labels name %s but the column classes says %d; every class of the pilot needs at least one test point", scores.ErrNoPoints, classCount(len(p.classes)), p.k)}
	}
	s, err := accuracy.NewSummarisedSample(p.k, p.ranks, p.points, nil)
	if err != nil {
		return nil, &scores.ParseError{Err: fmt.Errorf("%w; %s", err, remake)}
	}
	return &Table{Classes: p.classes, Sample: s}, nil
}

// columnIndex maps each summary column to its position in header and
// returns the number of quantile steps, one more than the largest j of the
// columns q<j>; a missing or repeated column is an error.
func columnIndex(header []string) (map[string]int, int, error) {
	col := map[string]int{}
	q := 0
	for i, h := range header {
		name := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\uFEFF")))
		if _, dup := col[name]; dup {
			return nil, 0, &scores.ParseError{Row: 1, Column: name, Err: errors.New("the column appears twice; keep one of them")}
		}
		col[name] = i
		if j, err := strconv.Atoi(strings.TrimPrefix(name, "q")); err == nil && strings.HasPrefix(name, "q") && j >= 1 {
			q = max(q, j+1)
		}
	}
	if q == 0 {
		return nil, 0, &scores.ParseError{Row: 1, Err: errors.New("the header has no quantile columns q1, q2, …: make the summary with the recipe in docs/summary.md")}
	}
	if err := checkQuantiles(q); err != nil {
		return nil, 0, &scores.ParseError{Row: 1, Err: fmt.Errorf("the header has quantile columns up to q%d: %w", q-1, err)}
	}
	for _, name := range Header(q) {
		if _, ok := col[name]; !ok {
			return nil, 0, &scores.ParseError{Row: 1, Column: name, Err: errors.New("the column is missing: make the summary with the recipe in docs/summary.md (it writes every column)")}
		}
	}
	return col, q, nil
}

// parser accumulates a summary's rows.
type parser struct {
	col        map[string]int
	q          int
	cols       []column
	k          int
	ranks      []int
	rankIndex  map[int]int
	classes    []string
	classIndex map[string]int
	points     []accuracy.PointSummary
	pointRow   map[string]int // the row each point id first appeared on
}

// row parses one record, on the given line of the file.
func (p *parser) row(rec []string, line int) error {
	cell := func(name string) string { return strings.TrimSpace(rec[p.col[name]]) }
	point := cell("point")
	fail := func(column string, err error) error {
		if point != "" {
			err = fmt.Errorf("point %q: %w", point, err)
		}
		return &scores.ParseError{Row: line, Column: column, Err: err}
	}
	if point != "" {
		if first, dup := p.pointRow[point]; dup {
			return &scores.ParseError{Row: line, Column: "point", Err: fmt.Errorf("point %q already appeared on row %d: each point needs one row", clip(point), first)}
		}
		p.pointRow[point] = line
	}
	integer := func(name string) (int, error) {
		v, err := strconv.Atoi(cell(name))
		if err != nil || v < 0 {
			return 0, fail(name, fmt.Errorf("%w: %q is not a count; the column %s holds a whole number, 0 or more", scores.ErrNotNumber, clip(cell(name)), name))
		}
		return v, nil
	}
	number := func(name string) (float64, error) {
		c := cell(name)
		if c == "" {
			return 0, fail(name, fmt.Errorf("%w: the column %s needs a number on every row; %s", scores.ErrEmptyCell, name, remake))
		}
		v, err := strconv.ParseFloat(c, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			if strings.Contains(c, ",") {
				return 0, fail(name, fmt.Errorf("%w: %q; write the decimal separator as a point (0.25, not 0,25)", scores.ErrNotNumber, clip(c)))
			}
			return 0, fail(name, fmt.Errorf("%w: %q; a summary holds plain decimal numbers like 0.25 or -1.5e-3", scores.ErrNotNumber, clip(c)))
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fail(name, fmt.Errorf("%w: %q; every value of a summary is a finite number: check the scores it was made from (NaN or Inf among them, or beyond about 1e150, where m2 overflows: rescale them) and make it again", scores.ErrNotFinite, clip(c)))
		}
		return v, nil
	}
	k, err := integer("classes")
	if err != nil {
		return err
	}
	switch {
	case p.k == 0:
		if k < 2 || k > MaxClasses {
			return fail("classes", fmt.Errorf("%d classes: a summary describes 2 to %d classes", k, MaxClasses))
		}
		p.k = k
		p.ranks = KnotRanks(k, p.q)
		p.rankIndex = map[int]int{}
		for j, r := range p.ranks {
			p.rankIndex[r] = j
		}
	case k != p.k:
		return fail("classes", fmt.Errorf("%d classes where the first row says %d: every row describes the same pilot", k, p.k))
	}
	n, err := integer("scores")
	if err != nil {
		return err
	}
	if n != k {
		return fail("scores", fmt.Errorf("the point has %d scores for %d classes: every point needs one score for every class", n, k))
	}
	label := cell("label")
	if label == "" {
		return fail("label", fmt.Errorf("%w: the label is empty; give the point's true class", scores.ErrEmptyCell))
	}
	var ps accuracy.PointSummary
	if c := cell("correct"); c == "" || c == "NULL" {
		// The recipe leaves correct empty for a point none of whose rows
		// has class = label.
		return fail("correct", fmt.Errorf("%w: the point has no score for its label %q; is the label one of the classes?", scores.ErrEmptyCell, clip(label)))
	}
	if ps.Correct, err = number("correct"); err != nil {
		return err
	}
	y, ok := p.classIndex[label]
	if !ok {
		if len(p.classes) == k {
			return fail("label", fmt.Errorf("%w: %q would be class %d of a pilot of %d classes", scores.ErrUnknown, clip(label), k+1, k))
		}
		y = len(p.classes)
		p.classIndex[label] = y
		p.classes = append(p.classes, label)
	}
	ps.Label, ps.Values = y, make([]float64, len(p.ranks))
	if ps.Below, err = integer("below"); err != nil {
		return err
	}
	if ps.Ties, err = integer("ties"); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		to   *float64
	}{{"mean", &ps.Mean}, {"m2", &ps.M2}, {"maxabs", &ps.MaxAbs}} {
		if *f.to, err = number(f.name); err != nil {
			return err
		}
	}
	filled := make([]bool, len(p.ranks))
	for _, c := range p.cols {
		r, ok := c.rank(k - 1)
		if !ok {
			if cell(c.name) != "" && cell(c.name) != "NULL" {
				return fail(c.name, fmt.Errorf("a pilot of %d classes has no incorrect score at rank %d: leave the cell empty", k, c.top))
			}
			continue
		}
		v, err := number(c.name)
		if err != nil {
			return err
		}
		j := p.rankIndex[r]
		if filled[j] && ps.Values[j] != v {
			return fail(c.name, fmt.Errorf("rank %d from the top holds %v here and %v in another column (does the column classes give the pilot's K?); %s", r, v, ps.Values[j], remake))
		}
		ps.Values[j], filled[j] = v, true
	}
	if err := ps.Check(k, p.ranks); err != nil {
		return fail("", fmt.Errorf("%w; %s", err, remake))
	}
	p.points = append(p.points, ps)
	return nil
}

// clip shortens a cell for a message.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:37]) + "..."
	}
	return s
}

// classCount returns "1 class" or "n classes".
func classCount(n int) string {
	if n == 1 {
		return "1 class"
	}
	return strconv.Itoa(n) + " classes"
}
