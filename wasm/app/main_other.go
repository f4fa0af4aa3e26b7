//go:build !(js && wasm)

// Command app is the page's entry point; it runs only as GOOS=js
// GOARCH=wasm in a browser (see main.go and index.html).
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "app: build with GOOS=js GOARCH=wasm and open index.html (./build.sh serve)")
	os.Exit(2)
}
