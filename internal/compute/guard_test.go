package compute

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/inputs/parquetfile"
	"github.com/cleanex/cleanex/internal/protocol"
)

// TestRunRefusals: a run the worker cannot do ends with one Error message
// giving the command line's reason: k2 out of range, a method that cannot
// run on the pilot, a binary file; the data set stays loaded for the next run.
func TestRunRefusals(t *testing.T) {
	two := "label,a,b\na,.9,.1\nb,.2,.8\na,.6,.4\nb,.3,.1\n"
	s := newCollector()
	srv := NewServer(s.post, Options{})
	srv.Handle(protocol.Load{Dataset: 1, CSV: []byte(small), Direction: "auto"})
	srv.Handle(protocol.Load{Dataset: 2, CSV: []byte(two), Direction: "auto"})
	for i, tc := range []struct {
		run  protocol.Run
		want string
	}{
		{protocol.Run{Dataset: 1, Method: "plugin", K2: 1_000_000_000_000}, "plugin: k2 1000000000000: too large: the largest k2 accepted is 10,000,000 classes; at 1000000000000 a run would need ~270 TB of memory (~2.7 GB at the limit)"},
		{protocol.Run{Dataset: 1, Method: "plugin", K2: 1}, "plugin: k2 1: give the number of classes to predict for, at least 2"},
		{protocol.Run{Dataset: 2, Method: "regression", K2: 10}, "regression: regression needs a pilot of at least 3 classes, this one has 2"},
		{protocol.Run{Dataset: 2, Method: "plugin", K2: 10}, ""},
		{protocol.Run{Dataset: 1, Method: "plugin", K2: 10}, ""},
	} {
		tc.run.Run = uint64(10 + i)
		srv.Handle(tc.run)
		m := s.wait(t, protocol.KindResult)
		e, failed := m.(protocol.Error)
		switch {
		case tc.want == "" && failed:
			t.Errorf("%+v: %s", tc.run, e.Message)
		case tc.want != "" && (!failed || e.Message != tc.want):
			t.Errorf("%+v: got %#v, want the error %q", tc.run, m, tc.want)
		}
	}
}

// TestLoadBinary: a binary file that is no pilot is refused from its first
// bytes with the command line's message, a damaged gzip file with one line
// saying what to do.
func TestLoadBinary(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"\x1f\x8b\x08\x00label", "unreadable file: the gzip header cannot be read (unexpected EOF); compress the file again"},
		{"BZh91AY&SY\x01", "row 1: not valid UTF-8 text: this is a bzip2-compressed file; decompress it (bunzip2) and give the CSV inside"},
		{string(make([]byte, 1<<20)), "row 1: not valid UTF-8 text: the file holds NUL bytes (a binary, compressed or UTF-16 file?); give a UTF-8 CSV of scores"},
	} {
		if _, _, err := Load([]byte(tc.in), "auto"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%.10q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

// readTestdata reads a file of internal/inputs/testdata (the tiny pilot in
// every format).
func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "inputs", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLoadFormats: the tiny pilot as CSV, gzip-compressed CSV and TSV, .npz
// and Parquet (long and wide, converted to CSV first as the page does)
// loads to the same summary, bit for bit; Parquet itself is refused.
func TestLoadFormats(t *testing.T) {
	_, want, err := Load(readTestdata(t, "tiny.csv"), "auto")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"tiny.tsv.gz", "tiny.csv.gz", "tiny.npz", "tiny_long.parquet", "tiny_wide.parquet"} {
		data := readTestdata(t, name)
		if strings.HasSuffix(name, ".parquet") {
			if _, _, err := Load(data, "auto"); !errors.Is(err, inputs.ErrNoParquet) {
				t.Errorf("%s: %v, want inputs.ErrNoParquet", name, err)
			}
			var csv bytes.Buffer
			if err := parquetfile.WriteCSV(&csv, data); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			data = csv.Bytes()
		}
		_, got, err := Load(data, "auto")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got.Seconds, want.Seconds = 0, 0
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: summary %+v\nwant %+v", name, got, want)
		}
	}
}
