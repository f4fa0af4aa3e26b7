package summary

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
)

// Write writes the summary with q quantile steps (DefaultQuantiles unless
// there is a reason) of score matrix m under direction d (Auto is
// resolved as for the matrix itself) as CSV: the header (Header) and one
// row per point, points numbered 1..N in the matrix's order. It computes
// what the SQL recipe (SQL) computes, with scores oriented higher-is-better:
// for point x with correct score c and incorrect scores s_(1) >= ... >= s_(m),
// m = K-1: below = #{s_j < c}, ties = #{s_j = c}, mean and m2 = sum of
// squared deviations from the mean over all K scores, maxabs = max |score|,
// top<r> = s_(r) (empty when r > m), q<j> = s_(QuantileRank(j, m, q)),
// lowest = s_(m). It returns the direction used.
func Write(w io.Writer, m *scores.Matrix, d scores.Direction, q int) (scores.Direction, error) {
	s, used, err := accuracy.NewSample(m, d)
	if err != nil {
		return used, err
	}
	return used, WriteSample(w, m.Classes, s, q)
}

// WriteSample writes the summary of s, a Sample built from a score matrix,
// whose classes are named classes, with q quantile steps (see Write).
func WriteSample(w io.Writer, classes []string, s *accuracy.Sample, q int) error {
	if s.Summarised() {
		return fmt.Errorf("summary: %w", accuracy.ErrSummarised)
	}
	if err := checkQuantiles(q); err != nil {
		return err
	}
	if s.K > MaxClasses {
		return fmt.Errorf("summary: %d classes; a summary describes at most %d", s.K, MaxClasses)
	}
	k := s.K
	// Every point is checked before a line is written.
	points := make([]accuracy.PointSummary, s.N())
	for i := range points {
		points[i] = accuracy.SummarisePoint(s.Labels[i], s.Correct[i], s.IncorrectRow(i), s.R[i], nil)
		if err := CheckMoments(i, k, points[i]); err != nil {
			return err
		}
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(Header(q)); err != nil {
		return err
	}
	cols := orderColumns(q)
	rec := make([]string, 0, len(fixedColumns)+len(cols))
	for i, p := range points {
		inc := s.IncorrectRow(i)
		rec = append(rec[:0], strconv.Itoa(i+1), classes[s.Labels[i]], strconv.Itoa(k), strconv.Itoa(k),
			num(p.Correct), strconv.Itoa(p.Below), strconv.Itoa(p.Ties), num(p.Mean), num(p.M2), num(p.MaxAbs))
		for _, col := range cols {
			r, ok := col.rank(k - 1)
			if !ok {
				rec = append(rec, "")
				continue
			}
			rec = append(rec, num(inc[k-1-r]))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ErrOutOfRange is the error of scores too large or too small for a summary:
// a point's mean or sum of squared deviations (the columns mean and m2)
// overflows a float64 or its m2 underflows, which no summary can hold, so
// a summary of them could not be read back, or would be read with a
// spread of 0 where the scores vary.
var ErrOutOfRange = errors.New("out of a summary's range")

// CheckMoments returns an error wrapping ErrOutOfRange, naming point i
// (counted from 0; the summary's point column counts from 1) and saying
// what to do, when the mean or m2 of p, the summary of a point of a pilot
// of k classes, is not finite, or its m2 underflowed: below the smallest
// normal float64 while its scores are not all equal.
func CheckMoments(i, k int, p accuracy.PointSummary) error {
	finite := func(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }
	switch {
	case !finite(p.Mean) || !finite(p.M2):
		return fmt.Errorf("point %d: its scores reach %.3g in absolute value, %w: the sum of squared deviations of its scores (m2) overflows a 64-bit float; divide every score by a power of ten that brings them below 1e100 (no method depends on the scores' unit) and try again", i+1, p.MaxAbs, ErrOutOfRange)
	case p.M2 < 0x1p-1022 && p.Ties < k-1:
		return fmt.Errorf("point %d: its scores reach only %.3g in absolute value, %w: the sum of squared deviations of its scores (m2) underflows a 64-bit float; multiply every score by a power of ten that brings them above 1e-100 (no method depends on the scores' unit) and try again", i+1, p.MaxAbs, ErrOutOfRange)
	}
	return nil
}

// num formats v in the shortest form that reads back to the same float64.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
