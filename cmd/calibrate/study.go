package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/backtest"
	"github.com/cleanex/cleanex/internal/bank"
	"github.com/cleanex/cleanex/internal/halfsample"
	"github.com/cleanex/cleanex/internal/recommend"
	"gonum.org/v1/gonum/stat"
)

// pilotFits pairs a pilot's cached fits with what the study derives from them.
type pilotFits struct {
	*Fits
	rf recommend.Fits
}

// loadAll reads the cached fits of pilots (skipping those not cached).
func loadAll(dir string, pilots []bank.Pilot, seeds int) ([]pilotFits, error) {
	var out []pilotFits
	for _, p := range pilots {
		f, err := loadFits(dir, p.ID)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var jobs []recommend.Job // the other methods', then seeds CleaneX fits
		for _, j := range recommend.Jobs(1) {
			if j.Method != "cleanex" {
				jobs = append(jobs, j)
			}
		}
		for s := 1; s <= seeds; s++ {
			jobs = append(jobs, recommend.Job{Method: "cleanex", Seed: uint64(s)})
		}
		curves := make([]accuracy.Curve, len(jobs))
		errs := make([]error, len(jobs))
		for i, j := range jobs {
			name := fitName(j.Method, j.Seed)
			if c, ok := f.Curves[name]; ok {
				curves[i] = c
			} else {
				errs[i] = fmt.Errorf("%s", f.Errors[name])
			}
		}
		pilot := recommend.Fits{K1: f.K1, Observed: f.Observed, ClassSE: f.ClassSE, N: f.N, Squashed: f.Squashed, TailSpread: f.TailSpread,
			Spread: halfsample.Spread{K: f.SpreadK, B: f.SpreadB}}
		rf, failed := recommend.Usable(pilot, jobs, curves, errs, f.K)
		for label, why := range failed {
			fmt.Fprintf(os.Stderr, "%s: %s left out: %s\n", f.ID, label, why)
		}
		out = append(out, pilotFits{f, rf})
	}
	return out, nil
}

// grid returns the k at which a pilot is scored for calibration: about 40
// log-spaced values from 2 to K, plus k1 and K.
func grid(k1, k int) []int {
	var g []int
	for i := 0; i <= 40; i++ {
		g = append(g, int(math.Round(math.Exp(math.Log(2)+float64(i)/40*math.Log(float64(k)/2)))))
	}
	g = append(g, k1, k)
	slices.Sort(g)
	return slices.Compact(g)
}

// logit is the recommendation's logit (recommend.Logit).
func logit(p float64) float64 { return recommend.Logit(p) }

// studyOptions are the study's flags.
type studyOptions struct {
	seeds int
	write string
	// dump prints each pilot's residual and features at K; symmetric fits
	// one scale for both sides of the interval.
	dump, symmetric bool
	// pooledQuantiles takes the knot quantiles of residuals standardised by
	// the scale fitted on every family (recommend.FitSidedScale) instead
	// of the product's cross-fitted ones (recommend.FitSidedScaleCrossed).
	pooledQuantiles bool
	// stack prints the leave-one-family-out bias-correction study
	// (stackStudy).
	stack bool
	// scale is the fit of the sided scale coefficients
	// (recommend.FitSidedScaleWith; "" is the product's
	// FitSidedScaleCrossed).
	scale string
	// with holds more pilots studied beside the bank's, each counted in
	// its bank family (bank.BankFamily): bank.Replicate's and bank.Large's.
	with []pilotSet
}

// pilotSet is a list of pilots and the folder that caches their fits.
type pilotSet struct {
	dir    string
	pilots []bank.Pilot
}

func study(dir string, pilots []bank.Pilot, o studyOptions) error {
	seeds, write := &o.seeds, &o.write
	all, err := loadAll(dir, pilots, *seeds)
	if err != nil {
		return err
	}
	for _, set := range o.with {
		more, err := loadAll(set.dir, set.pilots, *seeds)
		if err != nil {
			return err
		}
		for _, p := range more {
			p.Family = bank.BankFamily(p.Family)
		}
		all = append(all, more...)
	}
	fmt.Printf("%d pilots cached\n\n", len(all))
	pairedTable(all, rmseTable(all, *seeds), *seeds)
	spreadTable(all)
	biasTable(all)
	paperTable(all, *seeds) // paper.go: published CleaneX vs estimate vs fast, where it was run
	if o.dump {
		dump(dir, all)
	}
	if o.stack {
		stackStudy(all)
	}
	table, err := intervalStudy(all, o)
	if err != nil {
		return err
	}
	if *write == "" {
		return nil
	}
	table.Errors = ratioErrors(all, table.Calibration)
	b, err := json.MarshalIndent(table, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(*write, append(b, '\n'), 0o644)
}

// ratios are the k / k1 at which the table keeps the bank's error spreads.
var ratios = []float64{1, 2, 4, 10, 20, 40}

// ratioErrors measures each method's signed error pred_k - truth_k at
// k = ratio k1 on every pilot where that k is within its population.
func ratioErrors(all []pilotFits, cal recommend.Calibration) []recommend.RatioErrors {
	var out []recommend.RatioErrors
	names := []string{"plugin", "kde", "pooled", "tail", "regression", "cleanex", recommend.Name}
	// each pilot's curves in the order of names, nil for a pilot without an estimate
	curvesOf := make([][]accuracy.Curve, len(all))
	for j, p := range all {
		if res, err := recommend.Recommend(p.rf, p.K, cal); err == nil {
			curvesOf[j] = []accuracy.Curve{p.Curves["plugin"], p.Curves["kde"], p.Curves["pooled"], p.Curves["tail"], p.Curves["regression"], meanOf(p.rf.CleaneX, p.K), res.Estimate}
		}
	}
	for _, ratio := range ratios {
		errs := make([][]float64, len(names))
		n := 0
		for j, p := range all {
			k := int(math.Round(ratio * float64(p.K1)))
			if k > p.K || k < 2 || curvesOf[j] == nil {
				continue
			}
			n++
			for i, c := range curvesOf[j] {
				if c != nil {
					errs[i] = append(errs[i], c[k]-p.Truth[k])
				}
			}
		}
		re := recommend.RatioErrors{Ratio: ratio, Pilots: n}
		for i, name := range names {
			es := errs[i]
			if len(es) == 0 {
				continue
			}
			sort.Float64s(es)
			sp := recommend.ErrorSpread{Method: name}
			for j, q := range []float64{0.1, 0.25, 0.5, 0.75, 0.9} {
				sp.Q[j] = stat.Quantile(q, stat.LinInterp, es, nil)
			}
			for _, e := range es {
				sp.MeanAbs += math.Abs(e) / float64(len(es))
			}
			re.Methods = append(re.Methods, sp)
		}
		out = append(out, re)
	}
	return out
}

type group struct {
	name string
	ps   []pilotFits
}

// biasTable prints, per family, each method's mean signed error at K
// (prediction minus truth at k = K): where the methods share a bias.
func biasTable(all []pilotFits) {
	type col struct {
		name  string
		curve func(p pilotFits) accuracy.Curve
	}
	var cols []col
	for _, m := range recommend.Methods() {
		if m == "kde" {
			cols = append(cols, col{"KDE", func(p pilotFits) accuracy.Curve { return p.Curves[m] }})
			continue
		}
		if m == "cleanex" {
			cols = append(cols, col{"CleaneX, mean", func(p pilotFits) accuracy.Curve { return meanOf(p.rf.CleaneX, p.K) }})
			continue
		}
		cols = append(cols, col{m, func(p pilotFits) accuracy.Curve { return p.Curves[m] }})
	}
	cols = append(cols, col{"estimate", func(p pilotFits) accuracy.Curve { return estimateOf(p.rf, p.K) }})
	fmt.Printf("Mean signed error at K (prediction - truth), by family:\n\n| family | truth at K |")
	for _, c := range cols {
		fmt.Printf(" %s |", c.name)
	}
	fmt.Printf("\n|---|---|%s\n", strings.Repeat("---|", len(cols)))
	for _, g := range append(groups(all, false), group{name: "all", ps: all}) {
		truth := 0.0
		for _, p := range g.ps {
			truth += p.Truth[p.K]
		}
		fmt.Printf("| %s | %.3f |", g.name, truth/float64(len(g.ps)))
		for _, c := range cols {
			sum, n := 0.0, 0
			for _, p := range g.ps {
				if cv := c.curve(p); cv != nil {
					sum += cv[p.K] - p.Truth[p.K]
					n++
				}
			}
			fmt.Printf(" %+.3f |", sum/float64(max(n, 1)))
		}
		fmt.Println()
	}
	fmt.Println()
}

func groups(all []pilotFits, byK1 bool) []group {
	var gs []group
	idx := map[string]int{}
	for _, p := range all {
		name := p.Family
		if byK1 {
			name = fmt.Sprintf("%s k1=%d", p.Family, p.K1)
		}
		i, ok := idx[name]
		if !ok {
			i = len(gs)
			idx[name] = i
			gs = append(gs, group{name: name})
		}
		gs[i].ps = append(gs[i].ps, p)
	}
	return gs
}

// namedCurve is a column of the study's tables: a curve of each pilot (nil
// when the pilot has none).
type namedCurve struct {
	name  string
	curve func(p pilotFits) accuracy.Curve
}

// singleMethods are the single methods' curves the tables compare the
// estimate with: each method fitted once, one CleaneX fit, and CleaneX as
// the product shows it (the mean of the seeds' curves).
func singleMethods(seeds int) []namedCurve {
	return []namedCurve{
		{"plugin", func(p pilotFits) accuracy.Curve { return p.Curves["plugin"] }},
		{"kde", func(p pilotFits) accuracy.Curve { return p.Curves["kde"] }},
		{"pooled", func(p pilotFits) accuracy.Curve { return p.Curves["pooled"] }},
		{"tail", func(p pilotFits) accuracy.Curve { return p.Curves["tail"] }},
		{"regression", func(p pilotFits) accuracy.Curve { return p.Curves["regression"] }},
		{"cleanex seed 1", func(p pilotFits) accuracy.Curve { return p.Curves["cleanex/1"] }},
		{fmt.Sprintf("cleanex mean of %d", seeds), func(p pilotFits) accuracy.Curve { return meanOf(p.rf.CleaneX, p.K) }},
	}
}

// pilotRMSE holds, for each pilot (by its Fits), its RMSE over k = 2..K
// for each column of a table, NaN where the pilot has no such curve.
type pilotRMSE struct {
	names []string
	of    map[*Fits][]float64
}

// rmseOf computes each pilot's RMSE for each of cols once.
func rmseOf(all []pilotFits, cols []namedCurve) pilotRMSE {
	r := pilotRMSE{of: make(map[*Fits][]float64, len(all))}
	for _, c := range cols {
		r.names = append(r.names, c.name)
	}
	for _, p := range all {
		row := make([]float64, len(cols))
		for j, c := range cols {
			row[j] = math.NaN()
			if cv := c.curve(p); cv != nil {
				row[j] = accuracy.RMSE(cv[:p.K+1], p.Truth)
			}
		}
		r.of[p.Fits] = row
	}
	return r
}

// rmseTable prints each column's mean RMSE (worst pilot in brackets) by
// family and by family and k1, and returns the pilots' RMSEs it used.
func rmseTable(all []pilotFits, seeds int) pilotRMSE {
	type col = namedCurve
	estimate := func(p pilotFits) accuracy.Curve { return estimateOf(p.rf, p.K) }
	// counted returns the estimate with CleaneX counted count(p) times
	// instead of recommend.CleaneXCount(k1).
	counted := func(count func(p pilotFits) float64) func(p pilotFits) accuracy.Curve {
		return func(p pilotFits) accuracy.Curve {
			rf := p.rf
			rf.CleaneXCount = count(p)
			return estimateOf(rf, p.K)
		}
	}
	fixed := func(c float64) func(pilotFits) float64 { return func(pilotFits) float64 { return c } }
	cols := append(singleMethods(seeds), []col{
		{"logit mean reg+cx (tried)", mix3(0.5, 0.5, 0)},
		{"logit mean of reg, cx, KDE (tried)", mix3(1.0/3, 1.0/3, 1.0/3)},
		{"median of reg, KDE, cx (tried)", func(p pilotFits) accuracy.Curve {
			cs := []accuracy.Curve{p.rf.Regression, p.Curves["kde"], meanOf(p.rf.CleaneX, p.K)}
			if cs[0] == nil || cs[1] == nil || cs[2] == nil {
				return nil
			}
			out := make(accuracy.Curve, p.K+1)
			for k := range out {
				v := []float64{cs[0][k], cs[1][k], cs[2][k]}
				sort.Float64s(v)
				out[k] = v[1]
			}
			return out
		}},
		{"CleaneX always twice (tried)", counted(fixed(2))},
		{"CleaneX always once (tried)", counted(fixed(1))},
		{"tail-spread rule (tried)", counted(spreadRule)},
		{"estimate", estimate},
		// paper.go: the published CleaneX (PyTorch), averaged over the pilots that have it.
		{"published CleaneX (PyTorch), its pilots only", func(p pilotFits) accuracy.Curve { return p.Curves[paperName] }},
	}...)
	rmse := rmseOf(all, cols)
	for _, byK1 := range []bool{false, true} {
		fmt.Printf("| group | n |")
		for _, c := range cols {
			fmt.Printf(" %s |", c.name)
		}
		fmt.Printf("\n|---|---|%s\n", strings.Repeat("---|", len(cols)))
		gs := groups(all, byK1)
		gs = append(gs, group{name: "all", ps: all})
		for _, g := range gs {
			fmt.Printf("| %s | %d |", g.name, len(g.ps))
			for j := range cols {
				var s, worst float64
				n := 0
				for _, p := range g.ps {
					r := rmse.of[p.Fits][j]
					if math.IsNaN(r) {
						continue
					}
					s += r
					worst = max(worst, r)
					n++
				}
				fmt.Printf(" %.4f (%.3f) |", s/float64(max(n, 1)), worst)
			}
			fmt.Println()
		}
		fmt.Println()
	}
	return rmse
}

// estimateOf is the recommended curve of the fits f up to k, without an
// interval (nil when there is no recommendation).
func estimateOf(f recommend.Fits, k int) accuracy.Curve {
	res, err := recommend.Recommend(f, k, uncalibrated())
	if err != nil {
		return nil
	}
	return res.Estimate
}

// meanOf is recommend.MeanCurve, nil for no curves.
func meanOf(cs []accuracy.Curve, k int) accuracy.Curve {
	if len(cs) == 0 {
		return nil
	}
	return recommend.MeanCurve(cs, k)
}

// observations returns the calibration observations of the pilots: the
// estimate and the truth at each k of the pilot's grid, each pilot's weights
// summing to 1. A pilot with fewer than recommend.FewErrors errors at k1
// contributes only its k <= k1: beyond k1 its interval is widened towards
// the methods' curves (Result.Spanned; spanShare), not the calibrated one.
func observations(ps []pilotFits) []recommend.Observation {
	var obs []recommend.Observation
	for _, p := range ps {
		res, err := recommend.Recommend(p.rf, p.K, uncalibrated())
		if err != nil {
			continue
		}
		g := grid(p.K1, p.K)
		for _, k := range g {
			if res.Spanned && k > p.K1 {
				continue
			}
			obs = append(obs, recommend.Observation{Z: p.rf.CentreLogit(res.Estimate[k]), Y: p.rf.CentreLogit(p.Truth[k]),
				F: res.Features[k], Weight: 1 / float64(len(g)), Group: p.Family, K1: p.K1, At: k})
		}
	}
	return obs
}

func intervalStudy(all []pilotFits, o studyOptions) (recommend.Table, error) {
	cal, err := fitCal(all, o)
	if err != nil {
		return recommend.Table{}, err
	}
	table := recommend.Table{Calibration: cal, Pilots: len(all)}
	fmt.Printf("calibration on all pilots: %+v\n\n", cal)
	fmt.Println("| family | n | coverage at K (in-sample) | LOFO coverage at K | LOFO coverage all k | median width at K (LOFO) | k1=50 | k1=100 | k1=200 | k1=500 |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	gs := groups(all, false)
	var pooledIn, pooledK, pooledAll, n float64
	// the same for the pilots without their half-sampling spread (the
	// calibration's WithoutB, as for a pilot given as a summary)
	var noBK float64
	var noBWidths []float64
	var noBFams []string
	// the same for the pilots of bank.Large alone, and for the others
	// (worlds of bank.PopulationK classes)
	var largeFams, smallFams []string
	var largeK, largeN, smallK, smallN float64
	var smallWidths []float64
	var misses []string
	var allWidths []float64 // LOFO widths at K, all pilots and by k1
	byK1 := map[int][]float64{}
	belowByK1, aboveByK1, pilotsByK1 := map[int]int{}, map[int]int{}, map[int]int{}
	for _, g := range gs {
		var others []pilotFits
		for _, p := range all {
			if p.Family != g.name {
				others = append(others, p)
			}
		}
		lofo, err := fitCal(others, o)
		if err != nil {
			return recommend.Table{}, err
		}
		in := coverage(g.ps, cal)
		out := coverage(g.ps, lofo)
		large, small := largeOnly(g.ps, true), largeOnly(g.ps, false)
		c := coverage(small, lofo)
		smallK += c.atK * float64(len(small))
		smallN += float64(len(small))
		smallWidths = append(smallWidths, c.widths...)
		if len(large) > 0 {
			smallFams = append(smallFams, fmt.Sprintf("%s %.2f (width %.3f)", g.name, c.atK, median(c.widths)))
			c = coverage(large, lofo)
			largeFams = append(largeFams, fmt.Sprintf("%s %.2f (%d pilots, width %.3f)", g.name, c.atK, len(large), median(c.widths)))
			largeK += c.atK * float64(len(large))
			largeN += float64(len(large))
		}
		noB := coverage(withoutSpread(g.ps), lofo)
		noBK += noB.atK * float64(len(g.ps))
		noBWidths = append(noBWidths, noB.widths...)
		noBFams = append(noBFams, fmt.Sprintf("%s %.2f", g.name, noB.atK))
		fmt.Printf("| %s | %d | %.2f | %.2f | %.2f | %.3f |", g.name, len(g.ps), in.atK, out.atK, out.all, median(out.widths))
		for _, k1 := range bank.K1s {
			var ws []float64
			for i, p := range g.ps {
				if p.K1 == k1 {
					ws = append(ws, out.widths[i])
				}
			}
			fmt.Printf(" %.3f |", median(ws))
			byK1[k1] = append(byK1[k1], ws...)
		}
		fmt.Println()
		allWidths = append(allWidths, out.widths...)
		m := g.name + ":"
		for _, k1 := range bank.K1s {
			m += fmt.Sprintf(" k1=%d %d/%d", k1, out.below[k1], out.above[k1])
			belowByK1[k1] += out.below[k1]
			aboveByK1[k1] += out.above[k1]
		}
		for _, p := range g.ps {
			pilotsByK1[p.K1]++
		}
		misses = append(misses, m)
		fc := recommend.FamilyCheck{Family: g.name, Pilots: len(g.ps),
			CoverageAtK: out.atK, CoverageAllK: out.all, MedianWidth: median(out.widths)}
		for _, k1 := range bank.K1s {
			fc.Below += out.below[k1]
			fc.Above += out.above[k1]
		}
		table.Families = append(table.Families, fc)
		pooledIn += in.atK * float64(len(g.ps))
		pooledK += out.atK * float64(len(g.ps))
		pooledAll += out.all * float64(len(g.ps))
		n += float64(len(g.ps))
	}
	fmt.Printf("| pooled | %.0f | %.2f | %.2f | %.2f | %.3f |", n, pooledIn/n, pooledK/n, pooledAll/n, median(allWidths))
	for _, k1 := range bank.K1s {
		fmt.Printf(" %.3f |", median(byK1[k1]))
	}
	fmt.Println()
	if largeN > 0 {
		fmt.Printf("\nthe larger worlds' pilots (bank.Large) alone: LOFO coverage at K %.2f; %s\n", largeK/largeN, strings.Join(largeFams, ", "))
		fmt.Printf("\nthe other pilots of those families (worlds of %d classes) alone: %s; all families' pilots in such worlds: LOFO coverage at K %.2f, median width %.3f\n",
			bank.PopulationK, strings.Join(smallFams, ", "), smallK/smallN, median(smallWidths))
	}
	fmt.Printf("\nwithout the half-sampling spread (Calibration.WithoutB): LOFO coverage at K %.2f, median width %.3f; %s\n",
		noBK/n, median(noBWidths), strings.Join(noBFams, ", "))
	spanReport(all, cal)
	fmt.Println("\nLOFO misses at K, truth below / above the interval, by k1:")
	for _, m := range misses {
		fmt.Println(m)
	}
	fmt.Print("\nLOFO coverage at K by k1 (all families):")
	for _, k1 := range bank.K1s {
		if n := pilotsByK1[k1]; n > 0 {
			fmt.Printf(" k1=%d %.2f (%d / %d below / above)", k1, 1-float64(belowByK1[k1]+aboveByK1[k1])/float64(n), belowByK1[k1], aboveByK1[k1])
		}
	}
	fmt.Println()
	return table, nil
}

// withoutSpread returns ps with their half-sampling spread left out, as for
// pilots given as per-point summaries.
func withoutSpread(ps []pilotFits) []pilotFits {
	out := make([]pilotFits, len(ps))
	for i, p := range ps {
		p.rf.Spread = halfsample.Spread{}
		out[i] = p
	}
	return out
}

type cov struct {
	atK, all float64
	widths   []float64
	// below and above count, by k1, the pilots whose truth at K lies below
	// and above the interval.
	below, above map[int]int
}

func coverage(ps []pilotFits, cal recommend.Calibration) cov {
	c := cov{below: map[int]int{}, above: map[int]int{}}
	var nAll float64
	for _, p := range ps {
		res, err := recommend.Recommend(p.rf, p.K, cal)
		if err != nil {
			c.widths = append(c.widths, math.NaN())
			continue
		}
		t := p.Truth[p.K]
		switch {
		case t < res.Lo[p.K]:
			c.below[p.K1]++
		case t > res.Hi[p.K]:
			c.above[p.K1]++
		default:
			c.atK++
		}
		c.widths = append(c.widths, res.Hi[p.K]-res.Lo[p.K])
		g := grid(p.K1, p.K)
		hit := 0.0
		for _, k := range g {
			if res.Lo[k] <= p.Truth[k] && p.Truth[k] <= res.Hi[k] {
				hit++
			}
		}
		c.all += hit / float64(len(g))
		nAll++
	}
	c.atK /= float64(len(ps))
	c.all /= nAll
	return c
}

// median is backtest.Median of the values that are not NaN.
func median(xs []float64) float64 {
	var s []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			s = append(s, x)
		}
	}
	return backtest.Median(s)
}

// dump prints, per pilot, the residual and the features at k = K (a
// diagnostic for the interval model).
func dump(dir string, all []pilotFits) {
	fmt.Println("id,k1,truth,est,reg,cx,kde,r,se,d,s,l,sek,b")
	type acc struct{ r, b []float64 }
	byFam := map[string]*acc{}
	var fams []string
	for _, p := range all {
		res, err := recommend.Recommend(p.rf, p.K, uncalibrated())
		if err != nil {
			continue
		}
		f := res.Features[p.K]
		cx := meanOf(p.rf.CleaneX, p.K)
		b, _ := halfResidual(dir, p.Fits)
		r := p.rf.CentreLogit(p.Truth[p.K]) - p.rf.CentreLogit(res.Estimate[p.K])
		fmt.Printf("%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", p.ID, p.K1, p.Truth[p.K], res.Estimate[p.K],
			p.Curves["regression"][p.K], cx[p.K], p.Curves["kde"][p.K], r, f.SE, f.D, f.S, f.L, f.SEK, b)
		if byFam[p.Family] == nil {
			byFam[p.Family] = &acc{}
			fams = append(fams, p.Family)
		}
		byFam[p.Family].r = append(byFam[p.Family].r, r)
		byFam[p.Family].b = append(byFam[p.Family].b, b)
	}
	fmt.Println("family,mean r at K,mean B,corr(r,B)")
	var ar, ab []float64
	for _, fam := range fams {
		a := byFam[fam]
		ar, ab = append(ar, a.r...), append(ab, a.b...)
		fmt.Printf("%s,%.3f,%.3f,%.2f\n", fam, stat.Mean(a.r, nil), stat.Mean(a.b, nil), stat.Correlation(a.r, a.b, nil))
	}
	fmt.Printf("all,%.3f,%.3f,%.2f\n", stat.Mean(ar, nil), stat.Mean(ab, nil), stat.Correlation(ar, ab, nil))
	withinBetween(all)
}

// withinBetween prints, for quantities measured on the pilot at k = K, how
// they go with the residual r = logit truth - logit estimate at K: the
// correlation within each (family, k1) cell of the bank (median over cells,
// and how many cells have a positive one) and the correlation of the
// families' means. A quantity whose two correlations disagree in sign can
// explain a pilot's error within its family but not a family's shared bias.
func withinBetween(all []pilotFits) {
	type quantity struct {
		name string
		of   func(p pilotFits, est float64) float64
	}
	qs := []quantity{
		{"KDE - estimate (logit)", func(p pilotFits, est float64) float64 { return p.rf.CentreLogit(p.Curves["kde"][p.K]) - est }},
		{"regression - estimate (logit)", func(p pilotFits, est float64) float64 {
			return p.rf.CentreLogit(p.Curves["regression"][p.K]) - est
		}},
		{"CleaneX - estimate (logit)", func(p pilotFits, est float64) float64 {
			return p.rf.CentreLogit(meanOf(p.rf.CleaneX, p.K)[p.K]) - est
		}},
		{"G (logit Abar_k1 - estimate)", func(p pilotFits, est float64) float64 {
			return p.rf.CentreLogit(p.Observed[p.K1]) - est
		}},
	}
	// Each usable pilot's residual r and quantities, in cells (family, k1)
	// and families, in the bank's order.
	type group struct {
		r []float64
		q [][]float64 // per quantity
	}
	var cellKeys, famKeys []string
	cells, fams := map[string]*group{}, map[string]*group{}
	add := func(m map[string]*group, keys *[]string, key string, r float64, q []float64) {
		g := m[key]
		if g == nil {
			g = &group{q: make([][]float64, len(qs))}
			m[key] = g
			*keys = append(*keys, key)
		}
		g.r = append(g.r, r)
		for i, v := range q {
			g.q[i] = append(g.q[i], v)
		}
	}
	for _, p := range all {
		if p.Curves["kde"] == nil || p.Curves["regression"] == nil || len(p.rf.CleaneX) == 0 {
			continue
		}
		res, err := recommend.Recommend(p.rf, p.K, uncalibrated())
		if err != nil {
			continue
		}
		est := p.rf.CentreLogit(res.Estimate[p.K])
		r := p.rf.CentreLogit(p.Truth[p.K]) - est
		q := make([]float64, len(qs))
		for i, qu := range qs {
			q[i] = qu.of(p, est)
		}
		add(cells, &cellKeys, fmt.Sprintf("%s/%d", p.Family, p.K1), r, q)
		add(fams, &famKeys, p.Family, r, q)
	}
	fmt.Printf("\nresidual r at K against a quantity: within (family, k1) cells (%d) and between families (%d)\n", len(cellKeys), len(famKeys))
	fmt.Println("quantity,median within-cell corr,cells with corr > 0,corr of family means")
	for i, qu := range qs {
		var within []float64
		positive := 0
		for _, k := range cellKeys {
			c := stat.Correlation(cells[k].r, cells[k].q[i], nil)
			within = append(within, c)
			if c > 0 {
				positive++
			}
		}
		var mr, mq []float64
		for _, k := range famKeys {
			mr, mq = append(mr, stat.Mean(fams[k].r, nil)), append(mq, stat.Mean(fams[k].q[i], nil))
		}
		fmt.Printf("%s,%.2f,%d of %d,%.2f\n", qu.name, median(within), positive, len(within), stat.Correlation(mr, mq, nil))
	}
}

// uncalibrated returns a calibration with a zero interval, for studying the
// estimate alone.
func uncalibrated() recommend.Calibration {
	return recommend.Calibration{Knots: []float64{0}, QLo: []float64{0}, QHi: []float64{0}}
}

// mix3 is a study column: the logit mean of regression, the CleaneX mean and
// KDE with weights a, b, c.
func mix3(a, b, c float64) func(p pilotFits) accuracy.Curve {
	return func(p pilotFits) accuracy.Curve {
		r, x, d := p.rf.Regression, meanOf(p.rf.CleaneX, p.K), p.Curves["kde"]
		if r == nil || x == nil || d == nil {
			return nil
		}
		out := make(accuracy.Curve, p.K+1)
		for k := range out {
			z := a*logit(r[k]) + b*logit(x[k]) + c*logit(d[k])
			out[k] = 1 / (1 + math.Exp(-z))
		}
		return out
	}
}

// fitCal fits the calibration the product uses (FitSidedScaleCrossed), or
// for comparison the one with the scale fitted by o.scale
// (FitSidedScaleWith), the symmetric one (FitScale) or the one with pooled
// quantiles (FitSidedScale); each with its WithoutB, the same fit on the
// observations with B_k left out; then the floor beyond the bank's worlds
// and the span share of pilots with too few errors (spanShare).
func fitCal(ps []pilotFits, o studyOptions) (recommend.Calibration, error) {
	obs := observations(ps)
	fit := func(obs []recommend.Observation) (recommend.Calibration, error) {
		switch {
		case o.symmetric:
			return recommend.FitScale(obs, recommend.DefaultKnots())
		case o.scale != "" && o.pooledQuantiles:
			return recommend.FitSidedScaleWith(obs, recommend.DefaultKnots(), recommend.ScaleFit(o.scale))
		case o.scale != "":
			return recommend.FitSidedScaleCrossedWith(obs, recommend.DefaultKnots(), recommend.ScaleFit(o.scale))
		case o.pooledQuantiles:
			return recommend.FitSidedScale(obs, recommend.DefaultKnots())
		}
		return recommend.FitSidedScaleCrossed(obs, recommend.DefaultKnots())
	}
	cal, err := fit(obs)
	if err != nil {
		return cal, err
	}
	without, err := fit(withoutB(obs))
	if err != nil {
		return cal, fmt.Errorf("without B: %w", err)
	}
	cal.WithoutB = &without
	if cal, err = recommend.FitFloor(cal, obs, bank.PopulationK, recommend.LargestCalibratedK1); err != nil {
		return cal, err
	}
	return spanShare(cal, ps)
}

// spanShare returns cal with its span shares (recommend.FitSpanShares)
// fitted on the pilots of ps with too few errors, at each one's K; the same
// shares are set on cal.WithoutB.
func spanShare(cal recommend.Calibration, ps []pilotFits) (recommend.Calibration, error) {
	var some, none []float64
	for _, p := range ps {
		s, ok, err := recommend.NeededSpanShare(p.rf, p.K, p.Truth[p.K], cal)
		if err != nil {
			return cal, fmt.Errorf("%s: %w", p.ID, err)
		}
		switch {
		case !ok:
		case p.rf.NoError():
			none = append(none, s)
		default:
			some = append(some, s)
		}
	}
	return cal.WithSpanShares(recommend.FitSpanShares(some, none)), nil
}

// largeOnly returns the pilots of ps that bank.Large made (large) or the
// others (!large).
func largeOnly(ps []pilotFits, large bool) []pilotFits {
	var out []pilotFits
	for _, p := range ps {
		if strings.HasPrefix(p.ID, "large-") == large {
			out = append(out, p)
		}
	}
	return out
}

// withoutB returns obs with B_k left out (0, not known) on every observation.
func withoutB(obs []recommend.Observation) []recommend.Observation {
	out := slices.Clone(obs)
	for i := range out {
		out[i].F.B, out[i].F.BKnown = 0, false
	}
	return out
}

// spreadRule is a rule the estimate used before recommend.CleaneXCount:
// CleaneX counts once when the tail method has a curve and the pilot's tail
// spread (tail.Spread) is known and at most recommend.SharedTail (the points look as
// if they share the one tail shape the pooled and the tail method
// assume), twice otherwise.
func spreadRule(p pilotFits) float64 {
	if p.rf.Tail != nil && p.TailSpread > 0 && p.TailSpread <= recommend.SharedTail {
		return 1
	}
	return 2
}

// spreadTable prints, by family, the pilots' tail spread (tail.Spread: its
// mean, least and largest) and how many of them the tail-spread rule
// (spreadRule) counts CleaneX once on.
func spreadTable(all []pilotFits) {
	fmt.Printf("Tail spread (the tail-spread rule counts CleaneX once at most %.2f), by family:\n\n", recommend.SharedTail)
	fmt.Println("| family | n | mean spread | least | largest | CleaneX once under the rule |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, g := range append(groups(all, false), group{name: "all", ps: all}) {
		sum, lo, hi, once := 0.0, math.Inf(1), math.Inf(-1), 0
		for _, p := range g.ps {
			sum += p.TailSpread
			lo, hi = min(lo, p.TailSpread), max(hi, p.TailSpread)
			if spreadRule(p) == 1 {
				once++
			}
		}
		fmt.Printf("| %s | %d | %.2f | %.2f | %.2f | %d |\n", g.name, len(g.ps), sum/float64(len(g.ps)), lo, hi, once)
	}
	fmt.Println()
}

// spanReport prints, for the pilots of all with too few errors
// (recommend.Result.Spanned), the interval's coverage and median width at K
// (in-sample) with cal's span share and with the methods' whole span.
func spanReport(all []pilotFits, cal recommend.Calibration) {
	var few, none []pilotFits
	for _, p := range all {
		if p.rf.Spans(p.K) {
			few = append(few, p)
			if p.rf.NoError() {
				none = append(none, p)
			}
		}
	}
	c, w, cn := coverage(few, cal), coverage(few, cal.WithSpanShares(0, 0)), coverage(none, cal)
	fmt.Printf("\npilots with too few errors (%d): span share %.3f (%.3f for the %d without an error: coverage at K %.2f), coverage at K %.2f, all k %.2f, median width at K %.3f; with the whole span %.2f, %.2f, %.3f\n",
		len(few), cal.SpanShare, cal.SpanShareNone, len(none), cn.atK, c.atK, c.all, median(c.widths), w.atK, w.all, median(w.widths))
}
