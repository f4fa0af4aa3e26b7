//go:build browser

package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

var (
	browserCtx context.Context
	server     *httptest.Server
	artifacts  string
)

func TestMain(m *testing.M) {
	dist, chromium := os.Getenv("CLEANEX_DIST"), os.Getenv("CLEANEX_CHROMIUM")
	if dist == "" || chromium == "" {
		fmt.Println("SKIP: set CLEANEX_DIST (a built dist/) and CLEANEX_CHROMIUM (./build.sh test does)")
		os.Exit(0)
	}
	if _, err := os.Stat(filepath.Join(dist, "app.wasm")); err != nil {
		fmt.Println("CLEANEX_DIST has no app.wasm:", err)
		os.Exit(1)
	}
	// Serve under a sub-path, as a static host might: relative URLs must work.
	mux := http.NewServeMux()
	mux.Handle("/sub/app/", http.StripPrefix("/sub/app/", http.FileServer(http.Dir(dist))))
	mux.HandleFunc("/bench/", benchHandler)
	server = httptest.NewServer(mux)

	artifacts = artifactDir()
	fmt.Println("browser test artefacts (screenshots):", artifacts)

	userData, err := os.MkdirTemp("", "cleanex-chromium-")
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium),
		chromedp.NoSandbox,
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(userData),
		chromedp.WindowSize(1280, 1000),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	)
	var cancelBrowser context.CancelFunc
	browserCtx, cancelBrowser = chromedp.NewContext(allocCtx)
	if err := chromedp.Do(browserCtx); err != nil { // start the browser
		fmt.Println("starting chromium:", err)
		os.Exit(1)
	}
	code := m.Run()
	cancelBrowser()
	cancelAlloc()
	server.Close()
	os.RemoveAll(userData)
	os.Exit(code)
}

// artifactDir returns build/artifacts/browser in the repository (gitignored),
// or a temporary directory when the repository root is not found.
func artifactDir() string {
	dir, _ := os.Getwd()
	for d := dir; d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			out := filepath.Join(d, "build", "artifacts", "browser")
			if os.MkdirAll(out, 0o755) == nil {
				return out
			}
		}
	}
	out, _ := os.MkdirTemp("", "cleanex-artifacts-")
	return out
}

// page is one tab on the app.
type page struct {
	t   testing.TB
	ctx context.Context
	// origin is the server the page was opened from.
	origin string

	mu       sync.Mutex
	requests []string
	console  []string
}

// openPage opens a new tab on the app (query is appended to the URL, e.g.
// "example=0" to skip the start-up example) and waits for window.cleanex.
// At cleanup it checks that no request went to another origin.
func openPage(t testing.TB, query string) *page {
	t.Helper()
	return openPageAt(t, server.URL, query)
}

// openPageAt is openPage on the app served at base (its /sub/app/); query
// may end in a #fragment.
func openPageAt(t testing.TB, base, query string) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browserCtx)
	p := &page{t: t, ctx: ctx, origin: base}
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			p.mu.Lock()
			p.requests = append(p.requests, e.Request.URL)
			p.mu.Unlock()
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range e.Args {
				if len(a.Value) > 0 {
					parts = append(parts, strings.Trim(string(a.Value), `"`))
				} else {
					parts = append(parts, a.Description)
				}
			}
			p.mu.Lock()
			p.console = append(p.console, strings.Join(parts, " "))
			p.mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.checkOrigins()
		p.mu.Lock()
		for _, line := range p.console {
			if t.Failed() || strings.Contains(line, "slow frame") {
				t.Logf("console: %s", line)
			}
		}
		p.mu.Unlock()
		cancel()
	})
	u := base + "/sub/app/index.html"
	if strings.HasPrefix(query, "#") {
		u += query
	} else if query != "" {
		u += "?" + query
	}
	if err := chromedp.Do(ctx); err != nil { // open the tab
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`typeof window.cleanex === "object"`, 60*time.Second)
	return p
}

// checkOrigins fails the test if any request left for another origin (the
// page fetches only its own files); data: and blob: URLs stay in the page.
func (p *page) checkOrigins() {
	p.mu.Lock()
	defer p.mu.Unlock()
	origin, _ := url.Parse(p.origin)
	if len(p.requests) == 0 {
		p.t.Error("no network request was recorded at all: is the listener working?")
	}
	for _, r := range p.requests {
		u, err := url.Parse(r)
		if err != nil {
			p.t.Errorf("unparsable request URL %q", r)
			continue
		}
		if u.Scheme == "data" || u.Scheme == "blob" {
			continue
		}
		if u.Host != origin.Host || u.Scheme != origin.Scheme {
			p.t.Errorf("a request left for another origin: %s", r)
		}
	}
}

// eval evaluates a JavaScript expression (awaiting a promise) into T.
func eval[T any](p *page, expr string, timeout time.Duration) (T, error) {
	ctx, cancel := context.WithTimeout(p.ctx, timeout)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

// mustEval is eval that fails the test on error.
func mustEval[T any](p *page, expr string, timeout time.Duration) T {
	p.t.Helper()
	v, err := eval[T](p, expr, timeout)
	if err != nil {
		p.shot("failure-" + sanitize(p.t.Name()))
		p.t.Fatalf("evaluating %.120s: %v", expr, err)
	}
	return v
}

// waitJS waits until expr is truthy.
func (p *page) waitJS(expr string, timeout time.Duration) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, timeout+5*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		p.shot("failure-" + sanitize(p.t.Name()))
		p.t.Fatalf("waiting for %s: %v", expr, err)
	}
}

// shot saves a full-page screenshot as artefact name.png, after a moment
// for the last render and the charts (drawn in separate tasks) to land.
func (p *page) shot(name string) {
	time.Sleep(400 * time.Millisecond)
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(artifacts, name+".png")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return
	}
	p.t.Logf("screenshot: %s", path)
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '-'
	}, s)
}
