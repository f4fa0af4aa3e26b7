package main

import (
	"fmt"

	"github.com/cleanex/cleanex/internal/bank"
	"github.com/cleanex/cleanex/internal/recommend"
)

// heldOutStudy reads the cached fits of the held-out pilots (bank.HeldOut,
// fitted by `calibrate fit -heldout`) and prints every method's mean RMSE
// and the coverage and width of the interval with the calibration the
// product embeds, which was fitted on the bank alone: an out-of-sample check
// on settings the bank lacks.
func heldOutStudy(dir string, pilots []bank.Pilot, seeds int) error {
	all, err := loadAll(dir, pilots, seeds)
	if err != nil {
		return err
	}
	if len(all) == 0 {
		return fmt.Errorf("no held-out pilot is cached in %s: run `calibrate fit -heldout -dir %s` first", dir, dir)
	}
	table, err := recommend.DefaultTable()
	if err != nil {
		return err
	}
	fmt.Printf("%d held-out pilots cached; calibration fitted on %d bank pilots\n\n", len(all), table.Pilots)
	rmseTable(all, seeds)
	fmt.Println("| group | n | coverage at K | coverage, all k | truth below / above at K | median width at K |")
	fmt.Println("|---|---|---|---|---|---|")
	gs := append(groups(all, false), groups(all, true)...)
	gs = append(gs, group{name: "all", ps: all})
	for _, g := range gs {
		c := coverage(g.ps, table.Calibration)
		below, above := 0, 0
		for _, k1 := range bank.K1s {
			below += c.below[k1]
			above += c.above[k1]
		}
		fmt.Printf("| %s | %d | %.2f | %.2f | %d / %d | %.3f |\n", g.name, len(g.ps), c.atK, c.all, below, above, median(c.widths))
	}
	return nil
}
