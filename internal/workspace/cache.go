package workspace

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/pallas-ls/pallas-ls/internal/safefs"
)

// DefaultCacheLimit bounds the on-disk cache; past it the oldest entries
// are removed.
const DefaultCacheLimit = 512 << 20

// The cache keeps everything in one subdirectory of the directory it is
// given, marked as its own, because that directory may be anything the
// user typed: ~/.cache, /tmp, or ".". Only that subdirectory is ever
// written, and Trim deletes nothing it cannot prove it wrote (cachetrim.go).
const (
	// CacheSubdir is the directory, under Cache.Dir, that holds every
	// entry; the version is the layout's, so a later layout starts afresh
	// beside it instead of misreading it.
	CacheSubdir = "pallas-ls-cache-v1"
	// markerName is the Cache Directory Tagging standard's file
	// (https://bford.info/cachedir/), which backup tools also honour.
	markerName = "CACHEDIR.TAG"
	markerText = "Signature: 8a477f597d28d172789f06886806bc55\n" +
		"# This file is a cache directory tag created by pallas-ls.\n" +
		"# pallas-ls only ever deletes its own entries here.\n"
	// entryMagic starts every entry; the kind and key follow it, so an
	// entry read under another key (copied, swapped) is a miss.
	entryMagic = "pallas-ls-entry-1\x00"
	// maxEntrySize bounds a read; entries are far smaller (a tree is about
	// 21 bytes per syntax node of a file of at most MaxFileSize).
	maxEntrySize = 2 << 30
)

// Cache is the persistent cache behind `check` (an analysis.Store): one
// file per entry under Dir/CacheSubdir/<kind>/<name[:2]>/<name>, where
// name is the key when it is a SHA-256 in hex (the engine's keys) and the
// SHA-256 of the key otherwise. Each entry begins with its kind and key,
// and Load verifies both. Writes are atomic (a temporary file renamed into
// place), so concurrent runs never read a half-written entry; an
// unreadable, corrupt or foreign entry is a miss and gets rewritten. The
// directory defaults to os.UserCacheDir()/pallas-ls, so XDG_CACHE_HOME
// moves it.
type Cache struct {
	Dir   string
	Limit int64
	mu    sync.Mutex
	wrote atomic.Int64
	once  sync.Once
	r     *os.Root // the cache's own subdirectory, once ensured
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

// root is the subdirectory that holds the entries.
func (c *Cache) root() string { return filepath.Join(c.Dir, CacheSubdir) }

// entryName is the file name of a key: the key itself when it is already
// a hex SHA-256, so names stay readable, else the key's hash.
func entryName(key string) string {
	if isHexName(key) {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

func isHexName(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !(s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'f') {
			return false
		}
	}
	return true
}

func (c *Cache) path(kind, key string) string {
	name := entryName(key)
	return filepath.Join(c.root(), kind, name[:2], name)
}

func entryHeader(kind, key string) []byte {
	return []byte(entryMagic + kind + "\x00" + key + "\n")
}

// Load returns the entry's bytes, or false on a miss, a read error, or an
// entry that was written for another kind or key.
func (c *Cache) Load(kind, key string) ([]byte, bool) {
	if !validKind(kind) {
		return nil, false
	}
	data, err := safefs.ReadFile(c.path(kind, key), maxEntrySize)
	if err != nil {
		return nil, false
	}
	head := entryHeader(kind, key)
	if !bytes.HasPrefix(data, head) {
		return nil, false
	}
	return data[len(head):], true
}

// Save writes an entry atomically; failures are ignored (a cache that
// cannot be written is only slower). Every write goes through an os.Root
// at the cache's own subdirectory, so a symlink planted inside it (the
// cache directory may be a cloned tree's ".") cannot lead a write out.
func (c *Cache) Save(kind, key string, data []byte) {
	r := c.ensureRoot()
	if !validKind(kind) || r == nil {
		return
	}
	name := entryName(key)
	rel := filepath.Join(kind, name[:2], name)
	if err := r.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
		return
	}
	if !writeEntry(r, rel, entryHeader(kind, key), data) {
		return
	}
	if c.wrote.Add(int64(len(data))) > c.Limit/8 {
		c.wrote.Store(0)
		c.Trim()
	}
}

// writeEntry writes header and data to a temporary file beside rel and
// renames it into place, under the write guard so that a signal never
// leaves a temporary file behind.
func writeEntry(r *os.Root, rel string, header, data []byte) bool {
	defer safefs.Writing()()
	tmp := filepath.Join(filepath.Dir(rel), tmpPrefix+randomName())
	fh, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return false
	}
	_, herr := fh.Write(header)
	_, werr := fh.Write(data)
	cerr := fh.Close()
	if herr != nil || werr != nil || cerr != nil || r.Rename(tmp, rel) != nil {
		r.Remove(tmp)
		return false
	}
	return true
}

func randomName() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// tmpPrefix names the temporary files of writeEntry.
const tmpPrefix = ".tmp-"

// ensureRoot creates the cache's own subdirectory with its marker, once
// per Cache, and returns an os.Root at it; nil when it cannot be used (a
// file, a symlink, unwritable, a directory of that name without our
// marker).
func (c *Cache) ensureRoot() *os.Root {
	c.once.Do(func() {
		if err := os.MkdirAll(c.root(), 0o755); err != nil {
			return
		}
		if !owned(c.root()) {
			fh, err := os.OpenFile(filepath.Join(c.root(), markerName), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if err != nil {
				return
			}
			fh.WriteString(markerText)
			fh.Close()
		}
		if owned(c.root()) {
			if c.r, _ = os.OpenRoot(c.root()); c.r != nil {
				runtime.AddCleanup(c, func(r *os.Root) { r.Close() }, c.r)
			}
		}
	})
	return c.r
}

// owned reports whether dir is a real directory (not a symlink) holding
// the marker this package writes, byte for byte.
func owned(dir string) bool {
	st, err := os.Lstat(dir)
	if err != nil || !st.IsDir() {
		return false
	}
	data, err := safefs.ReadFile(filepath.Join(dir, markerName), int64(len(markerText)))
	return err == nil && string(data) == markerText
}

// validKind admits the engine's kinds ("tree", "result") and names like
// them: lower-case letters only, so a kind can never name a path.
func validKind(kind string) bool {
	if kind == "" || len(kind) > 16 {
		return false
	}
	for i := 0; i < len(kind); i++ {
		if kind[i] < 'a' || kind[i] > 'z' {
			return false
		}
	}
	return true
}
