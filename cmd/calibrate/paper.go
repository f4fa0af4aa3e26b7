package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/bank"
	"github.com/cleanex/cleanex/internal/recommend"
)

// paperName is the cache key of the published CleaneX fit (PyTorch).
const paperName = "paper"

// keepPaper copies into f, fitted afresh, the published CleaneX fit that
// the cache in dir holds for the same pilot (fit -force refits the Go
// methods; only `calibrate paper` replaces the PyTorch fit).
func keepPaper(dir string, f *Fits) error {
	old, err := loadFits(dir, f.ID)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if c, ok := old.Curves[paperName]; ok {
		f.Curves[paperName] = c
		f.Seconds[paperName] = old.Seconds[paperName]
	} else if msg, ok := old.Errors[paperName]; ok {
		f.Errors[paperName] = msg
	}
	return nil
}

// paperScript is the PyTorch reference of the published CleaneX, relative to
// the repository root.
const paperScript = "internal/bank/paper/cleanex_paper.py"

// paperOptions are the flags of the paper subcommand, given after "--":
//
//	calibrate paper [-families ...] [-k1 ...] [-dir ...] -- [-per 2] [-python P] [-script S] [-threads 2] [-seed 1] [-steps 10000] [-force]
type paperOptions struct {
	per, threads, steps int
	seed                uint64
	python, script      string
	force               bool
	// hidden is the network's hidden layer sizes ("512,128", the paper's).
	hidden string
}

// paperHidden is the published network's hidden layer sizes.
const paperHidden = "512,128"

// variant names a network other than the paper's ("h32x16"), "" for the
// paper's own.
func (o paperOptions) variant() string {
	if o.hidden == paperHidden {
		return ""
	}
	return "h" + strings.ReplaceAll(o.hidden, ",", "x")
}

// cacheName is the cache key of a fit with these options: paperName for the
// paper's network, "paper/<variant>" for another (a check only).
func (o paperOptions) cacheName() string {
	if v := o.variant(); v != "" {
		return paperName + "/" + v
	}
	return paperName
}

// paperAll runs the published CleaneX (internal/bank/paper/cleanex_paper.py,
// PyTorch) on the first -per pilots of every family and k1 among pilots, one
// at a time, and stores each predicted curve (k = 0..K) and its wall time in
// the pilot's cached fits under "paper". Pilots must already be in the cache
// (calibrate fit); those with a "paper" curve are skipped unless -force, so a
// stopped run resumes.
func paperAll(ctx context.Context, dir string, pilots []bank.Pilot, args []string) error {
	o, err := parsePaperOptions("paper", args)
	if err != nil {
		return err
	}
	name := o.cacheName()
	sel := firstPer(pilots, o.per)
	tmp, err := os.MkdirTemp("", "cleanex-paper-")
	if err != nil {
		return fmt.Errorf("paper: %w", err)
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	for i, p := range sel {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := loadFits(dir, p.ID)
		if os.IsNotExist(err) {
			return fmt.Errorf("paper: %s is not in %s; run `calibrate fit` first", p.ID, dir)
		}
		if err != nil {
			return fmt.Errorf("paper: %w", err)
		}
		if _, ok := f.Curves[name]; ok && !o.force {
			fmt.Fprintf(os.Stderr, "[%d/%d] %s: has a paper fit, skipped\n", i+1, len(sel), p.ID)
			continue
		}
		t := time.Now()
		curve, info, err := paperFit(ctx, p, tmp, o)
		secs := time.Since(t).Seconds()
		if err != nil {
			return fmt.Errorf("paper: %s: %w", p.ID, err)
		}
		// Re-read the cache right before writing: other subcommands may have
		// stored their fits of this pilot while the script ran.
		if f, err = loadFits(dir, p.ID); err != nil {
			return fmt.Errorf("paper: %w", err)
		}
		f.Seconds[name] = secs
		delete(f.Errors, name)
		delete(f.Curves, name)
		if why := recommend.CheckFit(curve, recommend.Fits{K1: f.K1, Observed: f.Observed, ClassSE: f.ClassSE, N: f.N}, true); why != nil {
			info += fmt.Sprintf(", the product's check would leave it out: %v", why)
		}
		f.Curves[name] = curve
		if err := saveFits(dir, f); err != nil {
			return fmt.Errorf("paper: %s: %w", p.ID, err)
		}
		fmt.Fprintf(os.Stderr, "[%d/%d %.0fs] %s %.1fs %s; RMSE to truth %.4f, at k <= k1 to observed %.4f\n",
			i+1, len(sel), time.Since(start).Seconds(), p.ID, secs, info,
			accuracy.RMSE(curve[:f.K+1], f.Truth), accuracy.RMSE(curve[:f.K1+1], f.Observed))
	}
	return nil
}

// parsePaperOptions parses the flags of `calibrate paper` and `calibrate
// paper-cases` (name).
func parsePaperOptions(name string, args []string) (paperOptions, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	var o paperOptions
	fs.IntVar(&o.per, "per", 2, "pilots per family and k1 (the first ones of the bank's order; 0 = all)")
	fs.IntVar(&o.threads, "threads", 2, "torch threads")
	fs.IntVar(&o.steps, "steps", 10000, "Adam steps (the paper's 10,000; other values are for checks only)")
	fs.Uint64Var(&o.seed, "seed", 1, "torch seed")
	py := os.Getenv("PYTHON")
	if py == "" {
		py = "/usr/bin/python3"
	}
	fs.StringVar(&o.python, "python", py, "python with torch and numpy ($PYTHON, else /usr/bin/python3)")
	fs.StringVar(&o.script, "script", paperScript, "the PyTorch script")
	fs.StringVar(&o.hidden, "hidden", paperHidden, "hidden layer sizes (the paper's 512,128; others are stored under paper/h<sizes>, for checks only)")
	fs.BoolVar(&o.force, "force", false, "refit pilots that already have a paper fit")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.steps != 10000 && !o.force {
		return o, fmt.Errorf("%s: -steps %d is not the paper's 10000; add -force to store it anyway", name, o.steps)
	}
	return o, nil
}

// firstPer returns the first per pilots of every (family, k1) in pilots'
// order, or all pilots when per <= 0.
func firstPer(pilots []bank.Pilot, per int) []bank.Pilot {
	if per <= 0 {
		return pilots
	}
	seen := map[string]int{}
	var out []bank.Pilot
	for _, p := range pilots {
		key := fmt.Sprintf("%s/%d", p.Family, p.K1)
		if seen[key] < per {
			seen[key]++
			out = append(out, p)
		}
	}
	return out
}

// paperFit writes pilot p's sample to a file in tmp, runs the script on it
// for k2 = p.K and returns the predicted curve (k = 0..K) and the script's
// summary (final loss, training seconds).
func paperFit(ctx context.Context, p bank.Pilot, tmp string, o paperOptions) (accuracy.Curve, string, error) {
	l, err := p.Load(ctx)
	if err != nil {
		return nil, "", err
	}
	return paperFitSample(ctx, p.ID, l.Sample, p.K, tmp, o)
}

// paperFitSample runs the script on sample s (named id in tmp's files) for
// k2 and returns the predicted curve (k = 0..k2) and the script's summary.
func paperFitSample(ctx context.Context, id string, s *accuracy.Sample, k2 int, tmp string, o paperOptions) (accuracy.Curve, string, error) {
	base := filepath.Join(tmp, strings.NewReplacer("/", "_").Replace(id))
	in, out := base+".cxp", base+".out"
	if err := writePaperInput(in, s); err != nil {
		return nil, "", err
	}
	cmd := exec.CommandContext(ctx, o.python, o.script, in, out, strconv.Itoa(k2),
		"--seed", strconv.FormatUint(o.seed, 10), "--threads", strconv.Itoa(o.threads), "--steps", strconv.Itoa(o.steps),
		"--hidden", o.hidden)
	// OpenMP threads that sleep instead of spinning while they wait: on a
	// shared machine spinning threads slow the fit several times.
	cmd.Env = os.Environ()
	if os.Getenv("OMP_WAIT_POLICY") == "" {
		cmd.Env = append(cmd.Env, "OMP_WAIT_POLICY=PASSIVE")
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, "", fmt.Errorf("%s %s: %w: %s", o.python, o.script, err, strings.TrimSpace(stderr.String()))
	}
	var sum struct {
		Loss    float64 `json:"loss"`
		Seconds float64 `json:"seconds"`
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		return nil, "", fmt.Errorf("%s: summary line %q: %w", o.script, lines[len(lines)-1], err)
	}
	curve, err := readPaperCurve(out, k2)
	if err != nil {
		return nil, "", err
	}
	return curve, fmt.Sprintf("loss %.2e, training %.1fs", sum.Loss, sum.Seconds), nil
}

// writePaperInput writes s in the script's CXP1 format (little-endian): the
// magic "CXP1", int64 N and K, then float64 Weight[N], Correct[N],
// Incorrect[N*(K-1)] (rows sorted ascending, higher is better) and
// Observed[K+1].
func writePaperInput(path string, s *accuracy.Sample) error {
	var b bytes.Buffer
	b.WriteString("CXP1")
	hdr := []int64{int64(s.N()), int64(s.K)}
	if err := binary.Write(&b, binary.LittleEndian, hdr); err != nil {
		return err
	}
	for _, a := range [][]float64{s.Weight, s.Correct, s.Incorrect, s.Observed} {
		if err := binary.Write(&b, binary.LittleEndian, a); err != nil {
			return err
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing the script's input: %w", err)
	}
	return nil
}

// readPaperCurve reads the script's output: k2+1 little-endian float64, each
// a finite accuracy in [0, 1].
func readPaperCurve(path string, k2 int) (accuracy.Curve, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the script's output: %w", err)
	}
	if len(raw) != 8*(k2+1) {
		return nil, fmt.Errorf("%s: %d bytes, want %d (k = 0..%d)", path, len(raw), 8*(k2+1), k2)
	}
	c := make(accuracy.Curve, k2+1)
	for k := range c {
		v := math.Float64frombits(binary.LittleEndian.Uint64(raw[8*k:]))
		if math.IsNaN(v) || v < 0 || v > 1 {
			return nil, fmt.Errorf("%s: value %v at k = %d is not an accuracy", path, v, k)
		}
		c[k] = v
	}
	return c, nil
}

// paperTable prints, on the pilots with a paper fit, the mean RMSE (worst in
// brackets) of the published CleaneX, the recommended estimate and CleaneX
// fast (mean of the usable seeds) per family and k1, then pilot by pilot. It
// prints nothing when no pilot has a paper fit.
func paperTable(all []pilotFits, seeds int) {
	var ps []pilotFits
	for _, p := range all {
		if p.Curves[paperName] != nil {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return
	}
	rmse := func(p pilotFits) (paper, est, fast, reg float64) {
		nan := math.NaN()
		paper, est, fast, reg = nan, nan, nan, nan
		paper = accuracy.RMSE(p.Curves[paperName][:p.K+1], p.Truth)
		if res, err := recommend.Recommend(p.rf, p.K, uncalibrated()); err == nil {
			est = accuracy.RMSE(res.Estimate[:p.K+1], p.Truth)
		}
		if c := meanOf(p.rf.CleaneX, p.K); c != nil {
			fast = accuracy.RMSE(c, p.Truth)
		}
		if c := p.Curves["regression"]; c != nil {
			reg = accuracy.RMSE(c[:p.K+1], p.Truth)
		}
		return
	}
	fmt.Printf("Published CleaneX (PyTorch) on the %d pilots that have it: mean RMSE over k = 2..K (worst)\n\n", len(ps))
	fmt.Printf("| group | n | published CleaneX (PyTorch) | estimate | CleaneX fast, mean of %d | regression | paper s/fit |\n", seeds)
	fmt.Println("|---|---|---|---|---|---|---|")
	byGroup := map[string][]pilotFits{}
	var names []string
	for _, p := range ps {
		for _, g := range []string{p.Family, fmt.Sprintf("%s k1=%d", p.Family, p.K1), fmt.Sprintf("all k1=%d", p.K1), "all"} {
			if byGroup[g] == nil {
				names = append(names, g)
			}
			byGroup[g] = append(byGroup[g], p)
		}
	}
	sort.SliceStable(names, func(i, j int) bool {
		ai, aj := strings.HasPrefix(names[i], "all"), strings.HasPrefix(names[j], "all")
		if ai != aj {
			return aj
		}
		return names[i] < names[j]
	})
	for _, g := range names {
		var sum, worst [4]float64
		var n [4]int
		var secs float64
		for _, p := range byGroup[g] {
			a, b, c, d := rmse(p)
			for i, v := range [4]float64{a, b, c, d} {
				if !math.IsNaN(v) {
					sum[i] += v
					worst[i] = max(worst[i], v)
					n[i]++
				}
			}
			secs += p.Seconds[paperName]
		}
		fmt.Printf("| %s | %d |", g, len(byGroup[g]))
		for i := range sum {
			fmt.Printf(" %.4f (%.3f) |", sum[i]/float64(max(n[i], 1)), worst[i])
		}
		fmt.Printf(" %.0f |\n", secs/float64(len(byGroup[g])))
	}
	fmt.Println()
	fmt.Println("| pilot | truth at K | published at K | estimate at K | fast at K | RMSE published | RMSE estimate | RMSE fast | RMSE regression | paper s |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, p := range ps {
		a, b, c, d := rmse(p)
		est, fast := math.NaN(), math.NaN()
		if res, err := recommend.Recommend(p.rf, p.K, uncalibrated()); err == nil {
			est = res.Estimate[p.K]
		}
		if cx := meanOf(p.rf.CleaneX, p.K); cx != nil {
			fast = cx[p.K]
		}
		fmt.Printf("| %s | %.3f | %.3f | %.3f | %.3f | %.4f | %.4f | %.4f | %.4f | %.0f |\n", p.ID, p.Truth[p.K],
			p.Curves[paperName][p.K], est, fast, a, b, c, d, p.Seconds[paperName])
	}
	fmt.Println()
}
