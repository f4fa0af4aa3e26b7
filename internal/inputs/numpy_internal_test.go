package inputs

import (
	"archive/zip"
	"bytes"
	"testing"
)

// readSized returns a zip member's bytes in one buffer of the size its
// header gives (no regrowth: capacity size + bytes.MinRead), and all the
// bytes of a reader that gives no size.
func TestReadSized(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 40_000)
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	w, err := zw.Create("scores.npy")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(z.Bytes()), int64(z.Len()))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	got, err := readSized(rc)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("zip member: %d bytes (%v), want the %d written", len(got), err, len(data))
	}
	if cap(got) != len(data)+bytes.MinRead {
		t.Errorf("zip member of %d bytes read into a buffer of capacity %d, want %d", len(data), cap(got), len(data)+bytes.MinRead)
	}
	if got, err := readSized(bytes.NewReader(data)); err != nil || !bytes.Equal(got, data) {
		t.Errorf("a reader without a size: %d bytes (%v), want %d", len(got), err, len(data))
	}
}
