package web

import (
	"strings"
	"testing"
)

// TestCheckFileHead: a CSV passes; a file above the page's limit is refused
// on its size alone, naming the limit and the command line; a compressed or
// binary file is refused from its first bytes with the command line's words.
func TestCheckFileHead(t *testing.T) {
	for _, tc := range []struct {
		name string
		size float64
		head string
		want string // "" when accepted
	}{
		{"a.csv", 20, "label,a,b\na,1,2\n", ""},
		{"zeros.bin", 2e9, "\x00\x00\x00", "zeros.bin is 2 GB, more than the 250 MB this page reads; run the command line on it instead: cleanex predict --k2 N zeros.bin"},
		{"big.csv", 3e8, "label,a,b\n", "big.csv is 300 MB, more than the 250 MB this page reads"},
		{"zeros.bin", 1e8, "\x00\x00\x00", "Could not read zeros.bin: row 1: not valid UTF-8 text: the file holds NUL bytes (a binary, compressed or UTF-16 file?); give a UTF-8 CSV of scores"},
		{"s.csv.gz", 1e3, "\x1f\x8b\x08\x00", "Could not read s.csv.gz: row 1: not valid UTF-8 text: this is a gzip-compressed file; decompress it (gunzip) and give the CSV inside"},
	} {
		err := CheckFileHead(tc.name, tc.size, []byte(tc.head))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s (%g bytes): %v, want %q", tc.name, tc.size, err, tc.want)
		}
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
