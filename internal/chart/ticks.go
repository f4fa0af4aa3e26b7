package chart

import (
	"math"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/limits"
)

// Tick positions are hand-written (no maintained Go library offers them
// without pulling in a plotting package): linear ticks are the multiples of
// a 1-2-5 step, logarithmic ticks are 1-2-5 per decade, whole decades, or
// every m-th decade.

// pow10 returns 10^e for an integer e.
func pow10(e int) float64 { return math.Pow10(e) }

// mulPow10 returns n·10^e rounded once: dividing by an exact power of ten
// (instead of multiplying by an inexact 10^-|e|) gives 0.3 rather than
// 0.30000000000000004.
func mulPow10(n float64, e int) float64 {
	if e < 0 {
		return n / pow10(-e)
	}
	return n * pow10(e)
}

// LinearTicks returns the multiples of a nice step s = m·10^e (m in 1, 2, 5)
// that lie in [lo, hi], using the smallest such step that gives at most
// maxTicks ticks (maxTicks below 2 counts as 2). It returns [lo] when lo == hi
// and nil when the range is not finite or hi < lo.
func LinearTicks(lo, hi float64, maxTicks int) []float64 {
	if !finite(lo) || !finite(hi) || hi < lo {
		return nil
	}
	if lo == hi {
		return []float64{lo}
	}
	maxTicks = max(maxTicks, 2)
	e := int(math.Floor(math.Log10((hi-lo)/float64(maxTicks)))) - 1
	for ; ; e++ {
		for _, m := range []float64{1, 2, 5} {
			step := mulPow10(m, e)
			tol := 1e-9 * step
			first := math.Ceil((lo - tol) / step)
			last := math.Floor((hi + tol) / step)
			if int(last-first)+1 > maxTicks {
				continue
			}
			ticks := make([]float64, 0, int(last-first)+1)
			for i := first; i <= last; i++ {
				v := mulPow10(i*m, e)
				if v == 0 {
					v = 0 // no "-0"
				}
				ticks = append(ticks, v)
			}
			return ticks
		}
	}
}

// LogTicks returns tick values for a logarithmic axis over [lo, hi] (lo > 0):
// the densest of these sets that has at most maxTicks ticks in range —
// {1, 2, 5}·10^e, {1}·10^e, then 10^e for e a multiple of 2, 3, 5, 10, ... —
// and, when that set has fewer than two ticks in range (a range within about
// one decade), LinearTicks(lo, hi, maxTicks). It returns nil when lo <= 0 or
// the range is not finite.
func LogTicks(lo, hi float64, maxTicks int) []float64 {
	if !(lo > 0) || !finite(lo) || !finite(hi) || hi < lo {
		return nil
	}
	if lo == hi {
		return []float64{lo}
	}
	maxTicks = max(maxTicks, 2)
	e0 := int(math.Floor(math.Log10(lo))) - 1
	e1 := int(math.Ceil(math.Log10(hi))) + 1
	in := func(v float64) bool { return v >= lo*(1-1e-9) && v <= hi*(1+1e-9) }
	gen := func(mantissas []float64, every int) []float64 {
		var t []float64
		for e := e0; e <= e1; e++ {
			if e%every != 0 {
				continue
			}
			for _, m := range mantissas {
				if v := mulPow10(m, e); in(v) {
					t = append(t, v)
				}
			}
		}
		return t
	}
	t := gen([]float64{1, 2, 5}, 1)
	if len(t) > maxTicks {
		t = gen([]float64{1}, 1)
		for _, every := range []int{2, 3, 5, 10, 20, 50, 100} {
			if len(t) <= maxTicks {
				break
			}
			t = gen([]float64{1}, every)
		}
	}
	if len(t) < 2 {
		return LinearTicks(lo, hi, maxTicks)
	}
	return t
}

// FormatTick formats a tick value, a negative one with the minus sign U+2212:
// a whole number from 1,000 to below 10^9 with commas between groups of
// three digits, as the page writes numbers ("2,000", "10,000,000"); else the
// shortest decimal that reads back as v rounded to 12 significant digits
// ("0.2", "0.001", "−0.5", "2500.5") for 1e-4 <= |v| < 1e6 or v == 0, and
// m·10^e as "1e-5", "2.5e9" outside that range. (The rounding hides the
// last-bit error of ticks such as 1/10^24, whose denominator is not exact in
// float64.)
func FormatTick(v float64) string {
	if v == 0 {
		return "0"
	}
	if r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64); err == nil {
		v = r
	}
	if a := math.Abs(v); a >= 1000 && a < 1e9 && v == math.Trunc(v) {
		return minus(limits.Thousands(int(v)))
	}
	if a := math.Abs(v); a >= 1e-4 && a < 1e6 {
		return minus(strconv.FormatFloat(v, 'f', -1, 64))
	}
	s := strconv.FormatFloat(v, 'e', -1, 64) // "1e-05", "2.5e+06"
	mant, exp, _ := strings.Cut(s, "e")
	n, err := strconv.Atoi(exp)
	if err != nil {
		return s
	}
	return minus(mant) + "e" + strconv.Itoa(n)
}

// minus writes a leading minus sign as U+2212, the typographic minus.
func minus(s string) string {
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		return "−" + rest
	}
	return s
}

// finite reports whether v is neither NaN nor ±Inf.
// (v - v is 0 for finite v and NaN for NaN and ±Inf.)
func finite(v float64) bool { return v-v == 0 }
