package summary

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/cleanex/cleanex/internal/accuracy"
)

// binaryMagic starts the binary form of a summarised Sample.
const binaryMagic = "CXS1"

// AppendBinary appends the binary form of s, a Sample built from per-point
// summaries, to b: what a compute worker hands to the others instead of the
// scores. Little-endian: "CXS1", K, N, the number of knot ranks and the
// ranks (uint32 each); the number of precomputed arrays, then each one's key
// (uint16 length and bytes) and its N float64; then per point its label,
// below and ties (uint32) and its correct score, mean, m2, maxabs and knot
// values (float64).
func AppendBinary(b []byte, s *accuracy.Sample) ([]byte, error) {
	ranks := s.KnotRanks()
	if ranks == nil {
		return b, fmt.Errorf("summary: %w", errNotSummarised)
	}
	u32 := func(v int) { b = binary.LittleEndian.AppendUint32(b, uint32(v)) }
	f64 := func(v float64) { b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v)) }
	b = append(b, binaryMagic...)
	u32(s.K)
	u32(s.N())
	u32(len(ranks))
	for _, r := range ranks {
		u32(r)
	}
	keys := s.PrecomputedKeys()
	u32(len(keys))
	for _, k := range keys {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(k)))
		b = append(b, k...)
		for _, v := range s.Precomputed(k) {
			f64(v)
		}
	}
	for i := range s.N() {
		b = appendPoint(b, s.Point(i, nil))
	}
	return b, nil
}

// appendPoint appends the binary form of one point's summary: its label,
// below and ties (uint32) and its correct score, mean, m2, maxabs and knot
// values (float64), little-endian.
func appendPoint(b []byte, p accuracy.PointSummary) []byte {
	for _, v := range [...]int{p.Label, p.Below, p.Ties} {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	for _, v := range [...]float64{p.Correct, p.Mean, p.M2, p.MaxAbs} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	for _, v := range p.Values {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

var errNotSummarised = errors.New("only a Sample built from per-point summaries has a binary form")

// ReadBinary rebuilds the Sample whose binary form AppendBinary wrote; the
// result holds the same numbers, bit for bit.
func ReadBinary(b []byte) (*accuracy.Sample, error) {
	bad := func(what string) error { return fmt.Errorf("summary: binary form: %s", what) }
	if len(b) < len(binaryMagic) || string(b[:len(binaryMagic)]) != binaryMagic {
		return nil, bad("it does not start with " + binaryMagic)
	}
	b = b[len(binaryMagic):]
	var err error
	u32 := func() int {
		if len(b) < 4 {
			err = bad("cut short")
			return 0
		}
		v := binary.LittleEndian.Uint32(b)
		b = b[4:]
		return int(v)
	}
	f64 := func() float64 {
		if len(b) < 8 {
			err = bad("cut short")
			return 0
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64(b))
		b = b[8:]
		return v
	}
	k, n, nr := u32(), u32(), u32()
	if err != nil || nr > MaxClasses || n > len(b) {
		return nil, bad("its sizes are out of range")
	}
	ranks := make([]int, nr)
	for j := range ranks {
		ranks[j] = u32()
	}
	nkeys := u32()
	if err != nil || nkeys > 16 {
		return nil, bad("its precomputed arrays are out of range")
	}
	pre := map[string][]float64{}
	for range nkeys {
		if len(b) < 2 {
			return nil, bad("cut short")
		}
		l := int(binary.LittleEndian.Uint16(b))
		b = b[2:]
		if len(b) < l+8*n {
			return nil, bad("cut short")
		}
		key := string(b[:l])
		b = b[l:]
		v := make([]float64, n)
		for i := range v {
			v[i] = f64()
		}
		pre[key] = v
	}
	if len(b) != n*(12+8*(4+nr)) {
		return nil, bad("its length does not match its sizes")
	}
	pts := make([]accuracy.PointSummary, n)
	for i := range pts {
		p := accuracy.PointSummary{Label: u32(), Below: u32(), Ties: u32(),
			Correct: f64(), Mean: f64(), M2: f64(), MaxAbs: f64(), Values: make([]float64, nr)}
		for j := range p.Values {
			p.Values[j] = f64()
		}
		pts[i] = p
	}
	if err != nil {
		return nil, err
	}
	return accuracy.NewSummarisedSample(k, ranks, pts, pre)
}
