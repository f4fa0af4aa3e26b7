package web

import (
	"context"
	"math"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate/plugin"
	"github.com/cleanex/cleanex/internal/report"
	"github.com/cleanex/cleanex/internal/scores"
)

// The preview's plug-in curve is the plug-in method's own fit.
func TestWithPluginIsThePlugin(t *testing.T) {
	m := &scores.Matrix{
		Classes: []string{"a", "b", "c"},
		Labels:  []int{0, 0, 1, 2},
		Scores:  []float64{0.9, 0.1, 0.2, 0.5, 0.5, 0.1, 0.3, 0.35, 0.4, 0.9, 0.8, 0.1},
	}
	s, _, err := accuracy.NewSample(m, scores.Higher)
	if err != nil {
		t.Fatal(err)
	}
	fit, err := plugin.Estimator{}.Fit(context.Background(), s, 30, nil)
	if err != nil {
		t.Fatal(err)
	}
	base := report.Curves{K1: 3, K2: 30}
	got := WithPlugin(base, s.PluginC(), s.Weight)
	if len(got.Methods) != 1 || got.Methods[0].Name != "plugin" || len(base.Methods) != 0 {
		t.Fatalf("methods %v (base %v)", got.Methods, base.Methods)
	}
	for k := 2; k <= 30; k++ {
		if a, b := got.Methods[0].Curve[k], fit.Curve[k]; math.Abs(a-b) > 1e-15 {
			t.Errorf("k = %d: preview %v, plug-in %v", k, a, b)
		}
	}
	if len(WithPlugin(base, nil, nil).Methods) != 0 || len(WithPlugin(report.Curves{K2: 1}, s.PluginC(), s.Weight).Methods) != 0 {
		t.Error("a preview without C_x or with k2 < 2 has a curve")
	}
}

// A preview's curve stays until the run has its own, and only when it
// reaches the run's k2.
func TestKeepPreview(t *testing.T) {
	pre := WithPlugin(report.Curves{K2: 20}, []float64{1, 0.5}, []float64{0.5, 0.5}).Methods
	run := report.Curves{K2: 20}
	if got := KeepPreview(run, pre); len(got.Methods) != 1 || got.Methods[0].Name != "plugin" || len(run.Methods) != 0 {
		t.Errorf("kept %v", got.Methods)
	}
	own := report.Curves{K2: 20, Methods: []report.Method{{Name: "plugin", Curve: make(accuracy.Curve, 21)}}}
	if got := KeepPreview(own, pre); len(got.Methods) != 1 || got.Methods[0].Curve[5] != 0 {
		t.Errorf("the run's own plug-in was replaced: %v", got.Methods)
	}
	if got := KeepPreview(report.Curves{K2: 50}, pre); len(got.Methods) != 0 {
		t.Error("a preview shorter than the run's k2 was kept")
	}
}
