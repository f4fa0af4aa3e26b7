//go:build browser

package browsertest

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/cleanex/cleanex/internal/methods"
)

// benchFiles serves the benchmark CSVs at /bench/<k1>.csv on the test
// server's origin, generated once per k1 (r = 10 points per class), with 9
// significant digits per score as in the benchmark cases
// (internal/benchcases/testdata; k1 = 500: about 25 MB, the file size the
// page's timing targets are set for).
var (
	benchMu    sync.Mutex
	benchFiles = map[int][]byte{}
)

func benchCSV(b *testing.B, k1 int) string {
	benchMu.Lock()
	defer benchMu.Unlock()
	if _, ok := benchFiles[k1]; !ok {
		benchFiles[k1] = simulatedCSVDigits(b, k1, 10, 1, 9)
	}
	return fmt.Sprintf("/bench/%d.csv", k1)
}

// benchHandler serves the files of benchCSV.
func benchHandler(w http.ResponseWriter, r *http.Request) {
	{
		var k1 int
		if _, err := fmt.Sscanf(r.URL.Path, "/bench/%d.csv", &k1); err != nil {
			http.NotFound(w, r)
			return
		}
		benchMu.Lock()
		data := benchFiles[k1]
		benchMu.Unlock()
		w.Header().Set("Content-Type", "text/csv")
		_, _ = w.Write(data)
	}
}

// BenchmarkPipeline times the page's full pipeline on a simulated
// pilot with r = 10 and k2 = 2000, as custom metrics:
//
//	drop-s      file dropped -> observed curve drawn (the chart's drawing ends)
//	dropseen-s  file dropped -> a polling script sees the summary
//	droptask-ms longest main-thread task while the file loads
//	answer-s    file dropped -> the recommended accuracy at k2 = 10 k1 with its interval in the headline
//	baseline-s  plug-in + KDE + regression (all registered baselines)
//	cleanex-s   CleaneX fast
//	longtask-ms longest main-thread task while the methods run
//	cancel-ms   cancel -> run settled and the workers idle (a new plug-in run completes)
//	cancelsettle-ms cancel -> the cancelled run's promise settled
//	paper-eta-s CleaneX paper: elapsed + the page's ETA after ~15 s (then cancelled)
//	peak-MB     peak resident memory of the tab's renderer process (page + workers)
func BenchmarkPipeline(b *testing.B) {
	for _, k1 := range []int{100, 500} {
		b.Run(fmt.Sprintf("k1=%d", k1), func(b *testing.B) {
			url := benchCSV(b, k1)
			for range b.N {
				benchOnce(b, url, k1)
			}
		})
	}
}

func benchOnce(b *testing.B, url string, k1 int) {
	p := openPage(b, "example=0")
	// Drop on a ready page: the workers have started ("Starting…" is gone).
	p.waitJS(`!document.querySelector("#busy").textContent`, 120*time.Second)
	// Fetch the file first (network time is not the page's), then time the drop.
	mustEval[chromedp.Void](p, fmt.Sprintf(`fetch(%q).then(r => r.blob()).then(bl => { window.__file = new File([bl], "bench.csv", {type: "text/csv"}); })`, "../.."+url), 120*time.Second)
	// "Drawn" is when the page finished drawing the accuracy chart with the
	// new data set (the canvas's data-drawn-at); the browser paints it in
	// the next frame. "Seen" is when a polling script, delayed by whatever
	// else the page thread does, finds the summary on the page.
	drop := mustEval[[]float64](p, `new Promise((res, rej) => {
		window.__long = []; new PerformanceObserver(l => l.getEntries().forEach(e => window.__long.push(e.duration))).observe({type: "longtask"});
		const cv = document.querySelector("#chart-acc"), before = cv.getAttribute("data-dataset");
		const t0 = performance.now(); window.__t0 = t0;
		const dt = new DataTransfer(); dt.items.add(window.__file);
		document.querySelector("#dropzone").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		let seen = 0;
		const poll = () => {
			const s = document.querySelector("#summary");
			if (!seen && s && s.textContent.includes("bench.csv")) seen = performance.now();
			const ds = cv.getAttribute("data-dataset");
			if (seen && ds && ds !== before) { res([(Number(cv.getAttribute("data-drawn-at")) - t0) / 1000, (seen - t0) / 1000]); return; }
			if (performance.now() - t0 > 300000) { rej(new Error("timeout")); return; }
			setTimeout(poll, 5);
		};
		poll();
	})`, 320*time.Second)
	dropLong := mustEval[float64](p, `Math.max(0, ...window.__long)`, 10*time.Second)
	// The page analyses a dropped file at once (k2 = 10 k1): the answer is
	// there when the headline gives the recommended accuracy with its interval.
	answer := mustEval[float64](p, `new Promise((res, rej) => {
		const poll = () => {
			const h = document.querySelector("#headline");
			if (h && h.textContent.includes("80% interval")) { res((performance.now() - window.__t0) / 1000); return; }
			if (performance.now() - window.__t0 > 600000) { rej(new Error("timeout")); return; }
			setTimeout(poll, 10);
		};
		poll();
	})`, 620*time.Second)
	mustEval[chromedp.Void](p, `window.cleanex.cancel(); window.__long = []; new PerformanceObserver(l => l.getEntries().forEach(e => window.__long.push(e.duration))).observe({type: "longtask"})`, 10*time.Second)
	baselines := []string{}
	for _, m := range methods.Names {
		if m != "cleanex" {
			baselines = append(baselines, m)
		}
	}
	base := mustEval[float64](p, fmt.Sprintf(`(async () => { const t0 = performance.now(); await window.cleanex.run({k2: 2000, methods: %s, preset: "fast", seed: 1}); return (performance.now() - t0) / 1000; })()`, jsList(baselines)), 600*time.Second)
	cx := mustEval[float64](p, `(async () => { const t0 = performance.now(); await window.cleanex.run({k2: 2000, methods: ["cleanex"], preset: "fast", seed: 1}); return (performance.now() - t0) / 1000; })()`, 900*time.Second)
	long := mustEval[float64](p, `Math.max(0, ...window.__long)`, 10*time.Second)
	cancel := mustEval[[]float64](p, `(async () => {
		let first; const started = new Promise(r => first = r);
		const pending = window.cleanex.run({k2: 2000, methods: ["cleanex"], preset: "paper", seed: 1, onProgress: first}).catch(() => {});
		await started;
		const t0 = performance.now();
		window.cleanex.cancel();
		await pending;
		const settled = performance.now() - t0;
		await window.cleanex.run({k2: 2000, methods: ["plugin"], seed: 1});
		return [performance.now() - t0, settled];
	})()`, 300*time.Second)
	// CleaneX paper (10,000 steps): its own ETA after about 15 s of training
	// (elapsed + ETA), then cancelled; a full run would take minutes per case.
	paper := mustEval[float64](p, `(async () => {
		const t0 = performance.now(); let est = 0;
		const pending = window.cleanex.run({k2: 2000, methods: ["cleanex"], preset: "paper", seed: 1, onProgress: e => {
			const el = (performance.now() - t0) / 1000;
			if (e.eta != null && e.step > 0) est = el + e.eta;
			if (el > 15 && est > 0) window.cleanex.cancel();
		}}).catch(() => {});
		await pending;
		return est;
	})()`, 300*time.Second)
	b.ReportMetric(paper, "paper-eta-s")
	b.ReportMetric(rendererPeakMB(), "peak-MB")
	b.ReportMetric(drop[0], "drop-s")
	b.ReportMetric(drop[1], "dropseen-s")
	b.ReportMetric(answer, "answer-s")
	b.ReportMetric(dropLong, "droptask-ms")
	b.ReportMetric(base, "baseline-s")
	b.ReportMetric(cx, "cleanex-s")
	b.ReportMetric(long, "longtask-ms")
	b.ReportMetric(cancel[0], "cancel-ms")
	b.ReportMetric(cancel[1], "cancelsettle-ms")
}
