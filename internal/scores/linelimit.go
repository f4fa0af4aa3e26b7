package scores

import (
	"bytes"
	"fmt"
	"io"
)

// LineLimit reads R and fails once a line runs past MaxLineBytes without a
// line end, with the *ParseError Parse gives for such a line, so that a
// reader built on another CSV parser (encoding/csv) cannot be made to fill
// memory by a file without line ends either. The error is also kept in Err,
// since such parsers report a reader's error wrapped in their own.
type LineLimit struct {
	// R is the underlying reader.
	R io.Reader
	// Err is the error of the first line found too long (nil until then).
	Err *ParseError
	// Lines counts the line ends read so far.
	Lines int
	run   int // bytes since the last line end
}

// Read reads from R and tracks the length of the current line.
func (l *LineLimit) Read(p []byte) (int, error) {
	if l.Err != nil {
		return 0, l.Err
	}
	n, err := l.R.Read(p)
	b := p[:n]
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		l.Lines += bytes.Count(b, []byte{'\n'})
		l.run = n - 1 - i
	} else {
		l.run += n
	}
	if l.run > MaxLineBytes {
		l.Err = errLongLine(l.Lines + 1)
		return 0, l.Err
	}
	return n, err
}

// errLongLine is the error of a line, on the given row, longer than
// MaxLineBytes.
func errLongLine(row int) *ParseError {
	return &ParseError{Row: row, Err: fmt.Errorf("%w: a line longer than %d MiB without a line end; is this a CSV file? Rows end with a line break (LF or CRLF)", ErrMalformed, MaxLineBytes>>20)}
}
