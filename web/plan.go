package web

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/halfsample"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/report"
)

// PaperBar is the progress bar's name of the CleaneX fit with the paper
// preset, which runs beside the recommendation's fast CleaneX fits when the
// user asks for that preset.
const PaperBar = "cleanex-paper"

// Task is one fit of a page run, sent to a worker as one Run message.
type Task struct {
	// Method is the registry name, Seed and Preset its settings.
	Method string
	Seed   uint64
	Preset string
	// Job is the index of the fit in Plan.Jobs, or -1 for a fit that is
	// only shown (plug-in, KDE, CleaneX with the paper preset).
	Job int
	// Bar is the progress bar the fit counts towards: the method's name,
	// or PaperBar.
	Bar string
	// Spread asks the worker to measure the pilot's half-sampling spread
	// and tail spread after the fit (protocol.Run.Spread): set on the
	// recommendation's tail fit, so that they are measured beside the other
	// fits.
	Spread bool
}

// Label names the task in messages ("regression", "cleanex seed 3").
func (t Task) Label() string {
	switch {
	case t.Bar == PaperBar:
		return "cleanex (paper preset)"
	case t.Method == methods.CleaneX:
		return recommend.Job{Method: t.Method, Seed: t.Seed}.Label()
	}
	return t.Method
}

// Fit is what a finished task returned.
type Fit struct {
	// Curve is the predicted curve for k = 0..K2.
	Curve accuracy.Curve
	// C and Losses are the per-point C_x and training losses, when the
	// method has them.
	C, Losses []float64
	// Seconds is the fit's time in the worker.
	Seconds float64
	// Spread is the pilot's half-sampling spread when the task asked for it
	// (Task.Spread; empty when it could not be measured), and TailSpread
	// its tail spread H (tail.Spread; 0 when it cannot tell).
	Spread     halfsample.Spread
	TailSpread float64
}

// taskState is a task's progress and end; a skipped task is done, with
// err saying why it did not run.
type taskState struct {
	started, done, skipped bool
	step, total            int
	loss, eta              float64
	fit                    Fit
	err                    error
}

// Plan is the fits of one page run: the recommendation's jobs
// (recommend.Jobs, always: several CleaneX fits and one fit of each other
// method it combines), plus the display methods that are not among them. It follows their progress and
// results, makes the progress bars, and assembles the recommendation. It is
// not safe for concurrent use.
type Plan struct {
	// Display lists the methods whose curves are shown, in the user's choice.
	Display []string
	// Preset is CleaneX's preset for display; the recommendation's CleaneX
	// fits always use the fast preset its calibration was made with.
	Preset string
	// Jobs are recommend.Jobs(seed).
	Jobs []recommend.Job
	// Tasks are every fit to run, in the order to start them in: the
	// published preset's CleaneX fit when asked for (it takes longest),
	// then the quick fits (the display-only methods, then regression and
	// the pooled and the tail method), whose curves then show while CleaneX trains, then
	// CleaneX's fits.
	Tasks []Task

	state []taskState
}

// NewPlan returns the plan of a run showing the methods display, with
// CleaneX's preset and the seed of the randomised methods.
func NewPlan(display []string, preset string, seed uint64) *Plan {
	p := &Plan{Display: slices.Clone(display), Preset: preset, Jobs: recommend.Jobs(seed)}
	if preset == "paper" && slices.Contains(display, methods.CleaneX) {
		p.Tasks = append(p.Tasks, Task{Method: methods.CleaneX, Seed: seed, Preset: "paper", Job: -1, Bar: PaperBar})
	}
	// The display-only methods, the quickest (plug-in) first.
	var rest []string
	for _, m := range display {
		if !p.isJob(m) && !slices.Contains(rest, m) {
			rest = append(rest, m)
		}
	}
	slices.SortStableFunc(rest, func(a, b string) int { return methods.Rank(a) - methods.Rank(b) })
	for _, m := range rest {
		p.Tasks = append(p.Tasks, Task{Method: m, Seed: seed, Preset: preset, Job: -1, Bar: m})
	}
	var cleanex []Task
	for i, j := range p.Jobs {
		t := Task{Method: j.Method, Seed: j.Seed, Preset: "fast", Job: i, Bar: j.Method, Spread: j.Method == methods.Tail}
		if j.Method == methods.CleaneX {
			cleanex = append(cleanex, t)
		} else {
			p.Tasks = append(p.Tasks, t)
		}
	}
	p.Tasks = append(p.Tasks, cleanex...)
	p.state = make([]taskState, len(p.Tasks))
	for i := range p.state {
		p.state[i].loss, p.state[i].eta = math.NaN(), math.NaN()
	}
	return p
}

// isJob reports whether the recommendation fits method m itself.
func (p *Plan) isJob(m string) bool {
	return slices.ContainsFunc(p.Jobs, func(j recommend.Job) bool { return j.Method == m })
}

// Start records that task i was sent to a worker.
func (p *Plan) Start(i int) {
	if i >= 0 && i < len(p.state) {
		p.state[i].started = true
	}
}

// Progress records a progress report of task i.
func (p *Plan) Progress(i, step, total int, loss, eta float64) {
	if i < 0 || i >= len(p.state) || p.state[i].done {
		return
	}
	s := &p.state[i]
	s.started, s.step, s.total, s.loss, s.eta = true, step, total, loss, eta
}

// Finish records task i's result.
func (p *Plan) Finish(i int, f Fit) {
	if i >= 0 && i < len(p.state) && !p.state[i].done {
		s := &p.state[i]
		s.done, s.fit, s.step = true, f, s.total
	}
}

// Fail records that task i failed with err.
func (p *Plan) Fail(i int, err error) {
	if i >= 0 && i < len(p.state) && !p.state[i].done {
		p.state[i].done, p.state[i].err = true, err
	}
}

// SkipFor marks every task whose method cannot run on a pilot of k1 classes
// (methods.Applicable) as skipped, with that reason, and returns the indices
// of the tasks left to run, in order.
func (p *Plan) SkipFor(k1 int) []int {
	var run []int
	for i, t := range p.Tasks {
		if why := methods.Applicable(t.Method, k1); why != nil {
			p.state[i].done, p.state[i].skipped, p.state[i].err = true, true, why
			continue
		}
		run = append(run, i)
	}
	return run
}

// Running reports whether task i was started and has not ended.
func (p *Plan) Running(i int) bool {
	return i >= 0 && i < len(p.state) && p.state[i].started && !p.state[i].done
}

// Done reports whether every task has ended.
func (p *Plan) Done() bool {
	for _, s := range p.state {
		if !s.done {
			return false
		}
	}
	return true
}

// Result returns task i's fit, or the error it ended with (nil, nil while
// it runs).
func (p *Plan) Result(i int) (*Fit, error) {
	if i < 0 || i >= len(p.state) || !p.state[i].done {
		return nil, nil
	}
	if err := p.state[i].err; err != nil {
		return nil, err
	}
	return &p.state[i].fit, nil
}

// Bars returns one progress bar per group of tasks (Task.Bar), in the
// order of the tasks. A bar of several fits (CleaneX's seeds) counts the
// steps of all of them; a fit that has not started counts with the largest
// planned number of steps seen so far.
func (p *Plan) Bars() []MethodProgress {
	var names []string
	for _, t := range p.Tasks {
		if !slices.Contains(names, t.Bar) {
			names = append(names, t.Bar)
		}
	}
	// The display methods in their usual order, whatever the start order.
	slices.SortStableFunc(names, func(a, b string) int {
		return methods.Rank(strings.TrimSuffix(a, "-paper")) - methods.Rank(strings.TrimSuffix(b, "-paper"))
	})
	out := make([]MethodProgress, 0, len(names))
	for _, name := range names {
		out = append(out, p.bar(name))
	}
	return out
}

// bar returns the progress bar of the tasks whose Bar is name.
func (p *Plan) bar(name string) MethodProgress {
	var idx []int
	maxTotal := 0
	for i, t := range p.Tasks {
		if t.Bar == name {
			idx = append(idx, i)
			maxTotal = max(maxTotal, p.state[i].total)
		}
	}
	b := MethodProgress{Name: name}
	var done, failed, skipped, running int
	var secs float64
	var firstErr error
	// shown is the first running fit: its step and loss are the bar's text,
	// and it is the fit whose loss the page charts (LiveTask).
	var shown *taskState
	for _, i := range idx {
		s := &p.state[i]
		total := s.total
		if total <= 0 {
			total = maxTotal
		}
		b.Total += total
		switch {
		case s.done && s.err == nil:
			done++
			secs += s.fit.Seconds
			b.Step += total
		case s.skipped:
			skipped++
			if firstErr == nil {
				firstErr = s.err
			}
		case s.done:
			failed++
			b.Step += total
			if firstErr == nil {
				firstErr = s.err
			}
		default:
			b.Step += s.step
			if s.started {
				running++
				if shown == nil {
					shown = s
				}
			}
		}
	}
	n := len(idx)
	b.Done = done+failed == n && done > 0
	b.Failed = failed == n
	b.Skipped = skipped == n
	switch {
	case b.Skipped:
		b.Text = "skipped: " + firstErr.Error()
	case b.Failed:
		b.Text = firstErr.Error()
	case b.Done && n == 1:
		b.Text = fmt.Sprintf("done in %.2f s", secs)
	case b.Done && failed == 0:
		b.Text = fmt.Sprintf("%d fits done in %.2f s of computing", n, secs)
	case b.Done:
		b.Text = fmt.Sprintf("%d of %d fits done, %d failed: %v", done, n, failed, firstErr)
	case n == 1 && shown != nil:
		b.Text = ProgressText(shown.step, shown.total, shown.loss, shown.eta)
	case n == 1:
		b.Text = "waiting"
	case shown != nil:
		b.Text = fmt.Sprintf("%d of %d fits done, %d running", done+failed, n, running)
		if t := ProgressText(shown.step, shown.total, shown.loss, math.NaN()); t != "running…" {
			b.Text += " · " + t
		}
	default:
		b.Text = fmt.Sprintf("%d of %d fits done", done+failed, n)
		if done+failed == 0 {
			b.Text = "waiting"
		}
	}
	return b
}

// ProgressText is a running fit's line under its bar: steps, loss and the
// time left, as far as known ("running…" when nothing is).
func ProgressText(step, total int, loss, eta float64) string {
	var parts []string
	if total > 1 {
		parts = append(parts, fmt.Sprintf("%d / %d", step, total))
	}
	if !math.IsNaN(loss) {
		parts = append(parts, fmt.Sprintf("loss %.4g", loss))
	}
	if !math.IsNaN(eta) && !math.IsInf(eta, 0) && step < total {
		parts = append(parts, fmt.Sprintf("about %.0f s left", math.Ceil(eta)))
	}
	if len(parts) == 0 {
		return "running…"
	}
	return strings.Join(parts, " · ")
}

// Pilot is what the recommendation needs to know about the pilot.
type Pilot struct {
	// K1 is its number of classes and N its number of points; Observed its
	// exact observed curve and ClassSE that curve's class-sampling standard
	// errors, k = 0..K1.
	K1, N             int
	Observed, ClassSE accuracy.Curve
	// TiedShare is the share of its points tied with a wrong class
	// (protocol.Summary.TiedShare).
	TiedShare float64
	// Squashed reports scores squashed for the pooled and the tail method
	// (protocol.Summary.Squashed).
	Squashed bool
}

// fits returns the pilot as recommend.Fits (without curves).
func (pl Pilot) fits() recommend.Fits {
	return recommend.Fits{K1: pl.K1, N: pl.N, Observed: pl.Observed, ClassSE: pl.ClassSE, TiedShare: pl.TiedShare, Squashed: pl.Squashed}
}

// Outcome assembles the recommendation for k = 0..k2 from the jobs'
// results (recommend.Assemble) with the calibration of table. When the table
// could not be read (tableErr), the CleaneX fits are still checked and
// averaged but there is no estimate, and Err says why.
func (p *Plan) Outcome(pilot Pilot, k2 int, table recommend.Table, tableErr error) recommend.Outcome {
	return p.outcome(pilot, k2, table, tableErr, "it did not run")
}

// outcome is Outcome with the error of the jobs that have not ended.
func (p *Plan) outcome(pilot Pilot, k2 int, table recommend.Table, tableErr error, pending string) recommend.Outcome {
	curves := make([]accuracy.Curve, len(p.Jobs))
	errs := make([]error, len(p.Jobs))
	for i := range p.Jobs {
		errs[i] = errors.New(pending)
	}
	f := pilot.fits()
	for i, t := range p.Tasks {
		if t.Job < 0 {
			continue
		}
		fit, err := p.Result(i)
		switch {
		case err != nil:
			errs[t.Job] = err
		case fit != nil:
			curves[t.Job], errs[t.Job] = fit.Curve, nil
			if t.Spread {
				f.Spread, f.TailSpread = fit.Spread, fit.TailSpread
			}
		}
	}
	if tableErr != nil {
		out := recommend.Assemble(f, p.Jobs, curves, errs, k2, recommend.Calibration{})
		out.Result = recommend.Result{}
		out.Err = fmt.Errorf("this build's calibration table cannot be used (%v)", tableErr)
		return out
	}
	return recommend.Assemble(f, p.Jobs, curves, errs, k2, table.Calibration)
}

// Curves returns base with the run's results: each display method that has
// a curve to show (the regression only when it passed the check, CleaneX as
// the mean of its fits that passed, or the paper fit when that preset was
// chosen), and the recommended curve with its interval when there is one.
func (p *Plan) Curves(base report.Curves, out recommend.Outcome) report.Curves {
	c := base
	c.Methods = nil
	for _, m := range p.Display {
		if fit, ok := p.shown(m, out); ok {
			c.Methods = append(c.Methods, report.Method{Name: m, Curve: fit.Curve, C: fit.C, Losses: fit.Losses, Seconds: fit.Seconds})
		}
	}
	c.Estimate, c.EstimateLo, c.EstimateHi = nil, nil, nil
	if out.Err == nil && out.Estimate != nil {
		c.Estimate, c.EstimateLo, c.EstimateHi = out.Estimate, out.Lo, out.Hi
	}
	return c
}

// shown returns the fit shown as method m's curve, if there is one: for a
// method the recommendation fits, its job's fit when that passed the check.
func (p *Plan) shown(m string, out recommend.Outcome) (Fit, bool) {
	switch {
	case m == methods.CleaneX && p.Preset != "paper" && p.isJob(m):
		if out.CleaneX == nil {
			return Fit{}, false
		}
		// The mean curve; C_x and the losses of the first fit that was used
		// (the ROC and loss charts show one fit), the time of all of them.
		f := Fit{Curve: out.CleaneX}
		first := true
		for i, t := range p.Tasks {
			r, err := p.Result(i)
			if t.Job < 0 || t.Method != methods.CleaneX || err != nil || r == nil {
				continue
			}
			f.Seconds += r.Seconds
			if _, failed := out.Failed[t.Label()]; !failed && first {
				f.C, f.Losses, first = r.C, r.Losses, false
			}
		}
		return f, true
	case m != methods.CleaneX && p.isJob(m):
		for i, t := range p.Tasks {
			if t.Job < 0 || t.Method != m {
				continue
			}
			if _, failed := out.Failed[t.Label()]; failed {
				return Fit{}, false
			}
			if r, err := p.Result(i); err == nil && r != nil {
				return *r, true
			}
		}
		return Fit{}, false
	}
	for i, t := range p.Tasks {
		if t.Method != m || t.Job >= 0 || (m == methods.CleaneX && t.Bar != PaperBar) {
			continue
		}
		if r, err := p.Result(i); err == nil && r != nil {
			return *r, true
		}
	}
	return Fit{}, false
}

// Failures returns, for each display method without a curve to show, why
// (its error, or the check it failed); a method still running is not listed.
func (p *Plan) Failures(out recommend.Outcome) map[string]string {
	fails := map[string]string{}
	for _, m := range p.Display {
		if _, ok := p.shown(m, out); ok {
			continue
		}
		if _, ok := p.skippedWhy(m); ok {
			continue
		}
		switch {
		case m != methods.CleaneX && p.isJob(m):
			for _, t := range p.Tasks {
				if why, ok := out.Failed[t.Label()]; ok && t.Job >= 0 && t.Method == m {
					fails[m] = why
				}
			}
		case m == methods.CleaneX && p.Preset != "paper" && p.isJob(m):
			var whys []string
			for _, t := range p.Tasks {
				if why, ok := out.Failed[t.Label()]; ok && t.Job >= 0 && t.Method == methods.CleaneX {
					whys = append(whys, why)
				}
			}
			if len(whys) > 0 {
				fails[m] = fmt.Sprintf("all %d fits failed; the first: %s", len(whys), whys[0])
			}
		default:
			for i, t := range p.Tasks {
				if t.Method == m && t.Job < 0 {
					if _, err := p.Result(i); err != nil {
						fails[m] = err.Error()
					}
				}
			}
		}
	}
	return fails
}

// Skipped returns, for each display method that did not run because it
// cannot run on the pilot (SkipFor), why.
func (p *Plan) Skipped() map[string]string {
	skips := map[string]string{}
	for _, m := range p.Display {
		if why, ok := p.skippedWhy(m); ok {
			skips[m] = why
		}
	}
	return skips
}

// skippedWhy returns why method m did not run, when every task of m was
// skipped.
func (p *Plan) skippedWhy(m string) (string, bool) {
	why := ""
	for i, t := range p.Tasks {
		if t.Method != m {
			continue
		}
		if !p.state[i].skipped {
			return "", false
		}
		why = p.state[i].err.Error()
	}
	return why, why != ""
}

// CleaneXUsed returns how many of the recommendation's CleaneX fits were
// used and how many ran.
func (p *Plan) CleaneXUsed(out recommend.Outcome) (used, fits int) {
	for _, j := range p.Jobs {
		if j.Method != methods.CleaneX {
			continue
		}
		fits++
		if _, failed := out.Failed[j.Label()]; !failed {
			used++
		}
	}
	return used, fits
}

// Partial returns base with the results so far, for drawing while the run
// goes on: every finished display-only fit, and each finished job of a
// display method once it has passed the recommendation's check against the
// pilot (recommend.Assemble on the jobs that have ended). CleaneX's fits
// are shown together at the end (Curves), when all of them are in.
func (p *Plan) Partial(base report.Curves, pilot Pilot, k2 int) report.Curves {
	const pending = "it is still running"
	out := p.outcome(pilot, k2, recommend.Table{}, errors.New("not used"), pending)
	c := base
	c.Methods = nil
	for i, t := range p.Tasks {
		r, err := p.Result(i)
		if err != nil || r == nil || !slices.Contains(p.Display, t.Method) {
			continue
		}
		if t.Job >= 0 {
			if _, failed := out.Failed[t.Label()]; failed || t.Method == methods.CleaneX {
				continue
			}
		}
		c.Methods = append(c.Methods, report.Method{Name: t.Method, Curve: r.Curve, C: r.C, Losses: r.Losses, Seconds: r.Seconds})
	}
	return c
}

// LiveTask returns the task whose training the page shows live (its loss
// and its current curve): the CleaneX fit with the paper preset when there
// is one, else the first of the recommendation's CleaneX fits that is
// running; -1 when CleaneX is not shown or none runs.
func (p *Plan) LiveTask() int {
	if !slices.Contains(p.Display, methods.CleaneX) {
		return -1
	}
	for i, t := range p.Tasks {
		if t.Method != methods.CleaneX || (p.Preset == "paper") != (t.Bar == PaperBar) {
			continue
		}
		if p.Running(i) {
			return i
		}
	}
	return -1
}
