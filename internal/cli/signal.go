package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/pallas-ls/pallas-ls/internal/safefs"
)

// signalGrace is how long a signalled run may take to wind down on its
// own (a check stops between files and between interpreter steps, the
// server shuts down) before the process stops it.
const signalGrace = 2 * time.Second

// Run is the process: Main under signal handling. SIGINT (Ctrl-C) or
// SIGTERM cancels the run, which then writes nothing more; a run that
// has not ended signalGrace later, or a second signal, is stopped after
// the writes in progress finish (safefs.StopWrites), so no file is left
// half-written and no temporary file is left behind. Either way the exit
// code is the shell's for death by that signal: 130 for SIGINT, 143 for
// SIGTERM. A run that ends by itself also waits for the writes in
// progress (a background cache write) before returning. cmd/pallas-ls
// passes the result to os.Exit.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	return runSignalled(sigs, signalGrace, safefs.StopWrites, stderr, func(ctx context.Context) int {
		return Main(ctx, args, stdin, stdout, stderr)
	})
}

// runSignalled runs main under ctx cancelled by the first signal on sigs;
// stop is called before a run is abandoned.
func runSignalled(sigs <-chan os.Signal, grace time.Duration, stop func(), stderr io.Writer, main func(context.Context) int) int {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	done := make(chan int, 1)
	go func() { done <- main(ctx) }()
	var got os.Signal
	var deadline <-chan time.Time
	for {
		select {
		case code := <-done:
			// A cache write still going (the server saves trees on a
			// goroutine of its own after a check) finishes first.
			stop()
			if got != nil {
				return signalCode(got)
			}
			return code
		case s := <-sigs:
			if got == nil {
				got = s
				cancel(errors.New("interrupted by " + s.String()))
				deadline = time.After(grace)
				continue
			}
		case <-deadline:
		}
		stop()
		printError(stderr, "interrupted")
		return signalCode(got)
	}
}

// signalCode is 128 plus the signal's number, as a shell reports a process
// killed by it.
func signalCode(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 128 + int(syscall.SIGINT)
}
