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
	"context"
	"fmt"
	"github.com/cleanex/cleanex/internal/detmath"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/backtest"
	"github.com/cleanex/cleanex/internal/benchcases"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/estimate/kde"
	"github.com/cleanex/cleanex/internal/estimate/regress"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/simulate"
)

// benchCases returns the benchmark cases (benchcases.Dir), only those
// named in $CLEANEX_CASES (comma-separated) when it is set.
func benchCases(t testing.TB) []benchcases.Case {
	t.Helper()
	all, err := benchcases.Load(benchcases.Dir())
	if err != nil {
		t.Fatalf("benchmark cases: %v (BENCH_CASES overrides benchcases.CasesDir)", err)
	}
	only := os.Getenv("CLEANEX_CASES")
	if only == "" {
		return all
	}
	var out []benchcases.Case
	for _, c := range all {
		if slices.Contains(strings.Split(only, ","), c.Name) {
			out = append(out, c)
		}
	}
	return out
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

// studyPresets are the configurations compared by TestStudy (see docs/cleanex-fast.md).
func studyPresets() map[string]Preset {
	m := map[string]Preset{
		"paper": Paper(),
		"fast":  Fast(),
	}
	for _, in := range []struct {
		name string
		in   Inputs
	}{{"gap", TailGaps}} {
		for _, h := range []struct {
			name string
			h    []int
		}{{"h32x16", []int{32, 16}}, {"h16x8", []int{16, 8}}, {"h64x32", []int{64, 32}}, {"h8x4", []int{8, 4}}, {"h16", []int{16}}, {"h4", []int{4}}, {"lin", nil}, {"h24x12", []int{24, 12}}} {
			for _, st := range []int{100, 150, 200, 300, 500, 1000, 2000} {
				m[fmt.Sprintf("%s_%s_lbfgs%d", in.name, h.name, st)] = Preset{Name: "study", Inputs: in.in, TailRatio: 1.5,
					Hidden: h.h, Optimizer: LBFGS, Steps: st, Networks: 1}
				for _, ens := range []int{2, 3, 4, 5, 8} {
					m[fmt.Sprintf("%s_%s_lbfgs%d_ens%d", in.name, h.name, st, ens)] = Preset{Name: "study", Inputs: in.in, TailRatio: 1.5,
						Hidden: h.h, Optimizer: LBFGS, Steps: st, Networks: ens}
				}
				for _, lr := range []float64{1e-3, 3e-3, 1e-2} {
					m[fmt.Sprintf("%s_%s_adam%g_%d", in.name, h.name, lr, st)] = Preset{Name: "study", Inputs: in.in, TailRatio: 1.5,
						Hidden: h.h, Optimizer: Adam, LearningRate: lr, Steps: st, Networks: 1}
				}
			}
		}
	}
	return m
}

func TestStudy(t *testing.T) {
	names := os.Getenv("CLEANEX_PRESET")
	if names == "" {
		names = "fast"
	}
	for _, name := range strings.Split(names, ",") {
		study(t, name)
	}
}

func study(t *testing.T, name string) {
	p, ok := studyPresets()[name]
	if !ok {
		t.Fatalf("unknown study preset %q", name)
	}
	seeds := 1
	if v := os.Getenv("CLEANEX_SEEDS"); v != "" {
		seeds, _ = strconv.Atoi(v)
	}
	var rm []float64
	for _, bc := range benchCases(t) {
		c, s, truth := bc.Name, bc.Sample, bc.Truth
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
			logLine(t, fmt.Sprintf("%s\t%s\tseed=%d\trmse=%.6f\tsecs=%.2f\tfinal_loss=%.3g\tevals=%d", name, c, seed, r, time.Since(start).Seconds(), res.Losses[len(res.Losses)-1], len(res.Losses)))
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

// median is the median of values (sorted or not).
var median = backtest.Median

func envInt(name string, def int) int {
	if v := os.Getenv(name); v != "" {
		n, err := strconv.Atoi(v)
		if err == nil {
			return n
		}
	}
	return def
}

// TestSimStudy runs the methods in CLEANEX_PRESET (study presets, or kde,
// regression) on fresh simulations: the 8 settings at dimension CLEANEX_SIM_D
// (default 5) with sigma^2 from CLEANEX_SIM_S2 (default "0.1,0.2"), k2 = 2000,
// r = 10, k1 = CLEANEX_SIM_K1 (default 100), CLEANEX_SIM_REPS pilots
// (default 2), world seeds offset by CLEANEX_SIM_SEED (default 9000).
func TestSimStudy(t *testing.T) {
	d := envInt("CLEANEX_SIM_D", 5)
	k1 := envInt("CLEANEX_SIM_K1", 100)
	reps := envInt("CLEANEX_SIM_REPS", 2)
	base := uint64(envInt("CLEANEX_SIM_SEED", 9000))
	seeds := envInt("CLEANEX_SEEDS", 1)
	s2s := []float64{0.1, 0.2}
	if v := os.Getenv("CLEANEX_SIM_S2"); v != "" {
		s2s = nil
		for _, f := range strings.Split(v, ",") {
			x, _ := strconv.ParseFloat(f, 64)
			s2s = append(s2s, x)
		}
	}
	names := strings.Split(os.Getenv("CLEANEX_PRESET"), ",")
	per := map[string][]float64{}
	idx := uint64(0)
	for _, cd := range []simulate.Dist{simulate.Normal, simulate.Uniform} {
		for _, pd := range []simulate.Dist{simulate.Normal, simulate.Uniform} {
			for _, s2 := range s2s {
				idx++
				w, err := simulate.Generate(simulate.Config{Classes: cd, Points: pd, D: d, Sigma2: s2, K: 2000, R: 10, Seed: base + idx})
				if err != nil {
					t.Fatal(err)
				}
				truth := w.Truth()
				for rep := range reps {
					m, err := w.Pilot(k1, uint64(rep)+1)
					if err != nil {
						t.Fatal(err)
					}
					s, _, err := accuracy.NewSample(m, scores.Lower)
					if err != nil {
						t.Fatal(err)
					}
					cname := fmt.Sprintf("d%d_%s_%s_s%g_k%d_rep%d", d, cd, pd, s2, k1, rep)
					for _, name := range names {
						var ests []estimate.Estimator
						switch name {
						case "kde":
							ests = []estimate.Estimator{kde.Estimator{}}
						case "regression":
							ests = []estimate.Estimator{regress.Estimator{Seed: 1}}
						default:
							p, ok := studyPresets()[name]
							if !ok {
								t.Fatalf("unknown study preset %q", name)
							}
							for seed := range seeds {
								ests = append(ests, Estimator{Preset: p, Seed: uint64(seed)})
							}
						}
						var rs []float64
						secs := 0.0
						predK2 := 0.0
						for _, e := range ests {
							start := time.Now()
							res, err := e.Fit(context.Background(), s, 2000, nil)
							if err != nil {
								t.Fatal(err)
							}
							secs += time.Since(start).Seconds()
							rs = append(rs, accuracy.RMSE(res.Curve, truth))
							predK2 += res.Curve[2000] / float64(len(ests))
						}
						mean := 0.0
						for _, r := range rs {
							mean += r
						}
						mean /= float64(len(rs))
						per[name] = append(per[name], mean)
						logLine(t, fmt.Sprintf("SIM\t%s\t%s\tmean=%.4f\tspread=%.4f\tsecs/fit=%.2f\tobs_k1=%.3f\ttruth_k2=%.3f\tpred_k2=%.3f",
							name, cname, mean, slices.Max(rs)-slices.Min(rs), secs/float64(len(rs)), s.Observed[k1], truth[2000], predK2))
					}
				}
			}
		}
	}
	for _, name := range names {
		rm := slices.Sorted(slices.Values(per[name]))
		mean := 0.0
		for _, r := range rm {
			mean += r
		}
		logLine(t, fmt.Sprintf("SIMTOTAL\t%s\td=%d\tk1=%d\ts2=%v\tmedian=%.4f\tmean=%.4f\tworst=%.4f\tcases=%d",
			name, d, k1, s2s, median(rm), mean/float64(len(rm)), rm[len(rm)-1], len(rm)))
	}
}

// TestPaperTrajectory trains the paper preset exactly as Fit does (same
// seed stream, encoding and steps) on the cases in CLEANEX_CASES and logs the
// RMSE against the truth every CLEANEX_EVERY steps (default 500), so a run
// that cannot finish still shows where it was going.
func TestPaperTrajectory(t *testing.T) {
	every := envInt("CLEANEX_EVERY", 500)
	seed := uint64(envInt("CLEANEX_SEED", 0))
	p := Paper()
	for _, bc := range benchCases(t) {
		c, s, truth := bc.Name, bc.Sample, bc.Truth
		n := s.N()
		x := encode[float32](s, p.Inputs, p.TailRatio)
		sizes := slices.Concat([]int{inputSize(p.Inputs, s.K, p.TailRatio)}, p.Hidden, []int{1})
		cl := newCurveLoss(s.Weight, s.Observed, ones(s.K+1), s.K)
		rng := rand.New(rand.NewPCG(seed, initStream))
		net := newMLP[float32](sizes, rng)
		ws := newWorkspace(net, n)
		ws.act[0] = x
		start := time.Now()
		_, err := train(context.Background(), net, x, n, cl, p, func(step int, loss float64) {
			if step%every != 0 {
				return
			}
			net.forward(ws, 0, n)
			cx := make([]float64, n)
			for i, z := range ws.act[len(ws.act)-1] {
				cx[i] = detmath.Exp(logSigmoid(float64(z)))
			}
			r := accuracy.RMSE(accuracy.Expected(cx, s.Weight, truth.Max()), truth)
			logLine(t, fmt.Sprintf("paper\t%s\tseed=%d\tstep=%d\trmse=%.6f\tloss=%.3g\tsecs=%.0f", c, seed, step, r, loss, time.Since(start).Seconds()))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestDiag prints predicted and true accuracy at a few k for CLEANEX_PRESET.
func TestDiag(t *testing.T) {
	p := studyPresets()[os.Getenv("CLEANEX_PRESET")]
	seeds := envInt("CLEANEX_SEEDS", 1)
	for _, bc := range benchCases(t) {
		c, s, truth := bc.Name, bc.Sample, bc.Truth
		line := c
		for _, k := range []int{100, 300, 1000, 2000} {
			line += fmt.Sprintf("  k=%d truth %.3f:", k, truth[k])
			for seed := range seeds {
				res, err := Estimator{Preset: p, Seed: uint64(seed)}.Fit(context.Background(), s, 2000, nil)
				if err != nil {
					t.Fatal(err)
				}
				line += fmt.Sprintf(" %.3f", res.Curve[k])
			}
		}
		logLine(t, "DIAG\t"+line)
	}
}

// TestAdamTrace logs the loss every 100 steps of an Adam run (CLEANEX_PRESET).
func TestAdamTrace(t *testing.T) {
	p := studyPresets()[os.Getenv("CLEANEX_PRESET")]
	for _, bc := range benchCases(t) {
		c, s, truth := bc.Name, bc.Sample, bc.Truth
		res, err := Estimator{Preset: p}.Fit(context.Background(), s, 2000, func(pr estimate.Progress) {
			if pr.Step%100 == 0 {
				t.Logf("%s step %d loss %.4g", c, pr.Step, pr.Loss)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s rmse %.4f", c, accuracy.RMSE(res.Curve, truth))
	}
}
