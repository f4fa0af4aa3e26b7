package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/estimate/kde"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
	"github.com/cleanex/cleanex/internal/summary"
)

// maxEmbedMatrix is the largest N x K score matrix backtest builds from
// embeddings (embed.Matrix): 2e7 scores, 160 MB as float64, besides the
// Sample's oriented copy.
const maxEmbedMatrix = 20_000_000

// errConstantEmbeddings refuses embeddings whose every test point scores
// all classes the same (accuracy.ErrConstantScores for a score matrix).
var errConstantEmbeddings = errors.New("every test embedding gives all of its classes the same score, so the scores cannot tell the classes apart: check that the file holds the embeddings (not a constant or a placeholder), or score them another way (--metric, --reference)")

// embedFlags are the scoring flags of an embeddings file (docs/embeddings.md).
type embedFlags struct {
	metric, reference string
	// set records which of the two flags the command line gave.
	set map[string]bool
}

// register defines --metric and --reference on fs.
func (e *embedFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&e.metric, "metric", "euclidean", "embeddings only: euclidean (distance, lower is better) or cosine (similarity, higher is better)")
	fs.StringVar(&e.reference, "reference", "", "embeddings only: centroid (class centroids), 1nn (the nearest reference of each class) or oneshot (the one gallery item of each class); default centroid for training embeddings, oneshot for a gallery of one item per class, else 1nn")
}

// visit records which flags fs's command line set; call it after parse.
func (e *embedFlags) visit(fs *flag.FlagSet) {
	e.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "metric" || f.Name == "reference" {
			e.set[f.Name] = true
		}
	})
}

// notForScores refuses the flags for a file that holds scores.
func (e *embedFlags) notForScores(name string) error {
	for _, f := range []string{"metric", "reference"} {
		if e.set[f] {
			return badInput("--%s applies to embeddings, and %s holds scores (a score matrix or a per-point summary); leave the flag out", f, name)
		}
	}
	return nil
}

// apply sets d's scoring from the flags given (the file's defaults stay for
// the others), checks it against dir (Auto, or the metric's own
// direction) and checks the embeddings under it. Every error is bad input.
func (e *embedFlags) apply(d *inputs.Data, name string, dir scores.Direction) error {
	p := d.Embeddings
	if e.set["metric"] {
		m, err := embed.ParseMetric(e.metric)
		if err != nil {
			return badInput("--metric: %v", err)
		}
		p.Metric = m
	}
	if e.set["reference"] {
		r, err := embed.ParseReference(e.reference)
		if err != nil {
			return badInput("--reference: %v", err)
		}
		p.Reference = r
	}
	if dir != scores.Auto && dir != p.Direction() {
		return badInput("--direction %s does not apply to embeddings scored by %s, for which %s is better; leave --direction out", dir, p.Metric.Words(), p.Direction())
	}
	if err := d.CheckEmbeddings(); err != nil {
		return inputError{fmt.Errorf("%s: %w", name, err)}
	}
	return nil
}

// scoringLine says how d's embeddings are scored, e.g. "scored 20,000 test
// embeddings (d = 128) against 10,000 class centroids (of 50,000 training
// embeddings) by Euclidean distance".
func scoringLine(d *inputs.Data) string {
	p := d.Embeddings
	set := "training"
	if d.ReferenceSet() == inputs.SetGallery {
		set = "gallery"
	}
	k, nr := len(p.Classes), p.References.N()
	var against string
	switch p.Reference {
	case embed.Nearest:
		against = fmt.Sprintf("the nearest of each class's %s embeddings (1-NN; %s of them, %s classes)", set, limits.Thousands(nr), limits.Thousands(k))
	case embed.OneShot:
		against = fmt.Sprintf("the one %s embedding of each of %s classes", set, limits.Thousands(k))
	default:
		against = fmt.Sprintf("%s class centroids (of %s %s embeddings)", limits.Thousands(k), limits.Thousands(nr), set)
	}
	return fmt.Sprintf("scored %s test embeddings (d = %d) against %s by %s", limits.Thousands(p.Test.N()), p.Test.D, against, p.Metric.Words())
}

// loadScored builds the chosen methods and reads the pilot named by pos,
// as load does; a file of embeddings is scored under the embedding flags:
// summarised in blocks across every core (embed.Summarise, with the KDE
// setting of --kde-bandwidth computed from the full rows), or, when
// matrix is true, turned into its explicit score matrix (embed.Matrix,
// refused above maxEmbedMatrix scores). The scoring used is said on
// stderr once done, prefixed "cleanex cmd: "; the direction auto picked for
// a score matrix is returned as a note (pickedNote).
func (m *methodFlags) loadScored(ctx context.Context, pos []string, stdin io.Reader, ef *embedFlags, stderr io.Writer, cmd string, matrix bool) ([]estimate.Estimator, *accuracy.Sample, string, error) {
	ests, dir, err := m.build()
	if err != nil {
		return nil, nil, "", err
	}
	d, name, err := readData(pos, stdin)
	if err != nil {
		return nil, nil, "", err
	}
	if d.Embeddings == nil {
		if err := ef.notForScores(name); err != nil {
			return nil, nil, "", err
		}
		s, used, err := d.TakeSample(dir)
		if err != nil {
			return nil, nil, "", inputError{fmt.Errorf("%s: %w", name, err)}
		}
		return ests, s, pickedNote(d, dir, used), nil
	}
	s, err := scoreEmbeddings(ctx, d, name, dir, ef, m.bandwidth, stderr, cmd, matrix)
	return ests, s, "", err
}

// pickedNote says which direction --direction auto picked for a score
// matrix (used), and how to choose the other; "" when the direction was
// given or the pilot is a summary (whose scores are higher-is-better).
func pickedNote(d *inputs.Data, dir, used scores.Direction) string {
	if dir != scores.Auto || d.Matrix == nil {
		return ""
	}
	other, what := scores.Higher, scores.LowerWords
	if used == scores.Higher {
		other, what = scores.Lower, scores.HigherWords
	}
	return fmt.Sprintf("scores read as %s, the direction under which the true class wins more often (--direction auto); give --direction %s to read them the other way", what, other)
}

// scoreEmbeddings applies the embedding flags to d and scores it (see
// loadScored).
func scoreEmbeddings(ctx context.Context, d *inputs.Data, name string, dir scores.Direction, ef *embedFlags, bandwidth string, stderr io.Writer, cmd string, matrix bool) (*accuracy.Sample, error) {
	if err := ef.apply(d, name, dir); err != nil {
		return nil, err
	}
	p := d.Embeddings
	n, k := p.Test.N(), len(p.Classes)
	var s *accuracy.Sample
	if matrix {
		if float64(n)*float64(k) > maxEmbedMatrix {
			return nil, badInput("%s: %s draws subsets of the classes and needs the N x K score matrix; these embeddings give %s x %s = %.3g scores, above the %.0e it builds from embeddings: give fewer test embeddings or classes, or use predict", name, cmd, limits.Thousands(n), limits.Thousands(k), float64(n)*float64(k), float64(maxEmbedMatrix))
		}
		mat, err := embed.Matrix(p)
		if err != nil {
			return nil, inputError{fmt.Errorf("%s: %w", name, err)}
		}
		if s, _, err = accuracy.NewSample(mat, p.Direction()); err != nil {
			return nil, inputError{fmt.Errorf("%s: %w", name, err)}
		}
	} else {
		if k > summary.MaxClasses {
			return nil, badInput("%s: %s classes: at most %s are scored from embeddings", name, limits.Thousands(k), limits.Thousands(summary.MaxClasses))
		}
		sel, err := kde.ParseSelector(bandwidth)
		if err != nil {
			return nil, badInput("--kde-bandwidth: %v", err)
		}
		prog := newProgress(stderr, cmd)
		s, err = embed.Summarise(ctx, p, embed.Options{KDE: kde.Estimator{Bandwidth: sel}, Progress: func(done, total int) {
			prog.update(float64(done)/float64(total), "scoring the embeddings")
		}})
		prog.done()
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("interrupted: %w", ctx.Err())
			}
			return nil, inputError{fmt.Errorf("%s: %w", name, err)}
		}
	}
	// As for a score matrix (inputs.Data.Sample) and in the page.
	if err := s.CheckVaries(); err != nil {
		return nil, inputError{fmt.Errorf("%s: %s: %w", name, scoringLine(d), errConstantEmbeddings)}
	}
	fmt.Fprintf(stderr, "cleanex %s: %s\n", cmd, scoringLine(d))
	return s, nil
}

// writeEmbeddingSummary writes the per-point summary (docs/summary.md)
// with q quantile steps of the embeddings p to w: the columns of
// summary.Header(q), from embed.Points, so each row holds the numbers
// summary.WriteSample writes from the Sample of embed.Matrix(p) under
// p.Direction(), written the same way.
func writeEmbeddingSummary(ctx context.Context, w io.Writer, p *embed.Problem, q int, stderr io.Writer) error {
	prog := newProgress(stderr, "summarise")
	pts, ranks, err := embed.Points(ctx, p, embed.Options{Quantiles: q, Progress: func(done, total int) {
		prog.update(float64(done)/float64(total), "scoring the embeddings")
	}})
	prog.done()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted: %w", ctx.Err())
		}
		return inputError{err}
	}
	k := len(p.Classes)
	constant := true
	for i, pt := range pts {
		if err := summary.CheckMoments(i, k, pt); err != nil {
			return inputError{err}
		}
		constant = constant && pt.Ties == k-1
	}
	if constant { // as accuracy.Sample.CheckVaries refuses it
		return inputError{errConstantEmbeddings}
	}
	m := k - 1
	at := make(map[int]int, len(ranks))
	for j, r := range ranks {
		at[r] = j
	}
	header := summary.Header(q)
	// cols holds the index into each point's Values of every order-statistic
	// column, or -1 for an empty cell (a top rank beyond K-1).
	var cols []int
	for _, h := range header {
		r := -1
		switch {
		case h == "lowest":
			r = m
		case strings.HasPrefix(h, "top"):
			if t, err := strconv.Atoi(h[3:]); err == nil && t <= m {
				r = t
			} else if err == nil {
				cols = append(cols, -1)
				continue
			}
		case len(h) > 1 && h[0] == 'q':
			if j, err := strconv.Atoi(h[1:]); err == nil {
				r = summary.QuantileRank(j, m, q)
			}
		default:
			continue // a fixed column
		}
		idx, ok := at[r]
		if !ok {
			return fmt.Errorf("summary column %s: rank %d is not among the knot ranks", h, r)
		}
		cols = append(cols, idx)
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	ks := strconv.Itoa(k)
	rec := make([]string, 0, len(header))
	for i, pt := range pts {
		rec = append(rec[:0], strconv.Itoa(i+1), p.Classes[pt.Label], ks, ks,
			num(pt.Correct), strconv.Itoa(pt.Below), strconv.Itoa(pt.Ties), num(pt.Mean), num(pt.M2), num(pt.MaxAbs))
		for _, c := range cols {
			if c < 0 {
				rec = append(rec, "")
				continue
			}
			rec = append(rec, num(pt.Values[c]))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// simEmbedFlags are simulate's flags for the teaching example as embeddings.
type simEmbedFlags struct {
	embeddings, format string
	refPoints          int
	set                map[string]bool
}

// register defines --embeddings, --ref-points and --format on fs.
func (e *simEmbedFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&e.embeddings, "embeddings", "", "write the simulation as embeddings (docs/embeddings.md) instead of scores: train (training embeddings, scored by class centroids) or gallery")
	e.refPoints = 0
	fs.Var((*decInt)(&e.refPoints), "ref-points", "with --embeddings: reference embeddings per class; 0 gives each class its centre, so the scores are simulate's own (a decimal `int`)")
	fs.StringVar(&e.format, "format", "csv", "with --embeddings: csv or npz (binary: redirect it to a file)")
}

// visit records which of the flags the command line set; call it after
// parse. It refuses --ref-points and --format without --embeddings.
func (e *simEmbedFlags) visit(fs *flag.FlagSet) error {
	e.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { e.set[f.Name] = true })
	if e.embeddings == "" {
		for _, f := range []string{"ref-points", "format"} {
			if e.set[f] {
				return badInput("--%s applies only with --embeddings train or --embeddings gallery", f)
			}
		}
		return nil
	}
	switch {
	case e.embeddings != inputs.SetTrain && e.embeddings != inputs.SetGallery:
		return badInput("--embeddings %q: use train (training embeddings) or gallery", e.embeddings)
	case e.format != "csv" && e.format != "npz":
		return badInput("--format %q: use csv or npz", e.format)
	case e.refPoints < 0:
		return badInput("--ref-points %d: give 0 (each class's centre) or more", e.refPoints)
	}
	return nil
}

// simulateEmbeddings writes world w's classes cls as embeddings
// (embed.Simulated) to stdout in the chosen format, and with truth the
// exact curve over all K classes of the same embeddings (embed.Observed:
// the world's truth when the references are the centres).
func simulateEmbeddings(ctx context.Context, w *simulate.World, cls []int, seed uint64, e *simEmbedFlags, truth string, stdout, stderr io.Writer) error {
	sim := embed.Simulation{Classes: cls, Gallery: e.embeddings == inputs.SetGallery, RefPoints: e.refPoints, Seed: seed}
	p, err := embed.Simulated(w, sim)
	if err != nil {
		return badInput("--ref-points: %v", err)
	}
	if truth != "" {
		all := p
		if len(cls) != w.Config.K {
			sim.Classes = w.AllClasses()
			if all, err = embed.Simulated(w, sim); err != nil {
				return badInput("--ref-points: %v", err)
			}
		}
		prog := newProgress(stderr, "simulate")
		c, err := embed.Observed(ctx, all, embed.Options{Progress: func(done, total int) {
			prog.update(float64(done)/float64(total), "truth curve")
		}})
		prog.done()
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("interrupted: %w", ctx.Err())
			}
			return err
		}
		if err := writeTruth(truth, c); err != nil {
			return err
		}
	}
	bw := bufio.NewWriterSize(stdout, 1<<16)
	if e.format == "npz" {
		err = inputs.WriteEmbeddingsNPZ(bw, p, e.embeddings)
	} else {
		err = inputs.WriteEmbeddingsCSV(bw, p, e.embeddings)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}
