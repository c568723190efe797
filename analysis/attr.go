package analysis

import (
	"path/filepath"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

func (in *interp) getattr(v value, name string) value {
	switch o := v.(type) {
	case *vUnion:
		// An attribute of None raises: only the other alternatives give a
		// value (`self._cls` is None or a class; `getattr(self._cls, name)`).
		var out value
		for _, a := range o.Alts {
			if !isNone(a) {
				out = join(out, in.getattr(a, name))
			}
		}
		if out == nil {
			return unknown
		}
		return out
	case *vModule:
		return in.moduleAttr(o.M, name)
	case *vExternal:
		return &vExternal{Qual: o.Qual + "." + name}
	case *vInstance:
		if a, ok := o.Attrs[name]; ok {
			return a
		}
		if a := in.classAttr(o.Class, name, 0); a != nil {
			return bindMethod(a, o, o.Class)
		}
		if m := in.testBaseMethod(o, name); m != nil {
			return m
		}
		if s := in.dynamicAttr(o, name); s != nil {
			return s
		}
	case *vClass:
		if a := in.classAttr(o, name, 0); a != nil {
			if cm, ok := a.(*classMethod); ok {
				b := *cm.f
				b.Self = o
				return &b
			}
			return a
		}
	case *vMesh:
		if name == "axis_names" && o.Axes != nil {
			items := make([]value, len(o.Axes))
			for i, s := range o.Axes {
				items[i] = &vConst{C: ir.Const{Kind: ir.ConstStr, S: s}}
			}
			return &vSeq{Items: items}
		}
	case *vDict:
		if name == "get" || name == "copy" {
			return &vMethod{Recv: v, Name: name}
		}
	case *vJitted:
		switch name {
		case "lower":
			return &vStaged{J: o, Lower: true}
		case "trace":
			return &vStaged{J: o, Traced: true}
		case "eval_shape":
			return &vStaged{J: o}
		}
	case *vPmapped:
		// pmap(f).lower(x) and pmap(f).trace(x).lower(): f runs in the
		// pmap's context, lowered as a call would be.
		switch name {
		case "lower":
			return &vStaged{Fn: o, Lower: true}
		case "trace":
			return &vStaged{Fn: o, Traced: true}
		}
	case *vStaged:
		if name == "lower" && o.Lower && o.Bound != nil {
			return o // a Traced's .lower()
		}
	case *vRemoteCopy, *vCustom:
		return &vMethod{Recv: v, Name: name}
	case *vExtCall:
		if av, ok := arrayAttr(o, name); ok { // arrays.go
			return av
		}
		return &vMethod{Recv: v, Name: name}
	case *vPallas:
		if name == "lower" || name == "trace" {
			// `.trace()`/`.lower()` only trace: no Mosaic lowering runs.
			return unknown
		}
	case *vUnknown:
		return derive(o, "."+name) // a symbol's attribute is one too
	}
	return unknown
}

// bindMethod binds a function found on the class to an instance.
func bindMethod(a value, self *vInstance, c *vClass) value {
	switch f := a.(type) {
	case *vFunc:
		b := *f
		b.Self = self
		return &b
	case *classMethod:
		b := *f.f
		b.Self = c
		return &b
	case *vParamTest:
		return &vParamTest{Fn: bindMethod(f.Fn, self, c), Sets: f.Sets}
	case *vUnion:
		// A method a decorator chose between alternatives (the wrapper
		// or the function itself): each is bound.
		alts := make([]value, len(f.Alts))
		for i, alt := range f.Alts {
			alts[i] = bindMethod(alt, self, c)
		}
		return &vUnion{Alts: alts}
	}
	return a
}

func (in *interp) moduleAttr(m *module, name string) value {
	in.runModule(m)
	if env := in.globals(m); env != nil {
		if v, ok := env.get(name); ok {
			return v
		}
	}
	if sub := in.prog.submodule(m, name); sub != nil {
		return &vModule{M: sub}
	}
	return unknown
}

// runModule executes a module's top level once, as an entry of its own:
// what it does at import time runs outside any SPMD context.
func (in *interp) runModule(m *module) {
	if in.mods[m.id].state != modFresh {
		return
	}
	env := in.startModule(m)
	if m.Sum != nil {
		in.atTopLevel(m, func() {
			env.set("__name__", unknown)
			in.execBody(env, m.Sum.Body)
		})
	}
	in.mods[m.id].state = modDone
}

// atTopLevel runs fn as module m's top level: outside any SPMD context,
// in the module's own frame, with the interpreter's restored after.
func (in *interp) atTopLevel(m *module, fn func()) {
	saved := in.saveTop()
	in.cur = &spmdCtx{Kind: ctxPlain}
	in.file = m.Sum
	in.stack = []*frame{{what: "module top level of " + filepath.Base(m.Path), file: m.Sum}}
	fn()
	in.restoreTop(saved)
}

type topState struct {
	cur   *spmdCtx
	file  *ir.Summary
	stack []*frame
	ret   []value
}

func (in *interp) saveTop() topState {
	return topState{in.cur, in.file, in.stack, in.ret}
}

func (in *interp) restoreTop(s topState) {
	in.cur, in.file, in.stack, in.ret = s.cur, s.file, s.stack, s.ret
}

// execImport binds the names an import statement introduces.
func (in *interp) execImport(env *scope, imp *ir.Import) {
	from := in.file
	for _, n := range imp.Names {
		switch {
		case !imp.From && n.As != "":
			env.set(n.As, in.importModule(n.Name, from))
		case !imp.From:
			head := n.Name
			for i := range head {
				if head[i] == '.' {
					head = head[:i]
					break
				}
			}
			env.set(head, in.importModule(head, from))
			in.importModule(n.Name, from) // runs the submodule
		default:
			local := n.Name
			if n.As != "" {
				local = n.As
			}
			env.set(local, in.importFrom(imp, n.Name, from))
		}
	}
	if imp.Star {
		if mv, ok := in.fromModule(imp, from).(*vModule); ok {
			in.runModule(mv.M)
			if env := in.globals(mv.M); env != nil {
				env.each(func(k string, v value) {
					if len(k) > 0 && k[0] != '_' {
						env.set(k, v)
					}
				})
			}
		}
	}
}

func (in *interp) importModule(name string, from *ir.Summary) value {
	if m := in.prog.importTarget(name, from); m != nil {
		in.runModule(m)
		return &vModule{M: m}
	}
	return &vExternal{Qual: name}
}

func (in *interp) fromModule(imp *ir.Import, from *ir.Summary) value {
	m, external := in.prog.fromTarget(imp, from)
	switch {
	case m != nil:
		in.runModule(m)
		return &vModule{M: m}
	case external:
		return &vExternal{Qual: imp.Module}
	}
	return unknown
}

func (in *interp) importFrom(imp *ir.Import, name string, from *ir.Summary) value {
	switch mv := in.fromModule(imp, from).(type) {
	case *vModule:
		return in.moduleAttr(mv.M, name)
	case *vExternal:
		return &vExternal{Qual: mv.Qual + "." + name}
	}
	return unknown
}

// testBaseMethod is method name of instance o when a base of its class
// outside the workspace is a JAX test base class that lowering's table
// knows (lowering.LookupTestBaseMethod: self.pallas_call in JAX's own
// Pallas tests): the API it forwards to, with the keywords it takes from
// the instance's class attributes (INTERPRET, set by interpret-mode
// subclasses). nil otherwise.
func (in *interp) testBaseMethod(o *vInstance, name string) value {
	if o.Class == nil || strings.HasPrefix(name, "__") {
		return nil
	}
	m, ok := externalBaseMethod(o.Class, name, 0)
	if !ok {
		return nil
	}
	kw := map[string]value{}
	for k, attr := range m.SelfKw {
		v, ok := o.Attrs[attr]
		if !ok {
			v = in.classAttr(o.Class, attr, 0)
		}
		if v == nil {
			v = &vConst{C: ir.Const{Kind: ir.ConstBool, B: m.Defaults[attr]}}
		}
		kw[k] = v
	}
	return &vPartial{Fn: &vExternal{Qual: m.API}, Kw: kw}
}

// externalBaseMethod finds name in the table of JAX test base classes
// among c's bases outside the workspace, through its workspace bases.
func externalBaseMethod(c *vClass, name string, depth int) (lowering.TestBaseMethod, bool) {
	if depth > 16 {
		return lowering.TestBaseMethod{}, false
	}
	for _, b := range c.Bases {
		switch b := b.(type) {
		case *vExternal:
			if m, ok := lowering.LookupTestBaseMethod(b.Qual, name); ok {
				return m, true
			}
		case *vClass:
			if m, ok := externalBaseMethod(b, name, depth+1); ok {
				return m, true
			}
		}
	}
	return lowering.TestBaseMethod{}, false
}
