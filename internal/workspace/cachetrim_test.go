package workspace

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// hexKey is a key shaped like the engine's (a hex SHA-256).
func hexKey(i int) string {
	sum := sha256.Sum256([]byte(fmt.Sprint(i)))
	return hex.EncodeToString(sum[:])
}

// TestCacheTrimDeletesOnlyItsOwnEntries (issue 20, defect 1): a cache
// directory that is also the user's (~/.cache, /tmp, ".") keeps every
// file the cache did not write, however old and large, including files
// named like entries, files reached through a symlink, and files placed
// inside the cache's own directories.
func TestCacheTrimDeletesOnlyItsOwnEntries(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	old := time.Now().Add(-48 * time.Hour)
	foreign := map[string][]byte{
		filepath.Join(dir, "thesis.tex"):                  bytes.Repeat([]byte("x"), 20000),
		filepath.Join(dir, "tree", "ab", hexKey(1)):       bytes.Repeat([]byte("y"), 20000), // the old layout's shape
		filepath.Join(dir, "other-tool", "result", "big"): bytes.Repeat([]byte("z"), 20000),
		filepath.Join(outside, hexKey(2)):                 bytes.Repeat([]byte("w"), 20000),
	}
	for p, data := range foreign {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	c := NewCache(dir)
	c.Limit = 10000
	for i := range 10 {
		c.Save("result", hexKey(100+i), make([]byte, 3000))
	}
	// Files dropped into the cache's own tree by someone else, and a
	// symlink from it to a directory elsewhere.
	ours := filepath.Dir(c.path("result", hexKey(100)))
	planted := map[string][]byte{
		filepath.Join(ours, filepath.Base(ours)+hexKey(3)[2:]): []byte("no header"),
		filepath.Join(ours, "notes.txt"):                       []byte("keep"),
	}
	for p, data := range planted {
		os.WriteFile(p, data, 0o644)
		os.Chtimes(p, old, old)
		foreign[p] = data
	}
	os.Symlink(outside, filepath.Join(filepath.Dir(ours), "ff"))
	c.Trim()
	for p, data := range foreign {
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s was deleted or changed by Trim: %v", p, err)
		}
	}
	if n := entriesSize(t, c); n > c.Limit {
		t.Errorf("the cache's own entries hold %d bytes after Trim, limit %d", n, c.Limit)
	}
}

// entriesSize sums the entries Load can read back.
func entriesSize(t *testing.T, c *Cache) int64 {
	var n int64
	for i := range 10 {
		if data, ok := c.Load("result", hexKey(100+i)); ok {
			n += int64(len(data))
		}
	}
	return n
}

// TestCacheTrimNeedsItsMarker: a directory that merely has the cache's
// name, without the marker the cache writes, is never trimmed.
func TestCacheTrimNeedsItsMarker(t *testing.T) {
	dir := t.TempDir()
	c := NewCache(dir)
	c.Save("result", hexKey(1), make([]byte, 3000))
	c.Limit = 1000
	if err := os.Remove(filepath.Join(dir, CacheSubdir, markerName)); err != nil {
		t.Fatal(err)
	}
	c.Trim()
	if _, ok := c.Load("result", hexKey(1)); !ok {
		t.Error("Trim deleted an entry of a directory without the cache's marker")
	}
}

// TestCacheEntryUnderAnotherKeyIsAMiss (issue 20, defect 10): swapping
// two entries' files (two projects' results) makes both misses, never
// the other project's result.
func TestCacheEntryUnderAnotherKeyIsAMiss(t *testing.T) {
	c := NewCache(t.TempDir())
	c.Save("result", hexKey(1), []byte("project one: 7 findings"))
	c.Save("result", hexKey(2), []byte("project two: clean"))
	files := map[string]string{}
	filepath.WalkDir(c.Dir, func(p string, d fs.DirEntry, err error) error {
		if data, err := os.ReadFile(p); err == nil && d.Type().IsRegular() {
			for _, want := range []string{"project one", "project two"} {
				if bytes.Contains(data, []byte(want)) {
					files[want] = p
				}
			}
		}
		return nil
	})
	one, two := files["project one"], files["project two"]
	if one == "" || two == "" {
		t.Fatalf("entries not found on disk: %v", files)
	}
	a, _ := os.ReadFile(one)
	b, _ := os.ReadFile(two)
	os.WriteFile(one, b, 0o644)
	os.WriteFile(two, a, 0o644)
	for i, other := range map[int]string{1: "project two", 2: "project one"} {
		if data, ok := c.Load("result", hexKey(i)); ok && bytes.Contains(data, []byte(other)) {
			t.Errorf("key %d answered with %q", i, data)
		}
	}
}

// TestCacheWritesStayInside: a symlink planted in the cache's own tree
// (the cache directory may be a cloned project's ".") cannot lead an
// entry's write out of it; such a save is only a miss.
func TestCacheWritesStayInside(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	c := NewCache(dir)
	c.Save("tree", hexKey(1), []byte("first"))
	shard := filepath.Join(dir, CacheSubdir, "result", hexKey(2)[:2])
	os.MkdirAll(filepath.Dir(shard), 0o755)
	if err := os.Symlink(outside, shard); err != nil {
		t.Skip("no symlinks:", err)
	}
	c.Save("result", hexKey(2), []byte("second"))
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the cache wrote outside its directory: %v", entries)
	}
	if _, ok := c.Load("tree", hexKey(1)); !ok {
		t.Error("the first entry is gone")
	}
}
