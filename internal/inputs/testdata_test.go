package inputs_test

import (
	"bytes"
	"compress/gzip"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"codeberg.org/sbinet/npyio/npy"
	"codeberg.org/sbinet/npyio/npz"
	"github.com/parquet-go/parquet-go"
	"gonum.org/v1/gonum/mat"

	"github.com/cleanex/cleanex/internal/scores"
)

// update rewrites the files of testdata: the tiny pilot from
// assets/example.csv (TestWriteTestdata) and the tiny embeddings from a
// simulation (TestWriteTestdataEmbeddings):
//
//	go test ./internal/inputs/ -run TestWriteTestdata -update
var update = flag.Bool("update", false, "rewrite internal/inputs/testdata: the tiny pilot from assets/example.csv, the tiny embeddings from a simulation")

// tinyClasses is how many of example.csv's classes the tiny pilot keeps.
const tinyClasses = 6

// tinyFromExample is the tiny pilot: the first tinyClasses classes of
// assets/example.csv (50 classes, 4 points each; its rows are sorted by
// class in column order) and the rows of those classes.
func tinyFromExample(t *testing.T) *scores.Matrix {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "assets", "example.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	full, err := scores.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	m := &scores.Matrix{Classes: slices.Clone(full.Classes[:tinyClasses])}
	for i, y := range full.Labels {
		if y < tinyClasses {
			m.Labels = append(m.Labels, y)
			m.Scores = append(m.Scores, full.Row(i)[:tinyClasses]...)
		}
	}
	return m
}

// longRow is a row of tiny_long.parquet.
type longRow struct {
	Point string  `parquet:"point"`
	Class string  `parquet:"class"`
	Score float64 `parquet:"score"`
	Label string  `parquet:"label"`
}

// TestWriteTestdata writes, with -update, the tiny pilot in every format:
// tiny.csv (the reference), tiny.csv.gz, tiny.tsv.gz, tiny.npz (float64
// scores, integer labels, class names), tiny_f32.npz (float32 scores, string
// labels, no class names), tiny_scores.npy and tiny_labels.npy (string
// labels), tiny_long.parquet and tiny_wide.parquet. TestSamePilot checks that
// each reads back to tiny.csv's matrix.
func TestWriteTestdata(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite testdata")
	}
	m := tinyFromExample(t)
	n, k := m.N(), m.K()
	names := make([]string, n)
	for i, y := range m.Labels {
		names[i] = m.Classes[y]
	}
	files := map[string][]byte{}

	var csv bytes.Buffer
	if err := scores.WriteCSV(&csv, m); err != nil {
		t.Fatal(err)
	}
	files["tiny.csv"] = csv.Bytes()
	files["tiny.csv.gz"] = gz(t, csv.Bytes())
	files["tiny.tsv.gz"] = gz(t, bytes.ReplaceAll(csv.Bytes(), []byte(","), []byte("\t")))

	files["tiny.npz"] = npzOf(t, map[string]any{
		"scores.npy":  mat.NewDense(n, k, m.Scores),
		"labels.npy":  int64s(m.Labels),
		"classes.npy": m.Classes,
	})
	f32 := make([][]float32, n)
	for i := range f32 {
		for _, v := range m.Row(i) {
			f32[i] = append(f32[i], float32(v))
		}
	}
	files["tiny_f32.npz"] = npzOf(t, map[string]any{"scores.npy": f32, "labels.npy": names})
	files["tiny_scores.npy"] = npyOf(t, mat.NewDense(n, k, m.Scores))
	files["tiny_labels.npy"] = npyOf(t, names)

	var long []longRow
	for i := range n {
		for j, c := range m.Classes {
			long = append(long, longRow{Point: "p" + strconv.Itoa(i), Class: c, Score: m.Row(i)[j], Label: names[i]})
		}
	}
	var lb bytes.Buffer
	lw := parquet.NewGenericWriter[longRow](&lb)
	if _, err := lw.Write(long); err != nil {
		t.Fatal(err)
	}
	if err := lw.Close(); err != nil {
		t.Fatal(err)
	}
	files["tiny_long.parquet"] = lb.Bytes()

	// A Group's columns come out sorted by name: the classes (sorted in
	// example.csv) and then label.
	g := parquet.Group{"label": parquet.String()}
	for _, c := range m.Classes {
		g[c] = parquet.Leaf(parquet.DoubleType)
	}
	if !slices.IsSorted(m.Classes) || m.Classes[k-1] > "label" {
		t.Fatal("the classes would not keep their order in a parquet.Group")
	}
	var wb bytes.Buffer
	ww := parquet.NewGenericWriter[map[string]any](&wb, parquet.NewSchema("pilot", g))
	rows := make([]map[string]any, n)
	for i := range rows {
		rows[i] = map[string]any{"label": names[i]}
		for j, c := range m.Classes {
			rows[i][c] = m.Row(i)[j]
		}
	}
	if _, err := ww.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := ww.Close(); err != nil {
		t.Fatal(err)
	}
	files["tiny_wide.parquet"] = wb.Bytes()

	for name, b := range files {
		if err := os.WriteFile(filepath.Join("testdata", name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// gz compresses b with gzip (no name, no time, so the bytes are the same on
// every run).
func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw, err := gzip.NewWriterLevel(&out, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// npzOf writes the arrays into an .npz with npyio, in the order of their
// names.
func npzOf(t *testing.T, arrays map[string]any) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := npz.NewWriter(&out)
	keys := make([]string, 0, len(arrays))
	for k := range arrays {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := zw.Write(k, arrays[k]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// npyOf writes one array as an .npy with npyio.
func npyOf(t *testing.T, v any) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := npy.Write(&out, v); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func int64s(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}
