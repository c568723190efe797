package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/pallas-ls/pallas-ls/internal/cli"
)

func main() {
	// Ctrl-C or SIGTERM cancels the run: a check stops between files and
	// --fix never leaves a half-written file (writes are atomic); the
	// language server shuts down cleanly.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
