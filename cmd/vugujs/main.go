// Command vugujs writes Vugu's DOM-renderer helper script to a file, so the
// page can load it with <script src> instead of letting domrender eval it
// (the page's Content-Security-Policy forbids eval). It reads the script from
// the vugu module's source (domrender/renderer-js-script.go, the minified
// constant jsHelperScript), so the file always matches the vugu version in go.mod.
//
//	go run ./cmd/vugujs -o assets/vugu-render.js
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	out := flag.String("o", "assets/vugu-render.js", "output file")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "vugujs:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/vugu/vugu").Output()
	if err != nil {
		return fmt.Errorf("locating the vugu module: %w", err)
	}
	src := filepath.Join(strings.TrimSpace(string(dir)), "domrender", "renderer-js-script.go")
	f, err := parser.ParseFile(token.NewFileSet(), src, nil, 0)
	if err != nil {
		return err
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if name.Name != "jsHelperScript" || i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					return fmt.Errorf("%s: jsHelperScript is not a string literal", src)
				}
				js, err := strconv.Unquote(lit.Value)
				if err != nil {
					return err
				}
				header := "// Vugu's DOM-renderer helper (github.com/vugu/vugu domrender), extracted by cmd/vugujs.\n"
				return os.WriteFile(out, []byte(header+js+"\n"), 0o644)
			}
		}
	}
	return fmt.Errorf("%s: no jsHelperScript constant", src)
}
