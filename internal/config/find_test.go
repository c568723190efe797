package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const tableOnly = "[tool.pallas-ls]\n"

func TestFindNearestPyProjectWins(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		PyProject:                       tableOnly + "jax-version = \"0.6\"\n",
		"a/" + PyProject:                tableOnly,
		"a/b/" + PyProject:              "[project]\nname = \"no-table\"\n", // skipped: no [tool.pallas-ls]
		"a/b/c/mod.py":                  "",
		"other/" + PyProject:            "[tool.ruff]\n",
		"other/pkg/x.py":                "",
		"broken/" + PyProject:           "this is [ not toml", // no mention of us: not our problem
		"broken/y.py":                   "",
		"ours-broken/" + PyProject:      "[tool.pallas-ls\n",
		"ours-broken/z.py":              "",
		"dot/" + DotFile:                "",
		"dot/" + PyProject:              tableOnly, // same directory: the dot file wins
		"dot/inner/" + PyProject:        tableOnly, // but a nearer pyproject beats a farther dot file
		"dot/inner/deeper/w.py":         "",
		"dot/inner/deeper/" + DotFile:   "select = []\n",
		"dot/inner/deeper/z/nothing.py": "",
	})
	for _, tc := range []struct{ from, want string }{
		{"a/b/c/mod.py", "a/" + PyProject},
		{"a/b/c", "a/" + PyProject},
		{"a", "a/" + PyProject},
		{"other/pkg/x.py", PyProject},
		{"broken/y.py", PyProject},
		{"dot", "dot/" + DotFile},
		{"dot/inner", "dot/inner/" + PyProject},
		{"dot/inner/deeper/z/nothing.py", "dot/inner/deeper/" + DotFile},
		{"a/b/unsaved.py", "a/" + PyProject}, // not on disk yet: looked up from its directory
	} {
		got, err := Find(filepath.Join(root, tc.from))
		if err != nil {
			t.Errorf("Find(%s): %v", tc.from, err)
			continue
		}
		if want := filepath.Join(root, tc.want); got != want {
			t.Errorf("Find(%s) = %s, want %s", tc.from, got, want)
		}
	}
	_, err := Find(filepath.Join(root, "ours-broken", "z.py"))
	if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(root, "ours-broken", PyProject)+":1:16: invalid TOML") {
		t.Errorf("malformed pyproject with our table: %v", err)
	}
}

func TestFindNone(t *testing.T) {
	root := t.TempDir()
	got, err := Find(root)
	// The temp dir's ancestors are outside the test's control; only check
	// that nothing inside it was invented.
	if err != nil || strings.HasPrefix(got, root) {
		t.Errorf("Find(empty dir) = %q, %v", got, err)
	}
}

func TestLoadFor(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"proj/" + PyProject: tableOnly + "select = [\"PAL101\"]\nmystery = 1\n",
		"proj/src/m.py":     "",
	})
	c, err := LoadFor(filepath.Join(root, "proj", "src", "m.py"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != filepath.Join(root, "proj", PyProject) || !reflect.DeepEqual(c.UnknownKeys, []string{"mystery"}) {
		t.Errorf("LoadFor = %+v", c)
	}
}

func TestResolver(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		DotFile:          "exclude = [\"gen/\"]\n",
		"sub/" + DotFile: "exclude = [\"old/\"]\nselect = [\"PAL3*\"]\n",
		"sub/deep/a.py":  "",
		"bad/" + DotFile: "exclude = 1\n",
	})
	r := NewResolver()
	for i := 0; i < 2; i++ { // the second round is served from the cache
		c, err := r.For(filepath.Join(root, "sub", "deep", "a.py"))
		if err != nil || c.Path != filepath.Join(root, "sub", DotFile) || c.Select[0] != "PAL3*" {
			t.Fatalf("For = %+v, %v", c, err)
		}
	}
	if c, err := r.For(root); err != nil || c.Path != filepath.Join(root, DotFile) {
		t.Errorf("For(root) = %+v, %v", c, err)
	}
	globs, ok, err := r.ExcludesIn(filepath.Join(root, "sub"))
	if err != nil || !ok || !reflect.DeepEqual(globs, []string{"old/"}) {
		t.Errorf("ExcludesIn(sub) = %q, %v, %v", globs, ok, err)
	}
	if _, ok, err := r.ExcludesIn(filepath.Join(root, "sub", "deep")); ok || err != nil {
		t.Errorf("ExcludesIn(deep) = %v, %v", ok, err)
	}
	// A broken file has no excludes and stops nothing; it is recorded once.
	if globs, ok, err := r.ExcludesIn(filepath.Join(root, "bad")); globs != nil || !ok || err != nil {
		t.Errorf("ExcludesIn(bad) = %q, %v, %v; want no globs, a file, no error", globs, ok, err)
	}
	if c, err := r.For(filepath.Join(root, "bad", "x.py")); c == nil || c.Path != "" ||
		err == nil || !strings.Contains(err.Error(), "exclude must be a list of strings") {
		t.Errorf("For(bad) = %+v, %v; want the defaults and the error", c, err)
	}
	probs := r.Problems()
	if len(probs) != 1 || probs[0].Warning || !strings.Contains(probs[0].Err.Error(), "exclude must be a list of strings") {
		t.Errorf("Problems() = %v, want the broken file once", probs)
	}
	if probs := r.Problems(); len(probs) != 0 {
		t.Errorf("Problems() again = %v, want none", probs)
	}
}
