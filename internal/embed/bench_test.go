package embed

import (
	"context"
	"testing"
)

// BenchmarkSummarise scores 1,000 test embeddings of d = 128 against 2,000
// class centroids (2.6e8 multiply-adds) and summarises them, on one
// goroutine: about 1/100 of the bench workload of docs/embeddings.md.
func BenchmarkSummarise(b *testing.B) {
	p := simulated(1, 2000, 128, 2, 1, false)
	p.Test.Vectors = p.Test.Vectors[:1000*128]
	p.Test.Labels = p.Test.Labels[:1000]
	// Keep every class with a test point: relabel the first 1,000 points
	// to classes 0..999 and give classes 1,000.. the rest.
	for i := range p.Test.Labels {
		p.Test.Labels[i] = i % 1000
	}
	p.Classes = p.Classes[:1000]
	var refs Set
	refs.D = 128
	for i, y := range p.References.Labels {
		if y < 1000 {
			refs.Vectors = append(refs.Vectors, p.References.Row(i)...)
			refs.Labels = append(refs.Labels, y)
		}
	}
	p.References = refs
	for b.Loop() {
		if _, err := Summarise(context.Background(), p, Options{Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
