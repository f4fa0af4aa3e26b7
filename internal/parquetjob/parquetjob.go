// Package parquetjob is the page's conversion of a Parquet pilot into a
// wide CSV, done in a Web Worker of its own (wasm/parquet) that the page
// starts only when it is given a Parquet file: the Parquet reader
// (internal/inputs/parquetfile, on parquet-go) is most of a WebAssembly
// binary, so neither the page (wasm/app) nor its compute workers
// (wasm/worker) carry it. The page loads the CSV the worker answers as it
// loads any file. This package holds what both sides share: which files go
// to that worker (Wants), its messages (Ready, Answer, ParseReply) and how
// it answers one (Answer). It does not import the Parquet reader either.
//
// The messages are bytes. The worker posts Ready once it listens; the page
// then posts it the file's bytes; the worker answers with the CSV itself,
// which the page can keep in JavaScript (IsCSV tells it from its first
// byte), or with the one-line error of the command line's reader.
package parquetjob

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"

	"github.com/cleanex/cleanex/internal/inputs"
)

// The first byte of each message the worker posts: a CSV answer starts
// with its header, "label,…" (scores.Writer), so with 'l'.
const (
	tagReady = 'R' // the worker listens
	tagCSV   = 'l' // the message is the CSV
	tagError = 'E' // the error message follows, UTF-8
)

// IsCSV reports whether a message from the worker whose first byte is
// first is a CSV answer: the page keeps those in JavaScript
// (jsdom.NewWorkerKeeping), without copying them into Go.
func IsCSV(first byte) bool { return first == tagCSV }

// Wants reports whether a file whose first bytes are head (up to
// scores.SniffBytes, as inputs.Detect takes them) goes to the Parquet
// worker: a Parquet file, or a gzip file whose content starts as a Parquet
// file does (only as much of head is decompressed as that takes).
func Wants(head []byte) bool {
	f, err := inputs.Detect(head)
	switch {
	case err != nil:
		return false
	case f == inputs.Parquet:
		return true
	case f != inputs.Gzip:
		return false
	}
	zr, err := gzip.NewReader(bytes.NewReader(head))
	if err != nil {
		return false
	}
	magic := make([]byte, 4)
	if _, err := io.ReadFull(zr, magic); err != nil {
		return false
	}
	f, err = inputs.Detect(magic)
	return err == nil && f == inputs.Parquet
}

// Ready is the message the worker posts once it listens for the file.
func Ready() []byte { return []byte{tagReady} }

// Answer is the worker's answer to file: the CSV that convert
// (parquetfile.WriteCSV) writes of it, or the message holding the error
// convert returns (on one line). A CSV that does not start as
// scores.Writer starts its header is an error.
func Answer(file []byte, convert func(w io.Writer, file []byte) error) []byte {
	var b bytes.Buffer
	if err := convert(&b, file); err != nil {
		return Failed(err)
	}
	if b.Len() == 0 || !IsCSV(b.Bytes()[0]) {
		return Failed(errors.New("the Parquet reader wrote a CSV without its header"))
	}
	return b.Bytes()
}

// Failed is the message of an error: its text, on one line.
func Failed(err error) []byte {
	msg := bytes.ReplaceAll([]byte(err.Error()), []byte("\n"), []byte(" "))
	return append([]byte{tagError}, msg...)
}

// ErrMalformed is ParseReply's error for a message no worker posts.
var ErrMalformed = errors.New("the Parquet reader sent a message it should not")

// ParseReply reads a message from the worker: ready when it is Ready, csv
// when it is the CSV (msg itself), else the worker's error (its message as
// the worker gave it) or ErrMalformed.
func ParseReply(msg []byte) (ready bool, csv []byte, err error) {
	if len(msg) == 0 {
		return false, nil, ErrMalformed
	}
	switch msg[0] {
	case tagReady:
		if len(msg) == 1 {
			return true, nil, nil
		}
	case tagCSV:
		return false, msg, nil
	case tagError:
		if len(msg) > 1 {
			return false, nil, errors.New(string(msg[1:]))
		}
	}
	return false, nil, ErrMalformed
}
