package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress draws a one-line progress indicator with an ETA on stderr, only
// when stderr is a terminal (a character device); otherwise it is silent.
type progress struct {
	w     io.Writer // nil when stderr is not a terminal
	label string
	start time.Time
	last  time.Time
	drawn bool
}

func newProgress(stderr io.Writer, label string) *progress {
	p := &progress{label: label, start: time.Now()}
	if f, ok := stderr.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.w = stderr
		}
	}
	return p
}

// update redraws the line (at most 10 times a second) for the share f of
// the work done, with what is running now.
func (p *progress) update(f float64, what string) {
	if p.w == nil {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	elapsed := now.Sub(p.start)
	eta := "?"
	if f > 0 {
		eta = (time.Duration(float64(elapsed) * (1 - f) / f)).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r\033[K%s: %5.1f%%  %s  elapsed %s  ETA %s", p.label, 100*f, what, elapsed.Round(time.Second), eta)
	p.drawn = true
}

// done clears the line.
func (p *progress) done() {
	if p.w != nil && p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}
