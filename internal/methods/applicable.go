package methods

import "fmt"

// MinClasses returns the fewest pilot classes the method called name can fit:
// 3 for regression (its bootstrap choice of bandwidth fits subsamples of about
// half the classes, which need 2 each), 2 for every other method.
func MinClasses(name string) int {
	if name == "regression" {
		return 3
	}
	return 2
}

// Applicable returns nil when the method called name can run on a pilot of k1
// classes, else a one-line reason that says what it needs.
func Applicable(name string, k1 int) error {
	if need := MinClasses(name); k1 < need {
		return fmt.Errorf("%s needs a pilot of at least %d classes, this one has %d", name, need, k1)
	}
	return nil
}
