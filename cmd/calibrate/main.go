// Command calibrate runs every method on the pilots of the benchmark bank
// (internal/bank), keeps their curves in a cache, and from that cache fits
// and checks the calibration of the recommended estimate (internal/recommend).
//
//	calibrate fit   [-dir build/bank] [-families f1,f2] [-k1 50,100] [-seeds 5] [-j 2] [-force] [-refit kde] [-transform softmax:T]
//	calibrate seeds [-families ...] [-k1 ...] [-j 2]
//	calibrate fit -heldout [-dir build/heldout] [-families ...] [-k1 ...] [-j 2]
//	calibrate heldout [-dir build/heldout] [-families ...] [-k1 ...] [-m 4]
//	calibrate fit -small|-replicate n|-large|-large-fresh|-long, calibrate heldout -small|-replicate n|-large|-large-fresh|-long
//	calibrate embedded -dir D [-families ...] [-k1 ...] [-m 4]
//	calibrate study [-dir build/bank] [-with-replicates n] [-with-large] [-families ...] [-k1 ...] [-m 4] [-write internal/recommend/calibration.json] [-dump] [-symmetric] [-pooled-quantiles] [-scale nnls|quantile|quantile-beyond|median|capped|relative] [-stack]
//	calibrate half  [-dir build/bank] [-families ...] [-k1 ...] [-j 2]
//	calibrate paper [-dir build/bank] [-families ...] [-k1 ...] -- [-per 2] [-python ...] (see paper.go)
//	calibrate paper-cases [-dir build/paper-cases] -- [-seed 1] [-threads 2] (see papercases.go)
//	calibrate summary [-families ...] [-k1 ...] [-per 2] [-q 128] [-j 2]
//	calibrate summary-files -dir D [-families ...] [-k1 ...] [-per 1]
//	calibrate summary-compare -dir D [-families ...] [-k1 ...] [-per 1]
//
// fit keeps one file per pilot in -dir (build/bank by default, not in the
// repository), so it resumes where it stopped; study reads that cache, prints
// the per-family tables of docs/recommendation.md, and with -write writes the
// calibration table that internal/recommend embeds; fit -heldout and heldout
// do the same for simulated families outside the bank (bank.HeldOut) and
// score them with the embedded calibration (-small: pilots smaller than the
// bank's; -replicate n: fresh pilots of the bank's own families, new seeds;
// -long: pilots of 50 and 100 classes carried 100 and 50 times);
// fit -transform rewrites the
// bank's pilots as a user might hand them in (class probabilities, see
// transform.go) and embedded scores any cached bank pilots as heldout does;
// seeds fits CleaneX with
// 20 seeds per pilot and reports its failures and seed spread; half fits the
// estimate's methods on half of each pilot's classes (a backtest studied as
// an interval feature, see docs/recommendation.md); paper runs the published
// CleaneX settings in PyTorch on a few pilots (docs/paper-comparison.md) and
// paper-cases on the 16 shared benchmark cases, next to the RMSE an
// independent implementation reached there;
// summary compares every method's curve from each pilot's score matrix with
// the one from its per-point summary (docs/summary.md); summary-files writes
// pilots as long tables with their Go summaries, and summary-compare checks
// the summaries DuckDB made of them with the SQL recipe (./build.sh bench).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/bank"
	"github.com/cleanex/cleanex/internal/summary"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: calibrate fit|study|heldout|embedded|seeds|half|paper|paper-cases|summary|summary-files|summary-compare [flags]")
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	dir := fs.String("dir", "build/bank", "cache folder of the fits")
	fams := fs.String("families", "", "comma-separated families (default all)")
	k1s := fs.String("k1", "", "comma-separated k1 values (default all)")
	seeds := fs.Int("seeds", 5, "CleaneX seeds per pilot")
	jobs := fs.Int("j", 1, "pilots fitted at once")
	force := fs.Bool("force", false, "refit pilots already in the cache (their published CleaneX fits are kept)")
	refit := fs.String("refit", "", "fit: refit only these methods (comma-separated) on the cached pilots")
	per := fs.Int("per", 0, "summary*: the first n pilots of each family and k1 (0: all)")
	quantiles := fs.Int("q", summary.DefaultQuantiles, "summary: quantile steps of the summaries")
	transform := fs.String("transform", "", "fit: rewrite each pilot's scores first: softmax:T (class probabilities of logits T x / sd, as the product reads them), rawsoftmax:T (read as they are), logsoftmax:T, sigmoid:T (one-vs-rest probabilities, as the product reads them), rawsigmoid:T (read as they are), lowsigmoid:T and rawlowsigmoid:T (the same of a model that gives no point more than 1/2), minmax, or logit-B / ln-B (B, own for none, read as log-odds / logarithms)")
	heldOut := fs.Bool("heldout", false, "fit: the held-out simulated pilots (bank.HeldOut) instead of the bank's")
	small := fs.Bool("small", false, "fit, heldout: pilots of 10, 20 and 30 classes from the worlds of the bank's 50-class pilots (bank.SmallPilots; cache build/small)")
	large := fs.Bool("large", false, "fit, heldout: the bank's larger pilots in larger worlds (bank.Large; cache build/large)")
	largeFresh := fs.Bool("large-fresh", false, "fit, heldout: fresh pilots of the larger worlds (bank.LargeFresh; cache build/large2)")
	long := fs.Bool("long", false, "fit, heldout: pilots of 50 and 100 classes carried to worlds of 5,000 (bank.Long; cache build/long)")
	withLarge := fs.Bool("with-large", false, "study: the pilots of bank.Large too (cached in large beside -dir), each in its bank family")
	replicate := fs.Int("replicate", 0, "fit, heldout: fresh pilots of the bank's families, replicate n (bank.Replicate; cache build/replicate, build/replicate2, ...)")
	var so studyOptions
	fs.IntVar(&so.seeds, "m", 4, "study: CleaneX seeds averaged")
	fs.StringVar(&so.write, "write", "", "study: write the calibration table (JSON) to this file")
	withReplicates := fs.Int("with-replicates", 0, "study: the bank's pilots and those of its replicates 1..n (bank.Replicate, cached in replicate, replicate2, ... beside -dir), each in its bank family")
	fs.BoolVar(&so.dump, "dump", false, "study: print each pilot's residual and interval features at K")
	fs.BoolVar(&so.symmetric, "symmetric", false, "study: one scale for both sides of the interval (for comparison)")
	fs.BoolVar(&so.pooledQuantiles, "pooled-quantiles", false, "study: take the knot quantiles of residuals standardised by the scale fitted on every family (recommend.FitSidedScale), not by the scale fitted without their family (for comparison)")
	fs.BoolVar(&so.stack, "stack", false, "study: the leave-one-family-out bias correction of the estimate beyond k1 (not used by the product)")
	fs.StringVar(&so.scale, "scale", "", "study: fit of the interval's scale, nnls|quantile|quantile-beyond|median|capped|relative (default: the product's)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	var famList []string
	if *fams != "" {
		famList = strings.Split(*fams, ",")
	}
	var k1List []int
	if *k1s != "" {
		for _, f := range strings.Split(*k1s, ",") {
			v, err := strconv.Atoi(f)
			if err != nil {
				return fmt.Errorf("-k1 %q: %w", *k1s, err)
			}
			k1List = append(k1List, v)
		}
	}
	pilots := bank.Select(famList, k1List)
	switch {
	case *small:
		pilots = bank.SmallPilots(famList, k1List)
		defaultDir(fs, dir, "build/small")
	case *large:
		pilots = bank.Large(famList, k1List)
		defaultDir(fs, dir, "build/large")
	case *largeFresh:
		pilots = bank.LargeFresh(famList, k1List)
		defaultDir(fs, dir, "build/large2")
	case *long:
		pilots = bank.Long(famList, k1List)
		defaultDir(fs, dir, "build/long")
	case *replicate > 0:
		pilots = bank.Replicate(*replicate, famList, k1List)
		defaultDir(fs, dir, replicateDir(*replicate))
	case *heldOut || args[0] == "heldout":
		pilots = bank.HeldOut(famList, k1List)
		defaultDir(fs, dir, "build/heldout")
	}
	if args[0] == "paper-cases" {
		defaultDir(fs, dir, "build/paper-cases")
	}
	switch args[0] {
	case "fit":
		var names []string
		if *refit != "" {
			names = strings.Split(*refit, ",")
		}
		return fitAll(ctx, *dir, pilots, *seeds, *jobs, *force, names, *transform)
	case "study":
		for i := 1; i <= *withReplicates; i++ {
			// beside the bank's cache: build/bank, build/replicate, build/replicate2, ...
			so.with = append(so.with, pilotSet{dir: filepath.Join(filepath.Dir(*dir), filepath.Base(replicateDir(i))), pilots: bank.Replicate(i, famList, k1List)})
		}
		if *withLarge {
			so.with = append(so.with, pilotSet{dir: filepath.Join(filepath.Dir(*dir), "large"), pilots: bank.Large(famList, k1List)})
		}
		return study(*dir, pilots, so)
	case "heldout", "embedded":
		return heldOutStudy(*dir, pilots, so.seeds)
	case "seeds":
		return seedStudy(ctx, pilots, *jobs)
	case "half":
		return halfAll(ctx, *dir, pilots, *jobs)
	case "paper":
		return paperAll(ctx, *dir, pilots, fs.Args())
	case "paper-cases":
		return paperCases(ctx, *dir, fs.Args())
	case "summary":
		return summaryStudy(ctx, firstPer(pilots, *per), *quantiles, *jobs)
	case "summary-files":
		return summaryFiles(ctx, *dir, firstPer(pilots, *per))
	case "summary-compare":
		return summaryCompare(*dir, firstPer(pilots, *per))
	}
	return fmt.Errorf("unknown command %q", args[0])
}

func fitAll(ctx context.Context, dir string, pilots []bank.Pilot, seeds, jobs int, force bool, refit []string, transform string) error {
	return forPilots(ctx, "fit", pilots, jobs, func(_ int, p bank.Pilot) error {
		var f *Fits
		var err error
		if refit != nil {
			if f, err = loadFits(dir, p.ID); os.IsNotExist(err) {
				return errSkip
			} else if err == nil {
				err = refitPilot(ctx, p, f, refit, seeds, transform)
			}
		} else {
			if !force {
				// A cached pilot is fitted again only for the methods its
				// cache lacks (and reloaded for the tail checks it lacks).
				if f, err = loadFits(dir, p.ID); err == nil {
					m := missing(f, seeds)
					if len(m) == 0 && f.ChecksKnown && f.SpreadKnown {
						return errSkip
					}
					if err := refitPilot(ctx, p, f, m, seeds, transform); err != nil {
						return err
					}
					return saveFits(dir, f)
				} else if !os.IsNotExist(err) {
					return err
				}
			}
			f, err = fitPilot(ctx, p, seeds, transform)
			if err == nil {
				err = keepPaper(dir, f)
			}
		}
		if err != nil {
			return err
		}
		return saveFits(dir, f)
	})
}

// defaultDir sets *dir to d unless -dir was given on the command line.
func defaultDir(fs *flag.FlagSet, dir *string, d string) {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "dir" })
	if !set {
		*dir = d
	}
}

// replicateDir is the default cache of bank.Replicate(n): build/replicate,
// build/replicate2, ...
func replicateDir(n int) string {
	if n == 1 {
		return "build/replicate"
	}
	return fmt.Sprintf("build/replicate%d", n)
}
