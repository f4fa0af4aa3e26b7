package inputs

import (
	"archive/zip"
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cleanex/cleanex/internal/embed"
)

// checkRefSet refuses a reference set other than SetTrain and SetGallery.
func checkRefSet(refSet string) error {
	if refSet != SetTrain && refSet != SetGallery {
		return fmt.Errorf("reference set %q: use %q or %q", refSet, SetTrain, SetGallery)
	}
	return nil
}

// WriteEmbeddingsCSV writes p as an embeddings CSV (docs/embeddings.md):
// the header set,label,x1,...,xd, then a row per test embedding (set
// test) and per reference embedding (set refSet, SetTrain or SetGallery),
// each with its class name and its coordinates in the shortest form that
// reads back to the same float64. Reading it back gives p's classes when
// every class has a test embedding (classes are named in order of first
// appearance).
func WriteEmbeddingsCSV(w io.Writer, p *embed.Problem, refSet string) error {
	if err := checkRefSet(refSet); err != nil {
		return err
	}
	d := p.Test.D
	bw := bufio.NewWriterSize(w, 1<<16)
	buf := []byte("set,label")
	for j := range d {
		buf = append(buf, ",x"...)
		buf = strconv.AppendInt(buf, int64(j+1), 10)
	}
	buf = append(buf, '\n')
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	for _, set := range []struct {
		name string
		s    embed.Set
	}{{"test", p.Test}, {refSet, p.References}} {
		for i, y := range set.s.Labels {
			buf = append(buf[:0], set.name...)
			buf = append(buf, ',')
			buf = appendCSVField(buf, p.Classes[y])
			for _, v := range set.s.Row(i) {
				buf = append(buf, ',')
				buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			}
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// appendCSVField appends s, quoted as RFC 4180 requires when it holds a
// delimiter, a quote, a line end or surrounding spaces.
func appendCSVField(b []byte, s string) []byte {
	if !strings.ContainsAny(s, ",;\t\"\r\n") && strings.TrimSpace(s) == s {
		return append(b, s...)
	}
	return append(append(b, '"'), strings.ReplaceAll(s, `"`, `""`)+`"`...)
}

// WriteEmbeddingsNPZ writes p as an .npz laid out as numpy.savez lays it
// out (a zip archive of stored .npy arrays, little-endian, C order):
// test.npy (N x d float64), test_labels.npy (N int64 class indices),
// <refSet>.npy and <refSet>_labels.npy for the references (refSet is
// SetTrain or SetGallery), and classes.npy (the K names, unicode). Read
// gives back p's classes, labels and coordinates, bit for bit.
func WriteEmbeddingsNPZ(w io.Writer, p *embed.Problem, refSet string) error {
	if err := checkRefSet(refSet); err != nil {
		return err
	}
	zw := zip.NewWriter(w)
	d := p.Test.D
	for _, a := range []struct {
		name string
		fn   func(io.Writer) error
	}{
		{testNPY, func(w io.Writer) error { return writeFloatsNPY(w, p.Test.Vectors, p.Test.N(), d) }},
		{testLabelsNPY, func(w io.Writer) error { return writeIntsNPY(w, p.Test.Labels) }},
		{refSet + ".npy", func(w io.Writer) error { return writeFloatsNPY(w, p.References.Vectors, p.References.N(), d) }},
		{refSet + "_labels.npy", func(w io.Writer) error { return writeIntsNPY(w, p.References.Labels) }},
		{classesNPY, func(w io.Writer) error { return writeStringsNPY(w, p.Classes) }},
	} {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: a.name, Method: zip.Store})
		if err != nil {
			return err
		}
		bw := bufio.NewWriterSize(f, 1<<16)
		if err := a.fn(bw); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
	}
	return zw.Close()
}

// writeNPYHeader writes an .npy version 1.0 header for dtype and shape,
// padded with spaces so that the data starts at a multiple of 64 bytes.
func writeNPYHeader(w io.Writer, dtype, shape string) error {
	h := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", dtype, shape)
	for (10+len(h)+1)%64 != 0 {
		h += " "
	}
	h += "\n"
	if len(h) > math.MaxUint16 {
		return fmt.Errorf("an .npy header of %d bytes is too long", len(h))
	}
	b := append([]byte(magicNPY+"\x01\x00"), byte(len(h)), byte(len(h)>>8))
	_, err := w.Write(append(b, h...))
	return err
}

// writeFloatsNPY writes v as an n x d little-endian float64 array.
func writeFloatsNPY(w io.Writer, v []float64, n, d int) error {
	if err := writeNPYHeader(w, "<f8", shapeString([]int{n, d})); err != nil {
		return err
	}
	var b [8]byte
	for _, x := range v {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
		if _, err := w.Write(b[:]); err != nil {
			return err
		}
	}
	return nil
}

// writeIntsNPY writes v as a 1-D little-endian int64 array.
func writeIntsNPY(w io.Writer, v []int) error {
	if err := writeNPYHeader(w, "<i8", shapeString([]int{len(v)})); err != nil {
		return err
	}
	var b [8]byte
	for _, x := range v {
		binary.LittleEndian.PutUint64(b[:], uint64(int64(x)))
		if _, err := w.Write(b[:]); err != nil {
			return err
		}
	}
	return nil
}

// writeStringsNPY writes v as a 1-D unicode array (<U{width}, UTF-32LE,
// each name padded with zeros to the longest name's length in runes).
func writeStringsNPY(w io.Writer, v []string) error {
	width := 1
	for _, s := range v {
		width = max(width, utf8.RuneCountInString(s))
	}
	if err := writeNPYHeader(w, "<U"+strconv.Itoa(width), shapeString([]int{len(v)})); err != nil {
		return err
	}
	b := make([]byte, 4*width)
	for _, s := range v {
		clear(b)
		i := 0
		for _, r := range s {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(r))
			i++
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}
