//go:build js && wasm

// Command parquet is the page's Parquet reader: a Go wasm program started by
// assets/parquet.js inside a Web Worker of its own, which the page starts
// only when it is given a Parquet file (internal/parquetjob). It posts
// Ready, then answers each file the page posts with the pilot as a wide CSV
// or with the one-line error of the command line's reader
// (parquetfile.WriteCSV). It is apart because the Parquet reader is most of
// a binary that has it: the page and its compute workers stay small.
package main

import (
	"github.com/cleanex/cleanex/internal/inputs/parquetfile"
	"github.com/cleanex/cleanex/internal/jsdom"
	"github.com/cleanex/cleanex/internal/parquetjob"
)

func main() {
	self, err := jsdom.ListenSelf()
	if err != nil {
		jsdom.Log("cleanex parquet: ", err)
		return
	}
	post := func(b []byte) {
		if err := self.Post(b); err != nil {
			jsdom.Log("cleanex parquet: posting a reply: ", err)
		}
	}
	post(parquetjob.Ready())
	for msg := range self.Messages {
		if msg.Err != nil {
			post(parquetjob.Failed(msg.Err))
			continue
		}
		post(parquetjob.Answer(msg.Data, parquetfile.WriteCSV))
	}
}
