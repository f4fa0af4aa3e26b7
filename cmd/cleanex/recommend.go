package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/report"
)

// recommendation is the recommended curve of a predict run with the fits it
// made, so the regression and CleaneX columns reuse them instead of fitting
// again.
type recommendation struct {
	out     recommend.Outcome
	jobs    []recommend.Job
	curves  []accuracy.Curve
	seconds float64
	// preset is CleaneX's preset of the run; only "fast" is the
	// recommendation's.
	preset string
	// seed is the run's seed (the first CleaneX seed).
	seed uint64
}

// runRecommendation runs recommend.Run on s with the embedded calibration.
func runRecommendation(ctx context.Context, s *accuracy.Sample, k2 int, mf methodFlags, prog *progress) (*recommendation, error) {
	table, err := recommend.DefaultTable()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	out, curves, err := recommend.Run(ctx, s, k2, mf.seed, table.Calibration, func(p estimate.Progress) {
		prog.update(float64(p.Step)/float64(max(p.Total, 1))/2, "estimate")
	})
	if err != nil {
		return nil, err
	}
	return &recommendation{out: out, jobs: recommend.Jobs(mf.seed), curves: curves,
		seconds: time.Since(start).Seconds(), preset: mf.preset, seed: mf.seed}, nil
}

// reuse returns the display curve of method name when the recommendation
// already fitted it: each of the estimate's members fitted once
// (recommend.Methods: regression with the same seed, the pooled and the tail
// method), and CleaneX with the fast preset as the mean of the seeds that
// passed recommend.CheckFit. ok is false when the method must be fitted on
// its own; err is set when the reused fit failed (its reason, to report the
// method as failed).
func (r *recommendation) reuse(name string) (m report.Method, ok bool, err error) {
	switch {
	case name != "cleanex" && slices.Contains(recommend.Methods(), name):
		for i, j := range r.jobs {
			if j.Method == name {
				if why, failed := r.out.Failed[j.Label()]; failed {
					return report.Method{}, true, errors.New(why)
				}
				return report.Method{Name: name, Curve: r.curves[i], Seconds: r.seconds}, true, nil
			}
		}
	case name == "cleanex" && (r.preset == "" || r.preset == "fast"):
		if r.out.CleaneX == nil {
			return report.Method{}, true, fmt.Errorf("none of its %d fits passed the check: %s", recommend.Seeds, r.out.Failed[recommend.Job{Method: "cleanex", Seed: r.seed}.Label()])
		}
		return report.Method{Name: name, Curve: r.out.CleaneX, Seconds: r.seconds}, true, nil
	}
	return report.Method{}, false, nil
}

// fill writes the estimate columns into curves, or reports why there are
// none; a CleaneX seed left out of the estimate is noted in issues.
func (r *recommendation) fill(curves *report.Curves, issues *methodIssues) {
	for _, j := range r.jobs {
		if why, failed := r.out.Failed[j.Label()]; failed && j.Method == "cleanex" && r.out.CleaneX != nil {
			issues.note(fmt.Sprintf("%s left out of the estimate: %s", j.Label(), oneLine(why)))
		}
	}
	if r.out.Err != nil {
		issues.fail(recommend.Name, r.out.Err)
		return
	}
	curves.Estimate, curves.EstimateLo, curves.EstimateHi = r.out.Estimate, r.out.Lo, r.out.Hi
	for _, w := range r.out.Warnings {
		issues.note(w)
	}
}
