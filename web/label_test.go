package web

import (
	"strings"
	"testing"
)

// Each curve's name in the results table is its short name followed by its
// detail in brackets: together the full label, so a wide screen reads as
// before, while a narrow one (which hides the detail) shows one short word
// or two per row.
func TestTableRowLabels(t *testing.T) {
	st := NewState()
	names := []string{"estimate", "observed", "truth"}
	for _, m := range st.Methods {
		names = append(names, m.Name)
	}
	for _, name := range names {
		short, detail := st.ShortLabel(name), st.LabelDetail(name)
		if short+detail != st.Label(name) {
			t.Errorf("%s: %q + %q is not its label %q", name, short, detail, st.Label(name))
		}
		if short == "" || strings.Contains(short, "(") || len(short) > len("recommended") {
			t.Errorf("%s: short name %q", name, short)
		}
		if detail != "" && !strings.HasPrefix(detail, " (") {
			t.Errorf("%s: detail %q does not start with its bracket", name, detail)
		}
	}
	for name, want := range map[string]string{"tail": "tail", "kde": "KDE", "pooled": "pooled", "regression": "regression", "estimate": "recommended"} {
		if got := st.ShortLabel(name); got != want {
			t.Errorf("ShortLabel(%q) = %q, want %q", name, got, want)
		}
	}
}
