package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/backtest"
)

const native = `goos: linux
pkg: github.com/cleanex/cleanex/internal/scores
BenchmarkParse/1000x100-2         	      30	  4000000 ns/op	 25.0 MB/s	  100 allocs/op
BenchmarkParse/1000x100-2         	      30	  2000000 ns/op	 50.0 MB/s	  100 allocs/op
BenchmarkParse/1000x100-2         	      30	  3000000 ns/op	 33.3 MB/s	  100 allocs/op
PASS
ok  	github.com/cleanex/cleanex/internal/scores	3.1s
`

const wasm = `pkg: github.com/cleanex/cleanex/internal/scores
BenchmarkParse/1000x100 	       3	 30000000 ns/op
BenchmarkParse/1000x100 	       3	 10000000 ns/op
`

func TestReadAndMedian(t *testing.T) {
	s, err := Read(strings.NewReader(native))
	if err != nil {
		t.Fatal(err)
	}
	key := "scores.BenchmarkParse/1000x100"
	if len(s.Keys) != 1 || s.Keys[0] != key {
		t.Fatalf("keys %q, want [%q]", s.Keys, key)
	}
	if got := backtest.Median(s.Values[key]["ns/op"]); got != 3e6 {
		t.Errorf("median ns/op %v, want 3e6", got)
	}
	if got := s.Units[key]; strings.Join(got, ",") != "ns/op,MB/s,allocs/op" {
		t.Errorf("units %q", got)
	}
	w, err := Read(strings.NewReader(wasm))
	if err != nil {
		t.Fatal(err)
	}
	if got := backtest.Median(w.Values[key]["ns/op"]); got != 2e7 {
		t.Errorf("even-count median %v, want 2e7 (mean of the middle two)", got)
	}
	var out bytes.Buffer
	s.Name, w.Name = "native", "wasm"
	Print(&out, []*Set{s, w})
	for _, want := range []string{"3ms (n=3)", "20ms (n=2)", "6.67x"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

func TestTrimProcs(t *testing.T) {
	for in, want := range map[string]string{
		"BenchmarkA-8":        "BenchmarkA",
		"BenchmarkA/k=100-16": "BenchmarkA/k=100",
		"BenchmarkA/x-y":      "BenchmarkA/x-y",
		"BenchmarkA":          "BenchmarkA",
	} {
		if got := trimProcs(in); got != want {
			t.Errorf("trimProcs(%q) = %q, want %q", in, got, want)
		}
	}
}
