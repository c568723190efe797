package analysis

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

func TestRelevantEntriesAndPruning(t *testing.T) {
	files := []struct {
		path, src   string
		keep, entry bool
	}{
		// A kernel module, what it imports, and what imports it.
		{"/p/app/kernels.py", "from jax.experimental import pallas as pl\nfrom . import flags\nfrom tools import text\n", true, true},
		{"/p/app/flags.py", "RING = True\n", true, false},
		{"/p/app/__init__.py", "", true, false},
		{"/p/main.py", "from app import (  # the kernels\n    kernels,\n)\n", true, true},
		{"/p/cont.py", "from app.kernels \\\n    import run\n", true, true},
		// A shared helper the kernels import: analysed, not an entry.
		{"/p/tools/text.py", "def shout(s):\n    return s\n", true, false},
		{"/p/tools/__init__.py", "", true, false},
		// Plain code that shares that helper but reaches no kernel.
		{"/p/tools/cli.py", "from tools.text import shout\n", false, false},
		{"/p/report.py", "import tools.cli\n", false, false},
		// Files the per-file rules read: kept, not entries.
		{"/p/notes.py", "x = 1  # pallas-ls: ignore[PAL101]\n", true, false},
		{"/p/legacy.py", "from jax.experimental.shard_map import shard_map\n", true, false},
		{"/p/suppressed.py", "import os  # NOQA:pal101\n", true, false},
		// JAX without such an API, other tools' suppressions: not parsed.
		{"/p/plain_jax.py", "import jax\nx = jax.numpy.repeat(1, 2)\n", false, false},
		{"/p/flake.py", "import os  # noqa: F401\n", false, false},
		// JAX's own modules, imported by absolute name: the analysis
		// models them from its tables, so they are no edges (and a
		// function-local import of `lax.pallas_lowerings` names no Pallas).
		{"/p/kernels2.py", "from jax.experimental import pallas as pl\nfrom jax._src import core\n", true, true},
		{"/p/jax/__init__.py", "", false, false},
		{"/p/jax/_src/__init__.py", "", false, false},
		{"/p/jax/_src/core.py", "def f():\n    from jax._src.lax.pallas_lowerings.gpu import ragged_dot\n", false, false},
		// Pallas named only inside a longer attribute (jax's own
		// mlir.py): no kernel; an attribute chain through it: one.
		{"/p/lowering.py", "def f(ctx):\n    return ctx.pallas_lowering_cache\n", false, false},
		{"/p/chain.py", "def f(jax):\n    return jax.experimental.pallas.pallas_call\n", true, true},
		{"/p/tail.py", "x = jax.experimental.pallas", true, true},
		{"/p/uni.py", "x = ctx.pallasé\n", false, false},
		// A module importable only by its package's name: a bare
		// `import random` is the standard library's. A script inside a
		// package imports the module beside it.
		{"/p/lib/__init__.py", "", false, false},
		{"/p/lib/random.py", "from jax.experimental import pallas as pl\n", true, true},
		{"/p/test_data.py", "import random\n", false, false},
		{"/p/bench/__init__.py", "", false, false},
		{"/p/bench/utils.py", "from jax.experimental import pallas as pl\n", true, true},
		{"/p/bench/run.py", "from utils import timer\n", true, true},
		// A configured entry point.
		{"/p/jobs/run.py", "def main():\n    pass\n", true, true},
		// No kernel, but shard_map and a collective (PAL104): an entry.
		// shard_map alone (kept: jax.shard_map has a history PAL301
		// knows), a collective alone or a longer word: no entry.
		{"/p/spmd.py", "import jax\nf = jax.shard_map(lambda x: jax.lax.psum(x, 'i'), mesh=m, in_specs=P('i'), out_specs=P())\n", true, true},
		{"/p/smap.py", "from jax import smap\nfrom jax.lax import axis_index\n", true, true},
		{"/p/sm_only.py", "import jax\nf = jax.shard_map(g, mesh=m, in_specs=P('i'), out_specs=P('i'))\n", true, false},
		{"/p/psum_only.py", "import jax\nf = jax.pmap(lambda x: jax.lax.psum(x, 'i'), axis_name='i')\n", false, false},
		{"/p/longer.py", "my_shard_map_helper = 1\npsum_total = 2\n", false, false},
		// A sharding and a collective, no shard_map (PAL104's library
		// evidence): an entry, but not a test module, nor JAX's own
		// source (its lax.py names both).
		{"/p/layers.py", "import jax\ndef f(x, m):\n    x = jax.lax.with_sharding_constraint(x, NamedSharding(m, P('i')))\n    return jax.lax.psum(x, 'i')\n", true, true},
		{"/p/test_layers.py", "from jax.sharding import NamedSharding\nfrom jax.lax import psum\n", false, false},
		{"/p/jax/_src/lax.py", "from jax.sharding import NamedSharding\nfrom jax.lax import psum\n", false, false},
	}
	var src []SourceFile
	for _, f := range files {
		src = append(src, SourceFile{Path: f.path, Src: []byte(f.src)})
	}
	keep, entry := relevant(src, []string{"jobs.run.main"}, newFileRules(testAnalyzers, true))
	for i, f := range files {
		if keep[i] != f.keep || entry[i] != f.entry {
			t.Errorf("%s: keep=%v entry=%v, want keep=%v entry=%v", f.path, keep[i], entry[i], f.keep, f.entry)
		}
	}
}

// TestPrescanHoldsResolvedImports: pruning never changes a result only if
// the pre-scan's import graph holds every edge the resolver links. For
// every import statement of every file (function bodies included), each
// workspace module the interpreter's resolution reaches (program's
// importTarget, fromTarget, submodule) must be an edge of linkImports.
func TestPrescanHoldsResolvedImports(t *testing.T) {
	projects := map[string][]SourceFile{"inline": importForms()}
	for path, src := range triviaSources(t) {
		if root := projectOf(path); root != "" {
			abs, _ := filepath.Abs(path)
			projects[root] = append(projects[root], SourceFile{Path: abs, Src: src})
		}
	}
	edges := 0
	for name, files := range projects {
		edges += checkResolvedEdges(t, name, files)
	}
	if edges < 40 {
		t.Errorf("only %d resolved import edges checked", edges)
	}
	t.Logf("%d resolved import edges in %d projects", edges, len(projects))
}

// projectOf is the project a fixture file belongs to: its case directory
// (rules/testdata/CODE/case), or the examples.
func projectOf(path string) string {
	parts := strings.Split(filepath.ToSlash(path), "/")
	switch {
	case parts[0] == "rules" && len(parts) > 4:
		return strings.Join(parts[:4], "/")
	case parts[0] == ".." && len(parts) > 2:
		return strings.Join(parts[:2], "/")
	case parts[0] == "testdata" && len(parts) > 2:
		return strings.Join(parts[:2], "/")
	}
	return ""
}

// importForms is a project with every form of import the resolver knows:
// absolute, beside the importer, relative with and without names,
// submodules through `from`, packages, namespace packages, a src/ layout.
func importForms() []SourceFile {
	files := map[string]string{
		"/w/app/__init__.py":     "from . import util\nfrom .sub import deep\n",
		"/w/app/util.py":         "import app.sub.deep as d\nfrom ..tools import text\n",
		"/w/app/sub/__init__.py": "from .deep import f\nfrom .. import util\n",
		"/w/app/sub/deep.py":     "def f():\n    from app import util\n    import tools.text\n",
		"/w/tools/text.py":       "from tools import (\n    other,\n)\n",
		"/w/tools/other.py":      "import helper\n",
		"/w/tools/helper.py":     "x = 1\n",
		"/w/src/lib/__init__.py": "from lib.core import *\n",
		"/w/src/lib/core.py":     "import app.util, tools.other\n",
		"/w/tests/test_a.py":     "import helper_t\nfrom lib import core\nfrom app.sub import deep\n",
		"/w/tests/helper_t.py":   "import jax\nfrom jax.experimental import pallas as pl\n",
		"/w/scripts/run.py":      "from app.sub.deep import f\nimport tools\n",
		"/w/ns/pkg/mod.py":       "from ns.pkg import mod2\nfrom . import mod2 as m2\n",
		"/w/ns/pkg/mod2.py":      "class C:\n    def m(self):\n        from .mod import x\n",
	}
	var out []SourceFile
	for p, src := range files {
		out = append(out, SourceFile{Path: p, Src: []byte(src)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// checkResolvedEdges checks one project and returns the edges it checked.
func checkResolvedEdges(t *testing.T, name string, files []SourceFile) int {
	lay := newLayout(paths(files))
	sums := make([]*ir.Summary, len(files))
	scans := make([]scan, len(files))
	for i, f := range files {
		sums[i] = ir.Summarize(f.Path, f.Src)
		scans[i] = prescan(f.Src, &fileRules{})
	}
	prog := newProgramAt(sums, lay)
	g := linkImports(files, scans, lay)
	n := 0
	for i, s := range sums {
		has := map[int]bool{}
		for _, j := range g.imports[i] {
			has[j] = true
		}
		for _, imp := range allImports(s.Body) {
			for _, m := range resolvedTargets(prog, s, imp) {
				j, ok := g.byPath[m.Path]
				if m.Sum == nil || !ok || m.Sum == s {
					continue // a namespace package, or the file itself
				}
				n++
				if !has[j] {
					t.Errorf("%s: %s imports %s (as the resolver links it), but the pre-scan has no such edge", name, s.Path, m.Path)
				}
			}
		}
	}
	return n
}

// resolvedTargets lists the workspace modules one import statement in s
// runs or reads, as the interpreter resolves them (attr.go).
func resolvedTargets(prog *program, s *ir.Summary, imp *ir.Import) []*module {
	var out []*module
	add := func(m *module) {
		if m != nil {
			out = append(out, m)
		}
	}
	if !imp.From {
		for _, n := range imp.Names {
			if n.As == "" {
				head, _, _ := strings.Cut(n.Name, ".")
				add(prog.importTarget(head, s))
			}
			add(prog.importTarget(n.Name, s))
		}
		return out
	}
	m, _ := prog.fromTarget(imp, s)
	if m == nil {
		return nil
	}
	add(m)
	for _, n := range imp.Names {
		add(prog.submodule(m, n.Name))
	}
	return out
}

// allImports lists the import statements of a body and of everything
// nested in it.
func allImports(body []*ir.Stmt) []*ir.Import {
	var out []*ir.Import
	for _, st := range body {
		if st.Kind == ir.StImport {
			out = append(out, st.Import)
		}
		out = append(out, allImports(st.Body)...)
		out = append(out, allImports(st.Else)...)
		out = append(out, allImports(st.Finally)...)
		if st.Def != nil {
			out = append(out, allImports(st.Def.Body)...)
		}
		if st.Class != nil {
			out = append(out, allImports(st.Class.Body)...)
		}
	}
	return out
}
