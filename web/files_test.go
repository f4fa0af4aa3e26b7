package web

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/inputs"
)

// detectErr is inputs.Detect's sentence for head.
func detectErr(t *testing.T, head string) string {
	t.Helper()
	_, err := inputs.Detect([]byte(head))
	if err == nil {
		t.Fatalf("inputs.Detect(%q) accepts it", head)
	}
	return err.Error()
}

// npyHead is the start of a NumPy .npy file (format 1.0) holding float64s of shape.
func npyHead(shape string) string {
	h := fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': %s, }", shape)
	for (10+len(h)+1)%64 != 0 {
		h += " "
	}
	h += "\n"
	return "\x93NUMPY\x01\x00" + string([]byte{byte(len(h)), byte(len(h) >> 8)}) + h + strings.Repeat("\x00", 16)
}

// TestCheckFileHead: a CSV and a gzip-compressed file pass, with their
// format, whatever their size (a large one is prepared in one worker); an
// unknown binary file is refused from its first bytes with inputs.Detect's
// sentence.
func TestCheckFileHead(t *testing.T) {
	for _, tc := range []struct {
		name   string
		size   float64
		head   string
		format inputs.Format
		want   string // "" when accepted
	}{
		{"a.csv", 20, "label,a,b\na,1,2\n", inputs.CSV, ""},
		{"s.csv.gz", 1e3, "\x1f\x8b\x08\x00", inputs.Gzip, ""},
		{"s.npy", 1e3, npyHead("(2, 3)"), inputs.NPY, ""},
		{"zeros.bin", 2e9, "\x00\x00\x00", 0, "Could not read zeros.bin: " + detectErr(t, "\x00\x00\x00")},
		{"big.csv", 3e9, "label,a,b\n", inputs.CSV, ""},
		{"zeros.bin", 1e8, "\x00\x00\x00", 0, "Could not read zeros.bin: " + detectErr(t, "\x00\x00\x00")},
	} {
		f, err := CheckFileHead(tc.name, tc.size, []byte(tc.head))
		switch {
		case tc.want == "" && (err != nil || f != tc.format):
			t.Errorf("%s: %v, %v; want format %v", tc.name, f, err, tc.format)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s (%g bytes): %v, want %q", tc.name, tc.size, err, tc.want)
		}
	}
}

// TestCheckPicked: one pilot file is loaded as it is and two .npy files
// as a pair; a lone .npy, several files, two files that are not both .npy
// and a pair too large together are refused with one sentence naming the
// files and what to give instead.
func TestCheckPicked(t *testing.T) {
	csv := Picked{"a.csv", 20, []byte("label,a,b\na,1,2\n")}
	scores := Picked{"scores.npy", 1e3, []byte(npyHead("(2, 3)"))}
	labels := Picked{"labels.npy", 1e3, []byte(npyHead("(2,)"))}
	fake := Picked{"fake.npy", 20, []byte("label,a,b\na,1,2\n")}
	big := func(p Picked) Picked { p.Size = 2e8; return p }
	for _, tc := range []struct {
		what  string
		files []Picked
		pair  bool
		want  string // "" when accepted
	}{
		{"one CSV", []Picked{csv}, false, ""},
		{"an npy pair", []Picked{scores, labels}, true, ""},
		{"an npy pair, labels first", []Picked{labels, scores}, true, ""},
		{"nothing", nil, false, "no file was given"},
		{"a lone npy", []Picked{scores}, false, "Could not read scores.npy: an .npy holds one array: give the scores and the labels .npy together (drop or choose both at once), or one .npz"},
		{"a CSV and an npy", []Picked{csv, scores}, false, "You gave a.csv and scores.npy together: only the two .npy files of one pilot (its scores and its labels) go together; give one pilot file at a time"},
		{"an npy that is not one", []Picked{scores, fake}, false, "You gave scores.npy and fake.npy together: only the two .npy files"},
		{"five files", []Picked{csv, csv, csv, csv, csv}, false, "You gave 5 files at once (a.csv, a.csv, a.csv, and 2 more): give one pilot file, or the two .npy files of one pilot (its scores and its labels) together"},
		{"five files, heads not read", []Picked{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}}, false, "You gave 5 files at once"},
		{"an npy pair too large", []Picked{big(scores), big(labels)}, false, "scores.npy + labels.npy are 400 MB together, more than the 250 MB this page reads; run the command line on them instead (cleanex predict)"},
		{"a binary file with an npy", []Picked{scores, {"zeros.bin", 3, []byte("\x00\x00\x00")}}, false, "Could not read zeros.bin: "},
	} {
		pair, err := CheckPicked(tc.files)
		switch {
		case tc.want == "" && (err != nil || pair != tc.pair):
			t.Errorf("%s: pair %v, %v; want pair %v", tc.what, pair, err, tc.pair)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.what, err, tc.want)
		case err != nil && (strings.HasSuffix(err.Error(), ".") || strings.Contains(err.Error(), ". ")):
			t.Errorf("%s: %q is not one sentence without its final period", tc.what, err)
		}
	}
}

// TestPackPair: the example pair of .npy files packs into an .npz that
// reads as the same pilot whichever file comes first; two score arrays
// are refused with a sentence naming both files.
func TestPackPair(t *testing.T) {
	dir := filepath.Join("..", "internal", "inputs", "testdata")
	s, err := os.ReadFile(filepath.Join(dir, "tiny_scores.npy"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := os.ReadFile(filepath.Join(dir, "tiny_labels.npy"))
	if err != nil {
		t.Fatal(err)
	}
	var got [2]*inputs.Data
	for i, order := range [][2]string{{"tiny_scores.npy", "tiny_labels.npy"}, {"tiny_labels.npy", "tiny_scores.npy"}} {
		a, b := s, l
		if i == 1 {
			a, b = l, s
		}
		npz, err := PackPair(order[0], a, order[1], b)
		if err != nil {
			t.Fatalf("%v: %v", order, err)
		}
		if f, err := inputs.Detect(npz); err != nil || f != inputs.NPZ {
			t.Fatalf("%v: the packed bytes are %v, %v; want an .npz", order, f, err)
		}
		if got[i], err = inputs.Read(bytes.NewReader(npz)); err != nil || got[i].Matrix == nil {
			t.Fatalf("%v: reading the packed .npz: %v", order, err)
		}
	}
	m0, m1 := got[0].Matrix, got[1].Matrix
	if len(m0.Classes) != len(m1.Classes) || len(m0.Labels) != len(m1.Labels) || len(m0.Labels) == 0 {
		t.Errorf("the two orders read differently: %d x %d and %d x %d", len(m0.Labels), len(m0.Classes), len(m1.Labels), len(m1.Classes))
	}
	_, err = PackPair("s.npy", s, "t.npy", s)
	if err == nil || !strings.HasPrefix(err.Error(), "Could not read s.npy + t.npy: ") || strings.HasSuffix(err.Error(), ".") {
		t.Errorf("two score arrays: %v", err)
	}
}

// TestReadFailed: each way a read can fail gives one sentence naming the
// file, what happened and what to do.
func TestReadFailed(t *testing.T) {
	for _, tc := range []struct {
		jsName, msg, want string
	}{
		{"NotReadableError", "The requested file could not be read, typically due to permission problems that have occurred after a reference to a file was acquired.",
			"Could not read s.csv: the browser can no longer read it (it was moved, deleted or changed after you chose it); choose or drop it again."},
		{"NotFoundError", "A requested file or directory could not be found at the time an operation was processed.", "the browser can no longer read it"},
		{"RangeError", "Array buffer allocation failed",
			"Could not read s.csv: this tab ran out of memory holding its 120 MB; close other tabs and try again, or run the command line on it (cleanex predict)."},
		{"", "Out of memory", "this tab ran out of memory"},
		{"TypeError", "file.arrayBuffer is not a function.", "Could not read s.csv: file.arrayBuffer is not a function."},
	} {
		got := ReadFailed("s.csv", 1.2e8, tc.jsName, tc.msg)
		if !strings.HasPrefix(got, "Could not read s.csv: ") || !strings.Contains(got, tc.want) || strings.Count(got, ". ") > 0 {
			t.Errorf("%s %q: %q, want one sentence with %q", tc.jsName, tc.msg, got, tc.want)
		}
	}
	for why, want := range map[string]string{
		"RangeError: WebAssembly.Memory.grow(): Maximum memory size exceeded": "ran out of memory reading it",
		"panic: index out of range": "stopped (panic: index out of range) while reading the data and was restarted with your previous data; please try again",
	} {
		if got := WorkerStoppedLoading(why); !strings.Contains(got, want) {
			t.Errorf("WorkerStoppedLoading(%q) = %q, want %q", why, got, want)
		}
	}
}

// TestPickerTakesEveryFormat: the file picker takes several files (an .npy
// pair) and lists every pilot extension; the drop zone names the formats.
func TestPickerTakesEveryFormat(t *testing.T) {
	html := render(t, NewState())
	i := strings.Index(html, `id="file"`)
	if i < 0 {
		t.Fatal("no file picker")
	}
	input := html[strings.LastIndex(html[:i], "<"):]
	input = input[:strings.Index(input, ">")]
	for _, want := range []string{`multiple="multiple"`, `accept="` + Accept + `"`} {
		if !strings.Contains(input, want) {
			t.Errorf("the picker %s lacks %s", input, want)
		}
	}
	for _, ext := range []string{".csv", ".tsv", ".gz", ".npz", ".npy", ".parquet"} {
		if !strings.Contains(","+Accept+",", ","+ext+",") {
			t.Errorf("Accept %q lacks %s", Accept, ext)
		}
	}
	zone := html[strings.Index(html, `id="dropzone"`):]
	zone = zone[:strings.Index(zone, "</div>")]
	for _, want := range []string{"CSV or TSV", "gzip", "Parquet", ".npz", ".npy", "Choose a file"} {
		if !strings.Contains(zone, want) {
			t.Errorf("the drop zone does not mention %s", want)
		}
	}
}
