package compute

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

// benchCSV is the browser benchmark's file (internal/browsertest): a k1-class
// pilot with r = 10 points per class drawn from a world of 10·k1 classes,
// scores written to 9 significant digits.
func benchCSV(b *testing.B, k1 int) []byte {
	b.Helper()
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 5, Sigma2: 0.2, K: 10 * k1, R: 10, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	classes, err := w.SampleClasses(k1, 1)
	if err != nil {
		b.Fatal(err)
	}
	m, err := w.Matrix(classes)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	cw := scores.NewWriter(&buf)
	cw.Digits = 9
	if err := cw.WriteHeader(m.Classes); err != nil {
		b.Fatal(err)
	}
	for i, y := range m.Labels {
		if err := cw.WriteRow(y, m.Row(i)); err != nil {
			b.Fatal(err)
		}
	}
	if err := cw.Flush(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkPipeline is what a worker computes for the page's pipeline
// natively or in wasm, for the ratios page/native: parse
// and summarise the CSV, fit the three baselines, fit CleaneX fast, with
// k2 = 2000.
func BenchmarkPipeline(b *testing.B) {
	for _, k1 := range []int{100, 500} {
		csv := benchCSV(b, k1)
		b.Run(fmt.Sprintf("k1=%d/load", k1), func(b *testing.B) {
			for range b.N {
				if _, _, err := Load(csv, "auto"); err != nil {
					b.Fatal(err)
				}
			}
		})
		ds, _, err := Load(csv, "auto")
		if err != nil {
			b.Fatal(err)
		}
		fit := func(b *testing.B, methods []string, preset string) {
			for range b.N {
				for _, m := range methods {
					est, err := newEstimator(protocol.Run{Method: m, K2: 2000, Preset: preset, Seed: 1})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := est.Fit(context.Background(), ds.Sample, 2000, nil); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		b.Run(fmt.Sprintf("k1=%d/baselines", k1), func(b *testing.B) { fit(b, []string{"plugin", "kde", "regression"}, "fast") })
		b.Run(fmt.Sprintf("k1=%d/cleanex-fast", k1), func(b *testing.B) { fit(b, []string{"cleanex"}, "fast") })
	}
}
