package main

import (
	"fmt"
	"math"

	"github.com/cleanex/cleanex/internal/bank"
	"github.com/cleanex/cleanex/internal/recommend"
)

// heldOutStudy reads the cached fits of pilots and prints every method's
// mean RMSE, its mean signed error at K and the coverage and width of the interval with the calibration
// the product embeds. On the held-out pilots (bank.HeldOut, fitted by
// `calibrate fit -heldout`; `calibrate heldout`) that calibration was fitted
// on the bank alone: an out-of-sample check on settings the bank lacks; on
// bank pilots whose scores were rewritten (`calibrate fit -transform`;
// `calibrate embedded`) it shows what the rewriting changes.
func heldOutStudy(dir string, pilots []bank.Pilot, seeds int) error {
	all, err := loadAll(dir, pilots, seeds)
	if err != nil {
		return err
	}
	if len(all) == 0 {
		return fmt.Errorf("no pilot is cached in %s: run `calibrate fit -heldout -dir %s` (or fit -transform) first", dir, dir)
	}
	table, err := recommend.DefaultTable()
	if err != nil {
		return err
	}
	fmt.Printf("%d pilots cached; the embedded calibration was fitted on %d bank pilots\n\n", len(all), table.Pilots)
	pairedTable(all, rmseTable(all, seeds), seeds)
	spreadTable(all)
	biasTable(all)
	paperTable(all, seeds) // the published CleaneX (PyTorch) where `calibrate paper -heldout` ran it
	fmt.Println("| group | n | coverage at K | coverage, all k | truth below / above at K | median width at K |")
	fmt.Println("|---|---|---|---|---|---|")
	gs := append(groups(all, false), groups(all, true)...)
	gs = append(gs, group{name: "all", ps: all})
	for _, g := range gs {
		c := coverage(g.ps, table.Calibration)
		below, above := 0, 0
		for _, n := range c.below {
			below += n
		}
		for _, n := range c.above {
			above += n
		}
		fmt.Printf("| %s | %d | %.2f | %.2f | %d / %d | %.3f |\n", g.name, len(g.ps), c.atK, c.all, below, above, median(c.widths))
	}
	ratioTable(all, table.Calibration)
	return nil
}

// coverageRatios are the ratios k / k1 at which ratioTable scores the
// interval: where a user's k2 may lie, from the pilot's own size to the
// calibration's last knot.
var coverageRatios = []float64{1, 1.5, 2, 3, 5, 10, 20, 40}

// ratioTable prints the interval's coverage of the truth at k = round(r k1)
// for each ratio r of coverageRatios that the pilot's population reaches,
// over all the pilots: a user's k2 is seldom the population's K.
func ratioTable(all []pilotFits, cal recommend.Calibration) {
	type cell struct {
		in, below, above int
		widths           []float64
	}
	cells := make([]cell, len(coverageRatios))
	for _, p := range all {
		res, err := recommend.Recommend(p.rf, p.K, cal)
		if err != nil {
			continue
		}
		for i, r := range coverageRatios {
			k := int(math.Round(r * float64(p.K1)))
			if k > p.K {
				continue
			}
			c := &cells[i]
			switch t := p.Truth[k]; {
			case t < res.Lo[k]:
				c.below++
			case t > res.Hi[k]:
				c.above++
			default:
				c.in++
			}
			c.widths = append(c.widths, res.Hi[k]-res.Lo[k])
		}
	}
	fmt.Println("\nCoverage at k = r k1, all pilots whose population reaches it:")
	fmt.Println()
	fmt.Println("| k / k1 | pilots | coverage | truth below / above | median width |")
	fmt.Println("|---|---|---|---|---|")
	for i, r := range coverageRatios {
		c := cells[i]
		n := c.in + c.below + c.above
		if n == 0 {
			continue
		}
		fmt.Printf("| %g | %d | %.2f | %d / %d | %.3f |\n", r, n, float64(c.in)/float64(n), c.below, c.above, median(c.widths))
	}
}
