package scores

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestWriteCSVRoundTrip writes matrices with awkward names and extreme
// numbers and checks Parse gives back exactly the same matrix.
func TestWriteCSVRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		m    *Matrix
	}{
		{"plain", &Matrix{Classes: []string{"a", "b"}, Labels: []int{0, 1, 1}, Scores: []float64{0.1, 0.2, -3e-300, 1e300, 1.0 / 3, math.SmallestNonzeroFloat64}}},
		{"quoted names", &Matrix{Classes: []string{"x,y", `say "hi"`, "semi;colon", "tab\there", "new\nline"}, Labels: []int{4, 0, 1, 2, 3},
			Scores: []float64{1, 2, 3, 4, 5, math.MaxFloat64, -math.MaxFloat64, 0, math.Pi, -0.5,
				6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteCSV(&buf, tc.m); err != nil {
				t.Fatal(err)
			}
			got, err := Parse(&buf)
			if err != nil {
				t.Fatalf("Parse(WriteCSV(m)): %v\n%s", err, buf.String())
			}
			if !slices.Equal(got.Classes, tc.m.Classes) || !slices.Equal(got.Labels, tc.m.Labels) || !slices.Equal(got.Scores, tc.m.Scores) {
				t.Errorf("round trip changed the matrix:\n got %+v\nwant %+v", got, tc.m)
			}
		})
	}
}

func TestWriterErrors(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.WriteHeader([]string{"only"}); !errors.Is(err, ErrFewClasses) {
		t.Errorf("one-class header error = %v, want ErrFewClasses", err)
	}
	if err := w.WriteHeader([]string{"a", "b"}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRow(0, []float64{1}); !errors.Is(err, ErrFieldCount) {
		t.Errorf("short row error = %v, want ErrFieldCount", err)
	}
	if err := w.WriteRow(2, []float64{1, 2}); err == nil || !strings.Contains(err.Error(), "label index 2") {
		t.Errorf("bad label error = %v", err)
	}
	if err := w.WriteRow(1, []float64{1, 2}); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	if want := "label,a,b\nb,1,2\n"; buf.String() != want {
		t.Errorf("output %q, want %q", buf.String(), want)
	}
}

// TestWriterDigits checks that Digits rounds every score to that many
// significant digits (within half a unit in the last written place) and that
// the file parses back.
func TestWriterDigits(t *testing.T) {
	scores := []float64{1.0 / 3, 2.718281828459045, -1234.56789012345, 6.02214076e23, 1e-7 / 3, 0, 9.99951, -0.000123456, 42}
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Digits = 4
	if err := w.WriteHeader([]string{"a", "b", "c"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(scores); i += 3 {
		if err := w.WriteRow(i/3%3, scores[i:i+3]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "0.3333,2.718,-1235") {
		t.Errorf("CSV = %q, want the first row rounded to 4 digits", b.String())
	}
	m, err := Parse(&b)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range m.Scores {
		if tol := 0.5e-3 * math.Abs(scores[i]); math.Abs(v-scores[i]) > tol {
			t.Errorf("score %d = %v, want %v to 4 significant digits", i, v, scores[i])
		}
	}
}
