package workspace

import (
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
)

// DefaultCacheLimit bounds the on-disk cache; past it the oldest entries
// are removed.
const DefaultCacheLimit = 512 << 20

// Cache is the persistent cache behind `check` (an analysis.Store): one
// file per entry under Dir/<kind>/<key[:2]>/<key>. Writes are atomic (a
// temporary file renamed into place), so concurrent runs never read a
// half-written entry; an unreadable or corrupt entry is a miss and gets
// rewritten. The directory defaults to os.UserCacheDir()/pallas-ls, so
// XDG_CACHE_HOME moves it.
type Cache struct {
	Dir   string
	Limit int64
	mu    sync.Mutex
	wrote atomic.Int64
}

// DefaultCacheDir is where the cache lives unless --cache-dir says otherwise.
func DefaultCacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "pallas-ls"), nil
}

// NewCache returns a cache rooted at dir.
func NewCache(dir string) *Cache { return &Cache{Dir: dir, Limit: DefaultCacheLimit} }

func (c *Cache) path(kind, key string) string {
	if len(key) < 3 {
		key = "xx" + key
	}
	return filepath.Join(c.Dir, kind, key[:2], key)
}

// Load returns the entry's bytes, or false on a miss or a read error.
func (c *Cache) Load(kind, key string) ([]byte, bool) {
	data, err := os.ReadFile(c.path(kind, key))
	if err != nil {
		return nil, false
	}
	return data, true
}

// Save writes an entry atomically; failures are ignored (a cache that
// cannot be written is only slower).
func (c *Cache) Save(kind, key string, data []byte) {
	p := c.path(kind, key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), p) != nil {
		os.Remove(tmp.Name())
		return
	}
	if c.wrote.Add(int64(len(data))) > c.Limit/8 {
		c.wrote.Store(0)
		c.Trim()
	}
}

// Trim removes the least recently written entries until the cache is
// under its limit.
func (c *Cache) Trim() {
	c.mu.Lock()
	defer c.mu.Unlock()
	type entry struct {
		path string
		size int64
		mod  int64
	}
	var entries []entry
	var total int64
	filepath.WalkDir(c.Dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			entries = append(entries, entry{p, info.Size(), info.ModTime().UnixNano()})
			total += info.Size()
		}
		return nil
	})
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
