package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write puts the corpus under dir, which must be empty or absent.
func (c *Corpus) Write(dir string) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty; give -keep a new or empty directory", dir)
	}
	made := map[string]bool{}
	for _, f := range c.Files {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		if d := filepath.Dir(path); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			made[d] = true
		}
		if err := os.WriteFile(path, f.Src, 0o644); err != nil {
			return err
		}
	}
	return nil
}
