package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/lowering"
)

const defaultReason = "default: newest known (0.11)"

// project makes a temporary repository (a .git marker bounds the upward
// search for requirements files) and returns its root.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	write(t, root, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
	write(t, root, files)
	return root
}

func TestDetectJAXVersionOrder(t *testing.T) {
	pin := map[string]string{"requirements.txt": "jax==0.4.35\n"}
	withConfig := map[string]string{
		"requirements.txt": "jax==0.4.35\n",
		PyProject:          "[tool.pallas-ls]\njax-version = \"0.6\"\n",
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		flag  string
		want  string // version
		why   string // reason; ROOT stands for the project root
	}{
		{"flag first", withConfig, "0.7", "0.7", "--jax-version 0.7"},
		{"then config", withConfig, "", "0.6", "jax-version in ROOT/pyproject.toml [tool.pallas-ls]"},
		{"dot file config", map[string]string{DotFile: "jax-version = \"0.8.1\"\n", "requirements.txt": "jax==0.4.35"},
			"", "0.8.1", "jax-version in ROOT/.pallas-ls.toml"},
		{"then pin", pin, "", "0.4.35", "jax pin `jax==0.4.35` in ROOT/requirements.txt"},
		{"config table without version falls through to pin",
			map[string]string{PyProject: "[project]\ndependencies = [\"jax>=0.5\"]\n[tool.pallas-ls]\nselect = []\n"},
			"", "0.5", "jax pin `jax>=0.5` in ROOT/pyproject.toml [project] dependencies"},
		{"then default", nil, "", "0.11", defaultReason},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := project(t, tc.files)
			got, err := DetectJAXVersion(root, tc.flag)
			if err != nil {
				t.Fatal(err)
			}
			checkChoice(t, got, root, tc.want, tc.why)
		})
	}
}

func TestDetectJAXVersionWithGivenConfig(t *testing.T) {
	root := project(t, map[string]string{"requirements.txt": "jax==0.4.35\n", PyProject: "[tool.pallas-ls]\njax-version = \"0.6\"\n"})
	explicit := &Config{Path: "/etc/ci.toml", JAXVersion: "0.9"}
	got, err := explicit.DetectJAXVersion(root, "")
	if err != nil {
		t.Fatal(err)
	}
	checkChoice(t, got, root, "0.9", "jax-version in /etc/ci.toml")
	var none *Config // no settings at all: the nearest pyproject is not consulted for jax-version
	got, _ = none.DetectJAXVersion(root, "")
	checkChoice(t, got, root, "0.4.35", "jax pin `jax==0.4.35` in ROOT/requirements.txt")
	_, err = (&Config{JAXVersion: "x"}).DetectJAXVersion(root, "")
	if err == nil || !strings.HasPrefix(err.Error(), `jax-version: invalid JAX version "x"`) {
		t.Errorf("bad version without a path: %v", err)
	}
}

func checkChoice(t *testing.T, got VersionChoice, root, version, reason string) {
	t.Helper()
	if want := lowering.MustParse(version); got.Version != want {
		t.Errorf("version %s, want %s", got.Version, want)
	}
	if want := strings.ReplaceAll(reason, "ROOT", root); got.Reason != want {
		t.Errorf("reason %q\n          want %q", got.Reason, want)
	}
}

func TestDetectJAXVersionErrors(t *testing.T) {
	root := project(t, map[string]string{PyProject: "[tool.pallas-ls]\njax-version = \"banana\"\n"})
	_, err := DetectJAXVersion(root, "seven")
	if err == nil || !strings.HasPrefix(err.Error(), `--jax-version: invalid JAX version "seven"`) {
		t.Errorf("bad flag: %v", err)
	}
	_, err = DetectJAXVersion(root, "")
	if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(root, PyProject)+`: jax-version: invalid JAX version "banana"`) {
		t.Errorf("bad config: %v", err)
	}
}

func TestDetectJAXVersionPinForms(t *testing.T) {
	for _, tc := range []struct {
		name, file, content, version, reason string
	}{
		{"exact", "requirements.txt", "jax==0.4.35\n", "0.4.35", "jax pin `jax==0.4.35` in ROOT/requirements.txt"},
		{"extras and pip options", "requirements.txt",
			"jax[tpu]==0.4.35 -f https://storage.googleapis.com/jax-releases/libtpu_releases.html\n", "0.4.35",
			"jax pin `jax[tpu]==0.4.35 -f https://storage.googleapis.com/jax-releases/libtpu_releases.html` in ROOT/requirements.txt"},
		{"look-alikes skipped", "requirements.txt",
			"jaxlib==0.4.20\njaxtyping>=0.2.0\nflax==0.8.0\njax-metal==0.1.0\njax_smi==1.0\njax>=0.4.30\n", "0.4.30",
			"jax pin `jax>=0.4.30` in ROOT/requirements.txt"},
		{"compatible release", "requirements.txt", "jax~=0.5.0\n", "0.5.0", ""},
		{"range takes lower bound", "requirements.txt", "jax>=0.4.30,<0.5\n", "0.4.30", ""},
		{"exclusive lower bound", "requirements.txt", "jax>0.4.30\n", "0.4.30", ""},
		{"wildcard", "requirements.txt", "jax==0.4.*\n", "0.4", ""},
		{"markers and comment", "requirements.txt", "JAX[tpu] == 0.4.31 ; python_version >= '3.10'  # TPU\n", "0.4.31", ""},
		{"upper bound only", "requirements.txt", "jax<0.5\n", "0.11", defaultReason},
		{"url", "requirements.txt", "jax @ https://example.com/jax-0.4.1.tar.gz\n", "0.11", defaultReason},
		{"unparsable skipped", "requirements.txt", "jax==banana\njax>=0.4.2\n", "0.4.2", ""},
		{"continuation", "requirements.txt", "jax==0.4.33 \\\n  --hash=sha256:abc\n", "0.4.33", ""},
		{"other requirements file", "requirements-tpu.txt", "jax[tpu]>=0.6.0\n", "0.6.0",
			"jax pin `jax[tpu]>=0.6.0` in ROOT/requirements-tpu.txt"},
		{"project dependencies", PyProject, "[project]\ndependencies = [\"numpy\", \"jaxlib==0.4.1\", \"jax[tpu]>=0.4.35\"]\n",
			"0.4.35", "jax pin `jax[tpu]>=0.4.35` in ROOT/pyproject.toml [project] dependencies"},
		{"optional dependencies", PyProject,
			"[project]\ndependencies = [\"numpy\"]\n[project.optional-dependencies]\ntpu = [\"jax[tpu]==0.5.1\"]\ncpu = [\"jaxlib\"]\n",
			"0.5.1", "jax pin `jax[tpu]==0.5.1` in ROOT/pyproject.toml [project] optional-dependencies tpu"},
		{"dependency groups", PyProject, "[dependency-groups]\ndev = [{include-group = \"x\"}, \"jax==0.4.38\"]\n",
			"0.4.38", "jax pin `jax==0.4.38` in ROOT/pyproject.toml [dependency-groups] dev"},
		{"poetry caret", PyProject, "[tool.poetry.dependencies]\npython = \"^3.10\"\njax = \"^0.4.30\"\n",
			"0.4.30", "jax pin `jax = \"^0.4.30\"` in ROOT/pyproject.toml [tool.poetry.dependencies]"},
		{"poetry table", PyProject, "[tool.poetry.dependencies]\njax = {version = \"~0.5.2\", extras = [\"tpu\"]}\n", "0.5.2", ""},
		{"poetry exact", PyProject, "[tool.poetry.dependencies]\njax = \"0.6.0\"\n", "0.6.0", ""},
		{"poetry range", PyProject, "[tool.poetry.dependencies]\njax = \">=0.4.30,<0.5\"\n", "0.4.30", ""},
		{"poetry any", PyProject, "[tool.poetry.dependencies]\njax = \"*\"\n", "0.11", defaultReason},
		{"poetry list", PyProject, "[tool.poetry.dependencies]\njax = [{version = \"0.4.37\", python = \">=3.10\"}]\n", "0.4.37", ""},
		{"poetry group", PyProject, "[tool.poetry.group.tpu.dependencies]\njaxlib = \"0.4.1\"\njax = \"0.4.36\"\n",
			"0.4.36", "jax pin `jax = \"0.4.36\"` in ROOT/pyproject.toml [tool.poetry.group.tpu.dependencies]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := project(t, map[string]string{tc.file: tc.content})
			got, err := DetectJAXVersion(filepath.Join(root, "pkg", "mod.py"), "")
			if err != nil {
				t.Fatal(err)
			}
			reason := tc.reason
			if reason == "" {
				reason = got.Reason // only the version is under test
			}
			checkChoice(t, got, root, tc.version, reason)
		})
	}
}

func TestDetectJAXVersionWhereToLook(t *testing.T) {
	t.Run("requirements beside the pyproject", func(t *testing.T) {
		root := project(t, map[string]string{
			PyProject:               "[project]\nname = \"x\"\n",
			"requirements.txt":      "-r requirements/base.txt\n",
			"requirements/base.txt": "jax==0.4.34\n",
		})
		got, _ := DetectJAXVersion(root, "")
		checkChoice(t, got, root, "0.4.34", "jax pin `jax==0.4.34` in ROOT/requirements/base.txt")
	})
	t.Run("requirements.txt before requirements-dev.txt", func(t *testing.T) {
		root := project(t, map[string]string{
			"requirements-dev.txt": "jax==0.4.1\n",
			"requirements.txt":     "jax==0.4.2\n",
		})
		got, _ := DetectJAXVersion(root, "")
		checkChoice(t, got, root, "0.4.2", "jax pin `jax==0.4.2` in ROOT/requirements.txt")
	})
	t.Run("include cycle", func(t *testing.T) {
		root := project(t, map[string]string{"requirements.txt": "-r requirements.txt\n-c requirements.txt\n"})
		got, _ := DetectJAXVersion(root, "")
		checkChoice(t, got, root, "0.11", defaultReason)
	})
	t.Run("nearest pyproject bounds the search", func(t *testing.T) {
		root := project(t, map[string]string{
			"requirements.txt":    "jax==0.4.1\n",
			"sub/" + PyProject:    "[project]\nname = \"sub\"\n",
			"sub/pkg/__init__.py": "",
		})
		got, _ := DetectJAXVersion(filepath.Join(root, "sub", "pkg"), "")
		checkChoice(t, got, root, "0.11", defaultReason)
	})
	t.Run("without pyproject walk up to the repository root", func(t *testing.T) {
		outer := t.TempDir()
		write(t, outer, map[string]string{
			"requirements.txt":         "jax==0.4.1\n", // above the repository: not ours
			"repo/.git/HEAD":           "",
			"repo/requirements-ci.txt": "jax==0.4.20\n",
			"repo/a/b/m.py":            "",
		})
		repo := filepath.Join(outer, "repo")
		got, _ := DetectJAXVersion(filepath.Join(repo, "a", "b"), "")
		checkChoice(t, got, repo, "0.4.20", "jax pin `jax==0.4.20` in ROOT/requirements-ci.txt")
		write(t, outer, map[string]string{"repo/requirements-ci.txt": "numpy\n"})
		got, _ = DetectJAXVersion(filepath.Join(repo, "a", "b"), "")
		checkChoice(t, got, repo, "0.11", defaultReason)
	})
}
