package scores

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"
)

// TestSniff: a CSV (with or without a BOM) passes; compressed files and
// archives are named with what to do; NUL bytes (binary, UTF-16) get the
// message Parse gives for a long line of them.
func TestSniff(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("label,a,b\na,1,2\n"))
	zw.Close()
	for _, tc := range []struct {
		name, head, want string // want "" when accepted
	}{
		{"csv", "label,a,b\na,1,2\n", ""},
		{"bom", "\xef\xbb\xbflabel,a,b\n", ""},
		{"starts like bzip2", "BZh,a\nBZh,1\n", ""},
		{"empty", "", ""},
		{"gzip", gz.String(), "row 1: not valid UTF-8 text: this is a gzip-compressed file; decompress it (gunzip) and give the CSV inside"},
		{"zip", "PK\x03\x04\x14\x00", "this is a zip archive or an Excel .xlsx workbook"},
		{"xls", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00", "this is an old Excel .xls workbook"},
		{"bzip2", "BZh91AY&SY\x01", "this is a bzip2-compressed file"},
		{"xz", "\xfd7zXZ\x00\x00", "this is an xz-compressed file"},
		{"zstd", "\x28\xb5\x2f\xfd\x04", "this is a zstd-compressed file"},
		{"png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "row 1: not valid UTF-8 text: this is a PNG image, not a table of scores"},
		{"jpeg", "\xff\xd8\xff\xe0\x00\x10JFIF", "this is a JPEG image"},
		{"gif", "GIF89a\x01\x00", "this is a GIF image"},
		{"pdf", "%PDF-1.7\n%\xe2\xe3", "this is a PDF document"},
		{"zeros", "\x00\x00\x00\x00", "row 1: not valid UTF-8 text: the file holds NUL bytes (a binary, compressed or UTF-16 file?); give a UTF-8 CSV of scores"},
		{"utf-16", "\xff\xfel\x00a\x00b\x00", "the file holds NUL bytes"},
		{"NUL late", "label,a,b\n" + strings.Repeat("a,1,2\n", 1000) + "\x00", "the file holds NUL bytes"},
	} {
		err := Sniff([]byte(tc.head))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want nil", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrEncoding)):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// JSON is refused as such; a session the page saved says where it opens.
	for _, tc := range []struct {
		name, head, want string // want "" when accepted
	}{
		{"session", "{\n  \"version\": 1,\n  \"source\": \"pilot.csv\",\n  \"k2\": 1000,\n  \"curves_csv\": \"k,observed\\n\"\n}\n",
			`row 1: not a table of scores: this is a session saved by the page (JSON), which holds settings and results but not the scores; open it with "Open session…" under the results`},
		{"json object", "\xef\xbb\xbf {\"scores\": [[0.1, 0.9]], \"labels\": [1]}", "row 1: not a table of scores: this is a JSON file; give the scores as a CSV"},
		{"json array", "[\n  {\"label\": \"a\", \"a\": 1, \"b\": 2}\n]", "row 1: not a table of scores: this is a JSON file"},
		{"header in brackets", "[label],a,b\na,1,2\n", ""},
		{"header in braces", "{label},a,b\na,1,2\n", ""},
	} {
		err := Sniff([]byte(tc.head))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want nil", tc.name, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, ErrNotTable)):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// The NUL message is Parse's for a long line of NUL bytes.
	_, perr := Parse(bytes.NewReader(make([]byte, 1<<17)))
	if serr := Sniff(make([]byte, 16)); perr == nil || serr.Error() != perr.Error() {
		t.Errorf("Sniff says %v, Parse says %v", serr, perr)
	}
}
