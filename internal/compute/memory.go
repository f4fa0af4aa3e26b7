package compute

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"

	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/summary"
)

// Need is what preparing a file is estimated to take (PrepareNeed).
type Need struct {
	// Points and Classes are the pilot's size as estimated from the
	// file's first bytes (0 when they do not tell).
	Points, Classes int
	// Bytes is the estimated peak memory of the worker that prepares it.
	Bytes float64
	// PerWorker is the estimated memory each compute worker takes for the
	// prepared data set: its binary form received, read and kept
	// (workerPeak times BinaryBytes).
	PerWorker float64
}

// workerPeak is a compute worker's peak memory for a prepared data set as
// a multiple of its binary form: the message's bytes, the point summaries
// read from them and the Sample built from those, and the garbage
// collector's margin.
const workerPeak = 4

// BinaryBytes is the size of the binary form (summary.AppendBinary) of a
// pilot of n points and k classes with the default quantile steps and one
// precomputed array: 12 + 8 (4 + ranks + 1) bytes per point, ranks the
// number of knot ranks (about 1.1 kB per point at 150 classes, 1.25 kB at
// 10,000).
func BinaryBytes(n, k int) float64 {
	ranks := 150
	if k >= 2 {
		ranks = len(summary.KnotRanks(k, summary.DefaultQuantiles))
	}
	return float64(n) * float64(12+8*(4+ranks)+8)
}

// Memory that PrepareNeed counts besides the data: the worker's program,
// its runtime and read buffers.
const prepareBaseBytes = 80e6

// matrixPeak is the peak memory of a parsed score matrix per score, as a
// multiple of its 8 bytes: the parser gathers the rows in chunks and joins
// them once (twice the matrix for a moment), and the garbage collector
// runs at prepareGCPercent above what is live.
const matrixPeak = 2 * (1 + prepareGCPercent/100.0)

// pointPeak is the memory per test point of its summary while the Sample
// is assembled and written in binary form: the point summaries, the
// Sample's copy of them and the binary form, at about 150 knot ranks
// (summary.KnotRanks at 2,000 classes and the default quantile steps).
const pointPeak = 3 * (12 + 8*(5+150))

// gzipRatio is the size of a gzip-compressed CSV of scores, decompressed,
// per compressed byte, assumed when the file's first bytes do not tell.
const gzipRatio = 3.0

// PrepareNeed estimates the peak memory of the worker that prepares a
// pilot file of size bytes (Prepare) from its first bytes head (up to
// scores.SniffBytes). For a CSV (decompressed first when gzip-compressed:
// the head then tells the compression ratio) it reads K from the header
// row and the bytes per row from the complete rows that follow; the
// parsed score matrix dominates (matrixPeak x 8 bytes per score) with
// the points' summaries (pointPeak each). An .npz is read whole and
// decoded: about six times its size at most (float32 scores taking 8
// bytes once decoded, twice while they are joined). It is an estimate for
// refusing a file the tab cannot hold before it is read, not a bound.
func PrepareNeed(size float64, head []byte) Need {
	f, err := inputs.Detect(head)
	if err != nil {
		return Need{Bytes: prepareBaseBytes + matrixPeak*size}
	}
	// An .npz (scores or embeddings) as float32: 4 bytes per number; its
	// points' summaries in the workers as if the numbers were a square
	// matrix (at most that many points for as many classes), or for
	// embeddings of d = 128 one point per 512 bytes, whichever is more.
	npzWorker := workerPeak * BinaryBytes(int(max(math.Sqrt(size/4), size/512)), 0)
	text, textSize := head, size
	switch f {
	case inputs.Gzip:
		out, ratio := gunzipHead(head)
		if ratio <= 0 {
			ratio = gzipRatio
		}
		text, textSize = out, size*ratio
	case inputs.CSV:
	default:
		return Need{Bytes: prepareBaseBytes + 6*size, PerWorker: npzWorker}
	}
	k, rowBytes, headerBytes := csvShape(text)
	if k < 1 || rowBytes <= 0 {
		// Without a complete row: at least 2 bytes per score ("0,"), and
		// at least as many classes as points.
		cells := textSize / 2
		n := math.Sqrt(cells)
		if k >= 1 {
			n = cells / float64(k)
		}
		return Need{Classes: k, Bytes: prepareBaseBytes + matrixPeak*8*cells, PerWorker: workerPeak * BinaryBytes(int(n), k)}
	}
	n := max(textSize-headerBytes, 0) / rowBytes
	cells := n * float64(k)
	return Need{Points: int(n), Classes: k, Bytes: prepareBaseBytes + matrixPeak*8*cells + pointPeak*n,
		PerWorker: workerPeak * BinaryBytes(int(n), k)}
}

// gunzipHead decompresses as much of the gzip stream's first bytes as
// they hold, and returns it with the ratio of decompressed to compressed
// bytes (0 when nothing came out).
func gunzipHead(head []byte) ([]byte, float64) {
	zr, err := gzip.NewReader(bytes.NewReader(head))
	if err != nil {
		return nil, 0
	}
	out, _ := io.ReadAll(io.LimitReader(zr, 8<<20))
	if len(out) == 0 {
		return nil, 0
	}
	// The last compressed bytes may not have produced their output yet:
	// the ratio is a little low, the error small at 64 KiB.
	return out, float64(len(out)) / float64(len(head))
}

// csvShape reads, from the first bytes of a wide score CSV, the number of
// class columns (the header's fields less the label column; 0 when the
// header row is not complete), the mean length in bytes of the complete
// data rows that follow (0 when there are none) and the header row's
// length.
func csvShape(text []byte) (k int, rowBytes, headerBytes float64) {
	text = bytes.TrimPrefix(text, []byte("\uFEFF"))
	nl := bytes.IndexByte(text, '\n')
	if nl < 0 {
		return 0, 0, 0
	}
	header := text[:nl]
	// The delimiter is the most frequent of the three, as scores.Parse
	// finds it; fields - 1 of them are classes (one is the label).
	for _, d := range []byte{',', ';', '\t'} {
		k = max(k, bytes.Count(header, []byte{d}))
	}
	rest := text[nl+1:]
	last := bytes.LastIndexByte(rest, '\n')
	if last < 0 {
		return k, 0, float64(nl + 1)
	}
	rows := bytes.Count(rest[:last+1], []byte{'\n'})
	return k, float64(last+1) / float64(rows), float64(nl + 1)
}
