//go:build browser

package browsertest

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chromedp/chromedp"
)

// rendererPeakMB returns the largest peak resident set (VmHWM, Linux) of the
// test browser's renderer processes, in MB: a tab's page and its dedicated
// workers live in one renderer process, so this is the tab's peak memory.
// It returns 0 when /proc cannot be read.
func rendererPeakMB() float64 {
	peak := 0.0
	for _, pid := range rendererPIDs() {
		f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if kb, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
				if v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 64); err == nil {
					peak = max(peak, v/1024)
				}
			}
		}
		f.Close()
	}
	return peak
}

// rendererPIDs returns the process ids of the test browser's renderer
// processes (its descendants started with --type=renderer).
func rendererPIDs() []int {
	c := chromedp.FromContext(browserCtx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return nil
	}
	root := c.Browser.Process().Pid
	parent := map[int]int{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(d + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after ')'.
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 {
			if f := strings.Fields(string(stat[i+1:])); len(f) > 1 {
				parent[pid], _ = strconv.Atoi(f[1])
			}
		}
	}
	var out []int
	for pid := range parent {
		under := false
		for q := pid; q > 1; q = parent[q] {
			if q == root {
				under = true
				break
			}
		}
		if !under {
			continue
		}
		if cmd, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); bytes.Contains(cmd, []byte("--type=renderer")) {
			out = append(out, pid)
		}
	}
	return out
}
