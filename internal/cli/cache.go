package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/internal/workspace"
)

// newEngine returns the engine for one check: with the on-disk cache
// (summaries and whole results, keyed by content, build and options)
// unless --no-cache. A cache directory that cannot be used only makes the
// run slower. warn receives a malformed $PALLAS_LS_CACHE_LIMIT.
func newEngine(f *checkFlags, getenv func(string) string, warn func(string)) *analysis.Engine {
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
	c := workspace.NewCache(dir)
	if v := getenv("PALLAS_LS_CACHE_LIMIT"); v != "" {
		if n, err := parseSize(v); err != nil {
			warn(fmt.Sprintf("PALLAS_LS_CACHE_LIMIT: %v; using %d MiB", err, c.Limit>>20))
		} else {
			c.Limit = n
		}
	}
	e.Store = c
	e.ToolID = toolID()
	return e
}

// parseSize reads a byte count with an optional binary suffix: 1048576,
// 512K, 64M, 2G (a trailing B or iB is allowed).
func parseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	shift := 0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			shift = 10
		case 'M':
			shift = 20
		case 'G':
			shift = 30
		}
		if shift > 0 {
			t = t[:n-1]
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if err != nil || n < 0 || n > (1<<62)>>shift {
		return 0, fmt.Errorf("%q is not a size such as 256M", s)
	}
	return n << shift, nil
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
