//go:build js && wasm

// Command worker is the app's compute worker: a Go wasm program started by
// assets/worker.js inside a Web Worker. It reads protocol messages from the
// page, hands them to a compute.Server (which parses, simulates, prepares
// and fits; a Prepare's file, posted with it, is read as a stream), and
// posts the replies back as bytes.
package main

import (
	"time"

	"github.com/cleanex/cleanex/internal/compute"
	"github.com/cleanex/cleanex/internal/jsdom"
	"github.com/cleanex/cleanex/internal/protocol"
)

func main() {
	self, err := jsdom.ListenSelf()
	if err != nil {
		jsdom.Log("cleanex worker: ", err)
		return
	}
	post := func(m protocol.Message) {
		b, err := protocol.Encode(m)
		if err == nil {
			err = self.Post(b)
		}
		if err != nil {
			jsdom.Log("cleanex worker: posting a reply: ", err)
		}
	}
	// Go in a worker runs on one thread: while a fit computes, messages
	// (such as Cancel) are delivered only when every goroutine is blocked.
	// A 1 ms sleep every compute.YieldEvery lets the event loop deliver them.
	srv := compute.NewServer(post, compute.Options{Yield: func() { time.Sleep(time.Millisecond) }})
	// Get the parser optimised before the user's first file arrives (the
	// page shows "Starting…" until Ready; messages sent meanwhile wait).
	if err := compute.WarmUp(1); err != nil {
		jsdom.Log("cleanex worker: ", err)
	}
	post(protocol.Ready{})
	for msg := range self.Messages {
		if msg.Err != nil {
			jsdom.Log("cleanex worker: ", msg.Err)
			continue
		}
		m, err := protocol.Decode(msg.Data)
		if err != nil {
			jsdom.Log("cleanex worker: ", err)
			continue
		}
		switch m := m.(type) {
		case protocol.Crash:
			panic("cleanex worker: crash requested: " + m.Reason)
		case protocol.Prepare:
			// The file comes with the message (a File or Blob), read piece
			// by piece; the worker answers when it is prepared.
			if jsdom.IsBlob(msg.Attached) {
				r := jsdom.NewBlobReader(msg.Attached)
				srv.Prepare(m, r, r.Size())
				continue
			}
		}
		srv.Handle(m)
	}
}
