//go:build benchcases

// Accuracy studies on the benchmark cases (slow; not part of go test):
//
//	go test -tags benchcases -run TestStudy -timeout 0 ./internal/estimate/cleanex/
//
// Environment: CLEANEX_CASES (comma-separated case names, default all 16),
// CLEANEX_PRESET (paper or a study config name), CLEANEX_SEEDS (default 1),
// CLEANEX_LOG (file appended with one line per fit).
package cleanex

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
)

const benchDir = "/work/shared/benchmark/sim-d5-k100"

func benchCases() []string {
	if c := os.Getenv("CLEANEX_CASES"); c != "" {
		return strings.Split(c, ",")
	}
	var out []string
	for _, y := range []string{"Yn", "Yu"} {
		for _, x := range []string{"Xn", "Xu"} {
			for _, s := range []string{"0.1", "0.2"} {
				for _, r := range []string{"rep0", "rep1"} {
					out = append(out, fmt.Sprintf("%s_%s_s%s_%s", y, x, s, r))
				}
			}
		}
	}
	return out
}

func loadCase(t testing.TB, name string) (*accuracy.Sample, accuracy.Curve) {
	f, err := os.Open(filepath.Join(benchDir, name+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := scores.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := accuracy.NewSample(m, scores.Lower)
	if err != nil {
		t.Fatal(err)
	}
	tf, err := os.Open(filepath.Join(benchDir, name+"_truth.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer tf.Close()
	truth := accuracy.Curve{1, 1}
	sc := bufio.NewScanner(tf)
	sc.Scan()
	for sc.Scan() {
		parts := strings.Split(sc.Text(), ",")
		v, err := strconv.ParseFloat(parts[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		truth = append(truth, v)
	}
	return s, truth
}

func logLine(t testing.TB, line string) {
	t.Log(line)
	if p := os.Getenv("CLEANEX_LOG"); p != "" {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(f, line)
		f.Close()
	}
}

// studyPresets are the configurations compared in the research log.
func studyPresets() map[string]Preset {
	return map[string]Preset{
		"paper": Paper(),
		"fast":  Fast(),
	}
}

func TestStudy(t *testing.T) {
	name := os.Getenv("CLEANEX_PRESET")
	if name == "" {
		name = "fast"
	}
	p, ok := studyPresets()[name]
	if !ok {
		t.Fatalf("unknown study preset %q", name)
	}
	seeds := 1
	if v := os.Getenv("CLEANEX_SEEDS"); v != "" {
		seeds, _ = strconv.Atoi(v)
	}
	var rm []float64
	for _, c := range benchCases() {
		s, truth := loadCase(t, c)
		var rs []float64
		secs := 0.0
		for seed := range seeds {
			start := time.Now()
			res, err := Estimator{Preset: p, Seed: uint64(seed)}.Fit(context.Background(), s, truth.Max(), nil)
			if err != nil {
				t.Fatal(err)
			}
			secs += time.Since(start).Seconds()
			r := accuracy.RMSE(res.Curve, truth)
			rs = append(rs, r)
			logLine(t, fmt.Sprintf("%s\t%s\tseed=%d\trmse=%.6f\tsecs=%.2f\tfinal_loss=%.3g", name, c, seed, r, time.Since(start).Seconds(), res.Losses[len(res.Losses)-1]))
		}
		mean := 0.0
		for _, r := range rs {
			mean += r
		}
		mean /= float64(len(rs))
		rm = append(rm, mean)
		logLine(t, fmt.Sprintf("SUMMARY\t%s\t%s\tmean=%.4f\tspread=%.4f\tsecs/fit=%.2f", name, c, mean, slices.Max(rs)-slices.Min(rs), secs/float64(seeds)))
	}
	slices.Sort(rm)
	mean := 0.0
	for _, r := range rm {
		mean += r
	}
	logLine(t, fmt.Sprintf("TOTAL\t%s\tmedian=%.4f\tmean=%.4f\tworst=%.4f\tcases=%d", name, median(rm), mean/float64(len(rm)), rm[len(rm)-1], len(rm)))
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}
