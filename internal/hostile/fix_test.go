package hostile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixStaysInTree (issue 20, defects 2 and 6): --fix on a tree holding
// every way out (a directory symlink and a file symlink to files outside,
// a hard link to a file outside) and files it must not replace (read-only)
// writes only inside the tree: the fixable files there, including one
// whose name is near NAME_MAX, are fixed, everything else is refused by
// name (exit 2), nothing outside changes and no temporary file is left.
func TestFixStaysInTree(t *testing.T) {
	t.Parallel()
	proj, outside := t.TempDir(), t.TempDir()
	long := strings.Repeat("k", 250) + ".py"
	writeFiles(t, proj, map[string]string{".git/HEAD": "", "k.py": kernel, long: kernel, "ro.py": kernel, "hard.py": kernel})
	writeFiles(t, outside, map[string]string{"lib/victim.py": kernel, "victim2.py": kernel})
	symlink(t, filepath.Join(outside, "lib"), filepath.Join(proj, "vendor"))
	symlink(t, filepath.Join(outside, "victim2.py"), filepath.Join(proj, "link.py"))
	os.Chmod(filepath.Join(proj, "ro.py"), 0o444)
	if err := os.Link(filepath.Join(proj, "hard.py"), filepath.Join(outside, "hard-link.py")); err != nil {
		t.Skip("no hard links:", err)
	}
	beforeOut := snap(t, outside)
	r := run(t, proj, nil, "check", "--fix", "--no-cache", ".")
	bounded(t, r, 2)
	for _, want := range []string{"vendor/victim.py: not writing", "link.py: not writing", "ro.py: not writing", "read-only", "hard.py: not writing", "2 hard links"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, tail(r.stderr))
		}
	}
	beforeOut.same(t, "outside the tree", snap(t, outside))
	for name, wantFixed := range map[string]bool{"k.py": true, long: true, "ro.py": false, "hard.py": false} {
		data, _ := os.ReadFile(filepath.Join(proj, name))
		if fixed := string(data) != kernel; fixed != wantFixed {
			t.Errorf("%.20s: fixed %v, want %v", name, fixed, wantFixed)
		}
	}
	entries, _ := os.ReadDir(proj)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".pallas-ls-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// TestNoWritesWithoutFix: check and --diff on a fixable tree, with and
// without the cache, change nothing in the tree.
func TestNoWritesWithoutFix(t *testing.T) {
	t.Parallel()
	proj := t.TempDir()
	writeFiles(t, proj, map[string]string{"k.py": kernel, "sub/k.py": kernel})
	before := snap(t, proj)
	for _, args := range [][]string{{"check", "--no-cache", "."}, {"check", "--diff", "--no-cache", "."}, {"check", "."}} {
		bounded(t, run(t, proj, nil, args...), 1)
	}
	before.same(t, "the checked tree", snap(t, proj))
}

// TestNeverRunsTheCode: files that would leave a marker outside the tree
// if anything imported or ran them (module code, a __main__ block,
// conftest.py, setup.py) leave none after check, --fix and serve.
func TestNeverRunsTheCode(t *testing.T) {
	t.Parallel()
	proj, outside := t.TempDir(), t.TempDir()
	marker := filepath.Join(outside, "ran")
	code := "open(" + strconvQuote(marker) + ", 'w').write('ran')\n"
	writeFiles(t, proj, map[string]string{"k.py": kernel + code, "conftest.py": code, "setup.py": code,
		"main.py": "import k\nif __name__ == '__main__':\n    " + code})
	bounded(t, run(t, proj, nil, "check", "--no-cache", "."), 1)
	bounded(t, run(t, proj, nil, "check", "--fix", "--no-cache", "."), 0, 1)
	s := newServe(t, proj)
	s.initialize(proj)
	bounded(t, s.shutdown(), 0)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the checked code ran")
	}
}

func strconvQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "\\'") + "'" }
