// Command cleanex predicts a classifier's accuracy on more classes than its
// pilot had (predict), simulates the paper's data sets (simulate), and
// backtests the methods (backtest). "cleanex -h" prints the usage (the usage
// constant in run.go), "cleanex COMMAND -h" a command's flags; README.md
// shows examples.
//
// FILE is the pilot in any format docs/formats.md §1 lists (CSV or TSV,
// gzip-compressed or not, NumPy .npz, Parquet), told from its first bytes;
// two .npy files are the scores and the labels. FILE may also hold labelled
// embeddings (.npz or CSV, docs/embeddings.md), which predict, summarise and
// backtest score themselves (--metric, --reference), and which simulate
// --embeddings writes as a teaching example. FILE "-" reads standard
// input. Results go to standard output as CSV; bad
// input exits with status 2 and one line on standard error saying what is
// wrong where; progress with an ETA goes to standard error when it is a
// terminal.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := runContext(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
