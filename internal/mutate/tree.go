package main

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// skipDir: directories neither copied nor mutated (VCS, tool caches,
// environments), as the checker skips them too.
func skipDir(name string) bool {
	switch name {
	case ".git", ".hg", ".venv", "venv", "site-packages", "node_modules", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache":
		return true
	}
	return false
}

// keepFile: the files a scratch copy needs for the check: Python sources
// and the files that settle settings, the JAX version and ignores.
func keepFile(name string) bool {
	if strings.HasSuffix(name, ".py") || name == "pyproject.toml" || name == ".pallas-ls.toml" || name == ".gitignore" {
		return true
	}
	return strings.HasPrefix(name, "requirements") && strings.HasSuffix(name, ".txt")
}

// pyFiles lists the repository's Python files (slash paths relative to
// root), sorted, skipping what skipDir skips.
func pyFiles(root string) (py, md []string, err error) {
	var out []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".py") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".md") {
			rel, _ := filepath.Rel(root, p)
			md = append(md, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	sort.Strings(md)
	return out, md, err
}

// copyTree copies the files keepFile keeps from src into dst (created),
// never following symlinks out of the tree: a symlink is skipped.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if p != src && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !keepFile(d.Name()) {
			return nil
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
}

func copyFile(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// under reports whether rel is inside one of the prefixes (all when none).
func under(rel string, prefixes []string) bool {
	if len(prefixes) == 0 {
		return true
	}
	for _, p := range prefixes {
		if pre, ok := strings.CutSuffix(p, "*"); ok {
			if strings.HasPrefix(rel, pre) {
				return true
			}
			continue
		}
		p = strings.TrimSuffix(filepath.ToSlash(p), "/")
		if rel == p || strings.HasPrefix(rel, p+"/") {
			return true
		}
	}
	return false
}
