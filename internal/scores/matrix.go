// Package scores reads the wide score-matrix CSV (one row per test point, one
// column per candidate class) into a Matrix, validating every cell, and
// resolves the score direction.
package scores

import (
	"fmt"
)

// Direction says which end of a score is better.
type Direction int

const (
	// Auto picks Higher or Lower: the one under which a point's correct class
	// strictly beats one of its incorrect classes more often, counted over all
	// (point, incorrect class) pairs (Higher on a tie).
	Auto Direction = iota
	// Higher means the predicted class is the arg max (similarities, logits).
	Higher
	// Lower means the predicted class is the arg min (distances).
	Lower
)

// HigherWords is how the command line and the page name the Higher
// direction of a score matrix.
const HigherWords = "higher is better (similarities, logits or probabilities)"

// LowerWords is how the command line and the page name the Lower direction.
const LowerWords = "lower is better (distances)"

// String returns "auto", "higher" or "lower".
func (d Direction) String() string {
	switch d {
	case Higher:
		return "higher"
	case Lower:
		return "lower"
	default:
		return "auto"
	}
}

// ParseDirection reads "auto", "higher" or "lower".
func ParseDirection(s string) (Direction, error) {
	switch s {
	case "auto", "":
		return Auto, nil
	case "higher":
		return Higher, nil
	case "lower":
		return Lower, nil
	}
	return Auto, fmt.Errorf("direction %q: use auto, higher or lower", s)
}

// Matrix is a validated score matrix: N test points by K classes.
type Matrix struct {
	// Classes holds the K class names, in column order.
	Classes []string
	// Labels holds, per point, the index in Classes of its true class.
	Labels []int
	// Scores holds the N x K scores row-major: Scores[i*K+j] is point i's score for class j.
	Scores []float64
}

// N returns the number of test points.
func (m *Matrix) N() int { return len(m.Labels) }

// K returns the number of classes.
func (m *Matrix) K() int { return len(m.Classes) }

// Row returns point i's K scores (a view, not a copy).
func (m *Matrix) Row(i int) []float64 { k := m.K(); return m.Scores[i*k : (i+1)*k] }

// PairWins returns, under direction d, the number of (point, incorrect class)
// pairs in which the correct score strictly beats the incorrect one: sum_x R_x.
func (m *Matrix) PairWins(d Direction) int {
	wins := 0
	for i, y := range m.Labels {
		row := m.Row(i)
		c := row[y]
		for j, s := range row {
			if j != y && ((d == Lower && c < s) || (d != Lower && c > s)) {
				wins++
			}
		}
	}
	return wins
}

// Resolve turns Auto into Higher or Lower, whichever has more PairWins
// (Higher on a tie); it returns d itself otherwise.
func (m *Matrix) Resolve(d Direction) Direction {
	if d != Auto {
		return d
	}
	if m.PairWins(Lower) > m.PairWins(Higher) {
		return Lower
	}
	return Higher
}

// ClassSizes returns r_y, the number of points of each class.
func (m *Matrix) ClassSizes() []int {
	r := make([]int, m.K())
	for _, y := range m.Labels {
		r[y]++
	}
	return r
}
