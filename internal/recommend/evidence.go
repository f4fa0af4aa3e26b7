package recommend

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// Seeds is the number of CleaneX fits (seeds s, s+1, ..., s+Seeds-1) whose
// mean curve enters the estimate.
const Seeds = 4

// ErrorSpread summarises, for one method and one extrapolation ratio, the
// signed errors pred_k - truth_k measured on the calibration bank.
type ErrorSpread struct {
	// Method is "plugin", "kde", "regression", "cleanex" or "estimate".
	Method string `json:"method"`
	// Q holds the 10%, 25%, 50%, 75% and 90% quantiles of the error.
	Q [5]float64 `json:"q"`
	// MeanAbs is the mean absolute error.
	MeanAbs float64 `json:"mean_abs"`
}

// RatioErrors holds the bank's errors at one ratio k / k1.
type RatioErrors struct {
	// Ratio is k / k1.
	Ratio float64 `json:"ratio"`
	// Pilots is how many bank pilots were measured.
	Pilots int `json:"pilots"`
	// Methods holds one ErrorSpread per method.
	Methods []ErrorSpread `json:"methods"`
}

// FamilyCheck is the measured quality of the recommendation on one family
// of the bank, with the interval calibrated without that family
// (leave-one-family-out).
type FamilyCheck struct {
	// Family is the bank family's name; Pilots how many pilots it has.
	Family string `json:"family"`
	Pilots int    `json:"pilots"`
	// CoverageAtK is the share of pilots whose truth at k = K lies in the
	// interval; CoverageAllK averages the share over the calibration grid of k.
	CoverageAtK  float64 `json:"coverage_at_k"`
	CoverageAllK float64 `json:"coverage_all_k"`
	// MedianWidth is the median width hi - lo at k = K.
	MedianWidth float64 `json:"median_width"`
	// Below and Above count the pilots whose truth at k = K lies below and
	// above the interval: whether the misses share one side.
	Below int `json:"below"`
	Above int `json:"above"`
}

// Table is everything cmd/calibrate writes: the calibration and the
// evidence shown beside a recommendation.
type Table struct {
	// Calibration is fitted on every pilot of the bank.
	Calibration Calibration `json:"calibration"`
	// Pilots is the number of bank pilots used.
	Pilots int `json:"pilots"`
	// Errors holds the bank's error spreads at several ratios k / k1.
	Errors []RatioErrors `json:"errors"`
	// Families holds the leave-one-family-out checks.
	Families []FamilyCheck `json:"families"`
}

//go:embed calibration.json
var calibrationJSON []byte

// DefaultTable returns the embedded calibration table (calibration.json).
func DefaultTable() (Table, error) {
	var t Table
	if err := json.Unmarshal(calibrationJSON, &t); err != nil {
		return Table{}, fmt.Errorf("recommend: embedded calibration.json: %w", err)
	}
	if err := t.Calibration.validate(); err != nil {
		return Table{}, fmt.Errorf("recommend: embedded calibration.json: %w", err)
	}
	if t.Pilots == 0 {
		return Table{}, errors.New("recommend: embedded calibration.json was fitted on no pilots")
	}
	return t, nil
}

// NearestErrors returns the bank's error spreads at the ratio closest to
// ratio on a log scale (ok is false when the table has none).
func (t Table) NearestErrors(ratio float64) (RatioErrors, bool) {
	best, bestD := RatioErrors{}, math.Inf(1)
	for _, e := range t.Errors {
		if d := math.Abs(math.Log(e.Ratio / ratio)); d < bestD {
			best, bestD = e, d
		}
	}
	return best, len(t.Errors) > 0
}
