package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/methods"
)

// methodIssues collects the methods a run skipped (they cannot run on this
// pilot) and those that failed, so the others' results are still written.
type methodIssues struct {
	skipped, failed, notes []string
}

// note records a remark about the run (how the scores were read, a warning
// about the estimate, a CleaneX seed left out of it): one line on stderr
// each when nothing failed, else the end of the error line; "" is no remark.
func (m *methodIssues) note(s string) {
	if s != "" {
		m.notes = append(m.notes, s)
	}
}

// noteScores records what the user should be told about how s's scores
// were read: class probabilities read as their logarithms, or nearly so
// (accuracy.Sample.ScoresNote), and many ties (accuracy.TiesNote).
func (m *methodIssues) noteScores(s *accuracy.Sample) {
	m.note(s.ScoresNote)
	m.note(accuracy.TiesNote(s.TiedShare()))
}

// skip records that method name did not run, and why.
func (m *methodIssues) skip(name string, why error) {
	m.skipped = append(m.skipped, fmt.Sprintf("skipped %s: %v", name, why))
}

// fail records that method name failed with err.
func (m *methodIssues) fail(name string, err error) {
	m.failed = append(m.failed, fmt.Sprintf("method %s failed: %v", name, oneLine(err.Error())))
}

// finish reports the issues once the results are written: with no failure,
// one line per skipped method and per note on stderr (prefixed
// "cleanex cmd: ") and nil; otherwise one error listing the failures, the
// skips and the notes, for exit status 1, so that the one error line still
// says how the scores were read and what the estimate's warnings are.
func (m *methodIssues) finish(cmd string, stderr io.Writer) error {
	if len(m.failed) == 0 {
		for _, s := range append(m.skipped, m.notes...) {
			fmt.Fprintf(stderr, "cleanex %s: %s\n", cmd, s)
		}
		return nil
	}
	return fmt.Errorf("%s; the other methods' results were written%s", strings.Join(append(m.failed, m.skipped...), "; "), m.alsoNotes())
}

// alsoNotes returns the notes as the end of an error line ("; also: ..."),
// or "" when there are none.
func (m *methodIssues) alsoNotes() string {
	if len(m.notes) == 0 {
		return ""
	}
	return "; also: " + strings.Join(m.notes, "; ")
}

// nothingRan is the error when every chosen method was skipped or failed.
func (m *methodIssues) nothingRan() error {
	all := strings.Join(append(m.failed, m.skipped...), "; ")
	if len(m.failed) == 0 {
		return badInput("no chosen method can run on this file: %s; add classes or choose other methods with --methods%s", all, m.alsoNotes())
	}
	return fmt.Errorf("no method produced a result: %s%s", all, m.alsoNotes())
}

// applicable returns the estimators that can run on a pilot of k1 classes,
// recording the others in issues as skipped.
func applicable(ests []estimate.Estimator, k1 int, issues *methodIssues) []estimate.Estimator {
	var out []estimate.Estimator
	for _, e := range ests {
		if why := methods.Applicable(e.Name(), k1); why != nil {
			issues.skip(e.Name(), why)
			continue
		}
		out = append(out, e)
	}
	return out
}
