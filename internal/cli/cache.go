package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
	"sync"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/internal/workspace"
)

// newEngine returns the engine for one check: with the on-disk cache
// (summaries and whole results, keyed by content, build and options)
// unless --no-cache. A cache directory that cannot be used only makes the
// run slower.
func newEngine(f *checkFlags, getenv func(string) string) *analysis.Engine {
	e := analysis.NewEngine()
	e.OneShot = true
	if f.noCache {
		return e
	}
	dir := f.cacheDir
	if dir == "" {
		dir = getenv("PALLAS_LS_CACHE_DIR")
	}
	if dir == "" {
		d, err := workspace.DefaultCacheDir()
		if err != nil {
			return e
		}
		dir = d
	}
	e.Store = workspace.NewCache(dir)
	e.ToolID = toolID()
	return e
}

var (
	toolIDOnce sync.Once
	toolIDVal  string
)

// toolID identifies this build for cache keys: the VCS revision of a
// clean build, else a hash of the executable itself (every `go run` of
// edited code is a new tool).
func toolID() string {
	toolIDOnce.Do(func() {
		if bi, ok := debug.ReadBuildInfo(); ok {
			rev, modified := "", true
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					rev = s.Value
				case "vcs.modified":
					modified = s.Value == "true"
				}
			}
			if rev != "" && !modified {
				toolIDVal = "rev:" + rev
				return
			}
		}
		toolIDVal = "exe:" + exeHash()
	})
	return toolIDVal
}

func exeHash() string {
	p, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	fh, err := os.Open(p)
	if err != nil {
		return "unknown"
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return "unknown"
	}
	return hex.EncodeToString(h.Sum(nil))
}
