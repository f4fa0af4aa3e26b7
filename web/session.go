package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cleanex/cleanex/internal/protocol"
	"github.com/cleanex/cleanex/internal/report"
)

// SessionVersion is the version of the session file format.
const SessionVersion = 1

// Session is what "Save session" writes: the run settings, the simulation
// when the data is one, and the results (the answer and the curves CSV).
// It never holds the user's data.
type Session struct {
	Version   int                 `json:"version"`
	Source    string              `json:"source"`
	Direction string              `json:"direction"`
	K2        int                 `json:"k2"`
	Methods   []string            `json:"methods"`
	Seed      uint64              `json:"seed"`
	Preset    string              `json:"preset"`
	Sim       *protocol.SimConfig `json:"simulation,omitempty"`
	// Answer is the headline; Warning the warning shown under it ("" when
	// none); Curves the curves CSV (docs/formats.md §3).
	Answer  string `json:"answer"`
	Warning string `json:"warning,omitempty"`
	Curves  string `json:"curves_csv"`
	// Failed and Skipped map each method of the results that has no curve
	// to why (State.Failed, State.Skipped), so an opened session's table
	// shows them as the run did.
	Failed  map[string]string `json:"failed,omitempty"`
	Skipped map[string]string `json:"skipped,omitempty"`
}

// NewSession returns the session of the page's state; sim is the current
// data set's simulation (nil for a file). With results on screen, its run
// settings are theirs (State.RanWith).
func NewSession(s *State, sim *protocol.SimConfig) Session {
	out := Session{Version: SessionVersion, Source: s.ShownSource(), Direction: s.Direction, K2: s.K2,
		Methods: s.SelectedMethods(), Seed: s.Seed, Preset: s.Preset, Answer: s.Headline(), Warning: s.Warning()}
	if r := s.RanWith; r.K2 >= 2 && s.HasResults() {
		// the settings of the results saved, not ones changed since
		out.K2, out.Methods, out.Seed, out.Preset = r.K2, slices.Clone(r.Methods), r.Seed, r.Preset
	}
	if sim != nil {
		c := *sim
		out.Sim = &c
	}
	if s.HasResults() {
		var b bytes.Buffer
		if err := s.Results.WriteCSV(&b); err == nil {
			out.Curves = b.String()
		}
		out.Failed, out.Skipped = maps.Clone(s.Failed), maps.Clone(s.Skipped)
	}
	return out
}

// Marshal encodes the session as indented JSON.
func (s Session) Marshal() ([]byte, error) { return json.MarshalIndent(s, "", "  ") }

// notSession is ParseSession's error for a file that is not a session.
const notSession = `it is not a session saved by this page (a JSON file that "Save session" writes); to analyse a file of scores, drop it on the page or use "Choose a file…"`

// ParseSession reads a session file, checking its version and settings. Its
// errors say what to do: a file that is not JSON (a score file picked by
// mistake) is not a session; JSON that breaks off or is damaged names the
// byte where.
func ParseSession(b []byte) (Session, error) {
	var s Session
	if t := bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\uFEFF")), " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return Session{}, errors.New(notSession)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		var syn *json.SyntaxError
		switch {
		case errors.As(err, &syn) && syn.Offset >= int64(len(b)):
			return Session{}, errors.New("its JSON breaks off before its end (the file was cut short); save the session again")
		case errors.As(err, &syn):
			return Session{}, fmt.Errorf("its JSON is damaged at byte %d (%v); save the session again", syn.Offset, err)
		}
		return Session{}, fmt.Errorf("%s (%v)", notSession, err)
	}
	if s.Version != SessionVersion {
		return Session{}, fmt.Errorf("session version %d: this page reads version %d", s.Version, SessionVersion)
	}
	sh := Share{K2: s.K2, Methods: s.Methods, Seed: s.Seed, Preset: s.Preset}
	if s.Sim != nil {
		sh.Sim = *s.Sim
	} else {
		sh.Sim = protocol.SimConfig{Classes: "normal", Points: "normal", D: 1, Sigma2: 1, R: 1, K1: 2, K2: 2}
	}
	// The same checks as a link's.
	if _, err := DecodeShare(sh.Encode()); err != nil {
		if rest, ok := strings.CutPrefix(err.Error(), "the link's"); ok {
			err = errors.New("the session's" + rest)
		}
		return Session{}, err
	}
	return s, nil
}

// OpenSessionFailed is the page's message for a session file called name
// that could not be read or opened (err: ParseSession's, or the read's).
func OpenSessionFailed(name string, err error) string {
	if name == "" {
		name = "the file"
	}
	return "Could not open " + name + " as a session: " + strings.TrimSuffix(err.Error(), ".") + "."
}

// Restore puts the session's settings into the page's state; a session of
// a file also puts away the data set on the page (its summary and results)
// and shows the session's saved answer and curves (report.ReadCSV), with
// how to compute them again.
func (s Session) Restore(st *State) {
	sh := Share{Sim: st.Sim, K2: s.K2, Methods: s.Methods, Seed: s.Seed, Preset: s.Preset}
	if s.Sim != nil {
		sh.Sim = *s.Sim
	}
	st.Apply(sh)
	if s.Direction != "" {
		st.Direction = s.Direction
	}
	st.Error = ""
	st.SavedAnswer, st.SavedWarning, st.SavedSource = "", "", ""
	if s.Sim != nil {
		return
	}
	// The data on the page is not the session's: it is put away, so that no
	// answer about it is shown under the session's settings, and the
	// session's saved answer and curves are shown instead.
	st.Summary, st.Rec, st.Results, st.Progress, st.RanWith = nil, nil, report.Curves{}, nil, Share{}
	st.Failed, st.Skipped = nil, nil
	st.Source, st.SavedSource = "", s.Source
	again := " Choose " + s.Source + " again to compute them with these settings and see why."
	if s.Curves == "" {
		st.Status = "Session opened: " + s.Source + ". Its saved answer: " + s.Answer + " Choose " + s.Source + " again to compute it with these settings."
		return
	}
	c, err := report.ReadCSV(strings.NewReader(s.Curves))
	if err != nil {
		st.Status = "Session opened: " + s.Source + ". Its saved answer: " + s.Answer + " (its saved curves could not be read: " + err.Error() + ")." + again
		return
	}
	st.Results, st.SavedAnswer, st.SavedWarning = c, s.Answer, s.Warning
	st.Failed, st.Skipped = maps.Clone(s.Failed), maps.Clone(s.Skipped)
	st.RanWith = Share{K2: s.K2, Methods: slices.Clone(s.Methods), Seed: s.Seed, Preset: s.Preset}
	st.Status = "Session opened: " + s.Source + ". Shown: its saved answer and curves, computed when it was saved." + again
}
