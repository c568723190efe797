package analysis

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

func (in *interp) makeFunc(env *scope, def *ir.FuncDef) *vFunc {
	closure := env
	if env.classBody {
		closure = env.parent
	}
	f := &vFunc{Def: def, Env: closure}
	for _, p := range def.Params {
		if p.Default != nil {
			f.Defaults = append(f.Defaults, in.eval(env, p.Default))
		} else {
			f.Defaults = append(f.Defaults, nil)
		}
	}
	return f
}

// defineFunc evaluates a def statement: the function, then its
// decorators applied bottom-up.
func (in *interp) defineFunc(env *scope, def *ir.FuncDef) value {
	var v value = in.makeFunc(env, def)
	for i := len(def.Decorators) - 1; i >= 0; i-- {
		d := def.Decorators[i]
		dv := in.eval(env, d)
		if ext, ok := dv.(*vExternal); ok {
			switch ext.Qual {
			case "builtins.staticmethod", "builtins.property", "functools.cache", "functools.lru_cache",
				"functools.wraps", "typing.overload", "abc.abstractmethod":
				continue
			case "builtins.classmethod":
				if f, ok := v.(*vFunc); ok {
					c := *f
					c.Self = &vConst{C: ir.Const{Kind: ir.ConstNone}} // bound to the class at lookup
					v = &classMethod{f: &c}
				}
				continue
			}
		}
		if sets, ok := paramDecorator(dv); ok {
			if p, ok := v.(*vParamTest); ok { // stacked: every combination
				if both, ok := combineSets(sets, p.Sets); ok {
					v = &vParamTest{Fn: p.Fn, Sets: both}
				}
				continue
			}
			v = &vParamTest{Fn: v, Sets: sets}
			continue
		}
		v = in.call(dv, args{pos: []value{v}, kw: map[string]value{}}, d)
		if isUnknown(v) || isNone(v) {
			// An opaque decorator: keep the function so that calls of the
			// decorated name still reach its body.
			v = in.makeFunc(env, def)
		}
	}
	return v
}

// classMethod marks a classmethod in a class namespace.
type classMethod struct{ f *vFunc }

func (*classMethod) isValue() {}

func (in *interp) defineClass(env *scope, cd *ir.ClassDef) value {
	c := &vClass{Def: cd, Attrs: map[string]value{}}
	for _, b := range cd.Bases {
		c.Bases = append(c.Bases, in.eval(env, b))
	}
	body := newEnv(env, env.mod)
	body.classBody = true
	in.execBody(body, cd.Body)
	c.Attrs = body.asMap()
	return c
}

// callFunc evaluates a workspace function's body for one abstract call.
func (in *interp) callFunc(f *vFunc, a args, site *ir.Expr) value {
	in.markCalled(f.Def)
	if len(in.wrapper) > 0 && in.isShardMapWrapper(f.Def) {
		return in.callShardMapWrapper(a, site)
	}
	if len(in.stack) >= maxStack {
		return unknown
	}
	key := in.callKey(f, a)
	if v, ok := in.memo[key]; ok {
		return v
	}
	pins := in.keyPins
	if in.evals[f.Def] >= maxEvalsPerDef {
		// Widening: past a few distinct abstract calls, one more evaluation
		// with Unknown arguments (but the code passed: widen) stands for
		// all the rest of this closure's. It keeps the run linear-ish on
		// code that calls a helper with many literals. Receivers are keyed
		// by identity, so the widened key leaves them out.
		a, key = in.widen(f, a)
		if v, ok := in.memo[key]; ok {
			return v
		}
		pins = in.keyPins
	}
	// The key quotes addresses: the objects stay alive while it is used.
	in.pins = append(in.pins, pins...)
	in.countEval(f.Def)

	if in.active[key] {
		return unknown
	}
	in.active[key] = true
	env := in.bind(f, a)
	savedRet, savedFile, savedCur := in.ret, in.file, in.cur
	in.ret = nil
	in.stack = append(in.stack, &frame{site: site, file: in.file, what: f.Def.Name, ctx: in.cur, env: in.env, def: f.Def})
	in.file = f.Def.File
	in.execBody(env, f.Def.Body)
	var out value
	for _, r := range in.ret {
		out = join(out, r)
	}
	if out == nil {
		out = &vConst{C: ir.Const{Kind: ir.ConstNone}}
	}
	in.stack = in.stack[:len(in.stack)-1]
	in.ret, in.file, in.cur = savedRet, savedFile, savedCur
	delete(in.active, key)
	in.h.journal.memo.add(key, out)
	return out
}

// widen returns the arguments and memo key of a widened call of f
// (callFunc): every argument Unknown but the workspace code passed (a
// function, class, partial or bound method, or a union of them), and the
// key naming only f's definition and closure, that code, and the
// context; in.keyPins holds the addresses it quotes. Code is kept
// because it cannot be widened without losing what the body runs: a
// decorator applied past the widening count (`def decorator(fn): ...
// return wrapper`, on every module's definitions) would otherwise wrap
// Unknown, and which definitions lost their bodies would depend on the
// order the modules first ran. The kept values are bounded by the
// program's definitions, so the run stays linear-ish.
func (in *interp) widen(f *vFunc, a args) (args, string) {
	pins := &in.keyPins
	*pins = append((*pins)[:0], unsafe.Pointer(f.Def), unsafe.Pointer(f.Env), unsafe.Pointer(in.cur.Scan))
	b := append(in.keyBuf[:0], "widened:"...)
	b = appendPtr(b, unsafe.Pointer(f.Def))
	b = append(b, ':')
	b = appendPtr(b, unsafe.Pointer(f.Env))
	// Opaque: what else the caller passed, and how much, is unknown.
	w := args{opaque: true}
	for i, v := range a.pos {
		if !isCode(v) {
			continue
		}
		if w.pos == nil {
			w.pos = make([]value, len(a.pos))
			for j := range w.pos {
				w.pos[j] = unknown
			}
		}
		w.pos[i] = v
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, '=')
		b = appendKey(b, v, 3, pins)
	}
	var kb [8]string
	for _, k := range sortedKeys(a.kw, kb[:]) {
		if v := a.kw[k]; isCode(v) {
			if w.kw == nil {
				w.kw = map[string]value{}
			}
			w.kw[k] = v
			b = append(b, ';')
			b = append(b, k...)
			b = append(b, '=')
			b = appendKey(b, v, 3, pins)
		}
	}
	b = append(b, '@')
	b = append(b, in.cur.key()...)
	in.keyBuf = b
	return w, string(b)
}

// isCode reports whether v is workspace code a widened call keeps
// (widen): a function, class, partial or bound method, or a union of
// them.
func isCode(v value) bool {
	switch v := v.(type) {
	case *vFunc, *vClass, *vPartial, *vMethod:
		return true
	case *vUnion:
		for _, a := range v.Alts {
			if !isCode(a) {
				return false
			}
		}
		return len(v.Alts) > 0
	}
	return false
}

// callKey is the memo key of calling f with a here; in.keyPins holds the
// addresses it quotes (the context's kernel scan among them).
func (in *interp) callKey(f *vFunc, a args) string {
	pins := &in.keyPins
	*pins = append((*pins)[:0], unsafe.Pointer(in.cur.Scan))
	b := appendKey(in.keyBuf[:0], f, 3, pins)
	b = append(b, '(')
	b = appendKeys(b, a.pos, 3, pins)
	var kb [8]string
	for _, k := range sortedKeys(a.kw, kb[:]) {
		b = append(b, ';')
		b = append(b, k...)
		b = append(b, '=')
		b = appendKey(b, a.kw[k], 3, pins)
	}
	if a.opaque {
		b = append(b, ";**?"...)
	}
	b = append(b, ")@"...)
	b = append(b, in.cur.key()...)
	in.keyBuf = b
	return string(b)
}

// bind creates the callee's scope with its parameters bound.
func (in *interp) bind(f *vFunc, a args) *scope {
	env := newEnv(f.Env, f.Env.mod)
	pos := a.pos
	if f.Self != nil {
		pos = append([]value{f.Self}, pos...)
	}
	used := map[string]bool{}
	for i, p := range f.Def.Params {
		var v value
		switch p.Kind {
		case ir.ParamVarArgs:
			v = &vSeq{Items: pos}
			if a.opaque {
				v = unknown
			}
			pos = nil
		case ir.ParamKwArgs:
			d := &vDict{}
			for _, k := range slices.Sorted(maps.Keys(a.kw)) {
				if !used[k] {
					d.Keys = append(d.Keys, &vConst{C: ir.Const{Kind: ir.ConstStr, S: k}})
					d.Items = append(d.Items, a.kw[k])
				}
			}
			// With the caller's keywords only partly known (a spread that
			// did not expand), the known ones still reach the body: a
			// trampoline `def k(*a, **kw): return inner(*a, **kw)` hands
			// them on.
			d.Open = a.opaque
			v = d
		default:
			if kv, ok := a.kw[p.Name]; ok && p.Kind != ir.ParamPosOnly {
				v = kv
				used[p.Name] = true
			} else if len(pos) > 0 && p.Kind != ir.ParamKwOnly {
				v, pos = pos[0], pos[1:]
			} else if a.opaque {
				v = in.paramSymbol(f.Def, p.Name) // Unknown, with an identity in a library entry
			} else if f.Defaults[i] != nil {
				v = f.Defaults[i]
			} else {
				v = unknown
			}
		}
		env.set(p.Name, v)
	}
	return env
}

func (in *interp) instantiate(c *vClass, a args, site *ir.Expr) value {
	// One abstract object per creation site and class (allocation-site
	// abstraction): evaluating the site again refines the same object.
	inst := in.instances[instKey{site, c}]
	if inst == nil || site == nil {
		inst = &vInstance{Class: c, Attrs: map[string]value{}}
		if site != nil {
			in.h.journal.instances.add(instKey{site, c}, inst)
		}
	}
	if init := in.classAttr(c, "__init__", 0); init != nil {
		if f, ok := init.(*vFunc); ok {
			b := *f
			b.Self = inst
			in.call(&b, a, site)
		}
	} else if isDataclass(c.Def) {
		in.bindFields(inst, c, a)
	}
	return inst
}

// isDataclass recognises @dataclass, @dataclasses.dataclass(...) and
// look-alikes (flax.struct.dataclass, chex.dataclass): their generated
// __init__ binds the annotated fields in order.
func isDataclass(cd *ir.ClassDef) bool {
	for _, d := range cd.Decorators {
		if d.Kind == ir.ExCall {
			d = d.X
		}
		if (d.Kind == ir.ExName || d.Kind == ir.ExAttr) && d.Name == "dataclass" {
			return true
		}
	}
	return false
}

// bindFields is a dataclass's generated __init__: positional arguments
// fill the annotated fields in order, keywords by name, the rest keep
// their class-level defaults.
func (in *interp) bindFields(inst *vInstance, c *vClass, a args) {
	pos := a.pos
	for _, st := range c.Def.Body {
		if len(st.Targets) != 1 || st.Targets[0].Kind != ir.ExName || st.Kind != ir.StOther && st.Kind != ir.StAssign {
			continue
		}
		name := st.Targets[0].Name
		switch v, ok := a.kw[name]; {
		case ok:
			in.setAttr(inst.Attrs, name, v)
		case len(pos) > 0:
			in.setAttr(inst.Attrs, name, pos[0])
			pos = pos[1:]
		case a.opaque:
			in.setAttr(inst.Attrs, name, unknown)
		}
	}
}

// classAttr looks a name up in a class and its workspace bases.
func (in *interp) classAttr(c *vClass, name string, depth int) value {
	if v, ok := c.Attrs[name]; ok {
		return v
	}
	if depth > 16 {
		return nil
	}
	for _, b := range c.Bases {
		if bc, ok := b.(*vClass); ok {
			if v := in.classAttr(bc, name, depth+1); v != nil {
				return v
			}
		}
	}
	return nil
}

type instKey struct {
	site *ir.Expr
	cls  *vClass
}

// isShardMapWrapper reports whether def is one of the configured
// `shard-map-wrappers`: project helpers that run their first argument
// under shard_map. Names match on any importable name of the module.
func (in *interp) isShardMapWrapper(def *ir.FuncDef) bool {
	if def.File == nil {
		return false
	}
	m := in.prog.byPath[def.File.Path]
	if m == nil {
		return false
	}
	for w := range in.wrapper {
		if strings.HasSuffix(w, "."+def.Qual) {
			mod := strings.TrimSuffix(w, "."+def.Qual)
			for _, cand := range in.prog.byName[mod] {
				if cand == m {
					return true
				}
			}
		}
	}
	return false
}

// callShardMapWrapper models a configured wrapper: `wrap(f)` returns f
// under a fully manual shard_map (mesh unknown); `wrap(f, *args)` also
// calls it with args there.
func (in *interp) callShardMapWrapper(a args, site *ir.Expr) value {
	fn := first(a)
	sm := &vShardMapped{Fn: fn, Spec: &smSpec{Site: site, File: in.file, API: "shard-map-wrapper", AllManual: true}}
	if len(a.pos) <= 1 {
		return sm
	}
	return in.call(sm, args{pos: a.pos[1:], kw: a.kw, opaque: a.opaque}, site)
}
