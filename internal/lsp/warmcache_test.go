package lsp

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/internal/workspace"
)

// gatedChecker holds its first check until release is closed, so that a
// test can see what the server published before the engine answered.
type gatedChecker struct {
	fakeChecker
	inner            checker // nil: the fake's rules
	entered, release chan struct{}
	first            bool
}

func newGatedChecker() *gatedChecker {
	return &gatedChecker{entered: make(chan struct{}), release: make(chan struct{}), first: true}
}

func (g *gatedChecker) Check(ctx context.Context, files []analysis.SourceFile, opts analysis.Options) (*analysis.Result, error) {
	g.mu.Lock()
	first := g.first
	g.first = false
	g.mu.Unlock()
	if first {
		close(g.entered)
		select {
		case <-g.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if g.inner != nil {
		return g.inner.Check(ctx, files, opts)
	}
	return g.fakeChecker.Check(ctx, files, opts)
}

// warmAfterCold runs a session (its checker cold, nil: the fake) that
// saves its first result in cache, then one whose checker g is held, and
// returns that one once its first publication of file, sent before g
// answered, has been checked equal to the first session's.
func warmAfterCold(t *testing.T, files map[string]string, file string, co clientOpts, cache analysis.Store, cold checker, g *gatedChecker) *testClient {
	t.Helper()
	opts := []Option{withResultCache(cache, "test-build")}
	if cold != nil {
		opts = append(opts, withChecker(cold))
	}
	first := session(t, files, co, opts...)
	want := first.waitDiags(file, 1, nil)
	if err := first.shutdownExit(); err != nil {
		t.Fatal(err)
	}
	warm := session(t, files, co, withResultCache(cache, "test-build"), withChecker(g))
	got := warm.waitDiags(file, 1, nil)
	if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) {
		t.Fatalf("cached publication differs from the first session's:\n got %+v\nwant %+v", got.Diagnostics, want.Diagnostics)
	}
	return warm
}

// With the real engine: the result read back from the cache publishes
// what the engine's own run publishes, which then sends nothing more.
func TestCachedResultRealEngine(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "analysis", "rules", "testdata", "PAL101", "direct_top_level", "ring.py"))
	if err != nil {
		t.Skip("fixture not available:", err)
	}
	cache := workspace.NewCache(t.TempDir())
	files := map[string]string{"ring.py": string(src)}
	g := newGatedChecker()
	g.inner = analysis.NewEngine()
	warm := warmAfterCold(t, files, "ring.py", clientOpts{root: t.TempDir()}, cache, analysis.NewEngine(), g)
	<-g.entered
	close(g.release)
	// A hover waits for the check of this edit, which runs after the
	// engine's first run was reported (runs are serialised).
	warm.open("other.py", "x = 1\n")
	hoverAtText(t, warm, "other.py", 0, 0)
	if n := warm.pubCount("ring.py"); n != 1 {
		t.Errorf("ring.py published %d times, want once", n)
	}
}

// A session that finds its workspace's result in the cache publishes it
// before the engine has answered, with the content a run without cache
// published, and the engine's own run then re-publishes nothing; a file
// whose content differs from the cached run's gets nothing from the cache.
func TestCachedResultPublishedFirst(t *testing.T) {
	cache := workspace.NewCache(t.TempDir())
	root := t.TempDir()
	files := map[string]string{
		"a.py": "def comm_kernel():\n    pass\n\ncomm_call(x)\n",
		"b.py": "x = 1\n",
	}
	co := clientOpts{root: root}

	// Warm: published while the engine is still held (the gate is only
	// released below), with the content of a run without cached result.
	g := newGatedChecker()
	warm := warmAfterCold(t, files, "a.py", co, cache, nil, g)
	<-g.entered
	close(g.release)
	// A later edit's publication comes after the engine's first run was
	// reported (runs are serialised): a.py must not have been sent again.
	warm.open("b.py", "comm_call(y)\n")
	warm.waitDiags("b.py", 1, nil)
	if n := warm.pubCount("a.py"); n != 1 {
		t.Errorf("a.py published %d times, want once (the engine's equal result is not re-sent)", n)
	}
	if err := warm.shutdownExit(); err != nil {
		t.Fatal(err)
	}

	// Changed content: nothing from the cache before the engine answers.
	changed := map[string]string{"a.py": "def comm_kernel():\n    pass\n\n\ncomm_call(x)\n", "b.py": files["b.py"]}
	g = newGatedChecker()
	other := session(t, changed, co, withResultCache(cache, "test-build"), withChecker(g))
	<-g.entered
	if n := other.pubCount("a.py"); n != 0 {
		t.Fatalf("a.py published %d times before the engine answered for new content", n)
	}
	close(g.release)
	p := other.waitDiags("a.py", 1, nil)
	if p.Diagnostics[0].Range.Start.Line != 4 {
		t.Errorf("finding on line %d, want 4 (the new content's)", p.Diagnostics[0].Range.Start.Line)
	}
	if err := other.shutdownExit(); err != nil {
		t.Fatal(err)
	}
}

// Another build's identity never reads this one's results.
func TestCachedResultOtherBuild(t *testing.T) {
	cache := workspace.NewCache(t.TempDir())
	root := t.TempDir()
	files := map[string]string{"a.py": "def comm_kernel():\n    pass\n\ncomm_call(x)\n"}
	co := clientOpts{root: root}
	cold := session(t, files, co, withResultCache(cache, "build-1"))
	cold.waitDiags("a.py", 1, nil)
	if err := cold.shutdownExit(); err != nil {
		t.Fatal(err)
	}
	g := newGatedChecker()
	tc := session(t, files, co, withResultCache(cache, "build-2"), withChecker(g))
	<-g.entered
	if n := tc.pubCount("a.py"); n != 0 {
		t.Fatalf("a.py published %d times from another build's cache", n)
	}
	close(g.release)
	tc.waitDiags("a.py", 1, nil)
}

func TestDefaultResultCacheEnv(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if c := defaultResultCache("", env(nil)); c != nil {
		t.Error("a cache without a build identity")
	}
	if c := defaultResultCache("id", env(map[string]string{"PALLAS_LS_NO_CACHE": "1", "PALLAS_LS_CACHE_DIR": "/x"})); c != nil {
		t.Error("PALLAS_LS_NO_CACHE=1 did not disable the cache")
	}
	c := defaultResultCache("id", env(map[string]string{"PALLAS_LS_NO_CACHE": "0", "PALLAS_LS_CACHE_DIR": "/x"}))
	if c == nil || c.store.(*workspace.Cache).Dir != "/x" {
		t.Errorf("PALLAS_LS_CACHE_DIR not honoured: %+v", c)
	}
}

// The server's engines read syntax trees from the on-disk cache and save
// the trees their first check parsed after that check (never during it),
// so that a later session whose files changed parses only those.
func TestServerSavesTreesAfterFirstCheck(t *testing.T) {
	dir := t.TempDir()
	cache := workspace.NewCache(dir)
	cfg := newServeConfig([]Option{withResultCache(cache, "test-build")})
	e, ok := cfg.newChecker().(*analysis.Engine)
	if !ok || e.Trees != analysis.Store(cache) || e.ToolID != "test-build" {
		t.Fatalf("default engine: %T, trees %v, tool %q; want the result cache's store and build", cfg.newChecker(), ok, e.ToolID)
	}
	if e.Store != nil {
		t.Error("the server's engine must not save whole results itself (the server does, once)")
	}

	src, err := os.ReadFile(filepath.Join("..", "..", "analysis", "rules", "testdata", "PAL101", "direct_top_level", "ring.py"))
	if err != nil {
		t.Skip("fixture not available:", err)
	}
	eng := analysis.NewEngine()
	eng.Trees, eng.ToolID = cache, "test-build"
	tc := session(t, map[string]string{"ring.py": string(src)}, clientOpts{root: t.TempDir()},
		withResultCache(cache, "test-build"), withChecker(eng))
	tc.waitDiags("ring.py", 1, nil)
	trees := filepath.Join(dir, workspace.CacheSubdir, "tree")
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := 0
		filepath.WalkDir(trees, func(_ string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				n++
			}
			return nil
		})
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no tree saved after the first check")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := tc.shutdownExit(); err != nil {
		t.Fatal(err)
	}
}
