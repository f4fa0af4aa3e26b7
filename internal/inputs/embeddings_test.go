package inputs_test

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/scores"
)

// sameProblem fails unless got has want's classes, labels and scoring,
// and, for every coordinate, the bits of conv(want's).
func sameProblem(t *testing.T, name string, got, want *embed.Problem, conv func(float64) float64) {
	t.Helper()
	if got == nil {
		t.Fatalf("%s: no embeddings", name)
	}
	if !slices.Equal(got.Classes, want.Classes) || got.Metric != want.Metric || got.Reference != want.Reference {
		t.Fatalf("%s: classes %q scored by %v/%v, want %q by %v/%v", name, got.Classes, got.Metric, got.Reference, want.Classes, want.Metric, want.Reference)
	}
	for _, s := range []struct {
		what      string
		got, want embed.Set
	}{{"test", got.Test, want.Test}, {"reference", got.References, want.References}} {
		if s.got.D != s.want.D || !slices.Equal(s.got.Labels, s.want.Labels) || len(s.got.Vectors) != len(s.want.Vectors) {
			t.Fatalf("%s: %s set: d = %d, labels %v, want d = %d, labels %v", name, s.what, s.got.D, s.got.Labels, s.want.D, s.want.Labels)
		}
		for x, v := range s.want.Vectors {
			if math.Float64bits(s.got.Vectors[x]) != math.Float64bits(conv(v)) {
				t.Fatalf("%s: %s coordinate %d is %v, want %v", name, s.what, x, s.got.Vectors[x], conv(v))
			}
		}
	}
}

// TestEmbeddingsTestdata: the embeddings files of testdata read to the
// problem they were written from (float32 coordinates to their float64
// value), with the default scoring: class centroids of the training
// embeddings, the nearest of two gallery items per class; Sample refuses
// them, as Detect tells them apart only once read.
func TestEmbeddingsTestdata(t *testing.T) {
	train, gallery := tinyEmbeddings(t, false), tinyEmbeddings(t, true)
	for _, tc := range []struct {
		file   string
		want   *embed.Problem
		refSet string
		conv   func(float64) float64
	}{
		{"tiny_embeddings.npz", train, inputs.SetTrain, exact},
		{"tiny_embeddings.csv", train, inputs.SetTrain, exact},
		{"tiny_gallery.npz", gallery, inputs.SetGallery, viaFloat32},
	} {
		d, err := all.Read(bytes.NewReader(readFile(t, tc.file)))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if d.Matrix != nil || d.Summary != nil {
			t.Fatalf("%s: read as a matrix or a summary", tc.file)
		}
		sameProblem(t, tc.file, d.Embeddings, tc.want, tc.conv)
		if d.ReferenceSet() != tc.refSet {
			t.Errorf("%s: reference set %q, want %q", tc.file, d.ReferenceSet(), tc.refSet)
		}
		if _, _, err := d.Sample(scores.Auto); !errors.Is(err, inputs.ErrEmbeddings) {
			t.Errorf("%s: Sample gave %v, want ErrEmbeddings", tc.file, err)
		}
	}
	// A gzip-compressed CSV and .npz read as the plain ones.
	for _, f := range []string{"tiny_embeddings.csv", "tiny_embeddings.npz"} {
		d, err := inputs.Read(bytes.NewReader(gz(t, readFile(t, f))))
		if err != nil {
			t.Fatalf("%s.gz: %v", f, err)
		}
		sameProblem(t, f+".gz", d.Embeddings, train, exact)
	}
}

// TestEmbeddingsWriteRead: WriteEmbeddingsNPZ and WriteEmbeddingsCSV read
// back to the problem, bit for bit, in both reference sets; the CSV also
// as TSV, with semicolons, a byte-order mark, CRLF line ends, quoted
// labels and interleaved rows. A gallery of one item per class is scored
// one-shot by default.
func TestEmbeddingsWriteRead(t *testing.T) {
	p := &embed.Problem{
		Classes:    []string{"cat, wild", `say "hi"`, "dog"},
		Test:       embed.Set{D: 2, Vectors: []float64{0.1, -2.5e-300, 1, 2, 3, 4, 0.3, 1e140}, Labels: []int{0, 1, 2, 1}},
		References: embed.Set{D: 2, Vectors: []float64{0, 0, 1, 1, 3, 3}, Labels: []int{0, 1, 2}},
		Metric:     embed.Euclidean,
	}
	for _, set := range []string{inputs.SetTrain, inputs.SetGallery} {
		want := *p
		want.Reference = embed.Centroid
		if set == inputs.SetGallery {
			want.Reference = embed.OneShot
		}
		var npz, csv bytes.Buffer
		if err := inputs.WriteEmbeddingsNPZ(&npz, p, set); err != nil {
			t.Fatal(err)
		}
		if err := inputs.WriteEmbeddingsCSV(&csv, p, set); err != nil {
			t.Fatal(err)
		}
		for name, b := range map[string][]byte{"npz": npz.Bytes(), "csv": csv.Bytes()} {
			d, err := inputs.Read(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%s %s: %v", set, name, err)
			}
			sameProblem(t, set+" "+name, d.Embeddings, &want, exact)
			if d.ReferenceSet() != set {
				t.Errorf("%s %s: reference set %q", set, name, d.ReferenceSet())
			}
		}
	}
	// A score matrix whose label column is named set is still one.
	if d, err := inputs.Read(strings.NewReader("set,a,b\na,1,2\nb,2,1\n")); err != nil || d.Matrix == nil {
		t.Errorf("a score matrix with a label column named set: %v", err)
	}
	if err := inputs.WriteEmbeddingsCSV(&bytes.Buffer{}, p, "tset"); err == nil {
		t.Error("WriteEmbeddingsCSV took the reference set tset")
	}
	want := &embed.Problem{Classes: []string{"b", "a"}, Metric: embed.Euclidean, Reference: embed.Nearest,
		Test:       embed.Set{D: 2, Vectors: []float64{1, 2, 3, 4}, Labels: []int{0, 1}},
		References: embed.Set{D: 2, Vectors: []float64{0, 1, 5, 6, 7, 8}, Labels: []int{1, 0, 1}}}
	for _, text := range []string{
		"set,label,x,y\ngallery,a,0,1\ntest,b,1,2\ngallery,b,5,6\ntest,a,3,4\ngallery,a,7,8\n",
		"\uFEFFSet\tLabel\tx\ty\r\nGallery\ta\t0\t1\r\ntest\t b \t1\t2\r\n\r\ngallery\tb\t5\t6\r\nTEST\ta\t3\t4\r\ngallery\ta\t7\t8",
		"\"set\";label;x;y\ngallery;\"a\";0;1\ntest;b;1.0;2e0\ngallery;b;+5;6\ntest;a;3;4\ngallery;a;7;8\n",
	} {
		d, err := inputs.Read(strings.NewReader(text))
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		sameProblem(t, text, d.Embeddings, want, exact)
	}
}

// TestCheckEmbeddings: a scoring chosen after reading is checked with the
// file's place names.
func TestCheckEmbeddings(t *testing.T) {
	text := "set,label,x,y\ntest,a,1,0\ntest,b,0,0\ngallery,a,1,1\ngallery,b,2,0\ngallery,b,0,2\n"
	d, err := inputs.Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	p := d.Embeddings
	if p.Reference != embed.Nearest {
		t.Fatalf("default reference %v, want 1nn", p.Reference)
	}
	p.Metric = embed.Cosine
	oneLine(t, "cosine", d.CheckEmbeddings(), "row 3: the embedding is all zeros, so its cosine similarity is undefined")
	p.Metric, p.Reference = embed.Euclidean, embed.OneShot
	oneLine(t, "one-shot", d.CheckEmbeddings(), `column "label": class "b" has 2 reference embeddings: one-shot scoring uses exactly one per class`)
	var npz bytes.Buffer
	if err := inputs.WriteEmbeddingsNPZ(&npz, p, inputs.SetGallery); err != nil {
		t.Fatal(err)
	}
	d, err = inputs.Read(&npz)
	if err != nil {
		t.Fatal(err)
	}
	d.Embeddings.Metric = embed.Cosine
	oneLine(t, "cosine npz", d.CheckEmbeddings(), "test.npy: point 1: the embedding is all zeros")
	d.Embeddings.Metric, d.Embeddings.Reference = embed.Euclidean, embed.OneShot
	oneLine(t, "one-shot npz", d.CheckEmbeddings(), `test_labels.npy and gallery_labels.npy: class "b" has 2 reference embeddings`)
	if err := (&inputs.Data{}).CheckEmbeddings(); err != nil {
		t.Errorf("no embeddings: %v", err)
	}
}

// embNPZ builds an embeddings .npz from name, contents pairs.
func embNPZ(files ...string) []byte { return zipOf(files...) }

var (
	// 3 test embeddings of d = 2, classes 0, 1, 1; 2 training embeddings.
	embTest        = npyRaw("<f8", false, "(3, 2)", le(0.0, 1.0, 2.0, 3.0, 4.0, 5.0))
	embTestLabels  = npyRaw("<i8", false, "(3,)", le(int64(0), int64(1), int64(1)))
	embTrain       = npyRaw("<f8", false, "(2, 2)", le(0.0, 0.5, 4.0, 4.5))
	embTrainLabels = npyRaw("<i8", false, "(2,)", le(int64(0), int64(1)))
)

// goodEmb is the name, contents pairs of a valid embeddings .npz.
func goodEmb() []string {
	return []string{"test.npy", string(embTest), "test_labels.npy", string(embTestLabels), "train.npy", string(embTrain), "train_labels.npy", string(embTrainLabels)}
}

// replaced returns goodEmb with the contents of array name replaced (or,
// for contents "", the array removed), plus the extra pairs.
func replaced(name, contents string, extra ...string) []byte {
	g := goodEmb()
	var out []string
	for i := 0; i < len(g); i += 2 {
		switch {
		case g[i] != name:
			out = append(out, g[i], g[i+1])
		case contents != "":
			out = append(out, g[i], contents)
		}
	}
	return embNPZ(append(out, extra...)...)
}

// TestEmbeddingsNPZErrors: each malformed embeddings .npz is refused with
// one line naming the array and the place.
func TestEmbeddingsNPZErrors(t *testing.T) {
	if d, err := inputs.Read(bytes.NewReader(embNPZ(goodEmb()...))); err != nil || d.Embeddings == nil {
		t.Fatalf("the good .npz: %v", err)
	}
	nan := npyRaw("<f8", false, "(3, 2)", le(0.0, 1.0, 2.0, 3.0, 4.0, math.NaN()))
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"1-D test", replaced("test.npy", string(npyRaw("<f8", false, "(5,)", make([]byte, 40)))), "test.npy: wrong shape (5,): want a 2-D array of embeddings, one row of d coordinates each (N x d)"},
		{"complex test", replaced("test.npy", string(npyRaw("<c16", false, "(3, 2)", make([]byte, 96)))), "test.npy: wrong type: dtype <c16: complex numbers; give real coordinates"},
		{"int test", replaced("test.npy", string(npyRaw("<i8", false, "(3, 2)", make([]byte, 48)))), "test.npy: wrong type: dtype <i8: embeddings must be floating-point"},
		{"empty train", replaced("train.npy", string(npyRaw("<f8", false, "(0, 2)", nil)), "train_labels.npy", string(npyRaw("<i8", false, "(0,)", nil))), "train.npy: no data rows: shape (0, 2) holds no embeddings"},
		{"dimension", replaced("train.npy", string(npyRaw("<f8", false, "(2, 3)", make([]byte, 48)))), "train.npy: wrong shape (2, 3): its embeddings have dimension 3 but those of test.npy 2; embed both with the same model"},
		{"NaN", replaced("test.npy", string(nan)), "test.npy: point 2, coordinate 1: not a finite number: NaN; every coordinate must be a finite number"},
		{"Inf in train", replaced("train.npy", string(npyRaw("<f8", false, "(2, 2)", le(0.0, math.Inf(1), 4.0, 4.5)))), "train.npy: row 0, coordinate 1: not a finite number: +Inf"},
		{"labels count", replaced("train_labels.npy", string(npyRaw("<i8", false, "(3,)", le(int64(0), int64(1), int64(1))))), "train_labels.npy: wrong shape (3,): want 2 labels (a 1-D array, one per row of train.npy)"},
		{"labels 2-D", replaced("test_labels.npy", string(npyRaw("<i8", false, "(3, 1)", le(int64(0), int64(1), int64(1))))), "test_labels.npy: wrong shape (3, 1): want 3 labels"},
		{"no centroid", replaced("train_labels.npy", string(npyRaw("<i8", false, "(2,)", le(int64(0), int64(0))))), `test_labels.npy and train_labels.npy: class "1" has test points but no reference embedding (no centroid)`},
		{"no test point", replaced("test_labels.npy", string(npyRaw("<i8", false, "(3,)", le(int64(0), int64(0), int64(0))))), `class "1" has reference embeddings but no test point`},
		{"unused index", embNPZ("test.npy", string(embTest), "test_labels.npy", string(npyRaw("<i8", false, "(3,)", le(int64(0), int64(2), int64(2)))), "train.npy", string(embTrain), "train_labels.npy", string(npyRaw("<i8", false, "(2,)", le(int64(0), int64(2))))), "test_labels.npy and train_labels.npy: missing: no embedding has the class index 1"},
		{"negative label", replaced("test_labels.npy", string(npyRaw("<i8", false, "(3,)", le(int64(0), int64(-1), int64(1))))), "test_labels.npy: row 1: unknown label -1: without classes.npy integer labels are class indices 0..K-1"},
		{"huge label", replaced("test_labels.npy", string(npyRaw("<i8", false, "(3,)", le(int64(0), int64(1), int64(1)<<40)))), "test_labels.npy: row 2: unknown label 1099511627776"},
		{"label outside classes", replaced("test_labels.npy", string(npyRaw("<i8", false, "(3,)", le(int64(0), int64(1), int64(2)))), "classes.npy", string(npyRaw("<U1", false, "(2,)", utf32(1, "a", "b")))), "test_labels.npy: row 2: unknown label 2: integer labels are indices into classes.npy, 0..1"},
		{"class without data", replaced("", "", "classes.npy", string(npyRaw("<U1", false, "(3,)", utf32(1, "a", "b", "c")))), `classes.npy: missing: class "c" has no test embedding and no reference embedding; drop it from classes.npy`},
		{"mixed label kinds", replaced("train_labels.npy", string(npyRaw("<U1", false, "(2,)", utf32(1, "a", "b")))), "train_labels.npy: wrong type: its labels are strings but those of test_labels.npy integers"},
		{"float labels", replaced("test_labels.npy", string(npyRaw("<f8", false, "(3,)", le(0.0, 1.0, 1.0)))), "test_labels.npy: wrong type: dtype <f8: labels must be integer class indices or class names"},
		{"unknown name", embNPZ("test.npy", string(embTest), "test_labels.npy", string(npyRaw("<U1", false, "(3,)", utf32(1, "a", "b", "b"))), "train.npy", string(embTrain), "train_labels.npy", string(npyRaw("<U1", false, "(2,)", utf32(1, "a", "z"))), "classes.npy", string(npyRaw("<U1", false, "(2,)", utf32(1, "a", "b")))), `train_labels.npy: row 1: unknown label "z": it must be one of the 2 names in classes.npy`},
		{"empty name", embNPZ("test.npy", string(embTest), "test_labels.npy", string(npyRaw("<U1", false, "(3,)", utf32(1, "a", "", "b"))), "train.npy", string(embTrain), "train_labels.npy", string(npyRaw("<U1", false, "(2,)", utf32(1, "a", "b")))), "test_labels.npy: row 1: empty cell: the label is empty"},
		{"string labels, no centroid", embNPZ("test.npy", string(embTest), "test_labels.npy", string(npyRaw("<U1", false, "(3,)", utf32(1, "a", "x", "b"))), "train.npy", string(embTrain), "train_labels.npy", string(npyRaw("<U1", false, "(2,)", utf32(1, "a", "b")))), `class "x" has test points but no reference embedding (no centroid)`},
		{"duplicate class", replaced("", "", "classes.npy", string(npyRaw("<U1", false, "(2,)", utf32(1, "a", "a")))), `classes.npy: classes 0 and 1: duplicate class name`},
		{"classes 2-D", replaced("", "", "classes.npy", string(npyRaw("<U1", false, "(1, 2)", utf32(1, "a", "b")))), "classes.npy: wrong shape (1, 2): want a 1-D array of the K >= 2 class names"},
		{"no test labels", replaced("test_labels.npy", ""), "missing: the .npz holds embeddings but no test_labels.npy; save it too: numpy.savez(f, test=X, test_labels=y, train=T, train_labels=t)"},
		{"no test", replaced("test.npy", ""), "missing: the .npz holds embeddings but no test.npy"},
		{"no train labels", replaced("train_labels.npy", ""), "no train_labels.npy"},
		{"no references", embNPZ("test.npy", string(embTest), "test_labels.npy", string(embTestLabels)), "missing: the .npz holds test embeddings but no references to score them against"},
		{"train and gallery", replaced("", "", "gallery.npy", string(embTrain), "gallery_labels.npy", string(embTrainLabels)), "conflicting values: the .npz holds both training embeddings (train) and a gallery (gallery)"},
		{"damaged array", replaced("train.npy", "\x93NUMPY\x01\x00\x08\x00{'descr'"), "train.npy: unreadable file: the .npy header is cut short or malformed"},
	} {
		_, err := inputs.Read(bytes.NewReader(tc.file))
		oneLine(t, tc.name, err, tc.want)
		var ie *inputs.Error
		if err != nil && !errors.As(err, &ie) {
			t.Errorf("%s: %T is not an *inputs.Error", tc.name, err)
		}
	}
	// An .npz with scores.npy is a score matrix, whatever else it holds.
	d, err := inputs.Read(bytes.NewReader(embNPZ(append(goodEmb(), "scores.npy", string(goodScores), "labels.npy", string(goodLabels))...)))
	if err != nil || d.Matrix == nil || d.Embeddings != nil {
		t.Errorf("an .npz with scores.npy and test.npy: %v, want a score matrix", err)
	}
}

// TestEmbeddingsCSVErrors: each malformed embeddings CSV is refused with
// one line naming the row (the header is row 1) and the column.
func TestEmbeddingsCSVErrors(t *testing.T) {
	const head = "set,label,x1,x2\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"no coordinates", "set,label\ntest,a\n", "row 1: the header set,label has no coordinate columns"},
		{"bad set", head + "test,a,1,2\ntset,a,1,2\n", `row 3, column "set": "tset" is not a set: each row's set is test, train or gallery`},
		{"train and gallery", head + "test,a,1,2\ntrain,a,1,2\ngallery,a,1,2\n", `row 4, column "set": conflicting values: "gallery" after "train" rows (the first on row 3): a file gives training embeddings or a gallery, not both`},
		{"field count", head + "test,a,1,2\ntrain,a,1\n", "row 3: wrong number of fields: 3, want 4: set, label and 2 coordinates"},
		{"NaN", head + "test,a,1,2\ntest,b,NaN,2\n", `row 3, column "x1": not a finite number: "NaN"; every coordinate must be a finite number`},
		{"overflow", head + "test,a,1,1e999\n", `row 2, column "x2": not a finite number: "1e999" overflows a 64-bit float`},
		{"text", head + "test,a,1,abc\n", `row 2, column "x2": not a number: "abc"; coordinates are plain decimal numbers`},
		{"hex", head + "test,a,1,0x10\n", `row 2, column "x2": not a number: "0x10"`},
		{"decimal comma", "set;label;x1;x2\ntest;a;1;0,5\n", `row 2, column "x2": not a number: "0,5"; write the decimal separator as a point (0.25, not 0,25)`},
		{"empty cell", head + "test,a,,2\n", `row 2, column "x1": empty cell: every coordinate must be a number`},
		{"empty label", head + "test, ,1,2\n", `row 2, column "label": empty cell: every embedding needs its class`},
		{"no test rows", head + "train,a,1,2\n", "no data rows: no row has the set test"},
		{"no references", head + "test,a,1,2\ntest,b,1,2\n", "missing: no row has the set train or gallery"},
		{"no centroid", head + "test,a,1,2\ntest,b,1,2\ntrain,a,0,0\n", `column "label": class "b" has test points but no reference embedding (no centroid)`},
		{"no test point", head + "test,a,1,2\ntrain,a,0,0\ntrain,b,1,1\n", `class "b" has reference embeddings but no test point`},
		{"one class", head + "test,a,1,2\ntrain,a,0,0\n", "1 class: at least 2 classes are needed"},
		{"bad quote", head + "test,\"a,1,2\n", "malformed CSV"},
	} {
		_, err := inputs.Read(strings.NewReader(tc.text))
		oneLine(t, tc.name, err, tc.want)
	}
}
