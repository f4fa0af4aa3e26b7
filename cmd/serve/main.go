// Command serve serves a directory of static files over HTTP for local use of the
// browser app (`./build.sh serve`). It sets the wasm MIME type (application/wasm,
// needed by WebAssembly.instantiateStreaming), disables caching so a rebuild shows
// at once, and prints the URL it listens on.
//
// Usage:
//
//	serve [-dir dist] [-addr localhost:8080]
package main

import (
	"errors"
	"flag"
	"fmt"
	"mime"
	"net"
	"net/http"
	"os"
)

func main() {
	dir := flag.String("dir", "dist", "directory to serve")
	addr := flag.String("addr", "localhost:8080", "host:port to listen on")
	flag.Parse()
	if err := run(*dir, *addr); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}

func run(dir, addr string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("directory to serve: %w (run ./build.sh dist first)", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (set PORT to use another port)", addr, err)
	}
	fmt.Printf("serving %s on %s (Ctrl-C stops)\n", dir, URL(addr, ln.Addr()))
	err = http.Serve(ln, Handler(dir))
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// URL is the address to open for a server asked to listen on addr that got
// the listener address got: the host as asked ("localhost" when empty), the
// port as bound (which differs when addr asked for port 0).
func URL(addr string, got net.Addr) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	_, port, err := net.SplitHostPort(got.String())
	if err != nil {
		return "http://" + got.String() + "/"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// Handler serves the files under dir with explicit MIME types for the app's file
// kinds and "Cache-Control: no-store".
func Handler(dir string) http.Handler {
	for ext, typ := range map[string]string{
		".wasm": "application/wasm",
		".js":   "text/javascript; charset=utf-8",
		".css":  "text/css; charset=utf-8",
		".html": "text/html; charset=utf-8",
		".csv":  "text/csv; charset=utf-8",
		".svg":  "image/svg+xml",
	} {
		// AddExtensionType only fails on an extension without a leading dot.
		_ = mime.AddExtensionType(ext, typ)
	}
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		files.ServeHTTP(w, r)
	})
}
