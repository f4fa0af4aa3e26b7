package web

import (
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/limits"
)

// Accept is the file picker's accept attribute: the extensions of the
// pilot files the page reads (CSV or TSV, gzip-compressed or not, NumPy
// .npz and .npy, Parquet).
const Accept = ".csv,.tsv,.txt,.gz,.npz,.npy,.parquet"

// CheckFileHead refuses, before the whole file is read, a file the page
// cannot analyse: one whose first bytes (head, up to scores.SniffBytes) are
// not a pilot file of a format inputs.Detect knows. It returns the format
// the head shows. The sentence names the file, what is wrong and what to
// do, with the command line's wording. A large file is not refused on its
// size: the page prepares it in one worker, after CheckPrepare.
func CheckFileHead(name string, size float64, head []byte) (inputs.Format, error) {
	f, err := inputs.Detect(head)
	if err != nil {
		return 0, fmt.Errorf("Could not read %s: %w", name, err)
	}
	return f, nil
}

// Picked is a file given to the page (dropped, picked or passed to
// window.cleanex.load): its name, its size in bytes and its first bytes
// (up to scores.SniffBytes; nil when not read).
type Picked struct {
	Name string
	Size float64
	Head []byte
}

// CheckPicked decides, before the files are read in full, how the page
// loads the files given together: one file is loaded as it is (pair is
// false); two files must be the two NumPy .npy files of one pilot, its
// scores and its labels (CheckPair), packed into one .npz first (pair is
// true; PackPair). It refuses, with one sentence without its final period:
// no file; more than two files (on their count alone: their heads may be
// nil); a file that CheckFileHead refuses; a lone .npy.
func CheckPicked(files []Picked) (pair bool, err error) {
	switch n := len(files); n {
	case 0:
		return false, fmt.Errorf("no file was given")
	case 1:
		f, err := CheckFileHead(files[0].Name, files[0].Size, files[0].Head)
		if err != nil {
			return false, err
		}
		if f == inputs.NPY {
			return false, fmt.Errorf("Could not read %s: an .npy holds one array: give the scores and the labels .npy together (drop or choose both at once), or one .npz", files[0].Name)
		}
		return false, nil
	case 2:
		return true, CheckPair(files[0], files[1])
	default:
		return false, fmt.Errorf("You gave %d files at once (%s): give one pilot file, or the two .npy files of one pilot (its scores and its labels) together", n, listNames(files))
	}
}

// CheckPair refuses, with one sentence without its final period, two files
// given together that are not both NumPy .npy files (CheckFileHead refuses
// one, or its first bytes show another format), or that are together
// larger than limits.MaxFileBytes (the page packs them into one .npz
// itself, holding both).
func CheckPair(a, b Picked) error {
	for _, f := range []Picked{a, b} {
		format, err := CheckFileHead(f.Name, f.Size, f.Head)
		if err != nil {
			return err
		}
		if format != inputs.NPY {
			return fmt.Errorf("You gave %s and %s together: only the two .npy files of one pilot (its scores and its labels) go together; give one pilot file at a time", a.Name, b.Name)
		}
	}
	if total := a.Size + b.Size; total > limits.MaxFileBytes {
		return fmt.Errorf("%s are %s together, more than the %s this page reads; run the command line on them instead (cleanex predict)",
			PairName(a.Name, b.Name), limits.HumanBytes(total), limits.HumanBytes(limits.MaxFileBytes))
	}
	return nil
}

// PairName names a pair of .npy files as the page shows it: "a.npy + b.npy".
func PairName(a, b string) string { return a + " + " + b }

// PackPair packs the bytes of two .npy files named nameA and nameB (the
// scores, N x K, and the labels, N, in either order) into the bytes of one
// .npz (inputs.PackNPY). Its error is one sentence naming both files,
// without its final period.
func PackPair(nameA string, a []byte, nameB string, b []byte) ([]byte, error) {
	npz, err := inputs.PackNPY(a, b)
	if err != nil {
		return nil, fmt.Errorf("Could not read %s: %s", PairName(nameA, nameB), strings.TrimSuffix(err.Error(), "."))
	}
	return npz, nil
}

// listNames joins the names of files with ", ", the first three only.
func listNames(files []Picked) string {
	names := make([]string, 0, 4)
	for i, f := range files {
		if i == 3 {
			names = append(names, fmt.Sprintf("and %d more", len(files)-3))
			break
		}
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

// ReadFailed is the sentence the page shows when the browser could not read
// the file name of size bytes; jsName and msg are the JavaScript error's
// name and message. A file that is gone or changed since it was chosen is
// asked for again; an allocation that failed is reported as the tab being
// short of memory, with the command line as the way out.
func ReadFailed(name string, size float64, jsName, msg string) string {
	switch {
	case jsName == "NotFoundError" || jsName == "NotReadableError" || jsName == "NotAllowedError" || jsName == "AbortError":
		return fmt.Sprintf("Could not read %s: the browser can no longer read it (it was moved, deleted or changed after you chose it); choose or drop it again.", name)
	case jsName == "RangeError" || saysOutOfMemory(msg):
		return OutOfMemory(name, size)
	}
	return fmt.Sprintf("Could not read %s: %s.", name, strings.TrimSuffix(msg, "."))
}

// OutOfMemory is the sentence for a data set of size bytes (0 when not
// known) the tab had too little memory to hold.
func OutOfMemory(name string, size float64) string {
	what := "it"
	if size > 0 {
		what = "its " + limits.HumanBytes(size)
	}
	return fmt.Sprintf("Could not read %s: this tab ran out of memory holding %s; close other tabs and try again, or run the command line on it (cleanex predict).", name, what)
}

// WorkerStoppedLoading is why a load failed when the compute worker reading
// the data stopped (why is the worker's error): the worker was restarted
// with the previous data; a worker that ran out of memory points to the
// command line.
func WorkerStoppedLoading(why string) string {
	if saysOutOfMemory(why) || strings.Contains(strings.ToLower(why), "rangeerror") {
		return "the compute worker ran out of memory reading it (" + why + ") and was restarted with your previous data; use a smaller file, or run the command line on it (cleanex predict)"
	}
	return "the compute worker stopped (" + why + ") while reading the data and was restarted with your previous data; please try again"
}

// saysOutOfMemory reports whether an error message says that an
// allocation failed.
func saysOutOfMemory(msg string) bool {
	lower := strings.ToLower(msg)
	return strings.Contains(lower, "memory") || strings.Contains(lower, "allocation failed")
}
