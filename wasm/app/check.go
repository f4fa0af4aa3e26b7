//go:build js && wasm

package main

import (
	"errors"

	"github.com/cleanex/cleanex/internal/jsdom"
	"github.com/cleanex/cleanex/internal/protocol"
)

// fileCheck is a file the spare worker reads while a run goes on: data
// set id, whose summary or error goes to done.
type fileCheck struct {
	id   uint64
	done chan loadOutcome
}

// checkFirst has the spare worker read req's file when a run is under way
// and the spare is ready, so that a file the workers cannot read is
// refused with the run going on, not after it was stopped for it. It
// returns the file's error, shown on the page (and errNewerLoad when a
// newer file came meanwhile), or nil: the file can be read, or nothing was
// checked (no run under way, no spare ready, a simulation). A spare that
// read a file it could not is given the current data set again.
func (a *app) checkFirst(req loadRequest) error {
	a.env.Lock()
	sp := a.spare
	if req.sim != nil || a.run == nil || a.run.finished || sp == nil || !sp.ready {
		a.env.UnlockOnly()
		return nil
	}
	if c := a.check; c != nil {
		a.endCheck(c.id, loadOutcome{err: errNewerLoad})
	}
	c := &fileCheck{id: a.id(), done: make(chan loadOutcome, 1)}
	a.check = c
	// A load that starts while the file is read is newer and wins.
	before := a.loadID
	a.setBusy(loading, "Reading "+req.source+"…")
	msg, err := loadMessage(c.id, req)
	if err == nil {
		err = sp.sendCopy(msg)
	}
	if err == nil {
		err = sp.sendMsg(protocol.Describe{Dataset: c.id})
	}
	sp.loaded = c.id
	if err != nil {
		// The load that follows sends the file to every worker and says
		// what went wrong, if anything does.
		a.endCheck(c.id, loadOutcome{})
	}
	a.env.UnlockRender()
	out := <-c.done

	a.env.Lock()
	defer a.env.UnlockRender()
	if sp == a.spare && out.err != nil {
		// The spare holds the current data set again; a file that can be
		// read is sent to it with the others once it is adopted.
		sp.loaded = 0
		a.sendData(sp)
	}
	if errors.Is(out.err, errNewerLoad) {
		return out.err
	}
	if a.loadID != before {
		return errNewerLoad
	}
	if out.err != nil {
		if a.activity == loading && a.st.Busy == "Reading "+req.source+"…" {
			a.setBusy(idle, "")
		}
		a.st.Error = "Could not read " + req.source + ": " + out.err.Error()
		return out.err
	}
	return nil
}

// endCheck ends the file check of data set id, if it is the one under way,
// with out.
func (a *app) endCheck(id uint64, out loadOutcome) {
	c := a.check
	if c == nil || c.id != id {
		return
	}
	a.check = nil
	c.done <- out
}

// loadMessage returns the Load message of req's file as data set id, kept in
// JavaScript (the file's bytes are not copied into Go).
func loadMessage(id uint64, req loadRequest) (jsdom.Value, error) {
	pre, suf := protocol.LoadParts(id, jsdom.ByteLength(req.dataJS), req.dir)
	return jsdom.Concat(pre, req.dataJS, suf)
}
