// Package parquetfile reads a pilot from an Apache Parquet file, in long
// form (one row per point and class: columns point, class, score and the
// point's true class in label or true_class) or wide form (one row per
// point: a label column and one numeric column per class, like the CSV),
// with parquet-go. It is apart from package inputs, which reaches it through
// inputs.ParquetDecoder, because parquet-go is large: a program that does
// not import this package does not carry it.
package parquetfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/scores"
)

// Decoder reads Parquet pilots; it implements inputs.ParquetDecoder.
type Decoder struct{}

// DecodeParquet is Decode.
func (Decoder) DecodeParquet(b []byte) (*scores.Matrix, error) { return Decode(b) }

// Decode reads the Parquet file b into a validated score matrix. The form is
// long when the file has columns named class and score (in any case), else
// wide. Rows are counted from 0, as pandas counts them. Columns pandas writes
// for a DataFrame's index (__index_level_0__, ...) are ignored. Errors are
// *inputs.Error values naming the row, and the point and class or the
// column.
func Decode(b []byte) (m *scores.Matrix, err error) {
	// parquet-go trusts parts of a file's metadata and may panic on a
	// damaged file; such a panic is turned into an error here.
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, damaged(fmt.Errorf("%v", r))
		}
	}()
	// parquet-go allocates the footer's length as the last 8 bytes give it.
	if len(b) < 12 || !bytes.HasPrefix(b, []byte("PAR1")) || !bytes.HasSuffix(b, []byte("PAR1")) ||
		int64(binary.LittleEndian.Uint32(b[len(b)-8:])) > int64(len(b)-12) {
		return nil, damaged(errors.New("it does not start and end with PAR1 around a footer that fits"))
	}
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, damaged(err)
	}
	t := &table{f: f, rows: int(f.NumRows())}
	if err := t.columns(); err != nil {
		return nil, err
	}
	if t.byName["class"] != nil && t.byName["score"] != nil {
		m, err = t.long()
	} else {
		m, err = t.wide()
	}
	if err != nil {
		return nil, err
	}
	if err := inputs.Validate(m); err != nil {
		return nil, err
	}
	return m, nil
}

// damaged is the error of a file parquet-go cannot read.
func damaged(err error) error {
	return &inputs.Error{Err: fmt.Errorf("%w: the Parquet file cannot be read (%v); write it again (pandas: df.to_parquet(f))", inputs.ErrFormat, err)}
}

// valueKind is how a column's values are read.
type valueKind int

const (
	unsupported valueKind = iota
	floatKind             // FLOAT or DOUBLE
	intKind               // INT32 or INT64, signed
	uintKind              // INT32 or INT64 annotated unsigned
	textKind              // BYTE_ARRAY holding text
	decimalKind           // DECIMAL: an unscaled integer (INT32, INT64 or big-endian bytes) and a scale
)

// numeric reports whether values of kind k are read as numbers (scores).
func (k valueKind) numeric() bool {
	return k == floatKind || k == intKind || k == uintKind || k == decimalKind
}

// column is a top-level column of the file.
type column struct {
	name string // as in the file
	col  *parquet.Column
	kind valueKind
	// scale is a DECIMAL column's scale: its values are the unscaled
	// integers times 10^-scale.
	scale int32
	typ   string // the column's type, for messages
}

// table is an open Parquet file and its columns.
type table struct {
	f    *parquet.File
	rows int
	cols []*column
	// byName holds the columns point, class, score, label and true_class
	// under their lower-case names.
	byName map[string]*column
}

// columns lists the file's top-level columns, refusing nested ones.
func (t *table) columns() error {
	t.byName = map[string]*column{}
	for _, c := range t.f.Root().Columns() {
		name := c.Name()
		if strings.HasPrefix(name, "__index_level_") {
			continue
		}
		if !c.Leaf() || c.Repeated() {
			return &inputs.Error{At: fmt.Sprintf("column %s", quoted(name)), Err: fmt.Errorf("%w: a nested column (a list, map or struct); every column holds one value per row", inputs.ErrType)}
		}
		col := &column{name: name, col: c, kind: kindOf(c.Type()), typ: c.Type().String()}
		if d, ok := decimalOf(c.Type()); ok {
			col.kind, col.scale = decimalKind, d.Scale
		}
		t.cols = append(t.cols, col)
		switch low := strings.ToLower(strings.TrimSpace(name)); low {
		case "point", "class", "score", "label", "true_class":
			if t.byName[low] != nil {
				return &inputs.Error{At: fmt.Sprintf("column %s", quoted(name)), Err: fmt.Errorf("%w: two columns are named %s; keep one", inputs.ErrConflict, quoted(low))}
			}
			t.byName[low] = col
		}
	}
	if len(t.cols) == 0 {
		return &inputs.Error{Err: fmt.Errorf("%w: the Parquet file has no columns", scores.ErrNoData)}
	}
	return nil
}

// kindOf classifies a column type.
func kindOf(typ parquet.Type) valueKind {
	lt, ct := typ.LogicalType(), typ.ConvertedType()
	switch typ.Kind() {
	case parquet.Float, parquet.Double:
		if lt == nil && ct == nil {
			return floatKind
		}
	case parquet.Int32, parquet.Int64:
		if lt != nil {
			if it, ok := lt.Value.(*format.IntType); ok {
				if it.IsSigned {
					return intKind
				}
				return uintKind
			}
			return unsupported
		}
		if ct == nil {
			return intKind
		}
		switch *ct {
		case deprecated.Int8, deprecated.Int16, deprecated.Int32, deprecated.Int64:
			return intKind
		case deprecated.Uint8, deprecated.Uint16, deprecated.Uint32, deprecated.Uint64:
			return uintKind
		}
	case parquet.ByteArray:
		if lt != nil {
			switch lt.Value.(type) {
			case *format.StringType, *format.EnumType:
				return textKind
			}
			return unsupported
		}
		if ct == nil || *ct == deprecated.UTF8 || *ct == deprecated.Enum {
			return textKind
		}
	}
	return unsupported
}

// decimalOf returns the DECIMAL annotation of a column type stored as
// INT32, INT64, BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY with a non-negative
// scale (DuckDB writes a numeric literal such as 0.5 or a ROUND of one as a
// DECIMAL; Spark and pandas write decimal columns so).
func decimalOf(typ parquet.Type) (*format.DecimalType, bool) {
	lt := typ.LogicalType()
	if lt == nil {
		return nil, false
	}
	d, ok := lt.Value.(*format.DecimalType)
	if !ok || d.Scale < 0 {
		return nil, false
	}
	switch typ.Kind() {
	case parquet.Int32, parquet.Int64, parquet.ByteArray, parquet.FixedLenByteArray:
		return d, true
	}
	return nil, false
}

// labelColumn returns the column that holds the true classes: label or
// true_class (not both).
func (t *table) labelColumn() (*column, error) {
	l, tc := t.byName["label"], t.byName["true_class"]
	if l != nil && tc != nil {
		return nil, &inputs.Error{Err: fmt.Errorf("%w: both a label and a true_class column; keep one, the true class of each point", inputs.ErrConflict)}
	}
	if l == nil {
		l = tc
	}
	return l, nil
}

// scan calls fn with each value of column c and its row, checking that the
// column has one value per row.
func (t *table) scan(c *column, fn func(row int, v parquet.Value) error) error {
	buf := make([]parquet.Value, 1024)
	row := 0
	for _, rg := range t.f.RowGroups() {
		err := func() error {
			pages := rg.ColumnChunks()[c.col.Index()].Pages()
			defer pages.Close()
			for {
				p, err := pages.ReadPage()
				if err == io.EOF {
					return nil
				}
				if err != nil {
					return damaged(fmt.Errorf("column %s: %w", quoted(c.name), err))
				}
				vr := p.Values()
				for {
					n, err := vr.ReadValues(buf)
					for _, v := range buf[:n] {
						if row >= t.rows {
							return damaged(fmt.Errorf("column %s holds more values than the file's %d rows", quoted(c.name), t.rows))
						}
						if err := fn(row, v); err != nil {
							return err
						}
						row++
					}
					if err == io.EOF {
						break
					}
					if err != nil {
						return damaged(fmt.Errorf("column %s: %w", quoted(c.name), err))
					}
					if n == 0 {
						return damaged(fmt.Errorf("column %s: a page yields no values", quoted(c.name)))
					}
				}
				parquet.Release(p)
			}
		}()
		if err != nil {
			return err
		}
	}
	if row != t.rows {
		return damaged(fmt.Errorf("column %s holds %d values for the file's %d rows", quoted(c.name), row, t.rows))
	}
	return nil
}

// float reads a score; ok is false for a null.
func float(c *column, v parquet.Value) (f float64, ok bool) {
	if v.IsNull() {
		return 0, false
	}
	switch {
	case c.kind == decimalKind:
		return decimal(v, c.scale), true
	case c.kind == floatKind && v.Kind() == parquet.Float:
		return float64(v.Float()), true
	case c.kind == floatKind:
		return v.Double(), true
	case c.kind == uintKind && v.Kind() == parquet.Int32:
		return float64(v.Uint32()), true
	case c.kind == uintKind:
		return float64(v.Uint64()), true
	case v.Kind() == parquet.Int32:
		return float64(v.Int32()), true
	}
	return float64(v.Int64()), true
}

// decimal returns the DECIMAL value v of the given scale as the float64
// nearest to it: an unscaled integer below 2^53 divided by an exact power of
// ten (at most 10^22) is one correctly rounded division; other values go
// through their decimal text and strconv.ParseFloat. A value beyond the
// float64 range is returned as ±Inf, which the callers refuse as not finite.
func decimal(v parquet.Value, scale int32) float64 {
	var unscaled *big.Int
	switch v.Kind() {
	case parquet.Int32, parquet.Int64:
		n := v.Int64()
		if v.Kind() == parquet.Int32 {
			n = int64(v.Int32())
		}
		if n > -1<<53 && n < 1<<53 && scale <= 22 {
			// math.Pow10 is exact up to 10^22
			return float64(n) / math.Pow10(int(scale))
		}
		unscaled = big.NewInt(n)
	default:
		// big-endian two's complement
		b := v.ByteArray()
		unscaled = new(big.Int).SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 {
			unscaled.Sub(unscaled, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
	}
	f, err := strconv.ParseFloat(unscaled.String()+"e-"+strconv.Itoa(int(scale)), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return math.NaN()
	}
	return f
}

// text reads an id (a point, a class or a label) as text: integers in
// decimal, strings trimmed; ok is false for a null.
func text(c *column, v parquet.Value) (s string, ok bool) {
	if v.IsNull() {
		return "", false
	}
	switch {
	case c.kind == textKind:
		return strings.TrimSpace(string(v.ByteArray())), true
	case c.kind == uintKind && v.Kind() == parquet.Int32:
		return strconv.FormatUint(uint64(v.Uint32()), 10), true
	case c.kind == uintKind:
		return strconv.FormatUint(v.Uint64(), 10), true
	case v.Kind() == parquet.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10), true
	}
	return strconv.FormatInt(v.Int64(), 10), true
}

// ids reads an id column (points, classes or labels): per row the index of
// its id among the distinct ids, in order of first appearance.
func (t *table) ids(c *column, what string) (idx []int32, names []string, err error) {
	if c.kind != textKind && c.kind != intKind && c.kind != uintKind {
		return nil, nil, &inputs.Error{At: fmt.Sprintf("column %s", quoted(c.name)), Err: fmt.Errorf("%w: type %s; %s ids must be integers or strings", inputs.ErrType, c.typ, what)}
	}
	index := map[string]int32{}
	err = t.scan(c, func(row int, v parquet.Value) error {
		s, ok := text(c, v)
		switch {
		case !ok || s == "":
			return &inputs.Error{At: fmt.Sprintf("row %d, column %s", row, quoted(c.name)), Err: fmt.Errorf("%w: the %s is empty; give every row its %s", scores.ErrEmptyCell, what, what)}
		case !utf8.ValidString(s):
			return &inputs.Error{At: fmt.Sprintf("row %d, column %s", row, quoted(c.name)), Err: fmt.Errorf("%w; write text as UTF-8", scores.ErrEncoding)}
		}
		i, seen := index[s]
		if !seen {
			if len(names) == math.MaxInt32 {
				return &inputs.Error{At: fmt.Sprintf("column %s", quoted(c.name)), Err: fmt.Errorf("%w: more than %d distinct values", inputs.ErrShape, math.MaxInt32)}
			}
			i = int32(len(names))
			index[s] = i
			names = append(names, s)
		}
		idx = append(idx, i)
		return nil
	})
	return idx, names, err
}

// long reads the long form: one row per (point, class) pair.
func (t *table) long() (*scores.Matrix, error) {
	lc, err := t.labelColumn()
	if err != nil {
		return nil, err
	}
	pc, cc, sc := t.byName["point"], t.byName["class"], t.byName["score"]
	if pc == nil || lc == nil {
		var lacks []string
		if pc == nil {
			lacks = append(lacks, "a point column (the point's id)")
		}
		if lc == nil {
			lacks = append(lacks, "a label or true_class column (its true class)")
		}
		return nil, &inputs.Error{Err: fmt.Errorf("%w: a long Parquet file (it has class and score columns) also needs %s; this one has none", inputs.ErrMissing, strings.Join(lacks, " and "))}
	}
	for _, c := range t.cols {
		if c != pc && c != cc && c != sc && c != lc {
			return nil, &inputs.Error{At: fmt.Sprintf("column %s", quoted(c.name)), Err: fmt.Errorf("%w: a long Parquet file has only the columns point, class, score and %s; drop the others", inputs.ErrShape, lc.name)}
		}
	}
	if !sc.kind.numeric() {
		return nil, &inputs.Error{At: fmt.Sprintf("column %s", quoted(sc.name)), Err: fmt.Errorf("%w: type %s; scores must be numbers", inputs.ErrType, sc.typ)}
	}
	point, points, err := t.ids(pc, "point")
	if err != nil {
		return nil, err
	}
	class, classes, err := t.ids(cc, "class")
	if err != nil {
		return nil, err
	}
	label, labels, err := t.ids(lc, "label")
	if err != nil {
		return nil, err
	}
	k := len(classes)
	if t.rows == 0 {
		return nil, &inputs.Error{Err: fmt.Errorf("%w: the file has no rows; give one row per (point, class) pair", scores.ErrNoData)}
	}
	if k < 2 {
		return nil, &inputs.Error{At: fmt.Sprintf("column %s", quoted(cc.name)), Err: fmt.Errorf("%w: it names %d class; a pilot needs at least 2", scores.ErrFewClasses, k)}
	}
	if len(points) > t.rows/k {
		return nil, missingPair(point, class, points, classes, t.rows)
	}
	where := func(row int) string {
		return fmt.Sprintf("row %d (point %s, class %s)", row, quoted(points[point[row]]), quoted(classes[class[row]]))
	}
	m := &scores.Matrix{Classes: classes, Scores: make([]float64, len(points)*k)}
	seen := make([]bool, len(points)*k)
	pointLabel := make([]int32, len(points))
	firstRow := make([]int, len(points))
	for i := range pointLabel {
		pointLabel[i] = -1
	}
	err = t.scan(sc, func(row int, v parquet.Value) error {
		i, j := int(point[row]), int(class[row])
		x := i*k + j
		if seen[x] {
			first := 0
			for r := range row {
				if point[r] == point[row] && class[r] == class[row] {
					first = r
					break
				}
			}
			return &inputs.Error{At: where(row), Err: fmt.Errorf("%w: a second row for this (point, class) pair (the first is row %d); give each pair once", inputs.ErrConflict, first)}
		}
		seen[x] = true
		switch {
		case pointLabel[i] < 0:
			pointLabel[i], firstRow[i] = label[row], row
		case pointLabel[i] != label[row]:
			return &inputs.Error{At: where(row), Err: fmt.Errorf("%w: label %s, but row %d gives this point the label %s; all rows of a point give its one true class", inputs.ErrConflict, quoted(labels[label[row]]), firstRow[i], quoted(labels[pointLabel[i]]))}
		}
		s, ok := float(sc, v)
		switch {
		case !ok:
			return &inputs.Error{At: where(row), Err: fmt.Errorf("%w: the score is empty (null); give every (point, class) pair a score", scores.ErrEmptyCell)}
		case math.IsNaN(s) || math.IsInf(s, 0):
			return &inputs.Error{At: where(row), Err: fmt.Errorf("%w: %v; replace it with a finite score", scores.ErrNotFinite, s)}
		}
		m.Scores[x] = s
		return nil
	})
	if err != nil {
		return nil, err
	}
	// No pair came twice and there are no more pairs than rows, so every
	// pair came once.
	index := make(map[string]int, k)
	for j, c := range classes {
		index[c] = j
	}
	m.Labels = make([]int, len(points))
	for i, l := range pointLabel {
		y, ok := index[labels[l]]
		if !ok {
			return nil, &inputs.Error{At: fmt.Sprintf("row %d (point %s), column %s", firstRow[i], quoted(points[i]), quoted(lc.name)), Err: fmt.Errorf("%w %s: the true class must be one of the %d classes of column %s", scores.ErrUnknown, quoted(labels[l]), k, quoted(cc.name))}
		}
		m.Labels[i] = y
	}
	return m, nil
}

// missingPair names a (point, class) pair without a row, for a long file
// whose n points and k classes make more pairs than its rows: the first
// point with fewer than k rows, and the first class it lacks.
func missingPair(point, class []int32, points, classes []string, rows int) error {
	k := len(classes)
	count := make([]int, len(points))
	for _, i := range point {
		count[i]++
	}
	i := 0
	for i < len(count)-1 && count[i] >= k {
		i++
	}
	has := make([]bool, k)
	for r, p := range point {
		if int(p) == i {
			has[class[r]] = true
		}
	}
	j := 0
	for j < k-1 && has[j] {
		j++
	}
	need := "more than " + strconv.Itoa(rows)
	if hi, lo := bits.Mul64(uint64(len(points)), uint64(k)); hi == 0 && lo < 1<<62 {
		need = strconv.FormatUint(lo, 10)
	}
	return &inputs.Error{At: fmt.Sprintf("point %s, class %s", quoted(points[i]), quoted(classes[j])), Err: fmt.Errorf("%w: no row for this (point, class) pair; %d points x %d classes need %s rows, the file has %d; give every point a score for every class", inputs.ErrMissing, len(points), k, need, rows)}
}

// wide reads the wide form: one row per point, a label column (label or
// true_class, else the first column), an optional point column naming the
// points, and one numeric column per class.
func (t *table) wide() (*scores.Matrix, error) {
	lc, err := t.labelColumn()
	if err != nil {
		return nil, err
	}
	guessed := lc == nil
	if guessed {
		lc = t.cols[0]
	}
	pc := t.byName["point"]
	if pc == lc {
		pc = nil
	}
	var classCols []*column
	var classes []string
	for _, c := range t.cols {
		if c == lc || c == pc {
			continue
		}
		if !c.kind.numeric() {
			if low := strings.ToLower(strings.TrimSpace(c.name)); low == "class" || low == "score" {
				lacks := "score"
				if low == "score" {
					lacks = "class"
				}
				return nil, &inputs.Error{Err: fmt.Errorf("%w: a column %s but no column %s: a long Parquet file has the columns point, class, score and label (or true_class); add the %s column (or, for a wide file, rename column %s)", inputs.ErrMissing, quoted(c.name), lacks, lacks, quoted(c.name))}
			}
			return nil, &inputs.Error{At: fmt.Sprintf("column %s", quoted(c.name)), Err: fmt.Errorf("%w: type %s; in a wide Parquet file every column but %s (the true class) is a class and holds numbers", inputs.ErrType, c.typ, quoted(lc.name))}
		}
		classCols = append(classCols, c)
		classes = append(classes, strings.TrimSpace(c.name))
	}
	k := len(classes)
	if k < 2 {
		return nil, &inputs.Error{Err: fmt.Errorf("%w: found %d; a wide Parquet file needs a label column and at least 2 class columns (a long one has the columns point, class, score and label)", scores.ErrFewClasses, k)}
	}
	if t.rows == 0 {
		return nil, &inputs.Error{Err: fmt.Errorf("%w: the file has columns but no rows; give one row per test point", scores.ErrNoData)}
	}
	var pointNames []string
	if pc != nil {
		var idx []int32
		var names []string
		if idx, names, err = t.ids(pc, "point"); err != nil {
			return nil, err
		}
		pointNames = make([]string, t.rows)
		for r, i := range idx {
			pointNames[r] = names[i]
		}
	}
	at := func(row int, c *column) string {
		if pointNames != nil {
			return fmt.Sprintf("row %d (point %s), column %s", row, quoted(pointNames[row]), quoted(c.name))
		}
		return fmt.Sprintf("row %d, column %s", row, quoted(c.name))
	}
	if lc.kind != textKind && lc.kind != intKind && lc.kind != uintKind {
		return nil, &inputs.Error{At: fmt.Sprintf("column %s", quoted(lc.name)), Err: fmt.Errorf("%w: type %s; the label column holds class names (the names of the class columns)", inputs.ErrType, lc.typ)}
	}
	index := make(map[string]int, k)
	for j, c := range classes {
		index[c] = j
	}
	// The labels are gathered as they are read, so that the scores are
	// allocated for the rows the file holds, not for the count its metadata
	// claims.
	m := &scores.Matrix{Classes: classes}
	err = t.scan(lc, func(row int, v parquet.Value) error {
		s, ok := text(lc, v)
		if !ok || s == "" {
			return &inputs.Error{At: at(row, lc), Err: fmt.Errorf("%w: the label is empty; give the point's true class", scores.ErrEmptyCell)}
		}
		y, ok := index[s]
		if !ok {
			why := "it must equal one of the class column names"
			if guessed {
				why = fmt.Sprintf("no column is named label or true_class, so the first column, %s, was read as the true classes, and its values must be class column names; name the column that holds each point's true class label", quoted(lc.name))
			}
			return &inputs.Error{At: at(row, lc), Err: fmt.Errorf("%w %s: %s", scores.ErrUnknown, quoted(s), why)}
		}
		m.Labels = append(m.Labels, y)
		return nil
	})
	if err != nil {
		return nil, err
	}
	m.Scores = make([]float64, len(m.Labels)*k)
	for j, c := range classCols {
		err := t.scan(c, func(row int, v parquet.Value) error {
			s, ok := float(c, v)
			switch {
			case !ok:
				return &inputs.Error{At: at(row, c), Err: fmt.Errorf("%w: the score is empty (null); every score must be a number", scores.ErrEmptyCell)}
			case math.IsNaN(s) || math.IsInf(s, 0):
				return &inputs.Error{At: at(row, c), Err: fmt.Errorf("%w: %v; replace it with a finite score", scores.ErrNotFinite, s)}
			}
			m.Scores[row*k+j] = s
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}

// quoted returns s, cut to 40 bytes, in Go double quotes.
func quoted(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strconv.Quote(strings.ToValidUTF8(s, "?"))
}
