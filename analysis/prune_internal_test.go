package analysis

import "testing"

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
	}
	var src []SourceFile
	for _, f := range files {
		src = append(src, SourceFile{Path: f.path, Src: []byte(f.src)})
	}
	keep, entry := relevant(src, []string{"jobs.run.main"})
	for i, f := range files {
		if keep[i] != f.keep || entry[i] != f.entry {
			t.Errorf("%s: keep=%v entry=%v, want keep=%v entry=%v", f.path, keep[i], entry[i], f.keep, f.entry)
		}
	}
}
