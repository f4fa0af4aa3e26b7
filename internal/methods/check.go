package methods

import (
	"fmt"

	"github.com/cleanex/cleanex/internal/accuracy"
)

// CheckCurve refuses a predicted curve that does not cover k = 2..k2 or holds
// a value that is not a finite accuracy in [0, 1], naming the first such k.
// The command line and the page's workers check every method's curve with it,
// so a method that cannot fit is reported as failed and the others stand.
func CheckCurve(c accuracy.Curve, k2 int) error {
	if c.Max() < k2 {
		return fmt.Errorf("its curve stops at k = %d, want %d", c.Max(), k2)
	}
	for k := 2; k <= k2; k++ {
		if v := c[k]; !(v >= 0 && v <= 1) {
			return fmt.Errorf("it produced %v at k = %d, which is not an accuracy between 0 and 1; its column is left out", v, k)
		}
	}
	return nil
}
