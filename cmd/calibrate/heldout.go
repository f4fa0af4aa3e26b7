package main

import (
	"fmt"

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
	rmseTable(all, seeds)
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
	return nil
}
