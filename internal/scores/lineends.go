package scores

import (
	"bufio"
	"bytes"
	"io"
)

// loneCR reports whether the start of br (up to its buffer size) ends its
// lines with a lone carriage return, as old Mac OS programs write: it holds a
// "\r" and no "\n". A "\r" that is the last byte of a full buffer does not
// count: the "\n" of a CRLF may come next.
func loneCR(br *bufio.Reader) bool {
	b, err := br.Peek(br.Size())
	if err == nil && len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return bytes.IndexByte(b, '\n') < 0 && bytes.IndexByte(b, '\r') >= 0
}

// crToLF reads r with every "\r" turned into "\n", so a file whose lines end
// with a lone carriage return reads like one with line feeds.
type crToLF struct{ r io.Reader }

// Read reads from the underlying reader and replaces "\r" by "\n".
func (c crToLF) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i := range p[:n] {
		if p[i] == '\r' {
			p[i] = '\n'
		}
	}
	return n, err
}

// excelSep recognises the first line "sep=X" that Excel writes (and reads)
// to name the delimiter X: it consumes that line and returns X.
func excelSep(br *bufio.Reader) (byte, bool) {
	b, _ := br.Peek(8)
	if len(b) < 5 || !bytes.EqualFold(b[:4], []byte("sep=")) {
		return 0, false
	}
	d := b[4]
	rest := b[5:]
	switch {
	case d == '"' || d == '\n' || d == '\r':
		return 0, false
	case len(rest) > 0 && rest[0] == '\n':
		br.Discard(6)
	case len(rest) > 1 && rest[0] == '\r' && rest[1] == '\n':
		br.Discard(7)
	case len(rest) == 0:
		br.Discard(5)
	default:
		return 0, false
	}
	return d, true
}
