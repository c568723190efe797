package config

import (
	"bytes"
	"os"
	"path/filepath"
)

// FileIn returns the settings file that dir itself holds, or "" if none:
// .pallas-ls.toml when present, else pyproject.toml when it has a
// [tool.pallas-ls] table. A malformed pyproject.toml is only an error when
// it mentions pallas-ls, so an unrelated broken file never blocks a check;
// one that cannot be read at all (a FIFO, a link out of the project) is
// looked past, as it cannot be known to be ours.
func FileIn(dir string) (string, error) {
	f, _ := fileIn(dir)
	if f == "" || filepath.Base(f) != PyProject {
		return f, nil
	}
	if _, err := loadFound(f); err != nil {
		return "", err
	}
	return f, nil
}

// fileIn is FileIn that returns a pyproject.toml mentioning pallas-ls
// even when it is broken (the caller's load reports it), and the reason a
// pyproject.toml present could not be read (a warning).
func fileIn(dir string) (file string, warning error) {
	dot := filepath.Join(dir, DotFile)
	if present(dot) {
		return dot, nil
	}
	py := filepath.Join(dir, PyProject)
	if !present(py) {
		return "", nil
	}
	data, err := readFound(py)
	if err != nil {
		return "", err
	}
	if !bytes.Contains(data, []byte(toolTable)) {
		return "", nil
	}
	doc, err := decodeCached(py, data, true)
	if err != nil {
		return py, nil
	}
	if _, ok, err := toolSection(doc); !ok && err == nil {
		return "", nil
	}
	return py, nil
}

// Find returns the nearest settings file for a file or directory, walking
// up to the filesystem root; "" when there is none. A path that does not
// exist (an unsaved editor buffer) is looked up from its parent.
func Find(path string) (string, error) {
	for dir := startDir(path); ; dir = filepath.Dir(dir) {
		f, err := FileIn(dir)
		if f != "" || err != nil {
			return f, err
		}
		if filepath.Dir(dir) == dir {
			return "", nil
		}
	}
}

// LoadFor is Find followed by loading the file. With no settings file it
// returns an empty Config, never nil, so callers need no special case.
func LoadFor(path string) (*Config, error) {
	f, err := Find(path)
	if err != nil || f == "" {
		return &Config{}, err
	}
	return loadFound(f)
}

// startDir is the absolute directory a lookup for path begins in.
func startDir(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = filepath.Clean(path)
	}
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		return abs
	}
	return filepath.Dir(abs)
}
