package inputs

import (
	"errors"
	"strconv"
	"strings"
)

// Error is an input error in a NumPy or Parquet file: what is wrong (Err,
// which says what to do) and where. It reads like
// `scores.npy: point 17, class 3 ("cat"): not a finite number: NaN; ...` or
// `row 1234 (point "p5", class "c3"): ...`.
type Error struct {
	// File names the part of the input, such as "scores.npy" in an .npz;
	// "" for a whole file.
	File string
	// At is the place within it: `point 17, class 3 ("cat")`,
	// `row 1234 (point "p5", class "c3")`, `column "score"`; "" when the
	// error concerns the whole part.
	At string
	// Err is the cause.
	Err error
}

// Error joins the non-empty parts with ": ".
func (e *Error) Error() string {
	var parts []string
	for _, s := range []string{e.File, e.At} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	cause := "invalid input"
	if e.Err != nil {
		cause = e.Err.Error()
	}
	return strings.Join(append(parts, cause), ": ")
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// The causes an *Error wraps besides those of package scores
// (scores.ErrNotFinite, scores.ErrUnknown, scores.ErrNoPoints,
// scores.ErrFewClasses, scores.ErrNoData, scores.ErrDuplicate,
// scores.ErrEmptyCell, scores.ErrEncoding, scores.ErrEmptyHeader).
var (
	// ErrFormat: the file is damaged or not of the format its first bytes
	// announce.
	ErrFormat = errors.New("unreadable file")
	// ErrShape: an array has the wrong number of dimensions or length.
	ErrShape = errors.New("wrong shape")
	// ErrType: an array or column holds values of the wrong type.
	ErrType = errors.New("wrong type")
	// ErrMissing: a required array, column or (point, class) pair is absent.
	ErrMissing = errors.New("missing")
	// ErrConflict: two parts of the file disagree, such as two labels for
	// one point or two rows for one (point, class) pair.
	ErrConflict = errors.New("conflicting values")
	// ErrTooLarge: the scores would not fit in the memory the reader may
	// use (Reader.MemoryLimit).
	ErrTooLarge = errors.New("too large for the memory available")
)

// clip shortens a name or value quoted in a message to 40 bytes.
func clip(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strings.ToValidUTF8(s, "?")
}

// quoted returns clip(s) in Go double quotes.
func quoted(s string) string { return strconv.Quote(clip(s)) }

// quoteList quotes the first 10 names and counts the others.
func quoteList(names []string) string {
	n := min(len(names), 10)
	q := make([]string, n)
	for i := range n {
		q[i] = quoted(names[i])
	}
	s := strings.Join(q, ", ")
	if len(names) > n {
		s += " and " + strconv.Itoa(len(names)-n) + " more"
	}
	return s
}
