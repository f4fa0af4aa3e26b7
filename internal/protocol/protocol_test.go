package protocol

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"reflect"
	"testing"
)

// samples returns one or two messages of every kind, with every field set in
// at least one of them.
func samples() []Message {
	curve := []float64{1, 1, 0.9, 0.8125, math.SmallestNonzeroFloat64, -0.0}
	return []Message{
		Ready{},
		Load{Dataset: 7, CSV: []byte("label,a,b\na,1,2\n"), Direction: "auto", WantSummary: true},
		Load{Dataset: 1 << 40},
		Simulate{Dataset: 3, Config: SimConfig{Classes: "normal", Points: "uniform", D: 5, Sigma2: 0.1, R: 10, K1: 100, K2: 2000, Seed: 42}, WantSummary: true},
		Summary{Dataset: 3, N: 1000, K: 100, MinPoints: 10, MaxPoints: 10, Direction: "lower", Detected: "lower",
			Wins: 712, Top1: 0.712, Observed: curve, Truth: []float64{}, Weights: []float64{0.001}, ObservedC: []float64{0.5},
			ClassSE: []float64{0, 0, 0.0125, 0.031}, Seconds: 0.25},
		Summary{Dataset: 4, Direction: "higher", Detected: "higher", LogProbabilities: true, ScoresNote: "read as log-probabilities", TiedShare: 0.25, Squashed: true, Observed: curve},
		Run{Dataset: 3, Run: 9, Method: "cleanex", K2: 2000, Preset: "fast", Seed: math.MaxUint64, KDEBandwidth: "lcv"},
		Progress{Run: 9, Method: "kde", Step: 3, Total: -1, Loss: 0.5, ETA: 1.25},
		Crash{Reason: "test"},
		Progress{Run: 9, Method: "cleanex", Step: 4, Total: 10, Loss: 0.25, ETA: 2, Curve: []float64{1, 1, 0.5}},
		Result{Run: 9, Method: "regression", Curve: curve, C: []float64{0.5}, Seconds: 3},
		Result{Run: 9, Method: "tail", Curve: curve, Seconds: 1, SpreadK: []float64{2, 3, 4}, SpreadB: []float64{0.5, 0.25, 0.125}, TailSpread: 1.625},
		Run{Dataset: 3, Run: 10, Method: "tail", K2: 2000, Seed: 1, Spread: true},
		Error{Dataset: 2, Method: "kde", Message: "row 3, column \"b\": not a number", Cancelled: true},
		Cancel{Run: 9},
		Describe{Dataset: 12},
		Summary{Dataset: 5, N: 20, K: 4, Direction: "lower", Detected: "lower",
			Embedding: Embedding{Metric: "euclidean", Reference: "centroid", RefSet: "train", Dim: 128, References: 40}},
		Prepare{Dataset: 8, Direction: "auto", Metric: "cosine", Reference: "1nn", KDEBandwidth: "ucv"},
		Prepare{Dataset: 9},
		Prepare{Dataset: 10, Part: 1, Parts: 3},
		Part{Dataset: 10, Part: 1, Parts: 3, Direction: "lower", Detected: "lower", Embedding: Embedding{Metric: "euclidean", Reference: "centroid", RefSet: "train", Dim: 128, References: 40},
			Binary: []byte("CXP1\x00")},
		LoadBinary{Dataset: 8, Pending: "kde:lcv", Direction: "higher", Detected: "lower", LogOdds: true, ScoresNote: "read as log-odds", Embedding: Embedding{Metric: "cosine", Reference: "oneshot", RefSet: "gallery", Dim: 3, References: 4},
			Binary: []byte("CXS1\x02\x00")},
	}
}

func TestRoundTrip(t *testing.T) {
	for _, m := range samples() {
		t.Run(fmt.Sprintf("%T", m), func(t *testing.T) {
			b, err := Encode(m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, m) {
				t.Fatalf("round trip changed the message:\n got %#v\nwant %#v", got, m)
			}
		})
	}
}

// NaN does not equal itself, so it is checked bit for bit.
func TestNaNSurvives(t *testing.T) {
	b, err := Encode(Progress{Run: 1, Loss: math.NaN(), ETA: math.Inf(1)})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	p := m.(Progress)
	if !math.IsNaN(p.Loss) || !math.IsInf(p.ETA, 1) {
		t.Fatalf("got loss %v, eta %v; want NaN, +Inf", p.Loss, p.ETA)
	}
}

// A float array takes 8 bytes per element plus a short prefix: no per-element overhead.
func TestFloatsAreCompact(t *testing.T) {
	curve := make([]float64, 2001)
	b, err := Encode(Result{Run: 1, Method: "kde", Curve: curve})
	if err != nil {
		t.Fatal(err)
	}
	if want := 8*len(curve) + 32; len(b) > want {
		t.Fatalf("encoded %d floats in %d bytes; want at most %d", len(curve), len(b), want)
	}
}

func TestDecodeRejectsTruncated(t *testing.T) {
	b, err := Encode(Result{Run: 1, Method: "kde", Curve: []float64{1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(b); n++ {
		if _, err := Decode(b[:n]); err == nil {
			t.Fatalf("decoding the first %d of %d bytes succeeded", n, len(b))
		} else if n > 0 && !errors.Is(err, ErrShort) {
			t.Fatalf("prefix %d: error %v does not wrap ErrShort", n, err)
		}
	}
	if _, err := Decode(append(b, 0)); err == nil {
		t.Fatal("a trailing byte was accepted")
	}
	if _, err := Decode([]byte{200}); err == nil {
		t.Fatal("an unknown kind was accepted")
	}
}

func ExampleEncode() {
	b, _ := Encode(Cancel{Run: 300})
	m, _ := Decode(b)
	fmt.Printf("% x -> %+v\n", b, m)
	// Output: 09 ac 02 -> {Run:300}
}

func TestLoadParts(t *testing.T) {
	csv := []byte("label,a,b\na,1,2\nb,3,1\n")
	want, err := Encode(Load{Dataset: 300, CSV: csv, Direction: "lower"})
	if err != nil {
		t.Fatal(err)
	}
	pre, suf := LoadParts(300, len(csv), "lower")
	got := append(append(append([]byte{}, pre...), csv...), suf...)
	if string(got) != string(want) {
		t.Fatalf("parts give % x\nEncode gives % x", got, want)
	}
}

// DecodeHead reads a LoadBinary's fields but its bytes from its first
// bytes alone, and refuses other kinds and too few bytes.
func TestDecodeHead(t *testing.T) {
	want := LoadBinary{Dataset: 1 << 33, Pending: "kde:lcv", Direction: "higher", Detected: "lower",
		Embedding: Embedding{Metric: "cosine", Reference: "1nn", RefSet: "gallery", Dim: 128, References: 50000}}
	full := want
	full.Binary = make([]byte, 100000)
	b, err := Encode(full)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeHead(b[:128])
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodeHead = %+v, %v; want %+v", got, err, want)
	}
	if _, err := DecodeHead(b[:12]); !errors.Is(err, ErrShort) {
		t.Errorf("12 bytes: %v, want ErrShort", err)
	}
	c, _ := Encode(Cancel{Run: 3})
	if _, err := DecodeHead(c); err == nil {
		t.Error("a Cancel was read as a LoadBinary")
	}
}

// DecodeKeptHead reads a Part's fields but its bytes from its first bytes,
// with where its bytes start; LoadBinaryPrefix is the encoding of a
// LoadBinary before its bytes.
func TestDecodeKeptHead(t *testing.T) {
	want := Part{Dataset: 7, Part: 2, Parts: 4, Direction: "higher", Detected: "higher",
		Embedding: Embedding{Metric: "cosine", Reference: "1nn", RefSet: "gallery", Dim: 128, References: 50000}}
	full := want
	full.Binary = []byte("CXP1 and the rest of a range of points")
	b, err := Encode(full)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Message{full, LoadBinary{Dataset: 3}} {
		if b, _ := Encode(m); !KeptInJS(b[0]) {
			t.Errorf("%T is not kept in JavaScript", m)
		}
	}
	m, err := DecodeKeptHead(b[:60])
	got, ok := m.(Part)
	if err != nil || !ok {
		t.Fatalf("DecodeKeptHead = %+v, %v", m, err)
	}
	if string(b[got.At:]) != string(full.Binary) {
		t.Errorf("At = %d: the bytes from there are %q", got.At, b[got.At:])
	}
	got.At = 0
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DecodeKeptHead = %+v, want %+v", got, want)
	}
	lb := LoadBinary{Dataset: 1 << 33, Direction: "lower", Detected: "lower", Embedding: want.Embedding, Binary: []byte("CXS1 whole")}
	enc, _ := Encode(lb)
	if pre := LoadBinaryPrefix(lb, len(lb.Binary)); string(append(pre, lb.Binary...)) != string(enc) {
		t.Error("LoadBinaryPrefix + Binary is not the LoadBinary's encoding")
	}
	if m, err := DecodeKeptHead(enc[:len(enc)-4]); err != nil || m.(LoadBinary).Dataset != lb.Dataset {
		t.Errorf("DecodeKeptHead of a LoadBinary = %+v, %v", m, err)
	}
}

// The class-sampling standard errors reach the page bit for bit, and a
// summary without them stays without them.
func TestSummaryClassSERoundTrip(t *testing.T) {
	se := []float64{0, 0, 0.0123456789, math.Nextafter(0.05, 1)}
	for _, want := range [][]float64{se, nil} {
		b, err := Encode(Summary{Dataset: 1, K: 3, Observed: []float64{1, 1, 0.9, 0.8}, ClassSE: want})
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.(Summary).ClassSE; !reflect.DeepEqual(got, want) {
			t.Fatalf("ClassSE %v, want %v", got, want)
		}
	}
}

// TestWireFormat pins the bytes of every sample message (an FNV-1a hash of
// their encodings in turn), so that a change to the order or the encoding of
// a field, which the page and the workers must agree on, is seen.
func TestWireFormat(t *testing.T) {
	h := fnv.New64a()
	for _, m := range samples() {
		b, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		h.Write(b)
	}
	pre, suf := LoadParts(1<<40, 123456, "higher")
	h.Write(pre)
	h.Write(suf)
	const want = 0x2bbf320ffad25bd6
	if got := h.Sum64(); got != want {
		t.Errorf("hash of the encodings = %#x, want %#x", got, uint64(want))
	}
}

// TestEveryKind checks that every kind has a codec whose messages report
// that kind, and that samples covers every kind.
func TestEveryKind(t *testing.T) {
	seen := map[Kind]bool{}
	for _, m := range samples() {
		seen[m.Kind()] = true
	}
	for k := KindReady; k <= KindPart; k++ {
		c, ok := codecs[k]
		if !ok {
			t.Errorf("kind %d has no codec", k)
			continue
		}
		if got := c.decode(&decoder{}).Kind(); got != k {
			t.Errorf("the codec of kind %d makes messages of kind %d", k, got)
		}
		if !seen[k] {
			t.Errorf("samples has no message of kind %d", k)
		}
	}
	if _, err := Encode(&Cancel{Run: 1}); err == nil {
		t.Error("Encode(*Cancel) succeeded; messages are values")
	}
}
