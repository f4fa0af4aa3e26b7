//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cleanex/cleanex/internal/compute"
	"github.com/cleanex/cleanex/internal/halfsample"
	"github.com/cleanex/cleanex/internal/jsdom"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/report"
	"github.com/cleanex/cleanex/web"
	"github.com/vugu/vugu"
)

// notStopped is why a worker that did not stop when its run was cancelled
// was replaced, as the page says it.
const notStopped = "it did not stop when asked"

// errCancelled rejects a run that was cancelled.
var errCancelled = errors.New("cancelled")

// stopGrace is how long a cancelled worker may take to go idle before it is
// terminated and replaced. A Go worker sees Cancel only between progress
// calls, and one step of a large fit can take seconds, so cancel does not
// wait for it: every method stops within about 200 ms of a cancel.
const stopGrace = 150 * time.Millisecond

// spareDelay is how long after a data set is loaded the spare worker gets it.
const spareDelay = 500 * time.Millisecond

// maxWorkers bounds the compute workers (each holds a copy of the data set).
const maxWorkers = 8

// app owns the workers and the data; it implements web.Backend. Every field
// is read and written with env locked (state changes end in UnlockRender).
type app struct {
	env vugu.EventEnv
	st  *web.State
	// log reports to the console the errors the page cannot act on.
	log jsdom.Reporter
	// search is the page URL's query string.
	search string
	// activity is what State.Busy is about.
	activity activity

	slots []*slot
	spare *slot
	// check is the file the spare reads while a run goes on, before the
	// run is stopped for it (checkFirst); nil when none.
	check  *fileCheck
	inbox  chan inbound
	nextID uint64
	// loadID is the data set of the newest load started: a load that ends
	// after a newer one started shows nothing (errNewerLoad).
	loadID uint64

	// The current data set: its id, the message that loads it (replayed to
	// replaced workers), its file's bytes (for Reload), and what the worker said.
	dataset uint64
	loadJS  jsdom.Value // the encoded Load/Simulate message, kept on the JS side
	dataJS  jsdom.Value // the current file's bytes, any format (a Uint8Array), for Reload
	// fileJS is instead the current file as a File or Blob when it was
	// prepared in one worker (prepare.go), with its size and first bytes.
	fileJS   jsdom.Value
	fileSize float64
	fileHead []byte
	hasFile  bool
	fileDir  string // the direction the current file was read with
	summary  protocol.Summary
	loads    map[uint64]chan loadOutcome
	// resend sends a pending load's messages to a new worker 0 (one that
	// replaced a worker that did not stop when a run was cancelled).
	resend map[uint64]func(*slot) error
	// sim is the current data set's simulation (nil for a file).
	sim *protocol.SimConfig
	// reveal is the element to scroll into view after the next render
	// ("" for none): a message the user may not see where they are.
	reveal string
	// lateTruth is a simulation's truth curve that came after its summary
	// (a preview load asks another worker for it), for data set lateID.
	lateID    uint64
	lateTruth []float64
	// preview holds the curves computed on the page for the current data
	// set (web.WithPlugin), kept on screen by the run that follows until it
	// has its own.
	preview []report.Method
	// slideGen numbers the slider moves; a re-simulation waits for the last.
	slideGen int
	// parquet is the Parquet reader converting a file, if any (parquet.go).
	parquet *jsdom.Worker
	// prep is the preparation of a file under way, if any (prepare.go);
	// prepareBytes the file size from which a file is prepared
	// (web.PrepareBytes, or the page URL's ?prepare=N); spareAfterRun
	// starts a new spare once the run under way ends (the spare prepared
	// the file, and a new one starting would slow the run).
	prep          *prepState
	prepareBytes  float64
	spareAfterRun bool
	// kdePending is the key of KDE's C_x while the worker that prepared
	// the current data set still computes them ("" otherwise): KDE's fits
	// wait for them (nextTask). kdeErr is why they will not come.
	kdePending string
	kdeErr     error

	run *runState
	// liveLoss and liveStep sample CleaneX's loss from its progress messages
	// while it trains; liveTotal is its planned number of steps.
	liveLoss, liveStep []float64
	liveTotal          int
	// liveCurve is CleaneX's latest predicted curve while it trains;
	// liveTask is the task of the run whose training is shown (-1: none).
	liveCurve []float64
	liveTask  int
	charts    charts
	// table is the embedded calibration table (recommend.DefaultTable) and
	// tableErr why it could not be read.
	table    recommend.Table
	tableErr error
}

// activity is what the page's busy line (State.Busy) is about.
type activity int

const (
	idle     activity = iota // no busy line
	starting                 // the workers are starting
	loading                  // a data set is being read, fetched or simulated
)

// setBusy shows text as the busy line, about act.
func (a *app) setBusy(act activity, text string) {
	a.activity, a.st.Busy = act, text
}

// onPage takes an error that load, simulate, runMethods or startRun has
// already shown on the page (in State.Error, or a cancelled run's Status):
// the user has it, so it is only logged to the console, once, for whoever
// debugs the page.
func (a *app) onPage(err error) {
	a.log.Report("shown on the page", err)
}

// loadOutcome is what worker 0 answers to a load: its summary or why it failed.
type loadOutcome struct {
	sum protocol.Summary
	err error
	// loadJS is, for a prepared load, the LoadBinary message the
	// preparing worker posted, which loads the data set in the others;
	// pending is its Pending (KDE's C_x, which a later one brings).
	loadJS  jsdom.Value
	pending string
}

// runState is one run: the fits of its plan, sent to the workers one Run
// message each.
type runState struct {
	id, dataset uint64
	k2          int
	// settings are the run's settings (State.RanWith once it finishes).
	settings web.Share
	plan     *web.Plan
	// queue holds the plan's tasks not started yet; active counts those
	// running on a worker.
	queue      []int
	active     int
	start      time.Time
	onProgress jsdom.Value
	done       chan struct{}
	err        error
	finished   bool
	// base is the pilot's curves without results; results what is shown.
	base, results report.Curves
	// outcome is the recommendation, once every fit has ended.
	outcome recommend.Outcome
	// prev is what was shown before the run started, shown again if it is
	// cancelled.
	prev shown
	// preview is the data set's preview curves (app.preview).
	preview []report.Method
}

// shown is a finished run's results on screen.
type shown struct {
	ok bool
	// ran holds the run settings of the results (State.RanWith, set with
	// them whenever a run finishes).
	ran      web.Share
	progress []web.MethodProgress
	results  report.Curves
	rec      *web.Recommendation
	failed   map[string]string
	skipped  map[string]string
	// fragment is the address's fragment (the share link's settings) that
	// went with them.
	fragment string
}

// newApp returns the app for the page's state st, its workers not started yet.
func newApp(env vugu.EventEnv, st *web.State) *app {
	a := &app{env: env, st: st, inbox: make(chan inbound, 256), loads: map[uint64]chan loadOutcome{}, resend: map[uint64]func(*slot) error{}, liveTask: -1}
	a.charts.logX = true
	a.table, a.tableErr = recommend.DefaultTable()
	return a
}

// id returns a new data set or run id.
func (a *app) id() uint64 { a.nextID++; return a.nextID }

// start launches the workers, the dispatcher, the JS API and the example.
func (a *app) start() {
	// One worker per core (navigator.hardwareConcurrency, at most
	// maxWorkers): a run has up to eight fits (four of them CleaneX's), so
	// they all run in parallel where the cores allow; ?workers=N overrides it
	// (the browser tests use it to exercise several workers on 2 cores).
	n := min(max(jsdom.HardwareConcurrency(), 1), maxWorkers)
	search := ""
	if loc, err := jsdom.Path(jsdom.Global(), "location"); err == nil {
		search = jsdom.String(loc, "search")
	}
	if i := strings.Index(search, "workers="); i >= 0 {
		if w, err := strconv.Atoi(strings.SplitN(search[i+len("workers="):], "&", 2)[0]); err == nil && w >= 1 && w <= 8 {
			n = w
		}
	}
	a.env.Lock()
	a.search = search
	a.prepareBytes = prepareThreshold(search)
	for i := 0; i < n; i++ {
		s, err := startSlot(i, a.inbox)
		if err != nil {
			a.st.Error = "Could not start the compute worker: " + err.Error()
			a.env.UnlockRender()
			return
		}
		a.slots = append(a.slots, s)
	}
	a.startSpare()
	a.setBusy(starting, "Starting…")
	a.env.UnlockRender()
	go a.dispatch()
	if err := a.registerAPI(); err != nil {
		jsdom.Log("cleanex: registering window.cleanex: ", err)
	}
	// A link put in the address of the open page changes only its fragment
	// (the page is not loaded again): it is followed as one the page opened
	// on. The page's own changes of the fragment (setFragment) replace it
	// without this event.
	if _, err := jsdom.Listen(jsdom.Global(), "hashchange", func(jsdom.Value) { go a.openLink(jsdom.Hash()) }); err != nil {
		jsdom.Log("cleanex: following links put in the address: ", err)
	}
	// The example: the paper's setting with k1 = 100, k2 = 2000, all methods
	// (skipped with ?example=0, which the browser tests use).
	if a.openLink(jsdom.Hash()) {
		return
	}
	if strings.Contains(search, "example=0") {
		return
	}
	a.env.RLock()
	cfg := a.st.Sim
	a.env.RUnlock()
	if _, err := a.simulate(cfg, "Example: simulated data (paper's setting)", true); err != nil {
		a.onPage(err)
	}
}

// openLink reproduces the share link whose fragment is frag (without its
// "#"): its settings go into the page's controls and its simulation is
// made and run. A link that cannot be read is said to be so on the page,
// and nothing runs (rather than answer another question under the user's
// link). It reports whether frag held a link, read or not.
func (a *app) openLink(frag string) bool {
	sh, err := web.DecodeShare(frag)
	switch {
	case errors.Is(err, web.ErrNoShare):
		return false
	case err != nil:
		a.env.Lock()
		a.st.Error, a.reveal = web.BadLink(err), "error"
		a.env.UnlockRender()
		return true
	}
	a.env.Lock()
	a.st.Apply(sh)
	a.env.UnlockRender()
	if _, err := a.reproduce(sh.Sim); err != nil {
		a.onPage(err)
	}
	return true
}

// progressRender is the shortest interval between two renders caused by
// progress messages alone (each render rebuilds the page's virtual DOM).
const progressRender = 200 * time.Millisecond

// dispatch handles the workers' messages, one at a time. Progress
// messages request a render at most every progressRender; the others at once.
func (a *app) dispatch() {
	var last time.Time
	pending := false
	tick := time.NewTicker(progressRender)
	defer tick.Stop()
	for {
		select {
		case in := <-a.inbox:
			a.env.Lock()
			a.handle(in)
			if _, ok := in.m.(protocol.Progress); ok && time.Since(last) < progressRender {
				pending = true
				a.env.UnlockOnly()
				continue
			}
			pending, last = false, time.Now()
			a.env.UnlockRender()
		case <-tick.C:
			if pending {
				a.env.Lock()
				pending, last = false, time.Now()
				a.env.UnlockRender()
			}
		}
	}
}

// handle acts on one message from a worker, with env locked: the spare's
// concern the spare alone, a replaced worker's are dropped, a worker that
// stopped is replaced, and each message kind has its handler.
func (a *app) handle(in inbound) {
	s := in.s
	if s == a.spare {
		a.onSpare(in)
		return
	}
	if p := a.prep; p != nil && p.index(s) >= 0 {
		a.onPrep(in)
		return
	}
	if !a.current(s) {
		return // from a replaced worker
	}
	switch {
	case in.stopped:
		a.onStopped(s, in.why)
		return
	case in.err != nil:
		a.log.Report("a message from a compute worker", in.err)
		return
	}
	switch m := in.m.(type) {
	case protocol.Ready:
		a.onReady(s)
	case protocol.Summary:
		a.onSummary(m)
		if s.truth == m.Dataset && m.Truth != nil {
			a.endTruth(s)
		}
	case protocol.Error:
		if s.truth != 0 && s.truth == m.Dataset {
			a.endTruth(s)
		}
		a.onError(s, m)
	case protocol.Progress:
		a.onProgress(s, m)
	case protocol.Result:
		a.onResult(s, m)
	}
}

// onStopped replaces worker s, whose Go program ended (why: what its
// script said), and says so.
func (a *app) onStopped(s *slot, why string) {
	a.st.Error = "A compute worker stopped (" + why + "). It was replaced; your data and results are kept."
	a.replace(s, why, false)
	a.fill()
}

// onReady sends worker s its queued messages and gives it work; the first
// ready worker ends the page's start-up.
func (a *app) onReady(s *slot) {
	if err := s.markReady(); err != nil {
		a.log.Report("sending a worker its queued messages", err)
	}
	if a.activity == starting {
		a.setBusy(idle, "")
	}
	a.fill()
}

// onSummary answers the load waiting for data set m.Dataset, or adds a
// simulation's truth curve that came after its summary.
func (a *app) onSummary(m protocol.Summary) {
	if ch := a.loads[m.Dataset]; ch != nil {
		delete(a.loads, m.Dataset)
		ch <- loadOutcome{sum: m}
	} else if m.Truth != nil {
		a.addTruth(m.Dataset, m.Truth)
	}
}

// onError fails the load (from worker 0) or the fit that m is about.
func (a *app) onError(s *slot, m protocol.Error) {
	if m.Run == 0 {
		if ch := a.loads[m.Dataset]; ch != nil && s.idx == 0 {
			delete(a.loads, m.Dataset)
			ch <- loadOutcome{err: errors.New(m.Message)}
		}
		return
	}
	task := s.endTask(m.Run)
	if r := a.run; r != nil && r.id == m.Run && !r.finished && task >= 0 {
		r.active--
		r.plan.Fail(task, errors.New(m.Message))
		a.dropLive(task)
	}
	a.fill()
}

// onProgress updates the progress bar of worker s's fit, CleaneX's live
// loss and curve when that fit is the one shown, and calls the run's
// onProgress callback; from the worker computing the shown simulation's
// truth curve, it updates the share of it done (the headline says it).
func (a *app) onProgress(s *slot, m protocol.Progress) {
	if m.Run == 0 && m.Method == compute.TruthTask {
		// The truth curve of the simulation on screen, computed by s.
		if s.truth != 0 && s.truth == a.dataset && a.st.TruthPending && m.Total > 0 {
			a.st.TruthDone = float64(m.Step) / float64(m.Total)
		}
		return
	}
	r := a.run
	if r == nil || r.id != m.Run || r.finished || s.run != m.Run {
		return
	}
	task := s.task
	r.plan.Progress(task, m.Step, m.Total, m.Loss, m.ETA)
	a.st.Progress = r.plan.Bars()
	if live := r.plan.LiveTask(); live == task {
		if live != a.liveTask {
			a.liveTask, a.liveLoss, a.liveStep = live, nil, nil
		}
		if !math.IsNaN(m.Loss) {
			a.liveLoss = append(a.liveLoss, m.Loss)
			a.liveStep = append(a.liveStep, float64(m.Step))
			a.liveTotal = m.Total
			a.charts.lossDirty = true
		}
		if m.Curve != nil {
			a.liveCurve = m.Curve
			a.charts.liveDirty = true
		}
	}
	a.reportProgress(r, task, m)
}

// onResult records the fit that worker s finished and shows the run's
// curves so far.
func (a *app) onResult(s *slot, m protocol.Result) {
	task := s.endTask(m.Run)
	r := a.run
	if r == nil || r.id != m.Run || r.finished || task < 0 {
		a.fill()
		return
	}
	r.active--
	r.plan.Finish(task, web.Fit{Curve: m.Curve, C: m.C, Losses: m.Losses, Seconds: m.Seconds, Spread: halfsample.FromWire(m.SpreadK, m.SpreadB), TailSpread: m.TailSpread})
	r.results = web.KeepPreview(r.plan.Partial(r.base, a.pilot(), r.k2), r.preview)
	a.st.Results = r.results
	a.charts.dirty = true
	a.fill() // it shows the progress bars
}

// fill starts queued fits on idle workers, and ends the run when all are done.
func (a *app) fill() {
	r := a.run
	if r == nil || r.finished {
		return
	}
	for _, s := range a.slots {
		if len(r.queue) == 0 {
			break
		}
		if !s.ready || s.run != 0 || s.truth != 0 {
			continue
		}
		i, ok := a.nextTask(r)
		if !ok {
			break
		}
		t := r.plan.Tasks[i]
		if err := s.sendMsg(protocol.Run{Dataset: r.dataset, Run: r.id, Method: t.Method, K2: r.k2, Preset: t.Preset, Seed: t.Seed, Spread: t.Spread}); err != nil {
			r.plan.Fail(i, err)
			continue
		}
		s.run, s.task = r.id, i
		r.active++
		r.plan.Start(i)
	}
	a.st.Progress = r.plan.Bars()
	if len(r.queue) == 0 && r.active == 0 {
		a.finishRun(r)
	}
}

// nextTask removes from r's queue and returns the first task a worker may
// start now: KDE's fits wait while the worker that prepared the data set
// computes KDE's C_x, and fail (taken off the queue) when those will not
// come; ok is false when no task may start.
func (a *app) nextTask(r *runState) (task int, ok bool) {
	for j := 0; j < len(r.queue); j++ {
		i := r.queue[j]
		if r.plan.Tasks[i].Method == methods.KDE && r.dataset == a.dataset {
			if a.kdePending != "" {
				continue
			}
			if a.kdeErr != nil {
				r.queue = slices.Delete(r.queue, j, j+1)
				j--
				r.plan.Fail(i, a.kdeErr)
				continue
			}
		}
		r.queue = slices.Delete(r.queue, j, j+1)
		return i, true
	}
	return -1, false
}

// finishRun assembles the recommendation of a run whose fits have all
// ended, and shows it.
func (a *app) finishRun(r *runState) {
	r.finished = true
	pilot := a.pilot()
	out := r.plan.Outcome(pilot, r.k2, a.table, a.tableErr)
	r.outcome = out
	r.results = r.plan.Curves(r.base, out)
	a.st.Results = r.results
	a.st.Failed = r.plan.Failures(out)
	a.st.Skipped = r.plan.Skipped()
	a.st.Rec = web.NewRecommendation(r.plan, pilot, r.k2, out, a.table, a.tableErr)
	a.st.RanWith = r.settings
	a.st.Running = false
	a.liveCurve, a.liveTask = nil, -1
	a.charts.dirty = true
	secs := time.Since(r.start).Seconds()
	a.st.Status = fmt.Sprintf("Finished in %.1f s.", secs)
	if n := len(a.st.Failed); n > 0 {
		a.st.Status += " " + limits.Count(n, "method", "methods") + " failed."
	}
	if n := len(a.st.Skipped); n > 0 {
		they := "they cannot"
		if n == 1 {
			they = "it cannot"
		}
		a.st.Status += " " + limits.Count(n, "method", "methods") + " skipped: " + they + " run on this pilot."
	}
	if len(r.results.Methods) == 0 && r.results.Estimate == nil && len(a.st.Failed)+len(a.st.Skipped) > 0 {
		whys := map[string]string{}
		maps.Copy(whys, a.st.Failed)
		for m, why := range a.st.Skipped {
			whys[m] = "skipped " + m + ": " + why
		}
		r.err = errors.New(joinByKey(whys))
	}
	close(r.done)
	a.spareAfterPrep()
}

// pilot returns what the recommendation needs of the current data set.
func (a *app) pilot() web.Pilot {
	return web.Pilot{K1: a.summary.K, N: a.summary.N, Observed: a.summary.Observed, ClassSE: a.summary.ClassSE, TiedShare: a.summary.TiedShare, Squashed: a.summary.Squashed}
}

// joinByKey returns every message of errs, in the order of their keys,
// joined by "; ".
func joinByKey(errs map[string]string) string {
	parts := make([]string, 0, len(errs))
	for _, k := range slices.Sorted(maps.Keys(errs)) {
		parts = append(parts, errs[k])
	}
	return strings.Join(parts, "; ")
}

// replace puts a new worker in the place of worker s (pool.go: swap) and
// settles what s was doing: a pending load is sent again to a new worker 0
// when s was stuck (it did not stop when its run was cancelled, and a new
// data set cancels the run) and fails otherwise, so that it cannot hang;
// the fit s was running fails, saying why (what the page shows).
func (a *app) replace(s *slot, why string, stuck bool) {
	ns, err := a.swap(s)
	if err != nil {
		a.st.Error = "A compute worker stopped and could not be restarted: " + err.Error()
		return
	}
	if s.idx == 0 {
		for id, ch := range a.loads {
			if p := a.prep; p != nil && p.id == id {
				continue // worker 0 has no part in it
			}
			if send := a.resend[id]; stuck && send != nil && send(ns) == nil {
				ns.loaded = id
				continue
			}
			delete(a.loads, id)
			delete(a.resend, id)
			ch <- loadOutcome{err: errors.New(web.WorkerStoppedLoading(why))}
		}
	}
	if s.truth != 0 && s.truth == a.dataset && a.sim != nil && a.summary.Truth == nil {
		// The truth curve it was computing is asked of its successor.
		a.log.Report("asking a new worker for the truth curve", a.askTruth(ns, a.dataset, *a.sim))
	}
	if r := a.run; r != nil && !r.finished && s.run == r.id && s.task >= 0 {
		r.active--
		msg := "the compute worker stopped (" + why + "); it was restarted"
		r.plan.Fail(s.task, errors.New(msg))
		a.st.Progress = r.plan.Bars()
		a.dropLive(s.task)
		a.st.Error = "A compute worker stopped while running " + r.plan.Tasks[s.task].Label() + " (" + why + "). It was restarted; your data and results are kept."
	}
}

// dropLive removes CleaneX's live curve when task, which failed, drew it.
func (a *app) dropLive(task int) {
	if task == a.liveTask && a.liveCurve != nil {
		a.liveCurve, a.liveTask, a.charts.dirty = nil, -1, true
	}
}

// loadRequest is a data set to load: a pilot file of any format the
// workers read (its bytes as a Uint8Array, never copied into Go) or a
// simulation.
type loadRequest struct {
	dataJS jsdom.Value
	// file is the pilot file as a File or Blob, for a load prepared in one
	// worker (prepare.go), with its size and first bytes; dataJS is then
	// undefined.
	file   jsdom.Value
	size   float64
	head   []byte
	dir    string
	sim    *protocol.SimConfig
	source string
	// metric and reference are the scoring of embeddings ("" for the
	// file's default); a load of embeddings is prepared.
	metric, reference string
	// andRun starts a run with the page's settings as soon as the data set
	// is loaded, in the same state change (one render, one chart drawing).
	andRun bool
	// keepK2 keeps the page's k2 (the same data read again, or a shared
	// link's or session's k2) instead of the new data set's default.
	keepK2 bool
	// withTruth waits for a simulation's truth curve before answering,
	// however slow it is (web.SlowTruth).
	withTruth bool
	// preview shows, with the new data set in the same state change, the
	// plug-in's curve computed on the page (web.WithPlugin), when the
	// plug-in is among the chosen methods.
	preview bool
}

// load sends a data set to every worker, waits for the summary, and on
// success makes it current. On failure the error is shown and everything
// on screen stays. A Parquet file is converted to CSV first (fromParquet);
// a large file, or embeddings, is prepared in one worker (loadPrepared).
// A load stops the preparation under way, if any.
func (a *app) load(req loadRequest) (protocol.Summary, error) {
	if req.sim != nil {
		// The page's bounds, the same from the form, a slider, the API, a
		// link and a session: what a link could not hold is not made.
		if err := web.CheckSim(*req.sim); err != nil {
			a.env.Lock()
			a.st.Error, a.reveal = web.SimError(err), "error"
			a.env.UnlockRender()
			return protocol.Summary{}, err
		}
	}
	if err := a.fromParquet(&req); err != nil {
		return protocol.Summary{}, err
	}
	if a.prepares(&req) {
		return a.loadPrepared(req)
	}
	if err := a.checkFirst(req); err != nil {
		return protocol.Summary{}, err
	}
	a.env.Lock()
	a.cancelRun("new data")
	a.stopPrep()
	id := a.id()
	// A load that fails gives the newest place back to the one before, which
	// may still come (the example loading when a broken file is dropped).
	prevLoad := a.loadID
	a.loadID = id
	ch := make(chan loadOutcome, 1)
	a.loads[id] = ch
	if req.sim != nil {
		a.setBusy(loading, "Simulating: "+strings.TrimPrefix(req.source, "Simulation ")+"…")
	} else {
		a.setBusy(loading, "Reading "+req.source+"…")
	}
	a.st.Error = ""
	// One encoding for every worker (a 25 MB file is copied to JavaScript
	// once, then cloned there); worker 0 also sends the summary.
	fail := func(err error) (protocol.Summary, error) {
		delete(a.loads, id)
		delete(a.resend, id)
		a.loadID = prevLoad
		a.setBusy(idle, "")
		a.st.Error = "Could not send the data to the worker: " + err.Error()
		if name := jsdom.ErrorName(err); name == "RangeError" {
			// Copying the data for the workers needs memory the tab lacks.
			a.st.Error = web.OutOfMemory(req.source, float64(jsdom.ByteLength(req.dataJS)))
		}
		a.env.UnlockRender()
		return protocol.Summary{}, err
	}
	var baseJS jsdom.Value
	var err error
	if req.sim != nil {
		var b []byte
		if b, err = protocol.Encode(protocol.Simulate{Dataset: id, Config: *req.sim}); err == nil {
			baseJS, err = jsdom.BytesToJS(b)
		}
	} else {
		baseJS, err = loadMessage(id, req)
	}
	if err != nil {
		return fail(err)
	}
	// The truth curve is computed by one worker: worker 0, which answers
	// with the summary, or, when the summary is wanted before the truth (a
	// preview, or a world whose truth takes long: web.SlowTruth), the last
	// idle worker (worker 0 after its summary when it is the only one), and
	// it is added when it comes (addTruth).
	lateTruth := req.sim != nil && (req.preview || (web.SlowTruth(*req.sim) && !req.withTruth))
	truthBy := 0
	if lateTruth {
		// An idle worker: one still running a cancelled fit may be replaced.
		for i := len(a.slots) - 1; i > 0; i-- {
			if s := a.slots[i]; s.ready && s.run == 0 && s.truth == 0 {
				truthBy = i
				break
			}
		}
	}
	for i, s := range a.slots {
		switch {
		case req.sim != nil && i == truthBy && lateTruth && i != 0:
			err = a.askTruth(s, id, *req.sim)
		case req.sim != nil && i == truthBy && !lateTruth:
			// the data set, its summary and its truth curve at once
			err = s.sendMsg(protocol.Simulate{Dataset: id, Config: *req.sim, WantSummary: true})
		default:
			err = s.sendCopy(baseJS)
		}
		if err == nil && i == 0 && (req.sim == nil || lateTruth) {
			err = s.sendMsg(protocol.Describe{Dataset: id})
		}
		if err == nil && i == 0 && lateTruth && truthBy == 0 {
			err = a.askTruth(s, id, *req.sim)
		}
		if err != nil {
			return fail(err)
		}
		s.loaded = id
	}
	a.resend[id] = func(s *slot) error {
		if req.sim != nil && !lateTruth {
			return s.sendMsg(protocol.Simulate{Dataset: id, Config: *req.sim, WantSummary: true})
		}
		if err := s.sendCopy(baseJS); err != nil {
			return err
		}
		if err := s.sendMsg(protocol.Describe{Dataset: id}); err != nil || !lateTruth || truthBy != 0 {
			return err
		}
		return a.askTruth(s, id, *req.sim)
	}
	a.env.UnlockRender()
	out := <-ch

	a.env.Lock()
	defer a.env.UnlockRender()
	delete(a.resend, id)
	if a.loadID != id {
		// A newer load started meanwhile (the API's load while the page's
		// example loads): it, not this one, is shown and run.
		return protocol.Summary{}, errNewerLoad
	}
	a.setBusy(idle, "")
	if out.err != nil {
		a.loadID = prevLoad
		if req.sim != nil {
			// The form that asked may be far below the message (a phone).
			a.st.Error, a.reveal = web.SimError(out.err), "error"
		} else {
			a.st.Error = "Could not read " + req.source + ": " + out.err.Error()
		}
		return protocol.Summary{}, out.err
	}
	return a.adopt(req, id, out.sum, baseJS, ""), nil
}

// adopt makes data set id, loaded by req, current, with env locked: its
// summary sum and loadJS, the message that loads it (replayed to replaced
// workers), go to every worker that lacks it; the page shows it, and with
// req.andRun runs the page's methods on it. kdePending is the key of
// KDE's C_x when a later message brings them (prepare.go), else "". It
// returns the summary shown.
func (a *app) adopt(req loadRequest, id uint64, sum protocol.Summary, loadJS jsdom.Value, kdePending string) protocol.Summary {
	if sum.Truth == nil && a.lateID == id {
		sum.Truth = a.lateTruth
	}
	a.lateID, a.lateTruth = 0, nil
	a.dataset, a.loadJS, a.summary = id, loadJS, sum
	a.kdePending, a.kdeErr = kdePending, nil
	// A worker replaced while this data set loaded has the previous one.
	for _, s := range a.slots {
		a.sendData(s)
	}
	// The spare gets the data a moment later, so that its parse does not
	// compete for the CPU with worker 0's, nor with drawing the first charts.
	if sp := a.spare; sp != nil {
		time.AfterFunc(spareDelay, func() {
			a.env.Lock()
			if a.spare == sp && a.dataset == id && sp.loaded != id {
				a.sendData(sp)
			}
			a.env.UnlockOnly()
		})
	}
	a.dataJS, a.fileJS, a.hasFile, a.sim = req.dataJS, req.file, req.sim == nil, req.sim
	a.fileSize, a.fileHead = req.size, req.head
	if req.sim == nil {
		a.st.Direction, a.fileDir = req.dir, req.dir
		a.st.Metric, a.st.Reference = sum.Embedding.Metric, sum.Embedding.Reference
	} else {
		a.st.Direction = web.SimDirection // the selector shows how a simulation is read
	}
	a.st.Summary = &sum
	a.st.Source = req.source
	k2 := 10 * sum.K
	if req.sim != nil {
		k2 = req.sim.K2
	}
	if req.keepK2 && a.st.K2 >= 2 {
		k2 = a.st.K2
	}
	a.st.SavedAnswer, a.st.SavedWarning, a.st.SavedSource = "", "", ""
	a.st.ShowK2(k2)
	if req.sim == nil {
		a.setLink(nil) // user data never goes into the address
	}
	a.st.Progress = nil
	a.st.Status = ""
	a.st.Rec, a.st.Failed, a.st.Skipped, a.st.RanWith = nil, nil, nil, web.Share{}
	a.st.CancelledEarly = false
	a.st.Previewing = req.preview // the answer bar says what is worked out until the run starts
	a.liveLoss, a.liveStep, a.liveCurve, a.liveTask = nil, nil, nil, -1
	a.st.Results = report.Curves{K1: sum.K, K2: k2, Observed: sum.Observed, Truth: sum.Truth}
	a.st.TruthPending, a.st.TruthDone = req.sim != nil && sum.Truth == nil, 0
	a.preview = nil
	if req.preview && slices.Contains(a.st.SelectedMethods(), methods.Plugin) {
		a.st.Results = web.WithPlugin(a.st.Results, sum.ObservedC, sum.Weights)
		a.preview = a.st.Results.Methods
	}
	a.charts.dirty = true
	if req.andRun {
		if _, err := a.startRun(a.pageRun()); err != nil {
			a.onPage(err)
		}
	}
	return sum
}

// pageRun returns a run with the page's settings.
func (a *app) pageRun() runRequest {
	return runRequest{k2: a.st.K2, methods: a.st.SelectedMethods(), preset: a.st.Preset, seed: a.st.Seed}
}

// simulate loads the simulation cfg, named source (web.SimSource's name when
// empty), and with andRun runs the page's methods on it.
func (a *app) simulate(cfg protocol.SimConfig, source string, andRun bool) (protocol.Summary, error) {
	if source == "" {
		source = web.SimSource(cfg)
	}
	return a.load(loadRequest{sim: &cfg, source: source, andRun: andRun})
}

// reproduce simulates cfg and runs the page's methods on it with the k2 the
// page already holds (a shared link's or a session's), not cfg's K.
func (a *app) reproduce(cfg protocol.SimConfig) (protocol.Summary, error) {
	return a.load(loadRequest{sim: &cfg, source: web.SimSource(cfg), andRun: true, keepK2: true})
}

// addTruth adds a simulation's truth curve that came after its summary to
// the data set (or keeps it for the data set being loaded) and to what the
// page shows of it.
func (a *app) addTruth(id uint64, truth []float64) {
	if id != a.dataset {
		if _, loading := a.resend[id]; loading {
			a.lateID, a.lateTruth = id, truth
		}
		return
	}
	if a.summary.Truth != nil {
		return
	}
	a.summary.Truth = truth
	a.st.TruthPending, a.st.TruthDone = false, 0
	if a.st.Summary != nil {
		a.st.Summary.Truth = truth
	}
	if a.st.Results.Truth == nil {
		a.st.Results.Truth = truth
	}
	if r := a.run; r != nil && r.dataset == id {
		r.base.Truth = truth
		if r.results.Truth == nil {
			r.results.Truth = truth
		}
	}
	a.charts.dirty = true
}

// runRequest is what a Run asks for.
type runRequest struct {
	k2         int
	methods    []string
	preset     string
	seed       uint64
	onProgress jsdom.Value
}

// runMethods starts a run and waits for it to end.
func (a *app) runMethods(req runRequest) (*runState, error) {
	a.env.Lock()
	r, err := a.startRun(req)
	a.env.UnlockRender()
	if err != nil {
		return nil, err
	}
	<-r.done
	return r, r.err
}

// startRun starts a run of req on the current data set, cancelling the
// run under way; a refused request is shown on the page (at the top and on
// the status line beside Run, where the user is) and returned.
func (a *app) startRun(req runRequest) (*runState, error) {
	a.st.Previewing = false // the run started, or refused with its reason
	refuse := func(err error) (*runState, error) {
		a.st.Error, a.st.Status = err.Error(), web.NotRun+err.Error()+"."
		return nil, err
	}
	if a.dataset == 0 {
		return refuse(errors.New(a.st.NoData()))
	}
	if err := limits.CheckK2("k2", req.k2); err != nil {
		return refuse(err)
	}
	if len(req.methods) == 0 {
		return refuse(errors.New("choose at least one method"))
	}
	a.cancelRun("a new run")
	prev := shown{ok: a.st.Rec != nil, ran: a.st.RanWith, progress: a.st.Progress, results: a.st.Results, rec: a.st.Rec, failed: a.st.Failed, skipped: a.st.Skipped,
		fragment: jsdom.Hash()}
	if a.sim != nil {
		a.setLink(&web.Share{Sim: *a.sim, K2: req.k2, Methods: req.methods, Seed: req.seed, Preset: req.preset})
	}
	// The recommendation's fits always run; methods chooses what is shown.
	plan := web.NewPlan(req.methods, req.preset, req.seed)
	r := &runState{id: a.id(), dataset: a.dataset, k2: req.k2, plan: plan,
		settings: web.Share{K2: req.k2, Methods: slices.Clone(req.methods), Seed: req.seed, Preset: req.preset},
		start:    time.Now(), onProgress: req.onProgress, done: make(chan struct{}), prev: prev}
	// A method that cannot run on this pilot is skipped, with its reason.
	r.queue = plan.SkipFor(a.summary.K)
	r.base = report.Curves{K1: a.summary.K, K2: req.k2, Observed: a.summary.Observed, Truth: a.summary.Truth}
	r.preview = a.preview
	r.results = web.KeepPreview(r.base, r.preview)
	a.run = r
	a.st.Error = ""
	a.st.ShowRun(r.settings) // a run through the API shows its settings too
	a.st.Results = r.results
	a.st.Rec, a.st.Failed, a.st.Skipped = nil, nil, nil
	a.st.CancelledEarly = false
	a.st.Running = true
	a.st.Status = "Running…"
	a.st.SetNote("")
	a.liveLoss, a.liveStep, a.liveCurve, a.liveTask = nil, nil, nil, -1
	a.charts.dirty = true
	a.fill()
	return r, nil
}

// cancelRun stops the current run: every worker running it is told to stop
// and, if it has not gone idle after stopGrace, is replaced. The run settles
// at once.
func (a *app) cancelRun(why string) {
	r := a.run
	if r == nil || r.finished {
		return
	}
	r.finished = true
	r.err = errCancelled
	for _, s := range a.slots {
		if s.run != r.id {
			continue
		}
		// A worker that does not get the message is replaced after
		// stopGrace, as one that does not stop is: the failure only goes
		// to the console.
		a.log.Report("asking a worker to stop", s.sendMsg(protocol.Cancel{Run: r.id}))
		s2, id := s, r.id
		time.AfterFunc(stopGrace, func() {
			a.env.Lock()
			if cur := a.slots[s2.idx]; cur == s2 && cur.run == id {
				a.replace(cur, notStopped, true)
				a.fill()
			}
			a.env.UnlockRender()
		})
	}
	a.st.Running = false
	a.st.Status = "Cancelled (" + why + ")."
	if p := r.prev; p.ok {
		// The results of the run before are shown again.
		a.st.Results, a.st.Rec, a.st.Failed, a.st.Skipped, a.st.RanWith = p.results, p.rec, p.failed, p.skipped, p.ran
		a.st.ShowRun(p.ran) // the controls go back to the results' settings
		a.charts.dirty = true
		a.st.Status += " The previous results are shown."
		if r.dataset == a.dataset && p.fragment != jsdom.Hash() {
			// The link goes back to the settings of the results shown.
			a.setFragment(p.fragment)
		}
	} else {
		a.st.CancelledEarly = true
	}
	if a.liveCurve != nil {
		a.liveCurve, a.charts.dirty = nil, true
	}
	a.liveTask = -1
	if r.prev.ok {
		a.st.Progress = r.prev.progress // the bars of the results shown
	} else {
		for i := range a.st.Progress {
			if p := &a.st.Progress[i]; !p.Done && !p.Failed && !p.Skipped {
				p.Text = "cancelled"
			}
		}
	}
	close(r.done)
	a.spareAfterPrep()
}

// askTruth asks worker s for the truth curve of data set id (cfg's world),
// to come after the data set's summary; s gets no fit until it comes
// (slot.truth, endTruth).
func (a *app) askTruth(s *slot, id uint64, cfg protocol.SimConfig) error {
	if err := s.sendMsg(protocol.Simulate{Dataset: id, Config: cfg, WantSummary: true}); err != nil {
		return err
	}
	s.truth = id
	return nil
}

// endTruth frees worker s, whose truth curve came (or failed), for fits.
func (a *app) endTruth(s *slot) {
	s.truth = 0
	a.fill()
}

// setLink puts a simulation's share link in the address's fragment and in
// the page's state (nil clears both).
func (a *app) setLink(sh *web.Share) {
	if sh == nil {
		a.setFragment("")
		return
	}
	a.setFragment(sh.Encode())
}

// setFragment puts frag (a Share's encoding, or "" for none) in the
// address's fragment, and the page's link to it in the page's state.
func (a *app) setFragment(frag string) {
	// The address is a convenience (the page shows the link too): a
	// browser that refuses to change it only gets a line in the console.
	if frag == "" {
		if a.st.Link != "" || jsdom.Hash() != "" {
			a.log.Report("clearing the address's fragment", jsdom.SetHash(""))
		}
		a.st.Link = ""
		return
	}
	a.log.Report("setting the address's fragment", jsdom.SetHash(frag))
	a.st.Link = jsdom.PageURL()
}
