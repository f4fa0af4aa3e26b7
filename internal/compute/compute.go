// Package compute is what a compute worker does with the messages of package
// protocol: it parses or simulates a data set, or prepares a large one as
// per-point summaries whose binary form the other workers load, keeps it,
// fits the requested methods on it with throttled progress, and stops a fit
// when asked. It is
// plain Go, so the browser worker (wasm/worker) is a thin loop around a
// Server and the whole behaviour is tested natively.
package compute

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/estimate/tail"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

// Dataset is a loaded or simulated pilot.
type Dataset struct {
	// Sample is the pilot, oriented higher-is-better.
	Sample *accuracy.Sample
	// Truth is the true curve up to the full class count when known, else nil.
	Truth accuracy.Curve

	summary protocol.Summary
	// prepared is set for a data set prepared in one worker (Prepare,
	// LoadBinary): its Sample holds per-point summaries, not the scores.
	prepared bool
}

// Load reads a pilot in any format inputs.Reader detects from its first
// bytes (CSV or TSV, gzip-compressed or not, NumPy .npz; docs/formats.md §1)
// but Parquet (see reader) under direction dir ("auto", "higher" or
// "lower") and summarises it. Embeddings are scored with the file's
// default metric and reference and summarised per point as Prepare does
// (the page prepares every file it knows to be embeddings). Errors name
// the place: *scores.ParseError for text, *inputs.Error for the binary
// formats.
func Load(data []byte, dir string) (*Dataset, protocol.Summary, error) {
	d, err := scores.ParseDirection(dir)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	in, err := reader().Read(bytes.NewReader(data))
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	if in.Matrix != nil {
		return fromMatrix(in.Matrix, d)
	}
	if in.Embeddings != nil {
		est, err := kdeSetting("")
		if err != nil {
			return nil, protocol.Summary{}, err
		}
		return fromEmbeddings(context.Background(), in, d, "", "", embed.Options{KDE: est})
	}
	s, used, err := in.Sample(d)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	return fromSample(s, used, used)
}

// reader is the reader of Load: it has no Parquet decoder, which would be
// most of the compute worker's WebAssembly binary (see
// inputs.ParquetDecoder; with it the worker is about 27 MB, 5.8 MB gzipped,
// instead of about 6.4 MB, 1.7 MB gzipped), so Load refuses Parquet with
// inputs.ErrNoParquet. The page converts a Parquet file to CSV first, in a
// worker of its own started only then (internal/parquetjob, wasm/parquet);
// the command line reads Parquet with its own reader.
func reader() inputs.Reader { return inputs.Reader{} }

// fromMatrix makes the data set of matrix m under direction d and its
// summary. It takes m's scores: they are oriented where they lie and handed
// to the Sample (accuracy.NewSampleInPlace), so that the matrix is not held
// twice while it is read; m.Scores is nil afterwards.
func fromMatrix(m *scores.Matrix, d scores.Direction) (*Dataset, protocol.Summary, error) {
	// the direction Auto gives, scanned once, before the scores are oriented
	detected := m.Resolve(scores.Auto)
	if d == scores.Auto {
		d = detected
	}
	s, used, err := accuracy.NewSampleInPlace(m, d)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	return fromSample(s, used, detected)
}

// fromSample makes the data set of pilot s, whose scores were taken in
// direction used (detected is the direction Auto gives), and its summary; a
// pilot whose scores never vary within a row is refused
// (accuracy.ErrConstantScores).
func fromSample(s *accuracy.Sample, used, detected scores.Direction) (*Dataset, protocol.Summary, error) {
	if err := s.CheckVaries(); err != nil {
		return nil, protocol.Summary{}, err
	}
	sizes := make([]int, s.K)
	for _, y := range s.Labels {
		sizes[y]++
	}
	tied := s.TiedShare()
	sum := protocol.Summary{
		N:                s.N(),
		K:                s.K,
		MinPoints:        slices.Min(sizes),
		MaxPoints:        slices.Max(sizes),
		Direction:        used.String(),
		Detected:         detected.String(),
		LogProbabilities: s.LogProbabilities,
		LogOdds:          s.LogOdds,
		ScoresNote:       joinNotes(s.ScoresNote, accuracy.TiesNote(tied)),
		TiedShare:        tied,
		Squashed:         tail.Squashed(s),
		Wins:             s.Top1Hits(),
		Top1:             s.Observed[s.K],
		Observed:         s.Observed,
		Weights:          s.Weight,
		ObservedC:        s.PluginC(),
	}
	return &Dataset{Sample: s}, sum, nil
}

// joinNotes joins the notes that are not "" into sentences: ". " between,
// each after the first starting with a capital letter.
func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n == "" {
			continue
		}
		if len(out) > 0 {
			n = strings.ToUpper(n[:1]) + n[1:]
		}
		out = append(out, n)
	}
	return strings.Join(out, ". ")
}

// Simulate generates the problem of cfg (docs/formats.md §4): a world of K2
// classes, of which a pilot of K1 classes (drawn with the same seed) is the
// data set. With truth, it also streams the exact curve over all K2 classes.
func Simulate(cfg protocol.SimConfig, truth bool) (*Dataset, protocol.Summary, error) {
	return simulateReporting(cfg, truth, nil)
}

// TruthTask is the Method of the Progress messages a Server posts while it
// computes a simulation's true curve (Run 0; Step of Total of the world's
// points done).
const TruthTask = "truth"

// simulateReporting is Simulate, reporting how far the true curve has come
// to progress (nil: no reports).
func simulateReporting(cfg protocol.SimConfig, truth bool, progress func(done, total int)) (*Dataset, protocol.Summary, error) {
	w, err := World(cfg)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	m, err := w.Pilot(cfg.K1, cfg.Seed)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	ds, sum, err := fromMatrix(m, scores.Lower)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	if truth {
		if ds.Truth, err = w.TruthContext(context.Background(), progress); err != nil {
			return nil, protocol.Summary{}, err
		}
		sum.Truth = ds.Truth
	}
	return ds, sum, nil
}

// World generates the simulated world of cfg (its K2 classes) after
// checking the form (known distributions, 2 <= K1 <= K2) and the size
// (simulate.CheckBrowserSize). Simulate draws its pilot of K1 classes with
// cfg.Seed.
func World(cfg protocol.SimConfig) (*simulate.World, error) {
	cd, err := simulate.ParseDist(cfg.Classes)
	if err != nil {
		return nil, fmt.Errorf("class distribution: %w", err)
	}
	pd, err := simulate.ParseDist(cfg.Points)
	if err != nil {
		return nil, fmt.Errorf("point distribution: %w", err)
	}
	if cfg.K1 < 2 || cfg.K1 > cfg.K2 {
		return nil, fmt.Errorf("simulate: k1 = %d pilot classes: it must be between 2 and K = %d, the simulated world's classes", cfg.K1, cfg.K2)
	}
	sc := simulate.Config{Classes: cd, Points: pd, D: cfg.D, Sigma2: cfg.Sigma2, K: cfg.K2, R: cfg.R, Seed: cfg.Seed}
	if err := simulate.CheckBrowserSize(sc, cfg.K1); err != nil {
		return nil, err
	}
	return simulate.Generate(sc)
}

// Server handles the messages a worker receives. Post sends a reply; it is
// called from the goroutine that handles the message or runs the fit.
type Server struct {
	post  func(protocol.Message)
	yield func()
	now   func() time.Time

	mu       sync.Mutex
	datasets map[uint64]*Dataset
	runs     map[uint64]context.CancelFunc
}

// Options tune a Server.
type Options struct {
	// Yield, when set, is called from a running fit at most every YieldEvery,
	// so a single-threaded host (Go in a Web Worker) can deliver incoming
	// messages such as Cancel while the fit computes.
	Yield func()
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// YieldEvery is the longest a fit runs without calling Options.Yield.
const YieldEvery = 40 * time.Millisecond

// ProgressEvery is the shortest interval between two posted Progress
// messages of one fit (the first and the last are always posted).
const ProgressEvery = 150 * time.Millisecond

// CurveEvery is the shortest interval between two live curves of one fit
// (Progress.Curve). When computing a curve takes longer than a tenth of it,
// the interval grows to ten times that cost, so live curves never take more
// than about a tenth of the fit's time.
const CurveEvery = 250 * time.Millisecond

// keepDatasets is how many data sets a Server keeps (the newest ones).
const keepDatasets = 2

// NewServer returns a Server that replies through post.
func NewServer(post func(protocol.Message), o Options) *Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Yield == nil {
		o.Yield = func() {}
	}
	return &Server{post: post, yield: o.Yield, now: o.Now, datasets: map[uint64]*Dataset{}, runs: map[uint64]context.CancelFunc{}}
}

// Handle processes one message. Load, Simulate and LoadBinary complete
// before Handle returns; a Prepare needs its file, which the host hands to
// Server.Prepare instead, so here it is refused; Run starts the fit on its own goroutine and returns at once, so
// a later Cancel can stop it. Messages a worker never receives are ignored.
func (s *Server) Handle(m protocol.Message) {
	switch m := m.(type) {
	case protocol.Load:
		start := s.now()
		ds, sum, err := Load(m.CSV, m.Direction)
		s.finishLoad(m.Dataset, m.WantSummary, ds, sum, err, start)
	case protocol.Simulate:
		start := s.now()
		last := start
		ds, sum, err := simulateReporting(m.Config, m.WantSummary, func(done, total int) {
			if now := s.now(); done < total && now.Sub(last) >= ProgressEvery {
				last = now
				s.post(protocol.Progress{Method: TruthTask, Step: done, Total: total, Loss: math.NaN(), ETA: math.NaN()})
			}
		})
		s.finishLoad(m.Dataset, m.WantSummary, ds, sum, err, start)
	case protocol.LoadBinary:
		start := s.now()
		ds, sum, err := LoadBinary(m)
		s.finishLoad(m.Dataset, false, ds, sum, err, start)
	case protocol.Prepare:
		// The file comes with the message; the host calls Server.Prepare.
		s.post(protocol.Error{Dataset: m.Dataset, Message: "prepare: no file came with the message"})
	case protocol.Run:
		s.mu.Lock()
		ds := s.datasets[m.Dataset]
		ctx, cancel := context.WithCancel(context.Background())
		s.runs[m.Run] = cancel
		s.mu.Unlock()
		if ds == nil {
			s.endRun(m.Run, cancel)
			s.post(protocol.Error{Run: m.Run, Method: m.Method, Message: fmt.Sprintf("data set %d is not loaded in this worker", m.Dataset)})
			return
		}
		go func() {
			reply := s.fit(ctx, ds, m)
			// The run ends before its reply goes out, so a caller that
			// reacts to the reply finds the server idle.
			s.endRun(m.Run, cancel)
			s.post(reply)
		}()
	case protocol.Describe:
		s.mu.Lock()
		ds := s.datasets[m.Dataset]
		s.mu.Unlock()
		if ds == nil {
			s.post(protocol.Error{Dataset: m.Dataset, Message: fmt.Sprintf("data set %d is not loaded in this worker", m.Dataset)})
			return
		}
		s.post(ds.Summary())
	case protocol.Cancel:
		s.mu.Lock()
		cancel := s.runs[m.Run]
		s.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	}
}

// Busy reports whether a fit is running.
func (s *Server) Busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.runs) > 0
}

func (s *Server) endRun(run uint64, cancel context.CancelFunc) {
	cancel()
	s.mu.Lock()
	delete(s.runs, run)
	s.mu.Unlock()
}

func (s *Server) finishLoad(id uint64, reply bool, ds *Dataset, sum protocol.Summary, err error, start time.Time) {
	if err != nil {
		s.post(protocol.Error{Dataset: id, Message: err.Error()})
		return
	}
	sum.Dataset = id
	sum.Seconds = s.now().Sub(start).Seconds()
	ds.summary = sum
	s.mu.Lock()
	s.datasets[id] = ds
	for len(s.datasets) > keepDatasets {
		delete(s.datasets, slices.Min(mapKeys(s.datasets)))
	}
	s.mu.Unlock()
	if reply {
		s.post(ds.Summary())
	}
}

// Summary returns the data set's summary with its class-sampling standard
// errors (recommend.ClassSE), which are computed on the first call only: a
// worker that never answers for the data set does not spend time on them.
func (d *Dataset) Summary() protocol.Summary {
	if d.summary.ClassSE == nil {
		d.summary.ClassSE = recommend.ClassSE(d.Sample)
	}
	return d.summary
}

func mapKeys(m map[uint64]*Dataset) []uint64 {
	keys := make([]uint64, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// fit runs one method and returns its Result or an Error.
func (s *Server) fit(ctx context.Context, ds *Dataset, m protocol.Run) protocol.Message {
	fail := func(err error) protocol.Message {
		return protocol.Error{Run: m.Run, Method: m.Method, Message: fmt.Sprintf("%s: %v", m.Method, err),
			Cancelled: errors.Is(err, context.Canceled)}
	}
	if err := limits.CheckK2("k2", m.K2); err != nil {
		return fail(err)
	}
	if err := methods.Applicable(m.Method, ds.Sample.K); err != nil {
		return fail(err)
	}
	est, err := newEstimator(m)
	if err != nil {
		return fail(err)
	}
	start := s.now()
	t := &throttle{s: s, run: m.Run, method: m.Method, start: start, lastYield: start, weights: ds.Sample.Weight, k2: m.K2}
	res, err := est.Fit(ctx, ds.Sample, m.K2, t.progress)
	if errors.Is(err, accuracy.ErrSummarised) && ds.prepared {
		err = fmt.Errorf("%w; the page reads a file this large, or embeddings, as per-point summaries: run the command line on the file for this (cleanex predict)", err)
	}
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		err = methods.CheckCurve(res.Curve, m.K2)
	}
	if err != nil {
		return fail(err)
	}
	t.flush()
	out := protocol.Result{Run: m.Run, Method: m.Method, Curve: res.Curve, C: res.C, Losses: res.Losses,
		Seconds: s.now().Sub(start).Seconds()}
	if m.Spread {
		sp, err := recommend.SpreadOf(ctx, ds.Sample)
		if err != nil {
			return fail(err)
		}
		out.SpreadK, out.SpreadB = sp.Wire()
		out.TailSpread = tail.Spread(ds.Sample)
	}
	return out
}

// throttle turns an estimator's progress calls into Progress messages at
// most every ProgressEvery, with an ETA, and yields to the host every
// YieldEvery.
type throttle struct {
	s                *Server
	run              uint64
	method           string
	start, lastYield time.Time
	lastPost         time.Time
	posted           bool
	pending          protocol.Progress
	havePending      bool
	// weights and k2 turn a progress call's C_x into a live curve;
	// lastCurve is when the last one was sent, curveCost what it took.
	weights   []float64
	k2        int
	lastCurve time.Time
	curveCost time.Duration
}

// liveCurve returns the expected curve sum_x w_x C_x^(k-1) of the current
// C_x (accuracy.Expected on a copy, since C is only valid during the call),
// or nil when none is due yet.
func (t *throttle) liveCurve(c []float64, now time.Time) []float64 {
	if len(c) == 0 || len(c) != len(t.weights) {
		return nil
	}
	every := max(CurveEvery, 10*t.curveCost)
	if !t.lastCurve.IsZero() && now.Sub(t.lastCurve) < every {
		return nil
	}
	curve := accuracy.Expected(slices.Clone(c), t.weights, t.k2)
	t.lastCurve = t.s.now()
	t.curveCost = t.lastCurve.Sub(now)
	return curve
}

func (t *throttle) progress(p estimate.Progress) {
	now := t.s.now()
	msg := protocol.Progress{Run: t.run, Method: t.method, Step: p.Step, Total: p.Total, Loss: p.Loss, ETA: math.NaN()}
	if p.Step > 0 && p.Total >= p.Step {
		elapsed := now.Sub(t.start).Seconds()
		msg.ETA = elapsed * float64(p.Total-p.Step) / float64(p.Step)
	}
	if !t.posted || now.Sub(t.lastPost) >= ProgressEvery {
		msg.Curve = t.liveCurve(p.C, now)
		t.s.post(msg)
		t.posted, t.lastPost, t.havePending = true, now, false
	} else {
		t.pending, t.havePending = msg, true
	}
	if now.Sub(t.lastYield) >= YieldEvery {
		t.s.yield()
		t.lastYield = t.s.now()
	}
}

// flush posts the last progress call if the throttle held it back.
func (t *throttle) flush() {
	if t.havePending {
		t.s.post(t.pending)
		t.havePending = false
	}
}
