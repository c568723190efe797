package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/oracle"
	"github.com/pallas-ls/pallas-ls/pyparse"
)

func readTree(t *testing.T, rel string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "tree", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func byID(ms []Mutant) map[string]Mutant {
	out := map[string]Mutant{}
	for _, m := range ms {
		out[m.ID] = m
	}
	return out
}

// Every operator on the small tree: which mutants, where, what they
// change; each mutant parses, keeps every line number, and differs from
// every other.
func TestOperators(t *testing.T) {
	src := readTree(t, "kernels.py")
	ms, err := Mutants("kernels.py", src)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ desc, changed string }{
		"kernels.py:32:remove-shard-map":   {"shard_map(ring, ...) -> ring", "    (ring\n"},
		"kernels.py:39:remove-shard-map":   {"remove the shard_map decorator of step", "@jax.jit\n    "},
		"kernels.py:44:remove-shard-map":   {"shard_map(local, ...) -> local", "local_all = local\n"},
		"kernels.py:32:narrow-axis-names":  {`add axis_names={"x"} (mesh axes x, y)`, `out_specs=(P("x"), P(None, "y")), axis_names={"x"}`},
		"kernels.py:39:narrow-axis-names":  {`add axis_names={"x"} (mesh axes x, y)`, `out_specs=P("x", "y"), axis_names={"x"})`},
		"kernels.py:44:narrow-axis-names":  {`add axis_names={"x"} (mesh axes x, y)`, `out_specs=P("x"), axis_names={"x"})`},
		"kernels.py:32:shard-map-to-jit":   {"shard_map(ring, ...) -> jax.jit(ring, in/out_shardings)", `(jax.jit(ring, in_shardings=jax.sharding.NamedSharding(mesh, P("x")), out_shardings=(jax.sharding.NamedSharding(mesh, P("x")), jax.sharding.NamedSharding(mesh, P(None, "y"))))`},
		"kernels.py:39:shard-map-to-jit":   {"decorator partial(shard_map, ...) -> partial(jax.jit, in/out_shardings) on step", `@functools.partial(jax.jit, in_shardings=jax.sharding.NamedSharding(mesh, P("x", "y")), out_shardings=jax.sharding.NamedSharding(mesh, P("x", "y")))`},
		"kernels.py:44:shard-map-to-jit":   {"shard_map(local, ...) -> jax.jit(local, in/out_shardings)", `local_all = jax.jit(local, in_shardings=`},
		"kernels.py:51:narrow-axis-names":  {`add axis_names={"x"} (mesh axes x, y)`, `out_specs=P(), axis_names={"x"})`},
		"kernels.py:51:remove-shard-map":   {"shard_map(local_kernel, ...) -> local_kernel", "replicated = local_kernel\n"},
		"kernels.py:51:shard-map-to-jit":   {"shard_map(local_kernel, ...) -> jax.jit(local_kernel, in/out_shardings)", `jax.jit(local_kernel, in_shardings=jax.sharding.NamedSharding(mesh, P()), out_shardings=jax.sharding.NamedSharding(mesh, P()))`},
		"kernels.py:31:call-body-directly": {"jit(shard_map(ring, ...)) -> ring", "ring_all = (ring\n"},
		"kernels.py:39:call-body-directly": {"remove the jit and shard_map decorators of step", "\n        \n"},
		"kernels.py:14:rename-axis":        {`axis AXIS ("x") -> "x_renamed" in axis_index(...)`, `lax.axis_index("x_renamed")`},
		"kernels.py:15:rename-axis":        {`axis "x" -> "x_renamed" in axis_size(...)`, `lax.axis_size("x_renamed")`},
		"kernels.py:17:rename-axis":        {`axis "x" -> "x_renamed" in make_async_remote_copy(...)`, `device_id={"x_renamed": right, "y": 0}`},
		"kernels.py:17:rename-axis#2":      {`axis "y" -> "y_renamed" in make_async_remote_copy(...)`, `device_id={"x": right, "y_renamed": 0}`},
		"kernels.py:41:rename-axis":        {`axis "y" -> "y_renamed" in psum(...)`, `lax.psum(ring(x), "y_renamed")`},
	}
	got := byID(ms)
	for id, w := range want {
		m, ok := got[id]
		if !ok {
			t.Errorf("missing mutant %s", id)
			continue
		}
		if m.Desc != w.desc {
			t.Errorf("%s: desc %q, want %q", id, m.Desc, w.desc)
		}
		if !strings.Contains(string(m.Src), w.changed) {
			t.Errorf("%s: mutant lacks %q:\n%s", id, w.changed, m.Src)
		}
	}
	for id := range got {
		if _, ok := want[id]; !ok {
			t.Errorf("unexpected mutant %s: %s", id, got[id].Desc)
		}
	}
	seen := map[string]string{}
	for _, m := range ms {
		if strings.Count(string(m.Src), "\n") != strings.Count(string(src), "\n") {
			t.Errorf("%s changes the number of lines", m.ID)
		}
		tree, err := pyparse.Parse(m.Src)
		if err != nil {
			t.Fatal(err)
		}
		if errs := tree.SyntaxErrors(); len(errs) > 0 {
			t.Errorf("%s is not valid Python: %v\n%s", m.ID, errs, m.Src)
		}
		if other, dup := seen[string(m.Src)]; dup {
			t.Errorf("%s repeats %s", m.ID, other)
		}
		seen[string(m.Src)] = m.ID
	}
	if !got["kernels.py:32:shard-map-to-jit"].Sharded || got["kernels.py:51:shard-map-to-jit"].Sharded {
		t.Error("Sharded: in_specs naming an axis")
	}
	if got["kernels.py:14:rename-axis"].Site != "ring_kernel" || got["kernels.py:32:remove-shard-map"].Site != "" {
		t.Errorf("sites: %q %q", got["kernels.py:14:rename-axis"].Site, got["kernels.py:32:remove-shard-map"].Site)
	}
}

// jax.experimental.shard_map has auto= (the complement) instead of
// axis_names=; an existing multi-axis axis_names is narrowed in place.
func TestNarrowSpellings(t *testing.T) {
	src := `from jax.experimental.shard_map import shard_map
from jax.sharding import Mesh
import jax

def run(devs, body, body2):
  mesh = Mesh(devs, ("a", "b", "c"))
  f = shard_map(body, mesh=mesh, in_specs=P("a"), out_specs=P("a"),)
  g = jax.shard_map(body2, mesh=mesh, in_specs=P("a"), out_specs=P("a"), axis_names={"a", "b"})
`
	ms, err := Mutants("m.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := byID(ms)
	if m := got["m.py:7:narrow-axis-names"]; !strings.Contains(string(m.Src), `out_specs=P("a"), auto=frozenset({"b", "c"}))`) {
		t.Errorf("experimental shard_map: %s", m.Src)
	}
	if m := got["m.py:8:narrow-axis-names"]; !strings.Contains(string(m.Src), `axis_names={"a"})`) || m.Desc != `axis_names={"a", "b"} -> {"a"}` {
		t.Errorf("axis_names narrowed: %q %s", m.Desc, m.Src)
	}
	// A one-axis mesh gives nothing to narrow; no mesh at all neither.
	ms, _ = Mutants("n.py", []byte("import jax\nmesh = jax.make_mesh((8,), ('x',))\nf = jax.shard_map(g, mesh=mesh, in_specs=P('x'), out_specs=P('x'))\nh = jax.shard_map(g, in_specs=P('x'), out_specs=P('x'))\n"))
	for _, m := range ms {
		if m.Op == OpNarrowAxes || (m.Op == OpShardMapToJit && m.Line == 4) {
			t.Errorf("unexpected %s: %s", m.ID, m.Desc)
		}
	}
}

func TestNotebook(t *testing.T) {
	md := readTree(t, "docs/guide.md")
	py, ok := notebookPython(md)
	if !ok {
		t.Fatal("no code cell found")
	}
	if strings.Count(string(py), "\n") != strings.Count(string(md), "\n") {
		t.Fatal("the notebook's lines moved")
	}
	lines := strings.Split(string(py), "\n")
	if lines[6] != "import jax" || lines[5] != "" || lines[18] != "def f(x):" || lines[17] != "" {
		t.Errorf("lines: %q", lines)
	}
	if strings.Contains(string(py), "not_a_cell") || strings.Contains(string(py), "prose") || strings.Contains(string(py), "%matplotlib") ||
		strings.Contains(string(py), "colab") || strings.Contains(string(py), "---") || !strings.Contains(string(py), "\ny = f(1)\n") {
		t.Errorf("non-code kept:\n%s", py)
	}
	if _, ok := notebookPython([]byte("# no cells\n```python\nx = 1\n```\n")); ok {
		t.Error("a plain fence is not a code cell")
	}
}

func TestEntryFor(t *testing.T) {
	test := readTree(t, "ring_test.py")
	f, err := parseFile("ring_test.py", test)
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := Mutants("ring_test.py", test)
	got := map[string]entry{}
	for _, m := range ms {
		got[m.ID] = entryFor(f, m)
	}
	if e := got["ring_test.py:13:remove-shard-map"]; e.Kind != "method" || e.Class != "RingTest" || e.Method != "test_ring" || strings.Join(e.Others, ",") != "test_ring" {
		t.Errorf("test method: %+v", e)
	}
	if e := got["ring_test.py:17:remove-shard-map"]; e.Kind != "" || !strings.Contains(e.Why, "outside any test") {
		t.Errorf("helper: %+v", e)
	}
	if e := got["ring_test.py:22:remove-shard-map"]; e.Kind != "function" || e.Function != "test_plain" {
		t.Errorf("pytest function: %+v", e)
	}
	lib := readTree(t, "kernels.py")
	lf, _ := parseFile("kernels.py", lib)
	if e := entryFor(lf, Mutant{File: "kernels.py", Site: "ring"}); e.Kind != "" || !strings.Contains(e.Why, "library") {
		t.Errorf("library: %+v", e)
	}
	sf, _ := parseFile("run.py", []byte("def main():\n  pass\n\nif __name__ == '__main__':\n  main()\n"))
	if e := entryFor(sf, Mutant{File: "run.py", Site: "main"}); e.Kind != "script" {
		t.Errorf("script: %+v", e)
	}
}

func TestStaticJudge(t *testing.T) {
	rels := []string{"kernels.py", "ring_test.py"}
	parsed := map[string]*file{}
	load := func(rel string) *file {
		if f, ok := parsed[rel]; ok {
			return f
		}
		f, err := parseFile(rel, readTree(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		parsed[rel] = f
		return f
	}
	w := newWorkspace(rels, load)
	lib := load("kernels.py")
	for _, c := range []struct {
		op, body, validity string
		valid              bool
		why                string
	}{
		{OpRemoveShardMap, "ring", "static", true, "kernels.py:ring_kernel (axis_index("},
		{OpRemoveShardMap, "local", "unjudged", false, "no communicating"},
		{OpNarrowAxes, "local", "unjudged", false, "no communicating"},
		{OpNarrowAxes, "step", "static", true, "Pallas kernel: kernels.py:ring (pallas_call)"},
		{OpRenameAxis, "x", "static", true, "unbound axis"},
	} {
		r := &Result{Mutant: Mutant{Op: c.op, Body: c.body}}
		w.judge(lib, r)
		if r.Validity != c.validity || r.Valid != c.valid || !strings.Contains(r.Why, c.why) {
			t.Errorf("%s on %s: %s %v %q", c.op, c.body, r.Validity, r.Valid, r.Why)
		}
	}
	// shard_map -> jit over a kernel with in_specs naming an axis: the
	// kernel's operands are sharded under a multi-device jit.
	for _, c := range []struct {
		sharded  bool
		validity string
	}{{true, "static"}, {false, "unjudged"}} {
		r := &Result{Mutant: Mutant{Op: OpShardMapToJit, Body: "local_kernel", Sharded: c.sharded}}
		w.judge(load("kernels.py"), r)
		if r.Validity != c.validity {
			t.Errorf("sharded=%v: %s %q", c.sharded, r.Validity, r.Why)
		}
	}
	// Through an import: the test's kernels.ring reaches the ring kernel.
	r := &Result{Mutant: Mutant{Op: OpCallDirectly, Body: "kernels.ring"}}
	w.judge(load("ring_test.py"), r)
	if !r.Valid || !strings.Contains(r.Why, "kernels.py:ring_kernel") {
		t.Errorf("imported body: %v %q", r.Valid, r.Why)
	}
}

func TestMessageMatches(t *testing.T) {
	if !oracle.MessageMatches("Found an unbound axis name: {axis}. To fix", "Found an unbound axis name: y. To fix this, ...") {
		t.Error("placeholder")
	}
	if oracle.MessageMatches("Found an unbound axis name: x", "Mosaic kernels cannot be automatically partitioned") || oracle.MessageMatches("", "x") {
		t.Error("mismatch")
	}
}

func TestReport(t *testing.T) {
	nameErr := &OracleError{Type: "NameError", Message: "Found an unbound axis name: x", Layer: "trace"}
	rs := []*Result{
		{Mutant: Mutant{File: "a.py", Line: 1, Op: OpRemoveShardMap, Desc: "d1"}, Outcome: "killed", Validity: "oracle", Valid: true, Oracle: nameErr, FirstError: "right"},
		{Mutant: Mutant{File: "a.py", Line: 2, Op: OpRemoveShardMap, Desc: "d2"}, Outcome: "killed", Validity: "oracle", Valid: true, Oracle: nameErr, FirstError: "wrong",
			New: []Finding{{Code: "PAL101", Severity: "error"}}},
		{Mutant: Mutant{File: "a.py", Line: 3, Op: OpRemoveShardMap, Desc: "d3"}, Outcome: "survived", Validity: "oracle", Valid: true, Oracle: nameErr},
		{Mutant: Mutant{File: "a.py", Line: 4, Op: OpRemoveShardMap, Desc: "d4"}, Outcome: "survived", Validity: "oracle", Valid: false, Why: "JAX ran the mutant without an error"},
		{Mutant: Mutant{File: "b.py", Line: 5, Op: OpRenameAxis, Desc: "d5"}, Outcome: "info-only", Validity: "static", Valid: true, Why: "axis renamed"},
		{Mutant: Mutant{File: "b.py", Line: 6, Op: OpRenameAxis, Desc: "d6"}, Outcome: "killed", Validity: "static", Valid: true},
		{Mutant: Mutant{File: "b.py", Line: 7, Op: OpShardMapToJit, Desc: "d7"}, Outcome: "survived", Validity: "unjudged"},
	}
	rep := Report(map[string][]*Result{"demo": rs})
	for _, want := range []string{
		"| demo | remove-shard-map | 3 | 2 | 0 | 1 | 67% | 1 (50%) | 1 |",
		"| demo | rename-axis | 2 | 1 | 1 | 0 | 50% |",
		"Not counted: 1 mutants the oracle ran without a JAX error (or that only failed a test's own assertion), 1 unjudged",
		"- demo `a.py:3` remove-shard-map: d3; JAX: NameError: Found an unbound axis name: x",
		"- demo `b.py:5` rename-axis: d5; axis renamed",
		"- demo `a.py:2` remove-shard-map: d2; JAX: NameError: Found an unbound axis name: x; pallas-ls: PAL101",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
	if strings.Contains(rep, "d4") || strings.Contains(rep, "d7") {
		t.Errorf("invalid or unjudged mutants listed:\n%s", rep)
	}
}

// The whole pipeline on the small tree with a stand-in binary: copies,
// checks, restores, classifies; the source tree is never written.
func TestRunPipeline(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("testdata", "tree"))
	before, _ := os.ReadFile(filepath.Join(root, "kernels.py"))
	out := t.TempDir()
	cfg := &config{repo: root, name: "tree", bin: filepath.Join(root, "fakebin.sh"), out: out, jobs: 2, noOracle: true,
		ops: map[string]bool{}}
	for _, o := range Operators {
		cfg.ops[o] = true
	}
	if err := run(cfg); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(root, "kernels.py"))
	if string(before) != string(after) {
		t.Fatal("the source tree changed")
	}
	res, err := readResults(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*Result{}
	for _, r := range res["tree"] {
		got[r.ID] = r
	}
	for id, want := range map[string]string{
		"kernels.py:14:rename-axis":        "killed",
		"kernels.py:15:rename-axis":        "killed",
		"kernels.py:32:remove-shard-map":   "info-only",
		"kernels.py:44:remove-shard-map":   "survived",
		"kernels.py:32:narrow-axis-names":  "survived",
		"ring_test.py:13:remove-shard-map": "survived",
	} {
		if r := got[id]; r == nil || r.Outcome != want {
			t.Errorf("%s: %+v, want %s", id, r, want)
		}
	}
	if r := got["kernels.py:14:rename-axis"]; len(r.New) != 1 || r.New[0].File != "kernels.py" || r.New[0].Line != 14 {
		t.Errorf("new findings: %+v", r.New)
	}
	if r := got["kernels.py:44:remove-shard-map"]; r.Validity != "unjudged" {
		t.Errorf("local body: %s %q", r.Validity, r.Why)
	}
	if _, err := os.Stat(filepath.Join(out, "report.md")); err != nil {
		t.Error(err)
	}
}

// What the oracle's two runs (unmutated, mutated) make of a mutant.
func TestJudgeOracle(t *testing.T) {
	e := entry{Kind: "method", File: "a_test.py", Class: "T", Method: "test_a"}
	ck := "clean|" + e.key("a_test.py")
	nameErr := &OracleError{Type: "NameError", Message: "unbound", Layer: "trace"}
	cases := []struct {
		clean, mutant *OracleError
		ranMutant     bool
		validity      string
		valid         bool
		why           string
	}{
		{nil, nameErr, true, "oracle", true, "JAX raised NameError (trace)"},
		{nil, nil, true, "oracle", false, "without an error"},
		{nil, &OracleError{Type: "AssertionError", Layer: "trace"}, true, "oracle", false, "expects an error"},
		{nil, &OracleError{Type: "SkipTest", Layer: "trace"}, true, "oracle", false, "could not run"},
		{nil, &OracleError{Type: "AttributeError", Message: "'function' object has no attribute 'trace'", Layer: "trace"}, true, "oracle", false, "broke the program"},
		{nil, &OracleError{Type: "Timeout", Layer: "oracle"}, true, "oracle", false, "could not run"},
		{&OracleError{Type: "ImportError", Message: "No module named 'vllm'"}, nameErr, true, "static", false, "does not run clean under JAX 0.11.2: ImportError: No module named 'vllm'"},
		{nil, nameErr, false, "static", false, "no result"},
	}
	for i, c := range cases {
		r := &Result{Mutant: Mutant{ID: "m", File: "a_test.py"}, entry: e}
		got := map[string]*OracleError{ck: c.clean, "mutant|m": c.mutant}
		ran := map[string]bool{ck: true, "mutant|m": c.ranMutant}
		judgeOracle(&config{oracleJAX: "0.11.2"}, []*Result{r}, got, ran)
		if r.Validity != c.validity || r.Valid != c.valid || !strings.Contains(r.Why, c.why) {
			t.Errorf("%d: %s %v %q", i, r.Validity, r.Valid, r.Why)
		}
	}
}

func TestOracleCache(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sub", "cache.jsonl")
	appendOracleCache(p, "k1", nil)
	appendOracleCache(p, "k2", &OracleError{Type: "NameError", Message: "m", Layer: "trace"})
	c := loadOracleCache(p)
	if len(c) != 2 || c["k1"].Error != nil || c["k2"].Error.Type != "NameError" {
		t.Errorf("cache: %+v", c)
	}
	if len(loadOracleCache("")) != 0 || len(loadOracleCache(filepath.Join(t.TempDir(), "none"))) != 0 {
		t.Error("no cache file gives an empty cache")
	}
}

// A body that calls a parameter of the function around the mutation is
// judged by what that function's callers pass for it.
func TestStaticJudgeThroughCallers(t *testing.T) {
	src := `import jax
from jax import lax

def ring(x):
  return lax.ppermute(x, "i", [(0, 1)])

def local(x):
  return x

def run(mesh, actual_fn, other_fn):
  @jax.jit
  @jax.shard_map(mesh=mesh, in_specs=P("i"), out_specs=P("i"))
  def compute(x):
    return actual_fn(x)

  @jax.shard_map(mesh=mesh, in_specs=P("i"), out_specs=P("i"))
  def compute_other(x):
    return other_fn(x)
  return compute, compute_other

run(mesh, actual_fn=ring, other_fn=local)
run(mesh, local, local)
`
	f, err := parseFile("s.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w := newWorkspace([]string{"s.py"}, func(string) *file { return f })
	r := &Result{Mutant: Mutant{Op: OpRemoveShardMap, Site: "run", Body: "compute"}}
	w.judge(f, r)
	if !r.Valid || !strings.Contains(r.Why, "calls a parameter") || !strings.Contains(r.Why, "s.py:ring (ppermute(") {
		t.Errorf("through callers: %v %q", r.Valid, r.Why)
	}
	r = &Result{Mutant: Mutant{Op: OpRemoveShardMap, Site: "run", Body: "compute_other"}}
	w.judge(f, r)
	if r.Validity != "unjudged" {
		t.Errorf("local only: %s %q", r.Validity, r.Why)
	}
}

// A change inside a test that skips itself first can make nothing fail;
// a conditional skip, or one later in the body, does not count.
func TestJudgeSkippedTest(t *testing.T) {
	src := `import jax
from jax import lax

class T:
  def test_known_failure(self):
    """Known to fail."""
    self.skipTest("Known failure.")
    def kernel(x_ref):
      lax.axis_index("x_renamed")

  def test_runs(self):
    if jax.device_count() < 2:
      self.skipTest("needs two")
    def kernel(x_ref):
      lax.axis_index("x_renamed")
`
	f, err := parseFile("s_test.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w := newWorkspace([]string{"s_test.py"}, func(string) *file { return f })
	r := &Result{Mutant: Mutant{Op: OpRenameAxis, Site: "T.test_known_failure", Body: "x", Line: 9}}
	w.judge(f, r)
	if r.Valid || !strings.Contains(r.Why, "skips itself") {
		t.Errorf("skipped test: %v %q", r.Valid, r.Why)
	}
	r = &Result{Mutant: Mutant{Op: OpRenameAxis, Site: "T.test_runs", Body: "x", Line: 15}}
	w.judge(f, r)
	if !r.Valid {
		t.Errorf("conditional skip: %v %q", r.Valid, r.Why)
	}
}

// -ids runs exactly another run's mutants.
func TestRunIDs(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("testdata", "tree"))
	ids := filepath.Join(t.TempDir(), "prev.jsonl")
	if err := os.WriteFile(ids, []byte(`{"repo":"tree","id":"kernels.py:14:rename-axis"}`+"\n"+`{"repo":"tree","id":"kernels.py:44:remove-shard-map"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	cfg := &config{repo: root, name: "tree", bin: filepath.Join(root, "fakebin.sh"), out: out, jobs: 1, noOracle: true,
		ops: map[string]bool{OpRenameAxis: true, OpRemoveShardMap: true}, ids: ids}
	if err := run(cfg); err != nil {
		t.Fatal(err)
	}
	res, err := readResults(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res["tree"]) != 2 || res["tree"][0].Outcome != "killed" || res["tree"][1].Outcome != "survived" {
		t.Errorf("ids: %+v", res["tree"])
	}
}

// Several functions of one name (a notebook's f): the judge follows the
// one the mutated wrapper applied to, not every f in the file.
func TestJudgeSameNamedBodies(t *testing.T) {
	src := `import jax
from jax.sharding import PartitionSpec as P

@jax.shard_map(mesh=mesh, in_specs=P("i"), out_specs=P())
def f(x):
  return jax.lax.psum(x, "i")

@jax.shard_map(mesh=mesh, in_specs=P("i"), out_specs=P("i"))
def f(x):
  return x * 2

def g(x):
  return x + 1

h = jax.shard_map(g, mesh=mesh, in_specs=P("i"), out_specs=P("i"))
`
	f, err := parseFile("nb.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w := newWorkspace([]string{"nb.py"}, func(string) *file { return f })
	for _, c := range []struct {
		line     int
		validity string
	}{{4, "static"}, {8, "unjudged"}} {
		r := &Result{Mutant: Mutant{Op: OpRemoveShardMap, Line: c.line, Body: "f"}, Valid: true}
		w.judge(f, r)
		if r.Validity != c.validity || r.Valid != (c.validity == "static") {
			t.Errorf("f at line %d: %s %v %q", c.line, r.Validity, r.Valid, r.Why)
		}
	}
}

// An axis renamed inside a raise statement's message changes only an
// error already being raised: not a valid mutant. The same name in the
// code before it is.
func TestJudgeRenameInRaise(t *testing.T) {
	src := `from jax import lax

def kernel(x_ref, n):
  size = lax.axis_size("core_renamed")
  if n % size:
    raise ValueError(
        f"{n=} must divide by"
        f" {lax.axis_size('core_renamed')}")
`
	f, err := parseFile("k.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w := newWorkspace([]string{"k.py"}, func(string) *file { return f })
	r := &Result{Mutant: Mutant{Op: OpRenameAxis, Site: "kernel", Body: "core", Line: 8}}
	w.judge(f, r)
	if r.Valid || !strings.Contains(r.Why, "raise statement") {
		t.Errorf("in the message: %v %q", r.Valid, r.Why)
	}
	r = &Result{Mutant: Mutant{Op: OpRenameAxis, Site: "kernel", Body: "core", Line: 4}}
	w.judge(f, r)
	if !r.Valid {
		t.Errorf("before the raise: %v %q", r.Valid, r.Why)
	}
}

// A kernel JAX bundles counts as a kernel for shard-map-to-jit: its call
// under a jit whose in_shardings shard the operands cannot be partitioned.
func TestJudgeBundledKernel(t *testing.T) {
	src := `from jax.experimental.pallas.ops.tpu.flash_attention import flash_attention

def local_attention(q, k, v):
  return flash_attention(q, k, v)

def reference(q, k, v):
  return q @ k
`
	f, err := parseFile("a.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w := newWorkspace([]string{"a.py"}, func(string) *file { return f })
	for body, want := range map[string]string{"local_attention": "static", "reference": "unjudged"} {
		r := &Result{Mutant: Mutant{Op: OpShardMapToJit, Body: body, Sharded: true}}
		w.judge(f, r)
		if r.Validity != want {
			t.Errorf("%s: %s %q, want %s", body, r.Validity, r.Why, want)
		}
	}
}
