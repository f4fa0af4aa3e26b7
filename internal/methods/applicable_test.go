package methods

import (
	"strings"
	"testing"
)

// TestApplicable: every method runs on 3 classes; on 2 only regression is
// refused, with a reason naming the method and the counts.
func TestApplicable(t *testing.T) {
	for _, tc := range []struct {
		name string
		k1   int
		want string // "" when the method can run
	}{
		{"plugin", 2, ""}, {"kde", 2, ""}, {"cleanex", 2, ""},
		{"regression", 2, "regression needs a pilot of at least 3 classes, this one has 2"},
		{"regression", 3, ""}, {"plugin", 3, ""},
	} {
		err := Applicable(tc.name, tc.k1)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s k1=%d: %v, want nil", tc.name, tc.k1, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s k1=%d: %v, want %q", tc.name, tc.k1, err, tc.want)
		}
	}
}
