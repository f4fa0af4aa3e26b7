package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/cleanex/cleanex/internal/accuracy"
	"github.com/cleanex/cleanex/internal/inputs"
	"github.com/cleanex/cleanex/internal/scores"
	"github.com/cleanex/cleanex/internal/summary"
)

// summariseCmd writes the per-point summary of a score matrix or of
// embeddings (docs/summary.md) to stdout, or with --sql the SQL recipe that
// computes it.
func summariseCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("summarise")
	direction := fs.String("direction", "auto", "score direction: auto, higher (similarities, logits) or lower (distances)")
	quantiles := intFlag(fs, "quantiles", summary.DefaultQuantiles, fmt.Sprintf("quantile steps of the summary (2 to %d; more keeps more of each row for KDE)", summary.MaxQuantiles))
	sql := fs.Bool("sql", false, "print the SQL recipe (DuckDB, Spark SQL) for these quantile steps instead")
	var ef embedFlags
	ef.register(fs)
	pos, err := parse(fs, args, stderr)
	if err != nil {
		return err
	}
	ef.visit(fs)
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
	d, name, err := readData(pos, stdin)
	if err != nil {
		return err
	}
	if d.Embeddings != nil {
		if err := ef.apply(d, name, dir); err != nil {
			return err
		}
		w := bufio.NewWriter(stdout)
		if err := writeEmbeddingSummary(ctx, w, d.Embeddings, *quantiles, stderr); err != nil {
			var ie inputError
			if errors.As(err, &ie) {
				return inputError{fmt.Errorf("%s: %s: %w", name, scoringLine(d), ie.err)}
			}
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "cleanex summarise: %s\n", scoringLine(d))
		return nil
	}
	if err := ef.notForScores(name); err != nil {
		return err
	}
	s, classes, used, err := matrixSample(d, name, dir)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	if err := summary.WriteSample(w, classes, s, *quantiles); err != nil {
		if errors.Is(err, summary.ErrOutOfRange) {
			return inputError{fmt.Errorf("%s: %w", name, err)}
		}
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	// What predict says about how the scores were read, said here too: the
	// summary holds the scores as read.
	var issues methodIssues
	issues.note(pickedNote(d, dir, used))
	issues.noteScores(s)
	return issues.finish("summarise", stderr)
}

// matrixSample returns the Sample, the direction used (the one auto picked)
// and the class names of d, the pilot read from name, which must be a score
// matrix (not a summary).
func matrixSample(d *inputs.Data, name string, dir scores.Direction) (*accuracy.Sample, []string, scores.Direction, error) {
	if d.Matrix == nil {
		return nil, nil, 0, badInput("%s is a per-point summary already; summarise reads a score matrix", name)
	}
	s, used, err := d.TakeSample(dir)
	if err != nil {
		return nil, nil, 0, inputError{fmt.Errorf("%s: %w", name, err)}
	}
	return s, d.Matrix.Classes, used, nil
}
