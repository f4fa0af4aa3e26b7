//go:build js && wasm

package jsdom

import (
	"fmt"
	"io"

	"github.com/hack-pad/safejs"
)

// BlobChunk is how many bytes a BlobReader reads from its File or Blob at
// a time.
const BlobChunk = 4 << 20

// BlobReader reads a File or Blob as an io.Reader, piece by piece
// (blob.slice(a, b).arrayBuffer()), one piece ahead: while the caller
// works on one piece, the browser reads the next. Only the current piece
// is held in Go, so a file larger than the memory a worker may have
// streams through it.
type BlobReader struct {
	blob  Value
	size  int64
	off   int64 // where the piece after the one in flight starts
	next  Read  // the piece being read
	ahead bool  // next is in flight
	store []byte
	buf   []byte
	err   error
}

// NewBlobReader returns a reader of blob, a File or Blob, and starts
// reading its first piece.
func NewBlobReader(blob Value) *BlobReader {
	r := &BlobReader{blob: blob, size: int64(Float(blob, "size", 0))}
	r.startNext()
	return r
}

// Size returns the blob's size in bytes.
func (r *BlobReader) Size() int64 { return r.size }

// startNext starts reading the next piece, unless the end is reached.
func (r *BlobReader) startNext() {
	if r.off >= r.size {
		r.ahead = false
		return
	}
	end := min(r.off+BlobChunk, r.size)
	part, err := r.blob.Call("slice", float64(r.off), float64(end))
	if err != nil {
		r.next = Read{err: err}
	} else {
		r.next = StartRead(part)
	}
	r.ahead = true
	r.off = end
}

// Read reads the blob's next bytes; it returns io.EOF at its end and the
// browser's error (as ErrorName reads it: NotReadableError for a file
// changed or deleted since it was chosen) when a piece cannot be read.
func (r *BlobReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		if !r.ahead {
			return 0, io.EOF
		}
		u8, err := r.next.Bytes()
		if err != nil {
			r.err = err
			return 0, err
		}
		r.startNext()
		n := ByteLength(u8)
		if cap(r.store) < n {
			r.store = make([]byte, n)
		}
		got, err := safejs.CopyBytesToGo(r.store[:n], u8)
		if err != nil {
			r.err = fmt.Errorf("reading the file: %w", err)
			return 0, r.err
		}
		r.buf = r.store[:got]
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// NewBlob returns a Blob holding the bytes of a Uint8Array (copied by the
// browser, which may keep a large Blob on disk): the page can then drop
// the array and still read the bytes again, or hand them to a worker.
func NewBlob(u8 Value) (Value, error) {
	arr, err := construct("Array", 1)
	if err != nil {
		return arr, err
	}
	if err := arr.SetIndex(0, u8); err != nil {
		return arr, err
	}
	return construct("Blob", arr)
}

// DeviceMemoryGB returns navigator.deviceMemory, the browser's rounded
// figure for the machine's memory in GB (at most 8 in Chromium), or 0
// where the browser does not give it.
func DeviceMemoryGB() float64 {
	nav, err := Path(Global(), "navigator")
	if err != nil {
		return 0
	}
	return Float(nav, "deviceMemory", 0)
}

// IsBlob reports whether v is a Blob (a File is one).
func IsBlob(v Value) bool {
	c, err := global("Blob")
	if err != nil {
		return false
	}
	ok, err := v.InstanceOf(c)
	return err == nil && ok
}
