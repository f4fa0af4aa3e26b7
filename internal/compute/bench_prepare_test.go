package compute

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/simulate"
)

// BenchmarkPrepare is what the worker that prepares a large pilot computes
// (Prepare: parse, orient, summarise each row with KDE's C_x), and then
// what each compute worker fits on the result, natively or in wasm, for
// the ratios wasm/native behind the page's timings on large pilots
// (internal/browsertest BenchmarkPrepared): the pilot `cleanex simulate
// --k 500 --k1 500 --r 10` writes (N = 5,000, K = 500, about 46 MB),
// k2 = 5,000.
func BenchmarkPrepare(b *testing.B) {
	const k = 500
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 5, Sigma2: 0.1, K: k, R: 10, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	var csv bytes.Buffer
	if err := w.WriteCSV(&csv, w.AllClasses()); err != nil {
		b.Fatal(err)
	}
	b.Run(fmt.Sprintf("k=%d/prepare", k), func(b *testing.B) {
		b.SetBytes(int64(csv.Len()))
		for range b.N {
			if _, _, err := Prepare(context.Background(), bytes.NewReader(csv.Bytes()), PrepareOptions{Direction: "auto"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	ds, _, err := Prepare(context.Background(), bytes.NewReader(csv.Bytes()), PrepareOptions{Direction: "auto"})
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range []string{"plugin", "kde", "regression", "cleanex"} {
		b.Run(fmt.Sprintf("k=%d/%s", k, m), func(b *testing.B) {
			for range b.N {
				est, err := newEstimator(protocol.Run{Method: m, K2: 10 * k, Preset: "fast", Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := est.Fit(context.Background(), ds.Sample, 10*k, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
