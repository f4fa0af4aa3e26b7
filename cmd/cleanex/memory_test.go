package main

import "testing"

func TestMemInfoAvailable(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       int64
		ok         bool
	}{
		{"with swap", "MemTotal:       24589352 kB\nMemFree:         1000000 kB\nMemAvailable:   23884356 kB\nSwapTotal:       2097148 kB\nSwapFree:        2000000 kB\n", (23884356 + 2000000) * 1024, true},
		{"no swap line", "MemAvailable:   1000 kB\n", 1000 * 1024, true},
		{"no MemAvailable (an old kernel)", "MemTotal:       24589352 kB\nMemFree:         1000000 kB\n", 0, false},
		{"empty", "", 0, false},
	} {
		got, ok := memInfoAvailable(tc.text)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCgroupAvailable(t *testing.T) {
	for _, tc := range []struct {
		name, max, current string
		want               int64
		ok                 bool
	}{
		{"limited", "1073741824\n", "73741824\n", 1<<30 - 73741824, true},
		{"over the limit", "1000\n", "1200\n", 0, true},
		{"no limit", "max\n", "73741824\n", 0, false},
		{"unreadable", "", "", 0, false},
	} {
		got, ok := cgroupAvailable(tc.max, tc.current)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
