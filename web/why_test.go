package web

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/report"
	"github.com/cleanex/cleanex/internal/scores"
)

func TestHeadlineText(t *testing.T) {
	for _, tc := range []struct {
		est, lo, hi float64
		want        string
	}{
		{0.4712, 0.4049, 0.5534, "At 2,000 classes: 0.47 (80% interval 0.40–0.55)"},
		// near 0 and near 1 the answer keeps the decimals its interval needs
		{0.0034, 0, 0.0076, "At 2,000 classes: 0.003 (80% interval 0.000–0.008)"},
		{0.99952, 0.9991, 0.99987, "At 2,000 classes: 0.9995 (80% interval 0.9991–0.9999)"},
		// an answer that is not 0 or 1 is never written as one, even beside a
		// wide interval (the table's 0.9968 is not "1.00")
		{0.9968, 0.3814, 1, "At 2,000 classes: 0.997 (80% interval 0.38–1.00)"},
		{0.0034, 0, 0.4, "At 2,000 classes: 0.003 (80% interval 0.00–0.40)"},
		{1, 0.85, 1, "At 2,000 classes: 1.00 (80% interval 0.85–1.00)"},
		// one that stays 0 at 4 decimals keeps the interval's decimals
		{0.00001, 0, 0.0368, "At 2,000 classes: 0.00 (80% interval 0.00–0.04)"},
	} {
		if got := HeadlineText(2000, tc.est, tc.lo, tc.hi); got != tc.want {
			t.Errorf("HeadlineText(%v, %v, %v) = %q, want %q", tc.est, tc.lo, tc.hi, got, tc.want)
		}
	}
	if got := NoRecommendation(500, recommend.ErrNoFits); !strings.HasPrefix(got, "No recommendation for 500 classes: none of the regression, pooled, tail and CleaneX fits") || !strings.Contains(got, "smaller k2") {
		t.Errorf("NoRecommendation(ErrNoFits): %q", got)
	}
	if got := NoRecommendation(50, errors.New("recommend: k2 = 1: it must be at least 2")); got != "No recommendation for 50 classes: k2 = 1: it must be at least 2; the individual methods are shown below." {
		t.Errorf("NoRecommendation: %q", got)
	}
	for x, want := range map[float64]string{20: "20×", 2.5: "2.5×", 4: "4×", 1234.4: "1,234×"} {
		if got := Ratio(x); got != want {
			t.Errorf("Ratio(%v) = %q, want %q", x, got, want)
		}
	}
}

// finishedState is the page after a run on testPilot whose regression
// broke: the estimate from 3 of 4 CleaneX fits, plug-in shown, the truth known.
func finishedState(t *testing.T) *State { return finishedStateAt(t, 100) }

// finishedStateAt is finishedState with the run's k2.
func finishedStateAt(t *testing.T, k2 int) *State {
	t.Helper()
	table, err := recommend.DefaultTable()
	if err != nil {
		t.Fatal(err)
	}
	pilot := testPilot()
	p := NewPlan([]string{"plugin", "regression", "cleanex"}, "fast", 1)
	broken := make(accuracy.Curve, k2+1)
	for k := range broken {
		broken[k] = 1
	}
	for i, tk := range p.Tasks {
		switch {
		case tk.Method == "regression" || tk.Seed == 3:
			p.Finish(i, Fit{Curve: broken})
		case tk.Method == "cleanex":
			p.Finish(i, Fit{Curve: smooth(k2, 1+0.002*float64(tk.Seed), 0.1)})
		default:
			p.Finish(i, Fit{Curve: smooth(k2, 0.9, 0.05), Seconds: 0.1})
		}
	}
	out := p.Outcome(pilot, k2, table, nil)
	st := NewState()
	st.K2 = k2
	base := report.Curves{K1: 10, K2: k2, Observed: pilot.Observed, Truth: smooth(k2, 1, 0.1)}
	st.Results = p.Curves(base, out)
	st.Failed = p.Failures(out)
	st.Rec = NewRecommendation(p, pilot, k2, out, table, nil)
	return st
}

// A k2 within the pilot is said to be measured there, and the class-sample
// part of the "why" names that k.
func TestHeadlineWithinPilot(t *testing.T) {
	st := finishedStateAt(t, 6)
	o := st.Rec.Outcome
	want := HeadlineText(6, o.Estimate[6], o.Lo[6], o.Hi[6]) + ". 6 classes is within your pilot's 10, where its accuracy is measured: the estimate is that measured accuracy"
	if got := st.Headline(); !strings.HasPrefix(got, want) {
		t.Errorf("headline %q\nwant %q…", got, want)
	}
	if o.Estimate[6] != st.Results.Observed[6] {
		t.Errorf("estimate at 6 classes %v, want the pilot's measured accuracy %v", o.Estimate[6], st.Results.Observed[6])
	}
	if parts := strings.Join(st.WhyParts(), "\n"); !strings.Contains(parts, "its accuracy at k = 6 would differ") || strings.Contains(parts, "carried out to") {
		t.Errorf("why parts:\n%s", parts)
	}
}

// The truth beside an estimate written with more decimals than its
// interval's takes the estimate's decimals: 0.9943, not 0.99, beside 0.9999.
func TestHeadlineTruthDecimals(t *testing.T) {
	st := finishedState(t)
	o := st.Rec.Outcome
	o.Estimate[100], o.Lo[100], o.Hi[100] = 0.99992, 0.96, 0.99999
	st.Results.Truth[100] = 0.99431
	want := "At 100 classes: 0.9999 (80% interval 0.96–1.00). The true accuracy of this simulation is 0.9943."
	if got := st.Headline(); got != want {
		t.Errorf("headline %q, want %q", got, want)
	}
}

func TestHeadlineAndWhy(t *testing.T) {
	st := finishedState(t)
	o := st.Rec.Outcome
	want := HeadlineText(100, o.Estimate[100], o.Lo[100], o.Hi[100]) + fmt.Sprintf(". The true accuracy of this simulation is %.*f.", Decimals(o.Lo[100], o.Hi[100]), 1-0.1*4.605170185988092)
	if got := st.Headline(); got != want {
		t.Errorf("headline %q, want %q", got, want)
	}
	// The interval's range is one piece that does not wrap.
	hp := st.HeadlineParts()
	d := Decimals(o.Lo[100], o.Hi[100])
	if len(hp) != 3 || !hp[1].NoWrap || hp[0].NoWrap || hp[2].NoWrap ||
		hp[0].Text+hp[1].Text+hp[2].Text != want || hp[1].Text != fmt.Sprintf("%.*f–%.*f", d, o.Lo[100], d, o.Hi[100]) {
		t.Errorf("headline parts %+v", hp)
	}
	// A k2 beyond the simulated world: the truth is named up to its K.
	truth := st.Results.Truth
	st.Results.Truth = truth[:51]
	if got := st.Headline(); !strings.Contains(got, "known only up to its world's 50 classes") {
		t.Errorf("headline with the truth known up to 50 classes: %q", got)
	}
	// A simulation whose truth is still being computed says so.
	st.Results.Truth, st.TruthPending = nil, true
	if got := st.Headline(); !strings.Contains(got, "still being computed;") {
		t.Errorf("headline while the truth is computed: %q", got)
	}
	if ap := st.AnswerParts(); !slices.Equal(ap, st.HeadlineParts()) {
		t.Errorf("answer bar %+v, want the headline's parts %+v", ap, st.HeadlineParts())
	}
	if hp := NewState().HeadlineParts(); len(hp) != 3 || hp[0].Text+hp[1].Text+hp[2].Text != "" {
		t.Errorf("no headline: parts %+v, want three empty parts", hp)
	}
	st.TruthDone = 0.374
	if got := st.Headline(); !strings.Contains(got, "still being computed (37% done); it is added when ready.") {
		t.Errorf("headline with the truth 37.4%% done: %q", got)
	}
	st.Results.Truth, st.TruthPending, st.TruthDone = truth, false, 0
	if got := st.WhySources(); !strings.Contains(got, "the mean of 3 CleaneX fits") || !strings.Contains(got, "3 of 4 CleaneX fits used.") {
		t.Errorf("sources: %q", got)
	}
	failed := strings.Join(st.WhyFailed(), "\n")
	if !strings.Contains(failed, "CleaneX with seed 3 was not used: at k = 2 it gives 1.000") || !strings.Contains(failed, "regression (Zheng et al.) was not used") {
		t.Errorf("failed fits: %q", failed)
	}
	parts := strings.Join(st.WhyParts(), "\n")
	for _, w := range []string{"80% interval at 100 classes", "classes are a sample", "±0.002", "CleaneX's 3 fits give", "extrapolate 10× beyond your pilot"} {
		if !strings.Contains(parts, w) {
			t.Errorf("why parts lack %q:\n%s", w, parts)
		}
	}
	if v := st.Rec.CleaneXAtK2; len(v) != 3 || !strings.Contains(parts, fmt.Sprintf("give %.3f to %.3f at 100 classes", slices.Min(v), slices.Max(v))) {
		t.Errorf("CleaneX's fits at k2 %v; why parts:\n%s", v, parts)
	}
	// Fits that agree to the digits shown are said to agree, not given as
	// a range from a number to itself.
	cxAt := st.Rec.CleaneXAtK2
	st.Rec.CleaneXAtK2 = []float64{0.3611, 0.3611, 0.3611}
	if parts := strings.Join(st.WhyParts(), "\n"); !strings.Contains(parts, "CleaneX's 3 fits all give 0.361") {
		t.Errorf("why parts with equal CleaneX fits:\n%s", parts)
	}
	st.Rec.CleaneXAtK2 = cxAt
	// A pilot right on every point at k1 cannot show its class-sampling
	// error: said so, instead of a tiny ± that still takes a share.
	obs := st.Results.Observed
	st.Results.Observed = slices.Clone(obs)
	st.Results.Observed[10] = 1
	if parts := strings.Join(st.WhyParts(), "\n"); !strings.Contains(parts, "at k = 10 it gets every test point right, so it cannot show how much its accuracy would change") || strings.Contains(parts, "±0.000") {
		t.Errorf("why parts for a pilot right on every point:\n%s", parts)
	}
	st.Results.Observed = obs
	if st.Rec.Table.Families != nil && !strings.Contains(st.WhyCheck(), "80% intervals contained the truth") {
		t.Errorf("check line: %q", st.WhyCheck())
	}
	// While a new run goes on, the headline says what runs.
	st.Running = true
	st.Progress = []MethodProgress{{Name: "plugin", Done: true}, {Name: "regression", Text: "running…"}, {Name: "cleanex", Text: "1 of 4 fits done, 2 running"}}
	if got := st.Headline(); got != "Working out the accuracy at 100 classes: running regression (Zheng et al.) and CleaneX (1 of 4 fits done)…" {
		t.Errorf("running headline %q", got)
	}
	// The answer bar at the top says only which k2 is worked out, a line
	// that stays the same while the fits end one by one.
	if ap := st.AnswerParts(); len(ap) != 3 || ap[0].Text+ap[1].Text+ap[2].Text != "Working out the accuracy at 100 classes…" {
		t.Errorf("running answer bar %+v", ap)
	}
	// A k2 typed during the run does not change what the run works out.
	st.SetK2("250")
	if got := st.Headline(); !strings.HasPrefix(got, "Working out the accuracy at 100 classes") {
		t.Errorf("running headline after typing k2 250: %q", got)
	}
	if ap := st.AnswerParts(); ap[0].Text != "Working out the accuracy at 100 classes…" {
		t.Errorf("running answer bar after typing k2 250: %+v", ap)
	}
	st.ShowK2(100)
	// No recommendation: one sentence why.
	st.Running = false
	st.Rec.Outcome.Err = recommend.ErrNoFits
	if got := st.Headline(); !strings.HasPrefix(got, "No recommendation for 100 classes") {
		t.Errorf("headline without a recommendation: %q", got)
	}
}

// The table: the estimate first with its interval at k2, then observed, the
// methods (a failed one with its reason and no number), then the truth.
func TestRowsWithAFailedMethod(t *testing.T) {
	st := finishedState(t)
	rows := st.Rows()
	var names []string
	for _, r := range rows {
		names = append(names, r.Name)
	}
	if strings.Join(names, ",") != "estimate,observed,plugin,regression,cleanex,truth" {
		t.Fatalf("rows %v", names)
	}
	est := rows[0]
	o := st.Rec.Outcome
	wantK2 := fmt.Sprintf("%s (%s–%s)", Cell(o.Estimate[100]), Cell(o.Lo[100]), Cell(o.Hi[100]))
	if last := est.Cells[len(est.Cells)-1]; last != wantK2 {
		t.Errorf("estimate's k2 cell %q, want %q", last, wantK2)
	} else if v, iv := cellValue(last), cellInterval(last); v+iv != last || v != Cell(o.Estimate[100])+" " || !strings.HasPrefix(iv, "(") {
		t.Errorf("k2 cell %q shown as %q + %q, want the value, a space, then the interval", last, v, iv)
	}
	if v, iv := cellValue(est.Cells[0]), cellInterval(est.Cells[0]); v != est.Cells[0] || iv != "" {
		t.Errorf("cell %q shown as %q + %q, want it whole and no interval", est.Cells[0], v, iv)
	}
	// Only the lowest RMSE against the truth is marked (and bold).
	var marked []string
	lowest := ""
	low := math.Inf(1)
	for _, r := range st.Results.Table() {
		if r.Name != "truth" && r.Name != "observed" && r.RMSE < low {
			lowest, low = r.Name, r.RMSE
		}
	}
	if lowest == "" {
		t.Fatal("the test's table has no RMSE against a truth")
	}
	for _, r := range rows {
		if r.Best {
			marked = append(marked, r.Name)
		}
	}
	if len(marked) != 1 || marked[0] != lowest {
		t.Errorf("rows marked best %v, want only %q (the lowest RMSE)", marked, lowest)
	}
	reg := rows[3]
	if !strings.HasPrefix(reg.Failed, "failed: at k = 2 it gives 1.000 where the pilot's exact accuracy is") || len(reg.Cells) != 0 || reg.RMSE != "" {
		t.Errorf("failed regression row %+v", reg)
	}
	html := render(t, st)
	i := strings.Index(html, `class="row-regression"`)
	if i < 0 {
		t.Fatal("no regression row")
	}
	row := html[i : i+strings.Index(html[i:], "</tr>")]
	if !strings.Contains(row, `class="failed"`) || !strings.Contains(row, "failed: at k = 2") || strings.Contains(row, "0.") && !strings.Contains(row, "accuracy is 0.") {
		t.Errorf("regression row renders %q", row)
	}
	for _, id := range []string{`id="why"`, `id="why-sources"`, `id="why-parts"`, `id="host-why"`, `aria-live="polite"`, "3 of 4 CleaneX fits used"} {
		if !strings.Contains(html, id) {
			t.Errorf("page lacks %s", id)
		}
	}
}

// TestWarningShown: a recommendation with a warning shows it beside the
// headline once the run is over, and nothing while it runs.
func TestWarningShown(t *testing.T) {
	s := &State{Rec: &Recommendation{K1: 50, K2: 100, Outcome: recommend.Outcome{Result: recommend.Result{
		Estimate: make(accuracy.Curve, 101), Lo: make(accuracy.Curve, 101), Hi: make(accuracy.Curve, 101),
		Warnings: []string{"Your pilot misclassifies about 2 of its 400 test points at 50 classes."}}}}}
	if got := s.Warning(); !strings.Contains(got, "misclassifies about 2") {
		t.Errorf("Warning() = %q", got)
	}
	s.Running = true
	if got := s.Warning(); got != "" {
		t.Errorf("Warning() while running = %q, want empty", got)
	}
}

// TestCalibrationBank checks the page's sentence on the calibration bank
// against the embedded table.
func TestCalibrationBank(t *testing.T) {
	tab, err := recommend.DefaultTable()
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s pilots of %d families", limits.Thousands(tab.Pilots), len(tab.Families))
	if got := CalibrationBank(); got != want {
		t.Errorf("CalibrationBank() = %q, want %q", got, want)
	}
	if got := NewState().Bank; got != want {
		t.Errorf("NewState().Bank = %q, want %q", got, want)
	}
}

// The box plot's caption names the user's ratio when the bank's nearest one
// differs; a k2 within the pilot is described as measured, not extrapolated.
func TestWhyRatioWording(t *testing.T) {
	st := finishedState(t) // k1 = 10, k2 = 100: 10×
	if c := st.BoxCaption(); !strings.Contains(c, "predicting 10× beyond the pilot,") {
		t.Errorf("caption at the bank's own ratio: %q", c)
	}
	st.Rec.K2 = 30 // 3×: the bank's nearest ratio is not the user's
	if c := st.BoxCaption(); !strings.Contains(c, "(the test pilots' ratio nearest to your 3×)") {
		t.Errorf("caption at 3×: %q", c)
	}
	st.Rec.K2 = 5 // within the pilot
	parts := strings.Join(st.WhyParts(), "\n")
	if !strings.Contains(parts, "5 classes is within your pilot's 10: its accuracy there is measured directly") || strings.Contains(parts, "You extrapolate") {
		t.Errorf("why parts for k2 < k1:\n%s", parts)
	}
}

func TestSigned(t *testing.T) {
	for x, want := range map[float64]string{0.2851: "+0.285", -0.0121: "−0.012", -0.0001: "0.000", 0: "0.000", 1e-4: "0.000"} {
		if got := Signed(x); got != want {
			t.Errorf("Signed(%v) = %q, want %q", x, got, want)
		}
	}
}

// An exported image's title names the data set and the answer, and the
// warning when there is one.
func TestExportTitle(t *testing.T) {
	st := finishedState(t)
	st.Source = "pilot.csv"
	want := "pilot.csv\n" + st.Headline()
	if w := st.Warning(); w != "" {
		want += "\n" + w
	}
	if got := st.ExportTitle(); got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	st.Rec.Outcome.Warnings = []string{"You extrapolate 50× beyond your pilot."}
	if got, want := st.ExportTitle(), "pilot.csv\n"+st.Headline()+"\nYou extrapolate 50× beyond your pilot."; got != want {
		t.Errorf("title with a warning %q, want %q", got, want)
	}
}

// A pilot whose points mostly tie gets a warning under the headline that
// the answer mostly counts ties, before the outcome's own warnings.
func TestWarningMostlyTied(t *testing.T) {
	st := finishedState(t)
	st.Summary = &protocol.Summary{TiedShare: 0.3}
	before := st.Warning()
	if strings.Contains(before, "tie") {
		t.Errorf("30%% tied: warning %q", before)
	}
	if before == "" && st.AnswerWarning() != "" {
		t.Errorf("no warning, answer bar %q", st.AnswerWarning())
	}
	st.Summary.TiedShare = 1
	if st.AnswerWarning() != " Read the warning under 3. Results." {
		t.Errorf("answer bar %q with a warning", st.AnswerWarning())
	}
	if got := st.Warning(); !strings.HasPrefix(got, "100% of your test points tie their true class with a wrong class, and a tie counts as an error, so this answer mostly counts ties") || !strings.HasSuffix(got, before) {
		t.Errorf("all tied: warning %q (before %q)", got, before)
	}
}

// checkSays checks that the text got says each of want and, when absent is
// not "", does not say absent.
func checkSays(t *testing.T, name, got string, want []string, absent string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s: %q, want it to say %q", name, got, w)
		}
	}
	if absent != "" && strings.Contains(got, absent) {
		t.Errorf("%s: %q, want no %q", name, got, absent)
	}
}

// TestWhyAtK2: the sentences on how many times CleaneX counts and how the
// estimate at k2 came out of the median: the method whose value is the
// middle one (an odd count), the two it lies halfway between (even), or for
// a count between 1 and 2 both, and how far between them; below 2 k1 they
// speak of the methods' middle, which the estimate has not reached yet, and
// within the pilot they are left out.
func TestWhyAtK2(t *testing.T) {
	three := map[string]float64{"regression": 0.3, "pooled": 0.5, "tail": 0.6}
	for _, tc := range []struct {
		name   string
		others map[string]float64
		cx     float64
		k1, k2 int
		count  float64
		want   []string
		absent string // a phrase the text must not hold
	}{
		{"between three, twice", three, 0.4, 800, 1600, 2, []string{
			"(CleaneX counted twice), so that one method that goes wrong cannot carry it along",
			"CleaneX gets more say the more classes your pilot has: it is fitted to your pilot's own accuracy curve, which is longer for a bigger pilot",
			"CleaneX counts once for a pilot of at most 50 classes and twice from 500 classes on.",
			"(Middle and halfway are taken on the log-odds scale",
			"With 800 classes, it counts twice.",
			"At 1,600 classes the estimate follows CleaneX, whose value is the middle one."}, ""},
		{"beyond three, twice", three, 0.7, 800, 1600, 2, []string{"At 1,600 classes the estimate follows tail (peaks over threshold), whose value is the middle one."}, ""},
		{"between three, once", three, 0.4, 40, 80, 1, []string{
			"The estimate takes the middle of the predictions of regression",
			"With 40 classes, it counts once.",
			"At 80 classes the estimate lies halfway between CleaneX and pooled (location-scale), the two middle values."}, ""},
		{"between three, 1.6 times", three, 0.4, 200, 400, 1.6, []string{
			"(CleaneX counted 1.60 times), so",
			"With 200 classes it counts 1.60 times: the methods' middle lies 60% of the way from the middle with CleaneX counted once to the middle with CleaneX counted twice.",
			"At 400 classes with CleaneX counted once the middle is halfway between CleaneX and pooled (location-scale), counted twice it is CleaneX, and the estimate lies 60% of the way from the first to the second."}, ""},
		{"beyond two, twice", map[string]float64{"regression": 0.3, "pooled": 0.5}, 0.2, 500, 1000, 2, []string{"At 1,000 classes the estimate lies halfway between CleaneX and regression (Zheng et al.), the two middle values."}, ""},
		{"one other, twice", map[string]float64{"tail": 0.5}, 0.2, 500, 1000, 2, []string{"At 1,000 classes the estimate follows CleaneX, whose value is the middle one."}, ""},
		{"between three, squashed scores", three, 0.4, 100, 200, 2, []string{
			"(CleaneX counted twice), so that one method that goes wrong cannot carry it along",
			"CleaneX counts twice: on most of your points the highest wrong-class score stands far above the other high ones"}, ""},
		{"between three, once, below 2 k1", three, 0.4, 40, 60, 1, []string{
			"Up to your pilot's 40 classes the estimate is your pilot's measured accuracy; beyond them it moves to that middle value, which it reaches at 80 classes.",
			"At 60 classes the methods' middle lies halfway between CleaneX and pooled (location-scale), the two middle values. The estimate lies between that middle and your pilot's measured accuracy, since 60 classes is less than twice your pilot's."}, ""},
		{"between three, once, within the pilot", three, 0.4, 40, 30, 1, []string{
			"Up to your pilot's 40 classes the estimate is your pilot's measured accuracy"}, "At 30 classes"},
	} {
		r := &Recommendation{K1: tc.k1, K2: tc.k2, Curves: map[string]accuracy.Curve{}, Used: 2, Fits: 4, Squashed: strings.Contains(tc.name, "squashed")}
		for _, name := range recommend.Methods() {
			if v, ok := tc.others[name]; ok {
				r.Curves[name] = flatCurve(v, tc.k2)
				r.Outcome.Sources = append(r.Outcome.Sources, name)
			}
		}
		r.Outcome.Sources = append(r.Outcome.Sources, "cleanex ×2")
		r.Outcome.CleaneX, r.Outcome.Estimate, r.Outcome.CleaneXCount = flatCurve(tc.cx, tc.k2), flatCurve(tc.cx, tc.k2), tc.count
		s := NewState()
		s.Rec = r
		got := s.WhySources()
		checkSays(t, tc.name, got, tc.want, tc.absent)
		// Only the fits held to the observed curve (recommend.FitsObserved)
		// are said to follow it.
		fitted := "CleaneX"
		if _, ok := tc.others["regression"]; ok {
			fitted = "regression (Zheng et al.) and CleaneX"
		}
		if want := ". Each was checked first: its accuracies must never rise with k, and " + fitted + " must follow your pilot's own accuracy curve up to " + limits.Thousands(tc.k1) + " classes."; !strings.Contains(got, want) {
			t.Errorf("%s: %q, want it to say %q", tc.name, got, want)
		}
	}
}

// TestWhyShape: when the pilot's tail spread makes the pooled and the tail
// method give way (recommend.ShapeWeight), the panel says why and by how
// much, and how the middle of all the methods moves towards the middle
// without them; with a weight of 1 they are said to be left out, and with
// none nothing is said.
func TestWhyShape(t *testing.T) {
	three := map[string]float64{"regression": 0.3, "pooled": 0.5, "tail": 0.6}
	for _, tc := range []struct {
		name   string
		k1, k2 int
		v      float64
		want   []string
		absent string
	}{
		{"200 classes", 200, 400, 0.6, []string{
			"The pooled and the tail method assume that the highest wrong-class scores of all your points spread in one shape, which your pilot's do not (its tail spread is 1.62: about 1 when they share one shape, and taken as not sharing it above 1.1).",
			"keeping their full place for a pilot of 50 classes and leaving the middle from 500 on: with 200 classes they count 60% less.",
			"and the middle of all the methods lies 60% of the way from the first to the second. That middle is 0.450; without the pooled and the tail method it is 0.400, and the estimate, 0.430, lies 60% of the way from the first to the second."}, ""},
		{"500 classes", 500, 1000, 1, []string{
			"with 500 classes they are left out of the middle.",
			"At 1,000 classes the middle of all the methods follows CleaneX, whose value is the middle one. That middle is 0.450; without the pooled and the tail method it is 0.400, and the estimate, 0.430, lies 100% of the way"}, ""},
		{"shared shape", 200, 400, 0, nil, "tail spread"},
	} {
		r := &Recommendation{K1: tc.k1, K2: tc.k2, Curves: map[string]accuracy.Curve{}, Used: 4, Fits: 4}
		for _, name := range recommend.Methods() {
			if v, ok := three[name]; ok {
				r.Curves[name] = flatCurve(v, tc.k2)
				r.Outcome.Sources = append(r.Outcome.Sources, name)
			}
		}
		r.Outcome.Sources = append(r.Outcome.Sources, "cleanex ×4")
		o := &r.Outcome
		o.CleaneX, o.Estimate, o.Middle, o.CleaneXCount = flatCurve(0.4, tc.k2), flatCurve(0.43, tc.k2), flatCurve(0.43, tc.k2), recommend.CleaneXCount(tc.k1)
		o.ShapeWeight, o.TailSpread = tc.v, 1.62
		if tc.v > 0 {
			o.MiddleAll, o.MiddleRest = flatCurve(0.45, tc.k2), flatCurve(0.4, tc.k2)
		}
		s := NewState()
		s.Rec = r
		got := s.WhySources()
		checkSays(t, tc.name, got, tc.want, tc.absent)
	}
}

// TestWhyFailedOrder: the fits left out are listed in the order the
// recommendation runs them (regression, pooled, tail, CleaneX by seed).
func TestWhyFailedOrder(t *testing.T) {
	s := NewState()
	s.Rec = &Recommendation{Outcome: recommend.Outcome{Failed: map[string]string{
		"tail": "t", "cleanex seed 10": "c10", "pooled": "p", "cleanex seed 9": "c9", "regression": "r"}}}
	var got []string
	for _, line := range s.WhyFailed() {
		got = append(got, line[:strings.Index(line, " was not used")])
	}
	want := []string{"regression (Zheng et al.)", "pooled (location-scale)", "tail (peaks over threshold)", "CleaneX with seed 9", "CleaneX with seed 10"}
	if !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

// When the interval was widened towards every method (a pilot with too
// few errors), the "why" parts say so, with the share of the way the
// interval reached (Result.SpanShare), before listing the calibrated parts;
// with the whole span, that it takes in all of them.
func TestWhyPartsSpanned(t *testing.T) {
	st := finishedStateAt(t, 20)
	const whole = "so the interval is widened to take in all of them"
	if parts := st.WhyParts(); len(parts) == 0 || strings.Contains(parts[0], "widened t") {
		t.Fatalf("not spanned: parts %q", parts)
	}
	st.Rec.Outcome.Spanned = true
	for _, tc := range []struct {
		share float64
		say   string
	}{
		{0.642, "widened towards all of them: 64% of the way"},
		{0.718, "widened towards all of them: 72% of the way"},
		{1, whole},
		{0, whole}, // a session saved before the share was recorded
	} {
		st.Rec.Outcome.SpanShare = tc.share
		if parts := st.WhyParts(); len(parts) == 0 || !strings.Contains(parts[0], tc.say) {
			t.Errorf("spanned, share %v: first part %q, want it to say %q", tc.share, parts, tc.say)
		}
	}
}

// When the floor beyond the calibrated population widened the interval at
// k2, the "why" parts say so, naming that population.
func TestWhyPartsFloored(t *testing.T) {
	st := finishedStateAt(t, 20)
	const said = "so beyond 2,000 classes the interval is widened to at least the error the largest test pilots showed"
	if parts := st.WhyParts(); len(parts) == 0 || strings.Contains(parts[0], said) {
		t.Fatalf("not floored: parts %q", parts)
	}
	st.Rec.Outcome.Floored = true
	st.Rec.Table.Calibration.Population = 2000
	if parts := st.WhyParts(); len(parts) == 0 || !strings.Contains(parts[0], "more classes than the test pilots' worlds held (2,000)") || !strings.Contains(parts[0], said) {
		t.Errorf("floored: first part %q, want it to say %q", parts, said)
	}
}

// Beyond the pilot, the class-sampling part gives the half-sampling spread
// when it was measured, and the first part says when it was not (the
// interval then comes from the calibration without it).
func TestWhyPartsHalfSampling(t *testing.T) {
	st := finishedStateAt(t, 20)
	const without = "comes from the calibration made without that measurement"
	ft := &st.Rec.Outcome.Features[20]
	ft.B, ft.BKnown = 0.5, true
	parts := st.WhyParts()
	e := st.Rec.Outcome.Estimate[20]
	want := fmt.Sprintf("fitted on random halves of your pilot's classes, the pooled and the tail method's answers at 20 classes spread by about ±%.3f", 0.5*e*(1-e))
	if len(parts) < 2 || !strings.Contains(parts[1], want) || strings.Contains(parts[0], without) {
		t.Errorf("B known: parts %q, want the second to say %q", parts, want)
	}
	ft.B, ft.BKnown = 0, false
	parts = st.WhyParts()
	if len(parts) < 2 || !strings.Contains(parts[0], without) || strings.Contains(parts[1], "random halves") {
		t.Errorf("B unknown: parts %q, want the first to say %q", parts, without)
	}
}

// TestLowestFamily: the check line names the family whose interval held the
// truth least often when it is under LowFamilyCoverage, and says on which
// side its misses lay when three in four or more lay on one side.
func TestLowestFamily(t *testing.T) {
	for _, tc := range []struct {
		name string
		fams []recommend.FamilyCheck
		want string
	}{
		{"none under", []recommend.FamilyCheck{{Family: "sim-d3", CoverageAtK: 0.79}, {Family: "real-verses", CoverageAtK: 0.72}}, ""},
		{"below", []recommend.FamilyCheck{{Family: "sim-d3", CoverageAtK: 0.79}, {Family: "real-verses", CoverageAtK: 0.59, Below: 39, Above: 0}},
			" It held least often (59% at the largest k) on passages of the Bible told apart by their verses' words, where 39 of its 39 misses lay below the interval: the estimate expected more accuracy than those classes gave. There a passage competes hardest with the other passages of its own book, of which a pilot holds only one to three, and every method over-predicted."},
		{"above", []recommend.FamilyCheck{{Family: "real-glyphs", CoverageAtK: 0.70, Below: 1, Above: 28}},
			" It held least often (70% at the largest k) on characters of 42 scripts rendered by different fonts, where 28 of its 29 misses lay above the interval: the estimate expected less accuracy than those classes gave."},
		{"senses, misses on both sides", []recommend.FamilyCheck{{Family: "real-senses", CoverageAtK: 0.70, Below: 20, Above: 9}},
			" It held least often (70% at the largest k) on word senses told apart by their example sentences. There a sense has only 2.6 test sentences on average, the senses of one word compete for its examples, and the estimate over-predicted more often than it under-predicted."},
		{"both sides", []recommend.FamilyCheck{{Family: "new-family", CoverageAtK: 0.60, Below: 20, Above: 18}},
			" It held least often (60% at the largest k) on new-family."},
	} {
		if got := lowestFamily(tc.fams); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	// Every family of the embedded calibration has words.
	table, err := recommend.DefaultTable()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range table.Families {
		if words, _ := familyWords(f.Family); words == f.Family {
			t.Errorf("the calibration family %q has no words for the why panel", f.Family)
		}
	}
}

// Where the estimate is so close to 0 that the half-sampling spread, in
// accuracy, writes as ±0.000, the why panel does not give that as a part
// of the interval's width without saying why: it gives the spread on the
// log-odds scale the interval is built on.
func TestWhyHalfSpreadNearZero(t *testing.T) {
	st := finishedStateAt(t, 100)
	r := st.Rec
	o := &r.Outcome
	o.Estimate[100], o.Lo[100], o.Hi[100] = 0.00002, 0, 0.0368
	o.Features[100].B, o.Features[100].BKnown = 1.5, true
	parts := strings.Join(st.WhyParts(), "\n")
	if strings.Contains(parts, "±0.000 ") || strings.Contains(parts, "±0.000 —") {
		t.Errorf("the why panel gives a spread of ±0.000 as a part of the width:\n%s", parts)
	}
	if !strings.Contains(parts, "on the log-odds scale") || !strings.Contains(parts, "±1.50") {
		t.Errorf("the why panel does not give the spread on the log-odds scale (±1.50):\n%s", parts)
	}
	// An estimate away from 0 and 1 keeps the spread in accuracy.
	o.Estimate[100] = 0.4
	if parts := strings.Join(st.WhyParts(), "\n"); !strings.Contains(parts, "spread by about ±0.360") {
		t.Errorf("at an estimate of 0.4 the why panel says:\n%s", parts)
	}
}

// An estimate that follows one source (a 2-class pilot, on which only
// CleaneX runs) says it moves to that source's prediction beyond the
// pilot, not to a "middle value" it never named.
func TestWhySourcesOneSource(t *testing.T) {
	st := finishedState(t)
	st.Rec.Outcome.Sources = []string{"cleanex ×4"}
	got := st.WhySources()
	if !strings.HasPrefix(got, "The estimate follows the mean of 4 CleaneX fits.") || strings.Contains(got, "middle") ||
		!strings.Contains(got, "The estimate then moves 20% of the way from that prediction towards your pilot's own trend") ||
		!strings.Contains(got, "beyond them it moves to that mix, which it reaches at 20 classes") {
		t.Errorf("one source: %q", got)
	}
	// without a trend line (a pilot of fewer than 4 classes)
	st.Rec.Outcome.Trend = nil
	if got := st.WhySources(); strings.Contains(got, "middle") || !strings.Contains(got, "beyond them it moves to that prediction, which it reaches at 20 classes") {
		t.Errorf("one source, no trend: %q", got)
	}
	st.Rec.Outcome.Sources = []string{"regression", "cleanex ×4"}
	if got := st.WhySources(); !strings.Contains(got, "beyond them it moves to that middle value, which it reaches at 20 classes") {
		t.Errorf("two sources, no trend: %q", got)
	}
}

// TestWhyTrend: with the pilot's trend line (recommend.Result.Trend) the
// text says the estimate moves 20% of the way from the methods' middle
// towards it, over which doubling of classes the trend was measured, and at
// k2 gives the middle, the trend and the estimate; within 2 k1 it says the
// estimate is on its way there from the pilot's accuracy.
func TestWhyTrend(t *testing.T) {
	for _, tc := range []struct {
		k1, k2 int
		want   []string
	}{
		{100, 1000, []string{
			"The estimate then moves 20% of the way from that middle towards your pilot's own trend: its measured accuracy carried on at the rate it fell over its last doubling of classes (from 50 to 100).",
			"beyond them it moves to that mix, which it reaches at 200 classes.",
			"At 1,000 classes the methods' middle follows CleaneX, whose value is the middle one. The estimate, moved 20% of the way from that middle (0.400) towards your pilot's trend (0.500), is 0.420."}},
		{100, 150, []string{
			"At 150 classes the methods' middle follows CleaneX, whose value is the middle one. The estimate lies between that middle, moved 20% of the way towards your pilot's trend, and your pilot's measured accuracy, since 150 classes is less than twice your pilot's."}},
	} {
		r := &Recommendation{K1: tc.k1, K2: tc.k2, Curves: map[string]accuracy.Curve{}, Used: 2, Fits: 2}
		for name, v := range map[string]float64{"regression": 0.3, "pooled": 0.5, "tail": 0.6} {
			r.Curves[name] = flatCurve(v, tc.k2)
		}
		r.Outcome.Sources = []string{"regression", "pooled", "tail", "cleanex ×2"}
		r.Outcome.CleaneX, r.Outcome.Middle, r.Outcome.CleaneXCount = flatCurve(0.4, tc.k2), flatCurve(0.4, tc.k2), 2
		r.Outcome.Trend, r.Outcome.Estimate = flatCurve(0.5, tc.k2), flatCurve(0.42, tc.k2)
		s := NewState()
		s.Rec = r
		got := s.WhySources()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("k1 = %d, k2 = %d: %q, want it to say %q", tc.k1, tc.k2, got, w)
			}
		}
	}
}

// TestTrendShare: the page's explanation gives the trend's share as the
// estimate uses it.
func TestTrendShare(t *testing.T) {
	if got, want := NewState().TrendShare(), fmt.Sprintf("%.0f%%", 100*recommend.TrendWeight); got != want || got != "20%" {
		t.Errorf("TrendShare %q, want %q (20%%)", got, want)
	}
}

// flatCurve returns the curve that is 1 at k = 0, 1 and v at k = 2..k2.
func flatCurve(v float64, k2 int) accuracy.Curve {
	c := make(accuracy.Curve, k2+1)
	for k := range c {
		c[k] = v
		if k < 2 {
			c[k] = 1
		}
	}
	return c
}

// While a slider's preview is on screen (the observed curve and the
// plug-in, the full run to follow), the answer bar and the headline say
// which k2 is worked out, as during the run that follows, so that the bar
// keeps its line and the page does not move under the slider.
func TestPreviewHeadline(t *testing.T) {
	s := NewState()
	s.Results = report.Curves{K1: 100, K2: 2000}
	if got := s.Headline(); got != "" {
		t.Fatalf("headline before any run %q, want none", got)
	}
	s.Previewing = true
	want := "Working out the accuracy at 2,000 classes…"
	if got := s.Headline(); got != want {
		t.Errorf("headline during a preview %q, want %q", got, want)
	}
	if ap := s.AnswerParts(); len(ap) != 3 || ap[0].Text+ap[1].Text+ap[2].Text != want {
		t.Errorf("answer bar during a preview %+v, want %q", ap, want)
	}
	if got := s.Warning(); got != "" {
		t.Errorf("warning during a preview %q, want none", got)
	}
}

// whyPart returns the part of the interval (State.WhyParts) that starts
// with prefix, failing the test when there is none.
func whyPart(t *testing.T, st *State, prefix string) string {
	t.Helper()
	for _, p := range st.WhyParts() {
		if strings.HasPrefix(p, prefix) {
			return p
		}
	}
	t.Fatalf("no part starting %q in %q", prefix, st.WhyParts())
	return ""
}

// The class-sampling part says the error "grows" beyond the pilot only
// when the half-sampling spread it then gives is larger than the standard
// error at k1 it gave first; a smaller spread (a pilot of a few classes,
// whose halves hold only a handful) is given without that word.
func TestWhyPartsHalfSpreadBelowSE(t *testing.T) {
	st := finishedStateAt(t, 20)
	ft := &st.Rec.Outcome.Features[20]
	e := st.Rec.Outcome.Estimate[20]
	st.Rec.ClassSE = slices.Clone(st.Rec.ClassSE)
	st.Rec.ClassSE[10] = 0.053
	classPart := func() string { return whyPart(t, st, "Your pilot's 10 classes are a sample") }
	ft.B, ft.BKnown = 0.024/(e*(1-e)), true
	got := classPart()
	if strings.Contains(got, "grows") || !strings.Contains(got, "±0.053") || !strings.Contains(got, "at 20 classes, fitted on random halves of your pilot's classes, the pooled and the tail method's answers spread by about ±0.024") {
		t.Errorf("a spread of ±0.024 after a standard error of ±0.053: %q", got)
	}
	ft.B = 0.12 / (e * (1 - e))
	if got := classPart(); !strings.Contains(got, "carried out to 20 classes it grows: fitted on random halves of your pilot's classes, the pooled and the tail method's answers at 20 classes spread by about ±0.120") {
		t.Errorf("a spread of ±0.120 after a standard error of ±0.053: %q", got)
	}
}

// When the pilot's points do not share one tail shape (the interval's
// feature U above 0), the extrapolation part says so with the tail spread;
// otherwise it does not.
func TestWhyPartsUnsharedTails(t *testing.T) {
	st := finishedStateAt(t, 20)
	extrapolation := func() string { return whyPart(t, st, "You extrapolate") }
	const says = "your pilot's points do not share one shape of their highest wrong-class scores"
	if got := extrapolation(); strings.Contains(got, says) {
		t.Errorf("U = 0: %q", got)
	}
	st.Rec.Outcome.Features[20].U, st.Rec.Outcome.TailSpread = recommend.UnsharedTails(1.62), 1.62
	if got := extrapolation(); !strings.HasPrefix(got, "You extrapolate 2× beyond your pilot (10 classes to 20), and "+says+" (tail spread 1.62), which makes every method's extrapolation less sure — ") {
		t.Errorf("U = 0.62: %q", got)
	}
}

// CleaneX's fits that differ by a unit of the last decimal shown have a
// standard deviation below 0.001, said so rather than as "0.000".
func TestWhyCleaneXSpreadTiny(t *testing.T) {
	st := finishedState(t)
	st.Rec.CleaneXAtK2 = []float64{0.9391, 0.9394, 0.9398, 0.9401}
	parts := strings.Join(st.WhyParts(), "\n")
	if strings.Contains(parts, "standard deviation 0.000)") || !strings.Contains(parts, "(standard deviation less than 0.001)") {
		t.Errorf("CleaneX fits 0.9391 to 0.9401:\n%s", parts)
	}
	st.Rec.CleaneXAtK2 = []float64{0.40, 0.42, 0.44, 0.46}
	if parts := strings.Join(st.WhyParts(), "\n"); !strings.Contains(parts, "(standard deviation 0.026)") {
		t.Errorf("CleaneX fits 0.40 to 0.46:\n%s", parts)
	}
}

// Scores that may be probabilities but are read as they are
// (scores.PartialNote beside the direction) get a warning under the
// headline: on test pilots read that way the interval held the truth about
// 2 times in 3, so the answer there is not the calibrated one.
func TestWarningPartialProbabilities(t *testing.T) {
	st := finishedState(t)
	st.Summary = &protocol.Summary{ScoresNote: scores.LogOddsNote, LogOdds: true}
	before := st.Warning()
	if strings.Contains(before, "read as they are") {
		t.Errorf("scores read as log-odds: warning %q", before)
	}
	st.Summary = &protocol.Summary{ScoresNote: scores.PartialNote}
	got := st.Warning()
	for _, want := range []string{"read as they are", "2 times in 3", "logits", "see the note about your scores under 1."} {
		if !strings.Contains(got, want) {
			t.Errorf("partial probabilities: warning %q lacks %q", got, want)
		}
	}
	if !strings.HasSuffix(got, before) || st.AnswerWarning() != " Read the warning under 3. Results." {
		t.Errorf("partial probabilities: warning %q (before %q), answer bar %q", got, before, st.AnswerWarning())
	}
	// with a note on ties after it (compute's joined notes), the same warning
	st.Summary = &protocol.Summary{ScoresNote: scores.PartialNote + ". " + accuracy.TiesNote(1)}
	if w := st.Warning(); !strings.Contains(w, PartialWarning) {
		t.Errorf("partial probabilities with ties: warning %q", w)
	}
}

// When the methods' answers at k2 spread over more than half the
// interval's width, the disagreement sentence says why the interval need
// not span them (for a pilot with too few errors, that it reaches part of
// the way towards them); when they lie close together it says neither.
func TestWhyPartsWideDisagreement(t *testing.T) {
	st := finishedStateAt(t, 20)
	o := st.Rec.Outcome
	width := o.Hi[20] - o.Lo[20]
	const why = "; the interval need not span the methods: on the test pilots, the gap between the methods told only part of the actual error."
	disagree := func() string {
		for _, p := range st.WhyParts() {
			if i := strings.Index(p, "The methods disagree by"); i >= 0 {
				return p[i:]
			}
		}
		t.Fatalf("no disagreement sentence in %q", st.WhyParts())
		return ""
	}
	set := func(spread float64) {
		i := 0
		for _, m := range recommend.Methods() {
			if c := st.Rec.Curves[m]; c != nil && c.Max() >= 20 {
				c[20] = o.Estimate[20] + spread*float64(i%2)
				i++
			}
		}
	}
	set(0.4 * width)
	if got := disagree(); strings.Contains(got, "need not span") {
		t.Errorf("methods %.3f apart, interval %.3f wide: %q", 0.4*width, width, got)
	}
	set(0.6 * width)
	if got := disagree(); !strings.Contains(got, why) {
		t.Errorf("methods %.3f apart, interval %.3f wide: %q", 0.6*width, width, got)
	}
	// a pilot with too few errors, whose interval the introduction says
	// reaches part of the way towards the methods beyond its 10 classes
	st.Rec.Outcome.Spanned = true
	const partWay = "; the interval reaches only part of the way towards them, as said above."
	if got := disagree(); !strings.Contains(got, partWay) || strings.Contains(got, "need not span") {
		t.Errorf("too few errors, methods %.3f apart, interval %.3f wide: %q", 0.6*width, width, got)
	}
}

// A run cancelled before its recommendation, with no earlier results shown
// again, leaves a headline saying there is no answer yet; an opened
// session's saved answer, or a recommendation, comes first.
func TestHeadlineCancelledEarly(t *testing.T) {
	st := &State{CancelledEarly: true}
	if got := st.Headline(); got != CancelledHeadline {
		t.Errorf("cancelled first run: %q", got)
	}
	st.SavedAnswer = "At 500 classes: 0.61 (80% interval 0.55–0.66)."
	if got := st.Headline(); got != st.SavedAnswer {
		t.Errorf("cancelled with a saved answer: %q", got)
	}
	st = finishedState(t)
	want := st.Headline()
	st.CancelledEarly = true
	if got := st.Headline(); got != want {
		t.Errorf("with a recommendation: %q, want %q", got, want)
	}
	st = &State{}
	if got := st.Headline(); got != "" {
		t.Errorf("nothing run: %q", got)
	}
}
