//go:build browser

package browsertest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// preparedCase is a large pilot file for BenchmarkPrepared: its name, the
// `cleanex simulate` flags that write it, and k2 (10 k1, as the page's
// default and the command line's run).
type preparedCase struct {
	name string
	file string
	args []string
	k2   int
}

// preparedCases are the cases BenchmarkPrepared runs: pilots of k1 = 1000
// (N = 10,000, about 184 MB of CSV) and, with BENCH_PREPARED_BIG=1, k1 =
// 2000 (N = 20,000, about 738 MB); and, with BENCH_PREPARED_EMBED=1 or
// BENCH_PREPARED_BIG=1, 20,000 test embeddings of d = 128 against the
// centroids of 10,000 classes (an .npz; k2 = 100,000). BENCH_PREPARED_K1=K
// replaces the first case by a pilot of k1 = K; BENCH_PREPARED_QUERY adds
// to the page's URL query (prepare=0 prepares every file, prepare=1e12
// none: the usual path, for comparison).
func preparedCases() []preparedCase {
	sim := func(k int) []string {
		return []string{"simulate", "--k", strconv.Itoa(k), "--k1", strconv.Itoa(k), "--r", "10", "--seed", "1"}
	}
	cases := []preparedCase{{"k1=1000", "pilot-k1000.csv", sim(1000), 10000}}
	if k := os.Getenv("BENCH_PREPARED_K1"); k != "" {
		k1, _ := strconv.Atoi(k)
		cases = []preparedCase{{"k1=" + k, "pilot-k" + k + ".csv", sim(k1), 10 * k1}}
	}
	big := os.Getenv("BENCH_PREPARED_BIG") == "1"
	if big {
		cases = append(cases, preparedCase{"k1=2000", "pilot-k2000.csv", sim(2000), 20000})
	}
	if big || os.Getenv("BENCH_PREPARED_EMBED") == "1" {
		cases = append(cases, preparedCase{"embed-k10000-d128", "embed-k10000-d128.npz",
			[]string{"simulate", "--k", "10000", "--k1", "10000", "--r", "2", "--d", "128", "--seed", "1", "--embeddings", "train", "--format", "npz"}, 100000})
	}
	return cases
}

// preparedRow is one measured case of BenchmarkPrepared.
type preparedRow struct {
	name                     string
	fileMB                   float64
	observedS, allS, tabMB   float64
	tabHWMMB                 float64
	cliS, cliMB              float64
	points, classes, workers int
}

var (
	preparedMu   sync.Mutex
	preparedRows []preparedRow
)

// BenchmarkPrepared times the page on large pilots, which it prepares in
// one worker (protocol.Prepare), against the command line on the same
// file in the same run. It needs CLEANEX_CLI, a built cleanex command, and
// CLEANEX_PILOTS, a directory where the pilot files are written once
// (`cleanex simulate ...`; ./build.sh bench sets both). Per case it
// reports:
//
//	observed-s  file picked -> observed curve drawn
//	all-s       file picked -> every method done and the recommended
//	            estimate with its interval in the headline
//	tab-MB      peak resident memory of the tab's renderer process (the
//	            page and its dedicated workers live in it), VmRSS from
//	            /proc sampled every 100 ms
//	cli-s       `cleanex predict --k2 K2 FILE` wall time
//	cli-MB      its peak resident memory (/usr/bin/time -v)
//
// and at the end one table with the ratios page / command line.
func BenchmarkPrepared(b *testing.B) {
	cli, dir := os.Getenv("CLEANEX_CLI"), os.Getenv("CLEANEX_PILOTS")
	if cli == "" || dir == "" {
		b.Skip("set CLEANEX_CLI (a built cleanex) and CLEANEX_PILOTS (a directory for the pilot files); ./build.sh bench does")
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		b.Skip("/usr/bin/time is missing (apt-get install time)")
	}
	for _, c := range preparedCases() {
		b.Run(c.name, func(b *testing.B) {
			path := filepath.Join(dir, c.file)
			if err := ensurePilot(cli, path, c.args); err != nil {
				b.Fatal(err)
			}
			for range b.N {
				row := preparedOnce(b, cli, path, c)
				preparedMu.Lock()
				preparedRows = append(preparedRows, row)
				preparedMu.Unlock()
				b.ReportMetric(row.observedS, "observed-s")
				b.ReportMetric(row.allS, "all-s")
				b.ReportMetric(row.tabMB, "tab-MB")
				b.ReportMetric(row.cliS, "cli-s")
				b.ReportMetric(row.cliMB, "cli-MB")
			}
		})
	}
	preparedMu.Lock()
	defer preparedMu.Unlock()
	fmt.Println(preparedTable(preparedRows))
}

// ensurePilot writes the pilot file at path with `cli args...` unless it
// is there already (written whole: a temporary file renamed at the end).
func ensurePilot(cli, path string, args []string) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	cmd := exec.Command(cli, args...)
	cmd.Stdout = f
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s %s: %v: %s", cli, strings.Join(args, " "), err, stderr.String())
	}
	return os.Rename(tmp, path)
}

// preparedOnce picks the file in a new tab, times the page and samples
// the tab's memory, then runs the command line on the same file.
func preparedOnce(b *testing.B, cli, path string, c preparedCase) preparedRow {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	row := preparedRow{name: c.name, fileMB: float64(st.Size()) / 1e6}
	query := "example=0"
	if q := os.Getenv("BENCH_PREPARED_QUERY"); q != "" {
		query += "&" + q
	}
	p := openPage(b, query)
	p.waitJS(`!document.querySelector("#busy").textContent`, 120*time.Second)
	row.workers = mustEval[int](p, `Math.min(8, Math.max(1, navigator.hardwareConcurrency))`, 5*time.Second)
	mustEval[chromedp.Void](p, `(() => {
		const cv = document.querySelector("#chart-acc");
		window.__before = cv.getAttribute("data-dataset");
		document.addEventListener("change", e => { if (e.target && e.target.id === "file") window.__t0 = performance.now(); }, true);
	})()`, 5*time.Second)
	stop := sampleTabMemory()
	p.pickFiles(path)
	timeout := 15 * time.Minute
	observed := mustEval[float64](p, `new Promise((res, rej) => {
		const cv = document.querySelector("#chart-acc");
		const poll = () => {
			const ds = cv.getAttribute("data-dataset");
			if (window.__t0 && ds && ds !== window.__before && document.querySelector("#summary")) { res((Number(cv.getAttribute("data-drawn-at")) - window.__t0) / 1000); return; }
			const err = document.querySelector("#error");
			if (err && err.textContent.trim()) { rej(new Error(err.textContent)); return; }
			setTimeout(poll, 20);
		};
		poll();
	})`, timeout)
	all := mustEval[float64](p, `new Promise((res, rej) => {
		const poll = () => {
			const h = document.querySelector("#headline"), s = document.querySelector("#status");
			if (h && h.textContent.includes("80% interval") && s && s.textContent.startsWith("Finished")) { res((performance.now() - window.__t0) / 1000); return; }
			setTimeout(poll, 20);
		};
		poll();
	})`, timeout)
	row.tabMB, row.tabHWMMB = stop()
	row.observedS, row.allS = observed, all
	type summary struct{ N, K int }
	s := mustEval[summary](p, `(() => { const t = document.querySelector("#summary-line").textContent.match(/([\d,]+) points, ([\d,]+) classes/);
		return {N: Number(t[1].replaceAll(",", "")), K: Number(t[2].replaceAll(",", ""))}; })()`, 5*time.Second)
	row.points, row.classes = s.N, s.K
	if status := mustEval[string](p, `document.querySelector("#status").textContent`, 5*time.Second); strings.Contains(status, "failed") {
		b.Errorf("%s: %s", c.name, status)
	}
	p.shot("bench-prepared-" + sanitize(c.name))

	row.cliS, row.cliMB = timeCLI(b, cli, "predict", "--k2", strconv.Itoa(c.k2), path)
	return row
}

// sampleTabMemory samples, every 100 ms until the returned function is
// called, the resident memory (VmRSS) of the test browser's largest
// renderer process (the tab's: its page and dedicated workers share it);
// stop returns its peak and that process's VmHWM, in MB.
func sampleTabMemory() (stop func() (peakMB, hwmMB float64)) {
	done := make(chan struct{})
	var mu sync.Mutex
	peak, hwm := 0.0, 0.0
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			rss, h := rendererRSS()
			mu.Lock()
			peak, hwm = max(peak, rss), max(hwm, h)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() (float64, float64) {
		close(done)
		mu.Lock()
		defer mu.Unlock()
		return peak, hwm
	}
}

// rendererRSS returns the largest VmRSS among the test browser's renderer
// processes, and that process's VmHWM, in MB (0 when /proc cannot be read).
func rendererRSS() (rssMB, hwmMB float64) {
	for _, pid := range rendererPIDs() {
		f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			continue
		}
		var rss, hwm float64
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			for _, field := range []struct {
				prefix string
				dst    *float64
			}{{"VmRSS:", &rss}, {"VmHWM:", &hwm}} {
				if kb, ok := strings.CutPrefix(sc.Text(), field.prefix); ok {
					if v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 64); err == nil {
						*field.dst = v / 1024
					}
				}
			}
		}
		f.Close()
		if rss > rssMB {
			rssMB, hwmMB = rss, hwm
		}
	}
	return rssMB, hwmMB
}

// timeCLI runs cli with args under /usr/bin/time -v (output discarded)
// and returns its wall time in seconds and its peak resident memory in MB.
func timeCLI(b *testing.B, cli string, args ...string) (seconds, mb float64) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/usr/bin/time", append([]string{"-v", cli}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %s: %v\n%s", cli, strings.Join(args, " "), err, stderr.String())
	}
	seconds = time.Since(start).Seconds()
	for _, line := range strings.Split(stderr.String(), "\n") {
		if kb, ok := strings.CutPrefix(strings.TrimSpace(line), "Maximum resident set size (kbytes):"); ok {
			v, _ := strconv.ParseFloat(strings.TrimSpace(kb), 64)
			mb = v / 1024
		}
	}
	return seconds, mb
}

// preparedTable writes the rows as one table with the ratios page /
// command line.
func preparedTable(rows []preparedRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nprepared path vs command line (page: %s)\n", "file picked on a fresh tab, default workers")
	fmt.Fprintf(&b, "%-18s %8s %7s %7s %4s %10s %8s %9s %9s %8s %8s %9s %9s\n",
		"case", "file MB", "N", "K", "wkr", "observed s", "all s", "tab MB", "tab HWM", "cli s", "cli MB", "all/cli", "tab/cli")
	for _, r := range rows {
		fmt.Fprintf(&b, "%-18s %8.0f %7d %7d %4d %10.1f %8.1f %9.0f %9.0f %8.1f %8.0f %9.2f %9.2f\n",
			r.name, r.fileMB, r.points, r.classes, r.workers, r.observedS, r.allS, r.tabMB, r.tabHWMMB, r.cliS, r.cliMB, r.allS/r.cliS, r.tabMB/r.cliMB)
	}
	return b.String()
}
