package scores

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// recordReader reads CSV records exactly as encoding/csv.Reader does with
// FieldsPerRecord = -1, LazyQuotes = false and TrimLeadingSpace = false (RFC
// 4180 quoting, "\r\n" read as "\n", empty lines skipped; FuzzParse checks
// the two agree, through compareRecords), but hands out fields as byte slices
// into its buffers instead of allocating a string per record: a record
// without quotes is split in place. It is hand-written for speed (see Parse).
type recordReader struct {
	br    *bufio.Reader
	delim byte
	// line counts the physical lines read so far; start is the line on which
	// the last record started.
	line, start int
	// names holds the column names for error messages (nil for the header).
	names []string

	lineBuf []byte   // a line longer than br's buffer
	recBuf  []byte   // the unescaped fields of a record with quotes
	ends    []int    // end offsets of those fields in recBuf
	fields  [][]byte // the record handed out
}

// read returns the next record's fields, valid until the next call; it
// returns io.EOF after the last record and *ParseError on malformed quoting.
func (r *recordReader) read() ([][]byte, error) {
	var line []byte
	var nl bool
	var err error
	for {
		line, nl, err = r.readLine()
		if err != nil {
			return nil, err
		}
		if len(line) > 0 {
			break
		}
	}
	r.start = r.line
	r.fields = r.fields[:0]
	if bytes.IndexByte(line, '"') < 0 {
		for {
			i := bytes.IndexByte(line, r.delim)
			if i < 0 {
				r.fields = append(r.fields, line)
				return r.fields, nil
			}
			r.fields = append(r.fields, line[:i])
			line = line[i+1:]
		}
	}
	return r.readQuoted(line, nl)
}

// readLine returns the next physical line without its line end ("\n" or
// "\r\n"; a "\r" just before the end of the input is dropped too) and whether
// a "\n" ended it. It returns io.EOF when no bytes are left.
func (r *recordReader) readLine() (line []byte, nl bool, err error) {
	line, err = r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		// A line longer than br's buffer: each chunk is checked for NUL bytes
		// (a binary file) before it is kept, and the line's length is capped.
		r.lineBuf = r.lineBuf[:0]
		for {
			if e := r.checkChunk(line, len(r.lineBuf)); e != nil {
				return nil, false, e
			}
			r.lineBuf = append(r.lineBuf, line...)
			if err != bufio.ErrBufferFull {
				break
			}
			line, err = r.br.ReadSlice('\n')
		}
		line = r.lineBuf
	}
	if len(line) == 0 {
		if err == nil {
			err = io.ErrNoProgress
		}
		return nil, false, err
	}
	if err != nil && err != io.EOF {
		return nil, false, &ParseError{Row: r.line + 1, Err: fmt.Errorf("reading the file: %w", err)}
	}
	r.line++
	n := len(line)
	if line[n-1] == '\n' {
		nl = true
		n--
		if n > 0 && line[n-1] == '\r' {
			n--
		}
	} else if line[n-1] == '\r' {
		n--
	}
	return line[:n], nl, nil
}

// MaxLineBytes is the longest line (or quoted record spanning lines) Parse
// accepts: 32 MiB holds a row of about a million scores, and the cap keeps a
// file without line ends from filling memory.
const MaxLineBytes = 32 << 20

// checkChunk rejects the next chunk of a long line (held bytes so far) when it
// holds a NUL byte, which no text CSV has, or when the line grows past
// MaxLineBytes.
func (r *recordReader) checkChunk(chunk []byte, held int) error {
	if bytes.IndexByte(chunk, 0) >= 0 {
		return errNUL(r.line + 1)
	}
	if held+len(chunk) > MaxLineBytes {
		return errLongLine(r.line + 1)
	}
	return nil
}

// readQuoted parses a record that holds at least one quote, starting with
// line (whose end was a newline when nl), reading more lines while a quoted
// field spans them.
func (r *recordReader) readQuoted(line []byte, nl bool) ([][]byte, error) {
	r.recBuf = r.recBuf[:0]
	r.ends = r.ends[:0]
	var err error
fields:
	for field := 0; ; field++ {
		if len(line) == 0 || line[0] != '"' {
			f := line
			i := bytes.IndexByte(line, r.delim)
			if i >= 0 {
				f = line[:i]
			}
			if bytes.IndexByte(f, '"') >= 0 {
				return nil, r.quoteError(field, `a quote (") inside a field that does not start with one; quote the whole field and double the quotes inside it`)
			}
			r.recBuf = append(r.recBuf, f...)
			r.ends = append(r.ends, len(r.recBuf))
			if i < 0 {
				break fields
			}
			line = line[i+1:]
			continue fields
		}
		line = line[1:] // the opening quote
		for {
			i := bytes.IndexByte(line, '"')
			if i < 0 {
				// The quoted field goes on past the end of this line.
				r.recBuf = append(r.recBuf, line...)
				if !nl {
					return nil, r.quoteError(field, "a quoted field is not closed before the end of the file; add the closing quote")
				}
				r.recBuf = append(r.recBuf, '\n')
				if len(r.recBuf) > MaxLineBytes {
					return nil, r.quoteError(field, fmt.Sprintf("a quoted field runs on for more than %d MiB; add the closing quote", MaxLineBytes>>20))
				}
				line, nl, err = r.readLine()
				if err == io.EOF {
					return nil, r.quoteError(field, "a quoted field is not closed before the end of the file; add the closing quote")
				}
				if err != nil {
					return nil, err
				}
				continue
			}
			r.recBuf = append(r.recBuf, line[:i]...)
			line = line[i+1:]
			switch {
			case len(line) > 0 && line[0] == '"': // "" is one quote
				r.recBuf = append(r.recBuf, '"')
				line = line[1:]
			case len(line) > 0 && line[0] == r.delim:
				r.ends = append(r.ends, len(r.recBuf))
				line = line[1:]
				continue fields
			case len(line) == 0:
				r.ends = append(r.ends, len(r.recBuf))
				break fields
			default:
				return nil, r.quoteError(field, `a closing quote is followed by more text; double a quote that belongs to the field ("")`)
			}
		}
	}
	begin := 0
	for _, end := range r.ends {
		r.fields = append(r.fields, r.recBuf[begin:end])
		begin = end
	}
	return r.fields, nil
}

// quoteError describes malformed quoting in field number field (0-based) of
// the current record.
func (r *recordReader) quoteError(field int, what string) error {
	e := &ParseError{Row: r.start}
	where := ""
	if field < len(r.names) {
		e.Column = r.names[field]
	} else {
		where = fmt.Sprintf(" in field %d", field+1)
	}
	if r.line != r.start {
		where += fmt.Sprintf(" (found on line %d)", r.line)
	}
	e.Err = fmt.Errorf("%w: %s%s", ErrMalformed, what, where)
	return e
}
