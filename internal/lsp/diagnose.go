package lsp

import (
	"context"
	"sync"
	"time"
)

// diagnoser schedules whole-program checks. Every change calls invalidate,
// which cancels the check in progress and restarts the debounce timer, so a
// burst of keystrokes costs one check. A change that finds no check running
// or scheduled is checked at once: waiting only pays off when changes come
// faster than checks, and a lone edit should not wait for nothing. Runs
// are serialised; a run whose generation is no longer the newest is
// abandoned before it publishes.
// Requests that need fresh results (pull diagnostics, code actions, hover)
// wait for the newest generation with await.
type diagnoser struct {
	s     *server
	delay time.Duration

	mu      sync.Mutex
	gen     uint64 // newest requested generation
	done    uint64 // generation of res
	res     *results
	timer   *time.Timer
	active  int                // runs scheduled and not finished
	cancel  context.CancelFunc // of the running check
	waiters map[chan struct{}]uint64
	stopped bool

	runMu    sync.Mutex        // one run at a time
	reported map[string]string // file -> key of the set last sent (push) or served (pull)
	labels   string            // labelsKey of the last report
}

func newDiagnoser(s *server, delay time.Duration) *diagnoser {
	return &diagnoser{s: s, delay: delay, waiters: map[chan struct{}]uint64{}, reported: map[string]string{}}
}

// invalidate records that the inputs changed and schedules a check.
func (d *diagnoser) invalidate() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped {
		return
	}
	d.gen++
	gen := d.gen
	if d.cancel != nil {
		d.cancel()
	}
	// Busy: a check is running, or one is waiting out the debounce (a
	// burst is under way). Decided before that one is cancelled.
	busy := d.active > 0
	if d.timer != nil && d.timer.Stop() {
		d.active-- // that run will not happen
	}
	delay := d.delay
	if !busy {
		delay = 0
	}
	d.active++
	d.timer = time.AfterFunc(delay, func() { d.run(gen) })
}

// run checks generation gen if it is still the newest, then publishes.
func (d *diagnoser) run(gen uint64) {
	defer d.s.recoverBackground("diagnosis")
	// The run stops counting as active once its results are in, before
	// they are published: a client that answers a publication with its
	// next edit must find the server idle, not debounce that edit.
	finished := false
	finish := func() {
		if !finished {
			finished = true
			d.mu.Lock()
			d.active--
			d.mu.Unlock()
		}
	}
	defer finish()
	d.runMu.Lock()
	defer d.runMu.Unlock()
	ctx, ok := d.begin(gen)
	if !ok {
		return
	}
	defer d.end(gen)
	res, ok := d.s.diagnose(ctx)
	if !ok || !d.complete(gen, res) {
		return
	}
	finish()
	d.s.report(ctx, res)
}

func (d *diagnoser) begin(gen uint64) (context.Context, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if gen != d.gen || d.stopped {
		return nil, false
	}
	ctx, cancel := context.WithCancel(d.s.bg)
	d.cancel = cancel
	return ctx, true
}

func (d *diagnoser) end(gen uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if gen == d.gen && d.cancel != nil {
		d.cancel()
		d.cancel = nil
	}
}

// complete installs res as the results of gen and wakes the requests
// waiting for it, unless a newer change arrived meanwhile.
func (d *diagnoser) complete(gen uint64, res *results) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if gen != d.gen {
		return false
	}
	d.res, d.done = res, gen
	for ch, want := range d.waiters {
		if want <= gen {
			close(ch)
			delete(d.waiters, ch)
		}
	}
	return true
}

// await returns results at least as new as every change made before the
// call. It waits for the pending check if there is one.
func (d *diagnoser) await(ctx context.Context) (*results, error) {
	d.mu.Lock()
	want := d.gen
	if d.res != nil && d.done >= want {
		res := d.res
		d.mu.Unlock()
		return res, nil
	}
	ch := make(chan struct{})
	d.waiters[ch] = want
	d.mu.Unlock()
	select {
	case <-ch:
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.res, nil
	case <-ctx.Done():
		d.mu.Lock()
		delete(d.waiters, ch)
		d.mu.Unlock()
		return nil, ctx.Err()
	}
}

// stop cancels pending work for good (shutdown).
func (d *diagnoser) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopped = true
	if d.timer != nil {
		d.timer.Stop()
	}
	if d.cancel != nil {
		d.cancel()
	}
}
