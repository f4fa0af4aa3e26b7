// Command cleanex predicts a classifier's accuracy on more classes than its
// pilot had, simulates the paper's data sets, and backtests the methods.
//
//	cleanex predict --k2 N [--methods plugin,cleanex] [--direction auto|higher|lower] [--seed S] [--preset fast|paper] [--kde-bandwidth lcv|ucv] FILE.csv
//	cleanex simulate --classes normal|uniform --points normal|uniform --d 5 --sigma2 0.1 --k 2000 --r 10 --seed S [--k1 N] [--truth FILE]
//	cleanex backtest --k1 100 --reps 10 [--methods ...] [--seed S] FILE.csv
//
// FILE "-" reads standard input. Results go to standard output as CSV; bad
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
