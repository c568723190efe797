package main

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/pallas-ls/pallas-ls/pyparse"
)

// Static validity, for mutants the oracle cannot run (their modules import
// vllm, torch, a TPU-only library, or are library code that nothing runs
// by itself). The rule, per operator:
//
//   - rename-axis: valid. The new name ("x_renamed") is bound by no mesh,
//     shard_map or pmap anywhere, so JAX raises an unbound-axis NameError
//     (or Pallas its device-id error) wherever the line runs; unless the
//     line is in a raise statement (an error message, built only on a
//     path that already fails).
//   - remove-shard-map, call-body-directly, shard-map-to-jit: valid when the
//     wrapped function reaches, through functions of its own module and of
//     workspace modules it imports by name, an operation that names a mesh
//     axis (lax.axis_index/axis_size, a collective, a device_id, a remote
//     copy or signal, a barrier semaphore). Outside a shard_map over that
//     axis JAX cannot lower them. A non-communicating kernel is not
//     counted: whether it fails depends on its inputs' shardings.
//   - shard-map-to-jit also when the wrapped function reaches a Pallas
//     kernel (or calls one JAX bundles: flash_attention, paged_attention,
//     ragged_paged_attention, make_splash_mha...) and the in_specs name a
//     mesh axis: the jit's in_shardings then shard the kernel's operands,
//     and a Mosaic kernel cannot be partitioned automatically.
//   - narrow-axis-names: valid when the wrapped function reaches a Pallas
//     kernel (pallas_call, pl.kernel, core_map) or such an operation: a
//     Mosaic kernel inside a shard_map that is not manual over every mesh
//     axis fails to lower.
//
// Otherwise the mutant is "unjudged" and is left out of the figures.

var commRE = regexp.MustCompile(`\b(axis_index|axis_size|psum|pmean|pmax|pmin|ppermute|pshuffle|all_gather|all_to_all|psum_scatter|make_async_remote_copy|async_remote_copy|get_barrier_semaphore)\s*\(|\bdevice_id\s*=`)

// kernelRE also matches calls of the kernels JAX bundles
// (jax.experimental.pallas.ops.tpu: lowering/kernel_ops_gen.go), which run
// a Mosaic kernel as a pallas_call does.
var kernelRE = regexp.MustCompile(`\b(pallas_call|core_map|pl\.kernel|pltpu\.kernel|emit_pipeline)\b|\b(flash_attention|paged_attention|ragged_paged_attention|make_splash_m[hq]a(_single_device)?)\s*\(`)
var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// workspace gives the static judge the repository's files by module name.
type workspace struct {
	files  map[string]*file // by slash path
	load   func(rel string) *file
	module map[string]string // dotted module -> rel path
}

func newWorkspace(rels []string, load func(rel string) *file) *workspace {
	w := &workspace{files: map[string]*file{}, load: load, module: map[string]string{}}
	for _, r := range rels {
		mod := strings.TrimSuffix(r, ".py")
		mod = strings.TrimSuffix(mod, "/__init__")
		parts := strings.Split(mod, "/")
		// Every suffix of the path is a candidate module name (src/ and
		// python/ layouts); the longest path wins on a clash.
		for i := range parts {
			name := strings.Join(parts[i:], ".")
			if old, ok := w.module[name]; !ok || len(old) > len(r) {
				w.module[name] = r
			}
		}
	}
	return w
}

func (w *workspace) get(rel string) *file {
	if f, ok := w.files[rel]; ok {
		return f
	}
	f := w.load(rel)
	w.files[rel] = f
	return f
}

// imports maps the names a file imports from workspace modules to the
// module's file.
func (w *workspace) imports(f *file) map[string]string {
	out := map[string]string{}
	t := f.t
	for id := nodeID(0); int(id) < len(t.Nodes); id++ {
		if t.Kind(id) == pyparse.KindImport {
			// import a.b as c / import a: the module's functions by c.name
			for _, c := range t.NamedChildren(id) {
				name, alias := t.LeafText(c), ""
				if t.Kind(c) == pyparse.KindAliasedImport {
					name = t.LeafText(t.ChildByField(c, pyparse.FieldName))
					alias = t.LeafText(t.ChildByField(c, pyparse.FieldAlias))
				} else if strings.Contains(name, ".") {
					continue // import a.b binds a, not a.b
				} else {
					alias = name
				}
				if rel, ok := w.module[name]; ok {
					out[alias] = rel
				}
			}
			continue
		}
		if t.Kind(id) != pyparse.KindImportFrom {
			continue
		}
		modNode := t.ChildByField(id, pyparse.FieldModuleName)
		mod := t.LeafText(modNode)
		if strings.HasPrefix(mod, ".") {
			dir := path.Dir(f.rel)
			dots := len(mod) - len(strings.TrimLeft(mod, "."))
			for i := 1; i < dots; i++ {
				dir = path.Dir(dir)
			}
			rest := strings.TrimLeft(mod, ".")
			mod = strings.ReplaceAll(dir, "/", ".")
			if rest != "" {
				mod += "." + rest
			}
		}
		for _, c := range t.NamedChildren(id) {
			if c == modNode {
				continue
			}
			name, alias := "", ""
			switch t.Kind(c) {
			case pyparse.KindDottedName:
				name = t.LeafText(c)
				alias = name
			case pyparse.KindAliasedImport:
				name = t.LeafText(t.ChildByField(c, pyparse.FieldName))
				alias = t.LeafText(t.ChildByField(c, pyparse.FieldAlias))
			default:
				continue
			}
			if rel, ok := w.module[mod+"."+name]; ok {
				out[alias] = rel // a module imported by name: its functions
			} else if rel, ok := w.module[mod]; ok {
				out[alias] = rel
			}
		}
	}
	return out
}

// defsNamed is the text of every function called name in f.
func defsNamed(f *file, name string) []string {
	var out []string
	for _, d := range f.defs {
		if f.t.LeafText(f.t.ChildByField(d, pyparse.FieldName)) == name {
			out = append(out, f.text(d))
		}
	}
	return out
}

// reaches looks through body's text, the functions it names in its own
// file and the workspace functions it imports (transitively, to a bound),
// for a match of re. It returns where ("file.py:function"), or "".
//
// When the file defines several functions called body (a notebook's f,
// a test module's inner kernel), line, the mutation's line, picks the
// one the wrapper applied to (bodyDef); 0 leaves every one of them.
func (w *workspace) reaches(f *file, body string, re *regexp.Regexp, line ...int) string {
	type item struct {
		f    *file
		text string
		at   string
	}
	todo := []item{{f, body, f.rel}}
	seen := map[string]bool{}
	if len(line) > 0 {
		if text, ok := bodyDef(f, body, line[0]); ok {
			todo = []item{{f, text, f.rel + ":" + body}}
			seen[f.rel+":"+body] = true
		}
	}
	for steps := 0; len(todo) > 0 && steps < 400; steps++ {
		it := todo[0]
		todo = todo[1:]
		if loc := re.FindStringIndex(it.text); loc != nil {
			return fmt.Sprintf("%s (%s)", it.at, strings.TrimSpace(it.text[loc[0]:loc[1]]))
		}
		imps := w.imports(it.f)
		for _, id := range identRE.FindAllString(it.text, -1) {
			key := it.f.rel + ":" + id
			if seen[key] {
				continue
			}
			seen[key] = true
			for _, d := range defsNamed(it.f, id) {
				todo = append(todo, item{it.f, d, it.f.rel + ":" + id})
			}
			if rel, ok := imps[id]; ok {
				if g := w.get(rel); g != nil {
					for _, d := range defsNamed(g, id) {
						todo = append(todo, item{g, d, rel + ":" + id})
					}
				}
			}
		}
		// module.attr references through imported modules: kernels.ring(...)
		for _, m := range regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)`).FindAllStringSubmatch(it.text, -1) {
			rel, ok := imps[m[1]]
			if !ok {
				continue
			}
			key := rel + ":" + m[2]
			if seen[key] {
				continue
			}
			seen[key] = true
			if g := w.get(rel); g != nil {
				for _, d := range defsNamed(g, m[2]) {
					todo = append(todo, item{g, d, rel + ":" + m[2]})
				}
			}
		}
	}
	return ""
}

// bodyDef is the text of the function called name that the mutation at
// line applied to, when f defines more than one: a decorator's function
// starts just after it (the nearest def from line on, within a few
// lines); a call's argument is defined before it (the nearest def
// starting above line). ok is false for a unique or unknown name.
func bodyDef(f *file, name string, line int) (string, bool) {
	var after, before nodeID = pyparse.NoNode, pyparse.NoNode
	n := 0
	for _, d := range f.defs {
		if f.t.LeafText(f.t.ChildByField(d, pyparse.FieldName)) != name {
			continue
		}
		n++
		switch l := f.line(d); {
		case l >= line && l <= line+8:
			if after == pyparse.NoNode || l < f.line(after) {
				after = d
			}
		case l < line:
			if before == pyparse.NoNode || l > f.line(before) {
				before = d
			}
		}
	}
	if n < 2 {
		return "", false
	}
	if after != pyparse.NoNode {
		return f.text(after), true
	}
	if before != pyparse.NoNode {
		return f.text(before), true
	}
	return "", false
}

// throughCallers widens a body that calls a parameter of the function
// holding the mutation (run_scenario(actual_fn=...) calling actual_fn in
// a shard_map'd inner def): the arguments that the function's callers in
// the same file pass for it.
func (w *workspace) throughCallers(f *file, site, body string) string {
	outer := site
	if i := strings.LastIndexByte(site, '.'); i >= 0 {
		outer = site[i+1:]
	}
	if outer == "" {
		return body
	}
	var params []string
	for _, d := range f.defs {
		if f.t.LeafText(f.t.ChildByField(d, pyparse.FieldName)) != outer {
			continue
		}
		for _, p := range f.t.NamedChildren(f.t.ChildByField(d, pyparse.FieldParams)) {
			n := p
			if k := f.t.Kind(p); k != pyparse.KindIdentifier {
				n = f.t.ChildByField(p, pyparse.FieldName)
				if n == pyparse.NoNode {
					n = f.t.FirstChild(p)
				}
			}
			params = append(params, f.t.LeafText(n))
		}
	}
	// The inner function's text: the body names the parameter there.
	inner := body
	for _, d := range defsNamed(f, body) {
		inner += "\n" + d
	}
	var extra []string
	for i, p := range params {
		if p == "" || !regexp.MustCompile(`\b`+regexp.QuoteMeta(p)+`\b`).MatchString(inner) {
			continue
		}
		for id := nodeID(0); int(id) < len(f.t.Nodes); id++ {
			if f.t.Kind(id) != pyparse.KindCall || lastName(f.callee(id)) != outer {
				continue
			}
			pos, kw, _ := f.args(id)
			if v := f.kwValue(kw, p); v != pyparse.NoNode {
				extra = append(extra, f.text(v))
			} else if i < len(pos) {
				extra = append(extra, f.text(pos[i]))
			}
		}
	}
	return body + "\n" + strings.Join(extra, "\n")
}

// skipsItself reports whether a function around line begins (after its
// docstring) with an unconditional skip, `self.skipTest(...)` or
// `pytest.skip(...)`: the test never runs, so no change in it can fail.
func (f *file) skipsItself(line int) bool {
	t := f.t
	for _, d := range f.defs {
		n := t.N(d)
		if line < f.line(d) || line > f.m.Line(int(n.End))+1 {
			continue
		}
		body := t.ChildByField(d, pyparse.FieldBody)
		if body == pyparse.NoNode {
			continue
		}
		for _, st := range t.NamedChildren(body) {
			if t.Kind(st) == pyparse.KindExpressionStatement {
				if c := t.NamedChildren(st); len(c) == 1 && t.Kind(c[0]) == pyparse.KindString {
					continue // the docstring
				}
			}
			txt := strings.TrimSpace(f.text(st))
			if strings.HasPrefix(txt, "self.skipTest(") || strings.HasPrefix(txt, "pytest.skip(") {
				return true
			}
			break
		}
	}
	return false
}

// inRaise reports whether line lies in a raise statement: its exception
// and message are built only where the code already fails.
func (f *file) inRaise(line int) bool {
	t := f.t
	for id := nodeID(0); int(id) < len(t.Nodes); id++ {
		if t.Kind(id) == pyparse.KindRaise && line >= f.line(id) && line <= f.m.Line(int(t.N(id).End))+1 {
			return true
		}
	}
	return false
}

// judge sets a mutant's static validity.
func (w *workspace) judge(f *file, r *Result) {
	r.Validity = "static"
	if f.skipsItself(r.Line) {
		r.Valid, r.Why = false, "the test skips itself before anything runs (self.skipTest / pytest.skip first)"
		return
	}
	switch r.Op {
	case OpRenameAxis:
		if f.inRaise(r.Line) {
			r.Valid, r.Why = false, "the axis is renamed inside a raise statement (an error message): it runs only where the code already fails"
			return
		}
		r.Valid = true
		r.Why = fmt.Sprintf("axis %q renamed to one no mesh binds: an unbound axis wherever it runs", r.Body)
		return
	case OpNarrowAxes:
		if at := w.reaches(f, r.Body, kernelRE, r.Line); at != "" {
			r.Valid, r.Why = true, "the body reaches a Pallas kernel: "+at
			return
		}
		if at := w.reaches(f, r.Body, commRE, r.Line); at != "" {
			r.Valid, r.Why = true, "the body names mesh axes: "+at
			return
		}
	default:
		if r.Op == OpShardMapToJit && r.Sharded {
			if at := w.reaches(f, r.Body, kernelRE, r.Line); at != "" {
				r.Valid, r.Why = true, "the body reaches a Pallas kernel and in_shardings shard its operands over a mesh axis: "+at
				return
			}
		}
		if at := w.reaches(f, r.Body, commRE, r.Line); at != "" {
			r.Valid, r.Why = true, "the body names mesh axes: "+at
			return
		}
		if wide := w.throughCallers(f, r.Site, r.Body); wide != r.Body {
			if at := w.reaches(f, wide, commRE); at != "" {
				r.Valid, r.Why = true, "the body calls a parameter whose arguments name mesh axes: "+at
				return
			}
		}
	}
	r.Validity, r.Valid, r.Why = "unjudged", false, "no communicating operation found from the body statically"
}
