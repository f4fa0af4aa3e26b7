// Package web holds the app's Vugu components. They are thin: they show a
// State and forward the user's actions to a Backend (wasm/app), which owns
// the workers and does every computation off the page thread.
package web

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/limits"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/report"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/vugu/vugu"
)

// Backend carries out what the user asks for. Its methods return at once;
// the work runs on goroutines and updates the State under the event lock.
type Backend interface {
	// LoadFile reads the files chosen in the <input type=file> of the
	// event: one pilot file, or the two .npy files of one pilot.
	LoadFile(event vugu.DOMEvent)
	// LoadExample loads the bundled example CSV.
	LoadExample()
	// LoadEmbeddingsExample makes the embeddings example of the State's
	// simulation form in the page (EmbeddingsExample) and loads it as if
	// it had been dropped.
	LoadEmbeddingsExample()
	// Reload loads the current file again (its bytes or the File, kept)
	// under the State's Direction, and for embeddings its Metric and
	// Reference.
	Reload()
	// Simulate generates the State's simulation form.
	Simulate()
	// Run fits the selected methods with the State's settings.
	Run()
	// Cancel stops the running fits.
	Cancel()
	// ExportCSV downloads the curves CSV; ExportPNG the accuracy chart.
	ExportCSV()
	ExportPNG()
	// Redraw asks for the charts to be drawn again (after a toggle).
	Redraw()
	// Slide simulates the State's simulation form again after a slider
	// moved: the observed curve and the plug-in at once, every method after
	// a short pause without further moves.
	Slide()
	// CopyLink copies the link to the current simulation and settings.
	CopyLink()
	// SaveSession downloads the settings and results as a JSON file;
	// OpenSession restores one chosen in the <input type=file> of the event.
	SaveSession()
	OpenSession(event vugu.DOMEvent)
}

// MethodChoice is one method's checkbox.
type MethodChoice struct {
	// Name is the registry name, Label what the page shows.
	Name, Label string
	// Note says in one line what the method assumes and when it fails.
	Note string
	// On is whether it runs.
	On bool
}

// MethodProgress is one method's progress bar.
type MethodProgress struct {
	// Name is the method.
	Name string
	// Step out of Total; Total 0 means not started.
	Step, Total int
	// Text is the line under the bar (loss, ETA, time, error).
	Text string
	// Done and Failed mark the end; Skipped marks a method that did not
	// run because it cannot run on the pilot (Text says why).
	Done, Failed, Skipped bool
}

// Percent returns the bar's value in 0..100.
func (p MethodProgress) Percent() int {
	if p.Done {
		return 100
	}
	if p.Total <= 0 {
		return 0
	}
	return int(math.Round(100 * float64(p.Step) / float64(p.Total)))
}

// State is everything the page shows.
type State struct {
	// Busy says what is loading ("" when idle); Error is the last error.
	Busy, Error string
	// Bank says what the interval's calibration was measured on
	// (CalibrationBank).
	Bank string
	// Source names the data set ("example.csv", "simulation ...").
	Source string
	// Summary describes the data set (nil before the first one).
	Summary *protocol.Summary
	// Direction is the direction setting: auto, higher or lower.
	Direction string
	// Metric and Reference are the scoring settings of a pilot given as
	// embeddings (protocol.Embedding's words; "" for the file's default).
	Metric, Reference string
	// K2, Preset and Seed are the run settings.
	K2 int
	// K2Err, when not "", is why the k2 last typed was refused (K2 keeps
	// the previous value, and Run shows K2Err instead of running). K2Text
	// is what the k2 box holds while it differs from K2: the refused text,
	// left for the user to correct, or text being typed (K2Typing) that
	// Enter, leaving the box or Run will read.
	K2Err    string
	K2Text   string
	K2Typing bool
	Preset   string
	Seed     uint64
	// Methods are the method checkboxes.
	Methods []MethodChoice
	// Sim is the simulation form.
	Sim protocol.SimConfig
	// Running is true while methods are fitting; Progress holds their bars.
	Running bool
	// Previewing is true while a slider's preview of a simulation is on
	// screen (its observed curve and plug-in), the full run to follow.
	Previewing bool
	Progress   []MethodProgress
	// Status is the line under the Run button.
	Status string
	// ActionNote is the line under the export and share buttons: what the
	// last of them did ("Link copied…"), until the next run. SetNote and
	// EndNote write it.
	ActionNote string
	// noteSeq counts the notes begun or set (BeginNote, SetNote).
	noteSeq int
	// TruthPending is whether the data set is a simulation whose truth curve
	// is still being computed (it comes after the pilot: web.SlowTruth).
	TruthPending bool
	// TruthDone is the share of the truth curve's computation done (0 until
	// its worker reports).
	TruthDone float64
	// Results holds the curves drawn and tabulated (empty K2 before any run).
	Results report.Curves
	// Failed maps each selected method without a curve to why (its error,
	// or the check against the pilot it failed).
	Failed map[string]string
	// Skipped maps each selected method that did not run, because it cannot
	// run on this pilot, to why.
	Skipped map[string]string
	// Rec is the last finished run's recommendation and its evidence (nil
	// before one, and while a run is under way).
	Rec *Recommendation
	// CancelledEarly is whether the last run on the data set was cancelled
	// before its recommendation, with no earlier results to show again:
	// the headline then says there is no answer (CancelledHeadline).
	CancelledEarly bool
	// SavedSource is the file name of an opened session of a file, until a
	// data set is loaded ("" otherwise): that file, chosen next, runs at the
	// session's k2. SavedAnswer is the session's answer while its saved
	// curves are shown; Headline gives it when there is no recommendation.
	// SavedWarning is the warning saved with that answer, which Warning
	// gives then.
	SavedAnswer, SavedWarning, SavedSource string
	// RanWith holds the run settings (k2, methods, seed, preset) of the
	// results on screen; its K2 is 0 when no run has finished on the data
	// set. Sessions save these, and Stale compares them with the page's.
	RanWith Share
	// WhyOpen is whether the "Why this answer" panel is open.
	WhyOpen bool
	// LogX selects a logarithmic k axis on the accuracy chart; LogU a
	// logarithmic u axis on the reversed ROC chart (both on at first: on a
	// linear u axis the curves of a good classifier hug u = 0).
	LogX, LogU bool
	// Presentation selects large type and thick lines (for a lecture hall).
	Presentation bool
	// Link is the address that reproduces the current simulation and run
	// settings ("" when the data did not come from a simulation).
	Link string
	// Hover is the hover readout of the accuracy chart.
	Hover string
}

// NewState returns the initial state: every registered method (in the
// registry's order, labelled with its Title), CleaneX fast, the paper's
// simulation setting.
func NewState() *State {
	choices := make([]MethodChoice, len(methods.All))
	for i, m := range methods.All {
		choices[i] = MethodChoice{Name: m.Name, Label: m.Title, Note: m.Note, On: true}
	}
	return &State{
		Direction: "auto",
		Preset:    "fast",
		Seed:      1,
		LogX:      true,
		LogU:      true,
		WhyOpen:   true,
		Methods:   choices,
		Sim:       protocol.SimConfig{Classes: "normal", Points: "normal", D: 5, Sigma2: 0.1, R: 10, K1: 100, K2: 2000, Seed: 1},
		Bank:      CalibrationBank(),
	}
}

// SetK2 stores k2 typed as text; one that limits.ParseK2 refuses sets K2Err
// to its message (shown beside the k2 box) and leaves K2 as it was.
func (s *State) SetK2(text string) {
	k2, err := limits.ParseK2("k2", text)
	if err != nil {
		s.K2Err, s.K2Text = err.Error(), text
		return
	}
	s.ShowK2(k2)
}

// TypeK2 keeps text being typed in the k2 box, so that the page, redrawn
// after every key, shows it rather than K2 until SetK2 reads it.
func (s *State) TypeK2(text string) {
	s.K2Text, s.K2Typing = text, true
}

// ShowK2 sets K2 and shows it in the k2 box, dropping any text typed or
// refused there.
func (s *State) ShowK2(k2 int) {
	s.K2, s.K2Err, s.K2Text, s.K2Typing = k2, "", "", false
}

// K2Value is what the k2 box shows: the text typed or refused while there is
// one (so the user can finish or correct it), nothing before there is data,
// else K2.
func (s *State) K2Value() string {
	switch {
	case s.K2Err != "" || s.K2Typing:
		return s.K2Text
	case s.K2 <= 0:
		return ""
	}
	return strconv.Itoa(s.K2)
}

// SelectedMethods returns the names of the checked methods.
func (s *State) SelectedMethods() []string {
	var out []string
	for _, m := range s.Methods {
		if m.On {
			out = append(out, m.Name)
		}
	}
	return out
}

// SummaryLine describes the data set in one sentence.
func (s *State) SummaryLine() string {
	m := s.Summary
	if m == nil {
		return ""
	}
	pts := strconv.Itoa(m.MinPoints)
	if m.MaxPoints != m.MinPoints {
		pts += "–" + strconv.Itoa(m.MaxPoints)
	}
	line := fmt.Sprintf("%s points, %s classes (%s per class); top-1 accuracy at %s classes: %.3f",
		limits.Thousands(m.N), limits.Thousands(m.K), pts, limits.Thousands(m.K), m.Top1)
	if sc := ScoringLine(m.Embedding, m.K); sc != "" {
		line += "; " + sc
	}
	return line
}

// IsEmbeddings reports whether the data set on screen was given as
// embeddings (its scoring can be chosen, its direction follows the metric).
func (s *State) IsEmbeddings() bool { return s.Summary != nil && s.Summary.Embedding.Metric != "" }

// DirectionLine says which score direction is used and what auto detected.
func (s *State) DirectionLine() string {
	m := s.Summary
	if m == nil {
		return ""
	}
	if s.IsEmbeddings() {
		word := map[string]string{"higher": "higher is better (similarities)", "lower": scores.LowerWords}
		return "Scores: " + word[m.Direction] + ", as the metric makes them. Score the embeddings by:"
	}
	word := map[string]string{"higher": scores.HigherWords, "lower": scores.LowerWords}
	line := "Scores: " + word[m.Direction]
	if s.Direction == "auto" {
		line += ", detected automatically."
	} else {
		line += ", as you set it"
		if m.Detected != m.Direction {
			line += " (auto would pick " + m.Detected + ")"
		}
		line += "."
		if m.Detected != m.Direction && len(m.Observed) > 2 && m.Observed[2] < recommend.ChanceAt2 {
			line += " Read this way, the true class beats a wrong one only " + limits.Percent(m.Observed[2]) + " of the time, less than a coin toss: this is probably the wrong direction."
		}
	}
	if n := m.ScoresNote; n != "" {
		line += " " + strings.ToUpper(n[:1]) + n[1:] + "."
	}
	return line
}

// SimDirection is the direction setting a simulation is read with: its
// scores are distances, which auto detects.
const SimDirection = "auto"

// RefuseSimDirection answers a direction chosen while a simulation is on
// screen: it says that the direction applies to score files only and puts
// the selector back on SimDirection, so that the line beside it does not
// call a refused setting the user's, and the next file is not read under it.
func (s *State) RefuseSimDirection() {
	s.Error = "The direction applies to your own score files; simulated scores are distances (lower is better)."
	s.Direction = SimDirection
}

// HoverHint is what the line under the accuracy chart says when it shows
// no readout (Hover) but there are results: how to get one. The page keeps
// it outside the line's live region, so that a screen reader announces
// each readout but not the hint again after every run.
func (s *State) HoverHint() string {
	if s.Hover == "" && s.HasResults() {
		return "Point at or tap the chart, or Tab to it and use the arrow keys, to read every curve at any k."
	}
	return ""
}

// Stale says, when a finished run's results are on screen and the page's
// run settings (k2, methods, seed, preset) have changed since, which ones
// and what to do; "" otherwise.
func (s *State) Stale() string {
	r := s.RanWith
	if s.Running || s.Rec == nil || r.K2 < 2 {
		return ""
	}
	var changed []string
	k2 := s.K2
	if s.K2Typing { // a k2 being typed counts as soon as it reads as one
		if v, err := limits.ParseK2("k2", s.K2Text); err == nil {
			k2 = v
		}
	}
	if k2 != r.K2 {
		changed = append(changed, "k2")
	}
	if a, b := slices.Sorted(slices.Values(s.SelectedMethods())), slices.Sorted(slices.Values(r.Methods)); !slices.Equal(a, b) {
		changed = append(changed, "the methods")
	}
	if s.Preset != r.Preset {
		changed = append(changed, "the preset")
	}
	if s.Seed != r.Seed {
		changed = append(changed, "the seed")
	}
	if len(changed) == 0 {
		return ""
	}
	return "You changed " + list(changed) + " since these results: press Run to update them (a saved session holds the settings of the results shown)."
}

// ShowRun puts run settings sh (k2, methods, seed, preset; not the
// simulation) into the page's controls, as a cancelled run puts back those
// of the results shown.
func (s *State) ShowRun(sh Share) {
	s.ShowK2(sh.K2)
	s.Seed, s.Preset = sh.Seed, sh.Preset
	for i := range s.Methods {
		s.Methods[i].On = slices.Contains(sh.Methods, s.Methods[i].Name)
	}
}

// SetMethod ticks or unticks method checkbox i; a "Not run" line about the
// settings before goes (NotRun).
func (s *State) SetMethod(i int, on bool) {
	s.Methods[i].On = on
	if strings.HasPrefix(s.Status, NotRun) {
		s.Status = ""
	}
}

// NotRun begins the status line of a Run the page refused.
const NotRun = "Not run: "

// NoData says why Run cannot start without a data set: with an opened
// session of a file on screen (SavedSource), that a session keeps results,
// not data, and which file to load to run again.
func (s *State) NoData() string {
	if s.Source == "" && s.SavedSource != "" {
		return fmt.Sprintf("a session keeps its results, not its data: to run again, load its file, %s (it runs at the session's k2), or simulate data", s.SavedSource)
	}
	return "load a pilot's score file or simulate data first"
}

// ShownSource is the name of the data whose results are shown: the data
// set's, or an opened session's file (SavedSource) while only its saved
// results are on the page.
func (s *State) ShownSource() string {
	if s.Source == "" {
		return s.SavedSource
	}
	return s.Source
}

// HasResults reports whether there is a table to show.
func (s *State) HasResults() bool {
	return len(s.Results.Methods) > 0 || s.Results.Estimate != nil || len(s.Failed) > 0 || len(s.Skipped) > 0
}

// Ks returns the table's k columns.
func (s *State) Ks() []int { return s.Results.Ks() }

// HasTruth reports whether the truth is known.
func (s *State) HasTruth() bool { return s.Results.Truth != nil }

// Cell formats a table value (blank for NaN).
func Cell(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// Secs formats a duration in seconds (blank for NaN).
func Secs(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 2, 64) + " s"
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " s"
}

// BarLabel names a progress bar: Label, except that the bar of a fit the
// recommendation always runs (recommend.Jobs: regression, pooled, tail, the fast
// CleaneX fits) says so when that method is not what the user chose to see
// (not checked, or for CleaneX the paper preset, which has its own bar).
func (s *State) BarLabel(name string) string {
	if name == "cleanex" && s.Preset == "paper" {
		return "CleaneX fast, for the recommendation"
	}
	if slices.Contains(recommend.Methods(), name) && !slices.Contains(s.SelectedMethods(), name) {
		return s.Label(name) + ", for the recommendation"
	}
	return s.Label(name)
}

// BarLabelParts splits BarLabel(name) into three parts: the method's short
// name (ShortLabel), its detail in brackets (LabelDetail, " (Kay et al.)"),
// which a phone leaves out as its results table does, and the rest
// (", for the recommendation"). The paper preset's bar and a bar whose
// label has no detail come whole in the first part.
func (s *State) BarLabelParts(name string) [3]string {
	label := s.BarLabel(name)
	short, detail := s.ShortLabel(name), s.LabelDetail(name)
	if name == PaperBar || detail == "" || !strings.HasPrefix(label, short+detail) {
		return [3]string{label, "", ""}
	}
	return [3]string{short, detail, label[len(short)+len(detail):]}
}

// ShortLabel returns Label without its detail in brackets ("tail" for
// "tail (peaks over threshold)"): the name a narrow screen's table shows.
func (s *State) ShortLabel(name string) string {
	short, _, _ := strings.Cut(s.Label(name), " (")
	return short
}

// LabelDetail returns what ShortLabel leaves out of Label, from the space
// before its bracket on (" (peaks over threshold)"), or "" when Label has no
// detail in brackets.
func (s *State) LabelDetail(name string) string {
	label := s.Label(name)
	return label[len(s.ShortLabel(name)):]
}

// Label returns a method's or curve's display name.
func (s *State) Label(name string) string {
	for _, m := range s.Methods {
		if m.Name == name {
			return m.Label
		}
	}
	switch name {
	case "estimate":
		return "recommended"
	case PaperBar:
		return "CleaneX (paper preset)"
	}
	return name
}

// fieldErrorPrefix begins every message about a form field whose text could
// not be read (SetInt, SetFloat, SetUint).
const fieldErrorPrefix = "Not changed: "

// SetInt reads text, typed in the form field called name, into *dst and
// reports whether it could. Text that is not a whole number leaves *dst as
// it was and says so in Error (what was typed, what the field keeps, what to
// type); a value read clears such a message and any SimError.
func (s *State) SetInt(name string, dst *int, text string) bool {
	return setField(s, name, dst, text, "a whole number", strconv.Atoi, strconv.Itoa)
}

// SetFloat is SetInt for a field that takes any (finite) number.
func (s *State) SetFloat(name string, dst *float64, text string) bool {
	parse := func(t string) (float64, error) {
		v, err := strconv.ParseFloat(t, 64)
		if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
			err = strconv.ErrSyntax
		}
		return v, err
	}
	return setField(s, name, dst, text, "a number", parse, func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) })
}

// SetUint is SetInt for a seed: a whole number from 0 to 2^64 - 1.
func (s *State) SetUint(name string, dst *uint64, text string) bool {
	parse := func(t string) (uint64, error) { return strconv.ParseUint(t, 10, 64) }
	return setField(s, name, dst, text, fmt.Sprintf("a whole number from 0 to %d", uint64(math.MaxUint64)), parse, uintText)
}

// setField is SetInt, SetFloat and SetUint: parse reads text (trimmed), want
// names what it takes and show writes the value kept.
func setField[T any](s *State, name string, dst *T, text, want string, parse func(string) (T, error), show func(T) string) bool {
	v, err := parse(strings.TrimSpace(text))
	if err != nil {
		s.fieldError(name, text, want, show(*dst))
		return false
	}
	*dst = v
	s.fieldRead()
	return true
}

func (s *State) fieldError(name, text, want, kept string) {
	what := fmt.Sprintf("%q is not %s", text, want)
	if strings.TrimSpace(text) == "" {
		what = "the box is empty or holds no number" // a browser's number box gives "" for text it cannot read
	}
	s.Error = fmt.Sprintf("%s%s: %s, so it stays %s. Type %s there.", fieldErrorPrefix, name, what, kept, want)
}

// fieldRead clears a message about a field that could not be read, and any
// SimError (the settings it was about are being changed).
func (s *State) fieldRead() {
	if strings.HasPrefix(s.Error, fieldErrorPrefix) {
		s.Error = ""
	}
	s.ClearSimError()
}

// SetNote sets ActionNote to text for an action that is done at once.
func (s *State) SetNote(text string) {
	s.noteSeq++
	s.ActionNote = text
}

// BeginNote starts an action that ends later (an image made, a link copied)
// and returns its ticket for EndNote.
func (s *State) BeginNote() int {
	s.noteSeq++
	return s.noteSeq
}

// EndNote sets ActionNote to text for the action whose ticket is t, unless
// another action began or set a note since: the line then says what that
// later action did, not what an earlier one finished last.
func (s *State) EndNote(t int, text string) {
	if t == s.noteSeq {
		s.ActionNote = text
	}
}

// uintText is v in decimal: a seed's box shows it as text, since as a
// JavaScript number a seed above 2^53 would be rounded.
func uintText(v uint64) string { return strconv.FormatUint(v, 10) }
