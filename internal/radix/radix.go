// Package radix sorts float64 values by their bits, for the rows of
// thousands of scores that every summary of a pilot sorts.
//
// It is written by hand because neither the standard library nor gonum has
// a non-comparison sort: slices.Sort (pattern-defeating quicksort) costs
// about n log2 n unpredictable comparisons, a least-significant-digit radix
// sort a few passes over the data.
package radix

import (
	"math"
	"slices"
)

// below is the length under which Float64s uses slices.Sort (a radix sort's
// fixed cost of its counts is not worth it there).
const below = 256

// Float64s sorts x ascending, as slices.Sort does for values that are not
// NaN, with one exception: -0 sorts before +0 (slices.Sort leaves equal
// values in any order). buf is scratch space of at least len(x) values, or
// nil to allocate it. x must not hold NaN.
//
// Each value's bits are mapped to a key whose unsigned order is the values'
// order (flip every bit of a negative value, the sign bit of any other);
// the keys are sorted by 8 passes of 8 bits, least significant first,
// skipping each pass in which every key has the same byte.
func Float64s(x, buf []float64) {
	n := len(x)
	if n < below {
		slices.Sort(x)
		return
	}
	if len(buf) < n {
		buf = make([]float64, n)
	}
	buf = buf[:n]
	var counts [8][256]int
	for _, v := range x {
		k := key(v)
		for d := range 8 {
			counts[d][byte(k>>(8*d))]++
		}
	}
	src, dst := x, buf
	for d := range 8 {
		c := &counts[d]
		if c[byte(key(src[0])>>(8*d))] == n {
			continue // every key has this byte: the pass would not move anything
		}
		sum := 0
		for i, m := range c {
			c[i] = sum
			sum += m
		}
		shift := uint(8 * d)
		for _, v := range src {
			b := byte(key(v) >> shift)
			dst[c[b]] = v
			c[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &x[0] {
		copy(x, src)
	}
}

// key returns the bits of v mapped so that unsigned order is numeric order.
func key(v float64) uint64 {
	b := math.Float64bits(v)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}
