package web

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/halfsample"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/report"
)

// smooth returns a - b log k for k = 0..kmax (1 below k = 2).
func smooth(kmax int, a, b float64) accuracy.Curve {
	c := make(accuracy.Curve, kmax+1)
	for k := range c {
		c[k] = 1
		if k >= 2 {
			c[k] = a - b*math.Log(float64(k))
		}
	}
	return c
}

// testPilot is a 10-class pilot whose observed curve is smooth(10, 1, 0.1).
func testPilot() Pilot {
	se := make(accuracy.Curve, 11)
	for k := 2; k <= 10; k++ {
		se[k] = 0.002
	}
	return Pilot{K1: 10, Observed: smooth(10, 1, 0.1), ClassSE: se}
}

func TestNewPlanRunsTheJobsAndTheDisplayMethods(t *testing.T) {
	p := NewPlan([]string{"plugin", "kde", "regression", "cleanex"}, "fast", 7)
	var got []string
	for _, tk := range p.Tasks {
		got = append(got, tk.Label())
	}
	// The method only shown (plug-in), the recommendation's quick fits
	// (KDE among them), then the CleaneX fits.
	want := []string{"plugin"}
	var cleanex []string
	for _, j := range recommend.Jobs(7) {
		if j.Method == "cleanex" {
			cleanex = append(cleanex, j.Label())
		} else {
			want = append(want, j.Label())
		}
	}
	want = append(want, cleanex...)
	if !slices.Equal(got, want) {
		t.Fatalf("tasks %v, want %v (quick fits first)", got, want)
	}
	for _, tk := range p.Tasks {
		if (tk.Job >= 0) != p.isJob(tk.Method) || tk.Preset != "fast" {
			t.Errorf("task %+v", tk)
		}
	}
	// Only plug-in shown: the recommendation's fits still run.
	if p := NewPlan([]string{"plugin"}, "fast", 1); len(p.Tasks) != 1+len(recommend.Jobs(1)) {
		t.Errorf("plug-in only: %d tasks", len(p.Tasks))
	}
	// The paper preset adds a CleaneX fit to show, started first.
	pp := NewPlan([]string{"cleanex"}, "paper", 1)
	if first := pp.Tasks[0]; first.Bar != PaperBar || first.Preset != "paper" || first.Job != -1 {
		t.Errorf("paper preset: first task %+v", first)
	}
	for _, tk := range pp.Tasks[1:] {
		if tk.Preset != "fast" {
			t.Errorf("the recommendation's fit %s runs with preset %q, want fast", tk.Label(), tk.Preset)
		}
	}
}

// The CleaneX bar counts the steps of all its fits.
func TestBarsAggregateTheSeeds(t *testing.T) {
	p := NewPlan([]string{"plugin", "cleanex"}, "fast", 1)
	bars := p.Bars()
	var names []string
	for _, b := range bars {
		names = append(names, b.Name)
	}
	var want []string
	for _, m := range methods.Names {
		if m == "plugin" || p.isJob(m) {
			want = append(want, m)
		}
	}
	if !slices.Equal(names, want) {
		t.Fatalf("bars %v, want %v", names, want)
	}
	var cxt []int // the CleaneX fits' tasks
	for i, tk := range p.Tasks {
		if tk.Method == "cleanex" {
			cxt = append(cxt, i)
		}
	}
	if len(cxt) != 4 {
		t.Fatalf("%d CleaneX tasks, want 4", len(cxt))
	}
	p.Start(cxt[0])
	p.Progress(cxt[0], 300, 300, 0.1, 0)
	p.Finish(cxt[0], Fit{Curve: smooth(100, 1, 0.1), Seconds: 1.5})
	p.Start(cxt[1])
	p.Progress(cxt[1], 60, 300, 0.25, 4)
	cx := p.bar("cleanex")
	if cx.Step != 360 || cx.Total != 1200 || cx.Done || cx.Percent() != 30 {
		t.Errorf("cleanex bar %+v, want 360 of 1200 steps (30%%)", cx)
	}
	if !strings.Contains(cx.Text, "1 of 4 fits done, 1 running") || !strings.Contains(cx.Text, "60 / 300") {
		t.Errorf("cleanex bar text %q", cx.Text)
	}
	for _, i := range cxt[1:] {
		p.Fail(i, errors.New("cleanex: boom"))
	}
	if cx := p.bar("cleanex"); !cx.Done || cx.Failed || !strings.Contains(cx.Text, "1 of 4 fits done, 3 failed") {
		t.Errorf("cleanex bar after the end %+v", cx)
	}
	if pl := p.bar("plugin"); pl.Text != "waiting" || pl.Done {
		t.Errorf("plug-in bar %+v", pl)
	}
	if got := ProgressText(10, 100, math.NaN(), 2.2); got != "10 / 100 · about 3 s left" {
		t.Errorf("ProgressText: %q", got)
	}
}

// A broken regression and a broken CleaneX seed are checked out: neither is
// drawn nor tabulated with a number, the reason is kept, the CleaneX curve
// is the mean of the seeds that passed, and the estimate lies in its band.
func TestOutcomeChecksTheFits(t *testing.T) {
	table, err := recommend.DefaultTable()
	if err != nil {
		t.Fatalf("the embedded calibration table: %v", err)
	}
	const k2 = 100
	pilot := testPilot()
	p := NewPlan([]string{"plugin", "kde", "regression", "cleanex"}, "fast", 1)
	good := []accuracy.Curve{smooth(k2, 1.004, 0.1), smooth(k2, 0.998, 0.1), nil, smooth(k2, 1.001, 0.1)}
	broken := make(accuracy.Curve, k2+1)
	for k := range broken {
		broken[k] = 1
	}
	for i, tk := range p.Tasks {
		p.Start(i)
		switch {
		case tk.Method == "regression":
			p.Finish(i, Fit{Curve: broken, Seconds: 1})
		case tk.Method == "cleanex" && tk.Seed == 3:
			p.Finish(i, Fit{Curve: broken, Seconds: 1})
		case tk.Method == "cleanex":
			p.Finish(i, Fit{Curve: good[tk.Seed-1], C: []float64{float64(tk.Seed)}, Seconds: 2})
		default:
			p.Finish(i, Fit{Curve: smooth(k2, 0.9, 0.05), Seconds: 0.1})
		}
	}
	if !p.Done() {
		t.Fatal("plan not done")
	}
	// While running, the broken regression is never drawn.
	base := report.Curves{K1: 10, K2: k2, Observed: pilot.Observed}
	for _, m := range p.Partial(base, pilot, k2).Methods {
		if m.Name == "regression" || m.Name == "cleanex" {
			t.Errorf("partial curves show %s", m.Name)
		}
	}
	out := p.Outcome(pilot, k2, table, nil)
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	if why := out.Failed["regression"]; !strings.Contains(why, "at k = 2 it gives 1.000") {
		t.Errorf("regression's failure: %q", why)
	}
	if _, ok := out.Failed["cleanex seed 3"]; !ok || len(out.Failed) != 2 {
		t.Errorf("failed: %v", out.Failed)
	}
	c := p.Curves(base, out)
	var names []string
	for _, m := range c.Methods {
		names = append(names, m.Name)
	}
	if !slices.Equal(names, []string{"plugin", "kde", "cleanex"}) {
		t.Fatalf("shown methods %v, want plugin, kde and cleanex", names)
	}
	cx := c.Methods[2]
	for _, k := range []int{2, 10, 50, k2} {
		want := (good[0][k] + good[1][k] + good[3][k]) / 3
		if math.Abs(cx.Curve[k]-want) > 1e-12 {
			t.Errorf("cleanex at k = %d: %v, want the mean of the 3 good seeds %v", k, cx.Curve[k], want)
		}
	}
	if cx.Seconds != 7 || len(cx.C) != 1 || cx.C[0] != 1 {
		t.Errorf("cleanex shown with %v s and C %v; want the 4 fits' 7 s and seed 1's C", cx.Seconds, cx.C)
	}
	if c.Estimate == nil || !(c.EstimateLo[k2] <= c.Estimate[k2] && c.Estimate[k2] <= c.EstimateHi[k2]) {
		t.Fatalf("estimate %v not within [%v, %v]", c.Estimate[k2], c.EstimateLo[k2], c.EstimateHi[k2])
	}
	fails := p.Failures(out)
	if len(fails) != 1 || !strings.Contains(fails["regression"], "at k = 2") {
		t.Errorf("failures %v, want only regression's", fails)
	}
	if used, fits := p.CleaneXUsed(out); used != 3 || fits != 4 {
		t.Errorf("%d of %d CleaneX fits used, want 3 of 4", used, fits)
	}

	// Without a calibration table there is no estimate, and the reason says so.
	out2 := p.Outcome(pilot, k2, recommend.Table{}, errors.New("no pilots"))
	if out2.Err == nil || !strings.Contains(out2.Err.Error(), "calibration table") || out2.CleaneX == nil {
		t.Errorf("without a table: err %v, cleanex %v", out2.Err, out2.CleaneX != nil)
	}
	if c2 := p.Curves(base, out2); c2.Estimate != nil {
		t.Error("an estimate is shown without a calibration table")
	}
}

// With two CleaneX fits training, the bar's step and loss are those of the
// fit whose loss the page charts (LiveTask): the first running one.
func TestBarShowsTheChartedFit(t *testing.T) {
	p := NewPlan([]string{"cleanex"}, "fast", 1)
	var cxt []int
	for i, tk := range p.Tasks {
		if tk.Method == "cleanex" {
			cxt = append(cxt, i)
		}
	}
	p.Start(cxt[0])
	p.Start(cxt[1])
	p.Progress(cxt[1], 150, 300, 0.5, 2)
	p.Progress(cxt[0], 60, 300, 0.25, 4)
	if live := p.LiveTask(); live != cxt[0] {
		t.Fatalf("charted fit %d, want %d", live, cxt[0])
	}
	if b := p.bar("cleanex"); !strings.Contains(b.Text, "2 running") || !strings.Contains(b.Text, "60 / 300") {
		t.Errorf("bar text %q, want the charted fit's 60 / 300", b.Text)
	}
}

// Only the recommendation's tail fit asks its worker for the half-sampling
// spread, and the recommendation takes the spread that fit returns: with it
// the interval comes from the embedded calibration itself, without it from
// the calibration's WithoutB (the features say which). It takes the tail
// spread that fit returns as well (Result.TailSpread).
func TestOutcomeTakesTheSpreadOfTheTailFit(t *testing.T) {
	table, err := recommend.DefaultTable()
	if err != nil {
		t.Fatal(err)
	}
	const k2 = 100
	pilot := testPilot()
	for _, withSpread := range []bool{true, false} {
		p := NewPlan([]string{"plugin"}, "fast", 1)
		asked := 0
		for i, tk := range p.Tasks {
			if tk.Spread {
				asked++
				if tk.Method != "tail" || tk.Job < 0 {
					t.Errorf("task %+v asks for the spread", tk)
				}
			}
			f := Fit{Curve: smooth(k2, 0.9, 0.05)}
			if tk.Spread && withSpread {
				f.Spread = halfsample.Spread{K: []int{2, k2}, B: []float64{0.2, 0.4}}
				f.TailSpread = 1.75
			}
			p.Start(i)
			p.Finish(i, f)
		}
		if asked != 1 {
			t.Fatalf("%d tasks ask for the spread, want the tail fit only", asked)
		}
		out := p.Outcome(pilot, k2, table, nil)
		if out.Err != nil {
			t.Fatal(out.Err)
		}
		if ft := out.Features[k2]; ft.BKnown != withSpread || withSpread && ft.B != 0.4 {
			t.Errorf("with the spread %v: features at k2 %+v", withSpread, ft)
		}
		if want := map[bool]float64{true: 1.75}[withSpread]; out.Result.TailSpread != want {
			t.Errorf("with the spread %v: tail spread %v, want %v", withSpread, out.Result.TailSpread, want)
		}
	}
}
