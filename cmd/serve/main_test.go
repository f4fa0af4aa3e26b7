package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

func TestHandlerTypes(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html":          "<!doctype html><title>x</title>",
		"app.wasm":            "\x00asm\x01\x00\x00\x00",
		"assets/wasm_exec.js": "'use strict';",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, tc := range []struct {
		path, status, typ string
	}{
		{"/", "200 OK", "text/html; charset=utf-8"},
		{"/app.wasm", "200 OK", "application/wasm"},
		{"/assets/wasm_exec.js", "200 OK", "text/javascript; charset=utf-8"},
		{"/missing.wasm", "404 Not Found", ""},
		{"/../../etc/passwd", "404 Not Found", ""},
	} {
		resp, err := http.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.Status != tc.status {
			t.Errorf("%s: status %q, want %q", tc.path, resp.Status, tc.status)
		}
		if tc.typ != "" && resp.Header.Get("Content-Type") != tc.typ {
			t.Errorf("%s: Content-Type %q, want %q", tc.path, resp.Header.Get("Content-Type"), tc.typ)
		}
		if tc.typ != "" && resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: Cache-Control %q, want no-store", tc.path, resp.Header.Get("Cache-Control"))
		}
	}
}

func TestURL(t *testing.T) {
	tcp := func(s string) net.Addr {
		a, err := net.ResolveTCPAddr("tcp", s)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, tc := range []struct {
		addr, got, want string
	}{
		{"localhost:8080", "127.0.0.1:8080", "http://localhost:8080/"},
		{":9000", "[::]:9000", "http://localhost:9000/"},
		{"127.0.0.1:0", "127.0.0.1:41234", "http://127.0.0.1:41234/"},
	} {
		if got := URL(tc.addr, tcp(tc.got)); got != tc.want {
			t.Errorf("URL(%q, %s) = %q, want %q", tc.addr, tc.got, got, tc.want)
		}
	}
}
