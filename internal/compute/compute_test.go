package compute

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/estimate/plugin"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/recommend"
)

const small = `label,a,b,c
a,0.9,0.1,0.2
a,0.4,0.5,0.1
b,0.2,0.8,0.3
c,0.1,0.2,0.7
c,0.3,0.6,0.5
`

// collector gathers posted messages; wait returns once one of kind k arrives.
type collector struct {
	mu   sync.Mutex
	msgs []protocol.Message
	ch   chan protocol.Message
}

func newCollector() *collector { return &collector{ch: make(chan protocol.Message, 100)} }

func (c *collector) post(m protocol.Message) {
	c.mu.Lock()
	c.msgs = append(c.msgs, m)
	c.mu.Unlock()
	c.ch <- m
}

func (c *collector) wait(t *testing.T, k protocol.Kind) protocol.Message {
	t.Helper()
	for {
		select {
		case m := <-c.ch:
			if m.Kind() == k || m.Kind() == protocol.KindError {
				return m
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no message of kind %d", k)
		}
	}
}

func TestLoadSummary(t *testing.T) {
	_, sum, err := Load([]byte(small), "auto")
	if err != nil {
		t.Fatal(err)
	}
	// Under "higher" points 1, 3 and 4 win (point 2 loses to b, point 5 to b);
	// class weights 1/(3·2), 1/3, 1/(3·2): top-1 accuracy 1/6 + 1/3 + 1/6 = 2/3.
	if sum.N != 5 || sum.K != 3 || sum.MinPoints != 1 || sum.MaxPoints != 2 || sum.Direction != "higher" || sum.Wins != 3 {
		t.Fatalf("summary %+v", sum)
	}
	if d := sum.Top1 - 2.0/3; d > 1e-12 || d < -1e-12 {
		t.Fatalf("top-1 %v, want 2/3", sum.Top1)
	}
	_, sum, err = Load([]byte(small), "lower")
	if err != nil || sum.Direction != "lower" || sum.Detected != "higher" {
		t.Fatalf("override: %+v, %v", sum, err)
	}
}

func TestLoadErrorNamesRowAndColumn(t *testing.T) {
	s := newCollector()
	srv := NewServer(s.post, Options{})
	srv.Handle(protocol.Load{Dataset: 1, CSV: []byte(strings.Replace(small, "0.8", "x", 1)), Direction: "auto", WantSummary: true})
	e, ok := s.wait(t, protocol.KindSummary).(protocol.Error)
	if !ok || !strings.Contains(e.Message, "row 4") || !strings.Contains(e.Message, `"b"`) || e.Dataset != 1 {
		t.Fatalf("got %#v", e)
	}
}

func TestRunMatchesEstimator(t *testing.T) {
	s := newCollector()
	srv := NewServer(s.post, Options{})
	srv.Handle(protocol.Load{Dataset: 5, CSV: []byte(small), Direction: "auto"})
	srv.Handle(protocol.Run{Dataset: 5, Run: 8, Method: "plugin", K2: 10})
	r, ok := s.wait(t, protocol.KindResult).(protocol.Result)
	if !ok {
		t.Fatalf("got %#v", r)
	}
	ds, _, _ := Load([]byte(small), "auto")
	want, err := plugin.Estimator{}.Fit(context.Background(), ds.Sample, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Run != 8 || r.Method != "plugin" || len(r.Curve) != len(want.Curve) {
		t.Fatalf("result %+v", r)
	}
	for k := range want.Curve {
		if r.Curve[k] != want.Curve[k] {
			t.Fatalf("k=%d: %v, want %v", k, r.Curve[k], want.Curve[k])
		}
	}
	var progress int
	for _, m := range s.msgs {
		if p, ok := m.(protocol.Progress); ok && p.Run == 8 {
			progress++
		}
	}
	if progress == 0 {
		t.Fatal("no progress message")
	}
}

// Describe answers with the Summary of a loaded data set, and an error otherwise.
func TestDescribe(t *testing.T) {
	s := newCollector()
	srv := NewServer(s.post, Options{})
	srv.Handle(protocol.Load{Dataset: 4, CSV: []byte(small), Direction: "auto"})
	srv.Handle(protocol.Describe{Dataset: 4})
	sum, ok := s.wait(t, protocol.KindSummary).(protocol.Summary)
	if !ok || sum.Dataset != 4 || sum.K != 3 || sum.N != 5 {
		t.Fatalf("got %#v", sum)
	}
	ds, _, err := Load([]byte(small), "auto")
	if err != nil {
		t.Fatal(err)
	}
	if want := recommend.ClassSE(ds.Sample); !slices.Equal(sum.ClassSE, want) {
		t.Fatalf("summary's ClassSE %v, want recommend.ClassSE %v", sum.ClassSE, want)
	}
	srv.Handle(protocol.Describe{Dataset: 5})
	if e, ok := s.wait(t, protocol.KindSummary).(protocol.Error); !ok || e.Dataset != 5 {
		t.Fatalf("got %#v", e)
	}
}

func TestRunErrors(t *testing.T) {
	s := newCollector()
	srv := NewServer(s.post, Options{})
	srv.Handle(protocol.Run{Dataset: 99, Run: 1, Method: "plugin", K2: 10})
	if e, ok := s.wait(t, protocol.KindResult).(protocol.Error); !ok || e.Run != 1 {
		t.Fatalf("missing data set: got %#v", e)
	}
	srv.Handle(protocol.Load{Dataset: 2, CSV: []byte(small), Direction: "auto"})
	srv.Handle(protocol.Run{Dataset: 2, Run: 2, Method: "nosuch", K2: 10})
	if e, ok := s.wait(t, protocol.KindResult).(protocol.Error); !ok || !strings.Contains(e.Message, "nosuch") {
		t.Fatalf("unknown method: got %#v", e)
	}
	if srv.Busy() {
		t.Fatal("server busy after its runs ended")
	}
}

func TestSimulateTruth(t *testing.T) {
	cfg := protocol.SimConfig{Classes: "normal", Points: "normal", D: 3, Sigma2: 0.2, R: 3, K1: 10, K2: 40, Seed: 1}
	ds, sum, err := Simulate(cfg, true)
	if err != nil {
		t.Fatal(err)
	}
	if sum.K != 10 || sum.N != 30 || sum.Direction != "lower" || len(sum.Truth) != 41 || ds.Truth == nil {
		t.Fatalf("summary %+v", sum)
	}
	if _, _, err := Simulate(protocol.SimConfig{Classes: "normal", Points: "normal", D: 3, Sigma2: 0.2, R: 3, K1: 50, K2: 40}, false); err == nil {
		t.Fatal("k1 > k2 was accepted")
	}
}

// A worker asked for a simulation with its truth posts the truth's
// progress (Run 0, Method TruthTask, the world's points done out of all of
// them, rising) at most every ProgressEvery, then the summary with the
// truth Simulate gives.
func TestSimulateTruthProgress(t *testing.T) {
	cfg := protocol.SimConfig{Classes: "normal", Points: "normal", D: 3, Sigma2: 0.2, R: 4, K1: 10, K2: 3000, Seed: 2}
	_, want, err := Simulate(cfg, true)
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector()
	clock := time.Unix(0, 0)
	// Each reading of the clock moves it by half of ProgressEvery: every
	// other report is posted.
	srv := NewServer(c.post, Options{Now: func() time.Time { clock = clock.Add(ProgressEvery / 2); return clock }})
	srv.Handle(protocol.Simulate{Dataset: 3, Config: cfg, WantSummary: true})
	var steps []int
	var got protocol.Summary
	for _, m := range c.msgs {
		switch m := m.(type) {
		case protocol.Progress:
			if m.Run != 0 || m.Method != TruthTask || m.Total != cfg.K2*cfg.R || m.Step <= 0 || m.Step >= m.Total {
				t.Errorf("progress %+v", m)
			}
			steps = append(steps, m.Step)
		case protocol.Summary:
			got = m
		default:
			t.Errorf("message %+v", m)
		}
	}
	if len(steps) < 2 || !slices.IsSorted(steps) {
		t.Errorf("truth progress steps %v, want at least two, rising", steps)
	}
	if got.Dataset != 3 || !slices.Equal(got.Truth, want.Truth) {
		t.Errorf("summary of data set %d, truth equal to Simulate's: %v", got.Dataset, slices.Equal(got.Truth, want.Truth))
	}
}

// A cancelled fit ends with a Cancelled error soon after Cancel arrives.
func TestCancel(t *testing.T) {
	s := newCollector()
	srv := NewServer(s.post, Options{})
	srv.Handle(protocol.Simulate{Dataset: 1, Config: protocol.SimConfig{Classes: "normal", Points: "normal", D: 5, Sigma2: 0.1, R: 5, K1: 40, K2: 400, Seed: 1}})
	srv.Handle(protocol.Run{Dataset: 1, Run: 2, Method: "cleanex", K2: 400, Preset: "paper", Seed: 1})
	s.wait(t, protocol.KindProgress)
	start := time.Now()
	srv.Handle(protocol.Cancel{Run: 2})
	e, ok := s.wait(t, protocol.KindResult).(protocol.Error)
	if !ok || !e.Cancelled || e.Run != 2 {
		t.Fatalf("got %#v", e)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancel took %v", d)
	}
}

// TestLiveCurve checks that a progress call carrying C_x posts the expected
// curve sum_x w_x C_x^(k-1) (computed here by hand), copied from C, and that
// the next one waits CurveEvery.
func TestLiveCurve(t *testing.T) {
	c := newCollector()
	now := time.Unix(0, 0)
	srv := NewServer(c.post, Options{Now: func() time.Time { return now }})
	w := []float64{0.25, 0.75}
	tr := &throttle{s: srv, run: 1, method: "cleanex", start: now, lastYield: now, weights: w, k2: 4}
	cx := []float64{0.5, 0.9}
	tr.progress(estimate.Progress{Method: "cleanex", Step: 1, Total: 10, Loss: 1, C: cx})
	cx[0] = 0 // the estimator may reuse C after the call
	p := (<-c.ch).(protocol.Progress)
	if len(p.Curve) != 5 {
		t.Fatalf("live curve %v, want k = 0..4", p.Curve)
	}
	for k := 2; k <= 4; k++ {
		want := 0.25*math.Pow(0.5, float64(k-1)) + 0.75*math.Pow(0.9, float64(k-1))
		if math.Abs(p.Curve[k]-want) > 1e-12 {
			t.Errorf("curve[%d] = %v, want %v", k, p.Curve[k], want)
		}
	}
	now = now.Add(ProgressEvery)
	tr.progress(estimate.Progress{Method: "cleanex", Step: 2, Total: 10, Loss: 1, C: cx})
	if p := (<-c.ch).(protocol.Progress); p.Curve != nil {
		t.Errorf("a second curve after %v, want none before %v", ProgressEvery, CurveEvery)
	}
	now = now.Add(CurveEvery)
	tr.progress(estimate.Progress{Method: "cleanex", Step: 3, Total: 10, Loss: 1, C: cx})
	if p := (<-c.ch).(protocol.Progress); p.Curve == nil || math.Abs(p.Curve[2]-0.75*0.9) > 1e-12 {
		t.Errorf("third progress curve %v, want one from the updated C", p.Curve)
	}
}

func TestWarmUp(t *testing.T) {
	if err := WarmUp(2); err != nil {
		t.Fatal(err)
	}
}

// A score matrix whose rows never vary is refused by Load, as by Prepare.
func TestLoadRefusesConstantScores(t *testing.T) {
	if _, _, err := Load([]byte("label,a,b,c\na,.5,.5,.5\nb,.5,.5,.5\nc,.5,.5,.5\n"), "auto"); !errors.Is(err, accuracy.ErrConstantScores) {
		t.Errorf("Load of constant scores: %v, want ErrConstantScores", err)
	}
}

// TestLoadSquashed: the summary says when a pilot's scores are squashed for
// the pooled and the tail method (tail.Squashed), as sharp probabilities
// read as they are (each row's scores e^(8 z) - 1, z standard normal,
// some below 0 so that they are not read as their logarithms), and not for
// the same pilot's z, nor for e^(8 z) / 2, which is read as its logarithm,
// 8 z - ln 2 (scores.ProbabilityCheck.LnMap).
func TestLoadSquashed(t *testing.T) {
	const k, perClass = 60, 3
	rng := rand.New(rand.NewPCG(5, 6))
	var raw, squashed, halved strings.Builder
	for _, b := range []*strings.Builder{&raw, &squashed, &halved} {
		b.WriteString("label")
		for j := range k {
			fmt.Fprintf(b, ",c%d", j)
		}
		b.WriteString("\n")
	}
	for y := range k {
		for range perClass {
			fmt.Fprintf(&raw, "c%d", y)
			fmt.Fprintf(&squashed, "c%d", y)
			fmt.Fprintf(&halved, "c%d", y)
			for j := range k {
				z := rng.NormFloat64()
				if j == y {
					z += 1.5
				}
				fmt.Fprintf(&raw, ",%.6g", z)
				fmt.Fprintf(&squashed, ",%.6g", math.Expm1(8*z))
				fmt.Fprintf(&halved, ",%.6g", math.Exp(8*z)/2)
			}
			raw.WriteString("\n")
			squashed.WriteString("\n")
			halved.WriteString("\n")
		}
	}
	for _, tc := range []struct {
		name string
		csv  string
		want bool
	}{{"z", raw.String(), false}, {"e^(8z) - 1", squashed.String(), true}, {"e^(8z) / 2", halved.String(), false}} {
		_, sum, err := Load([]byte(tc.csv), "higher")
		if err != nil {
			t.Fatal(err)
		}
		if sum.Squashed != tc.want || sum.LogProbabilities != (tc.name == "e^(8z) / 2") {
			t.Errorf("%s: Squashed %v, read as logarithms %v; want %v, %v", tc.name, sum.Squashed, sum.LogProbabilities, tc.want, tc.name == "e^(8z) / 2")
		}
	}
}

// A run that asks for the half-sampling spread (the recommendation's tail
// fit) returns it and the tail spread as the recommendation takes them
// (recommend.MeasuredPilot) beside its curve; a run that does not, and a
// pilot of fewer than 6 classes, return none (a tail spread of 0).
func TestRunSpread(t *testing.T) {
	cfg := protocol.SimConfig{Classes: "normal", Points: "normal", D: 3, Sigma2: 0.1, R: 3, K1: 20, K2: 200, Seed: 5}
	s := newCollector()
	srv := NewServer(s.post, Options{})
	srv.Handle(protocol.Simulate{Dataset: 7, Config: cfg})
	ds, _, err := Simulate(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := recommend.MeasuredPilot(context.Background(), ds.Sample)
	if err != nil {
		t.Fatal(err)
	}
	wantK, wantB := pf.Spread.Wire()
	if !(pf.TailSpread > 0) {
		t.Fatalf("tail spread of the simulated pilot %v, want one measured (> 0)", pf.TailSpread)
	}
	for _, tc := range []struct {
		run     uint64
		spread  bool
		dataset uint64
		want    bool
	}{{1, true, 7, true}, {2, false, 7, false}, {3, true, 4, false}} {
		if tc.dataset == 4 {
			srv.Handle(protocol.Load{Dataset: 4, CSV: []byte(small), Direction: "auto"})
		}
		srv.Handle(protocol.Run{Dataset: tc.dataset, Run: tc.run, Method: "tail", K2: 100, Seed: 1, Spread: tc.spread})
		res, ok := s.wait(t, protocol.KindResult).(protocol.Result)
		if !ok || res.Run != tc.run || len(res.Curve) != 101 {
			t.Fatalf("run %d: %#v", tc.run, res)
		}
		if got := len(res.SpreadK) > 0; got != tc.want || tc.want && (!slices.Equal(res.SpreadK, wantK) || !slices.Equal(res.SpreadB, wantB)) {
			t.Errorf("run %d: spread %v / %v, want it %v (%v / %v)", tc.run, res.SpreadK, res.SpreadB, tc.want, wantK, wantB)
		}
		if wantH := map[bool]float64{true: pf.TailSpread}[tc.want]; res.TailSpread != wantH {
			t.Errorf("run %d: tail spread %v, want %v", tc.run, res.TailSpread, wantH)
		}
	}
}
