// Package limits holds the bounds the command line and the page put on what
// a run may ask for, and the one-line messages that refuse the rest, so that
// both say the same thing. Each bound is fixed, so the same request behaves
// the same on every machine, and sized so that what is allocated per unit
// stays far below the memory of an ordinary machine (or browser tab).
package limits

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

const (
	// MaxK2 bounds k2, the number of classes to predict for. A run keeps
	// every method's curve, the recommendation's curves and its interval's
	// features at every k up to k2 (RunBytesPerK).
	MaxK2 = 10_000_000
	// RunBytesPerK is the memory a run with every method and the
	// recommendation takes per k of k2: the command line's peak resident
	// memory grew by 268 bytes per k from k2 = 1,000,000 to 4,000,000
	// (cleanex predict on a pilot of 20 classes; 283 MB and 1.09 GB), about
	// 34 float64 per k, half of them the garbage collector's headroom.
	RunBytesPerK = 270
	// MaxFileBytes bounds the size of a score file the page reads. The page
	// keeps the file's bytes and every compute worker a copy of them and of
	// the parsed matrix, so a file of this size already takes a few GB in
	// the tab; the command line reads larger files as a stream.
	MaxFileBytes = 250_000_000
)

// CheckK2 rejects a k2 below 2 or above MaxK2, saying how much memory the
// requested value would need. name is how the caller's user gives k2
// ("--k2" on the command line, "k2" in the page).
func CheckK2(name string, k2 int) error {
	switch {
	case k2 < 2:
		return fmt.Errorf("%s %d: give the number of classes to predict for, at least 2", name, k2)
	case k2 > MaxK2:
		return tooLarge(name, strconv.Itoa(k2), float64(k2))
	}
	return nil
}

// K2FromFloat converts a k2 given as a number that may not be whole (a
// JavaScript number, a number input's value) to an int, refusing what
// CheckK2 refuses and a number that is not a whole number.
func K2FromFloat(name string, f float64) (int, error) {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f):
		return 0, fmt.Errorf("%s %v: give a whole number of classes to predict for, like 2000", name, f)
	case f > MaxK2:
		return 0, tooLarge(name, strconv.FormatFloat(f, 'f', -1, 64), f)
	case f < 2:
		return 0, CheckK2(name, int(max(f, -1e9)))
	}
	return int(f), nil
}

// ParseK2 reads a k2 typed as text (a number input's value): a whole number
// as CheckK2 accepts it, or the message that refuses it. Digits may be
// grouped by threes with commas, spaces or underscores ("2,000", as the page
// writes numbers; "10 000").
func ParseK2(name, text string) (int, error) {
	text = strings.TrimSpace(text)
	if plain, ok := ungroup(text); ok {
		text = plain
	}
	if k2, err := strconv.Atoi(text); err == nil {
		return k2, CheckK2(name, k2)
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%s %q: not a number; give a whole number of classes to predict for, like 2000", name, text)
	}
	if math.IsInf(f, 0) && f > 0 {
		return 0, tooLarge(name, text, f)
	}
	if f > MaxK2 && f == math.Trunc(f) {
		return 0, tooLarge(name, text, f)
	}
	return K2FromFloat(name, f)
}

// ungroup returns text without its digit-group separators when text is a
// whole number written with groups of three digits separated by one kind of
// separator (a comma, an underscore, a space, a no-break or a narrow
// no-break space), and false otherwise ("2,00" and "2,000.5" are not).
func ungroup(text string) (string, bool) {
	i := strings.IndexAny(text, ",_ \u00a0\u202f")
	if i < 1 || i > 3 {
		return "", false
	}
	sep, _ := utf8.DecodeRuneInString(text[i:])
	groups := strings.Split(text, string(sep))
	for j, g := range groups {
		if (j > 0 && len(g) != 3) || strings.Trim(g, "0123456789") != "" || g == "" {
			return "", false
		}
	}
	return strings.Join(groups, ""), true
}

// tooLarge is the message of a k2 above MaxK2, given as text. Just above
// MaxK2 the memory the request needs rounds to that of MaxK2, so there the
// message names the limit's memory only.
func tooLarge(name, text string, k2 float64) error {
	if k2 < 2*MaxK2 {
		return fmt.Errorf("%s %s: too large: the largest %s accepted is %s classes (at that size a run already takes ~%s of memory)",
			name, text, name, Thousands(MaxK2), HumanBytes(MaxK2*RunBytesPerK))
	}
	return fmt.Errorf("%s %s: too large: the largest %s accepted is %s classes; at %s a run would need ~%s of memory (~%s at the limit)",
		name, text, name, Thousands(MaxK2), text, HumanBytes(k2*RunBytesPerK), HumanBytes(MaxK2*RunBytesPerK))
}

// CheckFileSize rejects a file of more than MaxFileBytes for the page,
// naming its size and the limit and pointing to the command line.
func CheckFileSize(name string, size float64) error {
	if size > MaxFileBytes {
		return fmt.Errorf("%s is %s, more than the %s this page reads; run the command line on it instead: cleanex predict --k2 N %s",
			name, HumanBytes(size), HumanBytes(MaxFileBytes), name)
	}
	return nil
}

// Thousands writes n in decimal with commas between groups of three
// digits: 1,234,567, -12,000.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	digits := strings.TrimPrefix(s, "-")
	var b strings.Builder
	b.WriteString(s[:len(s)-len(digits)])
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Count returns n with the word for one or for many: "1 fit", "3 fits",
// "1,200 pilots" (n written by Thousands).
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Thousands(n) + " " + many
}

// HumanBytes writes a byte count with a decimal unit and three significant
// digits: 8 TB, 480 MB.
func HumanBytes(b float64) string {
	units := []string{"B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"}
	i := 0
	for b >= 1000 && i < len(units)-1 {
		b /= 1000
		i++
	}
	return strconv.FormatFloat(b, 'g', 3, 64) + " " + units[i]
}

// Percent writes a share x in [0, 1] as a percentage a reader can tell from
// 0 and 100: whole percents ("31%"), one decimal below 1% and above 99%
// ("0.2%", "99.7%"), "less than 0.1%" or "more than 99.9%" beyond, and
// exactly 0 and 1 as "0%" and "100%".
func Percent(x float64) string {
	p := 100 * x
	switch {
	case p == 0 || p == 100:
	case p > 0 && p < 0.05:
		return "less than 0.1%"
	case p < 100 && p > 99.95:
		return "more than 99.9%"
	case p < 1 || p > 99:
		return strconv.FormatFloat(p, 'f', 1, 64) + "%"
	}
	return strconv.FormatFloat(p, 'f', 0, 64) + "%"
}
