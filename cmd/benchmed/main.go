// Command benchmed prints the median of repeated Go benchmark runs
// (`go test -bench . -count N` output), side by side for several files, e.g.
// native and wasm runs of the same benchmarks (`./build.sh bench`).
//
// Usage:
//
//	benchmed native.txt wasm.txt [browser.txt]
//
// Each file's column is named after the file (without directory, "bench-" prefix and
// extension). Benchmarks are keyed by package and name without the -GOMAXPROCS suffix,
// so the same benchmark lines up across targets. The last column is the ratio of the
// second file's ns/op median to the first's. Hand-written because golang.org/x/perf is
// not a dependency of this module and the medians are all we need.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cleanex/cleanex/internal/backtest"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: benchmed FILE...")
		os.Exit(2)
	}
	var sets []*Set
	for _, path := range os.Args[1:] {
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchmed:", err)
			os.Exit(1)
		}
		s, err := Read(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "benchmed: %s: %v\n", path, err)
			os.Exit(1)
		}
		s.Name = label(path)
		sets = append(sets, s)
	}
	Print(os.Stdout, sets)
}

func label(path string) string {
	b := filepath.Base(path)
	b = strings.TrimSuffix(b, filepath.Ext(b))
	return strings.TrimPrefix(b, "bench-")
}

// Set holds the samples of one benchmark output: per benchmark key and unit,
// every value seen (one per -count run).
type Set struct {
	// Name labels the set's column.
	Name string
	// Keys lists benchmark keys in first-seen order.
	Keys []string
	// Values maps key -> unit -> samples.
	Values map[string]map[string][]float64
	// Units maps key -> units in first-seen order.
	Units map[string][]string
}

// Read parses `go test -bench` output: "pkg: PATH" lines set the package, and
// "BenchmarkName[-P] N v1 unit1 v2 unit2 ..." lines add one sample per unit.
func Read(r io.Reader) (*Set, error) {
	s := &Set{Values: map[string]map[string][]float64{}, Units: map[string][]string{}}
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = p[strings.LastIndexByte(p, '/')+1:]
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue
		}
		key := trimProcs(f[0])
		if pkg != "" {
			key = pkg + "." + key
		}
		if s.Values[key] == nil {
			s.Values[key] = map[string][]float64{}
			s.Keys = append(s.Keys, key)
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			unit := f[i+1]
			if _, seen := s.Values[key][unit]; !seen {
				s.Units[key] = append(s.Units[key], unit)
			}
			s.Values[key][unit] = append(s.Values[key][unit], v)
		}
	}
	return s, sc.Err()
}

// trimProcs drops a trailing "-N" (the GOMAXPROCS suffix) from a benchmark name.
func trimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return name
	}
	if _, err := strconv.Atoi(name[i+1:]); err != nil {
		return name
	}
	return name[:i]
}

// Print writes one row per benchmark and unit with each set's median and run
// count, and for ns/op the ratio of the second set to the first.
func Print(w io.Writer, sets []*Set) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "benchmark\tunit"
	for _, s := range sets {
		head += "\t" + s.Name
	}
	if len(sets) >= 2 {
		head += "\t" + sets[1].Name + "/" + sets[0].Name
	}
	fmt.Fprintln(tw, head+"\t")
	var keys []string
	seen := map[string]bool{}
	for _, s := range sets {
		for _, k := range s.Keys {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	for _, k := range keys {
		var units []string
		for _, s := range sets {
			for _, u := range s.Units[k] {
				if !slices.Contains(units, u) {
					units = append(units, u)
				}
			}
		}
		for _, u := range units {
			row := k + "\t" + u
			var med []float64
			for _, s := range sets {
				xs := s.Values[k][u]
				if len(xs) == 0 {
					row += "\t-"
					med = append(med, 0)
					continue
				}
				m := backtest.Median(xs)
				med = append(med, m)
				row += fmt.Sprintf("\t%s (n=%d)", format(m, u), len(xs))
			}
			if len(sets) >= 2 {
				if u == "ns/op" && med[0] > 0 && med[1] > 0 {
					row += fmt.Sprintf("\t%.2fx", med[1]/med[0])
				} else {
					row += "\t"
				}
			}
			fmt.Fprintln(tw, row+"\t")
		}
	}
	tw.Flush()
}

// format shows ns/op as a duration with a readable unit, other units as numbers.
func format(v float64, unit string) string {
	if unit != "ns/op" {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%.3gs", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.3gms", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.3gµs", v/1e3)
	}
	return fmt.Sprintf("%.3gns", v)
}
