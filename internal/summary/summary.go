// Package summary reads and writes the per-point summary of a pilot: one row
// per test point holding what the estimators read (its class, R_x, its
// correct score and a fixed set of order statistics of its incorrect scores),
// so that a pilot too large to ship as a score matrix can be summarised
// where its scores live (docs/summary.md) and analysed here.
package summary

import (
	"github.com/cleanex/cleanex/internal/accuracy"
)

// Table is a parsed summary: the pilot's class names and its Sample, built
// from the summary's rows (oriented higher-is-better, as a summary is).
type Table struct {
	// Classes holds the K class names in the order of first appearance.
	Classes []string
	// Sample is the pilot as the estimators read it.
	Sample *accuracy.Sample
}
