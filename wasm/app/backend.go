//go:build js && wasm

package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cleanex/cleanex/internal/jsdom"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/parquetjob"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/web"
	"github.com/vugu/vugu"
)

// exampleURL is the bundled example CSV, relative to the page.
const exampleURL = "assets/example.csv"

// busyBytes is the file size from which the page shows "Reading…" at once
// (a render costs tens of milliseconds; a smaller file is summarised sooner).
const busyBytes = 4 << 20

// LoadFile reads the files picked in the file input (one pilot file, or
// the two .npy files of one pilot).
func (a *app) LoadFile(event vugu.DOMEvent) {
	target := jsdom.EventTarget(event)
	list, err := jsdom.Path(target, "files")
	if err != nil {
		a.st.Error = err.Error()
		return
	}
	files, err := jsdom.Files(list)
	if err != nil || len(files) == 0 {
		return // the picker was closed without a choice
	}
	go a.loadFiles(files)
	// Let the same file be picked again later; a picker that keeps its
	// value only ignores the same file picked twice, so the console gets it.
	a.log.Report("clearing the file picker", jsdom.SetProp(target, "value", ""))
}

// loadFiles reads the Files given together (dropped or picked) and loads
// them: one pilot file as it is, two .npy files packed into one .npz
// (web.CheckPicked); a file of at least prepareBytes, or of embeddings, is
// handed unread to the worker that prepares it (loadPrepared). A file
// whose first bytes are not a pilot file, or a Parquet file or pair of
// .npy files above limits.MaxFileBytes (the page holds their bytes), is
// refused before the rest is read; a read that fails (the file is gone,
// the tab is short of memory) is one sentence. On failure what is on
// screen stays.
func (a *app) loadFiles(files []jsdom.Value) {
	fail := func(msg string) {
		a.env.Lock()
		a.setBusy(idle, "")
		a.st.Error = msg
		a.env.UnlockRender()
	}
	picked := make([]web.Picked, len(files))
	for i, f := range files {
		picked[i] = web.Picked{Name: jsdom.String(f, "name"), Size: jsdom.Float(f, "size", 0)}
		if picked[i].Name == "" {
			picked[i].Name = "the file"
		}
	}
	// More than two files are refused on their count alone: their heads
	// are read only when they may be loaded.
	if len(files) <= 2 {
		for i, f := range files {
			head, err := jsdom.ReadHead(f, scores.SniffBytes)
			if err != nil {
				fail(web.ReadFailed(picked[i].Name, picked[i].Size, jsdom.ErrorName(err), err.Error()))
				return
			}
			picked[i].Head = head
		}
	}
	pair, err := web.CheckPicked(picked)
	if err != nil {
		fail(err.Error() + ".")
		return
	}
	name, size := picked[0].Name, picked[0].Size
	if pair {
		name, size = web.PairName(picked[0].Name, picked[1].Name), picked[0].Size+picked[1].Size
	}
	a.env.RLock()
	dir, threshold := a.st.Direction, a.prepareBytes
	// the file of an opened session runs at the session's k2 (the page's),
	// not at the new data set's default
	keepK2 := a.st.SavedSource != "" && a.st.SavedSource == name
	a.env.RUnlock()
	// A large file, or embeddings, is not read here: the worker that
	// prepares it reads the File piece by piece. A Parquet file is read
	// here and converted first (load: fromParquet).
	head := picked[0].Head
	if parquetjob.Wants(head) {
		if err := limits.CheckFileSize(name, size); err != nil {
			fail(err.Error() + ".")
			return
		}
	} else if !pair && (size >= threshold || web.LooksLikeEmbeddings(head)) {
		if web.LooksLikeEmbeddings(head) {
			dir = "auto" // the metric sets the direction
		}
		if _, err := a.load(loadRequest{file: files[0], size: size, head: head, dir: dir, source: name, andRun: true, keepK2: keepK2}); err != nil {
			a.onPage(err)
		}
		return
	}
	// Start reading before rendering the busy line, so the two overlap.
	reads := make([]jsdom.Read, len(files))
	for i, f := range files {
		reads[i] = jsdom.StartRead(f)
	}
	a.env.Lock()
	a.setBusy(loading, "Reading "+name+"…")
	if size < busyBytes {
		a.env.UnlockOnly() // read in a moment: the summary replaces it
	} else {
		a.env.UnlockRender()
	}
	data := make([]jsdom.Value, len(files))
	for i, r := range reads {
		if data[i], err = r.Bytes(); err != nil {
			fail(web.ReadFailed(picked[i].Name, picked[i].Size, jsdom.ErrorName(err), err.Error()))
			return
		}
	}
	b := data[0]
	if pair {
		if b, err = packPair(picked[0].Name, data[0], picked[1].Name, data[1]); err != nil {
			fail(err.Error() + ".")
			return
		}
	}
	// A file the user gives is analysed at once with the current settings.
	if _, err := a.load(loadRequest{dataJS: b, dir: dir, source: name, andRun: true, keepK2: keepK2}); err != nil {
		a.onPage(err)
	}
}

// packPair packs two .npy files' bytes (Uint8Arrays) into one .npz
// (web.PackPair), through Go, and returns it as a Uint8Array; the error is
// one sentence without its final period (the tab short of memory for the
// copies is said as such).
func packPair(nameA string, a8 jsdom.Value, nameB string, b8 jsdom.Value) (jsdom.Value, error) {
	pair := web.PairName(nameA, nameB)
	size := float64(jsdom.ByteLength(a8) + jsdom.ByteLength(b8))
	wrap := func(err error) error {
		if jsdom.ErrorName(err) == "RangeError" {
			return errors.New(strings.TrimSuffix(web.OutOfMemory(pair, size), "."))
		}
		return fmt.Errorf("Could not read %s: %w", pair, err)
	}
	ga, err := jsdom.BytesFromJS(a8)
	if err != nil {
		return jsdom.Value{}, wrap(err)
	}
	gb, err := jsdom.BytesFromJS(b8)
	if err != nil {
		return jsdom.Value{}, wrap(err)
	}
	npz, err := web.PackPair(nameA, ga, nameB, gb)
	if err != nil {
		return jsdom.Value{}, err
	}
	out, err := jsdom.BytesToJS(npz)
	if err != nil {
		return jsdom.Value{}, wrap(err)
	}
	return out, nil
}

// LoadExample fetches the bundled example (same origin) and loads it.
func (a *app) LoadExample() {
	go func() {
		a.env.Lock()
		a.setBusy(loading, "Loading the example…")
		a.env.UnlockRender()
		b, err := fetch(exampleURL)
		if err != nil {
			a.env.Lock()
			a.setBusy(idle, "")
			a.st.Error = "Could not load the example: " + err.Error()
			a.env.UnlockRender()
			return
		}
		if _, err := a.load(loadRequest{dataJS: b, dir: "auto", source: "example.csv (simulated, 50 classes)", andRun: true}); err != nil {
			a.onPage(err)
		}
	}()
}

// LoadEmbeddingsExample makes the embeddings example of the simulation
// form in the page (web.EmbeddingsExample: nothing is fetched, so it works
// offline) and loads it as a dropped embeddings file: prepared in the
// workers, scored by Euclidean distance to the class centroids.
func (a *app) LoadEmbeddingsExample() {
	cfg := a.st.Sim // the event handler holds the lock
	go func() {
		fail := func(err error) {
			a.env.Lock()
			a.setBusy(idle, "")
			a.st.Error = "Could not make the embeddings example: " + err.Error()
			a.env.UnlockRender()
		}
		a.env.Lock()
		a.setBusy(loading, "Making the embeddings example…")
		a.env.UnlockRender()
		name, b, err := web.EmbeddingsExample(cfg)
		if err != nil {
			fail(err)
			return
		}
		u8, err := jsdom.BytesToJS(b)
		if err != nil {
			fail(err)
			return
		}
		blob, err := jsdom.NewBlob(u8)
		if err != nil {
			fail(err)
			return
		}
		head := b[:min(len(b), scores.SniffBytes)]
		if _, err := a.load(loadRequest{file: blob, size: float64(len(b)), head: head, dir: "auto", source: name, andRun: true}); err != nil {
			a.onPage(err)
		}
	}()
}

// fetch GETs a same-origin URL; the body comes back as a Uint8Array.
func fetch(url string) (jsdom.Value, error) {
	p, err := jsdom.Global().Call("fetch", url)
	if err != nil {
		return jsdom.Value{}, err
	}
	resp, err := jsdom.Await(p)
	if err != nil {
		return jsdom.Value{}, err
	}
	if !jsdom.Bool(resp, "ok") {
		return jsdom.Value{}, fmt.Errorf("%s: HTTP %v", url, jsdom.Float(resp, "status", 0))
	}
	return jsdom.ReadFileJS(resp) // Response has arrayBuffer() too
}

// Reload reads the current file again (its bytes kept as they were
// loaded, whatever their format, or the File or Blob of a prepared file)
// with the chosen direction, or for embeddings the chosen metric and
// reference. When the file cannot be read that way (a summary is
// higher-is-better only; a one-shot reference needs one gallery item per
// class), the message is shown and the selectors show again the settings
// the data on screen was read with; a simulation is not read again, and the
// direction selector goes back to auto (State.RefuseSimDirection).
func (a *app) Reload() {
	req := loadRequest{dataJS: a.dataJS, file: a.fileJS, size: a.fileSize, head: a.fileHead, dir: a.st.Direction,
		source: a.st.Source, andRun: true, keepK2: true}
	id := a.dataset
	if !a.hasFile {
		a.st.RefuseSimDirection()
		return
	}
	if a.st.IsEmbeddings() {
		// Embeddings are scored again; their metric sets the direction.
		req.metric, req.reference, req.dir = a.st.Metric, a.st.Reference, "auto"
	}
	go func() {
		if _, err := a.load(req); err != nil {
			a.onPage(err)
			a.env.Lock()
			if a.dataset == id {
				a.st.Direction = a.fileDir
				a.st.Metric, a.st.Reference = a.summary.Embedding.Metric, a.summary.Embedding.Reference
			}
			a.env.UnlockRender()
		}
	}()
}

// Simulate generates the form's simulation and runs the selected methods
// (settings outside the page's bounds are refused: load).
func (a *app) Simulate() {
	cfg := a.st.Sim
	go func() {
		if _, err := a.simulate(cfg, "", true); err != nil {
			a.onPage(err)
		}
	}()
}

// Run fits the selected methods with the page's settings; with a refused
// k2 it does nothing (the k2 box shows why, and gets the focus).
func (a *app) Run() {
	if a.st.K2Err != "" {
		a.st.Status = web.NotRun + "the k2 above is refused; change it and press Run."
		jsdom.Focus("k2")
		return
	}
	go func() {
		a.env.RLock()
		req := a.pageRun()
		a.env.RUnlock()
		if _, err := a.runMethods(req); err != nil {
			a.onPage(err)
		}
	}()
}

// Cancel stops the running methods.
func (a *app) Cancel() { a.cancelRun("by you") }

// ExportCSV downloads the curves CSV (docs/formats.md §3).
func (a *app) ExportCSV() {
	var b bytes.Buffer
	if err := a.st.Results.WriteCSV(&b); err != nil {
		a.st.Error = "Export failed: " + err.Error()
		return
	}
	name := web.ExportName(a.st.ShownSource(), a.sim) + "-curves.csv"
	if err := jsdom.Download(name, "text/csv", b.Bytes()); err != nil {
		a.st.Error = "Export failed: " + err.Error()
		return
	}
	a.st.SetNote(web.Downloaded(name))
}

// exportScale is the least number of image pixels per CSS pixel of an
// exported chart (2: sharp on slides and in print).
const exportScale = 2

// ExportPNG downloads the accuracy chart at its size on the page (at least
// exportScale image pixels per CSS pixel), drawn in
// the light theme whatever the page's colour scheme (web.ExportTheme), with
// the data set's name, the headline's answer and its warning written above
// it (web.State.ExportTitle).
func (a *app) ExportPNG() {
	name := web.ExportName(a.st.ShownSource(), a.sim) + "-accuracy.png"
	var img jsdom.Value
	el, err := jsdom.ByID("chart-acc")
	if err == nil {
		var cv *jsdom.Canvas
		img, cv, err = jsdom.NewDetachedCanvas(jsdom.Float(el, "clientWidth", 0), jsdom.Float(el, "clientHeight", 0), exportScale)
		if err == nil {
			ac := a.accuracyChart(cv.Width, cv.Height, web.ExportTheme())
			ac.Title = a.st.ExportTitle()
			err = ac.Draw(cv)
		}
	}
	if err != nil {
		a.st.Error = "Export failed: " + err.Error()
		return
	}
	note := a.st.BeginNote()
	go func() {
		blob, err := jsdom.ToPNG(img)
		if err == nil {
			err = jsdom.DownloadBlob(name, blob)
		}
		a.env.Lock()
		if err != nil {
			a.st.Error = "Export failed: " + err.Error()
		} else {
			a.st.EndNote(note, web.Downloaded(name))
		}
		a.env.UnlockRender()
	}()
}

// Redraw redraws the charts after a display toggle.
func (a *app) Redraw() { a.charts.dirty = true }

// slideQuiet is how long the sliders must rest before the simulation is
// generated again; slideFull how much longer before every method runs.
const (
	slideQuiet = 120 * time.Millisecond
	slideFull  = 700 * time.Millisecond
)

// Slide simulates the form's setting again once the sliders rest: first the
// data set with the plug-in's curve computed on the page (the observed,
// true and plug-in curves are drawn at once), then, unless a slider moved
// again, every method. A new move cancels that run (a new data set cancels
// the run under way) and starts over.
func (a *app) Slide() {
	a.slideGen++
	gen, cfg := a.slideGen, a.st.Sim
	go func() {
		time.Sleep(slideQuiet)
		a.env.RLock()
		cur := a.slideGen
		a.env.RUnlock()
		if cur != gen {
			return
		}
		if _, err := a.load(loadRequest{sim: &cfg, source: web.SimSource(cfg), preview: true}); err != nil {
			return
		}
		time.Sleep(slideFull)
		a.env.Lock()
		if a.slideGen == gen && a.run == nil || a.slideGen == gen && a.run.finished {
			if _, err := a.startRun(a.pageRun()); err != nil {
				a.onPage(err)
			}
		}
		a.env.UnlockRender()
	}()
}

// CopyLink copies the link to the current simulation and settings, or
// shows it when the browser gives no clipboard.
func (a *app) CopyLink() {
	link := a.st.Link
	note := a.st.BeginNote()
	go func() {
		err := jsdom.CopyText(link)
		a.env.Lock()
		if err != nil {
			a.st.EndNote(note, "Copy this link: "+link)
		} else {
			a.st.EndNote(note, "Link copied: it opens this simulation with these settings.")
		}
		a.env.UnlockRender()
	}()
}

// SaveSession downloads the settings, the simulation (if the data is one)
// and the results as a small JSON file; the user's data is not in it.
func (a *app) SaveSession() {
	name := web.ExportName(a.st.ShownSource(), a.sim) + "-session.json"
	b, err := web.NewSession(a.st, a.sim).Marshal()
	if err == nil {
		err = jsdom.Download(name, "application/json", b)
	}
	if err != nil {
		a.st.Error = "Saving the session failed: " + err.Error()
		return
	}
	a.st.SetNote(web.Downloaded(name))
}

// OpenSession reads a session file: its settings are restored, a simulated
// session is simulated and run again (the same numbers), and a session of a
// file shows its saved answer and curves until the data file is chosen again.
func (a *app) OpenSession(event vugu.DOMEvent) {
	target := jsdom.EventTarget(event)
	files, err := jsdom.Path(target, "files")
	if err != nil {
		return
	}
	file, err := jsdom.FirstFile(files)
	if err != nil {
		return
	}
	name := jsdom.String(file, "name")
	a.log.Report("clearing the session picker", jsdom.SetProp(target, "value", ""))
	go func() {
		raw, err := jsdom.ReadFile(file)
		var sess web.Session
		if err == nil {
			sess, err = web.ParseSession(raw)
		}
		a.env.Lock()
		if err != nil {
			a.st.Error = web.OpenSessionFailed(name, err)
			a.env.UnlockRender()
			return
		}
		if sess.Sim == nil {
			// The session's data is a file the page does not have: the data
			// set on the page is put away with its answer (Restore), so Run
			// asks for the file instead of analysing other data.
			a.cancelRun("a session was opened")
			a.dataset, a.summary, a.sim, a.hasFile = 0, protocol.Summary{}, nil, false
			a.liveLoss, a.liveStep, a.liveCurve, a.liveTask = nil, nil, nil, -1
			a.setLink(nil)
			a.charts.dirty = true
		}
		sess.Restore(a.st)
		a.env.UnlockRender()
		if sess.Sim != nil {
			if _, err := a.reproduce(*sess.Sim); err != nil {
				a.onPage(err)
			}
		}
	}()
}
