package report

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/methods"
)

// ReadCSV reads back a curves CSV that WriteCSV wrote (docs/formats.md §3):
// a header k, observed, then optionally estimate, estimate_lo, estimate_hi,
// registered method names and truth, and one row per k = 2..K2 in order.
// K1 is the last k with an observed value. The curves hold k = 0..K2 (the
// values at k = 0 and 1 are 1, as every method's are); a column's values stop
// at its last filled row and may not skip a row before it. The methods get no
// C_x, losses or times (Seconds is NaN): a CSV holds only the curves.
func ReadCSV(r io.Reader) (Curves, error) {
	cr := csv.NewReader(r)
	head, err := cr.Read()
	if err != nil {
		return Curves{}, fmt.Errorf("curves CSV: header: %w", err)
	}
	if len(head) < 2 || head[0] != "k" || head[1] != "observed" {
		return Curves{}, fmt.Errorf("curves CSV: header %q: want k,observed,...", strings.Join(head, ","))
	}
	for j, name := range head[2:] {
		_, isMethod := methods.Get(name)
		if !isMethod && name != "truth" && !slices.Contains(EstimateColumns, name) {
			return Curves{}, fmt.Errorf("curves CSV: column %d, %q: not a curve this program writes", j+3, name)
		}
		if slices.Index(head, name) != j+2 {
			return Curves{}, fmt.Errorf("curves CSV: column %d, %q: named twice", j+3, name)
		}
	}
	cols := make([]accuracy.Curve, len(head))
	for j := range cols {
		cols[j] = accuracy.Curve{1, 1}
	}
	ended := make([]bool, len(head)) // an empty cell seen: the column stopped
	k2 := 1
	for row := 2; ; row++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Curves{}, fmt.Errorf("curves CSV: row %d: %w", row, err)
		}
		k, err := strconv.Atoi(rec[0])
		if err != nil || k != row {
			return Curves{}, fmt.Errorf("curves CSV: row %d, column \"k\": %q, want %d (rows give k = 2, 3, ... in order)", row, rec[0], row)
		}
		k2 = k
		for j := 1; j < len(rec); j++ {
			if rec[j] == "" {
				ended[j] = true
				continue
			}
			v, err := strconv.ParseFloat(rec[j], 64)
			if err != nil || !(v >= 0 && v <= 1) || math.IsNaN(v) {
				return Curves{}, fmt.Errorf("curves CSV: row %d, column %q: %q is not an accuracy between 0 and 1", row, head[j], rec[j])
			}
			if ended[j] {
				return Curves{}, fmt.Errorf("curves CSV: row %d, column %q: a value after an empty cell (a curve has no gaps)", row, head[j])
			}
			cols[j] = append(cols[j], v)
		}
	}
	c := Curves{K2: k2, Observed: cols[1]}
	if c.K2 < 2 {
		return Curves{}, errors.New("curves CSV: no rows after the header")
	}
	c.K1 = c.Observed.Max()
	if c.K1 < 2 {
		return Curves{}, errors.New("curves CSV: the observed column is empty")
	}
	for j, name := range head[2:] {
		curve := cols[j+2]
		switch name {
		case "truth":
			c.Truth = curve
		case "estimate":
			c.Estimate = curve
		case "estimate_lo":
			c.EstimateLo = curve
		case "estimate_hi":
			c.EstimateHi = curve
		default:
			c.Methods = append(c.Methods, Method{Name: name, Curve: curve, Seconds: math.NaN()})
		}
	}
	return c, nil
}
