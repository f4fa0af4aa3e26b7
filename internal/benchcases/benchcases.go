// Package benchcases scores every method on the 16 benchmark cases kept in
// testdata/sim-d5-k100 (pilot score matrices with the exact truth curve at k2
// and the RMSE reference implementations reached; docs/formats.md §5), so
// `./build.sh bench` can print one table of our RMSE next to the references'.
package benchcases

import (
	"compress/gzip"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/estimate"
	"github.com/cleanex/cleanex/internal/scores"
)

// Case is one benchmark pilot with its truth curve and reference RMSEs.
type Case struct {
	// Name is the pilot file's name without ".csv".
	Name string
	// Sample is the pilot, oriented by the auto-detected direction.
	Sample *accuracy.Sample
	// Truth is the exact accuracy curve over all k2 classes.
	Truth accuracy.Curve
	// Reference maps a reference_rmse.csv column (e.g. "kde:lcv") to its RMSE;
	// a column left empty for this case is absent.
	Reference map[string]float64
}

// CasesDir is where the repository keeps the benchmark cases, relative to the
// module root: each file gzip-compressed (see testdata/README.md there).
const CasesDir = "internal/benchcases/testdata/sim-d5-k100"

// Dir returns $BENCH_CASES when set; otherwise CasesDir under the module root,
// the first folder holding go.mod at or above the working directory (so the
// tests of any package find it). When there is no such folder it returns
// CasesDir itself, and Load reports what is missing.
func Dir() string {
	if d := os.Getenv("BENCH_CASES"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return CasesDir
	}
	for {
		if _, err := os.Stat(filepath.Join(wd, "go.mod")); err == nil {
			return filepath.Join(wd, CasesDir)
		}
		parent := filepath.Dir(wd)
		if parent == wd {
			return CasesDir
		}
		wd = parent
	}
}

// Load reads every <case>.csv with its <case>_truth.csv in dir, and the
// reference RMSEs from dir/reference_rmse.csv (docs/formats.md §5). Each file
// may instead be gzip-compressed, with ".gz" appended to its name.
func Load(dir string) ([]Case, error) {
	refs, err := readReference(filepath.Join(dir, "reference_rmse.csv"))
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(refs))
	for name := range refs {
		names = append(names, name)
	}
	slices.Sort(names)
	cases := make([]Case, 0, len(names))
	for _, name := range names {
		c := Case{Name: name, Reference: refs[name]}
		if c.Sample, err = readSample(filepath.Join(dir, name+".csv")); err != nil {
			return nil, err
		}
		if c.Truth, err = readTruth(filepath.Join(dir, name+"_truth.csv")); err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// Score is one method's result on one case.
type Score struct {
	// RMSE is sqrt(mean_{k=2..k2} (pred_k - truth_k)^2).
	RMSE float64
	// AtK2 is the predicted accuracy at k2.
	AtK2 float64
	// Seconds is the fit's wall-clock time.
	Seconds float64
}

// Run fits est on c up to the truth's k2 and scores it against the truth.
func Run(ctx context.Context, c Case, est estimate.Estimator) (Score, error) {
	k2 := c.Truth.Max()
	start := time.Now()
	res, err := est.Fit(ctx, c.Sample, k2, nil)
	if err != nil {
		return Score{}, fmt.Errorf("%s on %s: %w", est.Name(), c.Name, err)
	}
	return Score{RMSE: accuracy.RMSE(res.Curve, c.Truth), AtK2: res.Curve[k2], Seconds: time.Since(start).Seconds()}, nil
}

func readSample(path string) (*accuracy.Sample, error) {
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := scores.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s, _, err := accuracy.NewSample(m, scores.Auto)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// readTruth reads a "k,truth" CSV with rows k = 2..k2 into a Curve.
func readTruth(path string) (accuracy.Curve, error) {
	rows, err := readCSV(path)
	if err != nil {
		return nil, err
	}
	c := accuracy.Curve{1, 1}
	for i, row := range rows[1:] {
		if len(row) != 2 {
			return nil, fmt.Errorf("%s: row %d: want 2 fields, got %d", path, i+2, len(row))
		}
		k, err1 := strconv.Atoi(row[0])
		v, err2 := strconv.ParseFloat(row[1], 64)
		if err1 != nil || err2 != nil || k != len(c) {
			return nil, fmt.Errorf("%s: row %d: want k = %d and a number, got %q", path, i+2, len(c), row)
		}
		c = append(c, v)
	}
	if c.Max() < 2 {
		return nil, fmt.Errorf("%s: no rows", path)
	}
	return c, nil
}

// readReference maps each case name to its reference columns (the RMSE
// columns: every column named "<method>:<variant>").
func readReference(path string) (map[string]map[string]float64, error) {
	rows, err := readCSV(path)
	if err != nil {
		return nil, err
	}
	header := rows[0]
	out := make(map[string]map[string]float64)
	for i, row := range rows[1:] {
		if len(row) != len(header) {
			return nil, fmt.Errorf("%s: row %d: %d fields, header has %d", path, i+2, len(row), len(header))
		}
		name := strings.TrimSuffix(row[0], ".csv")
		ref := make(map[string]float64)
		for j, col := range header {
			if !strings.Contains(col, ":") || row[j] == "" {
				continue
			}
			v, err := strconv.ParseFloat(row[j], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: row %d, column %q: %w", path, i+2, col, err)
			}
			ref[col] = v
		}
		out[name] = ref
	}
	return out, nil
}

func readCSV(path string) ([][]string, error) {
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) < 2 {
		return nil, fmt.Errorf("%s: no data rows", path)
	}
	return rows, nil
}

// open opens path, or path+".gz" through a gzip reader when path does not
// exist; closing the result closes the file.
func open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err == nil {
		return f, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	gf, gerr := os.Open(path + ".gz")
	if gerr != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(gf)
	if err != nil {
		gf.Close()
		return nil, fmt.Errorf("%s.gz: %w", path, err)
	}
	return gzipFile{zr, gf}, nil
}

// gzipFile reads through a gzip reader and closes the file beneath it.
type gzipFile struct {
	*gzip.Reader
	f *os.File
}

func (g gzipFile) Close() error {
	return errors.Join(g.Reader.Close(), g.f.Close())
}
