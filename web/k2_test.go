package web

import "testing"

// TestSetK2: a k2 typed in range is stored and clears its earlier refusal;
// one out of range or not a number keeps the previous k2 and shows the
// command line's message.
func TestSetK2(t *testing.T) {
	s := NewState()
	s.K2 = 500
	for _, tc := range []struct {
		text  string
		k2    int
		error string
	}{
		{"9223372036854775807", 500, "k2 9223372036854775807: too large: every curve keeps 8 bytes per k, so 6 curves need ~443 EB; the largest k2 accepted is 10000000 (~480 MB)"},
		{"1e12", 500, "k2 1e12: too large: every curve keeps 8 bytes per k, so 6 curves need ~48 TB; the largest k2 accepted is 10000000 (~480 MB)"},
		{"", 500, `k2 "": not a number; give a whole number of classes to predict for, like 2000`},
		{"2000", 2000, ""},
		{"1", 2000, "k2 1: give the number of classes to predict for, at least 2"},
	} {
		s.SetK2(tc.text)
		if s.K2 != tc.k2 || s.Error != tc.error || s.K2Err != tc.error {
			t.Errorf("SetK2(%q): K2 %d, Error %q, K2Err %q; want %d, %q", tc.text, s.K2, s.Error, s.K2Err, tc.k2, tc.error)
		}
	}
}
