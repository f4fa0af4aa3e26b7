package bank

import (
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/bank/realdata"
)

// heldOutFamilies lists simulated families outside the bank: the
// recommendation's calibration never sees them, so their coverage is an
// out-of-sample check of the calibration on settings the bank lacks: d = 4
// with r = 5 points per class, d = 7 with r = 20, d = 5 (the paper's noise
// levels) with a population of K = 5,000 classes, so that k2 / k1 reaches 100
// (the bank's largest ratio is 40), d = 6 with r = 2, d = 8 with K = 20,000
// classes and pilots of 500, 1,000 and 2,000 (the bank's largest has 500),
// classes in groups (simulate.Config.Group), whose members are one
// another's closest rivals, as the passages of one book are in the bank's
// verses family: groups of 25 at d = 8, and groups of 40 and of 10 at d = 5,
// and d = 5 with K = 10,000 classes and pilots of 500, 1,000 and 2,000.
// Their seeds are apart from the bank's.
func heldOutFamilies() []simFamily {
	return []simFamily{
		{name: "out-d4-r5", d: 4, r: 5, k: PopulationK, sigma2: [2]float64{0.05, 0.1}, seedBase: 40_000_000},
		{name: "out-d7-r20", d: 7, r: 20, k: PopulationK, sigma2: [2]float64{0.2, 0.4}, seedBase: 70_000_000},
		{name: "out-d5-K5000", d: 5, r: simR, k: 5000, sigma2: [2]float64{0.1, 0.2}, seedBase: 55_000_000},
		{name: "out-d6-r2", d: 6, r: 2, k: PopulationK, sigma2: [2]float64{0.15, 0.3}, seedBase: 60_000_000},
		{name: "out-d8-K20000", d: 8, r: simR, k: 20_000, sigma2: [2]float64{0.15, 0.3},
			k1s: []int{500, 1000, 2000}, seedBase: 85_000_000},
		{name: "out-groups-d8", d: 8, r: simR, k: PopulationK, sigma2: [2]float64{0.3, 0.5},
			group: [2]int{25, 25}, tau2: [2]float64{0.3, 0.3}, seedBase: 80_000_000},
		{name: "out-groups-d5", d: 5, r: simR, k: PopulationK, sigma2: [2]float64{0.1, 0.2},
			group: [2]int{40, 10}, tau2: [2]float64{0.2, 0.2}, seedBase: 45_000_000},
		{name: "out-d5-K10000", d: 5, r: simR, k: 10_000, sigma2: [2]float64{0.1, 0.2},
			k1s: []int{500, 1000, 2000}, seedBase: 95_000_000},
	}
}

// largeRealFamilies lists held-out pilots of real families larger than the
// bank's: populations of K classes from the pool of a held-out real family
// (realdata.HeldOutFamilies), pilots of k1s classes, realWorlds of each,
// named "out-" and the family and "-K" and K.
func largeRealFamilies() []largeReal {
	return []largeReal{
		{family: "pronunciations", k: 5000, k1s: []int{500, 1000}, seedBase: 3_000_000_000},
		{family: "wordimages", k: 4500, k1s: []int{500, 1000}, seedBase: 3_100_000_000},
	}
}

// largeReal is a held-out family of large real pilots (largeRealFamilies).
type largeReal struct {
	family   string
	k        int
	k1s      []int
	seedBase uint64
}

// pilots returns the family's pilots (realFamilyPilots with the family's K
// and k1s).
func (f largeReal) pilots() []Pilot {
	return realFamilyPilots(fmt.Sprintf("out-%s-K%d", f.family, f.k), f.family, f.seedBase, f.k, f.k1s)
}

// HeldOut returns the pilots of the held-out families whose name is one of
// families (all when empty) and whose k1 is one of k1s (all when empty): the
// simulated ones, built as the bank's simulated families are
// (simFamily.pilots), then the real ones (realdata.HeldOutFamilies, named
// "out-" and the realdata family), built as the bank's real families are
// (realFamilyPilots) with seeds apart from theirs, then the large pilots of
// real families (largeRealFamilies).
func HeldOut(families []string, k1s []int) []Pilot {
	var all []Pilot
	for _, f := range heldOutFamilies() {
		all = append(all, f.pilots()...)
	}
	for i, f := range realdata.HeldOutFamilies() {
		all = append(all, realFamilyPilots("out-"+f, f, uint64(900_000_000+100_000_000*i), PopulationK, K1s)...)
	}
	for _, f := range largeRealFamilies() {
		all = append(all, f.pilots()...)
	}
	return selectFrom(all, families, k1s)
}

// SmallK1s are the pilot sizes of SmallPilots, below the bank's smallest.
var SmallK1s = []int{10, 20, 30}

// SmallPilots returns pilots smaller than any of the bank's, to measure the
// calibration where it was not fitted: the worlds of the bank's 50-class
// pilots (every family, 8 each), each with a pilot of k1 classes for every
// k1 of SmallK1s (drawn with the world's seed; IDs "small-" and the bank
// pilot's family, setting, k1 and world). Only families and k1s selected
// (all when empty) are returned.
func SmallPilots(families []string, k1s []int) []Pilot {
	var out []Pilot
	for _, p := range Select(nil, []int{K1s[0]}) {
		for _, k1 := range SmallK1s {
			q := p
			q.Family, q.K1 = "small-"+p.Family, k1
			q.ID = strings.Replace("small-"+p.ID, fmt.Sprintf("/k%d/", p.K1), fmt.Sprintf("/k%d/", k1), 1)
			if q.selected(families, k1s) {
				out = append(out, q)
			}
		}
	}
	return out
}

// replicateSeeds is added to every bank seed, once per replicate, to give
// Replicate's pilots.
const replicateSeeds = 2_000_000_000

// Replicate returns fresh pilots of the bank's own families: every family
// drawn again as the bank draws it, with every world seed moved by i times
// replicateSeeds (apart from the bank's and the held-out families' seeds),
// and named "rep-" (i = 1) or "rep<i>-" and the bank family. They measure
// how the estimate and its interval, chosen on the bank's 256 pilots, do on
// new pilots of the same kinds of data (the real families' populations are
// new draws from the same pools of classes). Only families and k1s selected
// (all when empty) are returned.
func Replicate(i int, families []string, k1s []int) []Pilot {
	prefix := "rep-"
	if i != 1 {
		prefix = fmt.Sprintf("rep%d-", i)
	}
	shift := uint64(i) * replicateSeeds
	var all []Pilot
	for _, f := range simFamilies() {
		f.name, f.seedBase = prefix+f.name, f.seedBase+shift
		all = append(all, f.pilots()...)
	}
	for fi, f := range realdata.Families() {
		all = append(all, realFamilyPilots(prefix+"real-"+f, f, shift+uint64(100_000_000*(fi+1)), PopulationK, K1s)...)
	}
	return selectFrom(all, families, k1s)
}

// ReplicateOf returns the bank family of a Replicate family name ("rep-sim-d3",
// "rep2-sim-d3": "sim-d3"), and the name itself for any other.
func ReplicateOf(family string) string {
	if strings.HasPrefix(family, "rep") {
		if _, base, ok := strings.Cut(family, "-"); ok {
			return base
		}
	}
	return family
}
