package web

import (
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/scores"
)

// CheckFileHead refuses, before the whole file is read, a file the page
// cannot analyse: one larger than limits.MaxFileBytes (checked on size
// alone), or one whose first bytes (head, up to scores.SniffBytes) are a
// compressed or binary file (scores.Sniff). The sentence names the file,
// what is wrong and what to do, with the command line's wording.
func CheckFileHead(name string, size float64, head []byte) error {
	if err := limits.CheckFileSize(name, size); err != nil {
		return err
	}
	if err := scores.Sniff(head); err != nil {
		return fmt.Errorf("Could not read %s: %w", name, err)
	}
	return nil
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
