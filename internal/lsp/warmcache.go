package lsp

import (
	"context"
	"os"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/internal/workspace"
)

// The server's first check of a workspace folder is a cold whole-program
// run (seconds on a large tree), while `check` with a warm cache answers
// in a fraction of that. So on its first check of each group the server
// looks in the same on-disk cache for a result saved for exactly this
// build, these options and these files' paths and contents
// (analysis.CachedResult), publishes it at once, and then runs the check
// as always: the engine's state is what later edits resume from, and
// report re-publishes only files whose diagnostics differ, which for an
// exact key is none. The first complete run of each group is saved under
// that key, so the next session starts warm.

// resultCache is the on-disk cache the server reads its first results
// from and saves them to; store nil disables it.
type resultCache struct {
	store  analysis.Store
	toolID string
	// looked holds the groups whose first check looked in the cache,
	// saved those whose result was found there or saved since (diagnose
	// runs one at a time).
	looked, saved map[string]bool
}

// WithToolID names this build for cache keys (as `check` does), which
// enables the on-disk result cache: $PALLAS_LS_CACHE_DIR, else
// workspace.DefaultCacheDir(), unless $PALLAS_LS_NO_CACHE is set to
// anything but "" or "0". Without it the server never touches the cache.
func WithToolID(id string) Option {
	return func(c *serveConfig) {
		c.cache = defaultResultCache(id, os.Getenv)
	}
}

// withResultCache sets the cache and build identity (tests).
func withResultCache(st analysis.Store, toolID string) Option {
	return func(c *serveConfig) { c.cache = newResultCache(st, toolID) }
}

func newResultCache(st analysis.Store, toolID string) *resultCache {
	return &resultCache{store: st, toolID: toolID, looked: map[string]bool{}, saved: map[string]bool{}}
}

func defaultResultCache(id string, getenv func(string) string) *resultCache {
	if v := getenv("PALLAS_LS_NO_CACHE"); id == "" || v != "" && v != "0" {
		return nil
	}
	dir := getenv("PALLAS_LS_CACHE_DIR")
	if dir == "" {
		d, err := workspace.DefaultCacheDir()
		if err != nil {
			return nil
		}
		dir = d
	}
	return newResultCache(workspace.NewCache(dir), id)
}

// publishCached publishes, for every group not yet looked up, the result
// the cache holds for exactly its files and options. The caller holds
// d.runMu (it is diagnose's).
func (s *server) publishCached(ctx context.Context, snap *snapshot) {
	c := s.cfg.cache
	if c == nil || c.store == nil {
		return
	}
	early := newResults(snap)
	hits := 0
	for _, g := range snap.groups {
		for _, p := range g.paths {
			early.groupOf[p] = g.key
			early.failed[p] = true // nothing to say about it yet
		}
		if c.looked[g.key] {
			continue
		}
		c.looked[g.key] = true
		files, opts := s.groupInput(snap, g, s.optionsFor(g.key))
		r, ok := analysis.CachedResult(c.store, c.toolID, files, opts)
		if !ok {
			continue
		}
		c.saved[g.key] = true // this very key is there already
		hits++
		early.opts[g.key] = opts
		for _, p := range g.paths {
			early.failed[p] = false
		}
		early.add(r, g)
	}
	if hits == 0 || ctx.Err() != nil {
		return
	}
	s.log.infof("published cached results of %d of %d groups; checking", hits, len(snap.groups))
	s.report(ctx, early)
}

// treeSaver is an engine that queues the syntax trees it parsed for its
// on-disk cache (analysis.Engine.Trees) instead of writing them during a
// check.
type treeSaver interface{ UnsavedTrees() func() }

// saveTrees writes, on a goroutine of its own, the trees group key's
// engine parsed and queued: after the check, so that writing them never
// delays diagnostics, and one file after another, so that it takes at
// most one core from the edits that follow. A session that finds no saved
// result for its files (one changed since the last session) then parses
// only the files that changed.
func (s *server) saveTrees(key string) {
	e, ok := s.engine(key).(treeSaver)
	if !ok {
		return
	}
	if save := e.UnsavedTrees(); save != nil {
		go save()
	}
}

// saveFirstResult saves the first complete result of a group, so that
// the next session can publish it at once.
func (s *server) saveFirstResult(snap *snapshot, g group, opts analysis.Options, r *analysis.Result) {
	c := s.cfg.cache
	if c == nil || c.store == nil || c.saved[g.key] {
		return
	}
	c.saved[g.key] = true
	files, opts := s.groupInput(snap, g, opts)
	analysis.SaveResult(c.store, c.toolID, files, opts, r)
}
