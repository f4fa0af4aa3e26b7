package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/bank"
	"github.com/cleanex/cleanex/internal/methods"
	"github.com/cleanex/cleanex/internal/recommend"
	"github.com/cleanex/cleanex/internal/summary"
)

// summaryMethods are the methods compared between a pilot's score matrix
// and its summary.
var summaryMethods = []string{methods.Plugin, methods.KDE, methods.Pooled, methods.Tail, methods.Regression, methods.CleaneX}

// summaryColumns are summaryMethods and the recommendation's estimate and
// bounds (assembled from the methods' curves with one CleaneX fit).
var summaryColumns = append(slices.Clone(summaryMethods), recommend.Name, "estimate_lo", "estimate_hi")

// summaryStudy fits every method on each pilot from its score matrix and
// from its summary with q quantile steps, and prints per family and k1 the
// largest and the mean RMSE between the two curves (k = 2..K), per method
// and for the recommendation assembled from them.
func summaryStudy(ctx context.Context, pilots []bank.Pilot, q, jobs int) error {
	table, err := recommend.DefaultTable()
	if err != nil {
		return err
	}
	// the recommendation's jobs with one CleaneX fit, the one of summaryMethods
	var recJobs []recommend.Job
	for _, j := range recommend.Jobs(1) {
		if j.Method != methods.CleaneX || j.Seed == 1 {
			recJobs = append(recJobs, j)
		}
	}
	type key struct {
		family string
		k1     int
	}
	var mu sync.Mutex
	gaps := map[key]map[string][]float64{}
	err = forPilots(ctx, "summary", pilots, jobs, func(_ int, p bank.Pilot) error {
		l, err := p.Load(ctx)
		if err != nil {
			return err
		}
		tab, err := summariseSample(l.Sample, q)
		if err != nil {
			return err
		}
		row := map[string][]float64{}
		fromMatrix, fromSummary := map[string]accuracy.Curve{}, map[string]accuracy.Curve{}
		for _, name := range summaryMethods {
			est, err := methods.New(name, methods.Options{Seed: 1})
			if err != nil {
				return err
			}
			a, errA := est.Fit(ctx, l.Sample, p.K, nil)
			b, errB := est.Fit(ctx, tab.Sample, p.K, nil)
			if errA != nil || errB != nil {
				// A fit that fails on one side only is a difference too.
				if (errA == nil) != (errB == nil) {
					return fmt.Errorf("%s: matrix %v, summary %v", name, errA, errB)
				}
				continue
			}
			row[name] = append(row[name], accuracy.RMSE(a.Curve, b.Curve))
			fromMatrix[name], fromSummary[name] = a.Curve, b.Curve
		}
		// The recommendation from each side's curves, with the one CleaneX
		// fit as its CleaneX mean, both on the summary's pilot: its observed
		// curve, class-sampling errors, ties and squashed check are the
		// matrix's, and it has no half-sampling spread (a summary keeps no
		// classes to draw; its interval comes from the calibration's
		// WithoutB), so that the bounds compare what the summary's curves
		// change.
		pf := recommend.PilotFits(tab.Sample)
		assemble := func(curves map[string]accuracy.Curve) recommend.Outcome {
			cs := make([]accuracy.Curve, len(recJobs))
			errs := make([]error, len(recJobs))
			for i, j := range recJobs {
				if cs[i] = curves[j.Method]; cs[i] == nil {
					errs[i] = errors.New("no fit")
				}
			}
			return recommend.Assemble(pf, recJobs, cs, errs, p.K, table.Calibration)
		}
		ra, rb := assemble(fromMatrix), assemble(fromSummary)
		if (ra.Err == nil) != (rb.Err == nil) {
			return fmt.Errorf("recommendation: matrix %v, summary %v", ra.Err, rb.Err)
		}
		if ra.Err == nil {
			row[recommend.Name] = append(row[recommend.Name], accuracy.RMSE(ra.Estimate, rb.Estimate))
			row["estimate_lo"] = append(row["estimate_lo"], accuracy.RMSE(ra.Lo, rb.Lo))
			row["estimate_hi"] = append(row["estimate_hi"], accuracy.RMSE(ra.Hi, rb.Hi))
		}
		mu.Lock()
		defer mu.Unlock()
		k := key{p.Family, p.K1}
		if gaps[k] == nil {
			gaps[k] = map[string][]float64{}
		}
		for name, v := range row {
			gaps[k][name] = append(gaps[k][name], v...)
		}
		return nil
	})
	if err != nil {
		return err
	}
	keys := make([]key, 0, len(gaps))
	for k := range gaps {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := strings.Compare(a.family, b.family); c != 0 {
			return c
		}
		return a.k1 - b.k1
	})
	fmt.Printf("RMSE between the curves from the score matrix and from its summary (%d quantile steps), k = 2..K: largest (mean)\n\n", q)
	fmt.Printf("| family | k1 | pilots |")
	for _, name := range summaryColumns {
		fmt.Printf(" %s |", name)
	}
	fmt.Printf("\n|---|---|---|%s\n", strings.Repeat("---|", len(summaryColumns)))
	for _, k := range keys {
		fmt.Printf("| %s | %d | %d |", k.family, k.k1, len(gaps[k][methods.Plugin]))
		for _, name := range summaryColumns {
			v := gaps[k][name]
			if len(v) == 0 {
				fmt.Printf(" failed |")
				continue
			}
			mean := 0.0
			for _, x := range v {
				mean += x
			}
			fmt.Printf(" %.4f (%.4f) |", slices.Max(v), mean/float64(len(v)))
		}
		fmt.Println()
	}
	return nil
}

// summariseSample returns the summary with q steps of a Sample built from a
// score matrix, written and read back as a file would be.
func summariseSample(s *accuracy.Sample, q int) (*summary.Table, error) {
	var b strings.Builder
	if err := summary.WriteSample(&b, classNames(s.K), s, q); err != nil {
		return nil, err
	}
	return summary.Parse(strings.NewReader(b.String()))
}

// classNames returns "c0".."c<k-1>".
func classNames(k int) []string {
	names := make([]string, k)
	for j := range names {
		names[j] = "c" + strconv.Itoa(j)
	}
	return names
}

// summaryFiles writes, for each pilot, <dir>/<name>.long.csv (columns point,
// class, score, label: the input of the SQL recipe) and <dir>/<name>.go.csv
// (the summary Write makes, DefaultQuantiles steps), for the DuckDB check
// of ./build.sh bench.
func summaryFiles(ctx context.Context, dir string, pilots []bank.Pilot) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, p := range pilots {
		l, err := p.Load(ctx)
		if err != nil {
			return err
		}
		name := fileName(p.ID)
		if err := writeLong(filepath.Join(dir, name+".long.csv"), l.Sample); err != nil {
			return err
		}
		f, err := os.Create(filepath.Join(dir, name+".go.csv"))
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		err = summary.WriteSample(w, classNames(l.Sample.K), l.Sample, summary.DefaultQuantiles)
		if err == nil {
			err = w.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%s: %d points x %d classes\n", name, l.Sample.N(), l.Sample.K)
	}
	return nil
}

// fileName turns a pilot ID into a file name.
func fileName(id string) string { return strings.ReplaceAll(id, "/", "_") }

// writeLong writes s (oriented higher-is-better) as the long table
// point, class, score, label with point numbered from 1, the correct score
// in its label's column and the incorrect scores, sorted, in the others
// (which class gets which incorrect score does not change a summary).
func writeLong(path string, s *accuracy.Sample) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "point,class,score,label")
	names := classNames(s.K)
	for i := range s.N() {
		y := s.Labels[i]
		inc := s.IncorrectRow(i)
		j := 0
		for c := range s.K {
			v := s.Correct[i]
			if c != y {
				v = inc[j]
				j++
			}
			fmt.Fprintf(w, "%d,%s,%s,%s\n", i+1, names[c], strconv.FormatFloat(v, 'g', -1, 64), names[y])
		}
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// summaryCompare reads, for each pilot, the Go summary and the one DuckDB
// made from the long table with the SQL recipe (<name>.duckdb.csv), and
// fails unless they agree: the same points, classes, counts and order
// statistics exactly, and mean, m2 and maxabs to a relative 1e-9 (the
// engines sum in different orders).
func summaryCompare(dir string, pilots []bank.Pilot) error {
	for _, p := range pilots {
		name := fileName(p.ID)
		a, err := readSummary(filepath.Join(dir, name+".go.csv"))
		if err != nil {
			return err
		}
		b, err := readSummary(filepath.Join(dir, name+".duckdb.csv"))
		if err != nil {
			return err
		}
		if err := sameSummary(a, b); err != nil {
			return fmt.Errorf("%s: DuckDB's summary differs from Go's: %w", name, err)
		}
		fmt.Printf("%s: DuckDB's summary of %d points x %d classes equals Go's\n", name, a.Sample.N(), a.Sample.K)
	}
	return nil
}

func readSummary(path string) (*summary.Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := summary.Parse(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// sameSummary compares two parsed summaries of the same pilot: classes,
// labels, below, ties, correct scores and the order statistics at the knot
// ranks exactly; each point's mean, m2 and maxabs, the pooled score moments
// and the interpolated order statistics to a relative 1e-9.
func sameSummary(a, b *summary.Table) error {
	sa, sb := a.Sample, b.Sample
	if sa.K != sb.K || sa.N() != sb.N() || !slices.Equal(a.Classes, b.Classes) {
		return fmt.Errorf("%d points x %d classes against %d x %d, or other class names", sa.N(), sa.K, sb.N(), sb.K)
	}
	fa, ma, da := sa.ScoreMoments()
	fb, mb, db := sb.ScoreMoments()
	if fa != fb || !near(ma, mb) || !near(da, db) {
		return fmt.Errorf("score moments (%v, %v, %v) against (%v, %v, %v)", fa, ma, da, fb, mb, db)
	}
	for i := range sa.N() {
		if sa.Labels[i] != sb.Labels[i] || sa.R[i] != sb.R[i] || sa.Correct[i] != sb.Correct[i] {
			return fmt.Errorf("point %d: label, below or correct score differ", i+1)
		}
		pa, pb := sa.Point(i, nil), sb.Point(i, nil)
		if pa.Ties != pb.Ties || !near(pa.Mean, pb.Mean) || !near(pa.M2, pb.M2) || !near(pa.MaxAbs, pb.MaxAbs) {
			return fmt.Errorf("point %d: ties, mean, m2 or maxabs (%d, %v, %v, %v) against (%d, %v, %v, %v)", i+1, pa.Ties, pa.Mean, pa.M2, pa.MaxAbs, pb.Ties, pb.Mean, pb.M2, pb.MaxAbs)
		}
		for _, r := range summary.KnotRanks(sa.K, summary.DefaultQuantiles) {
			if x, y := sa.IncorrectAt(i, r), sb.IncorrectAt(i, r); x != y {
				return fmt.Errorf("point %d, rank %d: %v against %v", i+1, r, x, y)
			}
		}
		for r := 1; r < sa.K; r++ {
			if x, y := sa.IncorrectAt(i, r), sb.IncorrectAt(i, r); !near(x, y) {
				return fmt.Errorf("point %d, interpolated rank %d: %v against %v", i+1, r, x, y)
			}
		}
	}
	if !slices.Equal(sa.Observed, sb.Observed) {
		return errors.New("the observed curves differ")
	}
	return nil
}

// near reports whether a and b agree to a relative 1e-9.
func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*max(math.Abs(a), math.Abs(b), 1e-300)
}
