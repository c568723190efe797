package analysis

import (
	"maps"
	"slices"
)

// execBody runs statements in env; it reports whether they certainly
// returned (so that code after a static early return is skipped).
func (in *interp) execBody(env *Env, body []*Stmt) bool {
	for _, st := range body {
		if !in.tick() {
			return true
		}
		if in.exec(env, st) {
			return true
		}
	}
	return false
}

func (in *interp) exec(env *Env, st *Stmt) bool {
	switch st.Kind {
	case StExpr:
		in.eval(env, st.Value)
	case StAssign:
		v := in.eval(env, st.Value)
		if st.Aug {
			v = unknown
		}
		for _, t := range st.Targets {
			in.assign(env, t, v)
		}
	case StReturn:
		v := Value(&vConst{C: Const{Kind: ConstNone}})
		if st.Value != nil {
			v = in.eval(env, st.Value)
		}
		in.ret = append(in.ret, v)
		return true
	case StIf:
		if st.Main != nil {
			return false // runs as an entry of its own (runMainsFrom)
		}
		return in.execIf(env, st)
	case StLoop:
		it := in.eval(env, st.Value)
		for _, t := range st.Targets {
			in.assign(env, t, elementOf(it))
		}
		in.execBody(env, st.Body)
		in.execBody(env, st.Else)
	case StWith:
		return in.execWith(env, st)
	case StTry:
		r := in.execBody(env, st.Body)
		in.execBody(env, st.Else)
		return in.execBody(env, st.Finally) || r && len(st.Else) == 0
	case StDef:
		env.set(st.Def.Name, in.defineFunc(env, st.Def))
	case StClass:
		env.set(st.Class.Name, in.defineClass(env, st.Class))
	case StImport:
		in.execImport(env, st.Import)
	}
	return false
}

func (in *interp) execIf(env *Env, st *Stmt) bool {
	if val, known := truth(in.eval(env, st.Cond)); known {
		if val {
			return in.execBody(env, st.Body)
		}
		return in.execBody(env, st.Else)
	}
	// Both branches may run: evaluate each from the same bindings and
	// join what they bound. Only the names the branches can assign are
	// saved and merged (copying whole scopes dominated the run time).
	names := in.assignedIn(st)
	before := env.save(names)
	r1 := in.execBody(env, st.Body)
	after1 := env.save(names)
	env.restore(before)
	r2 := in.execBody(env, st.Else)
	switch {
	case r1 && !r2:
	case r2 && !r1:
		env.restore(after1)
	default:
		for i, n := range names {
			if v := join(after1.vals[i], env.value(n)); v != nil {
				env.set(n, v)
			}
		}
	}
	return r1 && r2
}

// assignedIn lists the names an if statement's branches can bind
// (targets, defs, classes, imports, loop and with targets), cached.
func (in *interp) assignedIn(st *Stmt) []string {
	if names, ok := in.assigned[st]; ok {
		return names
	}
	set := map[string]bool{}
	walkStmts(append(append([]*Stmt{}, st.Body...), st.Else...), func(s *Stmt) {
		switch s.Kind {
		case StAssign, StLoop:
			for _, t := range s.Targets {
				bindTargets(t, set)
			}
		case StWith:
			for _, it := range s.Items {
				if it.Target != nil {
					bindTargets(it.Target, set)
				}
			}
		case StDef:
			set[s.Def.Name] = true
		case StClass:
			set[s.Class.Name] = true
		case StImport:
			m := map[string]string{}
			bindImport(m, s.Import)
			for k := range m {
				set[k] = true
			}
		}
	})
	names := slices.Sorted(maps.Keys(set))
	in.h.journal.assigned.add(st, names)
	return names
}

// execWith handles context managers that set the context mesh
// (`with mesh:`, `with jax.set_mesh(mesh):`, `with jax.sharding.use_mesh(mesh):`).
func (in *interp) execWith(env *Env, st *Stmt) bool {
	saved := in.cur
	for _, it := range st.Items {
		v := in.eval(env, it.Ctx)
		if m := meshOfContextManager(v); m != nil {
			c := *in.cur
			c.cachedKey = "" // the copy will change
			c.Mesh = m
			in.cur = &c
		}
		if it.Target != nil {
			in.assign(env, it.Target, v)
		}
	}
	r := in.execBody(env, st.Body)
	in.cur = saved
	return r
}

func meshOfContextManager(v Value) *vMesh {
	switch v := v.(type) {
	case *vMesh:
		return v
	case *vExtCall:
		if isSetMesh(v.Qual) && len(v.Args) > 0 {
			if m, ok := v.Args[0].(*vMesh); ok {
				return m
			}
			return &vMesh{}
		}
	}
	return nil
}

// assign binds a target expression; attribute targets on instances
// (self.x = v) update the object.
func (in *interp) assign(env *Env, t *Expr, v Value) {
	switch t.Kind {
	case ExName:
		env.set(t.Name, v)
	case ExTuple, ExList:
		seq, ok := v.(*vSeq)
		for i, sub := range t.Args {
			item := unknown
			if ok && len(seq.Items) == len(t.Args) {
				item = seq.Items[i]
			}
			in.assign(env, sub, item)
		}
	case ExAttr:
		obj := in.eval(env, t.X)
		for _, o := range alts(obj) {
			switch o := o.(type) {
			case *vInstance:
				in.setAttr(o.Attrs, t.Name, join(o.Attrs[t.Name], v))
			case *vClass:
				in.setAttr(o.Attrs, t.Name, v)
			case *vModule:
				if e := in.scope(o.M); e != nil {
					in.setGlobal(e, t.Name, v)
				}
			}
		}
	case ExStarred:
		in.assign(env, t.X, unknown)
	default:
		in.eval(env, t)
	}
}

// elementOf is what iterating over v yields.
func elementOf(v Value) Value {
	if s, ok := v.(*vSeq); ok {
		var out Value
		for _, it := range s.Items {
			out = join(out, it)
		}
		if out != nil {
			return out
		}
	}
	return unknown
}
