package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// write creates files (path -> content) under root.
func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadDotFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{DotFile: `
jax-version = "0.7"
select = ["PAL1*", "PAL301"]
ignore = ["PAL302"]
severity = {PAL103 = "error"}
exclude = ["gen/", "*_pb2.py"]
shard-map-wrappers = ["mylib.smap"]
entry-points = ["train.main"]
frobnicate = true
[experimental]
x = 1
`})
	c, err := Load(filepath.Join(dir, DotFile))
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Path:             filepath.Join(dir, DotFile),
		JAXVersion:       "0.7",
		Select:           []string{"PAL1*", "PAL301"},
		Ignore:           []string{"PAL302"},
		Severity:         map[string]string{"PAL103": "error"},
		Exclude:          []string{"gen/", "*_pb2.py"},
		ShardMapWrappers: []string{"mylib.smap"},
		EntryPoints:      []string{"train.main"},
		UnknownKeys:      []string{"experimental", "frobnicate"},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
	if c.Dir() != dir {
		t.Errorf("Dir() = %q", c.Dir())
	}
}

func TestLoadPyProjectWithSnakeCaseAliases(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{PyProject: `
[project]
name = "demo"
[tool.ruff]
line-length = 100
[tool.pallas-ls]
jax_version = "0.4.35"
shard_map_wrappers = ["a.b"]
entry_points = ["c.d"]
`})
	c, err := Load(filepath.Join(dir, PyProject))
	if err != nil {
		t.Fatal(err)
	}
	if c.JAXVersion != "0.4.35" || c.ShardMapWrappers[0] != "a.b" || c.EntryPoints[0] != "c.d" || c.UnknownKeys != nil {
		t.Errorf("got %+v", c)
	}
}

func TestLoadPyProjectWithoutTable(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{PyProject: "[project]\nname = \"x\"\n"})
	c, err := Load(filepath.Join(dir, PyProject))
	if err != nil || c.Path == "" || c.JAXVersion != "" {
		t.Errorf("Load = %+v, %v", c, err)
	}
}

func TestLoadOtherFileNames(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"ci.toml":        "select = [\"PAL1*\"]\n",                                            // --config FILE: top-level keys
		"pyproject.ci":   "[project]\nname = \"x\"\n[tool.pallas-ls]\nselect = [\"PAL3*\"]\n", // pyproject-shaped
		DotFile + ".bak": "[tool.pallas-ls]\nignore = [\"PAL9*\"]\n",
	})
	for name, check := range map[string]func(*Config) bool{
		"ci.toml":        func(c *Config) bool { return c.Select[0] == "PAL1*" && c.UnknownKeys == nil },
		"pyproject.ci":   func(c *Config) bool { return c.Select[0] == "PAL3*" && c.UnknownKeys == nil },
		DotFile + ".bak": func(c *Config) bool { return c.Ignore[0] == "PAL9*" },
	} {
		c, err := Load(filepath.Join(dir, name))
		if err != nil || !check(c) {
			t.Errorf("Load(%s) = %+v, %v", name, c, err)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct{ name, file, content, want string }{
		{"syntax", DotFile, "select = [\"PAL1\"\nignore = 3\n", DotFile + ":2:1: invalid TOML: "},
		{"syntax pyproject", PyProject, "[tool.pallas-ls]\njax-version = \"0.7\n", PyProject + ":2:19: invalid TOML: basic strings cannot have new lines"},
		{"duplicate key", DotFile, "select = []\nselect = []\n", DotFile + ":2:1: invalid TOML: "},
		{"select type", DotFile, "select = \"PAL101\"\n", ": select must be a list of strings, got a string"},
		{"select item", DotFile, "select = [\"PAL101\", 3]\n", ": select must be a list of strings; item 2 is an integer"},
		{"severity type", DotFile, "severity = [\"error\"]\n", ": severity must be a table of strings"},
		{"severity value", DotFile, "severity = {PAL103 = 1}\n", ": severity.PAL103 must be a string, got an integer"},
		{"version float", DotFile, "jax-version = 0.10\n", ": jax-version must be a quoted string such as \"0.7\""},
		{"both spellings", DotFile, "jax-version = \"0.7\"\njax_version = \"0.8\"\n", ": both jax-version and jax_version are set"},
		{"table type", PyProject, "[tool]\npallas-ls = 3\n", ": tool.pallas-ls must be a table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{tc.file: tc.content})
			_, err := Load(filepath.Join(dir, tc.file))
			if err == nil {
				t.Fatal("no error")
			}
			if want := filepath.Join(dir, tc.file); !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q does not start with the file name", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), DotFile)); err == nil {
		t.Error("no error for a missing file")
	}
}

func TestOptions(t *testing.T) {
	c := &Config{
		Path:             "/p/pyproject.toml",
		Select:           []string{"PAL1*"},
		Ignore:           []string{"PAL103"},
		Severity:         map[string]string{"PAL103": "error", "pal302": "Hint"},
		ShardMapWrappers: []string{"w"},
		EntryPoints:      []string{"e"},
	}
	v := VersionChoice{Version: lowering.V(0, 7, 0), Reason: "--jax-version 0.7"}
	got, err := c.Options(v)
	if err != nil {
		t.Fatal(err)
	}
	want := analysis.Options{
		JAXVersion:       lowering.V(0, 7, 0),
		JAXVersionReason: "--jax-version 0.7",
		Select:           []string{"PAL1*"},
		Ignore:           []string{"PAL103"},
		Severity:         map[string]analysis.Severity{"PAL103": analysis.SeverityError, "PAL302": analysis.SeverityHint},
		ShardMapWrappers: []string{"w"},
		EntryPoints:      []string{"e"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}

	c.Severity["PAL101"] = "fatal"
	_, err = c.Options(v)
	if want := `/p/pyproject.toml: severity for PAL101: "fatal" is not one of error, warning, info, hint`; err == nil || err.Error() != want {
		t.Errorf("bad severity: %v", err)
	}
	var none *Config
	if o, err := none.Options(v); err != nil || o.JAXVersion != v.Version || o.Severity != nil {
		t.Errorf("nil Config: %+v, %v", o, err)
	}
}

func TestKnownKeys(t *testing.T) {
	want := []string{"entry-points", "exclude", "ignore", "jax-version", "platform", "select", "severity", "shard-map-wrappers", "tpu-chip"}
	if got := KnownKeys(); !reflect.DeepEqual(got, want) {
		t.Errorf("KnownKeys() = %q", got)
	}
}

func TestPlatformAndChip(t *testing.T) {
	c, err := fromTable(map[string]any{"platform": "TPU", "tpu-chip": "v7x"})
	if err != nil || c.Platform != "tpu" || c.TPUChip != "7x" {
		t.Fatalf("got %+v, %v", c, err)
	}
	o, err := c.Options(VersionChoice{})
	if err != nil || o.Platform != "tpu" || o.TPUChip != "7x" {
		t.Fatalf("Options: %+v, %v", o, err)
	}
	c, _ = fromTable(map[string]any{"platform": "auto", "tpu_chip": "TPU v6 lite"})
	if o, _ := c.Options(VersionChoice{}); o.Platform != "" || o.TPUChip != "v6e" {
		t.Errorf("auto and an alias: %+v", o)
	}
	for _, bad := range []map[string]any{
		{"platform": "cuda"}, {"platform": int64(1)}, {"tpu-chip": "h100"}, {"tpu-chip": []any{"v6e"}},
	} {
		if _, err := fromTable(bad); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
