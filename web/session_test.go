package web

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/report"
)

func TestSessionRoundTrip(t *testing.T) {
	st := NewState()
	st.Source, st.K2, st.Seed, st.Preset = "pilot.csv", 1234, 7, "fast"
	st.Methods[0].On = false
	sim := &protocol.SimConfig{Classes: "normal", Points: "uniform", D: 4, Sigma2: 0.3, R: 5, K1: 40, K2: 900, Seed: 3}
	b, err := NewSession(st, sim).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "label,") {
		t.Error("the session holds data")
	}
	s, err := ParseSession(b)
	if err != nil {
		t.Fatal(err)
	}
	st2 := NewState()
	s.Restore(st2)
	if st2.K2 != 1234 || st2.Seed != 7 || st2.Methods[0].On || !st2.Methods[1].On || st2.Sim != *sim {
		t.Errorf("restored %+v", st2)
	}
	// A file's session puts away the data set on the page and says how to
	// compute its answer again.
	st3 := NewState()
	st3.Source, st3.Summary, st3.Rec = "example", &protocol.Summary{K: 100}, &Recommendation{K2: 2000}
	st3.Results.K1 = 100
	file := Session{Version: SessionVersion, Source: "my-pilot.csv", K2: 600, Answer: "At 600 classes: 0.69 (80% interval 0.6–0.75).", Methods: st3.SelectedMethods(), Seed: 1, Preset: "fast"}
	file.Restore(st3)
	if st3.Summary != nil || st3.Rec != nil || st3.Results.K1 != 0 || st3.Source != "" || st3.K2 != 600 ||
		!strings.Contains(st3.Status, "Its saved answer: At 600 classes") || !strings.Contains(st3.Status, "Choose my-pilot.csv again") {
		t.Errorf("a file's session left summary %v, rec %v, results k1 %d, source %q, k2 %d, status %q", st3.Summary, st3.Rec, st3.Results.K1, st3.Source, st3.K2, st3.Status)
	}
	if _, err := ParseSession([]byte(`{"version":1,"k2":5,"methods":["evil"],"preset":"fast"}`)); err == nil || !strings.Contains(err.Error(), "the session's method") {
		t.Errorf("bad method: %v", err)
	}
	if _, err := ParseSession([]byte(`{"version":9}`)); err == nil {
		t.Error("version 9 accepted")
	}
}

// With results on screen, a session saves the settings of the run that made
// them, not settings changed since (a seed typed without a run, a k2 whose
// run was cancelled), and the page says that the settings changed.
func TestSessionSavesSettingsOfResults(t *testing.T) {
	st := NewState()
	st.Source, st.K2, st.Seed = "pilot.csv", 500, 1
	st.Results = report.Curves{K1: 50, K2: 500, Estimate: make(accuracy.Curve, 501)}
	st.Rec = &Recommendation{K2: 500}
	st.RanWith = Share{K2: 500, Methods: st.SelectedMethods(), Seed: 1, Preset: "fast"}
	if got := st.Stale(); got != "" {
		t.Errorf("settings as run: Stale = %q", got)
	}
	st.RanWith.Methods = slices.Clone(st.RanWith.Methods)
	slices.Reverse(st.RanWith.Methods) // as a run through the API may list them
	if got := st.Stale(); got != "" {
		t.Errorf("the same methods in another order: Stale = %q", got)
	}
	st.Seed, st.K2 = 5, 20000
	s := NewSession(st, nil)
	if s.K2 != 500 || s.Seed != 1 {
		t.Errorf("session k2 %d seed %d, want the run's 500 and 1", s.K2, s.Seed)
	}
	if got := st.Stale(); !strings.HasPrefix(got, "You changed k2 and the seed since these results: press Run") {
		t.Errorf("Stale = %q", got)
	}
	st.Running = true
	if got := st.Stale(); got != "" {
		t.Errorf("while running: Stale = %q", got)
	}
}

// A file's session with saved curves shows them and its answer until the
// file is chosen again; saved again, it gives the same session.
func TestFileSessionShowsSavedCurves(t *testing.T) {
	st := NewState()
	st.Source, st.Summary = "pilot.csv", &protocol.Summary{K: 3}
	st.Results = report.Curves{K1: 3, K2: 6, Observed: accuracy.Curve{1, 1, 0.9, 0.8},
		Estimate:   accuracy.Curve{1, 1, 0.9, 0.8, 0.72, 0.66, 0.61},
		EstimateLo: accuracy.Curve{1, 1, 0.85, 0.75, 0.6, 0.5, 0.45},
		EstimateHi: accuracy.Curve{1, 1, 0.95, 0.85, 0.8, 0.75, 0.7},
		Methods:    []report.Method{{Name: "plugin", Curve: accuracy.Curve{1, 1, 0.9, 0.8, 0.75, 0.7, 0.67}}}}
	st.Rec = &Recommendation{K2: 6}
	st.RanWith = Share{K2: 6, Methods: []string{"plugin", "kde", "regression", "cleanex"}, Seed: 3, Preset: "fast"}
	saved := NewSession(st, nil)
	saved.Answer = "At 6 classes: 0.66 (80% interval 0.50–0.75)." // Headline needs a full Recommendation
	s := roundTrip(t, saved)
	page := NewState()
	page.Source, page.Summary, page.Rec = "example", &protocol.Summary{K: 100}, &Recommendation{K2: 2000}
	s.Restore(page)
	if page.Summary != nil || page.Rec != nil || page.Source != "" {
		t.Errorf("the example's data stayed: summary %v, rec %v, source %q", page.Summary, page.Rec, page.Source)
	}
	if got := page.Headline(); got != saved.Answer {
		t.Errorf("Headline = %q, want the saved %q", got, saved.Answer)
	}
	if !page.HasResults() || page.Results.K1 != 3 || page.Results.K2 != 6 || !slices.Equal(page.Results.EstimateHi, st.Results.EstimateHi) {
		t.Errorf("the saved curves were not restored: %+v", page.Results)
	}
	if !strings.Contains(page.Status, "Shown: its saved answer and curves") || !strings.Contains(page.Status, "Choose pilot.csv again") {
		t.Errorf("status %q", page.Status)
	}
	if page.WhyShown() || page.Stale() != "" {
		t.Error("the why panel or the settings-changed line shows without a run")
	}
	again := NewSession(page, nil)
	if again.Source != "pilot.csv" || again.Answer != saved.Answer || again.Curves != saved.Curves || again.K2 != 6 || again.Seed != 3 {
		t.Errorf("saved again: %+v\nwant %+v", again, saved)
	}
	// Curves that cannot be read leave the answer in the status line.
	bad := saved
	bad.Curves = "k,observed,magic\n2,0.9,0.1\n"
	page2 := NewState()
	bad.Restore(page2)
	if page2.HasResults() || page2.Headline() != "" || !strings.Contains(page2.Status, "its saved curves could not be read") || !strings.Contains(page2.Status, "Its saved answer: At 6 classes") {
		t.Errorf("unreadable curves: results %v, headline %q, status %q", page2.HasResults(), page2.Headline(), page2.Status)
	}
}

// A file that is not a session, picked in "Open session…", is refused with
// a sentence naming it that says what it is not and what to do; a session
// cut short or damaged says so, with the byte where.
func TestOpenSessionFailed(t *testing.T) {
	good, err := NewSession(NewState(), &protocol.SimConfig{Classes: "normal", Points: "normal", D: 5, Sigma2: 0.1, R: 10, K1: 100, K2: 2000, Seed: 1}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"pilot.csv", []byte("label,a,b\na,1,2\n"), `Could not open pilot.csv as a session: it is not a session saved by this page (a JSON file that "Save session" writes); to analyse a file of scores, drop it on the page or use "Choose a file…".`},
		{"empty.json", nil, `Could not open empty.json as a session: it is not a session saved by this page`},
		{"cut.json", good[:len(good)/2], "Could not open cut.json as a session: its JSON breaks off before its end (the file was cut short); save the session again."},
		{"bad.json", []byte(`{"version": 1, "k2": 20 00}`), "Could not open bad.json as a session: its JSON is damaged at byte 25 ("},
		{"list.json", []byte(`{"version": "one"}`), "Could not open list.json as a session: it is not a session saved by this page"},
	} {
		_, err := ParseSession(tc.b)
		if err == nil {
			t.Errorf("%s: opened as a session", tc.name)
			continue
		}
		if got := OpenSessionFailed(tc.name, err); !strings.HasPrefix(got, tc.want) || strings.Contains(got, "looking for beginning") {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A session keeps the warning that came with its answer: opened, a file's
// session shows it under the saved answer, as the run that made it did;
// another session opened afterwards shows its own.
func TestSessionKeepsWarning(t *testing.T) {
	st := finishedState(t)
	st.Source = "small-pilot.csv"
	st.RanWith = Share{K2: st.Rec.K2, Methods: st.SelectedMethods(), Seed: 1, Preset: "fast"}
	st.Rec.Outcome.Warnings = []string{"Your pilot has only 10 classes; the interval is likely too narrow."}
	warning, headline := st.Warning(), st.Headline()
	s := roundTrip(t, NewSession(st, nil))
	opened := NewState()
	s.Restore(opened)
	if opened.Headline() != headline || opened.Warning() != warning || opened.AnswerWarning() == "" {
		t.Errorf("the opened session shows %q with warning %q (answer bar adds %q); want %q with %q",
			opened.Headline(), opened.Warning(), opened.AnswerWarning(), headline, warning)
	}
	// Another session without a warning shows none.
	s.Warning = ""
	s.Restore(opened)
	if w := opened.Warning(); w != "" {
		t.Errorf("a session without a warning shows %q", w)
	}
}

// The image exported while an opened file session's saved results are
// shown names that session's file above the answer, as it names the data
// set of results computed on the page.
func TestExportTitleOfOpenedSession(t *testing.T) {
	st := finishedState(t)
	st.Source = "small-pilot.csv"
	st.RanWith = Share{K2: st.Rec.K2, Methods: st.SelectedMethods(), Seed: 1, Preset: "fast"}
	headline := st.Headline()
	s := NewSession(st, nil)
	s.Warning = ""
	opened := NewState()
	s.Restore(opened)
	if got, want := opened.ExportTitle(), "small-pilot.csv\n"+headline; got != want {
		t.Errorf("the opened session's image title is %q, want %q", got, want)
	}
}

// roundTrip returns the session s written as a file and read back.
func roundTrip(t *testing.T, s Session) Session {
	t.Helper()
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseSession(b)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// TestNoDataNamesTheSessionFile: Run refused for want of data says, while
// an opened file session's results are shown, that a session keeps no data
// and names the file to load; otherwise it asks for a file or a simulation.
func TestNoDataNamesTheSessionFile(t *testing.T) {
	if got := NewState().NoData(); got != "load a pilot's score file or simulate data first" {
		t.Errorf("no session: %q", got)
	}
	st := finishedState(t)
	st.Source = "pilot-2024.csv"
	st.RanWith = Share{K2: st.Rec.K2, Methods: st.SelectedMethods(), Seed: 1, Preset: "fast"}
	opened := NewState()
	roundTrip(t, NewSession(st, nil)).Restore(opened)
	if got := opened.NoData(); !strings.Contains(got, "a session keeps its results, not its data") || !strings.Contains(got, "pilot-2024.csv") {
		t.Errorf("opened file session: %q", got)
	}
}

// TestSessionKeepsFailedAndSkipped: the methods of the results without a
// curve (failed or skipped, with why) are saved, and an opened file session
// shows them as the run did.
func TestSessionKeepsFailedAndSkipped(t *testing.T) {
	st := finishedState(t)
	st.Source = "two-classes.csv"
	st.RanWith = Share{K2: st.Rec.K2, Methods: st.SelectedMethods(), Seed: 1, Preset: "fast"}
	st.Failed = map[string]string{"regression": "its curve misses the pilot's accuracy"}
	st.Skipped = map[string]string{"kde": "it needs 3 classes"}
	opened := NewState()
	roundTrip(t, NewSession(st, nil)).Restore(opened)
	if !maps.Equal(opened.Failed, st.Failed) || !maps.Equal(opened.Skipped, st.Skipped) {
		t.Errorf("opened session: failed %v, skipped %v; want %v, %v", opened.Failed, opened.Skipped, st.Failed, st.Skipped)
	}
	// and its table has their rows
	rows := map[string]string{}
	for _, r := range opened.Rows() {
		rows[r.Name] = r.Failed
	}
	if rows["regression"] != "failed: its curve misses the pilot's accuracy" || rows["kde"] != "skipped: it needs 3 classes" {
		t.Errorf("opened session's table: %v", rows)
	}
	// a session without them restores none
	st.Failed, st.Skipped = nil, nil
	opened = NewState()
	roundTrip(t, NewSession(st, nil)).Restore(opened)
	if len(opened.Failed) != 0 || len(opened.Skipped) != 0 {
		t.Errorf("opened session: failed %v, skipped %v; want none", opened.Failed, opened.Skipped)
	}
}
