package bank

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/bank/realdata"
	"github.com/cleanex/cleanex/internal/recommend"
)

// The recommendation's warning about small pilots names the bank's range of
// pilot sizes, on which its interval was calibrated.
func TestCalibratedK1s(t *testing.T) {
	if slices.Min(K1s) != recommend.SmallestCalibratedK1 || slices.Max(K1s) != recommend.LargestCalibratedK1 {
		t.Errorf("bank pilots of %v classes; recommend says %d to %d", K1s, recommend.SmallestCalibratedK1, recommend.LargestCalibratedK1)
	}
	if PopulationK != recommend.CalibratedPopulation {
		t.Errorf("bank worlds of %d classes; recommend says %d", PopulationK, recommend.CalibratedPopulation)
	}
}

// Each replicate has the bank's families and sizes, one pilot for each of
// the bank's, with IDs and world seeds that no bank, held-out or other
// replicate pilot uses.
func TestReplicateIsFresh(t *testing.T) {
	bank := Pilots()
	ids, seeds := map[string]bool{}, map[uint64]bool{}
	for _, p := range append(bank, HeldOut(nil, nil)...) {
		ids[p.ID], seeds[p.Seed] = true, true
	}
	for _, r := range []int{1, 2} {
		rep := Replicate(r, nil, nil)
		if len(rep) != len(bank) {
			t.Fatalf("replicate %d: %d pilots, %d bank pilots", r, len(rep), len(bank))
		}
		for i, p := range rep {
			b := bank[i]
			if ReplicateOf(p.Family) != b.Family || p.K1 != b.K1 || p.K != b.K || p.Setting != b.Setting {
				t.Errorf("replicate %d pilot %d is %s %s k1 %d, bank's %s %s k1 %d", r, i, p.Family, p.Setting, p.K1, b.Family, b.Setting, b.K1)
			}
			if ids[p.ID] || seeds[p.Seed] {
				t.Errorf("replicate %d pilot %s (seed %d) reuses an ID or seed", r, p.ID, p.Seed)
			}
			ids[p.ID], seeds[p.Seed] = true, true
		}
	}
	if got := Replicate(1, nil, nil)[0].Family; got != "rep-sim-d3" {
		t.Errorf("replicate 1's first family %q", got)
	}
	if got := ReplicateOf("sim-d3"); got != "sim-d3" {
		t.Errorf("ReplicateOf(sim-d3) = %q", got)
	}
}

// Every held-out pilot has an ID and a world seed of its own, used by no bank
// pilot, and the grouped held-out families' settings name their grouping.
func TestHeldOutIsApart(t *testing.T) {
	ids, seeds := map[string]bool{}, map[uint64]bool{}
	for _, p := range Pilots() {
		ids[p.ID], seeds[p.Seed] = true, true
	}
	grouped := 0
	for _, p := range HeldOut(nil, nil) {
		if ids[p.ID] || seeds[p.Seed] {
			t.Errorf("held-out pilot %s (seed %d) reuses an ID or seed", p.ID, p.Seed)
		}
		ids[p.ID], seeds[p.Seed] = true, true
		if p.sim != nil && p.sim.Group > 1 {
			grouped++
			if want := fmt.Sprintf("-g%d-t%g", p.sim.Group, p.sim.Tau2); !strings.HasSuffix(p.Setting, want) {
				t.Errorf("grouped pilot %s: setting %q does not end in %q", p.ID, p.Setting, want)
			}
		}
	}
	if grouped != 64 {
		t.Errorf("%d grouped held-out pilots, want 64 (two families of 32)", grouped)
	}
	// the large family: pilots of 500, 1,000 and 2,000 classes, 8 each, of
	// worlds of 20,000
	byK1 := map[int]int{}
	for _, p := range HeldOut([]string{"out-d8-K20000"}, nil) {
		if p.K != 20_000 {
			t.Errorf("%s: K = %d, want 20000", p.ID, p.K)
		}
		byK1[p.K1]++
	}
	if want := map[int]int{500: 8, 1000: 8, 2000: 8}; !maps.Equal(byK1, want) {
		t.Errorf("out-d8-K20000 pilots by k1 %v, want %v", byK1, want)
	}
}

// used returns the IDs and seeds of the bank's pilots, the held-out ones,
// the first ten replicates' and those of sets.
func used(sets ...[]Pilot) (ids map[string]bool, seeds map[uint64]bool) {
	ids, seeds = map[string]bool{}, map[uint64]bool{}
	all := append(Pilots(), HeldOut(nil, nil)...)
	for r := 1; r <= 10; r++ {
		all = append(all, Replicate(r, nil, nil)...)
	}
	for _, set := range sets {
		all = append(all, set...)
	}
	for _, p := range all {
		ids[p.ID], seeds[p.Seed] = true, true
	}
	return ids, seeds
}

// Large has 96 pilots: per simulated family 8 worlds of 40 k1 classes for
// each k1 of LargeK1s, per real family with a large pool 8 worlds of its
// largeRealK classes; LargeFresh has one of the same kind for each; their
// IDs and seeds are used by no other set, and BankFamily names a bank
// family for each.
func TestLargeIsApart(t *testing.T) {
	ids, seeds := used()
	large := Large(nil, nil)
	if len(large) != 96 {
		t.Fatalf("Large has %d pilots, want 96", len(large))
	}
	fresh := LargeFresh(nil, nil)
	for i, p := range fresh {
		if b := large[i]; BankFamily(p.Family) != BankFamily(b.Family) || p.K1 != b.K1 || p.K != b.K || p.Setting != b.Setting || !strings.HasPrefix(p.Family, "large2-") {
			t.Errorf("fresh large pilot %d is %s %s k1 %d K %d, Large's %s %s k1 %d K %d", i, p.Family, p.Setting, p.K1, p.K, b.Family, b.Setting, b.K1, b.K)
		}
	}
	large = append(large, fresh...)
	families := Families()
	for _, p := range large {
		if ids[p.ID] || seeds[p.Seed] {
			t.Errorf("large pilot %s (seed %d) reuses an ID or seed", p.ID, p.Seed)
		}
		ids[p.ID], seeds[p.Seed] = true, true
		if !slices.Contains(families, BankFamily(p.Family)) {
			t.Errorf("large pilot %s: family %q has no bank family (%q)", p.ID, p.Family, BankFamily(p.Family))
		}
		if !slices.Contains(LargeK1s, p.K1) || p.K < 11*p.K1 {
			t.Errorf("large pilot %s: k1 %d of K %d", p.ID, p.K1, p.K)
		}
		if p.sim != nil && p.K != 40*p.K1 {
			t.Errorf("large simulated pilot %s: K %d, want 40 k1", p.ID, p.K)
		}
	}
	if got := BankFamily("rep2-real-senses"); got != "real-senses" {
		t.Errorf("BankFamily(rep2-real-senses) = %q", got)
	}
}

// The recommendation's warning about large pilots starts at the smallest
// pilot of the bank's larger worlds.
func TestLargeWorldsK1(t *testing.T) {
	if slices.Min(LargeK1s) != recommend.LargeWorldsK1 {
		t.Errorf("larger worlds' pilots of %v classes; recommend says from %d", LargeK1s, recommend.LargeWorldsK1)
	}
}

// Long has 144 pilots, 8 worlds for each of its 9 families (3 simulated, 6
// real) and each k1 of LongK1s, all of LongK classes; its IDs and seeds are
// used by no other set, its real families' pools hold LongK classes, and
// the warning that quotes its test names its sizes.
func TestLongIsApart(t *testing.T) {
	ids, seeds := used(Large(nil, nil), LargeFresh(nil, nil))
	long := Long(nil, nil)
	if len(long) != 144 {
		t.Fatalf("Long has %d pilots, want 144", len(long))
	}
	perFamily := map[string]int{}
	for _, p := range long {
		if ids[p.ID] || seeds[p.Seed] {
			t.Errorf("long pilot %s (seed %d) reuses an ID or seed", p.ID, p.Seed)
		}
		ids[p.ID], seeds[p.Seed] = true, true
		if !slices.Contains(LongK1s, p.K1) || p.K != LongK {
			t.Errorf("long pilot %s: k1 %d of K %d", p.ID, p.K1, p.K)
		}
		if !strings.HasPrefix(p.Family, "long-") {
			t.Errorf("long pilot %s: family %q", p.ID, p.Family)
		}
		perFamily[p.Family]++
	}
	if len(perFamily) != 9 {
		t.Errorf("Long has %d families, want 9: %v", len(perFamily), perFamily)
	}
	for _, f := range longRealFamilies() {
		n, err := realdata.PoolSize(f)
		if err != nil || n < LongK {
			t.Errorf("family %s: pool of %d classes (%v), want at least %d", f, n, err, LongK)
		}
	}
	if LongK1s[0] != recommend.SmallestCalibratedK1 || LongK1s[len(LongK1s)-1] >= recommend.LargeWorldsK1 || LongK/LongK1s[0] != recommend.LongestTestedRatio {
		t.Errorf("Long carries pilots of %v classes to %d; recommend's warning quotes pilots of %d to %d classes carried at most %d×",
			LongK1s, LongK, recommend.SmallestCalibratedK1, recommend.LargeWorldsK1-1, recommend.LongestTestedRatio)
	}
	if got := Long([]string{"long-out-translations"}, []int{50}); len(got) != 8 {
		t.Errorf("Long(long-out-translations, 50) has %d pilots, want 8", len(got))
	}
}
