//go:build js && wasm

package jsdom

import (
	"context"
	"fmt"

	"github.com/hack-pad/go-webworkers/worker"
	"github.com/hack-pad/safejs"
)

// Worker is a Web Worker that exchanges byte messages (Uint8Arrays whose
// buffers are transferred, not copied element by element).
type Worker struct {
	w      *worker.Worker
	cancel context.CancelFunc
	// Messages delivers each message's bytes; a message that is not bytes
	// arrives as an error. It is closed when the worker is terminated.
	Messages <-chan Message
}

// Message is one message received from a worker or by a worker.
type Message struct {
	// Data is the message's bytes; for a message kept in JavaScript (see
	// NewWorkerKeeping) only its first KeptHead bytes.
	Data []byte
	// JS is, for a message kept in JavaScript, its Uint8Array (not copied
	// into Go); otherwise undefined.
	JS Value
	// Attached is what the sender posted with the bytes (PostBytesWith: a
	// File or Blob); otherwise undefined.
	Attached Value
	// Err is set when the message could not be read, or when the worker
	// stopped (a Go panic, out of memory): its script posts a text message then.
	Err error
	// Stopped is true when the worker's Go program has ended; Reason is
	// then what its script said ("out of memory", a panic's message).
	Stopped bool
	Reason  string
}

// NewWorker starts the worker script at url (relative to the page).
func NewWorker(url, name string) (*Worker, error) { return NewWorkerKeeping(url, name, nil) }

// KeptHead is how many first bytes of a message kept in JavaScript are
// copied into Message.Data.
const KeptHead = 256

// NewWorkerKeeping is NewWorker whose messages whose first byte makes keep
// return true stay in JavaScript: Message.JS holds them and Message.Data
// only their first KeptHead bytes, so a large message the page forwards
// to other workers is never copied into Go. keep may be nil.
func NewWorkerKeeping(url, name string, keep func(first byte) bool) (*Worker, error) {
	w, err := worker.New(url, worker.Options{Name: name})
	if err != nil {
		return nil, fmt.Errorf("starting worker %s: %w", url, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	events, err := w.Listen(ctx)
	if err != nil {
		cancel()
		_ = w.Terminate()
		return nil, err
	}
	out := make(chan Message, 64)
	ww := &Worker{w: w, cancel: cancel, Messages: out}
	go func() {
		defer close(out)
		for ev := range events {
			out <- readEvent(ev, keep)
		}
	}()
	return ww, nil
}

// Post sends b to the worker, transferring its buffer.
func (w *Worker) Post(b []byte) error { return post(w.w.PostMessage, b) }

// PostBytes sends a Uint8Array (made by BytesToJS or CloneBytes) to the
// worker, transferring its buffer: u8 is unusable afterwards.
func (w *Worker) PostBytes(u8 Value) error { return postJS(w.w.PostMessage, u8) }

// PostBytesWith sends a Uint8Array and another value together (a File or
// Blob, which the browser passes by reference), transferring the array's
// buffer: the worker's Message has the bytes in Data and the value in
// Attached.
func (w *Worker) PostBytesWith(u8, attached Value) error {
	buf, err := u8.Get("buffer")
	if err != nil {
		return err
	}
	arr, err := construct("Array", 2)
	if err != nil {
		return err
	}
	if err := arr.SetIndex(0, u8); err != nil {
		return err
	}
	if err := arr.SetIndex(1, attached); err != nil {
		return err
	}
	return w.w.PostMessage(arr, []safejs.Value{buf})
}

// CloneBytes returns a copy of a Uint8Array, made by JavaScript in one block.
func CloneBytes(u8 Value) (Value, error) { return u8.Call("slice") }

// Terminate stops the worker at once.
func (w *Worker) Terminate() error {
	w.cancel()
	return w.w.Terminate()
}

// Self is the worker side: the messages the page posts, and Post to reply.
type Self struct {
	s *worker.GlobalSelf
	// Messages delivers each message's bytes.
	Messages <-chan Message
}

// ListenSelf starts listening for the page's messages inside a worker.
func ListenSelf() (*Self, error) {
	s, err := worker.Self()
	if err != nil {
		return nil, err
	}
	events, err := s.Listen(context.Background())
	if err != nil {
		return nil, err
	}
	out := make(chan Message, 64)
	go func() {
		defer close(out)
		for ev := range events {
			out <- readEvent(ev, nil)
		}
	}()
	return &Self{s: s, Messages: out}, nil
}

// Post sends b to the page, transferring its buffer.
func (s *Self) Post(b []byte) error { return post(s.s.PostMessage, b) }

func post(pm func(safejs.Value, []safejs.Value) error, b []byte) error {
	u8, err := BytesToJS(b)
	if err != nil {
		return err
	}
	return postJS(pm, u8)
}

func postJS(pm func(safejs.Value, []safejs.Value) error, u8 Value) error {
	buf, err := u8.Get("buffer")
	if err != nil {
		return err
	}
	return pm(u8, []safejs.Value{buf})
}

// readEvent reads a message event: a text is the worker's script saying
// its Go program ended; an array is bytes with an attached value
// (PostBytesWith); bytes whose first byte keep accepts stay in JavaScript.
func readEvent(ev worker.MessageEvent, keep func(first byte) bool) Message {
	data, err := ev.Data()
	if err != nil {
		return Message{Err: err}
	}
	if data.Type() == safejs.TypeString {
		text, err := data.String()
		if err != nil {
			text = "no reason given"
		}
		return Message{Err: fmt.Errorf("the compute worker stopped: %s", text), Stopped: true, Reason: text}
	}
	var attached Value
	if IsArray(data) {
		if attached, err = data.Index(1); err != nil {
			return Message{Err: err}
		}
		if data, err = data.Index(0); err != nil {
			return Message{Err: err}
		}
	}
	if keep != nil && ByteLength(data) > 0 {
		if first, err := data.Index(0); err == nil {
			if b, err := first.Int(); err == nil && keep(byte(b)) {
				head, err := Head(data, KeptHead)
				return Message{Data: head, JS: data, Attached: attached, Err: err}
			}
		}
	}
	b, err := BytesFromJS(data)
	return Message{Data: b, Attached: attached, Err: err}
}
