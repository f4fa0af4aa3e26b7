package main

import (
	"bufio"
	"strconv"
	"strings"
)

// memInfoAvailable returns the memory /proc/meminfo's text says a process
// may still take, in bytes: MemAvailable (the kernel's estimate of what can
// be allocated without swapping) plus SwapFree; ok is false when the text
// has no MemAvailable line.
func memInfoAvailable(text string) (bytes int64, ok bool) {
	var avail, swap int64
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		name, rest, found := strings.Cut(sc.Text(), ":")
		if !found {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			continue
		}
		v, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			continue
		}
		if len(f) > 1 && f[1] == "kB" {
			v *= 1024
		}
		switch name {
		case "MemAvailable":
			avail, ok = v, true
		case "SwapFree":
			swap = v
		}
	}
	return avail + swap, ok
}

// cgroupAvailable returns the memory left under a cgroup v2 limit, in
// bytes: memory.max less memory.current, given those files' text; ok is
// false when there is no limit ("max") or the text cannot be read.
func cgroupAvailable(maxText, currentText string) (bytes int64, ok bool) {
	limit, err := strconv.ParseInt(strings.TrimSpace(maxText), 10, 64)
	if err != nil {
		return 0, false
	}
	used, err := strconv.ParseInt(strings.TrimSpace(currentText), 10, 64)
	if err != nil {
		return 0, false
	}
	return max(0, limit-used), true
}
