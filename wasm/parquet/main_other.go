//go:build !(js && wasm)

// Command parquet is the page's Parquet reader; it runs only as
// GOOS=js GOARCH=wasm inside a Web Worker (see main.go).
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "parquet: build with GOOS=js GOARCH=wasm and start it from assets/parquet.js")
	os.Exit(2)
}
