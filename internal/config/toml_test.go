package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// selectiveCases are documents whose pallas-ls and dependency tables the
// selective decoder must read exactly as the whole-document decoder does.
var selectiveCases = []string{
	"[tool.pallas-ls]\njax-version = \"0.7\"\n",
	"[tool]\n\"pallas-ls\" = { select = [\"PAL1*\"] }\nruff = { line-length = 100 }\n",
	"tool.pallas-ls.jax-version = \"0.6\"\ntool.black.x = 1\n",
	"[ tool . \"pallas-ls\" ]  # ours\nselect = [\n  \"PAL101\", # one\n  \"PAL102\",\n]\n[tool.other]\nk = 1\n",
	"[project]\nname = \"x\"\ndependencies = [\"jax==0.4.31\"]\n[project.optional-dependencies]\ntpu = [\"jax[tpu]>=0.4\"]\n",
	"[tool.poetry.dependencies]\njax = \"^0.4.30\"\n[tool.poetry.group.dev.dependencies]\njax = { version = \"0.4.1\" }\n[tool.poetry.scripts]\nx = \"y\"\n",
	"[dependency-groups]\ntest = [\"jax==0.4.2\"]\n[[tool.hatch.envs]]\nname = \"a\"\n[[tool.hatch.envs]]\nname = \"b\"\n",
	"s = \"\"\"\n[tool.pallas-ls]\nselect = 1\n\"\"\"\n[tool.pallas-ls]\nignore = [\"PAL9*\"]\n",
	"[tool.pallas-ls]\r\nexclude = ['gen/**']\r\n[tool.x]\r\ny = 'z'\r\n",
	"[tool.pallas-ls]\nseverity = { PAL103 = \"error\" }\n[tool.pallas-ls.extra]\nk = 1\n",
	"# only a comment\n",
	"",
}

// TestSelectiveDecodeMatchesWholeDecode: for valid documents, the tables
// pallas-ls reads come out the same as from decoding everything.
func TestSelectiveDecodeMatchesWholeDecode(t *testing.T) {
	for _, src := range selectiveCases {
		var whole map[string]any
		if err := toml.Unmarshal([]byte(src), &whole); err != nil {
			t.Fatalf("case is not valid TOML: %v\n%s", err, src)
		}
		got, err := decodeTOML("pyproject.toml", []byte(src), pyprojectPaths)
		if err != nil {
			t.Errorf("selective decode failed: %v\n%s", err, src)
			continue
		}
		for _, path := range pyprojectPaths {
			if w, g := lookupPath(whole, path), lookupPath(got, path); !reflect.DeepEqual(w, g) {
				t.Errorf("%v: whole %v, selective %v\n%s", path, w, g, src)
			}
		}
	}
}

// lookupPath follows a key path ("*" takes every key) and returns what it
// reaches, for comparison.
func lookupPath(doc map[string]any, path []string) any {
	var cur any = doc
	for i, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		if k == "*" {
			// The entries that have the rest of the path: a table the
			// selective decoder need not keep (`[tool.poetry.group.0.0]`,
			// a group without dependencies) reads as absent, as it does
			// to the config readers.
			out := map[string]any{}
			for name, v := range m {
				if w := lookupPath(map[string]any{"x": v}, append([]string{"x"}, path[i+1:]...)); w != nil {
					out[name] = w
				}
			}
			if len(out) == 0 {
				return nil
			}
			return out
		}
		cur = m[k]
	}
	return cur
}

// TestSelectiveDecodeKeepsErrors: syntax errors anywhere, and semantic
// errors in the tables pallas-ls reads, stay errors, reported at the line
// and column the whole-document decoder gives.
func TestSelectiveDecodeKeepsErrors(t *testing.T) {
	for _, src := range []string{
		"[tool.other]\nx = [\n",
		"[tool.pallas-ls]\nselect = []\nselect = []\n",
		"[tool.pallas-ls]\n[tool.pallas-ls]\n",
		"a = 1\n[tool.pallas-ls]\njax-version = \"0.7\n",
		"[tool.x]\ny = 1\n[tool.pallas-ls]\nz = {a = 1, a = 2}\n",
		"[tool.pallas-ls\n",
		"[tool.x]\ny = 1 z\n[tool.pallas-ls]\n",
	} {
		var de *toml.DecodeError
		if err := toml.Unmarshal([]byte(src), new(map[string]any)); !errors.As(err, &de) {
			t.Fatalf("case has no decode error: %v\n%s", err, src)
		}
		line, col := de.Position()
		want := fmt.Sprintf("pyproject.toml:%d:%d: invalid TOML", line, col)
		_, err := decodeTOML("pyproject.toml", []byte(src), pyprojectPaths)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %v, want %s\n%s", err, want, src)
		}
	}
}

func manyKeys(table string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[tool.pallas-ls]\njax-version = \"0.7\"\n[%s]\n", table)
	for i := range n {
		fmt.Fprintf(&b, "k%d = %d\n", i, i)
	}
	return b.String()
}

// TestLargeTOMLIsFast (issue 20, defect 7): 100,000 keys in a table
// pallas-ls does not read cost nothing (the whole-document decode took
// 70 s); 100,000 in its own table are refused at once.
func TestLargeTOMLIsFast(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"other/" + PyProject: manyKeys("tool.other", 100000),
		"ours/" + PyProject: manyKeys("tool.pallas-ls.severity", 100000)})
	start := time.Now()
	c, err := Load(filepath.Join(dir, "other", PyProject))
	if err != nil || c.JAXVersion != "0.7" {
		t.Errorf("Load = %+v, %v", c, err)
	}
	_, err = Load(filepath.Join(dir, "ours", PyProject))
	if err == nil || !strings.Contains(err.Error(), "more than 5000 keys") {
		t.Errorf("100,000 keys in [tool.pallas-ls]: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("two 100,000-key files took %v", d)
	}
}

// TestPyprojectDecodedOnce (issue 20, defect 7): settings lookup, excludes
// and version detection of one directory decode its pyproject.toml once.
func TestPyprojectDecodedOnce(t *testing.T) {
	root := project(t, map[string]string{PyProject: tableOnly + "exclude = [\"gen/\"]\n[project]\ndependencies = [\"jax==0.4.35\"]\n"})
	decoded.Lock()
	before := decoded.count
	decoded.Unlock()
	r := NewResolver()
	cfg, _ := r.For(root)
	r.ExcludesIn(root)
	vc, _ := r.JAXVersion(&Config{}, root, "")
	FileIn(root)
	if cfg.Path == "" || vc.Version.String() != "0.4.35" {
		t.Fatalf("For = %+v, version %v", cfg, vc)
	}
	decoded.Lock()
	defer decoded.Unlock()
	if n := decoded.count - before; n != 1 {
		t.Errorf("pyproject.toml decoded %d times, want 1", n)
	}
}
