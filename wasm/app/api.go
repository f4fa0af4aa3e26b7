//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/jsdom"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/report"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/web"
)

// registerAPI sets window.cleanex (README: "JavaScript API"):
//
//	load(data, {direction}) -> Promise<summary>   (data: CSV text, bytes, or two .npy; summary.prepared)
//	simulate({classes, points, d, sigma2, r, k1, k2, seed}) -> Promise<summary>
//	run({k2, methods, preset, seed, onProgress}) -> Promise<{curves, seconds, rmse, errors, skipped, recommendation}>
//	cancel()
//
// The page shows whatever the API does, as if the user had done it.
func (a *app) registerAPI() error {
	return jsdom.Register("cleanex", map[string]jsdom.AsyncFunc{
		"load": func(args []jsdom.Value) (any, error) {
			if len(args) == 0 {
				return nil, errors.New("load(data, {direction}): data is missing")
			}
			data, err := apiData(args[0])
			if err != nil {
				// Shown on the page as a refused dropped file would be;
				// what is on screen stays.
				a.env.Lock()
				a.st.Error = strings.TrimSuffix(err.Error(), ".") + "."
				a.env.UnlockRender()
				return nil, err
			}
			dir := "auto"
			if len(args) > 1 && jsdom.IsObject(args[1]) {
				if d := jsdom.String(args[1], "direction"); d != "" {
					dir = d
				}
			}
			sum, err := a.load(loadRequest{dataJS: data, dir: dir, source: apiSource})
			if err != nil {
				return nil, err
			}
			out := summaryJS(sum)
			a.env.Lock()
			out["prepared"] = !a.fileJS.IsUndefined()
			if a.run == nil || a.run.finished {
				// A load through the API does not run by itself; say so.
				a.st.Status = "Loaded through cleanex.load: press Run (or call cleanex.run) for the answer."
			}
			a.env.UnlockRender()
			return out, nil
		},
		"simulate": func(args []jsdom.Value) (any, error) {
			a.env.RLock()
			cfg := a.st.Sim
			a.env.RUnlock()
			if len(args) > 0 && jsdom.IsObject(args[0]) {
				o := args[0]
				dists, nums := map[string]string{}, map[string]float64{}
				for _, name := range []string{"classes", "points"} {
					if s := jsdom.String(o, name); s != "" {
						dists[name] = s
					}
				}
				for _, name := range []string{"d", "sigma2", "r", "k1", "k2", "seed"} {
					f, ok, err := jsdom.Number(o, name)
					if err != nil {
						return nil, fmt.Errorf("simulate: %w", err)
					}
					if ok {
						nums[name] = f
					}
				}
				c, err := web.SimFromAPI(cfg, dists, nums)
				if err != nil {
					// Shown as a refused simulation is; the settings and
					// what is on screen stay.
					a.env.Lock()
					a.st.Error, a.reveal = web.SimError(err), "error"
					a.env.UnlockRender()
					return nil, fmt.Errorf("simulate: %w", err)
				}
				cfg = c
			}
			a.env.Lock()
			a.st.Sim = cfg
			a.env.UnlockRender()
			// The API's summary promises the truth: it waits for it.
			sum, err := a.load(loadRequest{sim: &cfg, source: web.SimSource(cfg), withTruth: true})
			if err != nil {
				return nil, err
			}
			return summaryJS(sum), nil
		},
		"run": func(args []jsdom.Value) (any, error) {
			a.env.RLock()
			req := runRequest{k2: a.st.K2, methods: a.st.SelectedMethods(), preset: a.st.Preset, seed: a.st.Seed}
			a.env.RUnlock()
			if len(args) > 0 && jsdom.IsObject(args[0]) {
				o := args[0]
				k2f := float64(req.k2)
				err := numberInto(o, "k2", &k2f)
				k2 := 0
				if err == nil {
					k2, err = limits.K2FromFloat("k2", k2f)
				}
				if err != nil {
					// Shown on the page as a k2 typed there would be: under
					// the k2 box; what is on screen stays.
					text := jsdom.String(o, "k2") // the box shows what was given
					if text == "" {
						text = strconv.FormatFloat(k2f, 'g', -1, 64)
					}
					a.env.Lock()
					a.st.K2Err, a.st.K2Text, a.reveal = err.Error(), text, "k2-error"
					a.env.UnlockRender()
					return nil, err
				}
				// The page's seed stays unless one is given: as a number it
				// could not hold every seed the page's box holds.
				seed, given, err := jsdom.Number(o, "seed")
				if err == nil && given {
					req.seed, err = web.SeedNumber("seed", seed)
				}
				if err != nil {
					return nil, fmt.Errorf("run: %w", err)
				}
				req.k2 = k2
				req.preset = orString(jsdom.String(o, "preset"), req.preset)
				if err := web.CheckPreset(req.preset); err != nil {
					return nil, fmt.Errorf("run: %w", err)
				}
				if ms, err := jsdom.Path(o, "methods"); err == nil && !ms.IsUndefined() && !ms.IsNull() {
					list, err := stringList(ms)
					if err != nil {
						return nil, err
					}
					if len(list) > 0 { // none is refused by runMethods, with the page's sentence
						if _, err := methods.ParseList(strings.Join(list, ",")); err != nil {
							return nil, fmt.Errorf("run: %w", err)
						}
					}
					req.methods = list
				}
				if f, err := jsdom.Path(o, "onProgress"); err == nil && jsdom.IsFunction(f) {
					req.onProgress = f
				}
			}
			a.env.Lock()
			a.st.K2, a.st.K2Err, a.st.Preset, a.st.Seed = req.k2, "", req.preset, req.seed
			for i := range a.st.Methods {
				a.st.Methods[i].On = slices.Contains(req.methods, a.st.Methods[i].Name)
			}
			a.env.UnlockRender()
			r, err := a.runMethods(req)
			if err != nil {
				return nil, err
			}
			a.env.RLock()
			defer a.env.RUnlock()
			return runResultJS(r)
		},
	}, a.syncAPI())
}

// syncAPI returns window.cleanex's synchronous functions: cancel(), and with
// ?debug=1 in the page's URL, _crashWorker(i), which makes compute worker i
// fail as a bug would (the browser tests check the page replaces it), and
// _crashPreparingWorker(i), which ends the i-th worker preparing a file as
// a crash would: the page terminates it and hears that its program ended
// (a worker busy preparing reads no message until it is done).
func (a *app) syncAPI() map[string]func(args []jsdom.Value) any {
	fns := map[string]func(args []jsdom.Value) any{
		"cancel": func([]jsdom.Value) any {
			go func() {
				a.env.Lock()
				a.cancelRun("window.cleanex.cancel()")
				a.env.UnlockRender()
			}()
			return nil
		},
	}
	if !strings.Contains(a.search, "debug=1") {
		return fns
	}
	fns["_crashWorker"] = func(args []jsdom.Value) any {
		i := argIndex(args)
		go func() {
			a.env.Lock()
			defer a.env.UnlockOnly()
			if i >= 0 && i < len(a.slots) {
				a.log.Report("window.cleanex._crashWorker", a.slots[i].sendMsg(protocol.Crash{Reason: "window.cleanex._crashWorker"}))
			}
		}()
		return nil
	}
	fns["_crashPreparingWorker"] = func(args []jsdom.Value) any {
		i := argIndex(args)
		go func() {
			a.env.Lock()
			var s *slot
			if p := a.prep; p != nil && i >= 0 && i < len(p.workers) {
				s = p.workers[i]
				a.log.Report("window.cleanex._crashPreparingWorker", s.w.Terminate())
			}
			a.env.UnlockOnly()
			if s != nil {
				// What the page hears when a worker's Go program ends.
				a.inbox <- inbound{s: s, stopped: true, why: "window.cleanex._crashPreparingWorker"}
			}
		}()
		return nil
	}
	return fns
}

// argIndex returns a debug function's first argument as an index (0 when
// there is none or it is not a number).
func argIndex(args []jsdom.Value) int {
	if len(args) > 0 {
		if f, err := args[0].Float(); err == nil {
			return int(f)
		}
	}
	return 0
}

// apiSource names the data given to window.cleanex.load.
const apiSource = "data from window.cleanex.load"

// apiData returns the bytes (a Uint8Array) of what window.cleanex.load was
// given: a CSV as a string; the bytes of a pilot file of any format, as a
// Uint8Array or an ArrayBuffer (copied, so that Reload reads them as they
// were); or an array of two such, the .npy files of one pilot, packed into
// one .npz. Bytes are checked as a dropped file is (web.CheckPicked), with
// the same sentences.
func apiData(v jsdom.Value) (jsdom.Value, error) {
	const usage = "load: data must be a CSV string, a Uint8Array or ArrayBuffer of a pilot file, or an array of the two .npy files of one pilot"
	switch {
	case jsdom.IsString(v):
		return jsdom.EncodeText(v)
	case jsdom.IsBytes(v):
		b, err := jsdom.CopyBytes(v)
		if err != nil {
			return b, err
		}
		head, err := jsdom.Head(b, scores.SniffBytes)
		if err != nil {
			return b, err
		}
		if _, err := web.CheckPicked([]web.Picked{{Name: apiSource, Size: float64(jsdom.ByteLength(b)), Head: head}}); err != nil {
			return b, err
		}
		return b, nil
	case jsdom.IsArray(v):
		n, err := v.Length()
		if err != nil || n != 2 {
			return jsdom.Value{}, errors.New(usage)
		}
		var parts [2]jsdom.Value
		var picked [2]web.Picked
		for i := range parts {
			x, err := v.Index(i)
			if err != nil || !jsdom.IsBytes(x) {
				return jsdom.Value{}, errors.New(usage)
			}
			if parts[i], err = jsdom.CopyBytes(x); err != nil {
				return jsdom.Value{}, err
			}
			head, err := jsdom.Head(parts[i], scores.SniffBytes)
			if err != nil {
				return jsdom.Value{}, err
			}
			picked[i] = web.Picked{Name: [2]string{"the first array", "the second array"}[i], Size: float64(jsdom.ByteLength(parts[i])), Head: head}
		}
		if err := web.CheckPair(picked[0], picked[1]); err != nil {
			return jsdom.Value{}, err
		}
		return packPair(picked[0].Name, parts[0], picked[1].Name, parts[1])
	}
	return jsdom.Value{}, errors.New(usage)
}

// orString returns s, or def when s is empty.
func orString(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// stringList reads an array of strings, or a comma-separated string.
func stringList(v jsdom.Value) ([]string, error) {
	if s, err := v.String(); err == nil && !jsdom.IsObject(v) {
		var out []string
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out, nil
	}
	n, err := v.Length()
	if err != nil {
		return nil, errors.New("methods must be an array of names")
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		x, err := v.Index(i)
		if err != nil {
			return nil, err
		}
		s, err := x.String()
		if err != nil {
			return nil, errors.New("methods must be an array of names")
		}
		out = append(out, s)
	}
	return out, nil
}

// summaryJS is what load and simulate resolve to (README: "JavaScript API").
func summaryJS(s protocol.Summary) map[string]any {
	return map[string]any{
		"n": s.N, "k": s.K, "minPoints": s.MinPoints, "maxPoints": s.MaxPoints,
		"direction": s.Direction, "detected": s.Detected, "logProbabilities": s.LogProbabilities, "logOdds": s.LogOdds, "scoresNote": s.ScoresNote, "wins": s.Wins, "top1": s.Top1,
		"truthKnown": s.Truth != nil, "seconds": s.Seconds,
	}
}

// runResultJS builds {curves: {k, observed, estimate, estimate_lo,
// estimate_hi, <method>..., truth}, seconds, rmse, errors, skipped,
// recommendation}
// with the columns of docs/formats.md §3 (null where a column is empty);
// recommendation is {sources, cleanexCount, failed: {label: reason}, error}.
func runResultJS(r *runState) (any, error) {
	c := r.results
	if c.Truth != nil && c.Truth.Max() < c.K2 {
		c.Truth = nil
	}
	curves, err := jsdom.NewObject()
	if err != nil {
		return nil, err
	}
	for _, name := range c.Columns() {
		vals, ok := c.Column(name)
		arr, err := jsdom.NumberArray(vals, func(i int) bool { return ok[i] && !math.IsNaN(vals[i]) })
		if err != nil {
			return nil, err
		}
		if err := curves.Set(name, arr); err != nil {
			return nil, err
		}
	}
	seconds := map[string]any{}
	for _, m := range c.Methods {
		seconds[m.Name] = m.Seconds
	}
	errs := map[string]any{}
	for k, v := range r.plan.Failures(r.outcome) {
		errs[k] = v
	}
	skipped := map[string]any{}
	for k, v := range r.plan.Skipped() {
		skipped[k] = v
	}
	out, err := jsdom.ValueOf(map[string]any{"seconds": seconds, "errors": errs, "skipped": skipped, "rmse": rmseJS(c),
		"recommendation": recommendationJS(r.outcome)})
	if err != nil {
		return nil, err
	}
	if err := out.Set("curves", curves); err != nil {
		return nil, err
	}
	return out, nil
}

// recommendationJS returns {sources: [...], cleanexCount: c, shapeWeight:
// v, tailSpread: H, failed: {label: reason}, error: string or null} of a
// run's recommendation.
func recommendationJS(o recommend.Outcome) map[string]any {
	sources := make([]any, len(o.Sources))
	for i, s := range o.Sources {
		sources[i] = s
	}
	failed := map[string]any{}
	for k, v := range o.Failed {
		failed[k] = v
	}
	var msg any
	if o.Err != nil {
		msg = o.Err.Error()
	}
	return map[string]any{"sources": sources, "cleanexCount": o.CleaneXCount, "shapeWeight": o.ShapeWeight, "tailSpread": o.TailSpread,
		"failed": failed, "error": msg}
}

// rmseJS returns each curve's RMSE against the truth over k = 2..k2, by
// column name (empty when the truth is unknown).
func rmseJS(c report.Curves) map[string]any {
	out := map[string]any{}
	if c.Truth == nil {
		return out
	}
	for _, m := range c.Methods {
		out[m.Name] = accuracy.RMSE(m.Curve, c.Truth, c.K2)
	}
	if c.Estimate != nil {
		out["estimate"] = accuracy.RMSE(c.Estimate, c.Truth, c.K2)
	}
	return out
}

// reportProgress calls the run's onProgress callback, if any, with the
// progress of the run's task (fit names it: "cleanex seed 2").
func (a *app) reportProgress(r *runState, task int, m protocol.Progress) {
	if !jsdom.IsFunction(r.onProgress) {
		return
	}
	nan := func(x float64) any {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return x
	}
	fit := m.Method
	if task >= 0 && task < len(r.plan.Tasks) {
		fit = r.plan.Tasks[task].Label()
	}
	obj, err := jsdom.ValueOf(map[string]any{"method": m.Method, "fit": fit, "step": m.Step, "total": m.Total, "loss": nan(m.Loss), "eta": nan(m.ETA)})
	if err == nil {
		err = jsdom.Invoke(r.onProgress, obj)
	}
	// The callback belongs to the caller of run, whose run goes on: an
	// exception it throws only goes to the console.
	a.log.Report("calling onProgress", err)
}

// hookPage makes the drop zone accept dragged files: one pilot file, or
// the two .npy files of one pilot.
func (a *app) hookPage() {
	el, err := jsdom.ByID("dropzone")
	if err != nil {
		a.log.Report("the drop zone", err)
		return
	}
	// Dropping is a second way to give a file (the file picker is the
	// first), so what fails here is only logged to the console.
	setOver := func(on bool) {
		a.log.Report("highlighting the drop zone", jsdom.ToggleClass(el, "over", on))
	}
	listen := func(typ string, fn func(jsdom.Value)) {
		_, err := jsdom.Listen(el, typ, fn)
		a.log.Report("listening for "+typ, err)
	}
	for _, typ := range []string{"dragenter", "dragover"} {
		listen(typ, func(ev jsdom.Value) {
			a.log.Report("accepting a drag", jsdom.PreventDefault(ev))
			setOver(true)
		})
	}
	listen("dragleave", func(jsdom.Value) { setOver(false) })
	listen("drop", func(ev jsdom.Value) {
		a.log.Report("accepting a drop", jsdom.PreventDefault(ev))
		setOver(false)
		list, err := jsdom.Path(ev, "dataTransfer", "files")
		if err != nil {
			return
		}
		files, err := jsdom.Files(list)
		if err != nil || len(files) == 0 {
			return
		}
		go a.loadFiles(files)
	})
}

// numberInto sets *to to the number o.prop, leaving it when the property
// is missing; a property of another type (the string "200") is an error.
func numberInto(o jsdom.Value, prop string, to *float64) error {
	f, ok, err := jsdom.Number(o, prop)
	if ok {
		*to = f
	}
	return err
}
