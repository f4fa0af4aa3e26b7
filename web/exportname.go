package web

import (
	"fmt"
	"strings"

	"github.com/cleanex/cleanex/internal/protocol"
)

// ExportName is the start of an exported file's name. For a simulation
// (sim not nil) it lists the simulation's parameters, e.g.
// "simulation-normal-normal-d3-sigma2-0.1-r10-k1-200-of-2000-seed1"; for a file it
// is the data set's name in lower-case letters and digits joined by "-",
// without its extension, at most about 40 characters ("cleanex" when nothing
// is left).
func ExportName(source string, sim *protocol.SimConfig) string {
	if sim != nil {
		return fmt.Sprintf("simulation-%s-%s-d%d-sigma2-%g-r%d-k1-%d-of-%d-seed%d",
			sim.Classes, sim.Points, sim.D, sim.Sigma2, sim.R, sim.K1, sim.K2, sim.Seed)
	}
	s := strings.ToLower(source)
	if i := strings.LastIndex(s, "."); i > 0 && !strings.Contains(s[i:], " ") {
		s = s[:i]
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
		if b.Len() >= 40 {
			break
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		return "cleanex"
	}
	return out
}

// Downloaded is the note under the export buttons after a download: the
// file's name and where the browser puts it.
func Downloaded(name string) string {
	return "Saved " + name + " (in your browser's downloads)."
}
