package workspace

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestCacheRoundTripAndTrim(t *testing.T) {
	c := NewCache(t.TempDir())
	if _, ok := c.Load("summary", "abcdef"); ok {
		t.Fatal("hit on empty cache")
	}
	c.Save("summary", "abcdef", []byte("data"))
	if got, ok := c.Load("summary", "abcdef"); !ok || string(got) != "data" {
		t.Fatalf("got %q %v", got, ok)
	}
	// Concurrent writers of the same key never leave a torn entry.
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c.Save("summary", "shared", bytes.Repeat([]byte{byte('a' + i)}, 4096))
		}(i)
	}
	wg.Wait()
	got, _ := c.Load("summary", "shared")
	if len(got) != 4096 || bytes.Count(got, got[:1]) != 4096 {
		t.Fatal("torn cache entry")
	}
	c.Limit = 10000
	for i := 0; i < 10; i++ {
		c.Save("result", string(rune('a'+i))+"0000", make([]byte, 3000))
	}
	c.Trim()
	var total int64
	filepath.WalkDir(c.Dir, func(p string, d os.DirEntry, err error) error {
		if info, err := d.Info(); err == nil && !d.IsDir() {
			total += info.Size()
		}
		return nil
	})
	if total > c.Limit {
		t.Errorf("cache holds %d bytes, limit %d", total, c.Limit)
	}
}
