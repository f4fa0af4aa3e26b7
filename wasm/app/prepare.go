//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/compute"
	"github.com/cleanex/cleanex/internal/jsdom"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/summary"
	"github.com/cleanex/cleanex/web"
)

// prepState is a file being prepared (protocol.Prepare) in one worker,
// or for embeddings in several, each summarising a range of the test
// points: the workers (one per part), the data set, and the LoadBinary
// the worker posted or the page joined from the parts (undefined until
// then), which the page forwards to the compute workers.
type prepState struct {
	workers []*slot
	id      uint64
	source  string
	bin     jsdom.Value
	// parts holds, when the file is prepared in several parts, each
	// part's Part message (kept in JavaScript; undefined until it came)
	// and progress; nil when one worker prepares it whole.
	parts []prepPart
	// pending is the first LoadBinary's Pending (KDE's C_x, which the
	// worker computes after it and posts in a second one); adopted is set
	// once the page has made the data set current, the worker then
	// working on the pending values only.
	pending string
	adopted bool
	// fromSpare is true when the spare became the preparing worker (a new
	// spare is started once the file is prepared).
	fromSpare bool
	ended     bool
}

// prepPart is one part of a file prepared in parts: its Part message (js,
// undefined until it came; head its fields) and its latest progress.
type prepPart struct {
	js          jsdom.Value
	head        protocol.Part
	stage       string
	done, total int
}

// index returns the part of worker s in preparation p (-1: not one of its
// workers).
func (p *prepState) index(s *slot) int {
	return slices.Index(p.workers, s)
}

// busy returns the busy line of a file prepared in parts: the stage the
// slowest part is at, and the mean over the parts of the fraction of that
// stage done (a part past it counting as done).
func (p *prepState) busy() string {
	stage := compute.StageSummarising
	for _, pt := range p.parts {
		if pt.stage != compute.StageSummarising {
			stage = compute.StageReading
		}
	}
	frac := 0.0
	for _, pt := range p.parts {
		switch {
		case pt.stage != stage:
			if stage == compute.StageReading && pt.stage == compute.StageSummarising {
				frac++
			}
		case pt.total > 0:
			frac += float64(pt.done) / float64(pt.total)
		}
	}
	return web.PrepareBusy(p.source, stage, int(1000*frac/float64(len(p.parts))), 1000)
}

// errNewerLoad ends a load (or a preparation) that a newer load made
// pointless; it returns it and shows nothing (the newer load shows its own).
var errNewerLoad = errors.New("another data set was loaded meanwhile")

// prepareThreshold returns the file size from which the page prepares a
// file in one worker: web.PrepareBytes, or N from ?prepare=N in the page
// URL's query (0 prepares every file; the browser tests use it).
func prepareThreshold(search string) float64 {
	if i := strings.Index(search, "prepare="); i >= 0 {
		if n, err := strconv.ParseFloat(strings.SplitN(search[i+len("prepare="):], "&", 2)[0], 64); err == nil && n >= 0 {
			return n
		}
	}
	return web.PrepareBytes
}

// prepares reports whether req is loaded by preparing it in one worker: a
// File or Blob given as such, or bytes of at least prepareBytes, bytes
// whose first bytes show embeddings (web.LooksLikeEmbeddings), or a load
// that chooses a scoring of embeddings. Bytes are then put in a Blob
// (req.file), which the page keeps for Reload instead of the bytes.
func (a *app) prepares(req *loadRequest) bool {
	if req.sim != nil {
		return false
	}
	if !req.file.IsUndefined() {
		return true
	}
	head, err := jsdom.Head(req.dataJS, scores.SniffBytes)
	if err != nil {
		return false // the workers say what is wrong with the bytes
	}
	n := float64(jsdom.ByteLength(req.dataJS))
	a.env.RLock()
	threshold := a.prepareBytes
	a.env.RUnlock()
	if n < threshold && !web.LooksLikeEmbeddings(head) && req.metric == "" && req.reference == "" {
		return false
	}
	blob, err := jsdom.NewBlob(req.dataJS)
	if err != nil {
		a.log.Report("keeping the data as a Blob", err)
		return false // sent to every worker as bytes
	}
	req.file, req.size, req.head, req.dataJS = blob, n, head, jsdom.Value{}
	return true
}

// loadPrepared loads req.file by preparing it in one worker: the spare
// when it is ready, else a worker started for it. That worker reads the
// file piece by piece and answers with the pilot's per-point summaries in
// binary form (a LoadBinary, kept in JavaScript) and its summary; the page
// then sends that message to every compute worker (and to any worker that
// replaces one later). Embeddings are prepared in one part per compute
// worker (prepParts), in as many preparing workers, each sent the file
// (by reference) and scoring a range of the test points (a Part); the
// page joins the parts into the LoadBinary in JavaScript (joinParts), and
// the first of them answers with the summary. For a score matrix the first LoadBinary lacks KDE's
// C_x, which the worker computes next from the rows it kept while the
// other methods fit; its second LoadBinary replaces the first (finishKDE).
// The preparing worker is terminated once it has answered, giving back
// the memory the file took. A file whose preparation would need more memory
// than the tab can give is refused before it is read (web.CheckPrepare).
// A run under way is stopped only once the file has been read. On failure
// the error is shown and everything on screen, the run included, stays.
func (a *app) loadPrepared(req loadRequest) (protocol.Summary, error) {
	a.env.Lock()
	// Refused before anything changes: a run or a load under way goes
	// on. The compute workers and the spare each receive the data set.
	if err := web.CheckPrepare(req.source, req.size, req.head, web.PrepareBudget(jsdom.DeviceMemoryGB()), len(a.slots)+1); err != nil {
		a.st.Error = err.Error() + "."
		a.env.UnlockRender()
		return protocol.Summary{}, err
	}
	// A run under way goes on while the file is read in a worker of its
	// own, and stops only once the file proved readable.
	a.stopPrep()
	id := a.id()
	// A preparation that fails gives the newest place back to the load
	// before, which may still come, as a plain load does (load).
	prevLoad := a.loadID
	giveBack := func() {
		if a.loadID == id {
			a.loadID = prevLoad
		}
	}
	a.loadID = id
	ch := make(chan loadOutcome, 1)
	a.loads[id] = ch
	a.setBusy(loading, "Reading "+req.source+"…")
	a.st.Error = ""
	p, err := a.startPrep(id, req)
	if err != nil {
		delete(a.loads, id)
		giveBack()
		a.setBusy(idle, "")
		a.st.Error = "Could not read " + req.source + ": " + err.Error()
		a.env.UnlockRender()
		return protocol.Summary{}, err
	}
	a.env.UnlockRender()
	out := <-ch

	a.env.Lock()
	defer a.env.UnlockRender()
	if out.err != nil || out.pending == "" {
		a.endPrep(p)
	}
	if errors.Is(out.err, errNewerLoad) {
		return protocol.Summary{}, out.err
	}
	a.setBusy(idle, "")
	if out.err != nil {
		giveBack()
		a.st.Error = "Could not read " + req.source + ": " + out.err.Error()
		a.spareAfterPrep()
		return protocol.Summary{}, out.err
	}
	a.cancelRun("new data")
	// The worker goes on computing KDE's C_x, if pending; KDE's fits wait
	// for them (nextTask), the others start now.
	p.adopted = true
	sum := a.adopt(req, id, out.sum, out.loadJS, out.pending)
	if a.run == nil || a.run.finished {
		a.spareAfterPrep()
	}
	return sum, nil
}

// finishKDE takes the second LoadBinary of preparation p, the data set
// with KDE's C_x, with env locked: it replaces the message that loads the
// data set and goes to every worker (a fit under way keeps the data set
// it started with), KDE's fits may start, and the preparing worker is
// terminated.
func (a *app) finishKDE(p *prepState, bin jsdom.Value) {
	a.endPrep(p)
	if p.id != a.dataset {
		return
	}
	a.loadJS, a.kdePending = bin, ""
	for _, s := range append(slices.Clone(a.slots), a.spare) {
		if s != nil {
			s.loaded = 0
			a.sendData(s)
		}
	}
	a.fill()
	if a.run == nil || a.run.finished {
		a.spareAfterPrep()
	}
}

// failKDE records, with env locked, that the C_x preparation p was to
// compute for KDE will not come (why): KDE's fits on its data set fail
// with that reason, and the worker is terminated.
func (a *app) failKDE(p *prepState, why error) {
	a.endPrep(p)
	if p.id == a.dataset && a.kdePending != "" {
		a.kdePending, a.kdeErr = "", fmt.Errorf("kde: %w", why)
		a.fill()
	}
}

// prepParts returns in how many parts the file of req is prepared: one
// per compute worker for embeddings (web.LooksLikeEmbeddings), each part's
// worker reading the file and summarising a range of its test points, when
// the tab can hold that many preparing workers (compute.PrepareNeed
// each); else 1, one worker preparing it whole.
func (a *app) prepParts(req loadRequest) int {
	n := len(a.slots)
	if n < 2 || !web.LooksLikeEmbeddings(req.head) {
		return 1
	}
	need := compute.PrepareNeed(req.size, req.head)
	if float64(n)*need.Bytes+float64(n+1)*need.PerWorker > web.PrepareBudget(jsdom.DeviceMemoryGB()) {
		return 1
	}
	return n
}

// startPrep sends the Prepare of data set id, with req's file, to each
// preparing worker: the ready spare (which then leaves the spare's place)
// and workers started for it, one per part (prepParts); and records the
// preparation, with env locked.
func (a *app) startPrep(id uint64, req loadRequest) (*prepState, error) {
	p := &prepState{id: id, source: req.source}
	parts := a.prepParts(req)
	a.prep = p
	for i := range parts {
		if sp := a.spare; sp != nil && sp.ready {
			p.fromSpare, a.spare = true, nil
			if c := a.check; c != nil {
				a.endCheck(c.id, loadOutcome{err: errNewerLoad})
			}
			sp.idx = prepIdx
			p.workers = append(p.workers, sp)
			continue
		}
		s, err := startSlot(prepIdx, a.inbox)
		if err != nil {
			if i > 0 {
				break // fewer parts
			}
			a.endPrep(p)
			return nil, err
		}
		p.workers = append(p.workers, s)
	}
	if len(p.workers) > 1 {
		p.parts = make([]prepPart, len(p.workers))
	}
	for i, s := range p.workers {
		msg := protocol.Prepare{Dataset: id, Direction: req.dir, Metric: req.metric, Reference: req.reference}
		if p.parts != nil {
			msg.Part, msg.Parts = i, len(p.parts)
		}
		if err := s.sendWith(msg, req.file); err != nil {
			a.endPrep(p)
			return nil, err
		}
	}
	return p, nil
}

// endPrep terminates the workers of preparation p, once, with env locked;
// when the spare was one, a new spare is due (spareAfterPrep).
func (a *app) endPrep(p *prepState) {
	if p.ended {
		return
	}
	p.ended = true
	if a.prep == p {
		a.prep = nil
	}
	for _, s := range p.workers {
		a.log.Report("terminating a worker that prepared a file", s.w.Terminate())
	}
	if p.fromSpare {
		a.spareAfterRun = true
	}
}

// dropWorkers terminates the workers of preparation p but the first (their
// later messages are ignored): their parts have come, or the first worker
// prepares the file whole.
func (a *app) dropWorkers(p *prepState) {
	for _, s := range p.workers[1:] {
		a.log.Report("terminating a worker that prepared a part of a file", s.w.Terminate())
	}
	p.workers = p.workers[:1]
}

// joinParts joins the parts of preparation p, once every one has come,
// with env locked: the pieces of their binary forms (summary.AssemblePlan)
// are copied in JavaScript into one LoadBinary after its first bytes
// (protocol.LoadBinaryPrefix), which the first worker receives with a
// Describe (it answers with the Summary, as a worker that prepared the
// file whole does); the other workers are terminated.
func (a *app) joinParts(p *prepState) error {
	heads := make([][]byte, len(p.parts))
	sizes := make([]int, len(p.parts))
	bins := make([]jsdom.Value, len(p.parts))
	for i, pt := range p.parts {
		bin, err := pt.js.Call("subarray", pt.head.At)
		if err != nil {
			return err
		}
		fixed, err := jsdom.Head(bin, summary.PointsFixed)
		if err != nil {
			return err
		}
		ph, err := summary.ReadPointsHead(fixed)
		if err != nil {
			return err
		}
		if heads[i], err = jsdom.Head(bin, summary.PointsFixed+ph.H); err != nil {
			return err
		}
		bins[i], sizes[i] = bin, jsdom.ByteLength(bin)
	}
	pieces, total, err := summary.AssemblePlan(heads, sizes)
	if err != nil {
		return err
	}
	h := p.parts[0].head
	prefix := protocol.LoadBinaryPrefix(protocol.LoadBinary{Dataset: p.id, Direction: h.Direction, Detected: h.Detected, Embedding: h.Embedding}, total)
	u8, err := jsdom.Global().Get("Uint8Array")
	if err != nil {
		return err
	}
	out, err := u8.New(len(prefix) + total)
	if err != nil {
		return err
	}
	pre, err := jsdom.BytesToJS(prefix)
	if err != nil {
		return err
	}
	if _, err := out.Call("set", pre, 0); err != nil {
		return err
	}
	at := len(prefix)
	for _, pc := range pieces {
		piece, err := bins[pc.Part].Call("subarray", pc.Off, pc.Off+pc.Len)
		if err == nil {
			_, err = out.Call("set", piece, at)
		}
		if err != nil {
			return err
		}
		at += pc.Len
	}
	for i := range p.parts {
		p.parts[i].js = jsdom.Value{}
	}
	a.dropWorkers(p)
	p.bin, p.pending = out, ""
	if err := p.workers[0].sendCopy(out); err != nil {
		return err
	}
	return p.workers[0].sendMsg(protocol.Describe{Dataset: p.id})
}

// stopPrep ends the preparation under way, if any, with env locked: a
// newer load supersedes it (its load returns errNewerLoad).
func (a *app) stopPrep() {
	p := a.prep
	if p == nil {
		return
	}
	if p.adopted {
		a.failKDE(p, errors.New("its per-point values were not computed: another file was loaded meanwhile; load this one again for KDE"))
		return
	}
	a.endPrep(p)
	a.settlePrep(p, loadOutcome{err: errNewerLoad})
}

// settlePrep answers the load waiting for preparation p, once.
func (a *app) settlePrep(p *prepState, out loadOutcome) {
	if ch := a.loads[p.id]; ch != nil {
		delete(a.loads, p.id)
		ch <- out
	}
}

// spareAfterPrep starts a new spare when the spare prepared a file and no
// file is being prepared, with env locked. It is called when the data set
// is shown, or after the run that follows it, so the new spare's start
// does not slow that run.
func (a *app) spareAfterPrep() {
	if a.spareAfterRun && a.spare == nil && a.prep == nil {
		a.spareAfterRun = false
		a.startSpare()
	}
}

// onPrep handles a message from a preparing worker, with env locked: its
// progress shows in the busy line; its LoadBinary is kept, or its Part,
// and once every part has come the page joins them (joinParts); its
// summary or error answers the load; a worker that stopped fails it.
func (a *app) onPrep(in inbound) {
	p := a.prep
	part := p.index(in.s)
	if in.stopped {
		if p.adopted {
			a.failKDE(p, fmt.Errorf("the worker computing its per-point values stopped (%s)", in.why))
			return
		}
		a.settlePrep(p, loadOutcome{err: errors.New(web.WorkerStoppedLoading(in.why))})
		return
	}
	if in.err != nil {
		a.log.Report("a message from the worker preparing a file", in.err)
		return
	}
	switch m := in.m.(type) {
	case protocol.Ready:
		a.log.Report("sending the preparing worker its file", in.s.markReady())
	case protocol.Progress:
		switch {
		case m.Run != 0 || a.activity != loading:
		case p.parts != nil:
			p.parts[part].stage, p.parts[part].done, p.parts[part].total = m.Method, m.Step, m.Total
			a.st.Busy = p.busy()
		default:
			a.st.Busy = web.PrepareBusy(p.source, m.Method, m.Step, m.Total)
		}
	case protocol.Part:
		if m.Dataset != p.id || p.parts == nil || m.Part != part || m.Parts != len(p.parts) {
			return
		}
		p.parts[part].js, p.parts[part].head = in.js, m
		for _, pt := range p.parts {
			if pt.js.IsUndefined() {
				return
			}
		}
		if err := a.joinParts(p); err != nil {
			a.settlePrep(p, loadOutcome{err: fmt.Errorf("joining the parts prepared by %d workers: %w", len(p.parts), err)})
		}
		p.parts = nil
	case protocol.LoadBinary:
		if p.parts != nil && part == 0 && m.Dataset == p.id {
			// Not embeddings after all: the first worker prepares the
			// file whole (protocol.Prepare), the others are not needed.
			a.dropWorkers(p)
			p.parts = nil
		}
		switch {
		case m.Dataset != p.id:
		case p.bin.IsUndefined():
			p.bin, p.pending = in.js, m.Pending
		case p.adopted:
			a.finishKDE(p, in.js)
		}
	case protocol.Summary:
		if m.Dataset != p.id {
			return
		}
		if p.bin.IsUndefined() {
			a.settlePrep(p, loadOutcome{err: errors.New("the worker that read the file sent no per-point summaries; please try again")})
			return
		}
		a.settlePrep(p, loadOutcome{sum: m, loadJS: p.bin, pending: p.pending})
	case protocol.Error:
		switch {
		case m.Dataset != p.id || m.Run != 0:
		case p.adopted:
			a.failKDE(p, errors.New(m.Message))
		default:
			a.settlePrep(p, loadOutcome{err: errors.New(m.Message)})
		}
	}
}
