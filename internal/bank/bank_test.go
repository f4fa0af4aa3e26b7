package bank

import (
	"slices"
	"testing"

	"github.com/cleanex/cleanex/internal/recommend"
)

// The recommendation's warning about small pilots names the bank's range of
// pilot sizes, on which its interval was calibrated.
func TestCalibratedK1s(t *testing.T) {
	if slices.Min(K1s) != recommend.SmallestCalibratedK1 || slices.Max(K1s) != recommend.LargestCalibratedK1 {
		t.Errorf("bank pilots of %v classes; recommend says %d to %d", K1s, recommend.SmallestCalibratedK1, recommend.LargestCalibratedK1)
	}
}

// The replicate has the bank's families and sizes, one pilot for each of
// the bank's, with IDs and world seeds that no bank or held-out pilot uses.
func TestReplicateIsFresh(t *testing.T) {
	bank, rep := Pilots(), Replicate(nil, nil)
	if len(rep) != len(bank) {
		t.Fatalf("%d replicate pilots, %d bank pilots", len(rep), len(bank))
	}
	ids, seeds := map[string]bool{}, map[uint64]bool{}
	for _, p := range append(bank, HeldOut(nil, nil)...) {
		ids[p.ID], seeds[p.Seed] = true, true
	}
	for i, p := range rep {
		b := bank[i]
		if p.Family != "rep-"+b.Family || p.K1 != b.K1 || p.K != b.K || p.Setting != b.Setting {
			t.Errorf("replicate pilot %d is %s %s k1 %d, bank's %s %s k1 %d", i, p.Family, p.Setting, p.K1, b.Family, b.Setting, b.K1)
		}
		if ids[p.ID] || seeds[p.Seed] {
			t.Errorf("replicate pilot %s (seed %d) reuses a bank or held-out ID or seed", p.ID, p.Seed)
		}
		ids[p.ID], seeds[p.Seed] = true, true
	}
}
