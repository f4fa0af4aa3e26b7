package main

import (
	"context"
	"os"
	"slices"

	"github.com/cleanex/cleanex/internal/bank"
	"github.com/cleanex/cleanex/internal/draw"
)

// halfSeeds is how many CleaneX seeds the half-pilot backtest fits.
const halfSeeds = 2

// halfStream is the PCG stream that draws the half pilot's classes.
const halfStream = 0x00000000_68616c66 // "half"

// halfName is the cache key of a half-pilot fit.
func halfName(m string, seed uint64) string { return "half:" + fitName(m, seed) }

// halfAll fits, on every cached pilot, regression, KDE and CleaneX (seeds
// 1..halfSeeds) on a random half of its classes (ceil(k1/2), drawn by the
// pilot's seed), predicting up to k1, and keeps the curves (named
// "half:<method>", and the half's observed curve as "half:observed") in a
// cache of their own, halfDir(dir). Resumable.
func halfAll(ctx context.Context, dir string, pilots []bank.Pilot, jobs int) error {
	return forPilots(ctx, "half", pilots, jobs, func(_ int, p bank.Pilot) error {
		if _, err := os.Stat(cacheFile(halfDir(dir), p.ID)); err == nil {
			return errSkip
		}
		f := &Fits{ID: p.ID, Family: p.Family, Setting: p.Setting, K1: p.K1, K: p.K,
			Curves: map[string][]float64{}, Errors: map[string]string{}, Seconds: map[string]float64{}}
		if err := halfPilot(ctx, p, f); err != nil {
			return err
		}
		return saveFits(halfDir(dir), f)
	})
}

func halfPilot(ctx context.Context, p bank.Pilot, f *Fits) error {
	l, err := p.Load(ctx)
	if err != nil {
		return err
	}
	k1 := l.Sample.K
	h := (k1 + 1) / 2
	half, err := l.Sample.Subset(draw.New(p.Seed, halfStream).Classes(k1, h))
	if err != nil {
		return err
	}
	type job struct {
		m    string
		seed uint64
	}
	js := []job{{"regression", 1}, {"kde", 1}}
	for s := 1; s <= halfSeeds; s++ {
		js = append(js, job{"cleanex", uint64(s)})
	}
	for _, j := range js {
		if err := fitInto(ctx, f, halfName(j.m, j.seed), j.m, j.seed, half, k1); err != nil {
			return err
		}
	}
	f.Curves["half:observed"] = half.Observed
	return nil
}

// halfDir is the cache folder of the half-pilot fits beside dir.
func halfDir(dir string) string { return dir + "-half" }

// halfResidual returns B = logit(Abar_k1) - logit(half_k1) for pilot f: how
// far the recipe of the estimate, applied to a random half of the pilot's
// classes, misses the pilot's own accuracy at k1 (the median in logit of
// regression, KDE and the CleaneX mean counted twice);
// ok is false when the half fits are missing.
func halfResidual(dir string, f *Fits) (b float64, ok bool) {
	h, err := loadFits(halfDir(dir), f.ID)
	if err != nil {
		return 0, false
	}
	k := f.K1
	var zs []float64
	for _, m := range []string{"regression", "kde"} {
		if c, ok := h.Curves[halfName(m, 1)]; ok && len(c) > k {
			zs = append(zs, logit(c[k]))
		}
	}
	cx, n := 0.0, 0
	for s := 1; s <= halfSeeds; s++ {
		if c, ok := h.Curves[halfName("cleanex", uint64(s))]; ok && len(c) > k {
			cx += c[k]
			n++
		}
	}
	if n > 0 {
		z := logit(cx / float64(n))
		zs = append(zs, z, z)
	}
	if len(zs) == 0 {
		return 0, false
	}
	slices.Sort(zs)
	return logit(f.Observed[k]) - (zs[(len(zs)-1)/2]+zs[len(zs)/2])/2, true
}
