package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/cleanex/cleanex/internal/bank"
)

// errSkip is returned by a forPilots step that had nothing to do for its
// pilot (already cached); such pilots are not reported.
var errSkip = fmt.Errorf("skipped")

// forPilots runs step on every pilot, jobs at a time, and reports each
// finished pilot on stderr with its time. It returns the first error (with
// the pilot's ID) after every pilot is done, or ctx.Err(). step is called
// from several goroutines; the pilots' indices let it fill its own slot of
// a result slice.
func forPilots(ctx context.Context, label string, pilots []bank.Pilot, jobs int, step func(i int, p bank.Pilot) error) error {
	ch := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	done := 0
	start := time.Now()
	for range max(jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range ch {
				t := time.Now()
				err := step(i, pilots[i])
				if err == errSkip {
					continue
				}
				mu.Lock()
				done++
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("%s: %w", pilots[i].ID, err)
				}
				fmt.Fprintf(os.Stderr, "[%s %d/%d %.0fs] %s %.1fs %v\n", label, done, len(pilots), time.Since(start).Seconds(), pilots[i].ID, time.Since(t).Seconds(), err)
				mu.Unlock()
			}
		}()
	}
	for i := range pilots {
		if ctx.Err() != nil {
			break
		}
		ch <- i
	}
	close(ch)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}
