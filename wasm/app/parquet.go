//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/jsdom"
	"github.com/cleanex/cleanex/internal/parquetjob"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/web"
)

// parquetURL is the Parquet reader's script, relative to the page.
const parquetURL = "assets/parquet.js"

// errSuperseded ends a Parquet conversion that a newer load made pointless.
var errSuperseded = errors.New("another data set was loaded while the Parquet file was read")

// fromParquet begins every load: it stops the Parquet conversion under way,
// if any (the newer load supersedes it), and when req is a file in Parquet
// (plain or gzip-compressed: parquetjob.Wants) it converts it into a wide CSV
// in the Parquet reader, a Web Worker running parquet.wasm (wasm/parquet),
// and puts the CSV in req.dataJS: the load reads that as any CSV, and
// Reload reads it again. The file's bytes are transferred to the reader.
//
// The reader is started for the file and terminated once it has answered:
// the page and its compute workers leave the Parquet reader out (it is most
// of a binary that has it), few files are Parquet, and a terminated worker
// gives back the memory the file took. While it works the page says
// "Reading Parquet …"; when the file cannot be read, the reader's one-line
// message is shown as a load's is and what is on screen stays (a run under
// way goes on).
func (a *app) fromParquet(req *loadRequest) error {
	a.env.Lock()
	if w := a.parquet; w != nil {
		a.parquet = nil
		a.log.Report("stopping the Parquet reader", w.Terminate())
	}
	if req.sim != nil || req.dataJS.IsUndefined() {
		a.env.UnlockOnly()
		return nil
	}
	// A head that cannot be copied is left to the compute worker, which
	// says what is wrong with the bytes.
	if head, err := jsdom.Head(req.dataJS, scores.SniffBytes); err != nil || !parquetjob.Wants(head) {
		a.env.UnlockOnly()
		return nil
	}
	a.setBusy(loading, "Reading Parquet "+req.source+"…")
	a.st.Error = ""
	w, err := jsdom.NewWorkerKeeping(parquetURL, "cleanex-parquet", parquetjob.IsCSV)
	if err != nil {
		a.setBusy(idle, "")
		a.st.Error = "Could not read " + req.source + ": the page's Parquet reader could not start: " + err.Error()
		a.env.UnlockRender()
		return err
	}
	a.parquet = w
	a.env.UnlockRender()

	csv, err := convertParquet(w, req.dataJS)

	a.env.Lock()
	if a.parquet != w {
		a.env.UnlockOnly()
		return errSuperseded
	}
	a.parquet = nil
	a.log.Report("stopping the Parquet reader", w.Terminate())
	if err != nil {
		a.setBusy(idle, "")
		a.st.Error = "Could not read " + req.source + ": " + err.Error()
		if jsdom.ErrorName(err) == "RangeError" {
			a.st.Error = web.OutOfMemory(req.source, 0)
		}
		a.env.UnlockRender()
		return err
	}
	a.env.UnlockOnly()
	req.dataJS = csv
	return nil
}

// convertParquet posts file (a Uint8Array, transferred) to the Parquet
// reader w once it is ready and returns its CSV as a Uint8Array (kept in
// JavaScript: w was started with parquetjob.IsCSV), or its error: the
// command line's one-line message about the file, or why the reader
// stopped. It returns errSuperseded when w is terminated meanwhile.
func convertParquet(w *jsdom.Worker, file jsdom.Value) (jsdom.Value, error) {
	for msg := range w.Messages {
		switch {
		case msg.Stopped:
			return jsdom.Value{}, errors.New(parquetStopped(msg.Reason))
		case msg.Err != nil:
			return jsdom.Value{}, msg.Err
		case !msg.JS.IsUndefined():
			return msg.JS, nil
		}
		ready, _, err := parquetjob.ParseReply(msg.Data)
		switch {
		case err != nil:
			return jsdom.Value{}, err
		case !ready:
			return jsdom.Value{}, parquetjob.ErrMalformed // a CSV is kept in JavaScript
		}
		if err := w.PostBytes(file); err != nil {
			return jsdom.Value{}, fmt.Errorf("could not send the file to the page's Parquet reader: %w", err)
		}
	}
	return jsdom.Value{}, errSuperseded
}

// parquetStopped says why the Parquet reader ended before it answered: its
// script's message (a panic, out of memory, or parquet.wasm could not be
// fetched, as offline before any Parquet file was read online).
func parquetStopped(why string) string {
	if strings.Contains(strings.ToLower(why), "memory") {
		return "the page's Parquet reader ran out of memory (" + why + "); use a smaller file, or run the command line on it (cleanex predict)"
	}
	return "the page's Parquet reader stopped (" + why + "); try again, or save the file as CSV (offline, the page has its Parquet reader only once it read a Parquet file online)"
}
