package scores

import (
	"bytes"
	"fmt"
)

// SniffBytes is how much of the start of a file Sniff needs to see.
const SniffBytes = 64 << 10

// magics are the first bytes of file formats that are often given instead of
// a CSV, with what to do instead.
var magics = []struct {
	prefix, what string
}{
	{"\x1f\x8b", "a gzip-compressed file; decompress it (gunzip) and give the CSV inside"},
	{"PK\x03\x04", "a zip archive or an Excel .xlsx workbook; extract the CSV, or save the sheet as CSV UTF-8"},
	{"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Excel .xls workbook; save the sheet as CSV UTF-8"},
	{"BZh", "a bzip2-compressed file; decompress it (bunzip2) and give the CSV inside"},
	{"\xfd7zXZ\x00", "an xz-compressed file; decompress it (unxz) and give the CSV inside"},
	{"\x28\xb5\x2f\xfd", "a zstd-compressed file; decompress it (unzstd) and give the CSV inside"},
	{"\x89PNG\r\n\x1a\n", "a PNG image, not a table of scores; give the CSV of your classifier's scores"},
	{"\xff\xd8\xff", "a JPEG image, not a table of scores; give the CSV of your classifier's scores"},
	{"GIF8", "a GIF image, not a table of scores; give the CSV of your classifier's scores"},
	{"%PDF-", "a PDF document, not a table of scores; give the CSV of your classifier's scores"},
}

// Sniff refuses the start of a file (its first SniffBytes bytes, or all of a
// shorter file) that cannot be a CSV of scores: a compressed file or archive
// recognised by its first bytes, or bytes holding NUL, which no UTF-8 text
// has (a binary or UTF-16 file), or JSON (a session the page saved, or any
// other). It needs only the start, so a caller can refuse a large binary
// file before reading all of it. The errors are *ParseError on row 1
// wrapping ErrEncoding, or ErrNotTable for JSON; the NUL message is the one
// Parse gives for a long line holding NUL bytes.
func Sniff(head []byte) error {
	for _, m := range magics {
		if !bytes.HasPrefix(head, []byte(m.prefix)) {
			continue
		}
		if m.prefix == "BZh" && !bytes.HasPrefix(head[min(len(head), 4):], []byte("1AY&SY")) {
			continue // bzip2 is "BZh", a block size digit, then the block magic
		}
		return &ParseError{Row: 1, Err: fmt.Errorf("%w: this is %s", ErrEncoding, m.what)}
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return errNUL(1)
	}
	if isJSON(head) {
		what := "a JSON file; give the scores as a CSV (a header row label,cat,dog,… naming the classes, then one row per test point), an .npz or a Parquet file"
		if bytes.Contains(head, []byte(`"curves_csv"`)) {
			what = "a session saved by the page (JSON), which holds settings and results but not the scores; open it with \"Open session…\" under the results, or give the pilot's score file"
		}
		return &ParseError{Row: 1, Err: fmt.Errorf("%w: this is %s", ErrNotTable, what)}
	}
	return nil
}

// isJSON reports whether head, after an optional byte-order mark and white
// space, starts as a JSON object or array does ({", [{, [[ or [" with white
// space between), which no CSV header does.
func isJSON(head []byte) bool {
	b := bytes.TrimLeft(bytes.TrimPrefix(head, []byte(bom)), " \t\r\n")
	if len(b) == 0 || b[0] != '{' && b[0] != '[' {
		return false
	}
	rest := bytes.TrimLeft(b[1:], " \t\r\n")
	if len(rest) == 0 {
		return false
	}
	if b[0] == '{' {
		return rest[0] == '"' || rest[0] == '}'
	}
	return rest[0] == '{' || rest[0] == '[' || rest[0] == '"'
}

// errNUL is the error of a file holding NUL bytes, found on the given row.
func errNUL(row int) error {
	return &ParseError{Row: row, Err: fmt.Errorf("%w: the file holds NUL bytes (a binary, compressed or UTF-16 file?); give a UTF-8 CSV of scores", ErrEncoding)}
}
