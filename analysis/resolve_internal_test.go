package analysis

import (
	"path/filepath"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// TestResolveFollowsSysPath: an absolute import names a module beside the
// importer (a script's or a test's own directory), or one importable from
// a directory that may be on sys.path: the root or a directory that is not
// a package. A module inside a package is never importable by its last
// name alone, which used to turn `import random` in a test into
// `pkg/random.py` and tpu-inference's `import vllm` into a test package.
func TestResolveFollowsSysPath(t *testing.T) {
	var sums []*ir.Summary
	for _, p := range []string{
		"pkg/__init__.py", "pkg/random.py", "pkg/utils.py", "pkg/script.py",
		"tests/test_a.py", "tests/utils.py", "tests/layers/__init__.py", "tests/layers/vllm/__init__.py",
		"src/lib/__init__.py", "src/lib/core.py",
		"bench/__init__.py", "bench/mla/__init__.py", "bench/mla/utils.py", "bench/mla/run.py",
		"bench/kv/utils.py", "bench/kv/run.py",
	} {
		sums = append(sums, &ir.Summary{Path: filepath.Join("/w", p)})
	}
	prog := newProgram(sums)
	for _, tc := range []struct{ name, from, want string }{
		{"random", "tests/test_a.py", ""}, // the standard library's
		{"pkg.random", "tests/test_a.py", "pkg/random.py"},
		{"utils", "tests/test_a.py", "tests/utils.py"},
		{"utils", "bench/mla/run.py", "bench/mla/utils.py"}, // a script inside a package
		{"utils", "bench/kv/run.py", "bench/kv/utils.py"},
		{"utils", "pkg/script.py", "pkg/utils.py"},
		{"vllm", "pkg/utils.py", ""}, // the installed package, not tests/layers/vllm
		{"layers.vllm", "tests/test_a.py", "tests/layers/vllm/__init__.py"},
		{"lib.core", "tests/test_a.py", "src/lib/core.py"}, // a src/ layout
		{"bench.mla.utils", "tests/test_a.py", "bench/mla/utils.py"},
	} {
		got := ""
		if m := prog.resolve(tc.name, filepath.Join("/w", tc.from)); m != nil {
			got, _ = filepath.Rel("/w", m.Path)
		}
		if got != tc.want {
			t.Errorf("import %s in %s: got %q, want %q", tc.name, tc.from, got, tc.want)
		}
	}
}

// TestResolveInsideOnePackage: when every file lies in one package (a
// repository whose only Python is its package directory, such as
// tokamax/, or a check of that directory alone), the directory above it
// is what is on sys.path, so the package's own absolute imports
// (`from tokamax._src import ops`) resolve, and so does the pre-scan's
// import graph.
func TestResolveInsideOnePackage(t *testing.T) {
	var sums []*ir.Summary
	var files []SourceFile
	for _, p := range []string{"pkg/__init__.py", "pkg/_src/__init__.py", "pkg/_src/ops.py", "pkg/_src/ops_test.py", "pkg/api.py"} {
		path := filepath.Join("/w", p)
		sums = append(sums, &ir.Summary{Path: path})
		files = append(files, SourceFile{Path: path})
	}
	prog := newProgram(sums)
	for _, tc := range []struct{ name, from, want string }{
		{"pkg._src.ops", "pkg/api.py", "pkg/_src/ops.py"},
		{"pkg.api", "pkg/_src/ops_test.py", "pkg/api.py"},
		{"_src.ops", "pkg/api.py", "pkg/_src/ops.py"}, // beside the importer, as when run as a script
		{"ops", "pkg/api.py", ""},                     // pkg/_src/ is no directory on sys.path
	} {
		got := ""
		if m := prog.resolve(tc.name, filepath.Join("/w", tc.from)); m != nil {
			got, _ = filepath.Rel("/w", m.Path)
		}
		if got != tc.want {
			t.Errorf("import %s in %s: got %q, want %q", tc.name, tc.from, got, tc.want)
		}
	}
	lay := newLayout(paths(files))
	if lay.root != "/w" {
		t.Errorf("layout root %s, want /w (the directory above the package)", lay.root)
	}
	if names := moduleNames("/w/pkg/_src/ops.py", lay); len(names) != 1 || names[0] != "pkg._src.ops" {
		t.Errorf("pkg/_src/ops.py is imported as %v, want [pkg._src.ops]", names)
	}
}
