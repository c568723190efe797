package cli

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalEndsRun: the first signal cancels the run's context; a run
// that ends on its own exits 128+signal (130 for SIGINT, 143 for SIGTERM).
func TestSignalEndsRun(t *testing.T) {
	for sig, want := range map[os.Signal]int{os.Interrupt: 130, syscall.SIGTERM: 143} {
		sigs := make(chan os.Signal, 1)
		sigs <- sig
		stopped := false
		code := runSignalled(sigs, time.Minute, func() { stopped = true }, new(strings.Builder), func(ctx context.Context) int {
			<-ctx.Done()
			return exitError
		})
		if code != want || !stopped {
			t.Errorf("%v: exit %d (writes stopped: %v), want %d, writes stopped before exiting", sig, code, stopped, want)
		}
	}
}

// TestRunEndsAfterWrites: a run that ends by itself, with no signal, also
// waits for the writes in progress (a cache write the server left on a
// goroutine) before the process exits, and keeps its exit code.
func TestRunEndsAfterWrites(t *testing.T) {
	stopped := false
	code := runSignalled(make(chan os.Signal), time.Minute, func() { stopped = true }, new(strings.Builder), func(context.Context) int {
		return exitFindings
	})
	if code != exitFindings || !stopped {
		t.Errorf("exit %d (writes stopped: %v), want %d with writes stopped", code, stopped, exitFindings)
	}
}

// TestSignalStopsStuckRun: a run that ignores its context is abandoned
// after the grace period, or at once on a second signal, after stopping
// writes.
func TestSignalStopsStuckRun(t *testing.T) {
	for _, second := range []bool{false, true} {
		sigs := make(chan os.Signal, 2)
		sigs <- os.Interrupt
		grace := 50 * time.Millisecond
		if second {
			sigs <- os.Interrupt
			grace = time.Hour
		}
		stopped := false
		var stderr strings.Builder
		start := time.Now()
		code := runSignalled(sigs, grace, func() { stopped = true }, &stderr, func(context.Context) int {
			select {} // a read that never returns
		})
		if code != 130 || !stopped || !strings.Contains(stderr.String(), "pallas-ls: interrupted") {
			t.Errorf("second signal %v: exit %d, stopped %v, stderr %q", second, code, stopped, stderr.String())
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("took %v", d)
		}
	}
}

// TestNoSignalKeepsExitCode: without a signal the run's own code stands.
func TestNoSignalKeepsExitCode(t *testing.T) {
	if code := runSignalled(make(chan os.Signal), time.Second, func() {}, new(strings.Builder), func(context.Context) int { return 1 }); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
}
