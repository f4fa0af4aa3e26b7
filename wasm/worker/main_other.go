//go:build !(js && wasm)

// Command worker is the app's compute worker; it runs only as
// GOOS=js GOARCH=wasm inside a Web Worker (see main.go).
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "worker: build with GOOS=js GOARCH=wasm and start it from assets/worker.js")
	os.Exit(2)
}
