//go:build js && wasm

package jsdom

import (
	"fmt"

	"github.com/hack-pad/safejs"
)

// BytesToJS copies b into a new Uint8Array in one block.
func BytesToJS(b []byte) (Value, error) {
	u8, err := construct("Uint8Array", len(b))
	if err != nil {
		return u8, err
	}
	if _, err := safejs.CopyBytesToJS(u8, b); err != nil {
		return u8, err
	}
	return u8, nil
}

// BytesFromJS copies a Uint8Array or ArrayBuffer into a new Go slice in one block.
func BytesFromJS(v Value) ([]byte, error) {
	ab, err := global("ArrayBuffer")
	if err != nil {
		return nil, err
	}
	isBuf, err := v.InstanceOf(ab)
	if err != nil {
		return nil, err
	}
	if isBuf {
		if v, err = construct("Uint8Array", v); err != nil {
			return nil, err
		}
	}
	n, err := v.Length()
	if err != nil {
		return nil, fmt.Errorf("not a byte array: %w", err)
	}
	b := make([]byte, n)
	if _, err := safejs.CopyBytesToGo(b, v); err != nil {
		return nil, err
	}
	return b, nil
}

// ReadFile reads a File or Blob (StartRead) and copies its bytes into Go.
func ReadFile(file Value) ([]byte, error) {
	u8, err := StartRead(file).Bytes()
	if err != nil {
		return nil, err
	}
	return BytesFromJS(u8)
}

// Download offers data to the user as a file named name, through a Blob, an
// object URL and a temporary <a download> element.
func Download(name, mime string, data []byte) error {
	u8, err := BytesToJS(data)
	if err != nil {
		return err
	}
	blob, err := construct("Blob", []any{u8}, map[string]any{"type": mime})
	if err != nil {
		return err
	}
	return DownloadBlob(name, blob)
}

// DownloadBlob offers an existing Blob to the user as a file named name.
func DownloadBlob(name string, blob Value) error {
	url, err := global("URL")
	if err != nil {
		return err
	}
	href, err := url.Call("createObjectURL", blob)
	if err != nil {
		return err
	}
	doc, err := Path(Global(), "document")
	if err != nil {
		return err
	}
	a, err := doc.Call("createElement", "a")
	if err != nil {
		return err
	}
	if err := a.Set("href", href); err != nil {
		return err
	}
	if err := a.Set("download", name); err != nil {
		return err
	}
	if _, err := a.Call("click"); err != nil {
		return err
	}
	_, err = url.Call("revokeObjectURL", href)
	return err
}

// FirstFile returns list[0] of a FileList (from an input's files or a
// drop's dataTransfer.files), or an error when it is empty.
func FirstFile(list Value) (Value, error) {
	n, err := list.Length()
	if err != nil {
		return list, fmt.Errorf("no file list: %w", err)
	}
	if n == 0 {
		return list, fmt.Errorf("no file was given")
	}
	return list.Index(0)
}

// Files returns the entries of a FileList (an input's files, a drop's
// dataTransfer.files) or of an array of Files, in order.
func Files(list Value) ([]Value, error) {
	n, err := list.Length()
	if err != nil {
		return nil, fmt.Errorf("no file list: %w", err)
	}
	out := make([]Value, n)
	for i := range out {
		if out[i], err = list.Index(i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// IsBytes reports whether v is a Uint8Array or an ArrayBuffer.
func IsBytes(v Value) bool {
	for _, name := range []string{"Uint8Array", "ArrayBuffer"} {
		c, err := global(name)
		if err != nil {
			continue
		}
		if ok, err := v.InstanceOf(c); err == nil && ok {
			return true
		}
	}
	return false
}

// IsArray reports whether v is a JavaScript array (Array.isArray).
func IsArray(v Value) bool {
	arr, err := global("Array")
	if err != nil {
		return false
	}
	ok, err := arr.Call("isArray", v)
	if err != nil {
		return false
	}
	b, err := ok.Bool()
	return err == nil && b
}

// CopyBytes returns a new Uint8Array holding a copy of the bytes of v, a
// Uint8Array or an ArrayBuffer (IsBytes), copied by JavaScript in one block:
// the copy stays the same whatever the caller later does with v.
func CopyBytes(v Value) (Value, error) {
	if !IsBytes(v) {
		return Value{}, fmt.Errorf("not a Uint8Array or an ArrayBuffer")
	}
	ab, err := global("ArrayBuffer")
	if err != nil {
		return Value{}, err
	}
	if isBuf, err := v.InstanceOf(ab); err != nil {
		return Value{}, err
	} else if isBuf {
		if v, err = construct("Uint8Array", v); err != nil {
			return Value{}, err
		}
	}
	return construct("Uint8Array", v) // a copy of a typed array's elements
}

// Head copies the first n bytes of a Uint8Array (all of a shorter one) into Go.
func Head(u8 Value, n int) ([]byte, error) {
	part, err := u8.Call("subarray", 0, min(n, ByteLength(u8)))
	if err != nil {
		return nil, err
	}
	return BytesFromJS(part)
}

// ReadFileJS reads a File, Blob or Response (StartRead) and returns its
// bytes as a Uint8Array, without copying them into Go.
func ReadFileJS(file Value) (Value, error) { return StartRead(file).Bytes() }

// ReadHead reads the first n bytes of a File or Blob (all of a smaller one)
// into Go, through blob.slice(0, n).arrayBuffer(), without reading the rest.
func ReadHead(file Value, n int) ([]byte, error) {
	part, err := file.Call("slice", 0, n)
	if err != nil {
		return nil, fmt.Errorf("reading the file: %w", err)
	}
	return ReadFile(part)
}

// Read is a file read under way (StartRead).
type Read struct {
	p   Value
	err error
}

// StartRead starts reading a File, Blob or Response through arrayBuffer();
// Bytes waits for it.
func StartRead(file Value) Read {
	p, err := file.Call("arrayBuffer")
	return Read{p: p, err: err}
}

// Bytes waits for the read and returns the bytes as a Uint8Array, without
// copying them into Go.
func (r Read) Bytes() (Value, error) {
	if r.err != nil {
		return Value{}, fmt.Errorf("reading the file: %w", r.err)
	}
	buf, err := Await(r.p)
	if err != nil {
		return Value{}, fmt.Errorf("reading the file: %w", err)
	}
	return construct("Uint8Array", buf)
}

// EncodeText returns the UTF-8 bytes of a JavaScript string as a Uint8Array
// (TextEncoder), without copying them into Go.
func EncodeText(text Value) (Value, error) {
	enc, err := construct("TextEncoder")
	if err != nil {
		return Value{}, err
	}
	return enc.Call("encode", text)
}

// ByteLength returns the length of a Uint8Array.
func ByteLength(u8 Value) int {
	return int(Float(u8, "length", 0))
}

// Concat returns a new Uint8Array holding prefix, then mid (a Uint8Array,
// copied by JavaScript in one block), then suffix.
func Concat(prefix []byte, mid Value, suffix []byte) (Value, error) {
	n := ByteLength(mid)
	out, err := construct("Uint8Array", len(prefix)+n+len(suffix))
	if err != nil {
		return out, err
	}
	part := func(off, length int) (Value, error) { return out.Call("subarray", off, off+length) }
	if p, err := part(0, len(prefix)); err != nil {
		return out, err
	} else if _, err := safejs.CopyBytesToJS(p, prefix); err != nil {
		return out, err
	}
	if _, err := out.Call("set", mid, len(prefix)); err != nil {
		return out, err
	}
	if p, err := part(len(prefix)+n, len(suffix)); err != nil {
		return out, err
	} else if _, err := safejs.CopyBytesToJS(p, suffix); err != nil {
		return out, err
	}
	return out, nil
}
