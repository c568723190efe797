package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/pallas-ls/pallas-ls/internal/workspace"
)

// FuzzConfigReaders feeds one input to every reader of configuration
// files: as a pyproject.toml (the selective TOML decoder, checked against
// the whole-document decoder), as a .pallas-ls.toml, as requirements.txt
// (with its includes) and as .gitignore (through discovery). None may
// panic or fail the whole run; the selective decoder must accept what the
// whole decoder accepts and read the same tables from it.
func FuzzConfigReaders(f *testing.F) {
	for _, s := range selectiveCases {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		"-r other.txt\njax==0.4.31 \\\n  --hash=sha256:00\n", "-c constraints.txt\n--requirement=base.txt\n",
		"*.py\n!keep.py\nbuild/\n/a/**/b\n\\#not-a-comment\n", "jax[tpu]>=0.4.30,<0.5; python_version>'3.9'\n",
		"[tool.pallas-ls\n", "a = [[[[1]]]]\n[tool.\"pallas-ls\".x]\n", "tool = { pallas-ls = { jax-version = \"0.7\" } }\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16<<10 {
			return
		}
		checkSelective(t, data)
		dir := t.TempDir()
		write(t, dir, map[string]string{".git/HEAD": "", PyProject: string(data), "requirements.txt": string(data),
			"other.txt": string(data), ".gitignore": string(data), "a.py": "x = 1\n", "sub/" + DotFile: string(data), "sub/b.py": ""})
		r := NewResolver()
		for _, d := range []string{dir, filepath.Join(dir, "sub")} {
			c, _ := r.For(d)
			if _, err := r.JAXVersion(c, d, ""); err != nil {
				t.Fatalf("a validated settings file failed version detection: %v", err)
			}
		}
		if _, _, err := workspace.Discover(nil, workspace.DiscoverOptions{WorkDir: dir, ConfigExcludes: r.ExcludesIn}); err != nil {
			t.Fatalf("discovery failed: %v", err)
		}
		for _, p := range r.Problems() {
			if p.Err == nil || p.Err.Error() == "" {
				t.Fatalf("a problem without a message: %#v", p)
			}
		}
		os.RemoveAll(dir)
	})
}

// checkSelective compares the selective decoder with the whole one.
func checkSelective(t *testing.T, data []byte) {
	var whole map[string]any
	wholeErr := toml.Unmarshal(data, &whole)
	got, err := decodeTOML(PyProject, data, pyprojectPaths)
	if wholeErr != nil {
		return // either may fail; it must not panic
	}
	if err != nil {
		if strings.Contains(err.Error(), "more than 5000 keys") {
			return
		}
		t.Fatalf("valid TOML refused: %v\n%q", err, data)
	}
	for _, path := range pyprojectPaths {
		if w, g := lookupPath(whole, path), lookupPath(got, path); !reflect.DeepEqual(w, g) {
			t.Fatalf("%v: whole %#v, selective %#v\n%q", path, w, g, data)
		}
	}
}
