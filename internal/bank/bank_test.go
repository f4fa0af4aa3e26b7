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
