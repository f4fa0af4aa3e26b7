package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/backtest"
	"github.com/cleanex/cleanex/internal/benchcases"
)

// Reference columns of the shared cases' reference_rmse.csv: the published
// CleaneX run by the reference implementation, with two initialisations.
const (
	refPaper      = "cleanex:faithful_in=all_h512x128_J10000_lr0.0001"
	refPaperSeed3 = "cleanex_seed3:faithful_in=all_h512x128_J10000_lr0.0001"
)

// paperCaseFit is one PyTorch fit of a shared case, as cached by paperCases.
type paperCaseFit struct {
	Case         string
	Seed         uint64
	RMSE, AtK2   float64
	ObservedRMSE float64
	Seconds      float64
	Info         string
}

// paperCases runs the published CleaneX script (paperFitSample) on the 16
// shared benchmark cases (internal/benchcases) and prints its RMSE next to
// the one the reference implementation reached on each case, so the script's
// reading of the paper can be checked against an independent one. Fits are
// cached as JSON in dir (one file per case and seed), so a stopped run resumes.
func paperCases(ctx context.Context, dir string, args []string) error {
	o, err := parsePaperOptions("paper-cases", args)
	if err != nil {
		return err
	}
	cases, err := benchcases.Load(benchcases.Dir())
	if err != nil {
		return fmt.Errorf("paper-cases: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("paper-cases: %w", err)
	}
	tmp, err := os.MkdirTemp("", "cleanex-paper-")
	if err != nil {
		return fmt.Errorf("paper-cases: %w", err)
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	var fits []paperCaseFit
	for i, c := range cases {
		if err := ctx.Err(); err != nil {
			return err
		}
		name := fmt.Sprintf("%s_seed%d", c.Name, o.seed)
		if v := o.variant(); v != "" {
			name += "_" + v
		}
		path := filepath.Join(dir, name+".json")
		var f paperCaseFit
		b, err := os.ReadFile(path)
		switch {
		case err == nil && !o.force:
			if err := json.Unmarshal(b, &f); err != nil {
				return fmt.Errorf("paper-cases: %s: %w", path, err)
			}
		case err == nil || errors.Is(err, fs.ErrNotExist):
			k2 := c.Truth.Max()
			t := time.Now()
			curve, info, err := paperFitSample(ctx, c.Name, c.Sample, k2, tmp, o)
			if err != nil {
				return fmt.Errorf("paper-cases: %s: %w", c.Name, err)
			}
			f = paperCaseFit{Case: c.Name, Seed: o.seed, RMSE: accuracy.RMSE(curve, c.Truth), AtK2: curve[k2],
				ObservedRMSE: accuracy.RMSE(curve[:c.Sample.K+1], c.Sample.Observed), Seconds: time.Since(t).Seconds(), Info: info}
			b, err := json.MarshalIndent(f, "", " ")
			if err != nil {
				return err
			}
			if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
				return fmt.Errorf("paper-cases: %w", err)
			}
			fmt.Fprintf(os.Stderr, "[%d/%d %.0fs] %s %.1fs %s; RMSE %.4f (reference %.4f)\n", i+1, len(cases),
				time.Since(start).Seconds(), c.Name, f.Seconds, info, f.RMSE, c.Reference[refPaper])
		default:
			return fmt.Errorf("paper-cases: %w", err)
		}
		fits = append(fits, f)
	}
	fmt.Printf("| case | truth at k2 | script at k2 | RMSE, script (seed %d) | RMSE, reference | RMSE, reference, 2nd init |\n|---|---|---|---|---|---|\n", o.seed)
	var ours, ref []float64
	for i, c := range cases {
		f := fits[i]
		r, ok := c.Reference[refPaper]
		r3, ok3 := c.Reference[refPaperSeed3]
		cell := func(v float64, ok bool) string {
			if !ok {
				return ""
			}
			return fmt.Sprintf("%.4f", v)
		}
		fmt.Printf("| %s | %.3f | %.3f | %.4f | %s | %s |\n", c.Name, c.Truth[c.Truth.Max()], f.AtK2, f.RMSE, cell(r, ok), cell(r3, ok3))
		ours = append(ours, f.RMSE)
		if ok {
			ref = append(ref, r)
		}
	}
	fmt.Printf("\nmedian / mean RMSE over %d cases: script %.4f / %.4f, reference %.4f / %.4f (%d cases)\n",
		len(ours), backtest.Median(ours), stat.Mean(ours, nil), backtest.Median(ref), stat.Mean(ref, nil), len(ref))
	return nil
}
