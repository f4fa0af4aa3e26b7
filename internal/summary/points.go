package summary

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/cleanex/cleanex/internal/accuracy"
)

// pointsMagic starts the binary form of a range of points.
const pointsMagic = "CXP1"

// PointsFixed is the length of the fixed start of the binary form of a
// range of points: "CXP1", From, To and H (uint32 each).
const PointsFixed = 16

// AppendPoints appends to b the binary form of points from..from+len(pts)-1
// of a summarised Sample of n points and k classes, at knot ranks ranks,
// with one precomputed array (key) of which c holds the range's values: what
// one of several workers that summarise a pilot by ranges of points
// (embed.SummariseRange) hands to the page, which joins the ranges
// (AssemblePlan, Assemble) into the binary form of the whole Sample
// (AppendBinary, ReadBinary) without decoding them. Little-endian: "CXP1",
// from, to and H (uint32); H bytes, the start of the whole Sample's binary
// form up to its precomputed values ("CXS1", K, N, the number of ranks and
// the ranks, 1, key); the range's len(pts) precomputed values (float64),
// then its per-point records as AppendBinary writes them.
func AppendPoints(b []byte, k, n int, ranks []int, key string, from int, pts []accuracy.PointSummary, c []float64) ([]byte, error) {
	if len(c) != len(pts) || from < 0 || from+len(pts) > n || len(key) > math.MaxUint16 {
		return b, fmt.Errorf("summary: %d points and %d values from point %d of %d (key %d bytes): they do not fit", len(pts), len(c), from, n, len(key))
	}
	u32 := func(v int) { b = binary.LittleEndian.AppendUint32(b, uint32(v)) }
	f64 := func(v float64) { b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v)) }
	b = append(b, pointsMagic...)
	u32(from)
	u32(from + len(pts))
	at := len(b)
	u32(0) // H, written below
	start := len(b)
	b = append(b, binaryMagic...)
	u32(k)
	u32(n)
	u32(len(ranks))
	for _, r := range ranks {
		u32(r)
	}
	u32(1)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(key)))
	b = append(b, key...)
	binary.LittleEndian.PutUint32(b[at:], uint32(len(b)-start))
	for _, v := range c {
		f64(v)
	}
	for _, p := range pts {
		if len(p.Values) != len(ranks) {
			return b, fmt.Errorf("summary: a point with %d knot values at %d ranks", len(p.Values), len(ranks))
		}
		b = appendPoint(b, p)
	}
	return b, nil
}

// PointsHead is what the fixed start of a range's binary form says:
// its points From..To-1 and the length H of the whole Sample's head that
// follows.
type PointsHead struct {
	From, To, H int
}

// ReadPointsHead reads the first PointsFixed bytes of a range's binary form.
func ReadPointsHead(b []byte) (PointsHead, error) {
	if len(b) < PointsFixed || string(b[:len(pointsMagic)]) != pointsMagic {
		return PointsHead{}, fmt.Errorf("summary: a range of points: it does not start with %s", pointsMagic)
	}
	u := func(i int) int { return int(binary.LittleEndian.Uint32(b[4+4*i:])) }
	h := PointsHead{From: u(0), To: u(1), H: u(2)}
	if h.To < h.From || h.H < len(binaryMagic)+18 {
		return PointsHead{}, fmt.Errorf("summary: a range of points: its sizes are out of range")
	}
	return h, nil
}

// Piece is Len bytes at Off in range Part's binary form.
type Piece struct {
	Part, Off, Len int
}

// AssemblePlan returns how the binary forms of ranges of points join into
// the binary form of their whole Sample (AppendBinary): the pieces of the
// ranges that, one after the other, make its total bytes. heads holds each
// range's first PointsFixed+H bytes (at least), sizes each range's length;
// the ranges, in any order, must cover the Sample's points once, with the
// same Sample head. Nothing is copied: the page joins the pieces in
// JavaScript, Assemble in Go.
func AssemblePlan(heads [][]byte, sizes []int) (pieces []Piece, total int, err error) {
	if len(heads) == 0 || len(heads) != len(sizes) {
		return nil, 0, fmt.Errorf("summary: %d range heads for %d ranges", len(heads), len(sizes))
	}
	ph := make([]PointsHead, len(heads))
	var sample []byte
	for i, b := range heads {
		if ph[i], err = ReadPointsHead(b); err != nil {
			return nil, 0, err
		}
		if len(b) < PointsFixed+ph[i].H {
			return nil, 0, fmt.Errorf("summary: range %d: its head is cut short", i)
		}
		s := b[PointsFixed : PointsFixed+ph[i].H]
		if i == 0 {
			sample = s
		} else if !bytes.Equal(s, sample) {
			return nil, 0, fmt.Errorf("summary: ranges %d and 0 are of different Samples", i)
		}
	}
	n := int(binary.LittleEndian.Uint32(sample[8:]))
	nr := int(binary.LittleEndian.Uint32(sample[12:]))
	rec := 12 + 8*(4+nr)
	order := make([]int, 0, len(heads))
	for covered := 0; covered < n || len(order) < len(heads); {
		next := -1
		for i, h := range ph {
			// The empty ranges at covered first, then the one that goes on.
			if h.From == covered && (next < 0 || h.To == h.From) && !slices.Contains(order, i) {
				next = i
			}
		}
		if next < 0 {
			return nil, 0, fmt.Errorf("summary: the ranges do not cover points %d.. of %d once", covered, n)
		}
		order = append(order, next)
		covered = ph[next].To
		if covered > n {
			return nil, 0, fmt.Errorf("summary: a range ends at point %d of %d", covered, n)
		}
	}
	for _, i := range order {
		m := ph[i].To - ph[i].From
		if sizes[i] != PointsFixed+ph[i].H+m*(8+rec) {
			return nil, 0, fmt.Errorf("summary: range %d: %d bytes do not match its %d points", i, sizes[i], m)
		}
	}
	pieces = append(pieces, Piece{Part: order[0], Off: PointsFixed, Len: len(sample)})
	total = len(sample)
	for _, i := range order { // the precomputed values
		m := ph[i].To - ph[i].From
		pieces = append(pieces, Piece{Part: i, Off: PointsFixed + ph[i].H, Len: 8 * m})
		total += 8 * m
	}
	for _, i := range order { // the per-point records
		m := ph[i].To - ph[i].From
		pieces = append(pieces, Piece{Part: i, Off: PointsFixed + ph[i].H + 8*m, Len: m * rec})
		total += m * rec
	}
	return pieces, total, nil
}

// Assemble joins the binary forms of ranges of points (AppendPoints) into
// the binary form of their whole Sample (AppendBinary), as the page does
// in JavaScript (AssemblePlan).
func Assemble(parts [][]byte) ([]byte, error) {
	sizes := make([]int, len(parts))
	for i, p := range parts {
		sizes[i] = len(p)
	}
	pieces, total, err := AssemblePlan(parts, sizes)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, total)
	for _, pc := range pieces {
		out = append(out, parts[pc.Part][pc.Off:pc.Off+pc.Len]...)
	}
	return out, nil
}
