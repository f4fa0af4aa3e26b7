package benchcases

import "testing"

// TestShippedCases checks that the 16 cases kept in the repository load from
// their gzip files: every pilot has 100 classes, every truth runs to k2 = 2000,
// and every case has the plug-in reference.
func TestShippedCases(t *testing.T) {
	t.Setenv("BENCH_CASES", "")
	cases, err := Load(Dir())
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 16 {
		t.Fatalf("%d cases, want 16", len(cases))
	}
	for _, c := range cases {
		if c.Sample.K != 100 || c.Truth.Max() != 2000 {
			t.Errorf("%s: K = %d, truth to k = %d; want 100 and 2000", c.Name, c.Sample.K, c.Truth.Max())
		}
		if _, ok := c.Reference["plugin:R_over_k1m1"]; !ok {
			t.Errorf("%s: no plugin:R_over_k1m1 reference", c.Name)
		}
	}
}
