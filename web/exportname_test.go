package web

import (
	"testing"

	"github.com/cleanex/cleanex/internal/protocol"
)

func TestExportName(t *testing.T) {
	sim := &protocol.SimConfig{Classes: "normal", Points: "uniform", D: 3, Sigma2: 0.1, R: 10, K1: 200, K2: 2000, Seed: 7}
	for _, tc := range []struct {
		source string
		sim    *protocol.SimConfig
		want   string
	}{
		{"Simulation (d = 3, σ² = 0.1, r = 10, k1 = 200 of 2000 classes, seed 7)", sim, "simulation-normal-uniform-d3-sigma2-0.1-r10-k1-200-of-2000-seed7"},
		{"My Pilot.csv.gz", nil, "my-pilot-csv"},
		{"scores (final).csv", nil, "scores-final"},
		{"ÉÉÉ.csv", nil, "cleanex"},
		{"a very long name of a data set that goes on and on and on.csv", nil, "a-very-long-name-of-a-data-set-that-goes"},
	} {
		if got := ExportName(tc.source, tc.sim); got != tc.want {
			t.Errorf("ExportName(%q) = %q, want %q", tc.source, got, tc.want)
		}
	}
}

func TestDownloaded(t *testing.T) {
	if got, want := Downloaded("sim-d5-curves.csv"), "Saved sim-d5-curves.csv (in your browser's downloads)."; got != want {
		t.Errorf("Downloaded = %q, want %q", got, want)
	}
}
