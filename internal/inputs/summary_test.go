package inputs

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/summary"
)

// TestSummaryFile: a summary CSV, plain or gzip-compressed, reads as a
// summary whose Sample has the matrix's R_x and observed curve; a summary
// is refused with the direction lower, and when its scores look like
// distances that were not negated.
func TestSummaryFile(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "summary", "testdata", "tiny_summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw)
	zw.Close()
	m, err := Read(bytes.NewReader(mustRead(t, "tiny.csv")))
	if err != nil {
		t.Fatal(err)
	}
	want, used, err := m.Sample(scores.Auto)
	if err != nil || used != scores.Lower {
		t.Fatalf("tiny.csv: %v, direction %v, want lower (distances, negated in the summary)", err, used)
	}
	// The same summary with its fields separated by semicolons or tabs, as
	// a score matrix's may be (it was read as a score matrix and refused
	// for a label that names no class column).
	for name, b := range map[string][]byte{
		"comma":     raw,
		"gzip":      gz.Bytes(),
		"semicolon": bytes.ReplaceAll(raw, []byte(","), []byte(";")),
		"tab":       bytes.ReplaceAll(raw, []byte(","), []byte("\t")),
		"tab, CRLF": bytes.ReplaceAll(bytes.ReplaceAll(raw, []byte(","), []byte("\t")), []byte("\n"), []byte("\r\n")),
	} {
		d, err := Read(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d.Summary == nil || d.Matrix != nil {
			t.Fatalf("%s: the summary was not read as one", name)
		}
		s, used, err := d.Sample(scores.Auto)
		if err != nil || used != scores.Higher {
			t.Fatalf("Sample: %v, %v", err, used)
		}
		if !slices.Equal(s.R, want.R) || !slices.Equal(s.Observed, want.Observed) || !slices.Equal(d.Summary.Classes, m.Matrix.Classes) {
			t.Error("the summary's R_x, observed curve or classes differ from the matrix's")
		}
		if _, _, err := d.Sample(scores.Lower); err == nil || !strings.Contains(err.Error(), "higher-is-better") {
			t.Errorf("direction lower: %v", err)
		}
	}
	// The same pilot summarised the wrong way round (distances kept as
	// they are).
	var flipped bytes.Buffer
	if _, err := summary.Write(&flipped, m.Matrix, scores.Higher, 8); err != nil {
		t.Fatal(err)
	}
	d, err := Read(&flipped)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Sample(scores.Auto); !errors.Is(err, ErrSummaryDirection) {
		t.Errorf("a summary of distances kept as they are: %v, want ErrSummaryDirection", err)
	}
	// Told that higher is better, it is taken as it is (a classifier near
	// chance may lose more pairs than it wins).
	if _, used, err := d.Sample(scores.Higher); err != nil || used != scores.Higher {
		t.Errorf("the same summary with direction higher: %v, %v", used, err)
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWordClassesNotSummary: a score matrix whose classes are words, among
// them correct, below and ties, is read as a score matrix, not refused as
// a malformed summary.
func TestWordClassesNotSummary(t *testing.T) {
	const in = "label,correct,below,ties,apple\ncorrect,0.9,0.1,0.2,0.1\nbelow,0.1,0.8,0.3,0.1\nties,0.2,0.1,0.9,0.1\napple,0.2,0.1,0.1,0.9\n"
	d, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if d.Matrix == nil || !slices.Equal(d.Matrix.Classes, []string{"correct", "below", "ties", "apple"}) {
		t.Errorf("read as %+v, want a score matrix of the classes correct, below, ties, apple", d)
	}
}
