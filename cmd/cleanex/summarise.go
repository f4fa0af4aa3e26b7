package main

import (
	"bufio"
	"fmt"
	"io"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/summary"
)

// summariseCmd writes the per-point summary of a score matrix (docs/summary.md)
// to stdout, or with --sql the SQL recipe that computes it.
func summariseCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("summarise")
	direction := fs.String("direction", "auto", "score direction: auto, higher (similarities, logits) or lower (distances)")
	quantiles := intFlag(fs, "quantiles", summary.DefaultQuantiles, fmt.Sprintf("quantile steps of the summary (2 to %d; more keeps more of each row for KDE)", summary.MaxQuantiles))
	sql := fs.Bool("sql", false, "print the SQL recipe (DuckDB, Spark SQL) for these quantile steps instead")
	pos, err := parse(fs, args, stderr)
	if err != nil {
		return err
	}
	if *sql {
		if len(pos) > 0 {
			return badInput("--sql prints the recipe and reads no file; got %d arguments", len(pos))
		}
		text, err := summary.SQL(*quantiles)
		if err != nil {
			return badInput("--quantiles: %v", err)
		}
		_, err = io.WriteString(stdout, text)
		return err
	}
	dir, err := scores.ParseDirection(*direction)
	if err != nil {
		return badInput("--direction: %v", err)
	}
	if _, err := summary.SQL(*quantiles); err != nil {
		return badInput("--quantiles: %v", err)
	}
	s, classes, err := readMatrixSample(pos, stdin, dir)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	if err := summary.WriteSample(w, classes, s, *quantiles); err != nil {
		return err
	}
	return w.Flush()
}

// readMatrixSample reads a score matrix (not a summary) like readSample and
// returns its Sample and class names.
func readMatrixSample(pos []string, stdin io.Reader, dir scores.Direction) (*accuracy.Sample, []string, error) {
	d, name, err := readData(pos, stdin)
	if err != nil {
		return nil, nil, err
	}
	if d.Matrix == nil {
		return nil, nil, badInput("%s is a per-point summary already; summarise reads a score matrix", name)
	}
	s, _, err := d.Sample(dir)
	if err != nil {
		return nil, nil, inputError{fmt.Errorf("%s: %w", name, err)}
	}
	return s, d.Matrix.Classes, nil
}
