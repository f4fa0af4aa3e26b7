//go:build linux

package main

import (
	"math"
	"os"
	"syscall"
)

// freeMemory returns the memory this process may still take, in bytes, or
// 0 when it cannot be told: the least of the kernel's estimate
// (memInfoAvailable of /proc/meminfo), what the process's cgroup v2 limit
// leaves (cgroupAvailable), and its address-space limit (RLIMIT_AS; no
// limit reads as the largest uint64).
func freeMemory() int64 {
	free := int64(math.MaxInt64)
	known := false
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		if v, ok := memInfoAvailable(string(b)); ok {
			free, known = min(free, v), true
		}
	}
	if mx, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if cur, err := os.ReadFile("/sys/fs/cgroup/memory.current"); err == nil {
			if v, ok := cgroupAvailable(string(mx), string(cur)); ok {
				free, known = min(free, v), true
			}
		}
	}
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err == nil && rl.Cur < math.MaxInt64 {
		free, known = min(free, int64(rl.Cur)), true
	}
	if !known {
		return 0
	}
	return free
}
