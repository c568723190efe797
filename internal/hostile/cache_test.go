package hostile

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCacheDirFullOfOtherFiles (issue 20, defect 1): --cache-dir pointing
// at a directory full of other files (a home cache, the project itself),
// with a cache limit so small that every run trims, deletes none of them:
// only the cache's own subdirectory changes.
func TestCacheDirFullOfOtherFiles(t *testing.T) {
	t.Parallel()
	old := time.Now().Add(-30 * 24 * time.Hour)
	for _, where := range []string{"separate", "the project"} {
		t.Run(where, func(t *testing.T) {
			proj, _, _ := bigTree(t, 20)
			cache := t.TempDir()
			if where == "the project" {
				cache = proj
			}
			writeFiles(t, cache, map[string]string{
				"thesis.tex": "x", "tree/ab/abcdef0123": "y", "result/00/" + hex64: "z",
				".tmp-old": "w", "pallas-ls/tree/ab/" + hex64: "v",
			})
			filepath.Walk(cache, func(p string, _ os.FileInfo, _ error) error { return os.Chtimes(p, old, old) })
			before := snap(t, cache)
			env := []string{"PALLAS_LS_CACHE_LIMIT=4K"}
			for range 2 { // cold, then warm
				bounded(t, run(t, proj, env, "check", "--cache-dir", cache, "."), 1)
			}
			after := snap(t, cache)
			for p := range after {
				if isUnder(p, filepath.Join(cache, "pallas-ls-cache-v1")) {
					delete(after, p)
				}
			}
			delete(before, cache) // its mtime: the cache's subdirectory was added
			delete(after, cache)
			before.same(t, "the cache directory", after)
			wholeCache(t, filepath.Join(cache, "pallas-ls-cache-v1"))
		})
	}
}

const hex64 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func isUnder(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && (len(rel) < 3 || rel[:3] != "../")
}
