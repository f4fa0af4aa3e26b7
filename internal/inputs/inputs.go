// Package inputs recognises the file formats a pilot can come in (wide CSV
// or TSV, gzip-compressed or not; NumPy .npz or a pair of .npy files;
// Parquet in long or wide form; the per-point summary; labelled embeddings
// as an .npz or a CSV) from their first bytes, and reads any of them into a
// score matrix, a summary or an embedding problem.
package inputs

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"

	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/summary"
)

// Data is a parsed input file: exactly one of Matrix, Summary and
// Embeddings is set.
type Data struct {
	// Matrix is the score matrix of a CSV, NumPy or Parquet file.
	Matrix *scores.Matrix
	// Summary is the per-point summary of a summary file.
	Summary *summary.Table
	// Embeddings is the problem of an embeddings file (docs/embeddings.md):
	// test embeddings with their classes and training or gallery
	// embeddings (ReferenceSet), with the default scoring, which the caller
	// may change before it scores them (then CheckEmbeddings): Euclidean;
	// Centroid for training embeddings, OneShot for a gallery of one item
	// per class, Nearest for another gallery.
	Embeddings *embed.Problem

	// embedded says where Embeddings came from, for messages.
	embedded *embedSource
}

// Format is a file format recognised from a file's first bytes.
type Format int

const (
	// CSV is text: a wide score matrix delimited by commas, semicolons or
	// tabs (so TSV too), as scores.Parse reads it.
	CSV Format = iota
	// Gzip is a gzip-compressed file; what it holds is detected again once
	// decompressed.
	Gzip
	// NPZ is a zip archive, as numpy.savez writes: scores.npy, labels.npy
	// and optionally classes.npy; or embeddings: test.npy, test_labels.npy,
	// train.npy and train_labels.npy (or gallery.npy and
	// gallery_labels.npy), optionally classes.npy.
	NPZ
	// NPY is a single NumPy array (.npy).
	NPY
	// Parquet is an Apache Parquet file, in long or wide form.
	Parquet
)

// String returns the format's usual name: "CSV", "gzip", "NPZ", "NPY" or
// "Parquet".
func (f Format) String() string {
	switch f {
	case CSV:
		return "CSV"
	case Gzip:
		return "gzip"
	case NPZ:
		return "NPZ"
	case NPY:
		return "NPY"
	case Parquet:
		return "Parquet"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// Magic numbers of the binary formats Read reads.
const (
	magicGzip = "\x1f\x8b"
	magicZip  = "PK\x03\x04"
	// magicZipEmpty starts a zip archive of no files: its end record alone
	// (numpy.savez with no arrays writes one).
	magicZipEmpty = "PK\x05\x06"
	magicNPY      = "\x93NUMPY"
	magicParquet  = "PAR1"
)

// Detect tells the format of a file from head, its first scores.SniffBytes
// bytes (or all of a shorter file). Gzip, zip (taken for an .npz: an Excel
// .xlsx workbook is a zip archive too and is told apart only by Read), NumPy
// .npy and Parquet are recognised by their magic numbers; anything else must
// pass scores.Sniff's checks for text and is CSV, or Detect returns Sniff's
// *scores.ParseError (bzip2, xz, zstd, an old .xls workbook, NUL bytes).
func Detect(head []byte) (Format, error) {
	switch {
	case bytes.HasPrefix(head, []byte(magicGzip)):
		return Gzip, nil
	case bytes.HasPrefix(head, []byte(magicZip)), bytes.HasPrefix(head, []byte(magicZipEmpty)):
		return NPZ, nil
	case bytes.HasPrefix(head, []byte(magicNPY)):
		return NPY, nil
	case bytes.HasPrefix(head, []byte(magicParquet)):
		return Parquet, nil
	}
	if err := scores.Sniff(head); err != nil {
		return CSV, err
	}
	return CSV, nil
}

// ParquetDecoder reads a whole Parquet file into a validated score matrix.
// Package internal/inputs/parquetfile implements it. It is an interface so
// that a program can leave the Parquet reader out, or load it apart: it adds
// about 21 MB to a WebAssembly binary (4.2 MB gzipped, against about
// 1.7 MB gzipped for all the rest of the page's compute worker).
type ParquetDecoder interface {
	DecodeParquet(b []byte) (*scores.Matrix, error)
}

// Reader reads pilots in every format. Its zero value reads all but Parquet.
type Reader struct {
	// Parquet reads Parquet files; when nil, a Parquet file is refused with
	// ErrNoParquet.
	Parquet ParquetDecoder
	// MemoryLimit, when set, returns the memory in bytes the scores of an
	// .npz may take as float64 (8 N K bytes; none when it returns 0 or
	// less): a larger scores.npy is refused with ErrTooLarge before its
	// array is set aside, instead of the allocation failing. It is called
	// only when the header of such an array has been read.
	MemoryLimit func() int64
}

// ErrNoParquet is the error of a Parquet file given to a Reader without a
// ParquetDecoder.
var ErrNoParquet = errors.New("this is a Parquet file, which this reader leaves to the Parquet reader (the page starts it when a Parquet file is given; the command line reads Parquet itself)")

// Read reads a pilot in any format but Parquet; see Reader.Read.
func Read(r io.Reader) (*Data, error) {
	return Reader{}.Read(r)
}

// Read reads a pilot from r, whose format it detects from the first bytes
// (Detect). Text (CSV or TSV) is streamed through scores.Parse; gzip is
// decompressed while it is parsed and may hold text, an .npz or a Parquet
// file; an .npz or a Parquet file is read whole into memory first (both
// need random access). A lone .npy is refused: the labels are missing
// (PackNPY joins a scores .npy and a labels .npy into an .npz). Errors name
// the place: *scores.ParseError (row and column) for text, *Error (array or
// row, point and class) for the binary formats.
func (rd Reader) Read(r io.Reader) (*Data, error) {
	return rd.read(r, false)
}

// read is Read; inGzip is true for the content of a gzip file.
func (rd Reader) read(r io.Reader, inGzip bool) (*Data, error) {
	br := bufio.NewReaderSize(r, scores.SniffBytes)
	head, err := br.Peek(scores.SniffBytes)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, err
	}
	f, err := Detect(head)
	if err != nil {
		return nil, err
	}
	switch f {
	case Gzip:
		if inGzip {
			return nil, &Error{Err: fmt.Errorf("%w: a gzip file inside a gzip file; decompress it until the CSV, .npz or Parquet file appears", ErrFormat)}
		}
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &Error{Err: fmt.Errorf("%w: the gzip header cannot be read (%v); compress the file again", ErrFormat, err)}
		}
		defer zr.Close()
		return rd.read(gzipErrors{zr}, true)
	case CSV:
		return readText(br)
	}
	if f == NPZ && !inGzip {
		// a file or an in-memory buffer is read in place
		if ra, size, ok := readerAt(r); ok {
			return readNPZ(ra, size, rd.MemoryLimit)
		}
	}
	b, err := io.ReadAll(br)
	if err != nil {
		return nil, err
	}
	switch f {
	case NPZ:
		return readNPZ(bytes.NewReader(b), int64(len(b)), rd.MemoryLimit)
	case NPY:
		return nil, &Error{Err: fmt.Errorf("%w: a single .npy array, so the labels are missing; save the scores and the labels together (numpy.savez(f, scores=S, labels=y)), or give two .npy files: the N x K scores and the N labels", ErrMissing)}
	}
	if rd.Parquet == nil {
		return nil, ErrNoParquet
	}
	m, err := rd.Parquet.DecodeParquet(b)
	if err != nil {
		return nil, err
	}
	if err := Validate(m); err != nil {
		return nil, err
	}
	return &Data{Matrix: m}, nil
}

// readNPZ reads the .npz of size bytes in ra: embeddings when it holds
// them (readEmbeddingsNPZ), else a score matrix (decodeNPZ) whose scores
// take at most the bytes limit returns (Reader.MemoryLimit; nil: none).
func readNPZ(ra io.ReaderAt, size int64, limit func() int64) (*Data, error) {
	if d, ok, err := readEmbeddingsNPZ(ra, size); ok {
		return d, err
	}
	m, err := decodeNPZ(ra, size, limit)
	if err != nil {
		return nil, err
	}
	return &Data{Matrix: m}, nil
}

// readText reads a text pilot (CSV or TSV, already decompressed) from br,
// whose first scores.SniffBytes bytes Detect has seen: a per-point summary
// when its header row is a summary's (summary.IsHeader), embeddings when
// its first header cell is "set" (parseEmbeddingsCSV), else a score matrix.
func readText(br *bufio.Reader) (*Data, error) {
	if delim, ok := embeddingsDelimiter(br); ok {
		return parseEmbeddingsCSV(br, delim)
	}
	if delim, ok := summaryDelimiter(br); ok {
		t, err := summary.ParseDelimited(br, delim)
		if err != nil {
			return nil, err
		}
		return &Data{Summary: t}, nil
	}
	m, err := scores.Parse(br)
	if err != nil {
		return nil, err
	}
	return &Data{Matrix: m}, nil
}

// summaryDelimiter reports whether the first line br holds (as far as it
// has buffered) is a summary's header row with its fields separated by a
// comma, a semicolon or a tab (tried in that order), and which.
func summaryDelimiter(br *bufio.Reader) (rune, bool) {
	head, _ := br.Peek(br.Buffered())
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	for _, delim := range []rune{',', ';', '\t'} {
		cr := csv.NewReader(bytes.NewReader(head))
		cr.Comma = delim
		if fields, err := cr.Read(); err == nil && summary.IsHeader(fields) {
			return delim, true
		}
	}
	return 0, false
}

// gzipErrors reads a gzip stream and says, when the stream is damaged or cut
// short, that the compressed data is at fault.
type gzipErrors struct{ r io.Reader }

// Read reads decompressed bytes.
func (g gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = &Error{Err: fmt.Errorf("%w: the gzip-compressed data is damaged or cut short (%w); compress the file again", ErrFormat, err)}
	}
	return n, err
}
