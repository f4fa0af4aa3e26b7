package web

import (
	"bytes"
	"fmt"

	"github.com/cleanex/cleanex/internal/compute"
	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/protocol"
)

// ExampleRefPoints is the number of training embeddings per class of the
// embeddings example.
const ExampleRefPoints = 3

// EmbeddingsExample returns the teaching example of embeddings, made in the
// page from the simulation form cfg: the world of cfg (compute.World: its K2 class centres
// and R points per class in d dimensions), the pilot of K1 classes drawn
// as the simulation draws it, each point a test embedding and
// ExampleRefPoints points drawn around each class centre as its training
// embeddings (embed.Simulated), written as an .npz (test, test_labels,
// train, train_labels, classes) that loads like a dropped file and is
// scored by Euclidean distance to the class centroids. It returns the name
// shown for it and the bytes.
func EmbeddingsExample(cfg protocol.SimConfig) (string, []byte, error) {
	w, err := compute.World(cfg)
	if err != nil {
		return "", nil, err
	}
	classes, err := w.SampleClasses(cfg.K1, cfg.Seed)
	if err != nil {
		return "", nil, err
	}
	p, err := embed.Simulated(w, embed.Simulation{Classes: classes, RefPoints: ExampleRefPoints, Seed: cfg.Seed})
	if err != nil {
		return "", nil, err
	}
	var b bytes.Buffer
	if err := inputs.WriteEmbeddingsNPZ(&b, p, inputs.SetTrain); err != nil {
		return "", nil, err
	}
	name := fmt.Sprintf("embeddings example (simulated: %s classes of %s, d = %d, σ² = %g, %d test and %d training embeddings per class)",
		limits.Thousands(cfg.K1), limits.Thousands(cfg.K2), cfg.D, cfg.Sigma2, cfg.R, ExampleRefPoints)
	return name, b.Bytes(), nil
}
