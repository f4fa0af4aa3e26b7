//go:build js && wasm

package main

import (
	"errors"
	"strconv"

	"github.com/cleanex/cleanex/internal/jsdom"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/web"
)

// workerURL is the worker script, relative to the page.
const workerURL = "assets/worker.js"

// slot is one compute worker and what it is doing.
type slot struct {
	idx int // its place in app.slots (spareIdx for the spare)
	w   *jsdom.Worker
	// ready is set once the worker posted Ready; until then posts queue in pending.
	ready   bool
	pending []outbound
	// loaded is the latest data set sent to it.
	loaded uint64
	// run and task are the fit it is running: the run's id (0: idle) and
	// the index of the task in the run's plan.
	run  uint64
	task int
	// truth is the simulated data set whose truth curve it is computing
	// after the data set's summary (0: none); such a worker gets no fit
	// until the curve comes, so that no fit waits behind it and no cancel
	// replaces it halfway.
	truth uint64
}

// spareIdx marks the spare worker: started in advance and loaded with the
// current data set, it takes the place of a worker that is terminated (on
// cancel or a crash), so a new run can start at once. prepIdx marks the
// worker that prepares a large file (prepare.go): the spare, or a worker
// started for it, terminated once it has answered.
const (
	spareIdx = -1
	prepIdx  = -2
)

// outbound is a post queued until its worker is ready: a Uint8Array, and
// what goes with it (a File or Blob; undefined when nothing does).
type outbound struct {
	u8, attached jsdom.Value
}

// inbound is a message from a worker: m, or err when it could not be
// read; stopped when the worker's Go program ended, why saying how. A
// LoadBinary or a Part stays in JavaScript: m has its fields but the
// bytes, js the whole message.
type inbound struct {
	s       *slot
	m       protocol.Message
	js      jsdom.Value
	err     error
	stopped bool
	why     string
}

// keepInJS reports whether a worker's message of the kind its first byte
// names stays in JavaScript: a LoadBinary, which the page forwards to the
// other workers without reading it, or a Part, which it joins with the
// others there (protocol.KeptInJS).
func keepInJS(first byte) bool { return protocol.KeptInJS(first) }

// keptHead reads the fields of a message kept in JavaScript
// (protocol.DecodeKeptHead) from its first bytes, copying more of them into
// Go while its fields run past them (a long note on how the scores were
// read); never more than its fields and the length of its bytes.
func keptHead(msg jsdom.Message) (protocol.Message, error) {
	head := msg.Data
	for {
		m, err := protocol.DecodeKeptHead(head)
		if err == nil || !errors.Is(err, protocol.ErrShort) || len(head) >= jsdom.ByteLength(msg.JS) {
			return m, err
		}
		if head, err = jsdom.Head(msg.JS, max(2*len(head), jsdom.KeptHead)); err != nil {
			return nil, err
		}
	}
}

// startSlot starts a worker for place idx and forwards its messages to inbox.
func startSlot(idx int, inbox chan<- inbound) (*slot, error) {
	w, err := jsdom.NewWorkerKeeping(workerURL, "cleanex-"+strconv.Itoa(idx), keepInJS)
	if err != nil {
		return nil, err
	}
	s := &slot{idx: idx, w: w, task: -1}
	go func() {
		for msg := range w.Messages {
			in := inbound{s: s, err: msg.Err, stopped: msg.Stopped, why: msg.Reason}
			switch {
			case msg.Err != nil:
			case !msg.JS.IsUndefined():
				var head protocol.Message
				if head, in.err = keptHead(msg); in.err == nil {
					in.m, in.js = head, msg.JS
				}
			default:
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

// sendMsg encodes m and posts it now, or queues it.
func (s *slot) sendMsg(m protocol.Message) error {
	b, err := protocol.Encode(m)
	if err != nil {
		return err
	}
	return s.send(b)
}

// sendJS posts a Uint8Array (transferring it) now, or queues it.
func (s *slot) sendJS(u8 jsdom.Value) error {
	return s.post(outbound{u8: u8})
}

// sendWith encodes m and posts it with attached (a File or Blob, passed
// by reference) now, or queues them.
func (s *slot) sendWith(m protocol.Message, attached jsdom.Value) error {
	b, err := protocol.Encode(m)
	if err != nil {
		return err
	}
	u8, err := jsdom.BytesToJS(b)
	if err != nil {
		return err
	}
	return s.post(outbound{u8: u8, attached: attached})
}

// post posts o now, or queues it until the worker is ready.
func (s *slot) post(o outbound) error {
	if !s.ready {
		s.pending = append(s.pending, o)
		return nil
	}
	if o.attached.IsUndefined() {
		return s.w.PostBytes(o.u8)
	}
	return s.w.PostBytesWith(o.u8, o.attached)
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
	for _, o := range q {
		if err := s.post(o); err != nil {
			return err
		}
	}
	return nil
}

// endTask marks worker s idle when it was running a fit of run, and
// returns that fit's task (-1 when it was not running one of run).
func (s *slot) endTask(run uint64) int {
	if s.run != run {
		return -1
	}
	task := s.task
	s.run, s.task = 0, -1
	return task
}

// current reports whether s is one of the app's workers (not the spare,
// nor a worker since replaced).
func (a *app) current(s *slot) bool {
	return s.idx >= 0 && s.idx < len(a.slots) && a.slots[s.idx] == s
}

// onSpare handles a message from the spare worker: a spare that stopped
// is replaced by a new one, and one that is ready gets its queued messages.
// The spare runs no fit and answers no load, so its other messages are
// dropped.
func (a *app) onSpare(in inbound) {
	s := in.s
	switch {
	case in.stopped:
		a.log.Report("terminating the spare worker", s.w.Terminate())
		a.spare = nil
		if c := a.check; c != nil {
			a.endCheck(c.id, loadOutcome{err: errors.New(web.WorkerStoppedLoading(in.why))})
		}
		a.startSpare()
	case in.err != nil:
		a.log.Report("a message from the spare worker", in.err)
		if c := a.check; c != nil {
			a.endCheck(c.id, loadOutcome{err: in.err})
		}
	default:
		switch m := in.m.(type) {
		case protocol.Ready:
			a.log.Report("sending the spare worker its queued messages", s.markReady())
		case protocol.Summary:
			a.endCheck(m.Dataset, loadOutcome{sum: m})
		case protocol.Error:
			if m.Run == 0 {
				a.endCheck(m.Dataset, loadOutcome{err: errors.New(m.Message)})
			}
		}
	}
}

// startSpare starts the spare worker with the current data set.
func (a *app) startSpare() {
	sp, err := startSlot(spareIdx, a.inbox)
	if err != nil {
		a.log.Report("starting the spare worker", err)
		return
	}
	a.spare = sp
	a.sendData(sp)
}

// sendData sends the current data set to worker s unless it has it.
func (a *app) sendData(s *slot) {
	if a.dataset == 0 || s.loaded == a.dataset {
		return
	}
	if err := s.sendCopy(a.loadJS); err != nil {
		a.log.Report("sending the data to a worker", err)
		return
	}
	s.loaded = a.dataset
}

// swap terminates worker s and puts in its place the spare, when it is
// ready (a new spare is then started), or else a new worker, either given
// the current data set. The worker is terminated even when no new one can
// be started (the error).
func (a *app) swap(s *slot) (*slot, error) {
	// A worker that cannot be terminated is dropped all the same: its
	// messages are ignored from now on (it is no longer current).
	a.log.Report("terminating a compute worker", s.w.Terminate())
	var ns *slot
	if sp := a.spare; sp != nil && sp.ready {
		ns, a.spare = sp, nil
		if c := a.check; c != nil {
			// The file it was reading is read by every worker instead.
			a.endCheck(c.id, loadOutcome{})
		}
		a.sendData(ns) // it may not have the data yet (spareDelay)
		a.startSpare()
	} else {
		var err error
		if ns, err = startSlot(s.idx, a.inbox); err != nil {
			return nil, err
		}
		a.sendData(ns)
	}
	ns.idx = s.idx
	a.slots[s.idx] = ns
	return ns, nil
}
