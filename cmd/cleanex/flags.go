package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/backtest"
)

// Upper bounds of the size flags. Each is fixed, so the same command line
// behaves the same on every machine, and sized so that what is allocated per
// unit stays far below the memory of an ordinary machine.
const (
	// maxK2 bounds --k2. Every method and the observed and truth columns keep a
	// curve of one float64 (8 bytes) per k, and the CSV has one row per k: at
	// 10,000,000 that is 80 MB per curve and about 0.6 GB for all six columns.
	maxK2 = 10_000_000
	// curveBytesPerK is the memory one curve takes per k.
	curveBytesPerK = 8
	// curvesPerRun is how many curves predict holds at most: four methods,
	// the observed curve and the truth.
	curvesPerRun = 6
	// maxReps bounds backtest --reps (backtest.MaxReps). Rows are written as
	// they finish; the medians keep 4 float64 (32 bytes) per pilot and method,
	// 12.8 MB for four methods at 100,000 pilots.
	maxReps = backtest.MaxReps
)

// decInt is an int flag that accepts only plain decimal numbers (an optional
// sign and digits, no leading zero): Go's flag.Int also reads 010 as octal 8,
// 0b101 as 5 and 0x10 as 16, which silently runs something else.
type decInt int

// decUint64 is the uint64 counterpart of decInt.
type decUint64 uint64

func (v *decInt) String() string    { return strconv.Itoa(int(*v)) }
func (v *decUint64) String() string { return strconv.FormatUint(uint64(*v), 10) }

// Set parses s as a plain decimal int.
func (v *decInt) Set(s string) error {
	if err := checkDecimal(s, true); err != nil {
		return err
	}
	n, err := strconv.ParseInt(s, 10, strconv.IntSize)
	if err != nil {
		return fmt.Errorf("%s is out of range; give a number up to %d", s, int64(^uint(0)>>1))
	}
	*v = decInt(n)
	return nil
}

// Set parses s as a plain decimal uint64.
func (v *decUint64) Set(s string) error {
	if err := checkDecimal(s, false); err != nil {
		return err
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(s, "+"), 10, 64)
	if err != nil {
		return fmt.Errorf("%s is out of range; give a number from 0 to %d", s, uint64(1<<64-1))
	}
	*v = decUint64(n)
	return nil
}

// checkDecimal accepts an optional sign (only + unless signed) followed by
// decimal digits without a leading zero.
func checkDecimal(s string, signed bool) error {
	d := s
	if len(d) > 0 && (d[0] == '+' || (signed && d[0] == '-')) {
		d = d[1:]
	}
	if d == "" {
		return fmt.Errorf("%q is not a number; give a plain decimal number like 2000", s)
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return fmt.Errorf("%q is not a plain decimal number; write it with the digits 0-9 only, like 2000 (no 0x, 0b, 0o, _ or exponent)", s)
		}
	}
	if len(d) > 1 && d[0] == '0' {
		return fmt.Errorf("%q has a leading zero, which other tools read as octal; write it without the leading zeros", s)
	}
	return nil
}

// intFlag defines a decimal-only int flag on fs.
func intFlag(fs *flag.FlagSet, name string, value int, usage string) *int {
	p := new(int)
	*p = value
	fs.Var((*decInt)(p), name, usage+" (a decimal `int`)")
	return p
}

// uint64Flag defines a decimal-only uint64 flag on fs.
func uint64Flag(fs *flag.FlagSet, name string, value uint64, usage string) *uint64 {
	p := new(uint64)
	*p = value
	fs.Var((*decUint64)(p), name, usage+" (a decimal `uint`)")
	return p
}

// checkK2 rejects a --k2 below 2 or above maxK2, saying how much memory the
// requested value would need.
func checkK2(k2 int) error {
	switch {
	case k2 < 2:
		return badInput("--k2 %d: give the number of classes to predict for, at least 2", k2)
	case k2 > maxK2:
		return badInput("--k2 %d: too large: every curve keeps %d bytes per k, so %d curves need ~%s; the largest --k2 accepted is %d (~%s)",
			k2, curveBytesPerK, curvesPerRun, humanBytes(float64(k2)*curveBytesPerK*curvesPerRun), maxK2, humanBytes(maxK2*curveBytesPerK*curvesPerRun))
	}
	return nil
}

// checkReps rejects a --reps below 1 or above maxReps.
func checkReps(reps int) error {
	switch {
	case reps < 1:
		return badInput("--reps %d: at least 1 is needed", reps)
	case reps > maxReps:
		return badInput("--reps %d: too many; the largest --reps accepted is %d (the medians keep 32 bytes per pilot and method)", reps, maxReps)
	}
	return nil
}

// humanBytes writes a byte count with a decimal unit: 8 TB, 480 MB.
func humanBytes(b float64) string {
	units := []string{"B", "kB", "MB", "GB", "TB", "PB", "EB"}
	i := 0
	for b >= 1000 && i < len(units)-1 {
		b /= 1000
		i++
	}
	return strconv.FormatFloat(b, 'g', 3, 64) + " " + units[i]
}
