package web

import "testing"

// The charts are dark only on screen in the dark scheme; printed and
// exported charts are light.
func TestChartTheme(t *testing.T) {
	for _, c := range []struct {
		dark, print bool
		want        string
	}{{false, false, "light"}, {true, false, "dark"}, {true, true, "light"}, {false, true, "light"}} {
		if got := ChartTheme(c.dark, c.print).Name; got != c.want {
			t.Errorf("ChartTheme(dark %v, print %v) = %s, want %s", c.dark, c.print, got, c.want)
		}
	}
	if ExportTheme().Name != "light" {
		t.Error("exports are not light")
	}
}
