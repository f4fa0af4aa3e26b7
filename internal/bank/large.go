package bank

import (
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/bank/realdata"
)

// LargeK1s are the pilot sizes of Large: the bank's two largest.
var LargeK1s = []int{200, 500}

// largeSimK is the population of Large's simulated worlds for a pilot of k1
// classes: 40 k1, the calibration's largest extrapolation (8,000 classes
// for 200, 20,000 for 500).
func largeSimK(k1 int) int { return 40 * k1 }

// largeRealK returns the population of Large's worlds of a real family whose
// pool holds far more than PopulationK classes, nearly the whole pool, and
// false for the others.
func largeRealK(family string) (int, bool) {
	switch family {
	case realdata.Glyphs:
		return 7000, true
	case realdata.Misspellings:
		return 5500, true
	case realdata.Senses:
		return 9000, true
	}
	return 0, false
}

// largeSeeds is added to Large's world seeds, beyond every replicate's
// (replicateSeeds) up to the tenth; LargeFresh's add replicateSeeds more.
const largeSeeds = 11 * replicateSeeds

// largePrefix starts the family names of Large's pilots.
const largePrefix = "large-"

// Large returns pilots of the bank's own kinds of data in worlds larger than
// the bank's 2,000 classes, so that the interval of the bank's larger pilots
// is calibrated where a user of such a pilot extrapolates: for k1 = 200 and
// 500 (LargeK1s), 8 worlds each of every simulated family with 40 k1
// classes (largeSimK), drawn as the bank draws them, and 8 worlds each of
// the real families with a pool large enough (largeRealK: glyphs 7,000,
// misspellings 5,500, senses 9,000). Families are named "large-" and the
// bank family (BankFamily gives it back); seeds are apart from every other
// set's. Only families and k1s selected (all when empty) are returned.
func Large(families []string, k1s []int) []Pilot { return largeSet(0, families, k1s) }

// LargeFresh returns pilots drawn as Large's are, in new worlds (seeds
// moved by replicateSeeds, apart from every other set's) and with families
// named "large2-" and the bank family: fresh pilots to check the calibration
// fitted on Large's. Only families and k1s selected (all when empty) are
// returned.
func LargeFresh(families []string, k1s []int) []Pilot { return largeSet(1, families, k1s) }

// largeSet returns Large's pilots (i = 0) or LargeFresh's (i = 1).
func largeSet(i int, families []string, k1s []int) []Pilot {
	prefix, base := largePrefix, largeSeeds+uint64(i)*replicateSeeds
	if i > 0 {
		prefix = fmt.Sprintf("large%d-", i+1)
	}
	var all []Pilot
	for fi, f := range simFamilies() {
		f.name, f.seedBase = prefix+f.name, base+uint64(fi)*1_000_000
		for _, k1 := range LargeK1s {
			g := f
			g.k, g.k1s = largeSimK(k1), []int{k1}
			g.seedBase += uint64(k1) * 1000
			all = append(all, g.pilots()...)
		}
	}
	for fi, f := range realdata.Families() {
		k, ok := largeRealK(f)
		if !ok {
			continue
		}
		all = append(all, realFamilyPilots(prefix+"real-"+f, f, base+100_000_000+uint64(fi)*1_000_000, k, LargeK1s)...)
	}
	return selectFrom(all, families, k1s)
}

// BankFamily returns the bank family of a family of Replicate ("rep-sim-d3",
// "rep2-sim-d3"), Large ("large-sim-d3") or LargeFresh ("large2-sim-d3"):
// "sim-d3"; any other name is returned as it is.
func BankFamily(family string) string {
	if strings.HasPrefix(family, "large") {
		if _, rest, ok := strings.Cut(family, "-"); ok {
			return rest
		}
	}
	return ReplicateOf(family)
}
