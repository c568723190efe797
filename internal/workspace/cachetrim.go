package workspace

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/pallas-ls/pallas-ls/internal/safefs"
)

// staleTemp is how old a temporary file of writeEntry must be before Trim
// takes it for the leftover of a killed process rather than a write in
// progress.
const staleTemp = time.Hour

// cacheEntry is one file Trim has proved to be the cache's own.
type cacheEntry struct {
	path string
	size int64
	mod  int64
}

// Trim removes the least recently written entries until the cache is
// under three quarters of its limit, once it is over the limit. It only
// ever looks inside the cache's own marked subdirectory, there only at
// <kind>/<2 hex>/ directories (never through a symlink), and only removes
// regular files named as this package names entries and beginning with
// an entry header (or stale temporary files of its own naming). Anything
// else, wherever it is, is neither counted nor touched.
func (c *Cache) Trim() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !owned(c.root()) {
		return
	}
	entries, total := c.ownEntries()
	if total <= c.Limit {
		return
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].mod < entries[j].mod })
	for _, e := range entries {
		if total <= c.Limit*3/4 {
			break
		}
		if os.Remove(e.path) == nil {
			total -= e.size
		}
	}
}

// ownEntries lists the entries Trim may remove, with their total size.
func (c *Cache) ownEntries() ([]cacheEntry, int64) {
	var out []cacheEntry
	var total int64
	for _, kind := range realSubdirs(c.root(), validKind) {
		for _, shard := range realSubdirs(kind, isShard) {
			for _, e := range ownFiles(shard) {
				out = append(out, e)
				total += e.size
			}
		}
	}
	return out, total
}

// realSubdirs lists the directories in dir whose names pass ok, skipping
// symlinks, so the walk can never leave the cache's own tree.
func realSubdirs(dir string, ok func(string) bool) []string {
	list, _ := os.ReadDir(dir)
	var out []string
	for _, d := range list {
		if d.Type().IsDir() && ok(d.Name()) {
			out = append(out, filepath.Join(dir, d.Name()))
		}
	}
	return out
}

func isShard(name string) bool {
	return len(name) == 2 && isHexName(name+strings.Repeat("0", 62))
}

// ownFiles returns the files of one shard directory that are provably
// entries (or stale temporary files) of this cache.
func ownFiles(shard string) []cacheEntry {
	list, _ := os.ReadDir(shard)
	var out []cacheEntry
	now := time.Now()
	for _, d := range list {
		if !d.Type().IsRegular() {
			continue
		}
		info, err := d.Info()
		if err != nil {
			continue
		}
		p, name := filepath.Join(shard, d.Name()), d.Name()
		entry := isHexName(name) && strings.HasPrefix(name, filepath.Base(shard)) && hasEntryHeader(p)
		stale := strings.HasPrefix(name, tmpPrefix) && now.Sub(info.ModTime()) > staleTemp
		if entry || stale {
			out = append(out, cacheEntry{p, info.Size(), info.ModTime().UnixNano()})
		}
	}
	return out
}

// hasEntryHeader reads the start of a file and checks the entry magic.
func hasEntryHeader(path string) bool {
	fh, err := safefs.OpenRegular(path)
	if err != nil {
		return false
	}
	defer fh.Close()
	head := make([]byte, len(entryMagic))
	_, err = io.ReadFull(fh, head)
	return err == nil && string(head) == entryMagic
}
