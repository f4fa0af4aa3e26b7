//go:build benchcases

// Robustness studies on a bank of fresh simulated pilots (slow; not part of
// go test):
//
//	GOMAXPROCS=1 go test -tags benchcases -run TestRobustBank -timeout 0 ./internal/estimate/cleanex/
//
// The bank is the 8 settings {classes normal|uniform} x {points
// normal|uniform} x {sigma^2 0.1, 0.2} at each dimension of CX_DS (default
// "3,5,10"), CX_WORLDS worlds each (default 2; world seeds from 20000, not
// the shared benchmark's), K = 2000, r = 10, one pilot of CX_K1 classes
// (default 100) per world. Every pilot is fitted with seeds 0..CX_SEEDS-1
// (default 5) by each variant of CX_VARIANT (comma-separated, see
// robustVariants). CX_TRANSFORM rescales the scores before the fit: none,
// scale-6 (x 1e-6), scale6 (x 1e6) or softmax (per-row softmax of
// -10 x distance). Lines go to the test log and to CX_LOG when set.
package cleanex

import (
	"context"
	"encoding/json"
	"errors"
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
	"github.com/cleanex/cleanex/internal/simulate"
)

// robustVariants are the configurations compared by TestRobustBank.
func robustVariants() map[string]Preset {
	m := map[string]Preset{}
	f := Fast()
	m["fast"] = f
	old := f
	old.Restarts, old.noCheck = 0, true
	m["old"] = old
	v := func(name string, edit func(p *Preset)) {
		q := f
		q.Hidden = slices.Clone(f.Hidden)
		edit(&q)
		m[name] = q
	}
	v("ens2", func(p *Preset) { p.Networks = 2 })
	v("ens3s200", func(p *Preset) { p.Networks, p.Steps = 3, 200 })
	v("ens4s150", func(p *Preset) { p.Networks, p.Steps = 4, 150 })
	v("ens4", func(p *Preset) { p.Networks = 4 })
	v("best2", func(p *Preset) { p.bestOf = 2 })
	v("bias01", func(p *Preset) { p.hiddenBias = 0.1 })
	v("h16x8", func(p *Preset) { p.Hidden = []int{16, 8} })
	v("h16x8ens2", func(p *Preset) { p.Hidden, p.Networks = []int{16, 8}, 2 })
	v("s150", func(p *Preset) { p.Steps = 150 })
	for _, d := range []float64{1e-9, 1e-8, 1e-7, 1e-6} {
		v(fmt.Sprintf("decay%g", d), func(p *Preset) { p.decay = d })
	}
	return m
}

type bankPilot struct {
	name, setting string
	s             *accuracy.Sample
	truth         accuracy.Curve
}

func envList(name, def string) []string { return strings.Split(envStr(name, def), ",") }

func envStr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// transformMatrix applies CX_TRANSFORM to m's distances in place and returns
// the direction of the result.
func transformMatrix(t testing.TB, m *scores.Matrix, how string) scores.Direction {
	k := m.K()
	switch how {
	case "none":
	case "scale-6":
		for i := range m.Scores {
			m.Scores[i] *= 1e-6
		}
	case "scale6":
		for i := range m.Scores {
			m.Scores[i] *= 1e6
		}
	case "softmax":
		for i := 0; i < len(m.Scores); i += k {
			row := m.Scores[i : i+k]
			mx := math.Inf(1)
			for _, v := range row {
				mx = min(mx, v)
			}
			sum := 0.0
			for j, v := range row {
				row[j] = math.Exp(-10 * (v - mx))
				sum += row[j]
			}
			for j := range row {
				row[j] /= sum
			}
		}
		return scores.Higher
	default:
		t.Fatalf("unknown transform %q", how)
	}
	return scores.Lower
}

// cachedTruth returns w.Truth(), cached as JSON in $CX_CACHE (default cxs
// in the system's temporary folder) under the world's seed and dimension.
func cachedTruth(t testing.TB, w *simulate.World, idx uint64) accuracy.Curve {
	dir := envStr("CX_CACHE", filepath.Join(os.TempDir(), "cxs"))
	path := fmt.Sprintf("%s/truth_%d_d%d.json", dir, idx, w.Config.D)
	if b, err := os.ReadFile(path); err == nil {
		var c accuracy.Curve
		if json.Unmarshal(b, &c) == nil {
			return c
		}
	}
	c := w.Truth()
	if b, err := json.Marshal(c); err == nil {
		_ = os.WriteFile(path, b, 0o644)
	}
	return c
}

func robustBank(t testing.TB, k1 int) []bankPilot {
	worlds := envInt("CX_WORLDS", 2)
	how := envStr("CX_TRANSFORM", "none")
	var bank []bankPilot
	idx := uint64(20000)
	for _, ds := range envList("CX_DS", "3,5,10") {
		d, _ := strconv.Atoi(ds)
		for _, cd := range []simulate.Dist{simulate.Normal, simulate.Uniform} {
			for _, pd := range []simulate.Dist{simulate.Normal, simulate.Uniform} {
				for _, s2 := range []float64{0.1, 0.2} {
					for wi := range worlds {
						idx++
						w, err := simulate.Generate(simulate.Config{Classes: cd, Points: pd, D: d, Sigma2: s2, K: 2000, R: 10, Seed: idx})
						if err != nil {
							t.Fatal(err)
						}
						m, err := w.Pilot(k1, 1)
						if err != nil {
							t.Fatal(err)
						}
						dir := transformMatrix(t, m, how)
						s, _, err := accuracy.NewSample(m, dir)
						if err != nil {
							t.Fatal(err)
						}
						setting := fmt.Sprintf("d%d_%s_%s_s%g", d, cd, pd, s2)
						bank = append(bank, bankPilot{name: fmt.Sprintf("%s_w%d", setting, wi), setting: setting, s: s, truth: cachedTruth(t, w, idx)})
					}
				}
			}
		}
	}
	return bank
}

// TestRobustBank fits every bank pilot with every seed and variant and logs,
// per fit, the RMSE over k = 2..2000, the prediction at 2000, whether Fit
// returned ErrDegenerate and whether the checker judges the returned fit
// degenerate; then per variant: degenerate counts, the per-pilot spread of
// the prediction at 2000 over seeds (median and max of max - min), the RMSE
// per setting (mean over pilots and seeds) and pooled.
func TestRobustBank(t *testing.T) {
	k1 := envInt("CX_K1", 100)
	seeds := envInt("CX_SEEDS", 5)
	bank := robustBank(t, k1)
	variants := robustVariants()
	for _, name := range envList("CX_VARIANT", "fast") {
		pair := name == "oldfast"
		p, ok := variants[name]
		if pair {
			p, ok = variants["old"], true
		}
		if !ok {
			t.Fatalf("unknown variant %q", name)
		}
		var spreads, spreadsAfter, allR, allAfter []float64
		perSetting := map[string][]float64{}
		perAfter := map[string][]float64{}
		var settings []string
		errs, flagged, fits := 0, 0, 0
		secs := 0.0
		for _, bp := range bank {
			ch := newChecker(bp.s, bp.s.N())
			var preds, after []float64
			if !slices.Contains(settings, bp.setting) {
				settings = append(settings, bp.setting)
			}
			for seed := range seeds {
				start := time.Now()
				res, err := Estimator{Preset: p, Seed: uint64(seed)}.Fit(context.Background(), bp.s, 2000, nil)
				el := time.Since(start).Seconds()
				secs += el
				fits++
				if err != nil {
					if !errors.Is(err, ErrDegenerate) {
						t.Fatal(err)
					}
					errs++
					logLine(t, fmt.Sprintf("FIT\t%s\t%s\tk1=%d\tseed=%d\tERR\t%v\tsecs=%.2f", name, bp.name, k1, seed, err, el))
					continue
				}
				verdict := "ok"
				_, cerr := ch.check(res.C, math.NaN())
				if cerr != nil && p.Networks == 1 {
					flagged++
					verdict = cerr.Error()
				}
				r := accuracy.RMSE(res.Curve, bp.truth)
				allR = append(allR, r)
				perSetting[bp.setting] = append(perSetting[bp.setting], r)
				preds = append(preds, res.Curve[2000])
				logLine(t, fmt.Sprintf("FIT\t%s\t%s\tk1=%d\tseed=%d\trmse=%.4f\tpred=%.3f\ttruth=%.3f\tobsK=%.3f\tsecs=%.2f\tevals=%d\t%s",
					name, bp.name, k1, seed, r, res.Curve[2000], bp.truth[2000], bp.s.Observed[k1], el, len(res.Losses), verdict))
				if !pair {
					continue
				}
				// The checked fit equals the unchecked one unless the first
				// attempt is degenerate (attempt 0 uses the same stream).
				if cerr != nil {
					res, err = Estimator{Preset: variants["fast"], Seed: uint64(seed)}.Fit(context.Background(), bp.s, 2000, nil)
					if err != nil {
						errs++
						logLine(t, fmt.Sprintf("REFIT\t%s\tseed=%d\tERR\t%v", bp.name, seed, err))
						continue
					}
					r = accuracy.RMSE(res.Curve, bp.truth)
					logLine(t, fmt.Sprintf("REFIT\t%s\tseed=%d\trmse=%.4f\tpred=%.3f\ttruth=%.3f", bp.name, seed, r, res.Curve[2000], bp.truth[2000]))
				}
				allAfter = append(allAfter, r)
				perAfter[bp.setting] = append(perAfter[bp.setting], r)
				after = append(after, res.Curve[2000])
			}
			if len(preds) > 1 {
				spreads = append(spreads, slices.Max(preds)-slices.Min(preds))
			}
			if len(after) > 1 {
				spreadsAfter = append(spreadsAfter, slices.Max(after)-slices.Min(after))
			}
		}
		for _, st := range settings {
			line := fmt.Sprintf("SETTING\t%s\tk1=%d\t%s\trmse=%.4f\tn=%d", name, k1, st, mean(perSetting[st]), len(perSetting[st]))
			if pair {
				line += fmt.Sprintf("\tafter=%.4f\tn=%d", mean(perAfter[st]), len(perAfter[st]))
			}
			logLine(t, line)
		}
		logLine(t, fmt.Sprintf("TOTAL\t%s\tk1=%d\ttransform=%s\tfits=%d\terrors=%d\tflagged=%d\trmse_mean=%.4f\trmse_median=%.4f\tspread_median=%.4f\tspread_max=%.4f\tsecs/fit=%.2f",
			name, k1, envStr("CX_TRANSFORM", "none"), fits, errs, flagged, mean(allR), median(allR), median(spreads), slices.Max(append(spreads, 0)), secs/float64(fits)))
		if pair {
			logLine(t, fmt.Sprintf("TOTAL\tafter\tk1=%d\ttransform=%s\trmse_mean=%.4f\trmse_median=%.4f\tspread_median=%.4f\tspread_max=%.4f",
				k1, envStr("CX_TRANSFORM", "none"), mean(allAfter), median(allAfter), median(spreadsAfter), slices.Max(append(spreadsAfter, 0))))
		}
	}
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// TestRobustFile fits the distance pilot in CX_FILE (k1 classes of a world of
// CX_FILE_SEED generated like TestRobustBank's uniform/uniform d=5
// sigma^2=0.1 world, K = 2000) with seeds 0..CX_SEEDS-1 and logs the
// prediction at 2000 and the checker's verdict per seed.
func TestRobustFile(t *testing.T) {
	name := os.Getenv("CX_FILE")
	if name == "" {
		t.Skip("set CX_FILE to a pilot's score CSV")
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := scores.Parse(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	dir := transformMatrix(t, m, envStr("CX_TRANSFORM", "none"))
	s, _, err := accuracy.NewSample(m, dir)
	if err != nil {
		t.Fatal(err)
	}
	ch := newChecker(s, s.N())
	for _, name := range envList("CX_VARIANT", "fast") {
		p := robustVariants()[name]
		for seed := range envInt("CX_SEEDS", 10) {
			start := time.Now()
			res, err := Estimator{Preset: p, Seed: uint64(seed)}.Fit(context.Background(), s, 2000, nil)
			if err != nil {
				logLine(t, fmt.Sprintf("FILE\t%s\tseed=%d\tERR %v", name, seed, err))
				continue
			}
			v := "ok"
			if _, cerr := ch.check(res.C, math.NaN()); cerr != nil {
				v = cerr.Error()
			}
			logLine(t, fmt.Sprintf("FILE\t%s\tseed=%d\tpred=%.3f\tE_K=%.4f\tobsK=%.4f\tloss=%.3g\tconst=%.3g\tsecs=%.2f\t%s",
				name, seed, res.Curve[2000], res.Curve[s.K], s.Observed[s.K], res.Losses[len(res.Losses)-1], ch.constLoss, time.Since(start).Seconds(), v))
		}
	}
}
