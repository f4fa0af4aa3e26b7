package parquetjob_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/inputs/parquetfile"
	"github.com/cleanex/cleanex/internal/parquetjob"
	"github.com/cleanex/cleanex/internal/scores"
)

func testdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "inputs", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func gz(b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}

// head is what the page gives Wants: the first scores.SniffBytes bytes.
func head(b []byte) []byte { return b[:min(len(b), scores.SniffBytes)] }

// TestWants: Parquet files, plain or gzip-compressed, go to the Parquet
// worker; every other format stays with the compute workers.
func TestWants(t *testing.T) {
	long, wide := testdata(t, "tiny_long.parquet"), testdata(t, "tiny_wide.parquet")
	// A Parquet file followed by bytes that do not compress: the head of
	// its gzip is a cut stream.
	noise := make([]byte, 2*scores.SniffBytes)
	rand.NewChaCha8([32]byte{1}).Read(noise)
	big := gz(append(bytes.Clone(wide), noise...))
	for name, tc := range map[string]struct {
		file []byte
		want bool
	}{
		"long parquet":         {long, true},
		"wide parquet":         {wide, true},
		"parquet.gz":           {gz(long), true},
		"a large parquet.gz":   {big, true},
		"csv":                  {testdata(t, "tiny.csv"), false},
		"csv.gz":               {testdata(t, "tiny.csv.gz"), false},
		"npz":                  {testdata(t, "tiny.npz"), false},
		"npz.gz":               {gz(testdata(t, "tiny.npz")), false},
		"npy":                  {testdata(t, "tiny_scores.npy"), false},
		"empty":                {nil, false},
		"a gzip header only":   {gz(long)[:10], false},
		"PAR in a gzip":        {gz([]byte("PAR")), false},
		"a NUL byte":           {[]byte("label,a\x00"), false},
		"PAR1 as a CSV's text": {[]byte("label,PAR1\n"), false},
	} {
		if got := parquetjob.Wants(head(tc.file)); got != tc.want {
			t.Errorf("%s: Wants = %v, want %v", name, got, tc.want)
		}
	}
	if len(big) <= scores.SniffBytes {
		t.Fatalf("the large parquet.gz has %d bytes; its head must be cut", len(big))
	}
}

// TestAnswer: the worker's answer to a Parquet file is the CSV of its
// matrix; to a malformed one the native reader's message, on one line; and
// ParseReply reads both, and Ready.
func TestAnswer(t *testing.T) {
	ready, csv, err := parquetjob.ParseReply(parquetjob.Ready())
	if !ready || csv != nil || err != nil {
		t.Errorf("Ready reads as %v, %q, %v", ready, csv, err)
	}
	file := testdata(t, "tiny_long.parquet")
	want, err := parquetfile.Decode(file)
	if err != nil {
		t.Fatal(err)
	}
	answer := parquetjob.Answer(file, parquetfile.WriteCSV)
	ready, csv, err = parquetjob.ParseReply(answer)
	if ready || err != nil || !bytes.Equal(csv, answer) {
		t.Fatalf("the answer reads as ready %v, error %v", ready, err)
	}
	d, err := inputs.Read(bytes.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	scores.WriteCSV(&a, d.Matrix)
	scores.WriteCSV(&b, want)
	if a.String() != b.String() {
		t.Errorf("the CSV reads as\n%s\nwant\n%s", a.String(), b.String())
	}

	bad := file[:len(file)-20]
	_, native := inputs.Reader{Parquet: parquetfile.Decoder{}}.Read(bytes.NewReader(bad))
	ready, csv, err = parquetjob.ParseReply(parquetjob.Answer(bad, parquetfile.WriteCSV))
	if ready || csv != nil || err == nil || native == nil || err.Error() != native.Error() {
		t.Errorf("a damaged file: %v, %q, %v; want the error %v", ready, csv, err, native)
	}
	_, _, err = parquetjob.ParseReply(parquetjob.Failed(errors.New("two\nlines")))
	if err == nil || err.Error() != "two lines" {
		t.Errorf("a two-line error reads as %v", err)
	}
	if !parquetjob.IsCSV(answer[0]) || parquetjob.IsCSV(parquetjob.Ready()[0]) || parquetjob.IsCSV(parquetjob.Failed(errors.New("x"))[0]) {
		t.Error("IsCSV does not tell the CSV from the other messages")
	}
	for _, msg := range [][]byte{nil, {'R', 0}, {'E'}, {'X', 1}} {
		if _, _, err := parquetjob.ParseReply(msg); !errors.Is(err, parquetjob.ErrMalformed) {
			t.Errorf("%q reads as %v, want ErrMalformed", msg, err)
		}
	}
	// An error of convert after it wrote part of the CSV: the error only.
	half := func(w io.Writer, _ []byte) error { w.Write([]byte("label,a")); return errors.New("broken") }
	if _, csv, err := parquetjob.ParseReply(parquetjob.Answer(file, half)); csv != nil || err == nil || err.Error() != "broken" {
		t.Errorf("a failed conversion reads as %q, %v", csv, err)
	}
	headless := func(w io.Writer, _ []byte) error { w.Write([]byte("a,b\n")); return nil }
	if _, csv, err := parquetjob.ParseReply(parquetjob.Answer(file, headless)); csv != nil || err == nil {
		t.Errorf("a CSV without its header reads as %q, %v", csv, err)
	}
}

// TestPageLeavesParquetOut: the page (wasm/app) and its compute worker
// (wasm/worker) do not link parquet-go, which is most of a binary that has
// it; only the Parquet worker (wasm/parquet) does.
func TestPageLeavesParquetOut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	for pkg, want := range map[string]bool{"./wasm/app": false, "./wasm/worker": false, "./wasm/parquet": true} {
		cmd := exec.Command(goBin, "list", "-deps", pkg)
		cmd.Dir = filepath.Join("..", "..")
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		if got := strings.Contains(string(out), "github.com/parquet-go/parquet-go\n"); got != want {
			t.Errorf("%s links parquet-go: %v, want %v", pkg, got, want)
		}
	}
}
