package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree creates files (path -> content) under root; a path ending in
// "/" makes an empty directory.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// discover runs Discover from root and returns the Display names, failing
// on errors and warnings.
func discover(t *testing.T, root string, opts DiscoverOptions, paths ...string) []string {
	t.Helper()
	if opts.WorkDir == "" {
		opts.WorkDir = root
	}
	files, warnings, err := Discover(paths, opts)
	if err != nil {
		t.Fatalf("Discover(%q): %v", paths, err)
	}
	if len(warnings) > 0 {
		t.Fatalf("Discover(%q) warnings: %v", paths, warnings)
	}
	var out []string
	for _, f := range files {
		out = append(out, filepath.ToSlash(f.Display))
	}
	return out
}

func assertFiles(t *testing.T, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("files:\n got %q\nwant %q", got, want)
	}
}

func TestNestedGitignoreWithNegation(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":        "# generated code\n*_gen.py\nbuild/\nsecret.py\n!build/keep.py\n",
		"a.py":              "",
		"x_gen.py":          "",
		"secret.py":         "",
		"notes.txt":         "",
		"build/b.py":        "",
		"build/keep.py":     "", // git cannot re-include inside an ignored dir
		"sub/.gitignore":    "!keep_gen.py\n/local.py\ndocs/gen\n",
		"sub/keep_gen.py":   "",
		"sub/other_gen.py":  "",
		"sub/local.py":      "",
		"sub/deep/local.py": "", // "/local.py" is anchored to sub/
		"sub/docs/gen/g.py": "",
		"sub/x/docs/gen.py": "", // "docs/gen" is anchored too: x/docs/gen is another path
		"sub/build":         "a file, not the ignored directory",
	})
	got := discover(t, root, DiscoverOptions{})
	assertFiles(t, got, "a.py", "sub/deep/local.py", "sub/keep_gen.py", "sub/x/docs/gen.py")
}

func TestDefaultExcludes(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"main.py":                       "",
		".git/hooks/x.py":               "",
		".venv/lib/x.py":                "",
		"venv/x.py":                     "",
		"lib/site-packages/jax/x.py":    "",
		"node_modules/x.py":             "",
		"pkg/__pycache__/x.py":          "",
		".tox/py3/x.py":                 "",
		"myenv/pyvenv.cfg":              "home = /usr/bin",
		"myenv/bin/x.py":                "",
		".github/scripts/ci.py":         "",
		"pkg/mod.py":                    "",
		"pkg/stub.pyi":                  "",
		"pkg/data.json":                 "",
		"pkg/__pycache__/mod.cpython.p": "",
	})
	got := discover(t, root, DiscoverOptions{})
	assertFiles(t, got, ".github/scripts/ci.py", "main.py", "pkg/mod.py")
}

func TestExplicitArgumentsAlwaysChecked(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":     "gen/\nsecret.py\n",
		"secret.py":      "",
		"gen/g.py":       "",
		"gen/sub/h.py":   "",
		"tool":           "#!/usr/bin/env python",
		".venv/x.py":     "",
		"pkg/mod.py":     "",
		"pkg/ignored.py": "",
	})
	got := discover(t, root, DiscoverOptions{}, "secret.py", "tool", "gen", ".venv", "pkg", "pkg/mod.py")
	assertFiles(t, got, ".venv/x.py", "gen/g.py", "gen/sub/h.py", "pkg/ignored.py", "pkg/mod.py", "secret.py", "tool")
}

func TestRepositoryIgnoresAboveArgument(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".git/info/exclude":  "tmp_*.py\n",
		".gitignore":         "generated/\n",
		"pkg/a.py":           "",
		"pkg/tmp_x.py":       "",
		"pkg/generated/g.py": "",
	})
	got := discover(t, root, DiscoverOptions{}, "pkg")
	assertFiles(t, got, "pkg/a.py")
}

func TestIgnoreFilesAboveRepositoryNotRead(t *testing.T) {
	outer := t.TempDir()
	writeTree(t, outer, map[string]string{
		".gitignore":    "*.py\n", // a stray file above the project
		"proj/.git/":    "",
		"proj/pkg/a.py": "",
	})
	got := discover(t, filepath.Join(outer, "proj"), DiscoverOptions{}, "pkg")
	assertFiles(t, got, "pkg/a.py")
}

func TestNestedRepositoryIgnoresOnlyItsOwn(t *testing.T) {
	outer := t.TempDir()
	writeTree(t, outer, map[string]string{
		".git/":             "",
		".gitignore":        "vendor/\na.py\n", // the outer repository's rules
		"vendor/.git/":      "",
		"vendor/lib/a.py":   "",
		"vendor/lib/b.py":   "",
		"vendor/.gitignore": "b.py\n",
	})
	got := discover(t, outer, DiscoverOptions{}, "vendor")
	assertFiles(t, got, "vendor/lib/a.py")
}

func TestExcludeOption(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"proj/a.py":             "",
		"proj/tests/data/x.py":  "",
		"proj/legacy/old.py":    "",
		"proj/legacy/keep.py":   "",
		"proj/other/tests/t.py": "",
	})
	opts := DiscoverOptions{
		Exclude:     []string{"/tests/data", "legacy/*.py", "!legacy/keep.py"},
		ExcludeBase: filepath.Join(root, "proj"),
	}
	got := discover(t, root, opts)
	assertFiles(t, got, "proj/a.py", "proj/legacy/keep.py", "proj/other/tests/t.py")
}

func TestConfigExcludesNearestWins(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"a.py":           "",
		"gen_a.py":       "",
		"sub/gen_b.py":   "",
		"sub/old_b.py":   "",
		"other/gen_c.py": "",
	})
	configs := map[string][]string{
		root:                       {"gen_*.py"},
		filepath.Join(root, "sub"): {"old_*.py"}, // replaces, not adds to, the outer list
	}
	hook := func(dir string) ([]string, bool, error) {
		g, ok := configs[dir]
		return g, ok, nil
	}
	got := discover(t, root, DiscoverOptions{ConfigExcludes: hook})
	assertFiles(t, got, "a.py", "sub/gen_b.py")
	// Walking only sub/ still sees sub's own settings, and walking other/
	// inherits the outer settings through the ancestors.
	assertFiles(t, discover(t, root, DiscoverOptions{ConfigExcludes: hook}, "sub", "other"), "sub/gen_b.py")

	bad := func(string) ([]string, bool, error) { return nil, false, errors.New("x.toml:1:1: invalid TOML") }
	if _, _, err := Discover([]string{root}, DiscoverOptions{ConfigExcludes: bad}); err == nil ||
		err.Error() != "pallas-ls: x.toml:1:1: invalid TOML" {
		t.Errorf("hook error: got %v", err)
	}
}

func TestNonexistentPath(t *testing.T) {
	root := t.TempDir()
	_, _, err := Discover([]string{"path/x"}, DiscoverOptions{WorkDir: root})
	if err == nil {
		t.Fatal("no error for a missing path")
	}
	if want := "pallas-ls: path/x: no such file or directory"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error does not unwrap to fs.ErrNotExist")
	}
}

func TestDisplayRelativeOrAbsolute(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "", "work/b.py": ""})
	work := filepath.Join(root, "work")
	files, _, err := Discover([]string{root, "b.py"}, DiscoverOptions{WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	want := []File{
		{Path: filepath.Join(root, "a.py"), Display: filepath.Join(root, "a.py")},
		{Path: filepath.Join(work, "b.py"), Display: "b.py"},
	}
	if !slices.Equal(files, want) {
		t.Errorf("got %+v\nwant %+v", files, want)
	}
	if d := Display(filepath.Join(root, "..x", "c.py"), root); d != filepath.Join("..x", "c.py") {
		t.Errorf("Display of a ..x directory: %q", d)
	}
}

func TestDefaultArgumentAndWorkDir(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": ""})
	t.Chdir(root)
	files, _, err := Discover(nil, DiscoverOptions{})
	if err != nil || len(files) != 1 || files[0].Display != "a.py" {
		t.Errorf("Discover(nil) = %+v, %v", files, err)
	}
}
