package embed

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/simulate"
)

func world(t *testing.T, cfg simulate.Config) *simulate.World {
	t.Helper()
	w, err := simulate.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// sameScores fails unless got and want have the same classes, labels and
// scores: the same bits where unfusedArith, else within a relative 1e-13.
func sameScores(t *testing.T, name string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d scores, want %d", name, len(got), len(want))
	}
	for x, v := range want {
		g := got[x]
		if math.Float64bits(g) == math.Float64bits(v) {
			continue
		}
		if unfusedArith || math.Abs(g-v) > 1e-13*math.Abs(v) {
			t.Fatalf("%s: score %d is %v, want %v (unfused arithmetic: %v)", name, x, g, v, unfusedArith)
		}
	}
}

// TestSimulatedMatrix: the teaching example's embeddings, scored by
// Euclidean distance to the class centres (as training embeddings, one per
// class, or as a one-shot gallery), give the simulated pilot's score matrix:
// the same classes, rows and distances.
func TestSimulatedMatrix(t *testing.T) {
	for _, dist := range []simulate.Dist{simulate.Normal, simulate.Uniform} {
		w := world(t, simulate.Config{Classes: dist, Points: dist, D: 5, Sigma2: 0.2, K: 80, R: 3, Seed: 4})
		cls, err := w.SampleClasses(25, 4)
		if err != nil {
			t.Fatal(err)
		}
		want, err := w.Matrix(cls)
		if err != nil {
			t.Fatal(err)
		}
		for _, gallery := range []bool{false, true} {
			p, err := Simulated(w, Simulation{Classes: cls, Gallery: gallery})
			if err != nil {
				t.Fatal(err)
			}
			wantRef := map[bool]Reference{false: Centroid, true: OneShot}[gallery]
			if p.Metric != Euclidean || p.Reference != wantRef {
				t.Errorf("gallery %v: scored by %v/%v, want euclidean/%v", gallery, p.Metric, p.Reference, wantRef)
			}
			m, err := Matrix(p)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m.Classes, want.Classes) || !slices.Equal(m.Labels, want.Labels) {
				t.Fatalf("%v, gallery %v: classes or labels differ from the pilot's", dist, gallery)
			}
			sameScores(t, dist.String(), m.Scores, want.Scores)
		}
	}
}

// TestObservedTruth: Observed over all the world's classes with the
// centres as references is the world's truth curve; with noisy references
// it equals the observed curve of Summarise and of the explicit matrix.
func TestObservedTruth(t *testing.T) {
	w := world(t, simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 3, Sigma2: 0.1, K: 120, R: 4, Seed: 2})
	p, err := Simulated(w, Simulation{Classes: w.AllClasses()})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Observed(context.Background(), p, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	truth := w.Truth()
	if unfusedArith && !slices.Equal(got, truth) {
		t.Errorf("Observed differs from the world's truth: RMSE %.3g", accuracy.RMSE(got, truth))
	}
	if d := accuracy.RMSE(got, truth); d > 1e-3 {
		t.Errorf("Observed is %.3g in RMSE from the world's truth", d)
	}

	for _, gallery := range []bool{false, true} {
		p, err := Simulated(w, Simulation{Classes: w.AllClasses(), Gallery: gallery, RefPoints: 3, Seed: 9})
		if err != nil {
			t.Fatal(err)
		}
		obs, err := Observed(context.Background(), p, Options{Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		sum, err := Summarise(context.Background(), p, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		m, err := Matrix(p)
		if err != nil {
			t.Fatal(err)
		}
		full, _, err := accuracy.NewSample(m, p.Direction())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(obs, sum.Observed) || !slices.Equal(obs, full.Observed) {
			t.Errorf("gallery %v: Observed differs from Summarise's or the matrix's observed curve", gallery)
		}
		// Noisy references lose accuracy against the exact centres.
		if !(obs[w.Config.K] < truth[w.Config.K]) {
			t.Errorf("gallery %v: accuracy at K with 3 noisy references %.4f, with the centres %.4f: want lower", gallery, obs[w.Config.K], truth[w.Config.K])
		}
	}
}

// TestPointsSameAsMatrix: Points gives, for every scoring choice, the
// per-point summaries computed from the explicit matrix's Sample (what
// summary.WriteSample writes), bit for bit.
func TestPointsSameAsMatrix(t *testing.T) {
	for _, c := range []struct {
		metric Metric
		ref    Reference
		refs   int
	}{{Euclidean, Centroid, 3}, {Cosine, Nearest, 2}, {Euclidean, OneShot, 1}} {
		p := simulated(5, 140, 6, c.refs, 0.8, c.ref == OneShot)
		p.Metric, p.Reference = c.metric, c.ref
		pts, ranks, err := Points(context.Background(), p, Options{Quantiles: 16, Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		m, err := Matrix(p)
		if err != nil {
			t.Fatal(err)
		}
		s, _, err := accuracy.NewSample(m, p.Direction())
		if err != nil {
			t.Fatal(err)
		}
		for i := range s.N() {
			want := accuracy.SummarisePoint(s.Labels[i], s.Correct[i], s.IncorrectRow(i), s.R[i], ranks)
			if !reflect.DeepEqual(pts[i], want) {
				t.Fatalf("%v/%v: point %d: %+v, want %+v", c.metric, c.ref, i, pts[i], want)
			}
		}
	}
}

// TestSimulatedReferences: noisy references spread around their centre
// with the world's σ² (the centroid of m of them with σ²/m per
// coordinate), a class gets the same references in a pilot as in the whole
// world, and the uniform ones stay within √(3σ²) of their centre.
func TestSimulatedReferences(t *testing.T) {
	const m, sigma2 = 4, 0.5
	w := world(t, simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 5, Sigma2: sigma2, K: 400, R: 1, Seed: 3})
	all, err := Simulated(w, Simulation{Classes: w.AllClasses(), RefPoints: m, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	// Variance of the reference points around their centre, and of the
	// class centroids: 2,000 coordinates, so about 3% relative error; the
	// bounds are 15%.
	d := w.Config.D
	var ss, sc float64
	for j := range w.Config.K {
		centre := w.Centres[j*d : (j+1)*d]
		for t2 := range d {
			mean := 0.0
			for q := range m {
				e := all.References.Vectors[(j*m+q)*d+t2] - centre[t2]
				ss += e * e
				mean += e / m
			}
			sc += mean * mean
		}
	}
	nc := float64(w.Config.K * d)
	if v := ss / (nc * m); math.Abs(v/sigma2-1) > 0.15 {
		t.Errorf("reference points vary by %.3f per coordinate around their centre, want σ² = %v", v, sigma2)
	}
	if v := sc / nc; math.Abs(v/(sigma2/m)-1) > 0.15 {
		t.Errorf("centroids vary by %.3f per coordinate around their centre, want σ²/m = %v", v, sigma2/m)
	}
	cls := []int{7, 300, 42}
	pilot, err := Simulated(w, Simulation{Classes: cls, RefPoints: m, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	for a, j := range cls {
		if !slices.Equal(pilot.References.Vectors[a*m*d:(a+1)*m*d], all.References.Vectors[j*m*d:(j+1)*m*d]) {
			t.Errorf("class %d: its references in the pilot differ from those in the whole world", j)
		}
	}
	u := world(t, simulate.Config{Classes: simulate.Uniform, Points: simulate.Uniform, D: 2, Sigma2: sigma2, K: 50, R: 1, Seed: 3})
	pu, err := Simulated(u, Simulation{Classes: u.AllClasses(), RefPoints: 3, Gallery: true, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if pu.Reference != Nearest {
		t.Errorf("a gallery of 3 per class is scored by %v, want 1nn", pu.Reference)
	}
	half := math.Sqrt(3 * sigma2)
	for i, y := range pu.References.Labels {
		for t2, v := range pu.References.Row(i) {
			if c := u.Centres[y*2+t2]; !(v >= c-half && v <= c+half) {
				t.Fatalf("uniform reference %d, coordinate %d: %v is more than √(3σ²) from its centre %v", i, t2, v, c)
			}
		}
	}
}

// TestSimulatedRefuses: bad class lists and reference counts.
func TestSimulatedRefuses(t *testing.T) {
	w := world(t, simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 2, Sigma2: 0.1, K: 10, R: 2, Seed: 1})
	for _, c := range []struct {
		s    Simulation
		want string
	}{
		{Simulation{Classes: []int{1}}, "at least 2"},
		{Simulation{Classes: []int{1, 1}}, "repeated"},
		{Simulation{Classes: []int{1, 10}}, "outside 0..9"},
		{Simulation{Classes: []int{1, 2}, RefPoints: -1}, "give 0"},
		{Simulation{Classes: []int{1, 2}, RefPoints: MaxRefCoords}, "reference coordinates"},
	} {
		if _, err := Simulated(w, c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", c.s, err, c.want)
		}
	}
}
