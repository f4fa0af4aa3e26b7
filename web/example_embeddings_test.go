package web

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/protocol"
)

// TestEmbeddingsExample: the example reads back as embeddings of the
// form's pilot (K1 classes, R test and ExampleRefPoints training
// embeddings per class, d coordinates), scored by Euclidean distance to
// centroids, and its blockwise summary has the observed curve of its
// explicit score matrix.
func TestEmbeddingsExample(t *testing.T) {
	cfg := protocol.SimConfig{Classes: "normal", Points: "uniform", D: 3, Sigma2: 0.2, R: 4, K1: 12, K2: 40, Seed: 5}
	name, b, err := EmbeddingsExample(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(name, "12 classes of 40") {
		t.Errorf("name %q", name)
	}
	if !LooksLikeEmbeddings(b) {
		t.Error("the page would not recognise the example as embeddings")
	}
	d, err := inputs.Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	p := d.Embeddings
	if p == nil || len(p.Classes) != 12 || p.Test.N() != 12*4 || p.References.N() != 12*ExampleRefPoints || p.Test.D != 3 {
		t.Fatalf("read back: %+v", p)
	}
	if p.Metric != embed.Euclidean || p.Reference != embed.Centroid {
		t.Errorf("scoring %v/%v, want euclidean/centroid", p.Metric, p.Reference)
	}
	s, err := embed.Summarise(context.Background(), p, embed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := embed.Matrix(p)
	if err != nil {
		t.Fatal(err)
	}
	full, _, err := accuracy.NewSample(m, p.Direction())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Observed, full.Observed) {
		t.Error("the summary's observed curve differs from the matrix's")
	}
	if _, _, err := EmbeddingsExample(protocol.SimConfig{Classes: "normal", Points: "normal", D: 3, Sigma2: 0.2, R: 4, K1: 50, K2: 40, Seed: 5}); err == nil {
		t.Error("k1 > k2: no error")
	}
}

// The embeddings example's name writes the world's classes as the rest of
// the page writes numbers of classes, with a thousands separator.
func TestEmbeddingsExampleNameThousands(t *testing.T) {
	cfg := protocol.SimConfig{Classes: "normal", Points: "normal", D: 3, Sigma2: 0.1, R: 2, K1: 12, K2: 2000, Seed: 1}
	name, _, err := EmbeddingsExample(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := "(simulated: 12 classes of 2,000, d = 3"; !strings.Contains(name, want) {
		t.Errorf("name %q, want it to hold %q", name, want)
	}
}
