package regress

import (
	"context"
	"math"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

// TestNearlySameEverywhere pins a regression fit on a simulated pilot (whose
// scores are the same bits natively and in wasm): the chosen bandwidth
// exactly, and the curve at a few k to within 1e-12. The native and the wasm
// test runs (./build.sh test runs both) check the same values. The fit is not
// bit-identical across the two: math.Exp and math.Erfc in the basis, and
// gonum's blas and lapack behind the QR factorisation, run assembly on amd64
// and portable Go in wasm, so the curves differ in their last bits (up to
// about 2e-15 measured); see README.md, "Same answer in the terminal and the
// browser".
func TestNearlySameEverywhere(t *testing.T) {
	w, err := simulate.Generate(simulate.Config{D: 5, Sigma2: 0.1, K: 400, R: 5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	cls, err := w.SampleClasses(60, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := w.Matrix(cls)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := accuracy.NewSample(m, scores.Lower)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Estimator{Seed: 1}.fit(context.Background(), s, 400, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.s != 0.6 {
		t.Errorf("bandwidth %v, want 0.6", f.s)
	}
	for _, p := range []struct {
		k    int
		want float64
	}{{5, 0.99370249410189637}, {10, 0.98087521558350454}, {60, 0.89626838817297105}, {400, 0.68761406494786692}} {
		if got := f.curve[p.k]; math.Abs(got-p.want) > 1e-12 {
			t.Errorf("curve at k = %d: %.17g, want %.17g ± 1e-12", p.k, got, p.want)
		}
	}
}
