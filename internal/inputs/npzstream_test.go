package inputs_test

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/scores"
)

// onlyReader hides every method of r but Read, as a pipe or standard input
// offers: the .npz is then read whole before it is decoded.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// An .npz gives the same matrix read from a file, from an in-memory buffer
// (both read in place), from a reader that is neither, and gzip-compressed,
// for float64, float32, big-endian and Fortran-order scores.
func TestNumPySources(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		s    []byte
	}{
		{"float64", goodScores},
		{"float32", npyRaw("<f4", false, "(4, 3)", le(float32(0.9), float32(0.1), float32(0.2), float32(0.4), float32(0.5), float32(0.1), float32(0.2), float32(0.8), float32(0.3), float32(0.1), float32(0.2), float32(0.7)))},
		{"Fortran order", npyRaw("<f8", true, "(4, 3)", le(0.9, 0.4, 0.2, 0.1, 0.1, 0.5, 0.8, 0.2, 0.2, 0.1, 0.3, 0.7))},
	} {
		b := pilotNPZ(tc.s, goodLabels, goodClasses)
		want, err := inputs.Read(onlyReader{bytes.NewReader(b)})
		if err != nil {
			t.Fatalf("%s, read whole: %v", tc.name, err)
		}
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".npz")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		fromFile, err := inputs.Read(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s, from a file: %v", tc.name, err)
		}
		sameMatrix(t, tc.name+", from a file", fromFile.Matrix, want.Matrix, exact)
		fromBuffer, err := inputs.Read(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s, from a buffer: %v", tc.name, err)
		}
		sameMatrix(t, tc.name+", from a buffer", fromBuffer.Matrix, want.Matrix, exact)
		fromGzip, err := inputs.Read(bytes.NewReader(gz(t, b)))
		if err != nil {
			t.Fatalf("%s, gzip-compressed: %v", tc.name, err)
		}
		sameMatrix(t, tc.name+", gzip-compressed", fromGzip.Matrix, want.Matrix, exact)
	}
}

// storedNPZ is an .npz of the scores and labels arrays written uncompressed
// (zip's Store method), so that a byte of its data can be changed in place.
func storedNPZ(t testing.TB, s, l []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range []struct {
		name string
		data []byte
	}{{"scores.npy", s}, {"labels.npy", l}} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(m.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A byte of the scores changed after the archive was written (its checksum
// no longer matches) is refused as damaged, not read as a different score.
func TestNumPyScoresChecksum(t *testing.T) {
	b := storedNPZ(t, goodScores, goodLabels)
	if _, err := inputs.Read(bytes.NewReader(b)); err != nil {
		t.Fatalf("the archive as written: %v", err)
	}
	// the last byte of the last score: the sign and exponent of 0.7
	at := bytes.Index(b, goodScores) + len(goodScores) - 1
	b[at] ^= 0x01
	scoresRefused(t, b, "a changed score", "cannot be read from the zip archive")
}

// scoresRefused checks that the .npz b is refused with a message that names
// scores.npy and says want.
func scoresRefused(t *testing.T, b []byte, what, want string) {
	t.Helper()
	_, err := inputs.Read(bytes.NewReader(b))
	if err == nil || !strings.Contains(err.Error(), "scores.npy: ") || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: %v, want scores.npy refused: %q", what, err, want)
	}
}

// BenchmarkReadNPZ reads an .npz of 2,000 points x 500 classes from memory
// and reports the bytes allocated per score (B/score): about 8 when float64
// scores are decoded straight into the matrix, 12 for float32 (the array
// as stored, then the float64 matrix).
func BenchmarkReadNPZ(b *testing.B) {
	const n, k = 2000, 500
	rng := rand.New(rand.NewPCG(1, 2))
	f64 := make([]byte, 0, 8*n*k)
	f32 := make([]byte, 0, 4*n*k)
	for range n * k {
		v := rng.NormFloat64()
		f64 = binary.LittleEndian.AppendUint64(f64, math.Float64bits(v))
		f32 = binary.LittleEndian.AppendUint32(f32, math.Float32bits(float32(v)))
	}
	labels := make([]byte, 0, 8*n)
	for i := range n {
		labels = binary.LittleEndian.AppendUint64(labels, uint64(i%k))
	}
	l := npyRaw("<i8", false, "(2000,)", labels)
	for _, bc := range []struct {
		name string
		s    []byte
	}{
		{"float64", npyRaw("<f8", false, "(2000, 500)", f64)},
		{"float32", npyRaw("<f4", false, "(2000, 500)", f32)},
	} {
		data := storedNPZ(b, bc.s, l)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			runs := 0
			for b.Loop() {
				if _, err := inputs.Read(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
				runs++
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(runs)/(n*k), "B/score")
		})
	}
}

// A Reader with a MemoryLimit refuses an .npz whose scores would take more
// than it as float64, naming the array, its shape and both sizes, and reads
// one that fits exactly.
func TestNumPyMemoryLimit(t *testing.T) {
	b := pilotNPZ(goodScores, goodLabels, goodClasses) // 4 x 3 scores: 96 bytes
	_, err := inputs.Reader{MemoryLimit: func() int64 { return 95 }}.Read(bytes.NewReader(b))
	if !errors.Is(err, inputs.ErrTooLarge) {
		t.Fatalf("limit 95 bytes: %v, want ErrTooLarge", err)
	}
	for _, want := range []string{"scores.npy: ", "(4, 3)", "12 scores", "96 B as float64", "95 B of memory free"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("limit 95 bytes: %q does not say %q", err, want)
		}
	}
	if _, err := (inputs.Reader{MemoryLimit: func() int64 { return 96 }}).Read(bytes.NewReader(b)); err != nil {
		t.Errorf("limit 96 bytes: %v", err)
	}
}

// TakeSample gives the Sample Sample gives and leaves the matrix without
// its scores, its classes kept.
func TestTakeSample(t *testing.T) {
	read := func() *inputs.Data {
		d, err := inputs.Read(bytes.NewReader(pilotNPZ(goodScores, goodLabels, goodClasses)))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	want, wantDir, err := read().Sample(scores.Auto)
	if err != nil {
		t.Fatal(err)
	}
	d := read()
	got, gotDir, err := d.TakeSample(scores.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if gotDir != wantDir || !slices.Equal(got.Observed, want.Observed) || !slices.Equal(got.R, want.R) || !slices.Equal(got.Incorrect, want.Incorrect) {
		t.Errorf("TakeSample: direction %v, observed %v; Sample: %v, %v", gotDir, got.Observed, wantDir, want.Observed)
	}
	if d.Matrix.Scores != nil || !slices.Equal(d.Matrix.Classes, []string{"a", "b", "c"}) {
		t.Errorf("after TakeSample: %d scores, classes %q", len(d.Matrix.Scores), d.Matrix.Classes)
	}
}

// A zip header that announces more data for scores.npy than the archive
// can hold (here 2 GB from a few hundred stored bytes) is refused as damaged before
// anything of that size is set aside.
func TestNumPyImplausibleSize(t *testing.T) {
	b := storedNPZ(t, goodScores, goodLabels)
	// the central directory's entry for scores.npy: its uncompressed size
	// is 24 bytes after the entry's signature
	at := bytes.Index(b, []byte("PK\x01\x02"))
	if at < 0 || !bytes.HasPrefix(b[at+46:], []byte("scores.npy")) {
		t.Fatal("no central directory entry for scores.npy first")
	}
	binary.LittleEndian.PutUint32(b[at+24:], 2_000_000_000)
	scoresRefused(t, b, "2 GB announced", "more than that data can hold")
}

// Scores of more values than one read chunk (8,192), in a number that is
// not a multiple of it, give back every value exactly for each byte order
// and width: 211 points x 97 classes = 20,467 scores, each encoded here with
// encoding/binary.Write value by value.
func TestNumPyScoresManyChunks(t *testing.T) {
	const n, k = 211, 97
	rng := rand.New(rand.NewPCG(3, 4))
	want := &scores.Matrix{Classes: make([]string, k), Labels: make([]int, n), Scores: make([]float64, n*k)}
	for j := range k {
		want.Classes[j] = strconv.Itoa(j)
	}
	labels := make([]int64, n)
	for i := range n {
		want.Labels[i] = i % k
		labels[i] = int64(i % k)
	}
	for x := range want.Scores {
		want.Scores[x] = rng.NormFloat64()
	}
	for _, tc := range []struct {
		dtype string
		order binary.ByteOrder
		conv  func(float64) float64
	}{
		{"<f8", binary.LittleEndian, exact},
		{">f8", binary.BigEndian, exact},
		{"<f4", binary.LittleEndian, viaFloat32},
		{">f4", binary.BigEndian, viaFloat32},
	} {
		var b bytes.Buffer
		for _, v := range want.Scores {
			if tc.dtype[2] == '8' {
				binary.Write(&b, tc.order, v)
			} else {
				binary.Write(&b, tc.order, float32(v))
			}
		}
		s := npyRaw(tc.dtype, false, fmt.Sprintf("(%d, %d)", n, k), b.Bytes())
		d, err := inputs.Read(bytes.NewReader(storedNPZ(t, s, npyRaw("<i8", false, fmt.Sprintf("(%d,)", n), le(labels)))))
		if err != nil {
			t.Fatalf("%s: %v", tc.dtype, err)
		}
		sameMatrix(t, tc.dtype, d.Matrix, want, tc.conv)
	}
}
