package web

import (
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/report"
)

// TestSkipFor: on a two-class pilot the regression, the pooled and the
// tail method are skipped with their reason (their bars, their table rows, not
// failures) and every other task is left to run; on three classes nothing
// is skipped.
func TestSkipFor(t *testing.T) {
	why := func(m string) string { return m + " needs a pilot of at least 3 classes, this one has 2" }
	for _, tc := range []struct {
		k1      int
		skipped []string
	}{
		{2, []string{"regression", "pooled", "tail"}},
		{3, nil},
	} {
		p := NewPlan(methods.Names, "fast", 1)
		run := p.SkipFor(tc.k1)
		var skipped []string
		for i, task := range p.Tasks {
			if slices.Contains(run, i) {
				continue
			}
			skipped = append(skipped, task.Method)
			if _, err := p.Result(i); err == nil || err.Error() != why(task.Method) {
				t.Errorf("k1 = %d: skipped task %s has error %v", tc.k1, task.Label(), err)
			}
		}
		if !slices.Equal(skipped, tc.skipped) {
			t.Errorf("k1 = %d: skipped %v, want %v", tc.k1, skipped, tc.skipped)
		}
		for _, b := range p.Bars() {
			wantSkip := slices.Contains(tc.skipped, b.Name)
			if b.Skipped != wantSkip || b.Failed || (wantSkip && b.Text != "skipped: "+why(b.Name)) {
				t.Errorf("k1 = %d: bar %+v", tc.k1, b)
			}
		}
		// Every task left ends with a fit: the skipped method is listed as
		// skipped, never as failed.
		for _, i := range run {
			p.Finish(i, Fit{Curve: smooth(20, 0.9, 0.1)})
		}
		table, err := recommend.DefaultTable()
		if err != nil {
			t.Fatal(err)
		}
		out := p.Outcome(Pilot{K1: tc.k1, Observed: smooth(tc.k1, 0.9, 0.1), ClassSE: smooth(tc.k1, 0, 0), N: 10 * tc.k1}, 20, table, nil)
		skips := p.Skipped()
		if fails := p.Failures(out); fails["regression"] != "" {
			t.Errorf("k1 = %d: regression listed as failed: %q", tc.k1, fails["regression"])
		}
		if (skips["regression"] == why("regression")) != (tc.k1 == 2) || len(skips) != len(tc.skipped) {
			t.Errorf("k1 = %d: skipped %v", tc.k1, skips)
		}
		s := &State{Methods: NewState().Methods, Results: report.Curves{K1: tc.k1, K2: 20}, Skipped: skips, Failed: map[string]string{}}
		for _, r := range s.Rows() {
			if slices.Contains(tc.skipped, r.Name) && (!r.Skipped || r.Failed != "skipped: "+why(r.Name) || r.FailClass() != "skipped") {
				t.Errorf("k1 = %d: %s's row %+v", tc.k1, r.Name, r)
			}
		}
		if tc.k1 == 2 && !strings.Contains(p.Bars()[0].Text+p.Bars()[1].Text+p.Bars()[2].Text+p.Bars()[3].Text, "skipped: ") {
			t.Errorf("no skipped bar among %+v", p.Bars())
		}
	}
}
