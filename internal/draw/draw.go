// Package draw picks k of K classes uniformly at random from a PCG stream of
// math/rand/v2: the one helper behind backtest's pilots, simulate's pilots
// and the regression's bootstrap subsamples.
//
// A stream is named by the PCG generator's second seed word; each caller
// keeps its own as a constant written the same way, eight ASCII bytes of its
// purpose in hexadecimal with the name beside it:
//
//	const stream = 0x6261636b_74657374 // "backtest"
package draw

import (
	"math/rand/v2"
	"slices"
)

// Drawer draws classes from one PCG stream.
type Drawer struct {
	rng  *rand.Rand
	perm []int // Continue's permutation, carried from one call to the next
}

// New returns a Drawer on the PCG stream (seed, stream).
func New(seed, stream uint64) *Drawer {
	return &Drawer{rng: rand.New(rand.NewPCG(seed, stream))}
}

// Classes returns k distinct classes out of 0..K-1 in ascending order: the
// first k of a fresh uniform permutation of 0..K-1 (rand.Rand.Perm, K-1
// numbers of the stream per call). It panics unless 0 <= k <= K; callers
// check their bounds first.
func (d *Drawer) Classes(K, k int) []int {
	cls := d.rng.Perm(K)[:k]
	slices.Sort(cls)
	return cls
}

// Continue returns k distinct classes out of 0..K-1 in ascending order by k
// steps of a partial Fisher-Yates shuffle (k numbers of the stream per call)
// that continue from the permutation the previous call left; the first call,
// or one with another K, starts from the identity. Each draw is a uniform
// k-subset, like Classes's, but the two spend the stream differently, so the
// same stream gives them different classes. It panics unless 0 <= k <= K.
func (d *Drawer) Continue(K, k int) []int {
	if len(d.perm) != K {
		d.perm = make([]int, K)
		for i := range d.perm {
			d.perm[i] = i
		}
	}
	for i := range k {
		j := i + d.rng.IntN(K-i)
		d.perm[i], d.perm[j] = d.perm[j], d.perm[i]
	}
	cls := slices.Clone(d.perm[:k])
	slices.Sort(cls)
	return cls
}
