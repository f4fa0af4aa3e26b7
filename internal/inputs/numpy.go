package inputs

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"codeberg.org/sbinet/npyio/npy"
	"codeberg.org/sbinet/npyio/npy/float16"
	"codeberg.org/sbinet/npyio/npz"

	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/scores"
)

// The arrays of an .npz pilot, named as numpy.savez names them.
const (
	scoresNPY  = "scores.npy"
	labelsNPY  = "labels.npy"
	classesNPY = "classes.npy"
)

// npArray is a decoded .npy array in C (row-major) order.
type npArray struct {
	name  string // the member of the .npz: "scores.npy"
	shape []int
	dtype string // as the header gives it: "<f8", "|u1", "<U5"
	kind  byte   // 'f', 'i', 'u', 'U' or 'S'
	// data is []float16.Num, []float32, []float64, []int8 ... []int64,
	// []uint8 ... []uint64 or []string.
	data any
}

// readerAt returns r as a reader at any offset with its size when it is
// one (an in-memory buffer such as bytes.Reader, or a regular file), so
// that an .npz is read in place rather than copied whole into memory. The
// archive is then read from the start of r's data, whatever has already
// been read from it: the readers handed to Read are fresh.
func readerAt(r io.Reader) (io.ReaderAt, int64, bool) {
	switch v := r.(type) {
	case interface {
		io.ReaderAt
		Size() int64
	}:
		return v, v.Size(), true
	case interface {
		io.ReaderAt
		Stat() (fs.FileInfo, error)
	}:
		if st, err := v.Stat(); err == nil && st.Mode().IsRegular() {
			return v, st.Size(), true
		}
	}
	return nil, 0, false
}

// decodeNPZ reads the pilot of the .npz archive of size bytes in ra:
// scores.npy (N x K floats, at most the bytes limit returns as float64;
// Reader.MemoryLimit),
// labels.npy (N class indices or class names) and optionally classes.npy
// (K class names).
func decodeNPZ(ra io.ReaderAt, size int64, limit func() int64) (*scores.Matrix, error) {
	zr, err := npz.NewReader(ra, size)
	if err != nil {
		if first := firstZipName(ra); strings.HasSuffix(first, ".npy") {
			return nil, &Error{Err: fmt.Errorf("%w: an .npz (its first array is %s) whose zip directory, at the end of the file, cannot be read (%v): the file is damaged or cut short, as an interrupted copy or download leaves it; copy it again, or save it again with numpy.savez", ErrFormat, quoted(first), err)}
		}
		return nil, &Error{Err: fmt.Errorf("%w: a zip archive that cannot be read (%v); give an .npz written by numpy.savez(f, scores=S, labels=y), or save an Excel workbook's sheet as CSV UTF-8", ErrFormat, err)}
	}
	keys := zr.Keys()
	has := make(map[string]bool, len(keys))
	for _, k := range keys {
		has[k] = true
	}
	if !has[scoresNPY] || !has[labelsNPY] {
		return nil, &Error{Err: missingArrays(keys, has)}
	}
	read := func(name string) (*npArray, error) { return readMember(zr, name) }
	s, err := readScores(zr, size, limit)
	if err != nil {
		return nil, err
	}
	l, err := read(labelsNPY)
	if err != nil {
		return nil, err
	}
	var c *npArray
	if has[classesNPY] {
		if c, err = read(classesNPY); err != nil {
			return nil, err
		}
	}
	return assemble(s, l, c)
}

// firstZipName returns the name of the first member of the zip archive ra
// as its first local file header gives it, or "" when ra does not start
// with a whole one. The header comes first in the file, so it survives a
// file cut short, whose directory at the end is lost.
func firstZipName(ra io.ReaderAt) string {
	const header = 30 // bytes of a local file header before the name
	b := make([]byte, header+math.MaxUint16)
	got, _ := ra.ReadAt(b, 0)
	b = b[:got]
	if len(b) < header || !bytes.HasPrefix(b, []byte("PK\x03\x04")) {
		return ""
	}
	n := int(binary.LittleEndian.Uint16(b[26:28]))
	if header+n > len(b) || !utf8.Valid(b[header:header+n]) {
		return ""
	}
	return string(b[header : header+n])
}

// missingArrays explains an archive without scores.npy or labels.npy.
func missingArrays(keys []string, has map[string]bool) error {
	switch {
	case has[scoresNPY]:
		return fmt.Errorf("%w: the .npz holds scores.npy but no labels.npy; save the true class of each point with it: numpy.savez(f, scores=S, labels=y)", ErrMissing)
	case has[labelsNPY]:
		return fmt.Errorf("%w: the .npz holds labels.npy but no scores.npy; save the N x K scores with it: numpy.savez(f, scores=S, labels=y)", ErrMissing)
	}
	if len(keys) == 0 {
		return fmt.Errorf("%w: an empty zip archive, which holds no arrays; save the scores and the labels in it: numpy.savez(f, scores=S, labels=y)", ErrMissing)
	}
	const what = "a zip archive that holds no scores.npy/labels.npy"
	for _, k := range keys {
		if k == "[Content_Types].xml" || strings.HasPrefix(k, "xl/") {
			return fmt.Errorf("%w: %s: it looks like an Excel .xlsx workbook; save the sheet as CSV UTF-8", ErrMissing, what)
		}
	}
	return fmt.Errorf("%w: %s (it holds %s); name the arrays when saving them, numpy.savez(f, scores=S, labels=y), or extract the CSV inside", ErrMissing, what, quoteList(keys))
}

// npyPreamble checks what npyio trusts in the first bytes of an .npy file
// (the magic, a format version it reads, a header that fits in the file and
// ends with a newline) and returns where the data starts.
func npyPreamble(name string, b []byte) (int, error) {
	if !bytes.HasPrefix(b, []byte(magicNPY)) || len(b) < 10 {
		return 0, &Error{File: name, Err: fmt.Errorf("%w: not a .npy array (it does not start with \\x93NUMPY); save it with numpy.save or numpy.savez", ErrFormat)}
	}
	var start, n int
	switch b[6] {
	case 1:
		start, n = 10, int(binary.LittleEndian.Uint16(b[8:10]))
	case 2:
		if len(b) < 12 {
			return 0, &Error{File: name, Err: fmt.Errorf("%w: the .npy header is cut short; save the array again", ErrFormat)}
		}
		start, n = 12, int(binary.LittleEndian.Uint32(b[8:12]))
	default:
		return 0, &Error{File: name, Err: fmt.Errorf("%w: .npy format version %d.%d, which is read only for plain arrays in versions 1 and 2; save a plain numeric or string array with numpy.save", ErrFormat, b[6], b[7])}
	}
	if n > len(b)-start || bytes.IndexByte(b[start:start+n], '\n') < 0 {
		return 0, &Error{File: name, Err: fmt.Errorf("%w: the .npy header is cut short or malformed; save the array again", ErrFormat)}
	}
	return start + n, nil
}

// guard runs f, which calls npyio, and turns a panic into an error: npyio
// slices the header text at the positions of its keys and so panics on some
// malformed headers. Everything else npyio trusts (the header's length and
// the data's length against the shape and dtype) is checked before it runs.
func guard(name string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &Error{File: name, Err: fmt.Errorf("%w: the .npy array cannot be read (%v); save it again with numpy.save", ErrFormat, r)}
		}
	}()
	if err := f(); err != nil {
		return &Error{File: name, Err: fmt.Errorf("%w: the .npy array cannot be read (%v); save it again with numpy.save", ErrFormat, err)}
	}
	return nil
}

// npyHeader reads the header of the .npy file b with npyio and checks its
// dtype; it returns the header and the offset of the data.
func npyHeader(name string, b []byte) (npy.Header, int, error) {
	start, err := npyPreamble(name, b)
	if err != nil {
		return npy.Header{}, 0, err
	}
	var rr *npy.Reader
	if err := guard(name, func() (e error) { rr, e = npy.NewReader(bytes.NewReader(b)); return e }); err != nil {
		return npy.Header{}, 0, err
	}
	for _, d := range rr.Header.Descr.Shape {
		if d < 0 {
			return npy.Header{}, 0, &Error{File: name, Err: fmt.Errorf("%w: the .npy header gives a negative dimension %s; save the array again", ErrFormat, shapeString(rr.Header.Descr.Shape))}
		}
	}
	return rr.Header, start, nil
}

// decodeNPY reads an .npy array of floats, integers or strings with npyio.
func decodeNPY(name string, b []byte) (*npArray, error) {
	h, start, err := npyHeader(name, b)
	if err != nil {
		return nil, err
	}
	a := &npArray{name: name, shape: h.Descr.Shape, dtype: strings.Trim(h.Descr.Type, `'"`)}
	kind, size, ok := parseDtype(a.dtype)
	if !ok {
		return nil, &Error{File: name, Err: fmt.Errorf("%w: dtype %s: %s", ErrType, a.dtype, dtypeHint(a.dtype, name))}
	}
	a.kind = kind
	if len(a.shape) == 0 {
		return nil, &Error{File: name, Err: fmt.Errorf("%w (): a single value; save an array (scores N x K, labels N)", ErrShape)}
	}
	n, ok := numElems(a.shape)
	hi, want := bits.Mul64(uint64(n), uint64(size))
	if !ok || hi != 0 || want != uint64(len(b)-start) {
		return nil, &Error{File: name, Err: fmt.Errorf("%w: the header announces shape %s of %s but the file holds %d bytes of data; save the array again", ErrFormat, shapeString(a.shape), a.dtype, len(b)-start)}
	}
	var arr npy.Array
	if err := guard(name, func() error { return npy.Read(bytes.NewReader(b), &arr) }); err != nil {
		return nil, err
	}
	a.data = arr.Data()
	if length(a.data) != n {
		return nil, &Error{File: name, Err: fmt.Errorf("%w: %d values for shape %s; save the array again", ErrFormat, length(a.data), shapeString(a.shape))}
	}
	if h.Descr.Fortran && len(a.shape) == 2 {
		a.data = toRowMajor(a.data, a.shape[0], a.shape[1])
	}
	return a, nil
}

// parseDtype reads a NumPy type string such as "<f8", "|u1" or "<U12" and
// returns its kind and item size in bytes; ok is false for the types a pilot
// cannot hold (bool, complex, datetime, object, structured, strings of
// width 0).
func parseDtype(t string) (kind byte, size int, ok bool) {
	if t == "" {
		return 0, 0, false
	}
	if strings.IndexByte("<>|=", t[0]) >= 0 {
		t = t[1:]
	}
	if len(t) < 2 {
		return 0, 0, false
	}
	n, err := strconv.Atoi(t[1:])
	if err != nil || n < 0 {
		return 0, 0, false
	}
	switch kind = t[0]; kind {
	case 'f':
		return kind, n, n == 2 || n == 4 || n == 8
	case 'i', 'u':
		return kind, n, n == 1 || n == 2 || n == 4 || n == 8
	case 'S':
		return kind, n, n > 0
	case 'U':
		return kind, 4 * n, n > 0 && n <= 1<<28
	}
	return 0, 0, false
}

// dtypeHint says what an array of the unsupported dtype t holds and how to
// convert it; name is the array's member name ("scores.npy"), which tells
// numbers (scores, embeddings) from labels and class names.
func dtypeHint(t, name string) string {
	if strings.HasPrefix(t, "[") || strings.HasPrefix(t, "{") {
		// A structured dtype, given as the list of its fields: the type
		// letters of the checks below occur in its field names too.
		return "a structured array (named fields), which is not read; save each field as an array of its own, e.g. numpy.savez(f, scores=a['score'].astype(float), labels=a['label'])"
	}
	switch c := strings.TrimLeft(t, "<>|="); {
	case strings.HasPrefix(c, "O"):
		return "Python objects, which are not read; convert names with a.astype(str) and scores with a.astype(float)"
	case (strings.HasPrefix(c, "b") || strings.HasPrefix(c, "?")) && holdsNumbers(name):
		return "booleans; give floating-point numbers: convert them with a.astype(numpy.float64)"
	case strings.HasPrefix(c, "b") || strings.HasPrefix(c, "?"):
		return "booleans; convert labels with a.astype(int)"
	case strings.HasPrefix(c, "c") && name == scoresNPY:
		return "complex numbers; give real scores"
	case strings.HasPrefix(c, "c") && holdsNumbers(name):
		return "complex numbers; give real coordinates"
	case strings.HasPrefix(c, "c"):
		return "complex numbers; give integers or strings"
	case c == "S0" || c == "U0":
		return "strings of width 0 (every one empty); save the names themselves with a.astype(str)"
	}
	return "give floats (scores), integers or strings (labels, class names); convert with a.astype(float), a.astype(int) or a.astype(str)"
}

// holdsNumbers reports whether the array named name holds floating-point
// numbers (the scores, or embeddings: test.npy, train.npy, gallery.npy)
// rather than labels or class names.
func holdsNumbers(name string) bool {
	switch name {
	case scoresNPY, testNPY, trainNPY, galleryNPY:
		return true
	}
	return false
}

// numElems multiplies the dimensions; ok is false on overflow.
func numElems(shape []int) (int, bool) {
	n := 1
	for _, d := range shape {
		hi, lo := bits.Mul64(uint64(n), uint64(d))
		if hi != 0 || lo > 1<<62 {
			return 0, false
		}
		n = int(lo)
	}
	return n, true
}

// shapeString writes a shape as NumPy prints it: "(10,)", "(10, 3)".
func shapeString(shape []int) string {
	s := make([]string, len(shape))
	for i, d := range shape {
		s[i] = strconv.Itoa(d)
	}
	if len(s) == 1 {
		return "(" + s[0] + ",)"
	}
	return "(" + strings.Join(s, ", ") + ")"
}

// length is the number of elements of npyio's decoded data.
func length(data any) int {
	switch d := data.(type) {
	case []float16.Num:
		return len(d)
	case []float32:
		return len(d)
	case []float64:
		return len(d)
	case []int8:
		return len(d)
	case []int16:
		return len(d)
	case []int32:
		return len(d)
	case []int64:
		return len(d)
	case []uint8:
		return len(d)
	case []uint16:
		return len(d)
	case []uint32:
		return len(d)
	case []uint64:
		return len(d)
	case []string:
		return len(d)
	}
	return -1
}

// toRowMajor reorders the data of a Fortran-order (column-major) rows x
// cols array into C order.
func toRowMajor(data any, rows, cols int) any {
	switch d := data.(type) {
	case []float16.Num:
		return transpose(d, rows, cols)
	case []float32:
		return transpose(d, rows, cols)
	case []float64:
		return transpose(d, rows, cols)
	}
	return data // only float scores are 2-D
}

// transpose returns the rows x cols row-major form of the column-major d.
func transpose[T any](d []T, rows, cols int) []T {
	out := make([]T, len(d))
	for j := range cols {
		for i := range rows {
			out[i*cols+j] = d[j*rows+i]
		}
	}
	return out
}

// floats converts float scores to float64, exactly.
func floats(data any) []float64 {
	switch d := data.(type) {
	case []float64:
		return d
	case []float32:
		out := make([]float64, len(d))
		for i, v := range d {
			out[i] = float64(v)
		}
		return out
	case []float16.Num:
		out := make([]float64, len(d))
		for i, v := range d {
			out[i] = float64(v.Float32())
		}
		return out
	}
	return nil
}

// labelText writes label i of the integer labels data as the file holds
// it, y being what ints made of it (a uint64 above the largest int64, as
// -1 cast to uint64 is, is shown as it is, not as the largest int64).
func labelText(data any, i int, y int64) string {
	if u, ok := data.([]uint64); ok {
		return strconv.FormatUint(u[i], 10)
	}
	return strconv.FormatInt(y, 10)
}

// ints converts integer labels to int64; ok is false for a value of a
// uint64 array above the largest int64.
func ints(data any) (out []int64, ok bool) {
	conv := func(n int, at func(int) int64) []int64 {
		out := make([]int64, n)
		for i := range n {
			out[i] = at(i)
		}
		return out
	}
	switch d := data.(type) {
	case []int8:
		return conv(len(d), func(i int) int64 { return int64(d[i]) }), true
	case []int16:
		return conv(len(d), func(i int) int64 { return int64(d[i]) }), true
	case []int32:
		return conv(len(d), func(i int) int64 { return int64(d[i]) }), true
	case []int64:
		return d, true
	case []uint8:
		return conv(len(d), func(i int) int64 { return int64(d[i]) }), true
	case []uint16:
		return conv(len(d), func(i int) int64 { return int64(d[i]) }), true
	case []uint32:
		return conv(len(d), func(i int) int64 { return int64(d[i]) }), true
	case []uint64:
		out := make([]int64, len(d))
		for i, v := range d {
			out[i] = int64(min(v, 1<<63-1))
		}
		return out, true
	}
	return nil, false
}

// strs returns the trimmed strings of a string array, refusing bytes that
// are not UTF-8.
func strs(a *npArray) ([]string, error) {
	d, _ := a.data.([]string)
	out := make([]string, len(d))
	for i, s := range d {
		if !utf8.ValidString(s) {
			return nil, &Error{File: a.name, At: fmt.Sprintf("point %d", i), Err: fmt.Errorf("%w; save the names as UTF-8 (numpy str, dtype <U)", scores.ErrEncoding)}
		}
		out[i] = trimName(s)
	}
	return out, nil
}

// assemble checks the arrays of a NumPy pilot against each other and builds
// its matrix (s the scores, l the labels, c the class names or nil).
func assemble(s, l, c *npArray) (*scores.Matrix, error) {
	if len(s.shape) != 2 {
		return nil, &Error{File: s.name, Err: fmt.Errorf("%w %s: want a 2-D array of N points x K classes", ErrShape, shapeString(s.shape))}
	}
	if s.kind != 'f' {
		return nil, &Error{File: s.name, Err: fmt.Errorf("%w: dtype %s: scores must be floating-point (float16, float32 or float64); convert them with scores.astype(numpy.float64)", ErrType, s.dtype)}
	}
	n, k := s.shape[0], s.shape[1]
	switch {
	case n == 0:
		return nil, &Error{File: s.name, Err: fmt.Errorf("%w: shape %s holds no test points; give one row per test point", scores.ErrNoData, shapeString(s.shape))}
	case k < 2:
		return nil, &Error{File: s.name, Err: fmt.Errorf("%w: shape %s; a pilot needs at least 2 classes, one column each", scores.ErrFewClasses, shapeString(s.shape))}
	}
	if len(l.shape) != 1 || l.shape[0] != n {
		transposed := ""
		if len(l.shape) == 1 && l.shape[0] == k {
			transposed = fmt.Sprintf("; %s has %d rows and %d columns, one per label: if its rows are the classes, save its transpose (S.T) instead", s.name, n, k)
		}
		return nil, &Error{File: l.name, Err: fmt.Errorf("%w %s: want %d labels (a 1-D array, one per row of %s), the true class of each point%s", ErrShape, shapeString(l.shape), n, s.name, transposed)}
	}
	var classes []string
	if c != nil {
		if len(c.shape) != 1 || c.shape[0] != k {
			return nil, &Error{File: c.name, Err: fmt.Errorf("%w %s: want %d class names (a 1-D array, one per column of %s)", ErrShape, shapeString(c.shape), k, s.name)}
		}
		if c.kind != 'U' && c.kind != 'S' {
			return nil, &Error{File: c.name, Err: fmt.Errorf("%w: dtype %s: class names must be strings; convert them with classes.astype(str)", ErrType, c.dtype)}
		}
		var err error
		if classes, err = strs(c); err != nil {
			return nil, err
		}
		if err := checkNames(classes); err != nil {
			err.File = c.name
			return nil, err
		}
	}
	labels, classes, err := npLabels(l, classes, k)
	if err != nil {
		return nil, err
	}
	m := &scores.Matrix{Classes: classes, Labels: labels, Scores: floats(s.data)}
	if err := checkFinite(m.Scores, classes); err != nil {
		err.File = s.name
		return nil, err
	}
	if err := checkEveryClass(labels, classes); err != nil {
		err.File = l.name
		return nil, err
	}
	if c == nil && (l.kind == 'U' || l.kind == 'S') {
		if err := checkNameOrder(m, k); err != nil {
			err.File = l.name
			return nil, err
		}
	}
	return m, nil
}

// checkNameOrder refuses string labels without classes.npy (so the columns
// of scores are taken to be the classes in order of first appearance) when
// the labels fit the columns better in the names' sorted order, the order
// of scikit-learn's classes_ and so of predict_proba's columns: reading
// them in order of first appearance would pair every point with another
// class's scores and give a wrong accuracy with no error. The fit is the
// number of points whose true class has the best score of its row (the
// unique highest, or the unique lowest, whichever counts more); the sorted
// order must fit better by more than 3 sqrt(n1 + n2) points, the count's
// noise when both orders fit alike, so that a classifier near chance is
// not refused for a few points.
func checkNameOrder(m *scores.Matrix, k int) *Error {
	sorted := slices.Clone(m.Classes)
	slices.Sort(sorted)
	if slices.Equal(sorted, m.Classes) {
		return nil
	}
	pos := make([]int, k) // the column of each class when the columns are sorted
	for j, c := range m.Classes {
		pos[j], _ = slices.BinarySearch(sorted, c)
	}
	var hi, lo, hiSorted, loSorted int
	for i, y := range m.Labels {
		row := m.Scores[i*k : (i+1)*k]
		top, bottom := uniqueExtremes(row)
		hi += b2i(top == y)
		lo += b2i(bottom == y)
		hiSorted += b2i(top == pos[y])
		loSorted += b2i(bottom == pos[y])
	}
	read, alt := max(hi, lo), max(hiSorted, loSorted)
	if float64(alt-read) <= 3*math.Sqrt(float64(alt+read)) {
		// Within what chance gives a near-chance classifier under either
		// order: read as the file says.
		return nil
	}
	return &Error{Err: fmt.Errorf("%w: the labels name the classes but %s is missing, so the columns of %s are read as the classes in order of first appearance (%s), and then %d of the %d points' true class has the best score of its row; in sorted order (%s), as scikit-learn's classes_ orders them, %d of the %d do; save the class of each column: numpy.savez(f, scores=S, labels=y, classes=names) (or give integer labels, the column indices)",
		ErrConflict, classesNPY, scoresNPY, quoteList(m.Classes), read, len(m.Labels), quoteList(sorted), alt, len(m.Labels))}
}

// uniqueExtremes returns the column of the row's highest score and of its
// lowest, each -1 when two columns share it.
func uniqueExtremes(row []float64) (top, bottom int) {
	top, bottom = 0, 0
	topTied, bottomTied := false, false
	for j := 1; j < len(row); j++ {
		switch v := row[j]; {
		case v > row[top]:
			top, topTied = j, false
		case v == row[top]:
			topTied = true
		}
		switch v := row[j]; {
		case v < row[bottom]:
			bottom, bottomTied = j, false
		case v == row[bottom]:
			bottomTied = true
		}
	}
	if topTied {
		top = -1
	}
	if bottomTied {
		bottom = -1
	}
	return top, bottom
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// npLabels turns the labels array l into class indices. Integer labels are
// indices 0..k-1 (named by classes, or "0".."k-1"); string labels are class
// names (of classes, or, when classes is nil, the distinct labels in order of
// first appearance, which must then number k). It returns the labels and the
// class names.
func npLabels(l *npArray, classes []string, k int) ([]int, []string, error) {
	labels := make([]int, l.shape[0])
	switch l.kind {
	case 'i', 'u':
		v, _ := ints(l.data)
		for i, y := range v {
			if y < 0 || y >= int64(k) {
				return nil, nil, &Error{File: l.name, At: fmt.Sprintf("point %d", i), Err: fmt.Errorf("%w %s: integer labels are column indices of scores, 0..%d%s", scores.ErrUnknown, labelText(l.data, i, y), k-1, fromOne(v, k))}
			}
			labels[i] = int(y)
		}
		if classes == nil {
			classes = make([]string, k)
			for j := range classes {
				classes[j] = strconv.Itoa(j)
			}
		}
		return labels, classes, nil
	case 'U', 'S':
	default:
		return nil, nil, &Error{File: l.name, Err: fmt.Errorf("%w: dtype %s: labels must be integers 0..%d or class names; convert them with labels.astype(int) or labels.astype(str)", ErrType, l.dtype, k-1)}
	}
	names, err := strs(l)
	if err != nil {
		return nil, nil, err
	}
	given := classes != nil
	index := classIndex(classes)
	for i, name := range names {
		if name == "" {
			return nil, nil, &Error{File: l.name, At: fmt.Sprintf("point %d", i), Err: fmt.Errorf("%w: the label is empty; give the point's true class", scores.ErrEmptyCell)}
		}
		y, ok := index[name]
		switch {
		case !ok && given:
			return nil, nil, &Error{File: l.name, At: fmt.Sprintf("point %d", i), Err: fmt.Errorf("%w %s: it must be one of the %d names in %s", scores.ErrUnknown, quoted(name), k, classesNPY)}
		case !ok:
			y = len(classes)
			index[name] = y
			classes = append(classes, name)
		}
		labels[i] = y
	}
	if !given && len(classes) != k {
		return nil, nil, &Error{File: l.name, Err: fmt.Errorf("%w: %d distinct labels for the %d columns of %s; without %s the classes are the distinct labels in order of first appearance, so every class needs a point; give the %d class names in column order (numpy.savez(f, scores=S, labels=y, classes=names))",
			ErrShape, len(classes), k, scoresNPY, classesNPY, k)}
	}
	return labels, classes, nil
}

// fromOne returns a hint for integer labels that run from 1 to k, as
// labels counted from 1 (R, MATLAB, Julia) do, and "" for others.
func fromOne(labels []int64, k int) string {
	if slices.Min(labels) == 1 && slices.Max(labels) == int64(k) {
		return fmt.Sprintf("; the labels run from 1 to %d: if they count the columns from 1, subtract 1 (labels - 1)", k)
	}
	return ""
}

// PackNPY joins two .npy files, the scores (a 2-D array, N x K) and the
// labels (a 1-D array of N), given in either order and told apart by their
// number of dimensions, into the bytes of an .npz archive (zip, stored,
// uncompressed) holding scores.npy and labels.npy, which Read reads.
func PackNPY(a, b []byte) ([]byte, error) {
	files := [2][]byte{a, b}
	var dims [2]int
	var shapes [2]string
	for i, f := range files {
		name := [2]string{"the first .npy file", "the second .npy file"}[i]
		h, _, err := npyHeader(name, f)
		if err != nil {
			return nil, err
		}
		dims[i], shapes[i] = len(h.Descr.Shape), shapeString(h.Descr.Shape)
	}
	var s, l []byte
	switch {
	case dims[0] == 2 && dims[1] == 1:
		s, l = a, b
	case dims[0] == 1 && dims[1] == 2:
		s, l = b, a
	default:
		return nil, &Error{Err: fmt.Errorf("%w: the two .npy arrays have shapes %s and %s; give one 2-D array of scores (N points x K classes) and one 1-D array of the N labels", ErrShape, shapes[0], shapes[1])}
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range []struct {
		name string
		data []byte
	}{{scoresNPY, s}, {labelsNPY, l}} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: zip.Store})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(m.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// readScores reads scores.npy of an .npz archive. An array of float32 or
// float64 is decoded straight from the archive into its slice, in chunks
// of 8,192 values (readFloats), so that the array as stored is not held
// beside it; any other dtype is read as readMember reads it. When limit
// (Reader.MemoryLimit, called once the array's header is read) returns a
// positive number of bytes, an array of more than an eighth of that many
// values is refused with ErrTooLarge before anything is set aside for it;
// so is, as damaged, one whose zip header announces more than the archive
// of archive bytes can hold (plausibleSize).
func readScores(zr *npz.Reader, archive int64, limit func() int64) (*npArray, error) {
	const name = scoresNPY
	unreadable := func(err error) error { return unreadableMember(name, err) }
	rc, err := zr.Open(name)
	if err != nil {
		return nil, unreadable(err)
	}
	defer rc.Close()
	br := bufio.NewReaderSize(rc, 1<<16)
	head, err := npyHead(br)
	if err != nil {
		return nil, unreadable(err)
	}
	h, start, err := npyHeader(name, head)
	if err != nil {
		return nil, err
	}
	dtype := strings.Trim(h.Descr.Type, `'"`)
	kind, size, ok := parseDtype(dtype)
	n, whole := numElems(h.Descr.Shape)
	if whole && limit != nil {
		if free, need := limit(), 8*float64(n); free > 0 && need > float64(free) {
			return nil, &Error{File: name, Err: fmt.Errorf("%w: its shape %s holds %s scores, %s as float64, more than the %s of memory free here; give the pilot's per-point summary instead (the SQL or NumPy recipe of docs/summary.md makes it), or run on a machine with more memory",
				ErrTooLarge, shapeString(h.Descr.Shape), limits.Thousands(n), limits.HumanBytes(need), limits.HumanBytes(float64(free)))}
		}
	}
	// stored is the member's size as its zip header gives it, kept only
	// when the data the archive holds for it could expand to that size
	// (plausibleSize), since the array is set aside at that size before
	// it is read
	stored := int64(-1)
	if st, known := rc.(interface{ Stat() (fs.FileInfo, error) }); known {
		if fi, err := st.Stat(); err == nil {
			stored = fi.Size()
			if fh, isZip := fi.Sys().(*zip.FileHeader); isZip && !plausibleSize(fh, archive) {
				return nil, &Error{File: name, Err: fmt.Errorf("%w: its zip header announces %s bytes, from %s bytes stored in an archive of %s bytes: more than that data can hold; the file is damaged: save the arrays again", ErrFormat,
					limits.Thousands(int(min(fh.UncompressedSize64, math.MaxInt64))), limits.Thousands(int(min(fh.CompressedSize64, math.MaxInt64))), limits.Thousands(int(archive)))}
			}
		}
	}
	if !ok || kind != 'f' || (size != 4 && size != 8) || !whole || len(h.Descr.Shape) != 2 || stored < 0 {
		// not a 2-D float32 or float64 array: read whole, for
		// decodeNPY's and assemble's checks and messages
		rest, err := io.ReadAll(br)
		if err != nil {
			return nil, unreadable(err)
		}
		return decodeNPY(name, append(head, rest...))
	}
	if hi, want := bits.Mul64(uint64(n), uint64(size)); hi != 0 || want != uint64(stored-int64(start)) {
		return nil, &Error{File: name, Err: fmt.Errorf("%w: the header announces shape %s of %s but the file holds %d bytes of data; save the array again", ErrFormat, shapeString(h.Descr.Shape), dtype, stored-int64(start))}
	}
	if start != len(head) {
		return nil, unreadable(errors.New("the header's length does not match its preamble"))
	}
	a := &npArray{name: name, shape: h.Descr.Shape, dtype: dtype, kind: kind}
	// the data is read in chunks straight into the array with
	// encoding/binary, which decodes a chunk in one call (npyio's
	// Reader goes value by value); the header was read with npyio
	var order binary.ByteOrder = binary.LittleEndian
	if dtype[0] == '>' {
		order = binary.BigEndian
	}
	if size == 8 {
		a.data, err = readFloats[float64](br, order, n)
	} else {
		a.data, err = readFloats[float32](br, order, n)
	}
	if err != nil {
		return nil, unreadable(err)
	}
	// reading on to the end has the zip reader check the member's checksum
	if _, err := br.ReadByte(); err != io.EOF {
		if err == nil {
			err = errors.New("data beyond the array")
		}
		return nil, unreadable(err)
	}
	if h.Descr.Fortran {
		a.data = toRowMajor(a.data, a.shape[0], a.shape[1])
	}
	return a, nil
}

// readFloats reads n values of type T in byte order order from r: 8,192
// at a time through one buffer, which binary.Decode turns into a slice of
// values in one call.
func readFloats[T float32 | float64](r io.Reader, order binary.ByteOrder, n int) ([]T, error) {
	const chunk = 1 << 13
	d := make([]T, n)
	width := binary.Size(T(0))
	buf := make([]byte, chunk*width)
	for i := 0; i < n; i += chunk {
		part := d[i:min(i+chunk, n)]
		b := buf[:len(part)*width]
		if _, err := io.ReadFull(r, b); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if _, err := binary.Decode(b, order, part); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// maxDeflateRatio bounds how many times its compressed size deflate can
// expand data: 1032 at most (a run of one byte), with room for headers.
const maxDeflateRatio = 1100

// plausibleSize reports whether the member fh of an archive of archive
// bytes could hold the size its header announces: its compressed data fits
// in the archive, and expands at most maxDeflateRatio times (stored data
// not at all).
func plausibleSize(fh *zip.FileHeader, archive int64) bool {
	if archive < 0 || fh.CompressedSize64 > uint64(archive) {
		return false
	}
	if fh.Method == zip.Store {
		return fh.UncompressedSize64 == fh.CompressedSize64
	}
	return fh.UncompressedSize64/maxDeflateRatio <= fh.CompressedSize64
}

// npyHead reads the magic, version, header length and header of an .npy
// stream, as npyPreamble reads them, and returns those bytes; a stream that
// is not an .npy or is cut short in them is returned as far as it goes, for
// npyPreamble's message.
func npyHead(br *bufio.Reader) ([]byte, error) {
	pre, err := br.Peek(12)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, err
	}
	n := len(pre)
	if len(pre) >= 10 && bytes.HasPrefix(pre, []byte(magicNPY)) {
		switch pre[6] {
		case 1:
			n = 10 + int(binary.LittleEndian.Uint16(pre[8:10]))
		case 2:
			if len(pre) >= 12 {
				n = 12 + int(binary.LittleEndian.Uint32(pre[8:12]))
			}
		}
	}
	// a version 2 header may announce up to 4 GB: read it, as
	// npyPreamble then checks it, but no more than the stream holds
	head, err := io.ReadAll(io.LimitReader(br, int64(n)))
	if err != nil {
		return nil, err
	}
	return head, nil
}

// readMember reads and decodes the array name of an .npz archive.
func readMember(zr *npz.Reader, name string) (*npArray, error) {
	rc, err := zr.Open(name)
	if err != nil {
		return nil, unreadableMember(name, err)
	}
	defer rc.Close()
	raw, err := readSized(rc)
	if err != nil {
		return nil, unreadableMember(name, err)
	}
	return decodeNPY(name, raw)
}

// unreadableMember is the error of the member name of an .npz that the zip
// reader cannot give (err: a damaged entry, a checksum that does not match).
func unreadableMember(name string, err error) error {
	return &Error{File: name, Err: fmt.Errorf("%w: it cannot be read from the zip archive (%v); save the arrays again", ErrFormat, err)}
}

// readSized reads all of an .npz member, into one buffer of the size its
// zip header gives when the reader knows it (archive/zip's reader does;
// up to maxPresize), so that a large array is not copied as the buffer
// grows; past that size, or if the header understates it, the buffer grows.
func readSized(rc io.Reader) ([]byte, error) {
	size := 0
	if f, ok := rc.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if st, err := f.Stat(); err == nil && st.Size() > 0 {
			size = int(min(st.Size(), maxPresize))
		}
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err := buf.ReadFrom(rc)
	return buf.Bytes(), err
}

// maxPresize bounds the buffer readSized sets aside before reading, whatever
// size a (possibly damaged) zip header announces.
const maxPresize = 1 << 30
