package benchcases

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate/plugin"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

// TestLoadAndRun writes a small case laid out as docs/formats.md §5 says and
// checks that Load reads it back and that Run's RMSE equals an independent
// computation of the plug-in curve against the truth.
func TestLoadAndRun(t *testing.T) {
	dir := t.TempDir()
	w, err := simulate.Generate(simulate.Config{D: 3, Sigma2: 0.2, K: 60, R: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	pilot, err := w.SampleClasses(20, 3)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "small.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteCSV(f, pilot); err != nil {
		t.Fatal(err)
	}
	f.Close()
	truth := w.Truth()
	tf, err := os.Create(filepath.Join(dir, "small_truth.csv"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(tf, "k,truth")
	for k := 2; k <= truth.Max(); k++ {
		fmt.Fprintf(tf, "%d,%.17g\n", k, truth[k])
	}
	tf.Close()
	ref := "file,setting,plugin:R_over_k1m1,kde:lcv\nsmall.csv,x,0.5,\n"
	if err := os.WriteFile(filepath.Join(dir, "reference_rmse.csv"), []byte(ref), 0o644); err != nil {
		t.Fatal(err)
	}

	cases, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 1 || cases[0].Name != "small" {
		t.Fatalf("cases = %+v, want one named small", cases)
	}
	c := cases[0]
	if c.Reference["plugin:R_over_k1m1"] != 0.5 || len(c.Reference) != 1 {
		t.Errorf("reference = %v, want only plugin = 0.5 (empty cells absent)", c.Reference)
	}
	if c.Truth.Max() != 60 || c.Sample.K != 20 {
		t.Errorf("truth up to %d, pilot K = %d; want 60 and 20", c.Truth.Max(), c.Sample.K)
	}
	sc, err := Run(context.Background(), c, plugin.Estimator{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := w.Matrix(pilot)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := accuracy.NewSample(m, scores.Lower)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for k := 2; k <= 60; k++ {
		e := 0.0
		for i, r := range s.R {
			e += s.Weight[i] * math.Pow(float64(r)/19, float64(k-1))
		}
		sum += (e - truth[k]) * (e - truth[k])
	}
	if want := math.Sqrt(sum / 59); math.Abs(sc.RMSE-want) > 1e-12 {
		t.Errorf("plug-in RMSE = %v, want %v", sc.RMSE, want)
	}
	if _, err := Load(t.TempDir()); err == nil {
		t.Error("Load of an empty folder: want an error")
	}
}
