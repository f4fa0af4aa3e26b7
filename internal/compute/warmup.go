package compute

import (
	"bytes"
	"fmt"

	"github.com/cleanex/cleanex/internal/simulate"
)

// WarmUp parses and summarises a small simulated CSV (rounds times, 40
// classes of 10 points) and discards it. A worker calls it once at start:
// the browser first runs wasm through a quick baseline compiler and only
// optimises a function after it has run for a while, so the user's first
// file would otherwise be parsed by unoptimised code (about 3x slower).
func WarmUp(rounds int) error {
	w, err := simulate.Generate(simulate.Config{Classes: simulate.Normal, Points: simulate.Normal, D: 5, Sigma2: 0.2, K: 40, R: 10, Seed: 1})
	if err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	var b bytes.Buffer
	if err := w.WriteCSV(&b, w.AllClasses()); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	for range rounds {
		if _, _, err := Load(b.Bytes(), "auto"); err != nil {
			return fmt.Errorf("warm-up: %w", err)
		}
	}
	return nil
}
