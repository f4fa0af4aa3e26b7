package limits

import (
	"math"
	"strings"
	"testing"
)

// TestK2: k2 from 2 to MaxK2 passes; a smaller one asks for at least 2; a
// larger one, given as an int or as a number, names the memory it would need
// and the largest accepted; a fraction, NaN or infinity asks for a whole number.
func TestK2(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string // "" when accepted
	}{
		{2, ""}, {2000, ""}, {MaxK2, ""},
		{1, "k2 1: give the number of classes to predict for, at least 2"},
		{-5, "k2 -5: give the number of classes to predict for, at least 2"},
		{MaxK2 + 1, "k2 10000001: too large: the largest k2 accepted is 10,000,000 classes (at that size a run already takes ~2.7 GB of memory)"},
		{2*MaxK2 - 1, "k2 19999999: too large: the largest k2 accepted is 10,000,000 classes ("},
		{2 * MaxK2, "k2 20000000: too large: the largest k2 accepted is 10,000,000 classes; at 20000000 a run would need ~5.4 GB of memory (~2.7 GB at the limit)"},
		{1e12, "k2 1000000000000: too large: the largest k2 accepted is 10,000,000 classes; at 1000000000000 a run would need ~270 TB of memory"},
		{1e20, "k2 100000000000000000000: too large"},
		{2.5, "k2 2.5: give a whole number of classes to predict for, like 2000"},
		{math.NaN(), "k2 NaN: give a whole number"},
		{math.Inf(1), "k2 +Inf: give a whole number"},
	} {
		k2, err := K2FromFloat("k2", tc.f)
		switch {
		case tc.want == "" && (err != nil || k2 != int(tc.f)):
			t.Errorf("K2FromFloat(%v) = %d, %v; want %v", tc.f, k2, err, tc.f)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("K2FromFloat(%v) = %v; want %q", tc.f, err, tc.want)
		}
		if tc.f == math.Trunc(tc.f) && math.Abs(tc.f) < 1e15 {
			if e2 := CheckK2("k2", int(tc.f)); (e2 == nil) != (err == nil) || (e2 != nil && e2.Error() != err.Error()) {
				t.Errorf("CheckK2(%v) = %v, K2FromFloat gave %v", tc.f, e2, err)
			}
		}
	}
	if err := CheckK2("--k2", math.MaxInt); err == nil || !strings.HasPrefix(err.Error(), "--k2 9223372036854775807: too large") {
		t.Errorf("CheckK2(MaxInt) = %v", err)
	}
}

// TestFileSize: a file up to MaxFileBytes passes; a larger one is refused
// with its size, the limit and the command to run instead.
func TestFileSize(t *testing.T) {
	if err := CheckFileSize("a.csv", MaxFileBytes); err != nil {
		t.Errorf("a file of exactly the limit: %v", err)
	}
	err := CheckFileSize("zeros.bin", 2e9)
	want := "zeros.bin is 2 GB, more than the 250 MB this page reads; run the command line on it instead: cleanex predict --k2 N zeros.bin"
	if err == nil || err.Error() != want {
		t.Errorf("CheckFileSize(2 GB) = %v, want %q", err, want)
	}
}

// TestHumanBytes: three significant digits and a decimal unit.
func TestHumanBytes(t *testing.T) {
	for b, want := range map[float64]string{0: "0 B", 999: "999 B", 1000: "1 kB", 480e6: "480 MB", 48e12: "48 TB", 2.147483648e9: "2.15 GB"} {
		if got := HumanBytes(b); got != want {
			t.Errorf("HumanBytes(%v) = %q, want %q", b, got, want)
		}
	}
}

// TestParseK2: typed text is read as K2FromFloat and CheckK2 read numbers,
// keeping the digits typed in the message; text that is no number is named.
func TestParseK2(t *testing.T) {
	for _, tc := range []struct {
		text string
		k2   int
		want string // "" when accepted
	}{
		{"2000", 2000, ""},
		{" 30 ", 30, ""},
		{"1e3", 1000, ""},
		{"9223372036854775807", 0, "k2 9223372036854775807: too large: the largest k2 accepted is 10,000,000 classes; at 9223372036854775807 a run would need ~2.49 ZB of memory (~2.7 GB at the limit)"},
		{"99999999999999999999", 0, "k2 99999999999999999999: too large"},
		{"1e400", 0, "k2 1e400: too large"},
		{"1000000000000", 0, "k2 1000000000000: too large"},
		{"1", 0, "k2 1: give the number of classes to predict for, at least 2"},
		{"2.5", 0, "k2 2.5: give a whole number"},
		{"", 0, `k2 "": not a number; give a whole number of classes to predict for, like 2000`},
		{"abc", 0, `k2 "abc": not a number`},
		{"2,000", 2000, ""},
		{"1,234,567", 1234567, ""},
		{"10 000", 10000, ""},
		{"10\u202f000", 10000, ""},
		{"5_000", 5000, ""},
		{"2,00", 0, `k2 "2,00": not a number`},
		{"2,000.5", 0, `k2 "2,000.5": not a number`},
		{"1,000 000", 0, `k2 "1,000 000": not a number`},
		{"1234,000", 0, `k2 "1234,000": not a number`},
		{",000", 0, `k2 ",000": not a number`},
	} {
		k2, err := ParseK2("k2", tc.text)
		switch {
		case tc.want == "" && (err != nil || k2 != tc.k2):
			t.Errorf("ParseK2(%q) = %d, %v; want %d", tc.text, k2, err, tc.k2)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("ParseK2(%q) = %v; want %q", tc.text, err, tc.want)
		}
	}
}

func TestThousands(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {1234567, "1,234,567"}, {-12000, "-12,000"}, {-999, "-999"}} {
		if got := Thousands(c.n); got != c.want {
			t.Errorf("Thousands(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// Count writes the word for one at 1 only, and the number as Thousands does.
func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 classes"}, {1, "1 class"}, {2, "2 classes"}, {1200, "1,200 classes"}} {
		if got := Count(c.n, "class", "classes"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestPercent(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{0, "0%"}, {0.0002, "less than 0.1%"}, {0.002, "0.2%"}, {0.31, "31%"}, {0.996, "99.6%"}, {0.99999, "more than 99.9%"}, {1, "100%"},
	} {
		if got := Percent(tc.x); got != tc.want {
			t.Errorf("Percent(%v) = %q, want %q", tc.x, got, tc.want)
		}
	}
}
