package compute

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/estimate/kde"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/summary"
)

// The stages of a Prepare, as its progress names them (Progress.Method of
// the Progress messages a preparing worker posts, with Run 0).
const (
	// StageReading counts the file's bytes read so far.
	StageReading = "reading"
	// StageSummarising counts the points summarised so far (a score
	// matrix's rows, or test embeddings scored).
	StageSummarising = "summarising"
)

// PrepareOptions tune Prepare.
type PrepareOptions struct {
	// Direction is "auto", "higher" or "lower" for scores; embeddings take
	// the direction of their metric, and refuse the other one.
	Direction string
	// Metric and Reference choose how embeddings are scored ("" keeps the
	// file's default: embed.ParseMetric, embed.ParseReference).
	Metric, Reference string
	// KDEBandwidth is the KDE setting whose C_x is computed from each full
	// row ("" for the default, "lcv").
	KDEBandwidth string
	// Quantiles is the number of quantile steps of the per-point
	// summaries (summary.DefaultQuantiles when 0).
	Quantiles int
	// Size is the file's size in bytes, the total of StageReading (0 when
	// not known).
	Size int64
	// Progress, when set, is called as the stages advance: done of total
	// bytes read or points summarised.
	Progress func(stage string, done, total int64)
}

// Prepare reads a pilot from r in any format Load reads and reduces it to
// a Sample built from per-point summaries (accuracy.NewSummarisedSample at
// summary.KnotRanks(K, Quantiles)), with KDE's C_x of the chosen setting
// computed from each full row and kept as precomputed values: what one
// worker makes of a large file so that the others receive its binary form
// (BinaryMessage) instead of the file. A score matrix is oriented as Load
// orients it (the same direction, resolved the same way), then summarised
// row by row and dropped; embeddings are scored and summarised in blocks
// (embed.Summarise) under the chosen metric and reference, without their
// score matrix; a per-point summary is read as Load reads it. From the
// result plug-in, regression, CleaneX fast and KDE of that setting give
// the curves Load's Sample gives; CleaneX's paper preset needs every score
// and refuses it (accuracy.ErrSummarised). It is PrepareStaged followed by
// Staged.Finish.
func Prepare(ctx context.Context, r io.Reader, o PrepareOptions) (*Dataset, protocol.Summary, error) {
	st, err := PrepareStaged(ctx, r, o)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	ds, err := st.Finish(ctx)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	return ds, st.Summary, nil
}

// Staged is a pilot prepared in two stages (PrepareStaged): its data set
// and summary at once, and the per-point values still pending (KDE's C_x
// of a score matrix, computed from the rows it keeps) by Finish.
type Staged struct {
	// Dataset is the data set without the pending values; Summary its
	// summary (Finish does not change it).
	Dataset *Dataset
	Summary protocol.Summary

	pending string
	finish  func(ctx context.Context) (*accuracy.Sample, error)
}

// Pending returns the key of the precomputed values Finish adds ("" when
// the data set has them all already).
func (st *Staged) Pending() string { return st.pending }

// Finish computes the pending values and returns the data set with them
// (Dataset itself when none is pending). It drops the rows it kept.
func (st *Staged) Finish(ctx context.Context) (*Dataset, error) {
	if st.finish == nil {
		return st.Dataset, nil
	}
	s, err := st.finish(ctx)
	st.finish = nil
	if err != nil {
		return nil, err
	}
	return &Dataset{Sample: s, summary: st.Dataset.summary, prepared: true}, nil
}

// PrepareStaged is Prepare in two stages: for a score matrix, the Sample
// of the rows' summaries without KDE's C_x, which the other methods and
// the summary need, comes first, and Finish computes the C_x afterwards
// from the rows sorted in place (the matrix is kept until then), so that
// other workers can start fitting meanwhile. Embeddings and summaries are
// prepared in one stage.
func PrepareStaged(ctx context.Context, r io.Reader, o PrepareOptions) (*Staged, error) {
	pr, err := newPreparer(o)
	if err != nil {
		return nil, err
	}
	in, err := pr.read(r)
	if err != nil {
		return nil, err
	}
	return pr.staged(ctx, in)
}

// preparer is the checked options of a Prepare.
type preparer struct {
	o   PrepareOptions
	d   scores.Direction
	est kde.Estimator
	q   int
}

// newPreparer checks o.
func newPreparer(o PrepareOptions) (*preparer, error) {
	d, err := scores.ParseDirection(o.Direction)
	if err != nil {
		return nil, err
	}
	est, err := kdeSetting(o.KDEBandwidth)
	if err != nil {
		return nil, err
	}
	q := cmp.Or(o.Quantiles, summary.DefaultQuantiles)
	if q < 2 || q > summary.MaxQuantiles {
		return nil, fmt.Errorf("%d quantile steps: give 2 to %d", q, summary.MaxQuantiles)
	}
	return &preparer{o: o, d: d, est: est, q: q}, nil
}

func (pr *preparer) progress(stage string, done, total int64) {
	if pr.o.Progress != nil {
		pr.o.Progress(stage, done, total)
	}
}

// points reports the points summarised so far.
func (pr *preparer) points(done, total int) {
	pr.progress(StageSummarising, int64(done), int64(total))
}

// read reads the pilot from r, reporting the bytes read.
func (pr *preparer) read(r io.Reader) (*inputs.Data, error) {
	return reader().Read(&countingReader{r: r, total: pr.o.Size, report: func(n int64) { pr.progress(StageReading, n, pr.o.Size) }})
}

// staged is PrepareStaged of the pilot read.
func (pr *preparer) staged(ctx context.Context, in *inputs.Data) (*Staged, error) {
	d, est, q, points := pr.d, pr.est, pr.q, pr.points
	one := func(ds *Dataset, sum protocol.Summary, err error) (*Staged, error) {
		if err != nil {
			return nil, err
		}
		ds.summary, ds.prepared = sum, true
		return &Staged{Dataset: ds, Summary: sum}, nil
	}
	switch {
	case in.Matrix != nil:
		m := in.Matrix
		in.Matrix = nil
		used := m.Resolve(d)
		detected := used
		if d != scores.Auto {
			detected = m.Resolve(scores.Auto)
		}
		rows, err := summariseRows(ctx, m, used, est, q, points)
		if err != nil {
			return nil, err
		}
		s, err := accuracy.NewSummarisedSample(m.K(), rows.ranks, rows.pts, nil)
		if err != nil {
			return nil, err
		}
		rows.orient.Mark(s)
		st, err := one(fromSample(s, used, detected))
		if err != nil {
			return nil, err
		}
		st.pending, st.finish = est.Key(), rows.finish
		return st, nil
	case in.Embeddings != nil:
		return one(fromEmbeddings(ctx, in, d, pr.o.Metric, pr.o.Reference, embed.Options{KDE: est, Quantiles: q, Progress: points}))
	}
	s, used, err := in.Sample(d)
	if err != nil {
		return nil, err
	}
	return one(fromSample(s, used, used))
}

// kdeSetting returns the KDE estimator of bandwidth selector name ("" for
// the default).
func kdeSetting(name string) (kde.Estimator, error) {
	sel, err := kde.ParseSelector(name)
	if err != nil {
		return kde.Estimator{}, fmt.Errorf("KDE bandwidth: %w", err)
	}
	return kde.Estimator{Bandwidth: sel}, nil
}

// summariseCheckEvery is how many rows summariseRows and finish handle
// between two looks at their context and progress.
const summariseCheckEvery = 64

// matrixRows is a score matrix reduced to its points' summaries, with each
// row's incorrect scores kept sorted in place for finish, which computes
// KDE's C_x from them.
type matrixRows struct {
	m     *scores.Matrix
	rs    *embed.RowSummariser
	est   kde.Estimator
	ranks []int
	pts   []accuracy.PointSummary
	// orient is how the rows were read (accuracy.Orient).
	orient accuracy.Orientation
}

// summariseRows summarises the rows of m under direction d (Higher or
// Lower) at summary.KnotRanks(K, q), each row oriented as
// accuracy.NewSample orients it (accuracy.Orient), by an
// embed.RowSummariser for est; each row's sorted incorrect scores replace
// its first K-1 scores.
func summariseRows(ctx context.Context, m *scores.Matrix, d scores.Direction, est kde.Estimator, q int, progress func(done, total int)) (*matrixRows, error) {
	k, n := m.K(), m.N()
	if k < 2 {
		return nil, accuracy.ErrTooFewClasses
	}
	ranks := summary.KnotRanks(k, q)
	rs, err := embed.NewRowSummariser(k, ranks, est)
	if err != nil {
		return nil, err
	}
	orient := accuracy.Orient(m, d)
	pts := make([]accuracy.PointSummary, n)
	row := make([]float64, k)
	for i, y := range m.Labels {
		if i%summariseCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress(i, n)
		}
		src := m.Row(i)
		orient.Row(row, src)
		if pts[i], err = rs.Point(y, row, src[:k-1]); err != nil {
			return nil, fmt.Errorf("point %d: %w", i+1, err)
		}
		// A summary cannot hold the moments of scores beyond about 1e154
		// or below about 1e-154 (summary.CheckMoments): refuse them, saying
		// how to rescale, rather than fail on an infinite value or read
		// a spread of 0.
		if err := summary.CheckMoments(i, k, pts[i]); err != nil {
			return nil, err
		}
	}
	progress(n, n)
	return &matrixRows{m: m, rs: rs, est: est, ranks: ranks, pts: pts, orient: orient}, nil
}

// finish computes every point's KDE C_x from its kept sorted incorrect
// scores, drops the matrix and returns the Sample with the C_x as
// precomputed values.
func (mr *matrixRows) finish(ctx context.Context) (*accuracy.Sample, error) {
	k := mr.m.K()
	c := make([]float64, len(mr.pts))
	for i, p := range mr.pts {
		if i%summariseCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		c[i] = mr.rs.C(p, mr.m.Scores[i*k:i*k+k-1])
	}
	mr.m.Scores = nil
	s, err := accuracy.NewSummarisedSample(k, mr.ranks, mr.pts, map[string][]float64{mr.est.Key(): c})
	if s != nil {
		mr.orient.Mark(s)
	}
	return s, err
}

// fromEmbeddings scores the embeddings of in under metric and reference
// ("" keeps the file's default) and returns the data set summarised by
// embed.Summarise with o, and its summary. Direction d must be Auto or
// the metric's own.
func fromEmbeddings(ctx context.Context, in *inputs.Data, d scores.Direction, metric, reference string, o embed.Options) (*Dataset, protocol.Summary, error) {
	p, used, err := embeddingProblem(in, d, metric, reference)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	s, err := embed.Summarise(ctx, p, o)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	ds, sum, err := fromSample(s, used, used)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	sum.Embedding = embeddingOf(in, p)
	return ds, sum, nil
}

// embeddingProblem returns the embeddings of in under metric and
// reference ("" keeps the file's default), checked, and the direction of
// their scores; direction d must be Auto or that one.
func embeddingProblem(in *inputs.Data, d scores.Direction, metric, reference string) (*embed.Problem, scores.Direction, error) {
	p := in.Embeddings
	if metric != "" {
		m, err := embed.ParseMetric(metric)
		if err != nil {
			return nil, d, err
		}
		p.Metric = m
	}
	if reference != "" {
		r, err := embed.ParseReference(reference)
		if err != nil {
			return nil, d, err
		}
		p.Reference = r
	}
	used := p.Direction()
	if d != scores.Auto && d != used {
		return nil, d, fmt.Errorf("the direction %q does not apply to embeddings scored by %s, for which %s is better: use auto", d, p.Metric, used)
	}
	if err := in.CheckEmbeddings(); err != nil {
		return nil, d, err
	}
	return p, used, nil
}

// embeddingOf says how the embeddings p of in are scored.
func embeddingOf(in *inputs.Data, p *embed.Problem) protocol.Embedding {
	return protocol.Embedding{Metric: p.Metric.String(), Reference: p.Reference.String(), RefSet: in.ReferenceSet(),
		Dim: p.Test.D, References: p.References.N()}
}

// BinaryMessage returns the LoadBinary message that gives data set id to
// another worker: ds's Sample in binary form (summary.AppendBinary; ds
// must be built from per-point summaries, as Prepare builds it) with what
// sum says of its directions and scoring, and the key of the precomputed
// values still pending ("" when none).
func BinaryMessage(id uint64, ds *Dataset, sum protocol.Summary, pending string) (protocol.LoadBinary, error) {
	b, err := summary.AppendBinary(nil, ds.Sample)
	if err != nil {
		return protocol.LoadBinary{}, err
	}
	return protocol.LoadBinary{Dataset: id, Pending: pending, Direction: sum.Direction, Detected: sum.Detected, LogProbabilities: sum.LogProbabilities, LogOdds: sum.LogOdds, ScoresNote: sum.ScoresNote, Embedding: sum.Embedding, Binary: b}, nil
}

// LoadBinary makes the data set of a LoadBinary message and its summary:
// the same Sample, bit for bit, as the worker that prepared it holds.
func LoadBinary(m protocol.LoadBinary) (*Dataset, protocol.Summary, error) {
	s, err := summary.ReadBinary(m.Binary)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	used, err := scores.ParseDirection(m.Direction)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	detected, err := scores.ParseDirection(m.Detected)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	ds, sum, err := fromSample(s, used, detected)
	if err != nil {
		return nil, protocol.Summary{}, err
	}
	ds.prepared = true
	s.LogProbabilities, sum.LogProbabilities = m.LogProbabilities, m.LogProbabilities
	s.LogOdds, sum.LogOdds = m.LogOdds, m.LogOdds
	s.ScoresNote, sum.ScoresNote = m.ScoresNote, m.ScoresNote
	sum.Embedding = m.Embedding
	return ds, sum, nil
}

// countingReader reads r and reports the bytes read so far, at most every
// countEvery bytes and at the end of the stream.
type countingReader struct {
	r      io.Reader
	total  int64
	n      int64
	last   int64
	report func(n int64)
}

// countEvery is how many bytes a countingReader reads between two reports.
const countEvery = 1 << 20

// Read reads from the underlying reader.
func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += int64(k)
	if c.n-c.last >= countEvery || err == io.EOF {
		c.last = c.n
		c.report(c.n)
	}
	return k, err
}

// prepareGCPercent is the garbage collector's target while a worker
// prepares a pilot (GOGC 100 otherwise): the parsed score matrix is most
// of the heap and is dropped once summarised, so a heap allowed to grow to
// twice it would set the worker's peak memory.
const prepareGCPercent = 25

// Prepare handles a Prepare message whose file the host reads from r
// (size bytes; 0 when not known): it posts Progress messages (Run 0,
// Method a stage: StageReading, StageSummarising) at most every
// ProgressEvery, then the LoadBinary of the data set and its Summary; when
// KDE's C_x are pending (Staged.Pending), it computes them and posts a
// second LoadBinary of the same data set with them. A failure before the
// summary posts an Error about the data set; one while the C_x are
// computed, an Error about method kde of the data set. The data set is
// kept, as a loaded one is. With m.Parts > 1 it prepares share m.Part of
// embeddings (PreparePart) and posts its Part message only, keeping
// nothing; a file that is not embeddings is then prepared whole by part
// 0, as above, and dropped by the other parts, which post nothing. It
// returns when done.
func (s *Server) Prepare(m protocol.Prepare, r io.Reader, size int64) {
	old := debug.SetGCPercent(prepareGCPercent)
	defer debug.SetGCPercent(old)
	start := s.now()
	var last time.Time
	progress := func(stage string, done, total int64) {
		now := s.now()
		if done < total && now.Sub(last) < ProgressEvery {
			return
		}
		last = now
		s.post(protocol.Progress{Method: stage, Step: int(done), Total: int(total), Loss: math.NaN(), ETA: math.NaN()})
	}
	fail := func(method string, err error) {
		s.post(protocol.Error{Dataset: m.Dataset, Method: method, Message: err.Error()})
	}
	ctx := context.Background()
	pr, err := newPreparer(PrepareOptions{Direction: m.Direction, Metric: m.Metric, Reference: m.Reference,
		KDEBandwidth: m.KDEBandwidth, Size: size, Progress: progress})
	var in *inputs.Data
	if err == nil {
		in, err = pr.read(r)
	}
	if err != nil {
		fail("", err)
		return
	}
	if m.Parts > 1 {
		// One share of embeddings; another file is prepared whole by
		// the worker of part 0.
		if in.Embeddings != nil {
			part, err := pr.part(ctx, in, m.Dataset, m.Part, m.Parts)
			if err != nil {
				fail("", err)
				return
			}
			s.post(part)
			return
		}
		if m.Part != 0 {
			return
		}
	}
	st, err := pr.staged(ctx, in)
	if err != nil {
		fail("", err)
		return
	}
	bin, err := BinaryMessage(m.Dataset, st.Dataset, st.Summary, st.Pending())
	if err != nil {
		fail("", err)
		return
	}
	s.finishLoad(m.Dataset, false, st.Dataset, st.Summary, nil, start)
	s.post(bin)
	bin = protocol.LoadBinary{}
	s.post(st.Dataset.Summary())
	if st.Pending() == "" {
		return
	}
	ds, err := st.Finish(ctx)
	if err == nil {
		bin, err = BinaryMessage(m.Dataset, ds, st.Summary, "")
	}
	if err != nil {
		fail(methods.KDE, err)
		return
	}
	s.finishLoad(m.Dataset, false, ds, ds.summary, nil, start)
	s.post(bin)
}
