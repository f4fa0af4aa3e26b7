package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/cleanex/cleanex/internal/bank"
	"github.com/cleanex/cleanex/internal/estimate/cleanex"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/recommend"
)

// seedRuns is how many CleaneX seeds the seed study fits per pilot: 20 for
// the degenerate count; seeds s..s+recommend.Seeds-1 for s = 1..10 give the
// spread of the curve the product shows as CleaneX's.
const seedRuns = 20

// seedStudy fits CleaneX with seeds 1..20 on every pilot and reports, per
// family and k1, the fits that end in ErrDegenerate, the fits that fail
// recommend.CheckFit, and the spread at K (max - min over s = 1..10) of a
// single fit with seed s and of the mean of the fits with seeds s..s+3.
func seedStudy(ctx context.Context, pilots []bank.Pilot, jobs int) error {
	type row struct {
		p                  bank.Pilot
		degenerate, failed int
		single, mean       float64
	}
	rows := make([]row, len(pilots))
	err := forPilots(ctx, "seeds", pilots, jobs, func(i int, p bank.Pilot) error {
		r, err := seedPilot(ctx, p)
		rows[i] = row{p, r.degenerate, r.failed, r.single, r.mean}
		if err == nil {
			fmt.Fprintf(os.Stderr, "%s: %d degenerate, %d failed the check, spread %.3f single, %.3f mean of %d\n",
				p.ID, r.degenerate, r.failed, r.single, r.mean, recommend.Seeds)
		}
		return err
	})
	if err != nil {
		return err
	}
	fmt.Printf("| family | k1 | pilots | fits | ErrDegenerate | failed CheckFit | median spread at K, one fit | median spread at K, mean of %d |\n|---|---|---|---|---|---|---|---|\n", recommend.Seeds)
	type key struct {
		fam string
		k1  int
	}
	var keys []key
	for _, r := range rows {
		k := key{r.p.Family, r.p.K1}
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	var allSingle, allMean []float64
	var allDeg, allFail, allFits int
	for _, k := range keys {
		var single, mean []float64
		deg, fail, n := 0, 0, 0
		for _, r := range rows {
			if r.p.Family == k.fam && r.p.K1 == k.k1 {
				single, mean = append(single, r.single), append(mean, r.mean)
				deg += r.degenerate
				fail += r.failed
				n++
			}
		}
		allSingle, allMean = append(allSingle, single...), append(allMean, mean...)
		allDeg, allFail, allFits = allDeg+deg, allFail+fail, allFits+n*seedRuns
		fmt.Printf("| %s | %d | %d | %d | %d | %d | %.3f | %.3f |\n", k.fam, k.k1, n, n*seedRuns, deg, fail, median(single), median(mean))
	}
	fmt.Printf("| all | | %d | %d | %d | %d | %.3f | %.3f |\n", len(rows), allFits, allDeg, allFail, median(allSingle), median(allMean))
	return nil
}

type seedResult struct {
	degenerate, failed int
	single, mean       float64
}

func seedPilot(ctx context.Context, p bank.Pilot) (seedResult, error) {
	var r seedResult
	l, err := p.Load(ctx)
	if err != nil {
		return r, err
	}
	f := recommend.PilotFits(l.Sample)
	atK := make([]float64, seedRuns+1) // by seed; NaN when the fit is not usable
	ok := make([]bool, seedRuns+1)
	for s := 1; s <= seedRuns; s++ {
		e, err := methods.New("cleanex", methods.Options{Seed: uint64(s)})
		if err != nil {
			return r, err
		}
		res, err := e.Fit(ctx, l.Sample, p.K, nil)
		switch {
		case ctx.Err() != nil:
			return r, ctx.Err()
		case errors.Is(err, cleanex.ErrDegenerate):
			r.degenerate++
			continue
		case err != nil:
			return r, err
		}
		if recommend.CheckFit(res.Curve, f, true) != nil {
			r.failed++
			continue
		}
		atK[s], ok[s] = res.Curve[p.K], true
	}
	spread := func(v []float64) float64 { return slices.Max(v) - slices.Min(v) }
	var single, mean []float64
	for s := 1; s <= 10; s++ {
		if ok[s] {
			single = append(single, atK[s])
		}
		m, n := 0.0, 0
		for t := s; t < s+recommend.Seeds; t++ {
			if ok[t] {
				m += atK[t]
				n++
			}
		}
		if n > 0 {
			mean = append(mean, m/float64(n))
		}
	}
	if len(single) > 0 {
		r.single = spread(single)
	}
	if len(mean) > 0 {
		r.mean = spread(mean)
	}
	return r, nil
}
