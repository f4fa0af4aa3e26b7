package bank

import (
	"slices"

	"github.com/cleanex/cleanex/internal/bank/realdata"
)

// LongK1s are the pilot sizes of Long: the bank's two smallest.
var LongK1s = []int{50, 100}

// LongK is the population of Long's worlds: 100 times a pilot of 50
// classes and 50 times one of 100, beyond the 40 times the calibration
// reaches.
const LongK = 5000

// longRealFamilies lists the real families whose pool holds at least LongK
// classes (realdata.PoolSize: glyphs 7,291, misspellings 5,785, senses
// 9,804; the held-out translations 30,256, pronunciations 5,709 and
// descriptions 5,095).
func longRealFamilies() []string {
	return []string{realdata.Glyphs, realdata.Misspellings, realdata.Senses, realdata.Translations, realdata.Pronunciations, realdata.Descriptions}
}

// longSeeds is added to Long's world seeds, apart from every other set's
// (Large's and LargeFresh's are 11 and 12 times replicateSeeds).
const longSeeds = 13 * replicateSeeds

// Long returns pilots of 50 and 100 classes (LongK1s) carried to worlds of
// LongK classes, 100 and 50 times their size, where no calibration pilot
// is carried: 8 worlds each of every simulated bank family (the bank's
// settings, K = LongK) and of every real family whose pool holds LongK
// classes (longRealFamilies), bank and held-out alike, all in new worlds.
// They measure the estimate and its interval on long extrapolations; none
// of them is used to fit anything. Families are named "long-" and the bank
// family, or "long-out-" and the held-out real family. Only families and
// k1s selected (all when empty) are returned.
func Long(families []string, k1s []int) []Pilot {
	var all []Pilot
	for fi, f := range simFamilies() {
		f.name, f.seedBase = "long-"+f.name, longSeeds+uint64(fi)*1_000_000
		f.k, f.k1s = LongK, LongK1s
		all = append(all, f.pilots()...)
	}
	for fi, f := range longRealFamilies() {
		prefix := "long-real-"
		if slices.Contains(realdata.HeldOutFamilies(), f) {
			prefix = "long-out-"
		}
		all = append(all, realFamilyPilots(prefix+f, f, longSeeds+100_000_000+uint64(fi)*1_000_000, LongK, LongK1s)...)
	}
	return selectFrom(all, families, k1s)
}
