package web

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cleanex/cleanex/internal/compute"
	"github.com/cleanex/cleanex/internal/embed"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/protocol"
)

// PrepareBytes is the file size from which the page prepares a pilot in
// one worker (protocol.Prepare) instead of sending the file to every
// worker. Sent to every worker, a CSV is held by each as its bytes, the
// parsed matrix and the Sample's two copies of the scores: about four
// times the file per worker at its peak (measured: a 67 MB file took the
// tab from 350 MB to 1.15 GB with two workers and the spare; with eight
// workers a 32 MB file would take about 1.2 GB). Prepared, one worker
// holds the parsed matrix for a while and every worker only the per-point
// summaries (about 1.3 kB per point from 150 classes on): 464 MB for the
// same file, and no slower (8.9 s to every method's answer against 10.2 s;
// 5.8 s against 5.9 s for a 17 MB file), because the fits that do not need
// KDE's C_x start while that worker computes them. What the prepared path
// gives up is CleaneX's paper preset, which needs every score (and at these
// sizes would take hours in a tab), and KDE's exact C_x for another
// bandwidth setting than the page's. 32 MB (about 1.8 million scores)
// keeps both for small pilots and the tab's memory near 1 GB or below.
const PrepareBytes = 32 << 20

// maxPrepareBudget is the most memory the page lets a prepared file take
// in the tab: the worker that prepares it, a WebAssembly program, addresses
// at most 4 GB, less its program and runtime.
const maxPrepareBudget = 3.5e9

// PrepareBudget returns the memory the page lets a prepared file take in
// the tab (the preparing worker's peak and the compute workers' share):
// maxPrepareBudget, and at most half the machine's memory when the browser
// tells it (deviceGB, navigator.deviceMemory, which Chromium gives up to
// 8; 0 when unknown), but never less than 1 GB.
func PrepareBudget(deviceGB float64) float64 {
	if deviceGB <= 0 {
		return maxPrepareBudget
	}
	return min(maxPrepareBudget, max(1e9, deviceGB*1e9/2))
}

// CheckPrepare refuses, before it is read, a file of size bytes whose first
// bytes are head when preparing it would take more memory in the tab than
// budget: the preparing worker's peak and each of workers compute workers'
// share (compute.PrepareNeed). The refusal is one sentence without its
// final period, naming the file, its estimated shape, what it needs and
// what to do instead.
func CheckPrepare(name string, size float64, head []byte, budget float64, workers int) error {
	need := compute.PrepareNeed(size, head)
	total := need.Bytes + float64(workers)*need.PerWorker
	if total <= budget {
		return nil
	}
	shape := ""
	if need.Points > 0 && need.Classes > 0 {
		shape = fmt.Sprintf(", about %s points × %s classes", limits.Thousands(need.Points), limits.Thousands(need.Classes))
	}
	return fmt.Errorf("%s (%s%s) would need about %s of memory in this tab to be read, more than the %s it can use; summarise it with the command line and give the summary to the page (cleanex summarise %s > summary.csv), or run cleanex predict --k2 N %s on it",
		name, limits.HumanBytes(size), shape, limits.HumanBytes(total), limits.HumanBytes(budget), name, name)
}

// LooksLikeEmbeddings reports whether a file's first bytes (up to
// scores.SniffBytes) show labelled embeddings: a CSV or TSV whose header
// row starts with the cells "set" and "label", or a zip archive (.npz)
// whose entries, as far as head holds them, include an embeddings array
// and no scores.npy, either of them possibly gzip-compressed. A file it misses is still read as embeddings by
// the workers (compute.Load), with the default scoring.
func LooksLikeEmbeddings(head []byte) bool {
	if bytes.HasPrefix(head, []byte("\x1f\x8b")) {
		// gzip: look at as much of the content as the head decompresses to.
		zr, err := gzip.NewReader(bytes.NewReader(head))
		if err != nil {
			return false
		}
		inner, _ := io.ReadAll(io.LimitReader(zr, int64(len(head))*4))
		return len(inner) > 0 && !bytes.HasPrefix(inner, []byte("\x1f\x8b")) && LooksLikeEmbeddings(inner)
	}
	if bytes.HasPrefix(head, []byte("PK\x03\x04")) {
		found := false
		for _, name := range zipNames(head) {
			switch {
			case name == "scores.npy":
				return false
			case slices.Contains(inputs.EmbeddingArrays(), name):
				found = true
			}
		}
		return found
	}
	_, ok := inputs.EmbeddingsHeader(head)
	return ok
}

// zipNames returns the names of the zip entries whose local headers head
// holds, in order: every "PK\x03\x04" signature followed by a plausible
// NumPy array name (an entry's size may be given only after its data, so
// the headers are found by their signature rather than followed).
func zipNames(head []byte) []string {
	var names []string
	sig := []byte("PK\x03\x04")
	for off := 0; ; off++ {
		i := bytes.Index(head[off:], sig)
		if i < 0 {
			return names
		}
		off += i
		if off+30 > len(head) {
			return names
		}
		n := int(binary.LittleEndian.Uint16(head[off+26:]))
		if n == 0 || n > 255 || off+30+n > len(head) {
			continue
		}
		name := string(head[off+30 : off+30+n])
		if strings.HasSuffix(name, ".npy") && printable(name) {
			names = append(names, name)
		}
	}
}

// printable reports whether s is printable ASCII.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// ScoringLine says how a pilot given as embeddings was scored, e.g. "test
// embeddings (d = 128) scored by Euclidean distance to 10,000 class
// centroids (of 50,000 training embeddings)"; "" for scores.
func ScoringLine(e protocol.Embedding, k int) string {
	if e.Metric == "" {
		return ""
	}
	set := "training"
	if e.RefSet == "gallery" {
		set = "gallery"
	}
	var to string
	switch e.Reference {
	case "1nn":
		to = fmt.Sprintf("the nearest of each class's %s embeddings (1-NN; %s of them)", set, limits.Thousands(e.References))
	case "oneshot":
		to = fmt.Sprintf("the one %s embedding of each class", set)
	default:
		to = fmt.Sprintf("%s class centroids (of %s %s embeddings)", limits.Thousands(k), limits.Thousands(e.References), set)
	}
	metric, _ := embed.ParseMetric(e.Metric) // the worker's own name for it
	return fmt.Sprintf("test embeddings (d = %d) scored by %s to %s", e.Dim, metric.Words(), to)
}

// PrepareBusy is the busy line while a file is prepared in one worker:
// "Reading big.csv… 42%" while its bytes are read (stage
// compute.StageReading, done of total bytes), "Summarising big.csv… 42%"
// while its points are summarised (compute.StageSummarising); without a
// total, no percentage.
func PrepareBusy(source, stage string, done, total int) string {
	verb := "Reading"
	if stage == compute.StageSummarising {
		verb = "Summarising"
	}
	line := verb + " " + source + "…"
	if total > 0 {
		line += fmt.Sprintf(" %d%%", min(100, 100*done/total))
	}
	return line
}
