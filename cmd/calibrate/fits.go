package main

import (
	"compress/gzip"
	"context"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/bank"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/recommend"
)

// Fits is what the study keeps of one pilot: its description, its exact
// observed curve, the truth and every method's predicted curve up to K.
type Fits struct {
	// ID, Family, Setting, K1 and K describe the pilot (bank.Pilot).
	ID, Family, Setting string
	K1, K               int
	// N is the pilot's number of points.
	N int
	// Observed is the pilot's exact observed curve, k = 0..K1.
	Observed []float64
	// Truth is the population's exact curve, k = 0..K.
	Truth []float64
	// ClassSE is recommend.ClassSE of the pilot, k = 0..K1.
	ClassSE []float64
	// TailSpread is tail.Spread of the pilot and Squashed its tail.Squashed;
	// ChecksKnown says they were measured (a cache written before they were
	// kept lacks them: fit then reloads the pilot to add them).
	TailSpread  float64
	Squashed    bool
	ChecksKnown bool
	// SpreadK and SpreadB are the pilot's half-sampling spread
	// (recommend.Fits.Spread; empty when it could not be measured) and
	// SpreadKnown says it was measured (fit reloads a pilot whose cache
	// lacks it).
	SpreadK     []int
	SpreadB     []float64
	SpreadKnown bool
	// Curves maps a fit's name ("plugin", "kde", "regression", "cleanex/1", ...)
	// to its predicted curve for k = 0..K.
	Curves map[string][]float64
	// Errors maps a fit's name to its error, for fits that failed.
	Errors map[string]string
	// Seconds maps a fit's name to its wall time.
	Seconds map[string]float64
}

// loadPilot loads p, its scores rewritten by transformPilot when transform
// is not "".
func loadPilot(ctx context.Context, p bank.Pilot, transform string) (*bank.Loaded, error) {
	l, err := p.Load(ctx)
	if err != nil || transform == "" {
		return l, err
	}
	l.Sample, err = transformPilot(l.Sample, transform)
	return l, err
}

// measure sets what f keeps of pilot s besides the fits: its ClassSE,
// squashed check, tail spread and half-sampling spread as the product takes
// them (recommend.MeasuredPilot; ChecksKnown, SpreadKnown).
func (f *Fits) measure(ctx context.Context, s *accuracy.Sample) error {
	pf, err := recommend.MeasuredPilot(ctx, s)
	if err != nil {
		return err
	}
	f.ClassSE, f.TailSpread, f.Squashed, f.ChecksKnown = pf.ClassSE, pf.TailSpread, pf.Squashed, true
	f.SpreadK, f.SpreadB, f.SpreadKnown = pf.Spread.K, pf.Spread.B, true
	return nil
}

// fitName returns the cache key of method m with seed seed.
func fitName(m string, seed uint64) string {
	if m == "cleanex" {
		return fmt.Sprintf("cleanex/%d", seed)
	}
	return m
}

// fitPilot loads p and runs plugin, KDE, pooled, tail, regression (seed 1) and CleaneX fast
// with seeds 1..seeds, on the pilot's scores rewritten by transformPilot
// when transform is not "".
func fitPilot(ctx context.Context, p bank.Pilot, seeds int, transform string) (*Fits, error) {
	l, err := loadPilot(ctx, p, transform)
	if err != nil {
		return nil, err
	}
	f := &Fits{ID: p.ID, Family: p.Family, Setting: p.Setting, K1: p.K1, K: p.K, N: l.Sample.N(),
		Observed: l.Sample.Observed, Truth: l.Truth,
		Curves: map[string][]float64{}, Errors: map[string]string{}, Seconds: map[string]float64{}}
	if err := f.measure(ctx, l.Sample); err != nil {
		return nil, err
	}
	for _, m := range fitMethods {
		if err := fitInto(ctx, f, fitName(m, 1), m, 1, l.Sample, p.K); err != nil {
			return nil, err
		}
	}
	for s := 1; s <= seeds; s++ {
		if err := fitInto(ctx, f, fitName("cleanex", uint64(s)), "cleanex", uint64(s), l.Sample, p.K); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// fitMethods are the methods fitPilot fits once (seed 1), before CleaneX's
// seeds.
var fitMethods = []string{"plugin", "kde", "pooled", "tail", "regression"}

// missing returns the methods fitPilot would fit that the cached fits f
// hold neither a curve nor an error of ("cleanex" when one of its seeds
// 1..seeds is missing): a cache written before a method was added.
func missing(f *Fits, seeds int) []string {
	has := func(name string) bool {
		_, c := f.Curves[name]
		_, e := f.Errors[name]
		return c || e
	}
	var out []string
	for _, m := range fitMethods {
		if !has(fitName(m, 1)) {
			out = append(out, m)
		}
	}
	for s := 1; s <= seeds; s++ {
		if !has(fitName("cleanex", uint64(s))) {
			return append(out, "cleanex")
		}
	}
	return out
}

// fitInto fits the method called method with seed on s up to k2 and keeps,
// under name in f, its curve or its error, and its time. It returns an error
// only when the method is unknown or ctx is done.
func fitInto(ctx context.Context, f *Fits, name, method string, seed uint64, s *accuracy.Sample, k2 int) error {
	e, err := methods.New(method, methods.Options{Seed: seed})
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := e.Fit(ctx, s, k2, nil)
	f.Seconds[name] = time.Since(start).Seconds()
	delete(f.Errors, name)
	delete(f.Curves, name)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		f.Errors[name] = err.Error()
		return nil
	}
	f.Curves[name] = res.Curve
	return nil
}

// refitPilot reloads p (rewritten by transformPilot when transform is not
// ""), runs the named methods again (seed 1; "cleanex" means seeds
// 1..seeds) and replaces their curves in the cached fits f, and its
// ClassSE, TailSpread and Squashed.
func refitPilot(ctx context.Context, p bank.Pilot, f *Fits, names []string, seeds int, transform string) error {
	l, err := loadPilot(ctx, p, transform)
	if err != nil {
		return err
	}
	if err := f.measure(ctx, l.Sample); err != nil {
		return err
	}
	for _, m := range names {
		ss := []uint64{1}
		if m == "cleanex" {
			ss = nil
			for s := 1; s <= seeds; s++ {
				ss = append(ss, uint64(s))
			}
		}
		for _, seed := range ss {
			if err := fitInto(ctx, f, fitName(m, seed), m, seed, l.Sample, p.K); err != nil {
				return err
			}
		}
	}
	return nil
}

// cacheFile is where the fits of pilot id are kept under dir.
func cacheFile(dir, id string) string {
	return filepath.Join(dir, strings.NewReplacer("/", "_").Replace(id)+".gob.gz")
}

func saveFits(dir string, f *Fits) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp := cacheFile(dir, f.ID) + ".tmp"
	out, err := os.Create(tmp)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(out)
	if err := gob.NewEncoder(zw).Encode(f); err != nil {
		out.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, cacheFile(dir, f.ID))
}

func loadFits(dir, id string) (*Fits, error) {
	in, err := os.Open(cacheFile(dir, id))
	if err != nil {
		return nil, err
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		return nil, err
	}
	var f Fits
	if err := gob.NewDecoder(zr).Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", cacheFile(dir, id), err)
	}
	return &f, nil
}
