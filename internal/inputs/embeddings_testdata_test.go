package inputs_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/simulate"
)

// tinyEmbeddings is the tiny embeddings problem of testdata: the simulated
// world of 6 classes in d = 3 (σ² = 0.3, 4 test points per class, seed 1)
// as embeddings, with 3 noisy training embeddings per class (gallery
// false) or a gallery of 2 per class (gallery true).
func tinyEmbeddings(t *testing.T, gallery bool) *embed.Problem {
	t.Helper()
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 3, Sigma2: 0.3, K: 6, R: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	refs := 3
	if gallery {
		refs = 2
	}
	p, err := embed.Simulated(w, embed.Simulation{Classes: w.AllClasses(), Gallery: gallery, RefPoints: refs, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestWriteTestdataEmbeddings writes, with -update, the tiny embeddings
// problem: tiny_embeddings.npz (float64 test and training embeddings,
// integer labels, class names; written by npyio), tiny_embeddings.csv (the
// same problem as CSV, written by inputs.WriteEmbeddingsCSV) and
// tiny_gallery.npz (float32 test and gallery embeddings, string labels, no
// class names; npyio). TestEmbeddingsTestdata checks what they read to.
func TestWriteTestdataEmbeddings(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite testdata")
	}
	train, gallery := tinyEmbeddings(t, false), tinyEmbeddings(t, true)
	files := map[string][]byte{}
	files["tiny_embeddings.npz"] = npzOf(t, map[string]any{
		"test.npy":         mat.NewDense(train.Test.N(), train.Test.D, train.Test.Vectors),
		"test_labels.npy":  int64s(train.Test.Labels),
		"train.npy":        mat.NewDense(train.References.N(), train.References.D, train.References.Vectors),
		"train_labels.npy": int64s(train.References.Labels),
		"classes.npy":      train.Classes,
	})
	var csv bytes.Buffer
	if err := inputs.WriteEmbeddingsCSV(&csv, train, inputs.SetTrain); err != nil {
		t.Fatal(err)
	}
	files["tiny_embeddings.csv"] = csv.Bytes()
	names := func(s embed.Set) []string {
		out := make([]string, s.N())
		for i, y := range s.Labels {
			out[i] = gallery.Classes[y]
		}
		return out
	}
	f32 := func(s embed.Set) [][]float32 {
		out := make([][]float32, s.N())
		for i := range out {
			for _, v := range s.Row(i) {
				out[i] = append(out[i], float32(v))
			}
		}
		return out
	}
	files["tiny_gallery.npz"] = npzOf(t, map[string]any{
		"test.npy":           f32(gallery.Test),
		"test_labels.npy":    names(gallery.Test),
		"gallery.npy":        f32(gallery.References),
		"gallery_labels.npy": names(gallery.References),
	})
	for name, b := range files {
		if err := os.WriteFile(filepath.Join("testdata", name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
