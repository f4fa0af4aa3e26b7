package methods

import "fmt"

// MinClasses returns the fewest pilot classes the method called name can fit
// (its registry entry's MinClasses: 3 for regression, 2 for the others), and
// 2 for a name that is not registered.
func MinClasses(name string) int {
	if m, ok := Get(name); ok {
		return m.MinClasses
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
