package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/backtest"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/inputs/parquetfile"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/report"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // a method failed, an output could not be written, or the run was interrupted
	exitInput   = 2 // bad flags or bad input data
)

// usage is the command's synopsis, printed by "cleanex -h": one line per
// command naming every flag it defines (TestUsageNamesEveryFlag checks this,
// and that README.md's examples use only these flags).
const usage = `usage:
  cleanex predict --k2 N [--methods LIST] [--direction auto|higher|lower] [--seed S] [--preset fast|paper] [--kde-bandwidth lcv|ucv] [--truth TRUTH.csv] [--estimate=false] [--metric euclidean|cosine] [--reference centroid|1nn|oneshot] FILE
  cleanex simulate [--classes normal|uniform] [--points normal|uniform] [--d 5] [--sigma2 0.1] [--k 2000] [--r 10] [--group 0 --tau2 T] [--seed S] [--k1 N] [--truth TRUTH.csv] [--embeddings train|gallery] [--ref-points 0] [--format csv|npz]
  cleanex backtest [--k1 100] [--reps 10] [--methods LIST] [--direction auto|higher|lower] [--seed S] [--preset fast|paper] [--kde-bandwidth lcv|ucv] [--estimate=false] [--metric euclidean|cosine] [--reference centroid|1nn|oneshot] FILE
  cleanex summarise [--direction auto|higher|lower] [--quantiles 128] [--metric euclidean|cosine] [--reference centroid|1nn|oneshot] FILE | --sql (the SQL recipe instead)
FILE is the pilot's score matrix as CSV or TSV (.csv, .tsv, also gzip-compressed: .csv.gz),
NumPy .npz (scores, labels, optional classes), Parquet (long or wide), or two .npy files
(SCORES.npy LABELS.npy, in either order); the format is read from the first bytes. predict
also takes a per-point summary (docs/summary.md), which summarise writes from a score matrix
(--sql prints the same recipe in SQL for DuckDB or Spark). FILE may also hold labelled
embeddings (.npz or CSV, docs/embeddings.md): test embeddings with training embeddings or a
gallery, scored by --metric against --reference (simulate --embeddings writes an example).
FILE - reads standard input. Run "cleanex COMMAND -h" for a command's flags.`

// inputError marks an error caused by the user's flags or data (exit status 2).
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

func badInput(format string, a ...any) error { return inputError{fmt.Errorf(format, a...)} }

// run is the command without signal handling; see runContext.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdin, stdout, stderr)
}

// runContext runs the command line args (without the program name) and
// returns the exit status. Errors are one line on stderr.
func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "cleanex: no command: use predict, simulate, backtest or summarise (cleanex -h for help)")
		return exitInput
	}
	var err error
	cmd := args[0]
	switch cmd {
	case "predict":
		err = predict(ctx, args[1:], stdin, stdout, stderr)
	case "simulate":
		err = simulateCmd(ctx, args[1:], stdout, stderr)
	case "backtest":
		err = backtestCmd(ctx, args[1:], stdin, stdout, stderr)
	case "summarise", "summarize":
		err = summariseCmd(ctx, args[1:], stdin, stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "cleanex: unknown command %q: use predict, simulate, backtest or summarise (cleanex -h for help)\n", cmd)
		return exitInput
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	}
	fmt.Fprintf(stderr, "cleanex %s: %s\n", cmd, oneLine(err.Error()))
	var ie inputError
	var pe *scores.ParseError
	if errors.As(err, &ie) || errors.As(err, &pe) {
		return exitInput
	}
	return exitFailure
}

// oneLine keeps a message on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

// newFlags returns a flag set that reports errors through parse instead of printing.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse parses args allowing flags before and after the positional
// arguments ("predict data.csv --k2 100"), and returns the positionals.
// -h prints the flags to stderr and returns flag.ErrHelp.
func parse(fs *flag.FlagSet, args []string, stderr io.Writer) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprintf(stderr, "usage of cleanex %s:\n", fs.Name())
				fs.SetOutput(stderr)
				fs.PrintDefaults()
				return nil, err
			}
			return nil, badInput("%v (cleanex %s -h lists the flags)", err, fs.Name())
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// "--" ends the flags: everything after it is positional.
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// methodFlags are the flags predict and backtest share.
type methodFlags struct {
	methods, direction, preset, bandwidth string
	seed                                  uint64
}

func (m *methodFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&m.methods, "methods", strings.Join(methods.Names, ","), "comma-separated methods, from "+strings.Join(methods.Names, ", "))
	fs.StringVar(&m.direction, "direction", "auto", "score direction: auto, higher (similarities) or lower (distances)")
	m.seed = 1
	fs.Var((*decUint64)(&m.seed), "seed", "random seed (a decimal `uint`)")
	fs.StringVar(&m.preset, "preset", "fast", "CleaneX preset: fast, or paper (the published network: about 3,700 times the computation of fast, tens of minutes to hours per fit)")
	fs.StringVar(&m.bandwidth, "kde-bandwidth", "lcv", "KDE bandwidth selector: lcv or ucv")
}

func (m *methodFlags) build() ([]estimate.Estimator, scores.Direction, error) {
	dir, err := scores.ParseDirection(m.direction)
	if err != nil {
		return nil, 0, badInput("--direction: %v", err)
	}
	o := methods.Options{Seed: m.seed, Preset: m.preset, KDEBandwidth: m.bandwidth}
	if err := (methods.Options{Preset: m.preset}).Validate(); err != nil {
		return nil, 0, badInput("--preset: %v", err)
	}
	if err := (methods.Options{KDEBandwidth: m.bandwidth}).Validate(); err != nil {
		return nil, 0, badInput("--kde-bandwidth: %v", err)
	}
	if _, err := methods.ParseList(m.methods); err != nil {
		return nil, 0, badInput("--methods: %v", err)
	}
	ests, err := methods.NewList(m.methods, o)
	if err != nil {
		return nil, 0, inputError{err}
	}
	return ests, dir, nil
}

// reader reads pilots in every format, Parquet included, refusing an .npz
// whose scores would not fit in the memory free (freeMemory, looked up only
// for such a file).
func reader() inputs.Reader {
	return inputs.Reader{Parquet: parquetfile.Decoder{}, MemoryLimit: freeMemory}
}

// readData reads the pilot named by the positional arguments and returns
// it with a name for messages. One argument is a file in any format
// inputs.Read detects (CSV or TSV, gzip-compressed or not, .npz, Parquet, a
// per-point summary, embeddings), or "-" for standard input; two arguments
// are a pair of .npy files, the scores and the labels (inputs.PackNPY).
// Every error is bad input.
func readData(pos []string, stdin io.Reader) (*inputs.Data, string, error) {
	var d *inputs.Data
	var name string
	var err error
	switch len(pos) {
	case 1:
		name = pos[0]
		d, err = readOne(name, stdin)
		if name == "-" {
			name = "standard input"
		}
	case 2:
		var files [2][]byte
		for i, p := range pos {
			if files[i], err = readNPY(p); err != nil {
				return nil, "", inputError{err}
			}
		}
		name = pos[0] + " + " + pos[1]
		var packed []byte
		if packed, err = inputs.PackNPY(files[0], files[1]); err == nil {
			d, err = reader().Read(bytes.NewReader(packed))
		}
	default:
		return nil, "", badInput("want one input file (or - for standard input), or two .npy files (the scores and the labels); got %d arguments", len(pos))
	}
	if err != nil {
		return nil, "", inputError{fmt.Errorf("%s: %w", name, err)}
	}
	return d, name, nil
}

// readOne reads the pilot in file name, or standard input for "-". Text is
// streamed; a binary format is read whole.
func readOne(name string, stdin io.Reader) (*inputs.Data, error) {
	if name == "-" {
		return reader().Read(stdin)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, errors.New("a folder, not a file: give the pilot's score file (or files) inside it")
	}
	return reader().Read(f)
}

// isGzip reports whether head, a file's first bytes, starts a gzip stream
// (inputs.Detect).
func isGzip(head []byte) bool {
	f, _ := inputs.Detect(head)
	return f == inputs.Gzip
}

// readNPY reads file name, one of a pair of .npy files, gzip-compressed or
// not.
func readNPY(name string) ([]byte, error) {
	if name == "-" {
		return nil, errors.New("two input files are a pair of .npy files (the scores and the labels); standard input (-) cannot be one of them")
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if isGzip(data[:min(len(data), scores.SniffBytes)]) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err == nil {
			data, err = io.ReadAll(zr)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: the gzip-compressed data is damaged or cut short (%v); compress the file again", name, err)
		}
	}
	if f, err := inputs.Detect(data[:min(len(data), scores.SniffBytes)]); f != inputs.NPY || err != nil {
		return nil, fmt.Errorf("%s is not an .npy array; two input files are the scores and the labels as .npy files, and a pilot in any other format is one file", name)
	}
	return data, nil
}

func predict(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("predict")
	k2 := intFlag(fs, "k2", 0, fmt.Sprintf("number of classes to predict the accuracy for (required, 2 to %d)", limits.MaxK2))
	truthFile := fs.String("truth", "", "a k,truth CSV (as simulate --truth writes; gzip-compressed or not) to add as the truth column")
	withEstimate := fs.Bool("estimate", true, "write the recommended curve and its 80% interval (columns estimate, estimate_lo, estimate_hi); when false, the cleanex column is one fit (seed --seed) instead of the mean of the estimate's four")
	var mf methodFlags
	mf.register(fs)
	var ef embedFlags
	ef.register(fs)
	pos, err := parse(fs, args, stderr)
	if err != nil {
		return err
	}
	ef.visit(fs)
	if !flagSet(fs, "k2") {
		return badInput("--k2 is required: give the number of classes to predict the accuracy for (2 to %s)", limits.Thousands(limits.MaxK2))
	}
	if err := checkK2(*k2); err != nil {
		return err
	}
	ests, s, picked, err := mf.loadScored(ctx, pos, stdin, &ef, stderr, "predict", false)
	if err != nil {
		return err
	}
	var issues methodIssues
	issues.note(picked)
	curves := report.Curves{K1: s.K, K2: *k2, Observed: s.Observed}
	if *truthFile != "" {
		if curves.Truth, err = readTruth(*truthFile); err != nil {
			return err
		}
		if n := curves.Truth.Max(); n < *k2 {
			issues.note(fmt.Sprintf("the truth file %s gives the truth up to k = %s only, so the truth column is empty from k = %s to %s", *truthFile, limits.Thousands(n), limits.Thousands(n+1), limits.Thousands(*k2)))
		}
	}
	prog := newProgress(stderr, "predict")
	issues.noteScores(s)
	var rec *recommendation
	if *withEstimate {
		if rec, err = runRecommendation(ctx, s, *k2, mf, prog); err != nil {
			prog.done()
			if ctx.Err() != nil {
				return fmt.Errorf("interrupted: %w", ctx.Err())
			}
			return err
		}
	}
	ests = applicable(ests, s.K, &issues)
	done := 0.0 // the share of the progress bar already used
	if rec != nil {
		done = 0.5
	}
	for i, e := range ests {
		if rec != nil {
			if m, ok, err := rec.reuse(e.Name()); ok {
				if err != nil {
					issues.fail(e.Name(), err)
				} else {
					curves.Methods = append(curves.Methods, m)
				}
				continue
			}
		}
		start := time.Now()
		res, err := e.Fit(ctx, s, *k2, func(p estimate.Progress) {
			// after the recommendation's half (runRecommendation), the rest
			prog.update(done+(1-done)*fraction(i, len(ests), p), p.Method)
		})
		if err == nil {
			err = methods.CheckCurve(res.Curve, *k2)
		}
		if err != nil {
			if ctx.Err() != nil {
				prog.done()
				return fmt.Errorf("interrupted: %w", ctx.Err())
			}
			if errors.Is(err, accuracy.ErrSummarised) {
				err = fmt.Errorf("%w (a summary file, or embeddings, which predict scores into per-point summaries as it reads them); give the score matrix for --preset paper, or use --preset fast", err)
			}
			issues.fail(e.Name(), err)
			continue
		}
		curves.Methods = append(curves.Methods, report.Method{Name: e.Name(), Curve: res.Curve, C: res.C, Losses: res.Losses, Seconds: time.Since(start).Seconds()})
	}
	prog.done()
	if rec != nil {
		rec.fill(&curves, &issues)
	}
	if len(curves.Methods) == 0 && curves.Estimate == nil {
		return issues.nothingRan()
	}
	if err := curves.WriteCSV(stdout); err != nil {
		return err
	}
	return issues.finish("predict", stderr)
}

// fraction is the share of the work done when method i of n reports p.
func fraction(i, n int, p estimate.Progress) float64 {
	f := 0.0
	if p.Total > 0 {
		f = float64(p.Step) / float64(p.Total)
	}
	return (float64(i) + min(max(f, 0), 1)) / float64(n)
}

func simulateCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("simulate")
	classes := fs.String("classes", "normal", "distribution of the class centres: normal or uniform")
	points := fs.String("points", "normal", "distribution of the points around their centre: normal or uniform")
	d := intFlag(fs, "d", 5, "dimension")
	sigma2 := fs.Float64("sigma2", 0.1, "variance of the points around their centre")
	k := intFlag(fs, "k", 2000, "number of classes K")
	r := intFlag(fs, "r", 10, "points per class")
	group := intFlag(fs, "group", 0, "classes per group: above 1, each group's classes lie around a shared centre and are one another's closest rivals (0: independent classes, the paper's)")
	tau2 := fs.Float64("tau2", 0, "with --group: variance of a class's centre around its group's centre")
	seed := uint64Flag(fs, "seed", 1, "random seed")
	k1 := intFlag(fs, "k1", 0, "write the pilot of k1 classes drawn at random (default: all K)")
	truth := fs.String("truth", "", "also write the exact accuracy curve k,truth for k = 2..K to this file")
	var se simEmbedFlags
	se.register(fs)
	pos, err := parse(fs, args, stderr)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badInput("unexpected argument %q: simulate takes only flags", pos[0])
	}
	if err := se.visit(fs); err != nil {
		return err
	}
	if flagSet(fs, "tau2") && *group <= 1 {
		// without groups there is no group centre for tau2 to spread around
		return badInput("--tau2 applies only with --group above 1 (classes in groups of that size); --group is %d", *group)
	}
	cfg := simulate.Config{D: *d, Sigma2: *sigma2, K: *k, R: *r, Seed: *seed, Group: *group, Tau2: *tau2}
	if cfg.Classes, err = simulate.ParseDist(*classes); err != nil {
		return badInput("--classes: %v", err)
	}
	if cfg.Points, err = simulate.ParseDist(*points); err != nil {
		return badInput("--points: %v", err)
	}
	w, err := simulate.Generate(cfg)
	if err != nil {
		return badInput("%s", strings.TrimPrefix(err.Error(), "simulate: "))
	}
	cls := w.AllClasses()
	if *k1 != 0 {
		if cls, err = w.SampleClasses(*k1, *seed); err != nil {
			return badInput("--k1: %v", err)
		}
	}
	if se.embeddings != "" {
		return simulateEmbeddings(ctx, w, cls, *seed, &se, *truth, stdout, stderr)
	}
	if *truth != "" {
		prog := newProgress(stderr, "simulate")
		c, err := w.TruthContext(ctx, func(done, total int) {
			prog.update(float64(done)/float64(total), "truth curve")
		})
		prog.done()
		if err != nil {
			return fmt.Errorf("interrupted: %w", err)
		}
		if err := writeTruth(*truth, c); err != nil {
			return err
		}
	}
	return w.WriteCSV(stdout, cls)
}

// readTruth reads a "k,truth" CSV whose rows give k = 2, 3, ... in order,
// gzip-compressed or not.
func readTruth(name string) (accuracy.Curve, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, badInput("--truth: %v", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, badInput("--truth %s: a folder, not a file: give the k,truth CSV (as simulate --truth writes it)", name)
	}
	br := bufio.NewReader(f)
	if b, _ := br.Peek(2); isGzip(b) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, badInput("--truth %s: the gzip-compressed data is damaged (%v); compress the file again", name, err)
		}
		defer zr.Close()
		br = bufio.NewReader(zr)
	}
	if b, err := br.Peek(3); err == nil && string(b) == "\uFEFF" {
		br.Discard(3) // a UTF-8 byte-order mark, as score files may have
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = 2
	c := accuracy.Curve{1, 1}
	for row := 1; ; row++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrHeader) {
				return nil, badInput("--truth %s: the gzip-compressed data is damaged or cut short (%v); compress the file again", name, err)
			}
			return nil, badInput("--truth %s: row %d: %v; want two columns k,truth", name, row, err)
		}
		if row == 1 {
			if strings.TrimSpace(rec[0]) != "k" {
				header := strings.Join(rec, ",")
				if len(header) > 60 {
					header = header[:60] + "..."
				}
				return nil, badInput("--truth %s: row 1: header %q, want k,truth (a CSV, gzip-compressed or not, as simulate --truth writes)", name, header)
			}
			continue
		}
		k, err := strconv.Atoi(strings.TrimSpace(rec[0]))
		if err != nil || k != len(c) {
			return nil, badInput("--truth %s: row %d: k = %q, want %d (rows must give k = 2, 3, ... in order)", name, row, rec[0], len(c))
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rec[1]), 64)
		if err != nil || !(v >= 0 && v <= 1) {
			return nil, badInput("--truth %s: row %d: truth %q is not an accuracy between 0 and 1", name, row, rec[1])
		}
		c = append(c, v)
	}
	if c.Max() < 2 {
		return nil, badInput("--truth %s: no rows after the header", name)
	}
	return c, nil
}

// writeTruth writes "k,truth" rows for k = 2..K, numbers in the shortest form
// that parses back to the same float64.
func writeTruth(name string, c accuracy.Curve) error {
	f, err := os.Create(name)
	if err != nil {
		return inputError{fmt.Errorf("--truth: %w", err)}
	}
	bw := bufio.NewWriter(f)
	bw.WriteString("k,truth\n")
	var buf []byte
	for k := 2; k <= c.Max(); k++ {
		buf = strconv.AppendInt(buf[:0], int64(k), 10)
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, c[k], 'g', -1, 64)
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("--truth %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--truth %s: %w", name, err)
	}
	return nil
}

func backtestCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("backtest")
	k1 := intFlag(fs, "k1", 100, "classes per pilot, from 2 to one less than the file's")
	reps := intFlag(fs, "reps", 10, fmt.Sprintf("number of pilots (1 to %d)", maxReps))
	withEstimate := fs.Bool("estimate", true, "also score the recommended curve and its 80% interval (method estimate: coverage and width at K)")
	var mf methodFlags
	mf.register(fs)
	var ef embedFlags
	ef.register(fs)
	pos, err := parse(fs, args, stderr)
	if err != nil {
		return err
	}
	ef.visit(fs)
	if err := checkReps(*reps); err != nil {
		return err
	}
	ests, s, picked, err := mf.loadScored(ctx, pos, stdin, &ef, stderr, "backtest", true)
	if err != nil {
		return err
	}
	if s.Summarised() {
		return badInput("backtest draws subsets of the pilot's classes and needs their scores; a per-point summary holds only order statistics: give the score matrix")
	}
	switch {
	case s.K < 3:
		// no k1 with 2 <= k1 < K exists
		return badInput("the file has %d classes; a backtest draws pilots of k1 classes, from 2 to one less than the file's, and predicts the accuracy at all of them, so it needs a file of at least 3 classes: use predict on this one", s.K)
	case *k1 < 2 || *k1 > s.K:
		return badInput("--k1 %d: it must be from 2 to %d, one less than the file's %d classes", *k1, s.K-1, s.K)
	case *k1 == s.K:
		// every pilot would be the whole file, predicted up to its own size:
		// the same run n times, with nothing extrapolated to score
		return badInput("--k1 %d: the file has %d classes, so every pilot would be the whole file and nothing would be predicted beyond it; give --k1 below %d (a backtest draws k1 of the file's classes and predicts the accuracy at all %d)", *k1, s.K, s.K, s.K)
	}
	var issues methodIssues
	issues.note(picked)
	issues.noteScores(s)
	if *withEstimate {
		table, err := recommend.DefaultTable()
		if err != nil {
			return err
		}
		ests = append(ests, recommend.Estimator{Seed: mf.seed, Calibration: table.Calibration})
	}
	ests = applicable(ests, *k1, &issues)
	if len(ests) == 0 {
		return issues.nothingRan()
	}
	bw := bufio.NewWriter(stdout)
	fmt.Fprintf(bw, "rep,method,rmse,predicted_at_%[1]d,true_at_%[1]d,seconds,lo_at_%[1]d,hi_at_%[1]d,covered_at_%[1]d,width_at_%[1]d\n", s.K)
	g := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', 10, 64)
	}
	var failures []string
	prog := newProgress(stderr, "backtest")
	cfg := backtest.Config{K1: *k1, Reps: *reps, Seed: mf.seed, OnRow: func(r backtest.Row) error {
		if r.Err != nil && len(failures) < 3 {
			failures = append(failures, fmt.Sprintf("pilot %d %s: %s", r.Rep+1, r.Method, oneLine(r.Err.Error())))
		}
		covered := ""
		if !math.IsNaN(r.Lo) && !math.IsNaN(r.Hi) {
			covered = "0"
			if r.Covered() {
				covered = "1"
			}
		}
		fmt.Fprintf(bw, "%d,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", r.Rep+1, r.Method, g(r.RMSE), g(r.Predicted), g(r.True), strconv.FormatFloat(r.Seconds, 'f', 3, 64), g(r.Lo), g(r.Hi), covered, g(r.Hi-r.Lo))
		return bw.Flush()
	}}
	res, err := backtest.Run(ctx, s, cfg, ests, func(p backtest.Progress) {
		f := 0.0
		if p.Fit.Total > 0 && p.Done < p.Total {
			f = min(max(float64(p.Fit.Step)/float64(p.Fit.Total), 0), 1)
		}
		prog.update((float64(p.Done)+f)/float64(p.Total), fmt.Sprintf("pilot %d/%d %s", p.Rep+1, *reps, p.Fit.Method))
	})
	prog.done()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted: %w", ctx.Err())
		}
		return err
	}
	ok := 0
	for _, m := range res.Medians {
		fmt.Fprintf(bw, "median,%s,%s,%s,%s,%s,,,%s,%s\n", m.Method, g(m.RMSE), g(m.Predicted), g(m.True), strconv.FormatFloat(m.Seconds, 'f', 3, 64), g(m.Coverage), g(m.Width))
		if !math.IsNaN(m.Coverage) {
			fmt.Fprintf(stderr, "cleanex backtest: %s: the 80%% interval at k = %d held the truth on %d of %d pilots (%.0f%%); median width %.3f\n",
				m.Method, s.K, int(math.Round(m.Coverage*float64(m.OK))), m.OK, 100*m.Coverage, m.Width)
		}
		ok += m.OK
		if m.Failed > 0 {
			fmt.Fprintf(stderr, "cleanex backtest: %s failed on %d of %d pilots (their rows have empty rmse and predicted cells); its medians are over the %d that succeeded\n", m.Method, m.Failed, m.Failed+m.OK, m.OK)
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if len(failures) > 0 {
		fmt.Fprintf(stderr, "cleanex backtest: first failures: %s\n", strings.Join(failures, "; "))
	}
	if ok == 0 {
		return fmt.Errorf("every fit failed; nothing to rank")
	}
	return issues.finish("backtest", stderr)
}
