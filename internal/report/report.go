// Package report turns a set of predicted curves into what the app shows and
// exports: the results table (each method's predicted accuracy at k1, 2k1,
// 5k1, 10k1 and k2, and its RMSE against the truth when known) and the
// curves CSV of docs/formats.md §3.
package report

import (
	"bufio"
	"cmp"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/methods"
)

// Method is one method's fit.
type Method struct {
	// Name is the method's registry name.
	Name string
	// Curve is its predicted curve for k = 0..K2.
	Curve accuracy.Curve
	// C holds its per-point C_x estimates (nil when it has none).
	C []float64
	// Losses is its training loss per step (nil when it has none).
	Losses []float64
	// Seconds is how long the fit took.
	Seconds float64
}

// Curves is everything known about one analysis.
type Curves struct {
	// K1 is the pilot's number of classes, K2 the number extrapolated to.
	K1, K2 int
	// Observed is the pilot's observed curve for k = 0..K1.
	Observed accuracy.Curve
	// Truth is the true curve for k = 0..K2 or beyond when known, else nil.
	Truth accuracy.Curve
	// Methods holds the fits, in any order (Sorted orders them).
	Methods []Method
	// Estimate is the recommended curve for k = 0..K2 and EstimateLo,
	// EstimateHi its 80% interval (internal/recommend); nil when not computed.
	Estimate, EstimateLo, EstimateHi accuracy.Curve
}

// EstimateColumns are the CSV columns of the recommended curve and its interval.
var EstimateColumns = []string{"estimate", "estimate_lo", "estimate_hi"}

// Sorted returns the methods in the registry's display order (methods.Rank;
// unknown names last, by name).
func (c Curves) Sorted() []Method {
	ms := slices.Clone(c.Methods)
	slices.SortStableFunc(ms, func(a, b Method) int {
		return cmp.Or(cmp.Compare(methods.Rank(a.Name), methods.Rank(b.Name)), strings.Compare(a.Name, b.Name))
	})
	return ms
}

// Ks returns the table's columns: m·k1 for m = 1, 2, 5, 10, 20, 50, ...
// (those from 2 to below k2), and k2; when that gives more than
// maxRatioColumns columns below k2, m = 1, 10, 100, ... instead.
func (c Curves) Ks() []int {
	if c.K1 < 1 {
		return []int{c.K2}
	}
	below := func(steps []int) []int {
		var ks []int
		for scale := 1; ; scale *= 10 {
			for _, m := range steps {
				k := m * scale * c.K1
				if k >= c.K2 || k/(m*scale) != c.K1 { // reached k2, or overflowed
					return ks
				}
				if k >= 2 {
					ks = append(ks, k)
				}
			}
		}
	}
	ks := below([]int{1, 2, 5})
	if len(ks) > maxRatioColumns {
		ks = below([]int{1})
	}
	return append(ks, c.K2)
}

// maxRatioColumns is the most columns Ks gives below k2 in 1-2-5 steps.
const maxRatioColumns = 6

// Row is one line of the results table.
type Row struct {
	// Name is the method's name, or "observed" / "truth".
	Name string
	// At holds the curve's value at each of Ks(), NaN where it has none.
	At []float64
	// RMSE is sqrt(mean_{k=2..K2} (pred_k - truth_k)^2), NaN without truth.
	RMSE float64
	// Seconds is the fit's time, NaN for observed and truth.
	Seconds float64
}

// Table returns the rows: observed, the estimate (when computed), each
// method in the registry's display order, and truth when known.
func (c Curves) Table() []Row {
	ks := c.Ks()
	at := func(curve accuracy.Curve) []float64 {
		v := make([]float64, len(ks))
		for i, k := range ks {
			v[i] = value(curve, k)
		}
		return v
	}
	rows := []Row{{Name: "observed", At: at(c.Observed), RMSE: math.NaN(), Seconds: math.NaN()}}
	if c.Estimate != nil {
		r := Row{Name: "estimate", At: at(c.Estimate), RMSE: math.NaN(), Seconds: math.NaN()}
		if c.Truth != nil {
			r.RMSE = accuracy.RMSE(c.Estimate, c.Truth, c.K2)
		}
		rows = append(rows, r)
	}
	for _, m := range c.Sorted() {
		r := Row{Name: m.Name, At: at(m.Curve), RMSE: math.NaN(), Seconds: m.Seconds}
		if c.Truth != nil {
			r.RMSE = accuracy.RMSE(m.Curve, c.Truth, c.K2)
		}
		rows = append(rows, r)
	}
	if c.Truth != nil {
		rows = append(rows, Row{Name: "truth", At: at(c.Truth), RMSE: math.NaN(), Seconds: math.NaN()})
	}
	return rows
}

func value(c accuracy.Curve, k int) float64 {
	if k < 0 || k > c.Max() {
		return math.NaN()
	}
	return c[k]
}

// Columns returns the CSV's column names: k, observed, estimate,
// estimate_lo and estimate_hi (when computed), the methods in the registry's
// order, then truth when known.
func (c Curves) Columns() []string {
	cols := []string{"k", "observed"}
	if c.Estimate != nil {
		cols = append(cols, EstimateColumns...)
	}
	for _, m := range c.Sorted() {
		cols = append(cols, m.Name)
	}
	if c.Truth != nil {
		cols = append(cols, "truth")
	}
	return cols
}

// Column returns one column's values for k = 2..K2 and whether each is
// present (observed is empty above K1).
func (c Curves) Column(name string) (vals []float64, ok []bool) {
	n := max(c.K2-1, 0)
	vals, ok = make([]float64, n), make([]bool, n)
	var curve accuracy.Curve
	switch name {
	case "k":
		for i := range vals {
			vals[i], ok[i] = float64(i+2), true
		}
		return vals, ok
	case "observed":
		curve = c.Observed
	case "truth":
		curve = c.Truth
	case "estimate":
		curve = c.Estimate
	case "estimate_lo":
		curve = c.EstimateLo
	case "estimate_hi":
		curve = c.EstimateHi
	default:
		for _, m := range c.Methods {
			if m.Name == name {
				curve = m.Curve
			}
		}
	}
	for i := range vals {
		if k := i + 2; k <= curve.Max() {
			vals[i], ok[i] = curve[k], true
		}
	}
	return vals, ok
}

// WriteCSV writes the curves CSV of docs/formats.md §3: one row per k = 2..K2,
// numbers in the shortest form that parses back to the same float64 (at
// least 6 significant digits whenever the value needs them), empty cells
// where a column has no value.
func (c Curves) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	cols := c.Columns()
	vals := make([][]float64, len(cols))
	oks := make([][]bool, len(cols))
	for j, name := range cols {
		vals[j], oks[j] = c.Column(name)
		if j > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString(name)
	}
	bw.WriteByte('\n')
	var buf []byte
	for i := 0; i < c.K2-1; i++ {
		buf = buf[:0]
		for j := range cols {
			if j > 0 {
				buf = append(buf, ',')
			}
			if j == 0 {
				buf = strconv.AppendInt(buf, int64(i+2), 10)
			} else if oks[j][i] {
				buf = strconv.AppendFloat(buf, vals[j][i], 'g', -1, 64)
			}
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
