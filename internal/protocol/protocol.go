// Package protocol defines the messages between the page and its compute
// workers (load a data set, simulate one, prepare a large one in one worker,
// or embeddings in parts in several, and hand its per-point summaries to
// the others, run a method, progress, result, error, cancel) and their
// compact binary encoding: every message is one byte slice, integers as
// varints, strings length-prefixed, and float arrays as little-endian
// IEEE-754 bytes copied in one block, so a large curve or a 25 MB CSV
// crosses the JavaScript boundary as a single typed array.
package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Kind tags a message on the wire (its first byte).
type Kind uint8

// The message kinds.
const (
	KindReady Kind = 1 + iota
	KindLoad
	KindSimulate
	KindSummary
	KindRun
	KindProgress
	KindResult
	KindError
	KindCancel
	KindDescribe
	KindCrash
	KindPrepare
	KindLoadBinary
	KindPart
)

// Message is one of the message types of this package.
type Message interface {
	// Kind returns the message's wire tag.
	Kind() Kind
}

// Ready is posted by a worker once it listens for messages.
type Ready struct{}

// Load asks a worker to parse a score-matrix CSV (docs/formats.md §1) and keep it
// as data set Dataset.
type Load struct {
	// Dataset identifies the data set in later Run messages.
	Dataset uint64
	// CSV holds the file's bytes.
	CSV []byte
	// Direction is "auto", "higher" or "lower".
	Direction string
	// WantSummary asks for a Summary reply (one worker answers for all).
	WantSummary bool
}

// SimConfig describes a simulated problem (docs/formats.md §4): K2 classes of
// which a pilot of K1 is shown to the methods.
type SimConfig struct {
	// Classes and Points are the distributions, "normal" or "uniform".
	Classes, Points string
	// D is the dimension, Sigma2 the per-coordinate variance of the points.
	D      int
	Sigma2 float64
	// R is the number of points per class.
	R int
	// K1 is the pilot's number of classes, K2 the full number of classes.
	K1, K2 int
	// Seed selects the world and the pilot.
	Seed uint64
}

// Simulate asks a worker to generate a simulated problem and keep its pilot
// as data set Dataset.
type Simulate struct {
	// Dataset identifies the data set in later Run messages.
	Dataset uint64
	// Config is the problem.
	Config SimConfig
	// WantSummary asks for a Summary reply, with the truth curve up to K2.
	WantSummary bool
}

// Summary describes a loaded data set.
type Summary struct {
	// Dataset is the data set described.
	Dataset uint64
	// N points, K classes, and the smallest and largest number of points per class.
	N, K, MinPoints, MaxPoints int
	// Direction is the score direction used ("higher" or "lower"), Detected the
	// one "auto" picks.
	Direction, Detected string
	// LogProbabilities is true when the scores were class probabilities
	// (or looked like probabilities of a model that gives no point more
	// than 1/2),
	// read as their logarithms, LogOdds when they looked like
	// probabilities whose rows do not sum to 1, read as their log-odds
	// (accuracy.Orient); ScoresNote says what the user should be told
	// about how the scores were read ("" when nothing;
	// accuracy.Sample.ScoresNote).
	LogProbabilities, LogOdds bool
	ScoresNote                string
	// TiedShare is the share of the points that tie their true class with a
	// wrong one (accuracy.Sample.TiedShare).
	TiedShare float64
	// Squashed reports scores squashed for the pooled and the tail method
	// (tail.Squashed; recommend.Fits.Squashed).
	Squashed bool
	// Wins counts the points whose correct class has the best score (top-1 hits at K).
	Wins int
	// Top1 is the class-balanced top-1 accuracy at K, the observed curve at K.
	Top1 float64
	// Observed is the observed curve for k = 0..K.
	Observed []float64
	// Truth is the true curve for k = 0..K2 when known (simulations), else nil.
	Truth []float64
	// Weights holds each point's weight w_x = 1/(K r_y), and ObservedC its
	// observed C_x = R_x/(K-1), for the observed reversed ROC.
	Weights, ObservedC []float64
	// ClassSE is, for k = 0..K, the standard error of the observed curve
	// that comes from which classes the pilot holds (recommend.ClassSE).
	ClassSE []float64
	// Seconds is how long loading took in the worker.
	Seconds float64
	// Embedding says how a pilot given as embeddings was scored (the zero
	// value for scores).
	Embedding Embedding
}

// Embedding says how the test embeddings of a pilot were scored against
// their references (docs/embeddings.md).
type Embedding struct {
	// Metric is "euclidean" or "cosine" ("" when the pilot is scores).
	Metric string
	// Reference is "centroid", "1nn" or "oneshot".
	Reference string
	// RefSet is "train" or "gallery", the kind of reference embeddings the
	// file gave.
	RefSet string
	// Dim is the embeddings' dimension, References the number of
	// reference embeddings.
	Dim, References int
}

// Prepare asks one worker to read a pilot file that the page posts with
// the message (a File or Blob, read there piece by piece), reduce it to
// per-point summaries (a score matrix under Direction, or embeddings
// scored by Metric and Reference) with KDE's C_x of KDEBandwidth computed
// from each full row, and answer with a LoadBinary holding them, then the
// Summary: the page sends that LoadBinary to the other workers.
type Prepare struct {
	// Dataset identifies the data set in later messages.
	Dataset uint64
	// Direction is "auto", "higher" or "lower" (scores only).
	Direction string
	// Metric and Reference choose the scoring of embeddings ("" for the
	// file's default).
	Metric, Reference string
	// KDEBandwidth is the KDE bandwidth selector whose C_x is computed
	// ("" for the default).
	KDEBandwidth string
	// Part and Parts, when Parts > 1, ask for one share of embeddings
	// prepared by Parts workers at once, each sent the file: the worker
	// summarises test points embed.Split(N, Part, Parts) only and answers
	// with a Part message (its Progress counting those points); the page
	// joins the Parts parts into one LoadBinary (summary.AssemblePlan). A
	// file that is not embeddings is prepared whole by the worker of part
	// 0, as with Parts 0 (a LoadBinary, then the Summary), while the
	// others post nothing.
	Part, Parts int
}

// LoadBinary asks a worker to keep as data set Dataset the pilot whose
// per-point summaries Binary holds (summary.AppendBinary); a worker that
// prepared a pilot (Prepare) posts one to the page, which forwards the
// same bytes to the other workers. Binary comes last, so a message's
// first bytes hold everything else.
type LoadBinary struct {
	// Dataset identifies the data set in later messages.
	Dataset uint64
	// Pending is the key of precomputed per-point values (such as
	// "kde:lcv", KDE's C_x) that a later LoadBinary of the same data set
	// adds; "" when none is to come.
	Pending string
	// Direction, Detected, LogProbabilities, LogOdds and ScoresNote are the
	// Summary's.
	Direction, Detected       string
	LogProbabilities, LogOdds bool
	ScoresNote                string
	// Embedding is the Summary's.
	Embedding Embedding
	// Binary is the summarised Sample in binary form.
	Binary []byte
}

// Part is one worker's share of embeddings prepared by several (Prepare
// with Parts > 1): the per-point summaries of its range of test points in
// binary form (summary.AppendPoints), with what the Summary says of the
// directions and scoring. The page keeps it in JavaScript and joins the
// parts into the binary form of the whole pilot (summary.AssemblePlan).
type Part struct {
	// Dataset identifies the data set; Part of Parts the share.
	Dataset     uint64
	Part, Parts int
	// Direction and Detected are the Summary's.
	Direction, Detected string
	// Embedding is the Summary's.
	Embedding Embedding
	// Binary is the range's summaries in binary form; it comes last.
	Binary []byte
	// At is where Binary starts in the message's encoding, set by
	// DecodeKeptHead (not on the wire).
	At int
}

// Run asks a worker to fit one method on a data set.
type Run struct {
	// Dataset is the data set to fit, Run identifies this run in replies.
	Dataset, Run uint64
	// Method is a registry name: plugin, kde, pooled, tail, regression, cleanex.
	Method string
	// K2 is the number of classes to extrapolate to.
	K2 int
	// Preset is CleaneX's preset, "fast" or "paper".
	Preset string
	// Seed seeds the randomised methods.
	Seed uint64
	// KDEBandwidth is the KDE bandwidth selector ("" for the default).
	KDEBandwidth string
	// Spread asks the worker to measure, after the fit, the data set's
	// half-sampling spread and tail spread too (recommend.SpreadOf,
	// tail.Spread; the recommendation's tail fit asks for them, so they are
	// measured beside the other fits instead of before them).
	Spread bool
}

// Progress reports how far a method has come.
type Progress struct {
	// Run and Method identify the fit.
	Run    uint64
	Method string
	// Step out of Total work units are done.
	Step, Total int
	// Loss is the current loss (NaN when the method has none).
	Loss float64
	// ETA is the estimated number of seconds left (NaN when unknown).
	ETA float64
	// Curve is the method's predicted curve for k = 0..K2 from its current
	// state while it trains (CleaneX), sent at most every few hundred ms; nil
	// in the other messages.
	Curve []float64
}

// Result is a finished fit.
type Result struct {
	// Run and Method identify the fit.
	Run    uint64
	Method string
	// Curve is the predicted curve for k = 0..K2.
	Curve []float64
	// C holds the per-point C_x estimates, when the method has them.
	C []float64
	// Losses holds the training loss per step, when the method has one.
	Losses []float64
	// Seconds is the fit's wall time in the worker.
	Seconds float64
	// SpreadK and SpreadB are the data set's half-sampling spread when the
	// Run asked for it (halfsample.Spread.Wire: its grid's k as whole
	// numbers, and the spread at each; both nil when it could not be
	// measured).
	SpreadK, SpreadB []float64
	// TailSpread is the data set's tail spread H (tail.Spread) when the Run
	// asked for it (0 when it cannot tell).
	TailSpread float64
}

// Error reports a failed load, simulation or run.
type Error struct {
	// Dataset or Run identifies what failed (the other is 0).
	Dataset, Run uint64
	// Method is the method that failed, if a run did.
	Method string
	// Message says what is wrong and what to do.
	Message string
	// Cancelled is true when the run stopped because it was cancelled.
	Cancelled bool
}

// Cancel asks a worker to stop run Run.
type Cancel struct {
	// Run is the run to stop.
	Run uint64
}

// Describe asks a worker for the Summary of a data set it has loaded, so
// that a large Load can be the same bytes for every worker.
type Describe struct {
	// Dataset is the data set to describe.
	Dataset uint64
}

// Crash asks a worker to fail as a bug would (its Go program panics and
// ends), so the page's replacement of dead workers can be tested; the page
// sends it only through a debug hook.
type Crash struct {
	// Reason is the panic's message.
	Reason string
}

// Kind returns KindReady: a Ready message.
func (Ready) Kind() Kind { return KindReady }

// Kind returns KindLoad: a Load message.
func (Load) Kind() Kind { return KindLoad }

// Kind returns KindSimulate: a Simulate message.
func (Simulate) Kind() Kind { return KindSimulate }

// Kind returns KindSummary: a Summary message.
func (Summary) Kind() Kind { return KindSummary }

// Kind returns KindRun: a Run message.
func (Run) Kind() Kind { return KindRun }

// Kind returns KindProgress: a Progress message.
func (Progress) Kind() Kind { return KindProgress }

// Kind returns KindResult: a Result message.
func (Result) Kind() Kind { return KindResult }

// Kind returns KindError: an Error message.
func (Error) Kind() Kind { return KindError }

// Kind returns KindCancel: a Cancel message.
func (Cancel) Kind() Kind { return KindCancel }

// Kind returns KindDescribe: a Describe message.
func (Describe) Kind() Kind { return KindDescribe }

// Kind returns KindCrash: a Crash message.
func (Crash) Kind() Kind { return KindCrash }

// Kind returns KindPrepare: a Prepare message.
func (Prepare) Kind() Kind { return KindPrepare }

// Kind implements Message.
func (LoadBinary) Kind() Kind { return KindLoadBinary }

// Kind implements Message.
func (Part) Kind() Kind { return KindPart }

// The wire layout of each message: its fields in wire order, walked by the
// encoder (Encode, LoadParts) and the decoder (Decode) alike, so the order is
// written once.
func (*Ready) fields(codec) {}
func (m *Load) fields(c codec) {
	c.u(&m.Dataset)
	c.bytes(&m.CSV)
	c.str(&m.Direction)
	c.bool(&m.WantSummary)
}
func (m *SimConfig) fields(c codec) {
	c.str(&m.Classes)
	c.str(&m.Points)
	c.i(&m.D)
	c.f(&m.Sigma2)
	c.i(&m.R)
	c.i(&m.K1)
	c.i(&m.K2)
	c.u(&m.Seed)
}
func (m *Simulate) fields(c codec) {
	c.u(&m.Dataset)
	m.Config.fields(c)
	c.bool(&m.WantSummary)
}
func (m *Summary) fields(c codec) {
	c.u(&m.Dataset)
	c.i(&m.N)
	c.i(&m.K)
	c.i(&m.MinPoints)
	c.i(&m.MaxPoints)
	c.str(&m.Direction)
	c.str(&m.Detected)
	c.bool(&m.LogProbabilities)
	c.bool(&m.LogOdds)
	c.str(&m.ScoresNote)
	c.f(&m.TiedShare)
	c.bool(&m.Squashed)
	c.i(&m.Wins)
	c.f(&m.Top1)
	c.floats(&m.Observed)
	c.floats(&m.Truth)
	c.floats(&m.Weights)
	c.floats(&m.ObservedC)
	c.floats(&m.ClassSE)
	c.f(&m.Seconds)
	m.Embedding.fields(c)
}
func (m *Embedding) fields(c codec) {
	c.str(&m.Metric)
	c.str(&m.Reference)
	c.str(&m.RefSet)
	c.i(&m.Dim)
	c.i(&m.References)
}
func (m *Prepare) fields(c codec) {
	c.u(&m.Dataset)
	c.str(&m.Direction)
	c.str(&m.Metric)
	c.str(&m.Reference)
	c.str(&m.KDEBandwidth)
	c.i(&m.Part)
	c.i(&m.Parts)
}
func (m *LoadBinary) fields(c codec) {
	c.u(&m.Dataset)
	c.str(&m.Pending)
	c.str(&m.Direction)
	c.str(&m.Detected)
	c.bool(&m.LogProbabilities)
	c.bool(&m.LogOdds)
	c.str(&m.ScoresNote)
	m.Embedding.fields(c)
	c.bytes(&m.Binary)
}
func (m *Part) fields(c codec) {
	c.u(&m.Dataset)
	c.i(&m.Part)
	c.i(&m.Parts)
	c.str(&m.Direction)
	c.str(&m.Detected)
	m.Embedding.fields(c)
	c.bytes(&m.Binary)
}
func (m *Run) fields(c codec) {
	c.u(&m.Dataset)
	c.u(&m.Run)
	c.str(&m.Method)
	c.i(&m.K2)
	c.str(&m.Preset)
	c.u(&m.Seed)
	c.str(&m.KDEBandwidth)
	c.bool(&m.Spread)
}
func (m *Progress) fields(c codec) {
	c.u(&m.Run)
	c.str(&m.Method)
	c.i(&m.Step)
	c.i(&m.Total)
	c.f(&m.Loss)
	c.f(&m.ETA)
	c.floats(&m.Curve)
}
func (m *Result) fields(c codec) {
	c.u(&m.Run)
	c.str(&m.Method)
	c.floats(&m.Curve)
	c.floats(&m.C)
	c.floats(&m.Losses)
	c.f(&m.Seconds)
	c.floats(&m.SpreadK)
	c.floats(&m.SpreadB)
	c.f(&m.TailSpread)
}
func (m *Error) fields(c codec) {
	c.u(&m.Dataset)
	c.u(&m.Run)
	c.str(&m.Method)
	c.str(&m.Message)
	c.bool(&m.Cancelled)
}
func (m *Cancel) fields(c codec)   { c.u(&m.Run) }
func (m *Describe) fields(c codec) { c.u(&m.Dataset) }
func (m *Crash) fields(c codec)    { c.str(&m.Reason) }

// codec walks a message's fields: the encoder appends each field's value,
// the decoder reads it into the field.
type codec interface {
	u(*uint64)
	i(*int)
	f(*float64)
	bool(*bool)
	bytes(*[]byte)
	str(*string)
	floats(*[]float64)
}

// kindCodec encodes and decodes the messages of one kind through their fields.
type kindCodec struct {
	encode func(Message, *encoder) bool // false when the message is not of this kind's type
	decode func(*decoder) Message
}

// codecFor returns the kindCodec of message type M.
func codecFor[M Message, P interface {
	*M
	fields(codec)
}]() kindCodec {
	return kindCodec{
		encode: func(m Message, e *encoder) bool {
			v, ok := m.(M)
			if ok {
				P(&v).fields(e)
			}
			return ok
		},
		decode: func(d *decoder) Message {
			var v M
			P(&v).fields(d)
			return v
		},
	}
}

// codecs holds every message type by its kind.
var codecs = map[Kind]kindCodec{
	KindReady: codecFor[Ready](), KindLoad: codecFor[Load](), KindSimulate: codecFor[Simulate](),
	KindSummary: codecFor[Summary](), KindRun: codecFor[Run](), KindProgress: codecFor[Progress](),
	KindResult: codecFor[Result](), KindError: codecFor[Error](), KindCancel: codecFor[Cancel](),
	KindDescribe: codecFor[Describe](), KindCrash: codecFor[Crash](),
	KindPrepare: codecFor[Prepare](), KindLoadBinary: codecFor[LoadBinary](),
	KindPart: codecFor[Part](),
}

// Encode returns m's wire bytes: the kind byte, then the fields in order.
func Encode(m Message) ([]byte, error) {
	e := &encoder{b: []byte{byte(m.Kind())}}
	if c, ok := codecs[m.Kind()]; !ok || !c.encode(m, e) {
		return nil, fmt.Errorf("protocol: cannot encode %T", m)
	}
	return e.b, nil
}

// LoadParts returns the bytes that go before and after a CSV of csvLen
// bytes in the encoding of Load{Dataset, CSV, Direction}: prefix + CSV +
// suffix equals Encode(Load{...}). The page uses it to build the message
// around a large file in JavaScript, without copying the file into Go.
func LoadParts(dataset uint64, csvLen int, direction string) (prefix, suffix []byte) {
	e := &encoder{b: []byte{byte(KindLoad)}, hole: true, holeLen: csvLen}
	m := Load{Dataset: dataset, Direction: direction}
	m.fields(e)
	return e.b[:e.cut:e.cut], e.b[e.cut:]
}

// DecodeHead reads a LoadBinary from the first bytes of its encoding:
// every field but Binary, which stays nil (its length is read, its bytes
// need not be there). The page routes the message with it while its bytes
// stay in JavaScript.
func DecodeHead(head []byte) (LoadBinary, error) {
	if len(head) == 0 {
		return LoadBinary{}, fmt.Errorf("protocol: empty message: %w", ErrShort)
	}
	if Kind(head[0]) != KindLoadBinary {
		return LoadBinary{}, fmt.Errorf("protocol: kind %d is not a LoadBinary", head[0])
	}
	var m LoadBinary
	d := &decoder{b: head[1:], head: true}
	m.fields(d)
	if d.err != nil {
		return LoadBinary{}, fmt.Errorf("protocol: kind %d: %w", head[0], d.err)
	}
	return m, nil
}

// LoadBinaryPrefix returns the bytes that go before a Binary of binLen
// bytes in the encoding of m (whose Binary is ignored): prefix + Binary
// equals Encode(m with that Binary). The page builds the LoadBinary of
// parts joined in JavaScript around it.
func LoadBinaryPrefix(m LoadBinary, binLen int) []byte {
	e := &encoder{b: []byte{byte(KindLoadBinary)}, hole: true, holeLen: binLen}
	m.fields(e)
	return e.b[:e.cut:e.cut]
}

// KeptInJS reports whether a worker's message whose first byte is first
// is one the page keeps in JavaScript and reads by its head alone
// (DecodeKeptHead): a LoadBinary or a Part.
func KeptInJS(first byte) bool {
	return Kind(first) == KindLoadBinary || Kind(first) == KindPart
}

// DecodeKeptHead reads a LoadBinary (DecodeHead) or a Part from the first
// bytes of its encoding: every field but Binary, which stays nil; a Part's
// At is where its Binary starts.
func DecodeKeptHead(head []byte) (Message, error) {
	if len(head) == 0 || Kind(head[0]) != KindPart {
		return DecodeHead(head)
	}
	var m Part
	d := &decoder{b: head[1:], head: true, start: len(head) - 1}
	m.fields(d)
	if d.err != nil {
		return nil, fmt.Errorf("protocol: kind %d: %w", head[0], d.err)
	}
	m.At = d.at + 1
	return m, nil
}

// ErrShort is wrapped by Decode's errors when the bytes end early.
var ErrShort = errors.New("message ends early")

// Decode reads one message written by Encode.
func Decode(b []byte) (Message, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("protocol: empty message: %w", ErrShort)
	}
	c, ok := codecs[Kind(b[0])]
	if !ok {
		return nil, fmt.Errorf("protocol: unknown message kind %d", b[0])
	}
	d := &decoder{b: b[1:]}
	m := c.decode(d)
	if d.err != nil {
		return nil, fmt.Errorf("protocol: kind %d: %w", b[0], d.err)
	}
	if len(d.b) != 0 {
		return nil, fmt.Errorf("protocol: kind %d: %d bytes left over", b[0], len(d.b))
	}
	return m, nil
}

// encoder appends fields to b. With hole set, a bytes field is written as
// its length holeLen alone, and cut marks where its content would go
// (LoadParts).
type encoder struct {
	b       []byte
	hole    bool
	holeLen int
	cut     int
}

func (e *encoder) u(v *uint64) { e.b = binary.AppendUvarint(e.b, *v) }
func (e *encoder) i(v *int)    { e.b = binary.AppendVarint(e.b, int64(*v)) }
func (e *encoder) f(v *float64) {
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(*v))
}
func (e *encoder) bool(v *bool) {
	if *v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}
func (e *encoder) bytes(v *[]byte) {
	if e.hole {
		e.b = binary.AppendUvarint(e.b, uint64(e.holeLen))
		e.cut = len(e.b)
		return
	}
	e.b = binary.AppendUvarint(e.b, uint64(len(*v)))
	e.b = append(e.b, *v...)
}
func (e *encoder) str(v *string) {
	e.b = binary.AppendUvarint(e.b, uint64(len(*v)))
	e.b = append(e.b, *v...)
}

// floats writes a nil slice as 0 and any other as 1 + its length, then the
// values as one block of little-endian float64s.
func (e *encoder) floats(p *[]float64) {
	v := *p
	if v == nil {
		e.b = binary.AppendUvarint(e.b, 0)
		return
	}
	e.b = binary.AppendUvarint(e.b, uint64(len(v))+1)
	e.b = append(e.b, make([]byte, 8*len(v))...)
	blk := e.b[len(e.b)-8*len(v):]
	for j, x := range v {
		binary.LittleEndian.PutUint64(blk[8*j:], math.Float64bits(x))
	}
}

// decoder reads fields in order; after the first error every read stores
// the zero value and err keeps the first error. With head set, a bytes
// field is read as its length alone and ends the reading (DecodeHead).
type decoder struct {
	b    []byte
	err  error
	head bool
	// start is len(b) at first; at is then, after a bytes field read
	// with head set, how many bytes of b preceded its content.
	start, at int
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("reading %s: %w", what, ErrShort)
	}
	d.b = nil
}

func (d *decoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("unsigned integer")
		return 0
	}
	d.b = d.b[n:]
	return v
}
func (d *decoder) u(v *uint64) { *v = d.uint() }
func (d *decoder) i(v *int) {
	x, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("integer")
		*v = 0
		return
	}
	d.b = d.b[n:]
	*v = int(x)
}
func (d *decoder) f(v *float64) {
	if len(d.b) < 8 {
		d.fail("float")
		*v = 0
		return
	}
	*v = math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
}
func (d *decoder) bool(v *bool) {
	if len(d.b) < 1 {
		d.fail("flag")
		*v = false
		return
	}
	*v = d.b[0] != 0
	d.b = d.b[1:]
}
func (d *decoder) raw(what string) []byte {
	n := d.uint()
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.fail(what)
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}
func (d *decoder) bytes(v *[]byte) {
	if d.head {
		d.uint()
		d.at = d.start - len(d.b)
		d.b, *v = nil, nil
		return
	}
	*v = d.raw("bytes")
	if len(*v) == 0 {
		*v = nil
	}
}
func (d *decoder) str(v *string) { *v = string(d.raw("string")) }
func (d *decoder) floats(p *[]float64) {
	*p = nil
	n := d.uint()
	if d.err != nil || n == 0 {
		return
	}
	n--
	if n > uint64(len(d.b))/8 {
		d.fail("float array")
		return
	}
	v := make([]float64, n)
	for j := range v {
		v[j] = math.Float64frombits(binary.LittleEndian.Uint64(d.b[8*j:]))
	}
	d.b = d.b[8*n:]
	*p = v
}
