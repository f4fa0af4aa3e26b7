package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/backtest"
	"github.com/cleanex/cleanex/internal/limits"
)

// maxReps bounds backtest --reps (backtest.MaxReps). Rows are written as
// they finish; the medians keep 4 float64 (32 bytes) per pilot and method,
// 12.8 MB for four methods at 100,000 pilots. The bound of --k2 is
// limits.MaxK2, shared with the page.
const maxReps = backtest.MaxReps

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
// decimal digits without a leading zero; a minus sign on an unsigned value is
// refused as negative.
func checkDecimal(s string, signed bool) error {
	d := s
	if !signed && len(d) > 1 && d[0] == '-' {
		return fmt.Errorf("%q is negative; give a whole number of 0 or more, like 2000", s)
	}
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

// checkK2 rejects a --k2 below 2 or above limits.MaxK2 (limits.CheckK2: the
// page gives the same message), as bad input.
func checkK2(k2 int) error {
	if err := limits.CheckK2("--k2", k2); err != nil {
		return inputError{err}
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

// flagSet reports whether flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
