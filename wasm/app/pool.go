//go:build js && wasm

package main

import (
	"strconv"

	"github.com/cleanex/cleanex/internal/jsdom"
	"github.com/cleanex/cleanex/internal/protocol"
)

// workerURL is the worker script, relative to the page.
const workerURL = "assets/worker.js"

// slot is one compute worker and what it is doing.
type slot struct {
	idx int // its place in app.slots (spareIdx for the spare)
	w   *jsdom.Worker
	// ready is set once the worker posted Ready; until then posts queue in pending.
	ready   bool
	pending []jsdom.Value
	// loaded is the latest data set sent to it.
	loaded uint64
	// run and task are the fit it is running: the run's id (0: idle) and
	// the index of the task in the run's plan.
	run  uint64
	task int
}

// spareIdx marks the spare worker: started in advance and loaded with the
// current data set, it takes the place of a worker that is terminated (on
// cancel or a crash), so a new run can start at once.
const spareIdx = -1

// inbound is a message from a worker.
type inbound struct {
	s       *slot
	m       protocol.Message
	err     error
	stopped bool
}

// startSlot starts a worker for place idx and forwards its messages to inbox.
func startSlot(idx int, inbox chan<- inbound) (*slot, error) {
	w, err := jsdom.NewWorker(workerURL, "cleanex-"+strconv.Itoa(idx))
	if err != nil {
		return nil, err
	}
	s := &slot{idx: idx, w: w, task: -1}
	go func() {
		for msg := range w.Messages {
			in := inbound{s: s, err: msg.Err, stopped: msg.Stopped}
			if msg.Err == nil {
				in.m, in.err = protocol.Decode(msg.Data)
			}
			inbox <- in
		}
	}()
	return s, nil
}

// send posts b now, or queues it until the worker is ready.
func (s *slot) send(b []byte) error {
	u8, err := jsdom.BytesToJS(b)
	if err != nil {
		return err
	}
	return s.sendJS(u8)
}

// sendJS posts a Uint8Array (transferring it) now, or queues it.
func (s *slot) sendJS(u8 jsdom.Value) error {
	if !s.ready {
		s.pending = append(s.pending, u8)
		return nil
	}
	return s.w.PostBytes(u8)
}

// sendCopy posts a copy of a Uint8Array that the page keeps.
func (s *slot) sendCopy(u8 jsdom.Value) error {
	c, err := jsdom.CloneBytes(u8)
	if err != nil {
		return err
	}
	return s.sendJS(c)
}

// markReady flushes the queued posts.
func (s *slot) markReady() error {
	s.ready = true
	q := s.pending
	s.pending = nil
	for _, u8 := range q {
		if err := s.w.PostBytes(u8); err != nil {
			return err
		}
	}
	return nil
}
