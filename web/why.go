package web

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/chart"
	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/report"
	"github.com/cleanex/cleanex/internal/scores"
	"gonum.org/v1/gonum/stat"
)

// Recommendation is a finished run's answer and its evidence, as the page
// shows them.
type Recommendation struct {
	// K1 is the pilot's number of classes, K2 the number predicted for.
	K1, K2 int
	// Outcome is recommend.Assemble's result.
	Outcome recommend.Outcome
	// ClassSE is the pilot's class-sampling standard error, k = 0..K1.
	ClassSE accuracy.Curve
	// Curves holds, by method, the curve of each of the recommendation's
	// fits that passed the check (CleaneX: the mean of its fits that did).
	Curves map[string]accuracy.Curve
	// Used and Fits count the recommendation's CleaneX fits that passed the
	// check, and all of them.
	Used, Fits int
	// CleaneXAtK2 holds each CleaneX fit's accuracy at K2, for the fits
	// used (those that passed the check and reach K2).
	CleaneXAtK2 []float64
	// Table is the calibration table (recommend.DefaultTable); TableErr is
	// why it could not be read, if it could not.
	Table    recommend.Table
	TableErr error
	// Squashed reports the pilot's scores squashed for the pooled and the
	// tail method (Pilot.Squashed), which makes CleaneX count twice.
	Squashed bool
}

// NewRecommendation gathers what the page shows about a finished plan.
func NewRecommendation(p *Plan, pilot Pilot, k2 int, out recommend.Outcome, table recommend.Table, tableErr error) *Recommendation {
	r := &Recommendation{K1: pilot.K1, K2: k2, Outcome: out, ClassSE: pilot.ClassSE, Table: table, TableErr: tableErr,
		Squashed: pilot.Squashed, Curves: map[string]accuracy.Curve{}}
	r.Used, r.Fits = p.CleaneXUsed(out)
	for i, t := range p.Tasks {
		if t.Job < 0 {
			continue
		}
		if _, failed := out.Failed[t.Label()]; failed {
			continue
		}
		f, err := p.Result(i)
		if err != nil || f == nil {
			continue
		}
		if t.Method != methods.CleaneX {
			r.Curves[t.Method] = f.Curve
		} else if k2 <= f.Curve.Max() {
			r.CleaneXAtK2 = append(r.CleaneXAtK2, f.Curve[k2])
		}
	}
	if out.CleaneX != nil {
		r.Curves[methods.CleaneX] = out.CleaneX
	}
	return r
}

// OK reports whether there is a recommended curve at K2.
func (r *Recommendation) OK() bool {
	return r != nil && r.Outcome.Err == nil && r.Outcome.Estimate.Max() >= r.K2 && r.K2 >= 2
}

// Headline is the page's answer in one sentence: the recommended accuracy
// at k2 with its 80% interval ("At 2,000 classes: 0.47 (80% interval
// 0.40–0.55)"), what is running while the fits run (and which k2 is worked
// out while a slider's preview waits for them), why there is no
// recommendation, that a cancelled run left none (CancelledHeadline), or an
// opened session's saved answer (SavedAnswer).
func (s *State) Headline() string {
	if s.Running || s.Previewing {
		return s.runningLine()
	}
	r := s.Rec
	if r == nil && s.SavedAnswer == "" && s.CancelledEarly {
		return CancelledHeadline
	}
	if r == nil {
		return s.SavedAnswer
	}
	if !r.OK() {
		return NoRecommendation(r.K2, r.Outcome.Err)
	}
	o := r.Outcome
	lo, hi := o.Lo[r.K2], o.Hi[r.K2]
	line := HeadlineText(r.K2, o.Estimate[r.K2], lo, hi) + "."
	if obs := s.Results.Observed; r.K2 <= r.K1 && r.K2 <= obs.Max() {
		line += fmt.Sprintf(" %s classes is within your pilot's %s, where its accuracy is measured: the estimate is that measured accuracy, and the interval is how much it would change with other classes.",
			limits.Thousands(r.K2), limits.Thousands(r.K1))
	}
	switch t := s.Results.Truth; {
	case t == nil && s.TruthPending && s.TruthDone > 0:
		line += fmt.Sprintf(" The simulation's true accuracy is still being computed (%d%% done); it is added when ready.", int(100*s.TruthDone))
	case t == nil && s.TruthPending:
		line += " The simulation's true accuracy is still being computed; it is added when ready."
	case t == nil:
	case t.Max() >= r.K2:
		// The truth is written with at least the estimate's decimals, so
		// that the two read side by side (0.9999 beside 0.9943, not 0.99).
		d := max(ValueDecimals(t[r.K2], lo, hi), ValueDecimals(o.Estimate[r.K2], lo, hi))
		line += fmt.Sprintf(" The true accuracy of this simulation is %.*f.", d, t[r.K2])
	default:
		// k2 beyond the simulated world: its truth stops at the world's K.
		line += fmt.Sprintf(" This simulation's true accuracy is known only up to its world's %s classes (%.*f there); the truth curve and its RMSE stop there.",
			limits.Thousands(t.Max()), ValueDecimals(t[t.Max()], lo, hi), t[t.Max()])
	}
	return line
}

// CancelledHeadline is the headline after a run cancelled before its
// recommendation, when no earlier results are shown again: the chart and
// the table hold only the methods that finished.
const CancelledHeadline = "No answer yet: the run was cancelled before the estimate was ready, so the chart and the table show only the methods that had finished. Press Run to work out the answer."

// Decimals is how many decimals the answer is written with: 2, or up to 4
// while the 80% interval [lo, hi] spans fewer than 3 units of the last
// decimal, so that an answer near 0 or 1 (0.003, 0.9995) is not rounded
// into its own bounds.
func Decimals(lo, hi float64) int {
	d := 2
	for d < 4 && (hi-lo)*math.Pow(10, float64(d)) < 3 {
		d++
	}
	return d
}

// PartialWarning is the warning under the headline when the scores may be
// probabilities but were read as they are (scores.PartialNote): the
// interval is then not the calibrated one (docs/recommendation.md,
// "Probabilities whose rows do not sum to 1").
const PartialWarning = "Your scores look like probabilities but were read as they are (see the note about your scores under 1.): on test pilots read that way, the 80% interval held the truth only about 2 times in 3. Give ln p or the model's logits for the calibrated answer."

// Warning is the recommendation's caution in words (recommend.Result's
// Warnings), after a warning that most test points tie (Summary.TiedShare)
// and PartialWarning when they apply; an opened session's saved warning
// while its saved answer is shown (SavedWarning); or "" when there is none.
func (s *State) Warning() string {
	r := s.Rec
	if s.Running {
		return ""
	}
	if r == nil && s.SavedAnswer != "" {
		return s.SavedWarning
	}
	if !r.OK() {
		return ""
	}
	ws := r.Outcome.Warnings
	// the scores' note comes first in ScoresNote, before a note on ties
	if m := s.Summary; m != nil && strings.HasPrefix(m.ScoresNote, scores.PartialNote) {
		ws = append([]string{PartialWarning}, ws...)
	}
	if m := s.Summary; m != nil && m.TiedShare >= recommend.MostlyTied {
		ws = append([]string{fmt.Sprintf("%.0f%% of your test points tie their true class with a wrong class, and a tie counts as an error, so this answer mostly counts ties; see the note about your scores under 1.", 100*m.TiedShare)}, ws...)
	}
	return strings.Join(ws, " ")
}

// AnswerWarning is what the answer bar at the top of the page adds after
// the headline when there is a warning under the headline: where to read
// it; "" otherwise.
func (s *State) AnswerWarning() string {
	if s.Warning() == "" {
		return ""
	}
	return " Read the warning under 3. Results."
}

// ExportTitle is what an exported chart image says above the chart, one
// line each: the name of the data whose results are shown (ShownSource),
// the headline and, when there is one, the warning shown under the
// headline.
func (s *State) ExportTitle() string {
	t := s.ShownSource() + "\n" + s.Headline()
	if w := s.Warning(); w != "" {
		t += "\n" + w
	}
	return t
}

// TextPart is a piece of a sentence shown on the page; NoWrap pieces are
// never broken across lines.
type TextPart struct {
	Text   string
	NoWrap bool
}

// HeadlineParts is Headline cut so that the first range of numbers in it
// (the interval's "0.40–0.55") is one NoWrap part: on a narrow screen the
// line breaks before the range, not after its dash. There are always three
// parts (before, range, after; empty when there is no range), so that the
// page's spans are rewritten in place whatever the headline says.
func (s *State) HeadlineParts() []TextPart {
	h := s.Headline()
	whole := []TextPart{{Text: h}, {NoWrap: true}, {}}
	dash := strings.Index(h, "–")
	if dash < 0 {
		return whole
	}
	number := func(r byte) bool { return r == '.' || r == ',' || (r >= '0' && r <= '9') }
	from, to := dash, dash+len("–")
	for from > 0 && number(h[from-1]) {
		from--
	}
	for to < len(h) && number(h[to]) {
		to++
	}
	for to > dash+len("–") && (h[to-1] == '.' || h[to-1] == ',') {
		to-- // the sentence's own stop
	}
	if from == dash || to == dash+len("–") {
		return whole
	}
	return []TextPart{{Text: h[:from]}, {Text: h[from:to], NoWrap: true}, {Text: h[to:]}}
}

// AnswerParts is what the answer bar at the top of the page says: the
// headline's parts, except while the fits run or a slider's preview waits
// for them, when it says only which k2 is being worked out. What runs, listed under "3. Results" (Headline),
// shortens as each fit ends; in the bar above everything it would move the
// whole page up and down under the pointer.
func (s *State) AnswerParts() []TextPart {
	if s.Running || s.Previewing {
		return []TextPart{{Text: workingLine(s.runK2())}, {NoWrap: true}, {}}
	}
	return s.HeadlineParts()
}

// HeadlineText formats the answer at k2: "At 2,000 classes: 0.47 (80%
// interval 0.40–0.55)", the interval with Decimals(lo, hi) decimals and the
// estimate with ValueDecimals(est, lo, hi).
func HeadlineText(k2 int, est, lo, hi float64) string {
	d := Decimals(lo, hi)
	return fmt.Sprintf("At %s classes: %.*f (80%% interval %.*f–%.*f)", limits.Thousands(k2), ValueDecimals(est, lo, hi), est, d, lo, d, hi)
}

// ValueDecimals is how many decimals a value v given beside the interval
// [lo, hi] is written with: Decimals(lo, hi), or the fewest more, up to 4,
// that keep a v that is not 0 or 1 from reading as exactly 0 or 1 (0.9968
// is written 0.997, not 1.00); a v that reads so even at 4 decimals keeps
// Decimals(lo, hi).
func ValueDecimals(v, lo, hi float64) int {
	d := Decimals(lo, hi)
	for e := d; e <= 4; e++ {
		r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'f', e, 64), 64)
		if err != nil {
			return d
		}
		if (r != 0 || v == 0) && (r != 1 || v == 1) {
			return e
		}
	}
	return d
}

// NoRecommendation says in one sentence why there is no recommended
// accuracy at k2 and what the user can do.
func NoRecommendation(k2 int, err error) string {
	switch {
	case err == nil:
		return fmt.Sprintf("No recommendation for %s classes.", limits.Thousands(k2))
	case errors.Is(err, recommend.ErrNoFits):
		return fmt.Sprintf("No recommendation for %s classes: none of the regression, pooled, tail and CleaneX fits passed its checks (see “Why this answer” for each one's reason); more test points per class, or a smaller k2, usually help.", limits.Thousands(k2))
	}
	why := strings.TrimPrefix(err.Error(), "recommend: ")
	return fmt.Sprintf("No recommendation for %s classes: %s; the individual methods are shown below.", limits.Thousands(k2), strings.TrimSuffix(why, "."))
}

// runningLine says what is running ("Working out the accuracy at 2,000
// classes: running CleaneX (1 of 4 fits done) and regression…").
func (s *State) runningLine() string {
	var parts []string
	for _, p := range s.Progress {
		if p.Done || p.Failed || p.Skipped {
			continue
		}
		name := s.BarLabel(p.Name)
		if strings.Contains(p.Text, " fits done") {
			if i := strings.Index(p.Text, ","); i > 0 {
				name += " (" + p.Text[:i] + ")"
			} else {
				name += " (" + p.Text + ")"
			}
		}
		parts = append(parts, name)
	}
	k2 := s.runK2()
	if len(parts) == 0 {
		return workingLine(k2)
	}
	list := parts[0]
	if n := len(parts); n > 1 {
		list = strings.Join(parts[:n-1], ", ") + " and " + parts[n-1]
	}
	return fmt.Sprintf("Working out the accuracy at %s classes: running %s…", limits.Thousands(k2), list)
}

// runK2 is the k2 of the run: its results' K2, not a k2 typed since it
// started.
func (s *State) runK2() int {
	if s.Results.K2 > 0 {
		return s.Results.K2
	}
	return s.K2
}

// workingLine says that the accuracy at k2 classes is being worked out.
func workingLine(k2 int) string {
	return fmt.Sprintf("Working out the accuracy at %s classes…", limits.Thousands(k2))
}

// TableRow is one line of the results table as the page shows it.
type TableRow struct {
	// Name is the curve's name ("estimate", "observed", a method, "truth").
	Name string
	// Cells are the values at Ks(), formatted; empty for a failed method.
	Cells []string
	// RMSE and Time are formatted (empty when unknown).
	RMSE, Time string
	// Best marks the row with the lowest RMSE against the truth among the
	// estimate and the methods (none without a truth).
	Best bool
	// Failed, when not "", is why the method has no curve ("failed: …",
	// or "skipped: …" when Skipped).
	Failed string
	// Skipped is whether the method did not run because it cannot run on
	// this pilot.
	Skipped bool
}

// RMSEClass is the class of the row's RMSE cell: "rmse", and "rmse best"
// for the lowest (shown in bold).
func (r TableRow) RMSEClass() string {
	if r.Best {
		return "rmse best"
	}
	return "rmse"
}

// FailClass is the class of the cell that says why a method has no curve.
func (r TableRow) FailClass() string {
	if r.Skipped {
		return "skipped"
	}
	return "failed"
}

// cellValue is a table cell's value: the whole cell, or, for the
// estimate's k2 cell "v (lo–hi)", "v " (its space lets the interval move
// under the value on a narrow screen).
func cellValue(cell string) string {
	if i := strings.Index(cell, " ("); i >= 0 {
		return cell[:i+1]
	}
	return cell
}

// cellInterval is the "(lo–hi)" of the estimate's k2 cell, "" for any
// other cell.
func cellInterval(cell string) string {
	if i := strings.Index(cell, " ("); i >= 0 {
		return cell[i+1:]
	}
	return ""
}

// Rows returns the results table: the recommended estimate first (its k2
// cell with the 80% interval), the observed curve, each selected method in
// the usual order (one whose fit failed says why, with no number), and
// the truth when known.
func (s *State) Rows() []TableRow {
	c := s.Results
	ks := c.Ks()
	var out []TableRow
	row := func(r report.Row) TableRow {
		t := TableRow{Name: r.Name, RMSE: Cell(r.RMSE), Time: Secs(r.Seconds)}
		for _, v := range r.At {
			t.Cells = append(t.Cells, Cell(v))
		}
		return t
	}
	rows := c.Table()
	for _, r := range rows {
		if r.Name == "estimate" {
			t := row(r)
			if n := len(ks); n > 0 && ks[n-1] <= c.EstimateLo.Max() && ks[n-1] <= c.EstimateHi.Max() {
				k := ks[n-1]
				t.Cells[n-1] += fmt.Sprintf(" (%s–%s)", Cell(c.EstimateLo[k]), Cell(c.EstimateHi[k]))
			}
			out = append(out, t)
		}
	}
	fitted := map[string]report.Row{}
	for _, r := range rows {
		switch r.Name {
		case "observed":
			out = append(out, row(r))
		case "estimate", "truth":
		default:
			fitted[r.Name] = r
		}
	}
	var names []string
	for n := range fitted {
		names = append(names, n)
	}
	for n := range s.Failed {
		if _, ok := fitted[n]; !ok {
			names = append(names, n)
		}
	}
	for n := range s.Skipped {
		if _, ok := fitted[n]; !ok && s.Failed[n] == "" {
			names = append(names, n)
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		if d := methods.Rank(a) - methods.Rank(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	for _, n := range names {
		switch r, ok := fitted[n]; {
		case ok:
			out = append(out, row(r))
		case s.Failed[n] != "":
			out = append(out, TableRow{Name: n, Failed: "failed: " + s.Failed[n]})
		default:
			out = append(out, TableRow{Name: n, Failed: "skipped: " + s.Skipped[n], Skipped: true})
		}
	}
	for _, r := range rows {
		if r.Name == "truth" {
			out = append(out, row(r))
		}
	}
	best, lowest := "", math.Inf(1)
	for _, r := range rows {
		if r.Name != "truth" && r.Name != "observed" && r.RMSE < lowest {
			best, lowest = r.Name, r.RMSE
		}
	}
	for i := range out {
		out[i].Best = out[i].Name == best && out[i].Failed == ""
	}
	return out
}

// Span is the number of value columns a failed method's message spans.
func (s *State) Span() int {
	n := len(s.Ks())
	if s.HasTruth() {
		n++
	}
	return n
}

// WhyShown reports whether the "Why this answer" panel has anything to say.
func (s *State) WhyShown() bool { return s.Rec != nil && !s.Running }

// WhySources says what went into the estimate (recommend's Sources, in words).
func (s *State) WhySources() string {
	r := s.Rec
	if r == nil {
		return ""
	}
	var used, fitted []string // fitted: those held to the observed curve
	for _, src := range r.Outcome.Sources {
		if n, ok := strings.CutPrefix(src, "cleanex ×"); ok {
			used = append(used, "the mean of "+n+" CleaneX fits")
			if n == "1" {
				used[len(used)-1] = "one CleaneX fit"
			}
			fitted = append(fitted, "CleaneX")
			continue
		}
		used = append(used, s.Label(src))
		if recommend.FitsObserved(src) {
			fitted = append(fitted, s.Label(src))
		}
	}
	cx := fmt.Sprintf("%d of %d CleaneX fits used.", r.Used, r.Fits)
	if len(used) == 0 {
		return "No fit could be used for the estimate. " + cx
	}
	how := "The estimate follows " + list(used)
	scale := ""
	if len(used) > 1 {
		how = "The estimate takes the middle of the predictions of " + list(used)
		switch c := r.Outcome.CleaneXCount; {
		case c == 2:
			how += " (CleaneX counted twice)"
		case c > 1:
			how += fmt.Sprintf(" (CleaneX counted %.2f times)", c)
		}
		how += ", so that one method that goes wrong cannot carry it along"
		scale = " (Middle and halfway are taken on the log-odds scale, log(a / (1 − a)) for an accuracy a, which spreads out accuracies near 0 and 1.)"
	}
	check := ". Each was checked first: its accuracies must never rise with k"
	if len(fitted) > 0 {
		check += ", and " + list(fitted) + " must follow your pilot's own accuracy curve up to " + limits.Thousands(r.K1) + " classes"
	}
	within := ""
	if r.K1 >= 2 {
		target := "that middle value"
		switch {
		case r.Outcome.Trend != nil:
			target = "that mix"
		case len(used) == 1:
			target = "that prediction"
		}
		within = fmt.Sprintf(" Up to your pilot's %s classes the estimate is your pilot's measured accuracy; beyond them it moves to %s, which it reaches at %s classes.",
			limits.Thousands(r.K1), target, limits.Thousands(2*r.K1))
	}
	return how + check + ". " + cx + s.whyTrend(len(used) > 1) + within + s.whyCount() + s.whyShape() + s.whyAtK2() + scale
}

// whyShape says, after whyCount, why the pooled and the tail method count
// less in the middle (recommend.ShapeWeight): "" when they keep their place.
func (s *State) whyShape() string {
	o := s.Rec.Outcome
	if o.ShapeWeight <= 0 {
		return ""
	}
	share := fmt.Sprintf("they count %.0f%% less", 100*o.ShapeWeight)
	if o.ShapeWeight >= 1 {
		share = "they are left out of the middle"
	}
	return fmt.Sprintf(" The pooled and the tail method assume that the highest wrong-class scores of all your points spread in one shape, which your pilot's do not (its tail spread is %.2f: about 1 when they share one shape, and taken as not sharing it above %.1f). Where that happens their error far beyond your pilot does not shrink with more classes, while CleaneX's does, so they give way as CleaneX's say grows, keeping their full place for a pilot of %d classes and leaving the middle from %d on: with %s classes %s.",
		o.TailSpread, recommend.SharedTail, recommend.SmallPilot, recommend.LargePilot, limits.Thousands(s.Rec.K1), share)
}

// whyTrend says, after WhySources' first sentences, how the pilot's trend
// line enters the estimate (recommend.TrendWeight); "" when the pilot has
// none. middle tells whether the methods' value is a middle of several.
func (s *State) whyTrend(middle bool) string {
	r := s.Rec
	if r.Outcome.Trend == nil {
		return ""
	}
	from := "that prediction"
	if middle {
		from = "that middle"
	}
	return fmt.Sprintf(" The estimate then moves %s of the way from %s towards your pilot's own trend: its measured accuracy carried on at the rate it fell over its last doubling of classes (from %s to %s). The trend reads no model of the scores and cannot break down, but it does not see the curve bend, which the methods do; on test pilots with a known answer the mix came closer to the truth than the methods alone.",
		s.TrendShare(), from, limits.Thousands(r.K1/2), limits.Thousands(r.K1))
}

// whyCount says, after WhySources, why CleaneX counts as many times as it
// does (recommend.CleaneXCount): "" when there is no CleaneX curve or no
// other to weigh it against.
func (s *State) whyCount() string {
	r := s.Rec
	o := r.Outcome
	if o.CleaneX == nil || len(o.Sources) < 2 {
		return ""
	}
	if r.Squashed && o.CleaneXCount == 2 {
		return " CleaneX counts twice: on most of your points the highest wrong-class score stands far above the other high ones (as with sharp probabilities), so the pooled and the tail method, which model how those scores spread, have little to go on."
	}
	rule := fmt.Sprintf("CleaneX gets more say the more classes your pilot has: it is fitted to your pilot's own accuracy curve, which is longer for a bigger pilot, while the pooled and the tail method rest on a model of the scores that does not get better with more classes. CleaneX counts once for a pilot of at most %d classes and twice from %d classes on.",
		recommend.SmallPilot, recommend.LargePilot)
	switch c := o.CleaneXCount; {
	case c <= 1:
		return " " + rule + " With " + limits.Thousands(r.K1) + " classes, it counts once."
	case c >= 2:
		return " " + rule + " With " + limits.Thousands(r.K1) + " classes, it counts twice."
	default:
		return fmt.Sprintf(" %s With %s classes it counts %.2f times: the methods' middle lies %.0f%% of the way from the middle with CleaneX counted once to the middle with CleaneX counted twice.",
			rule, limits.Thousands(r.K1), c, 100*(c-1))
	}
}

// whyAtK2 says, after WhySources, how the estimate at k2 came out of the
// median: the method whose value is the middle one, or the two middle ones
// it lies halfway between, with CleaneX counted once, twice, or (a count in
// between) both and how far between them; "" when CleaneX or every other
// method is missing.
func (s *State) whyAtK2() string {
	r := s.Rec
	o, k2 := r.Outcome, r.K2
	if o.CleaneX == nil || k2 > o.CleaneX.Max() || k2 > o.Estimate.Max() || len(o.Sources) < 2 || o.CleaneXCount < 1 || k2 <= r.K1 {
		return ""
	}
	// below 2 k1 the estimate is still on its way from the pilot's measured
	// accuracy to the methods' middle (drawn towards the pilot's trend)
	subject, still := "the estimate", ""
	if o.Trend != nil && k2 <= o.Trend.Max() && k2 <= o.Middle.Max() {
		subject = "the methods' middle"
		still = fmt.Sprintf(" The estimate, moved %s of the way from that middle (%.3f) towards your pilot's trend (%.3f), is %.3f.",
			s.TrendShare(), o.Middle[k2], o.Trend[k2], o.Estimate[k2])
	}
	if k2 < 2*r.K1 {
		subject = "the methods' middle"
		still = fmt.Sprintf(" The estimate lies between that middle and your pilot's measured accuracy, since %s classes is less than twice your pilot's.", limits.Thousands(k2))
		if o.Trend != nil {
			still = fmt.Sprintf(" The estimate lies between that middle, moved %s of the way towards your pilot's trend, and your pilot's measured accuracy, since %s classes is less than twice your pilot's.",
				s.TrendShare(), limits.Thousands(k2))
		}
	}
	type entry struct {
		label string
		v     float64
	}
	var es []entry
	for _, src := range o.Sources {
		if c := r.Curves[src]; c != nil && k2 <= c.Max() {
			es = append(es, entry{s.Label(src), c[k2]})
		}
	}
	if len(es) == 0 {
		return ""
	}
	// middle names the middle value(s) with CleaneX counted n times.
	middle := func(n int) (phrase string, one bool) {
		all := slices.Clone(es)
		for range n {
			all = append(all, entry{"CleaneX", o.CleaneX[k2]})
		}
		slices.SortStableFunc(all, func(a, b entry) int { return cmp.Compare(a.v, b.v) })
		a, b := all[(len(all)-1)/2], all[len(all)/2]
		if a.label == b.label {
			return a.label, true
		}
		return a.label + " and " + b.label, false
	}
	at := " At " + limits.Thousands(k2) + " classes "
	// shape says how the middle of all the methods, which the sentences
	// before it name, moves when the pooled and the tail method count less
	shape := ""
	if v := o.ShapeWeight; v > 0 && o.MiddleAll != nil && k2 <= o.MiddleAll.Max() {
		shape = fmt.Sprintf(" That middle is %.3f; without the pooled and the tail method it is %.3f, and %s, %.3f, lies %.0f%% of the way from the first to the second.",
			o.MiddleAll[k2], o.MiddleRest[k2], subject, o.Middle[k2], 100*v)
		subject = "the middle of all the methods"
	}
	c := o.CleaneXCount
	if c == 1 || c == 2 {
		m, one := middle(int(c))
		if one {
			return at + subject + " follows " + m + ", whose value is the middle one." + shape + still
		}
		return at + subject + " lies halfway between " + m + ", the two middle values." + shape + still
	}
	describe := func(n int) string {
		m, one := middle(n)
		if one {
			return m
		}
		return "halfway between " + m
	}
	return fmt.Sprintf("%swith CleaneX counted once the middle is %s, counted twice it is %s, and %s lies %.0f%% of the way from the first to the second.%s%s",
		at, describe(1), describe(2), subject, 100*(c-1), shape, still)
}

// list joins "a", "b" and "c" as "a, b and c".
func list(items []string) string {
	if n := len(items); n > 1 {
		return strings.Join(items[:n-1], ", ") + " and " + items[n-1]
	}
	return strings.Join(items, "")
}

// WhyFailed lists the fits that were not used and why, in words.
func (s *State) WhyFailed() []string {
	r := s.Rec
	if r == nil {
		return nil
	}
	// In the order the recommendation runs them (recommend.Jobs): regression,
	// pooled, tail, then CleaneX by seed.
	type key struct {
		label  string
		method int
		seed   int
	}
	var keys []key
	for k := range r.Outcome.Failed {
		m, seed := k, 0
		if n, ok := strings.CutPrefix(k, "cleanex seed "); ok {
			m = "cleanex"
			seed, _ = strconv.Atoi(n)
		}
		rank := slices.Index(recommend.Methods(), m)
		if rank < 0 {
			rank = len(recommend.Methods())
		}
		keys = append(keys, key{k, rank, seed})
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.method, b.method), cmp.Compare(a.seed, b.seed), strings.Compare(a.label, b.label))
	})
	var out []string
	for _, kk := range keys {
		k := kk.label
		name := s.Label(k)
		if seed, ok := strings.CutPrefix(k, "cleanex seed "); ok {
			name = "CleaneX with seed " + seed
		}
		out = append(out, fmt.Sprintf("%s was not used: %s.", name, strings.TrimSuffix(r.Outcome.Failed[k], ".")))
	}
	return out
}

// WhyParts explains the interval's width at k2 by its parts (the features
// of the interval model, recommend.Features): an introduction (the page
// shows it above the list of the others), then the pilot's classes are a
// sample, the methods disagree, CleaneX's fits spread, and the distance
// extrapolated; each with its size in accuracy and its share of the width.
func (s *State) WhyParts() []string {
	r := s.Rec
	if !r.OK() || r.K2 >= len(r.Outcome.Features) || r.TableErr != nil {
		return nil
	}
	o, k2 := r.Outcome, r.K2
	ft := o.Features[k2]
	sh := r.Table.Calibration.Shares(ft)
	width := o.Hi[k2] - o.Lo[k2]
	share := func(x float64) string {
		if x < 0.005 {
			return " — it does not widen the interval here"
		}
		return fmt.Sprintf(" — about %.0f%% of the interval's width", 100*x)
	}
	d := Decimals(o.Lo[k2], o.Hi[k2])
	// the width of the bounds as written, so that it is their difference
	p := math.Pow(10, float64(d))
	shown := math.Round(o.Hi[k2]*p)/p - math.Round(o.Lo[k2]*p)/p
	out := []string{fmt.Sprintf("The 80%% interval at %s classes is %.*f wide (%.*f to %.*f). These are the parts it is made of. "+
		"How much of the width each part takes was learned on test pilots whose true accuracy is known: a part is scaled up when it went with large errors there, and down when it said little about them, "+
		"so a part's share need not follow the size written beside it.",
		limits.Thousands(k2), d, shown, d, o.Lo[k2], d, o.Hi[k2])}
	if k2 > r.K1 && !ft.BKnown {
		out[0] += " How your pilot's answer moves over random halves of its classes could not be measured (a pilot read as per-point summaries, from a large file, embeddings or a summary, keeps no classes to draw; one of fewer than 6 classes has too few), so this interval comes from the calibration made without that measurement."
	}
	if o.Spanned {
		widened := "widened to take in all of them"
		if sh := o.SpanShare; sh > 0 && sh != 1 {
			widened = fmt.Sprintf("widened towards all of them: %.0f%% of the way (on the log-odds scale) to the lowest and the highest, as far as it took to hold the true accuracy on 80%% of test pilots with as few errors", 100*sh)
		}
		out[0] += " Your pilot has too few errors for the test pilots to say which method's prediction holds, so the interval is " + widened + "; the parts below are those of the interval before that widening."
	}
	if cal := r.Table.Calibration; o.Floored {
		out[0] += fmt.Sprintf(" You ask about more classes than the test pilots' worlds held (%s), so beyond %s classes the interval is widened to at least the error the largest test pilots showed per step of extrapolation; the parts below are those of the interval before that widening.",
			limits.Thousands(cal.Population), limits.Thousands(max(cal.Population, r.K1)))
	}
	se, at := math.NaN(), min(k2, r.K1) // the class-sampling error where the pilot is measured
	if at <= r.ClassSE.Max() {
		se = r.ClassSE[at]
	}
	grown := ""
	switch {
	case k2 > r.K1 && ft.BKnown:
		// the half-sampling spread in accuracy units at the estimate; where
		// that writes as ±0.000 (an estimate next to 0 or 1), on the
		// log-odds scale, which B is measured on, so that a part of the width
		// is not given a size of nothing
		e := o.Estimate[k2]
		half := ft.B * e * (1 - e)
		spread := fmt.Sprintf("about ±%.3f", half)
		if half < 0.0005 {
			spread = fmt.Sprintf("less than ±0.001 in accuracy, as the estimate there (%.4f) is so close to %d, but by about ±%.2f on the log-odds scale the interval is built on",
				e, int(math.Round(e)), ft.B)
		}
		// "it grows" only when the spread is larger than the standard error
		// just given (not on a pilot of a few classes, whose halves hold
		// only a handful of them).
		lead := "carried out to " + limits.Thousands(k2) + " classes it grows: fitted"
		at := " at " + limits.Thousands(k2) + " classes"
		if half < se && half >= 0.0005 {
			lead, at = "at "+limits.Thousands(k2)+" classes, fitted", ""
		}
		grown = "; " + lead + " on random halves of your pilot's classes, the pooled and the tail method's answers" + at + " spread by " + spread
	case k2 > r.K1 && sh.ClassSample >= 0.005:
		grown = "; carried out to " + limits.Thousands(k2) + " classes, this uncertainty grows"
	}
	size := fmt.Sprintf("about ±%.3f (one standard error)", se)
	if se < 0.0005 {
		size = "less than ±0.001 (one standard error)"
	}
	obs := s.Results.Observed
	switch {
	case at <= obs.Max() && (obs[at] >= 0.9995 || obs[at] <= 0.0005):
		// An error of about 0 that still takes a share of the width reads
		// as a contradiction: the pilot cannot show this error at all.
		which := "every test point right"
		if obs[at] <= 0.0005 {
			which = "no test point right"
		}
		out = append(out, fmt.Sprintf("Your pilot's %s classes are a sample of all possible ones, and at k = %s it gets %s, so it cannot show how much its accuracy would change with other classes; the interval keeps room for that anyway%s%s.",
			limits.Thousands(r.K1), limits.Thousands(at), which, grown, share(sh.ClassSample)))
	default:
		if sh.ClassSample >= 0.2 && at <= obs.Max() && (obs[at] > 0.99 || obs[at] < 0.01) {
			// A small error that takes much of the width reads as a
			// contradiction unless it is said why.
			size += fmt.Sprintf(", small because its accuracy there (%.4f) is so close to %d, from where errors grow fast", obs[at], int(math.Round(obs[at])))
		}
		out = append(out, fmt.Sprintf("Your pilot's %s classes are a sample of all possible ones: with other classes, its accuracy at k = %s would differ by %s%s%s.",
			limits.Thousands(r.K1), limits.Thousands(at), size, grown, share(sh.ClassSample)))
	}
	var says []string
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, m := range recommend.Methods() {
		if c := r.Curves[m]; c != nil && k2 <= c.Max() {
			says = append(says, fmt.Sprintf("%s %.*f", BoxLabel(m), d+1, c[k2]))
			lo, hi = math.Min(lo, c[k2]), math.Max(hi, c[k2])
		}
	}
	if len(says) > 1 {
		small := ""
		switch {
		case hi-lo > width/2 && o.Spanned && k2 > r.K1:
			// the introduction said how far the interval reaches
			// towards them
			small = "; the interval reaches only part of the way towards them, as said above"
		case hi-lo > width/2:
			// A disagreement wider than the interval reads as a
			// contradiction unless it is said why.
			small = "; the interval need not span the methods: on the test pilots, the gap between the methods told only part of the actual error"
		}
		out = append(out, fmt.Sprintf("The methods disagree by %.*f at %s classes (%s)%s%s.", d+1, hi-lo, limits.Thousands(k2), strings.Join(says, ", "), share(sh.Disagreement), small))
	} else {
		out = append(out, "Only one method could be used, so their disagreement could not be measured.")
	}
	if n := len(r.CleaneXAtK2); n > 1 {
		lo, hi := fmt.Sprintf("%.*f", d+1, slices.Min(r.CleaneXAtK2)), fmt.Sprintf("%.*f", d+1, slices.Max(r.CleaneXAtK2))
		if lo == hi {
			out = append(out, fmt.Sprintf("CleaneX's %d fits all give %s at %s classes%s.", n, lo, limits.Thousands(k2), share(sh.SeedSpread)))
		} else {
			sdv := stat.StdDev(r.CleaneXAtK2, nil)
			sd := fmt.Sprintf("standard deviation %.3f", sdv)
			if sdv < 0.0005 {
				sd = "standard deviation less than 0.001"
			}
			out = append(out, fmt.Sprintf("CleaneX's %d fits give %s to %s at %s classes (%s)%s.",
				n, lo, hi, limits.Thousands(k2), sd, share(sh.SeedSpread)))
		}
	}
	if k2 > r.K1 {
		unshared := ""
		if ft.U > 0 {
			unshared = fmt.Sprintf(", and your pilot's points do not share one shape of their highest wrong-class scores (tail spread %.2f), which makes every method's extrapolation less sure", o.TailSpread)
		}
		out = append(out, fmt.Sprintf("You extrapolate %s beyond your pilot (%s classes to %s)%s%s.",
			Ratio(float64(k2)/float64(r.K1)), limits.Thousands(r.K1), limits.Thousands(k2), unshared, share(sh.Extrapolation)))
	} else if obs := s.Results.Observed; obs != nil && k2 <= obs.Max() {
		out = append(out, fmt.Sprintf("%s classes is within your pilot's %s: its accuracy there is measured directly (%.4f), not extrapolated; the interval is how much it would change with other classes in the pilot.",
			limits.Thousands(k2), limits.Thousands(r.K1), obs[k2]))
	}
	if sh.Floor >= 0.005 {
		out = append(out, fmt.Sprintf("A floor that every estimate has, whatever the data%s.", share(sh.Floor)))
	}
	return out
}

// TrendShare is the share of the pilot's trend in the estimate
// (recommend.TrendWeight) as a percentage, for the page's explanation.
func (s *State) TrendShare() string { return fmt.Sprintf("%.0f%%", 100*recommend.TrendWeight) }

// CalibrationBank says what the embedded calibration table
// (recommend.DefaultTable) was measured on, for the page's explanation:
// "N pilots of F families".
func CalibrationBank() string {
	t, err := recommend.DefaultTable()
	if err != nil || len(t.Families) == 0 {
		return "a bank of pilots"
	}
	return limits.Count(t.Pilots, "pilot", "pilots") + " of " + limits.Count(len(t.Families), "family", "families")
}

// WhyCheck says how the interval was checked (recommend.Table.Families):
// the range of coverage over the families and the overall coverage,
// weighted by their pilots.
func (s *State) WhyCheck() string {
	r := s.Rec
	if r == nil {
		return ""
	}
	if r.TableErr != nil || len(r.Table.Families) == 0 {
		return "This build's calibration table has no coverage check yet, so the interval's 80% is not verified."
	}
	span := func(get func(recommend.FamilyCheck) float64) string {
		lo, hi, pilots, sum := math.Inf(1), math.Inf(-1), 0, 0.0
		for _, f := range r.Table.Families {
			lo, hi = math.Min(lo, get(f)), math.Max(hi, get(f))
			pilots += f.Pilots
			sum += float64(f.Pilots) * get(f)
		}
		cov := fmt.Sprintf("%.0f–%.0f%%", 100*lo, 100*hi)
		if math.Round(100*lo) == math.Round(100*hi) {
			cov = fmt.Sprintf("%.0f%%", 100*lo)
		}
		return fmt.Sprintf("%s of the time (%.0f%% over all %s)", cov, 100*sum/float64(max(pilots, 1)), limits.Count(pilots, "pilot", "pilots"))
	}
	line := fmt.Sprintf("How the interval was checked: on %s of test pilots whose true accuracy is known, each with the interval calibrated on the other families only, 80%% intervals contained the truth %s across all k, and %s at the largest k — so read it as a guide, not a guarantee.",
		limits.Count(len(r.Table.Families), "family", "families"),
		span(func(f recommend.FamilyCheck) float64 { return f.CoverageAllK }),
		span(func(f recommend.FamilyCheck) float64 { return f.CoverageAtK }))
	return line + lowestFamily(r.Table.Families)
}

// lowestFamily says, when the family whose interval held the truth at the
// largest k least often is under LowFamilyCoverage, which family it is and
// on which side of the interval most of its misses lay; else "".
func lowestFamily(fams []recommend.FamilyCheck) string {
	if len(fams) == 0 {
		return ""
	}
	low := fams[0]
	for _, f := range fams[1:] {
		if f.CoverageAtK < low.CoverageAtK {
			low = f
		}
	}
	if low.CoverageAtK >= LowFamilyCoverage {
		return ""
	}
	words, why := familyWords(low.Family)
	s := fmt.Sprintf(" It held least often (%.0f%% at the largest k) on %s", 100*low.CoverageAtK, words)
	switch misses := low.Below + low.Above; {
	case misses > 0 && low.Below >= 3*low.Above:
		s += fmt.Sprintf(", where %d of its %d misses lay below the interval: the estimate expected more accuracy than those classes gave", low.Below, misses)
	case misses > 0 && low.Above >= 3*low.Below:
		s += fmt.Sprintf(", where %d of its %d misses lay above the interval: the estimate expected less accuracy than those classes gave", low.Above, misses)
	}
	s += "."
	if why != "" {
		s += " " + why
	}
	return s
}

// LowFamilyCoverage is the share of a family's pilots under which the "why"
// panel names the family whose interval held the truth least often: the
// issue's lowest acceptable coverage per family.
const LowFamilyCoverage = 0.72

// familyWords names a calibration bank family (internal/bank) in words, and
// says what sets it apart where that was measured (docs/recommendation.md);
// an unknown name is returned as it is.
func familyWords(name string) (words, apart string) {
	switch name {
	case "sim-d3", "sim-d5", "sim-d10":
		return "the paper's simulation in " + strings.TrimPrefix(name, "sim-d") + " dimensions", ""
	case "real-glyphs":
		return "characters of 42 scripts rendered by different fonts", ""
	case "real-misspellings":
		return "English words told from their misspellings", ""
	case "real-verses":
		return "passages of the Bible told apart by their verses' words",
			"There a passage competes hardest with the other passages of its own book, of which a pilot holds only one to three, and every method over-predicted."
	case "real-senses":
		return "word senses told apart by their example sentences",
			"There a sense has only 2.6 test sentences on average, the senses of one word compete for its examples, and the estimate over-predicted more often than it under-predicted."
	case "real-speech":
		return "English words told apart by synthesized voices", ""
	}
	return name, ""
}

// BoxMethod is one box of the error box plot: a method's or the
// recommended curve's name and its short label.
type BoxMethod struct{ Name, Label string }

// BoxMethods returns the boxes of the error box plot, in order: every
// registered method with its short label (methods.Method.Label), then the
// recommended curve.
func BoxMethods() []BoxMethod {
	out := make([]BoxMethod, 0, len(methods.All)+1)
	for _, m := range methods.All {
		out = append(out, BoxMethod{m.Name, m.Label})
	}
	return append(out, BoxMethod{"estimate", "recommended"})
}

// BoxLabel returns a method's short label (BoxMethods), or its name.
func BoxLabel(name string) string {
	if m, ok := methods.Get(name); ok {
		return m.Label
	}
	if name == "estimate" {
		return "recommended"
	}
	return name
}

// Evidence returns the benchmark bank's error spreads at the extrapolation
// ratio nearest to this run's k2 / k1, if the table has them.
func (s *State) Evidence() (recommend.RatioErrors, bool) {
	r := s.Rec
	if r == nil || r.TableErr != nil || r.K1 < 1 {
		return recommend.RatioErrors{}, false
	}
	e, ok := r.Table.NearestErrors(float64(r.K2) / float64(r.K1))
	return e, ok && len(e.Methods) > 0
}

// HasEvidence reports whether the error box plot can be drawn.
func (s *State) HasEvidence() bool {
	_, ok := s.Evidence()
	return ok
}

// Boxes returns the error box plot's boxes (BoxMethods that the table
// has), coloured in theme th.
func (s *State) Boxes(th chart.Theme) []chart.Box {
	e, ok := s.Evidence()
	if !ok {
		return nil
	}
	var out []chart.Box
	for _, m := range BoxMethods() {
		for _, sp := range e.Methods {
			if sp.Method == m.Name {
				out = append(out, chart.Box{Name: m.Label, Color: th.Color(m.Name), Q: sp.Q, Bold: m.Name == "estimate"})
			}
		}
	}
	return out
}

// BoxCaption is the error box plot's caption, and its text for screen readers.
func (s *State) BoxCaption() string {
	e, ok := s.Evidence()
	if !ok {
		return "The benchmark's errors per method are not in this build's calibration table yet."
	}
	var meds []string
	for _, m := range BoxMethods() {
		for _, sp := range e.Methods {
			if sp.Method == m.Name {
				meds = append(meds, m.Label+" "+Signed(sp.Q[2]))
			}
		}
	}
	at := "predicting " + Ratio(e.Ratio) + " beyond the pilot"
	if e.Ratio <= 1 {
		at = "at the pilot's own number of classes"
	}
	if r := s.Rec; r != nil && r.K1 > 0 {
		switch yours := float64(r.K2) / float64(r.K1); {
		case yours <= 1 && e.Ratio > 1:
			at += " (your k2 lies within your pilot)"
		case yours > 1 && math.Abs(math.Log(yours/e.Ratio)) > 0.05:
			at += fmt.Sprintf(" (the test pilots' ratio nearest to your %s)", Ratio(yours))
		}
	}
	among := ""
	if r := s.Rec; r != nil && r.Table.Pilots > e.Pilots {
		among = fmt.Sprintf(" (of the %s test pilots, those whose classes reach this ratio)", limits.Thousands(r.Table.Pilots))
	}
	return fmt.Sprintf("On %s whose true accuracy is known%s, %s, each method's error (predicted minus true accuracy) was spread like this: the box holds the middle half of the pilots, the whiskers 80%% of them, and a box centred on the dashed zero line has no systematic error. Median errors: %s.",
		limits.Count(e.Pilots, "test pilot", "test pilots"), among, at, strings.Join(meds, ", "))
}

// Signed formats an error with its sign and three decimals, with a true
// minus sign and no sign on zero: "+0.285", "−0.012", "0.000".
func Signed(x float64) string {
	v := fmt.Sprintf("%.3f", math.Abs(x))
	switch {
	case v == "0.000":
		return v
	case x < 0:
		return "−" + v
	}
	return "+" + v
}

// Ratio formats an extrapolation ratio as "20×" (one decimal below 10).
func Ratio(x float64) string {
	if x < 10 {
		return strings.TrimSuffix(fmt.Sprintf("%.1f", x), ".0") + "×"
	}
	return limits.Thousands(int(math.Round(x))) + "×"
}
