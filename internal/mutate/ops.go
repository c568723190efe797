package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pallas-ls/pallas-ls/pyparse"
)

// The operators. Each makes one change that should make JAX fail where
// the changed code runs; validity (does it really fail?) is decided later,
// by the oracle or statically (valid.go).
const (
	OpRemoveShardMap = "remove-shard-map"  // shard_map(f, ...) -> f; a shard_map decorator removed
	OpNarrowAxes     = "narrow-axis-names" // manual over one axis of a multi-axis mesh
	OpShardMapToJit  = "shard-map-to-jit"  // shard_map(f, mesh, in/out_specs) -> jax.jit(f, in/out_shardings)
	OpCallDirectly   = "call-body-directly"
	OpRenameAxis     = "rename-axis" // an axis name literal inside a function renamed
)

// Operators lists every operator, in report order.
var Operators = []string{OpRemoveShardMap, OpNarrowAxes, OpShardMapToJit, OpCallDirectly, OpRenameAxis}

// Mutant is one change to one file.
type Mutant struct {
	ID   string `json:"id"`
	File string `json:"file"` // relative to the repository root, slash-separated
	Op   string `json:"op"`
	Line int    `json:"line"` // 1-based line of the change
	Desc string `json:"desc"`
	// Site is the function (qualified: Class.method) holding the change;
	// empty at module level.
	Site string `json:"site"`
	// Body is the function the removed or changed wrapper applied to, as
	// written ("body", "partial(kernel, n=2)"); for rename-axis the axis.
	Body string `json:"body,omitempty"`
	// Sharded (shard-map-to-jit): the in_specs name a mesh axis, so the
	// jit's in_shardings really shard the operands.
	Sharded bool   `json:"sharded,omitempty"`
	Src     []byte `json:"-"`
}

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

func apply(src []byte, edits ...edit) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.start:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	return out
}

// keepLines pads a replacement with the newlines of the text it replaces,
// so that every later line keeps its number (findings compare by line).
// The result is parenthesised when it would span lines, which is valid
// wherever an expression is.
func keepLines(old, repl string) string {
	n := strings.Count(old, "\n") - strings.Count(repl, "\n")
	if n <= 0 {
		return repl
	}
	return "(" + repl + strings.Repeat("\n", n) + ")"
}

// blank replaces every character but newlines with spaces.
func blank(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' {
			return r
		}
		return ' '
	}, s)
}

// file is a parsed Python file and what the operators need of it.
type file struct {
	rel          string
	src          []byte
	t            *pyparse.Tree
	m            *pyparse.Mapper
	expSM        bool              // shard_map names come from jax.experimental.shard_map (auto=, not axis_names=)
	hasJax       bool              // `import jax` at module level
	meshes       []mesh            // mesh constructions with literal axis names
	defs         []nodeID          // every function_definition
	consts       map[string]string // module-level NAME = "string", assigned once
	hasFunctools bool
	sharded      map[int]bool // lines of shard_maps whose in_specs name a mesh axis
}

type nodeID = pyparse.NodeID

type mesh struct {
	name  string // variable assigned, "" when none
	axes  []string
	scope nodeID // the function holding the assignment, NoNode at module level
	at    int    // byte offset
}

func parseFile(rel string, src []byte) (*file, error) {
	t, err := pyparse.Parse(src)
	if err != nil {
		return nil, err
	}
	f := &file{rel: rel, src: src, t: t, m: pyparse.NewMapper(src), consts: map[string]string{}, sharded: map[int]bool{}}
	assigned := map[string]int{}
	for _, st := range t.NamedChildren(t.Root()) {
		if t.Kind(st) != pyparse.KindExpressionStatement {
			continue
		}
		a := t.FirstChild(st)
		if t.Kind(a) != pyparse.KindAssignment {
			continue
		}
		l := t.ChildByField(a, pyparse.FieldLeft)
		if t.Kind(l) != pyparse.KindIdentifier {
			continue
		}
		assigned[t.Text(l)]++
		if v, ok := f.stringLit(t.ChildByField(a, pyparse.FieldRight)); ok {
			f.consts[t.Text(l)] = v
		}
	}
	for n := range f.consts {
		if assigned[n] != 1 {
			delete(f.consts, n)
		}
	}
	for id := nodeID(0); int(id) < len(t.Nodes); id++ {
		n := t.N(id)
		switch n.Kind {
		case pyparse.KindImport, pyparse.KindImportFrom:
			txt := t.Text(id)
			if strings.Contains(txt, "experimental.shard_map") || strings.Contains(txt, "experimental import shard_map") {
				f.expSM = true
			}
			if n.Kind == pyparse.KindImport && n.Parent == 0 && strings.TrimSpace(txt) == "import functools" {
				f.hasFunctools = true
			}
			if n.Kind == pyparse.KindImport && n.Parent == 0 {
				for _, c := range t.NamedChildren(id) {
					if t.Kind(c) == pyparse.KindDottedName && t.LeafText(c) == "jax" {
						f.hasJax = true
					}
				}
			}
		case pyparse.KindFunctionDef:
			f.defs = append(f.defs, id)
		case pyparse.KindCall:
			if axes := meshAxes(t, id); len(axes) > 0 {
				name := ""
				if p := n.Parent; t.Kind(p) == pyparse.KindAssignment {
					name = t.LeafText(t.ChildByField(p, pyparse.FieldLeft))
				}
				f.meshes = append(f.meshes, mesh{name, axes, t.Ancestor(id, pyparse.KindFunctionDef), int(n.Start)})
			}
		}
	}
	return f, nil
}

func lastName(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func (f *file) callee(call nodeID) string {
	return f.t.LeafText(f.t.ChildByField(call, pyparse.FieldFunction))
}

func isShardMapName(s string) bool {
	n := lastName(s)
	return n == "shard_map" || n == "shmap"
}

func isJitName(s string) bool {
	return s == "jax.jit" || s == "jit" || s == "pjit" || s == "jax.experimental.pjit.pjit"
}

func isPartialName(s string) bool { return s == "partial" || s == "functools.partial" }

// args splits a call's argument list into positional arguments and
// keyword arguments (name -> value node).
func (f *file) args(call nodeID) (pos []nodeID, kw map[string]nodeID, list nodeID) {
	list = f.t.ChildByField(call, pyparse.FieldArguments)
	kw = map[string]nodeID{}
	if f.t.Kind(list) != pyparse.KindArgumentList {
		return nil, kw, pyparse.NoNode
	}
	for _, c := range f.t.NamedChildren(list) {
		if f.t.Kind(c) == pyparse.KindKeywordArgument {
			kw[f.t.LeafText(f.t.ChildByField(c, pyparse.FieldName))] = c
			continue
		}
		pos = append(pos, c)
	}
	return pos, kw, list
}

func (f *file) kwValue(kw map[string]nodeID, name string) nodeID {
	if k, ok := kw[name]; ok {
		return f.t.ChildByField(k, pyparse.FieldValue)
	}
	return pyparse.NoNode
}

func (f *file) text(id nodeID) string { return f.t.Text(id) }

func (f *file) line(id nodeID) int { return f.m.Line(int(f.t.N(id).Start)) + 1 }

// site is the qualified name of the function around id ("" at module
// level): Class.method, outer.inner.
func (f *file) site(id nodeID) string {
	var parts []string
	for p := f.t.N(id).Parent; p >= 0; p = f.t.N(p).Parent {
		k := f.t.Kind(p)
		if k == pyparse.KindFunctionDef || k == pyparse.KindClassDef {
			parts = append([]string{f.t.LeafText(f.t.ChildByField(p, pyparse.FieldName))}, parts...)
		}
	}
	return strings.Join(parts, ".")
}

// stringLit is the value of a plain string literal node, ok false for
// anything else (f-strings, concatenations, names).
func (f *file) stringLit(id nodeID) (string, bool) {
	if f.t.Kind(id) != pyparse.KindString {
		return "", false
	}
	s := f.t.Text(id)
	if strings.ContainsAny(s[:1], "fFbBrRuU") || strings.HasPrefix(s, `"""`) || strings.HasPrefix(s, "'''") {
		return "", false
	}
	if len(s) < 2 || (s[0] != '"' && s[0] != '\'') || s[len(s)-1] != s[0] {
		return "", false
	}
	body := s[1 : len(s)-1]
	if strings.ContainsAny(body, "\\{}\"'") || body == "" {
		return "", false
	}
	return body, true
}

// stringTuple is the strings of a tuple/list of string literals (or of one
// string), nil when any element is something else.
func (f *file) stringTuple(id nodeID) []string {
	if s, ok := f.stringLit(id); ok {
		return []string{s}
	}
	k := f.t.Kind(id)
	if k != pyparse.KindTuple && k != pyparse.KindList && k != pyparse.KindParenthesized {
		return nil
	}
	var out []string
	for _, c := range f.t.NamedChildren(id) {
		s, ok := f.stringLit(c)
		if !ok {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// meshAxes is the literal axis names of a mesh construction (Mesh(devs,
// ("x", "y")), jax.make_mesh(shape, names), axis_names=...), nil otherwise.
func meshAxes(t *pyparse.Tree, call nodeID) []string {
	f := &file{t: t, src: t.Src}
	name := lastName(f.callee(call))
	pos, kw, _ := f.args(call)
	switch name {
	case "Mesh", "make_mesh", "AbstractMesh":
		if v := f.kwValue(kw, "axis_names"); v != pyparse.NoNode {
			return f.stringTuple(v)
		}
		if len(pos) >= 2 {
			return f.stringTuple(pos[1])
		}
	}
	return nil
}

// meshOf is the axes of the mesh a shard_map names (mesh=NAME or a
// construction inline), else of the only multi-axis mesh of the file.
func (f *file) meshOf(site nodeID, kw map[string]nodeID) []string {
	v := f.kwValue(kw, "mesh")
	if v != pyparse.NoNode {
		if f.t.Kind(v) == pyparse.KindCall {
			return meshAxes(f.t, v)
		}
		name := f.t.LeafText(v)
		// The last assignment before the site in its own function, else
		// the module's only one.
		for fn := f.t.Ancestor(site, pyparse.KindFunctionDef); ; fn = f.t.Ancestor(fn, pyparse.KindFunctionDef) {
			var found []string
			n := 0
			for _, m := range f.meshes {
				if m.name == name && m.scope == fn && (fn != pyparse.NoNode && m.at < int(f.t.N(site).Start) || fn == pyparse.NoNode) {
					found = m.axes
					n++
				}
			}
			if fn == pyparse.NoNode && n > 1 {
				return nil // reassigned at module level: unknown
			}
			if found != nil {
				return found
			}
			if fn == pyparse.NoNode {
				break
			}
		}
	}
	var multi [][]string
	seen := map[string]bool{}
	for _, m := range f.meshes {
		key := strings.Join(m.axes, ",")
		if len(m.axes) >= 2 && !seen[key] {
			seen[key] = true
			multi = append(multi, m.axes)
		}
	}
	if len(multi) == 1 {
		return multi[0]
	}
	return nil
}

// shardMapSite is one use of shard_map: a call with the body as its first
// argument, or a decorator (partial(shard_map, ...), shard_map(mesh=...)).
type shardMapSite struct {
	call      nodeID // the shard_map(...) or partial(shard_map, ...) call
	decorator nodeID // the decorator node, or NoNode
	body      nodeID // the wrapped function expression (call form), else NoNode
	partial   bool   // partial(shard_map, ...): keywords after the first positional
}

func (f *file) shardMapSites() []shardMapSite {
	var out []shardMapSite
	t := f.t
	for id := nodeID(0); int(id) < len(t.Nodes); id++ {
		if t.Kind(id) != pyparse.KindCall {
			continue
		}
		name := f.callee(id)
		pos, kw, _ := f.args(id)
		var s shardMapSite
		switch {
		case isShardMapName(name):
			s = shardMapSite{call: id, decorator: pyparse.NoNode, body: pyparse.NoNode}
			if len(pos) > 0 {
				s.body = pos[0]
			} else if v := f.kwValue(kw, "f"); v != pyparse.NoNode {
				s.body = v
			}
		case isPartialName(name) && len(pos) > 0 && isShardMapName(t.LeafText(pos[0])):
			s = shardMapSite{call: id, decorator: pyparse.NoNode, body: pyparse.NoNode, partial: true}
		default:
			continue
		}
		if p := t.N(id).Parent; t.Kind(p) == pyparse.KindDecorator {
			s.decorator = p
		}
		if s.body == pyparse.NoNode && s.decorator == pyparse.NoNode {
			continue // shard_map(mesh=...) used as a value: not mutated
		}
		out = append(out, s)
	}
	return out
}

// decorated is the function a decorator decorates.
func (f *file) decorated(dec nodeID) nodeID {
	p := f.t.N(dec).Parent
	if d := f.t.ChildByField(p, pyparse.FieldDefinition); d != pyparse.NoNode {
		return d
	}
	return pyparse.NoNode
}

// Mutants returns every mutant of one file, in source order per operator.
func Mutants(rel string, src []byte) ([]Mutant, error) {
	f, err := parseFile(rel, src)
	if err != nil {
		return nil, err
	}
	var out []Mutant
	seen := map[string]bool{}
	add := func(op string, at nodeID, desc, body string, edits ...edit) {
		ms := apply(f.src, edits...)
		if seen[string(ms)] {
			return // another operator already made this exact program
		}
		seen[string(ms)] = true
		out = append(out, Mutant{File: rel, Op: op, Line: f.line(at), Desc: desc, Site: f.site(at), Body: body, Src: ms})
	}
	sites := f.shardMapSites()
	for _, s := range sites {
		f.removeShardMap(s, add)
	}
	for _, s := range sites {
		f.narrowAxes(s, add)
	}
	for _, s := range sites {
		f.toJit(s, add)
	}
	for _, s := range sites {
		f.callDirectly(s, add)
	}
	f.renameAxes(add)
	for i := range out {
		out[i].Sharded = out[i].Op == OpShardMapToJit && f.sharded[out[i].Line]
		out[i].ID = fmt.Sprintf("%s:%d:%s", rel, out[i].Line, out[i].Op)
	}
	// IDs must be unique: number repeats on one line.
	count := map[string]int{}
	for i := range out {
		count[out[i].ID]++
		if n := count[out[i].ID]; n > 1 {
			out[i].ID += fmt.Sprintf("#%d", n)
		}
	}
	return out, nil
}

type adder func(op string, at nodeID, desc, body string, edits ...edit)

// namesAxis: a spec expression that names a mesh axis (a string literal
// or an axis constant inside it).
func (f *file) namesAxis(spec nodeID) bool {
	end := f.t.SubtreeEnd(spec)
	for id := spec; id < end; id++ {
		if _, ok := f.axisLit(id); ok {
			return true
		}
	}
	return false
}

func (f *file) span(id nodeID) (int, int) {
	n := f.t.N(id)
	return int(n.Start), int(n.End)
}

func (f *file) removeShardMap(s shardMapSite, add adder) {
	if s.decorator != pyparse.NoNode {
		a, b := f.span(s.decorator)
		def := f.decorated(s.decorator)
		name := f.t.LeafText(f.t.ChildByField(def, pyparse.FieldName))
		add(OpRemoveShardMap, s.decorator, "remove the shard_map decorator of "+name, name, edit{a, b, blank(f.text(s.decorator))})
		return
	}
	a, b := f.span(s.call)
	body := f.text(s.body)
	add(OpRemoveShardMap, s.call, "shard_map("+clip(body)+", ...) -> "+clip(body), body,
		edit{a, b, keepLines(f.text(s.call), body)})
}

// narrowAxes makes the shard_map manual over the first axis of its mesh
// only: axis_names={first} (auto= the others for jax.experimental's).
func (f *file) narrowAxes(s shardMapSite, add adder) {
	_, kw, list := f.args(s.call)
	axes := f.meshOf(s.call, kw)
	if len(axes) < 2 || list == pyparse.NoNode {
		return
	}
	body := ""
	if s.body != pyparse.NoNode {
		body = f.text(s.body)
	} else if s.decorator != pyparse.NoNode {
		body = f.t.LeafText(f.t.ChildByField(f.decorated(s.decorator), pyparse.FieldName))
	}
	if v := f.kwValue(kw, "axis_names"); v != pyparse.NoNode {
		a, b := f.span(v)
		add(OpNarrowAxes, s.call, fmt.Sprintf("axis_names=%s -> {%q}", clip(f.text(v)), axes[0]), body,
			edit{a, b, keepLines(f.text(v), fmt.Sprintf("{%q}", axes[0]))})
		return
	}
	if _, ok := kw["auto"]; ok {
		return // already partial: leave it
	}
	var kwText string
	if f.expSM {
		var rest []string
		for _, a := range axes[1:] {
			rest = append(rest, fmt.Sprintf("%q", a))
		}
		kwText = "auto=frozenset({" + strings.Join(rest, ", ") + "})"
	} else {
		kwText = fmt.Sprintf("axis_names={%q}", axes[0])
	}
	// Insert before the closing parenthesis, after any trailing comma.
	_, end := f.span(list)
	close := end - 1
	i := close - 1
	for i >= 0 && strings.ContainsRune(" \t\n\r", rune(f.src[i])) {
		i--
	}
	ins := ", " + kwText
	if f.src[i] == ',' || f.src[i] == '(' {
		ins = " " + kwText
	}
	add(OpNarrowAxes, s.call, "add "+kwText+fmt.Sprintf(" (mesh axes %s)", strings.Join(axes, ", ")), body,
		edit{i + 1, i + 1, ins})
}

// shardings turns a spec expression into the matching shardings on mesh:
// P(...) -> NamedSharding(mesh, P(...)); tuples and lists element by
// element; anything else through jax.tree.map.
func (f *file) shardings(spec nodeID, mesh string) string {
	t := f.t
	switch t.Kind(spec) {
	case pyparse.KindTuple, pyparse.KindList:
		var parts []string
		for _, c := range t.NamedChildren(spec) {
			parts = append(parts, f.shardings(c, mesh))
		}
		open, close := "(", ")"
		if t.Kind(spec) == pyparse.KindList {
			open, close = "[", "]"
		}
		if len(parts) == 1 && open == "(" {
			return "(" + parts[0] + ",)"
		}
		return open + strings.Join(parts, ", ") + close
	case pyparse.KindCall:
		if n := lastName(f.callee(spec)); n == "P" || n == "PartitionSpec" {
			return "jax.sharding.NamedSharding(" + mesh + ", " + f.text(spec) + ")"
		}
	case pyparse.KindNone:
		return "None"
	}
	return "jax.tree.map(lambda s: jax.sharding.NamedSharding(" + mesh + ", s), " + f.text(spec) +
		", is_leaf=lambda s: isinstance(s, jax.sharding.PartitionSpec))"
}

// toJit replaces a shard_map by a jit with the same mesh and specs as
// shardings: the kernel then runs under a multi-device jit.
func (f *file) toJit(s shardMapSite, add adder) {
	if !f.hasJax {
		return
	}
	_, kw, _ := f.args(s.call)
	meshV, in, outV := f.kwValue(kw, "mesh"), f.kwValue(kw, "in_specs"), f.kwValue(kw, "out_specs")
	if meshV == pyparse.NoNode || in == pyparse.NoNode || outV == pyparse.NoNode {
		return
	}
	m := f.text(meshV)
	if f.t.Kind(meshV) != pyparse.KindIdentifier && f.t.Kind(meshV) != pyparse.KindAttribute {
		return // an inline mesh construction would be repeated: skip
	}
	shard := "in_shardings=" + f.shardings(in, m) + ", out_shardings=" + f.shardings(outV, m)
	a, b := f.span(s.call)
	if f.namesAxis(in) {
		f.sharded[f.line(s.call)] = true
	}
	switch {
	case s.decorator != pyparse.NoNode && s.partial:
		p := f.callee(s.call)
		def := f.t.LeafText(f.t.ChildByField(f.decorated(s.decorator), pyparse.FieldName))
		add(OpShardMapToJit, s.call, "decorator partial(shard_map, ...) -> partial(jax.jit, in/out_shardings) on "+def, def,
			edit{a, b, keepLines(f.text(s.call), p+"(jax.jit, "+shard+")")})
	case s.decorator != pyparse.NoNode && f.hasFunctools:
		def := f.t.LeafText(f.t.ChildByField(f.decorated(s.decorator), pyparse.FieldName))
		add(OpShardMapToJit, s.call, "decorator shard_map(...) -> jax.jit(in/out_shardings) on "+def, def,
			edit{a, b, keepLines(f.text(s.call), "functools.partial(jax.jit, "+shard+")")})
	case s.body != pyparse.NoNode:
		body := f.text(s.body)
		add(OpShardMapToJit, s.call, "shard_map("+clip(body)+", ...) -> jax.jit("+clip(body)+", in/out_shardings)", body,
			edit{a, b, keepLines(f.text(s.call), "jax.jit("+body+", "+shard+")")})
	}
}

// callDirectly removes the jit as well as the shard_map: jit(shard_map(f,
// ...)) -> f, and a def decorated with both loses both decorators.
func (f *file) callDirectly(s shardMapSite, add adder) {
	t := f.t
	if s.decorator != pyparse.NoNode {
		def := f.decorated(s.decorator)
		var jits []nodeID
		for _, d := range t.Children(t.N(s.decorator).Parent) {
			if t.Kind(d) != pyparse.KindDecorator || d == s.decorator {
				continue
			}
			txt := strings.TrimSpace(strings.TrimPrefix(t.LeafText(d), "@"))
			if i := strings.IndexByte(txt, '('); i >= 0 {
				if isPartialName(txt[:i]) {
					txt = strings.TrimSpace(txt[i+1:])
					if j := strings.IndexAny(txt, ",)"); j >= 0 {
						txt = txt[:j]
					}
				} else {
					txt = txt[:i]
				}
			}
			if isJitName(txt) {
				jits = append(jits, d)
			}
		}
		if len(jits) == 0 {
			return
		}
		name := t.LeafText(t.ChildByField(def, pyparse.FieldName))
		edits := []edit{}
		for _, d := range append(jits, s.decorator) {
			a, b := f.span(d)
			edits = append(edits, edit{a, b, blank(f.text(d))})
		}
		add(OpCallDirectly, s.decorator, "remove the jit and shard_map decorators of "+name, name, edits...)
		return
	}
	// jit(shard_map(f, ...)): the shard_map call is the jit's first argument.
	list := t.N(s.call).Parent
	if t.Kind(list) != pyparse.KindArgumentList {
		return
	}
	jit := t.N(list).Parent
	if !isJitName(f.callee(jit)) {
		return
	}
	if pos, _, _ := f.args(jit); len(pos) == 0 || pos[0] != s.call {
		return
	}
	a, b := f.span(jit)
	body := f.text(s.body)
	add(OpCallDirectly, jit, "jit(shard_map("+clip(body)+", ...)) -> "+clip(body), body,
		edit{a, b, keepLines(f.text(jit), body)})
}

// Axis-naming calls: the position of their axis-name argument and its
// keyword.
var axisArgs = map[string]int{
	"axis_index": 0, "axis_size": 0,
	"psum": 1, "pmean": 1, "pmax": 1, "pmin": 1, "ppermute": 1, "pshuffle": 1,
	"all_gather": 1, "all_to_all": 1, "psum_scatter": 1, "pbroadcast": 1,
}

// renameAxes renames one axis-name literal at a time, inside a function:
// lax.axis_index("x"), a collective's axis_name, a device_id dict key.
func (f *file) renameAxes(add adder) {
	t := f.t
	for id := nodeID(0); int(id) < len(t.Nodes); id++ {
		if t.Kind(id) != pyparse.KindCall || t.Ancestor(id, pyparse.KindFunctionDef) == pyparse.NoNode {
			continue
		}
		name := f.callee(id)
		pos, kw, _ := f.args(id)
		var lits []nodeID
		if i, ok := axisArgs[lastName(name)]; ok && (strings.Contains(name, "lax.") || !strings.Contains(name, ".")) {
			v := f.kwValue(kw, "axis_name")
			if v == pyparse.NoNode && i < len(pos) {
				v = pos[i]
			}
			if v != pyparse.NoNode {
				if _, ok := f.axisLit(v); ok {
					lits = append(lits, v)
				} else if k := t.Kind(v); k == pyparse.KindTuple {
					for _, c := range t.NamedChildren(v) {
						if _, ok := f.axisLit(c); ok {
							lits = append(lits, c)
						}
					}
				}
			}
		}
		if v := f.kwValue(kw, "device_id"); v != pyparse.NoNode && t.Kind(v) == pyparse.KindDictionary {
			for _, p := range t.NamedChildren(v) {
				if k := t.ChildByField(p, pyparse.FieldKey); k != pyparse.NoNode {
					if _, ok := f.axisLit(k); ok {
						lits = append(lits, k)
					}
				}
			}
		}
		for _, l := range lits {
			s, _ := f.axisLit(l)
			a, b := f.span(l)
			q := f.text(l)[:1]
			desc := fmt.Sprintf("axis %q -> %q in %s(...)", s, s+"_renamed", lastName(name))
			if t.Kind(l) == pyparse.KindIdentifier {
				q = `"`
				desc = fmt.Sprintf("axis %s (%q) -> %q in %s(...)", f.text(l), s, s+"_renamed", lastName(name))
			}
			add(OpRenameAxis, l, desc, s, edit{a, b, q + s + "_renamed" + q})
		}
	}
}

// axisLit is an axis name written as a string literal or as a module
// constant holding one.
func (f *file) axisLit(id nodeID) (string, bool) {
	if s, ok := f.stringLit(id); ok {
		return s, true
	}
	if f.t.Kind(id) == pyparse.KindIdentifier {
		s, ok := f.consts[f.text(id)]
		return s, ok
	}
	return "", false
}

func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// classNamed is the top-level class of that name, or NoNode.
func (f *file) classNamed(name string) nodeID {
	for _, c := range f.t.NamedChildren(f.t.Root()) {
		if f.t.Kind(c) == pyparse.KindDecoratedDef {
			c = f.t.ChildByField(c, pyparse.FieldDefinition)
		}
		if f.t.Kind(c) == pyparse.KindClassDef && f.t.LeafText(f.t.ChildByField(c, pyparse.FieldName)) == name {
			return c
		}
	}
	return pyparse.NoNode
}

// methods lists the test* methods of a class.
func (f *file) methods(cls nodeID) []string {
	var out []string
	for _, c := range f.t.NamedChildren(f.t.ChildByField(cls, pyparse.FieldBody)) {
		if f.t.Kind(c) == pyparse.KindDecoratedDef {
			c = f.t.ChildByField(c, pyparse.FieldDefinition)
		}
		if f.t.Kind(c) == pyparse.KindFunctionDef {
			if n := f.t.LeafText(f.t.ChildByField(c, pyparse.FieldName)); strings.HasPrefix(n, "test") {
				out = append(out, n)
			}
		}
	}
	return out
}

// hasMain: an `if __name__ == "__main__":` block at module level.
func (f *file) hasMain() bool {
	for _, c := range f.t.NamedChildren(f.t.Root()) {
		if f.t.Kind(c) == pyparse.KindIf {
			cond := f.t.LeafText(f.t.ChildByField(c, pyparse.FieldCondition))
			if strings.Contains(cond, "__name__") && strings.Contains(cond, "__main__") {
				return true
			}
		}
	}
	return false
}
