package analysis

import (
	"maps"
	"slices"
	"strconv"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// execBody runs statements in env; it reports whether they certainly
// returned (so that code after a static early return is skipped).
func (in *interp) execBody(env *scope, body []*ir.Stmt) bool {
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

func (in *interp) exec(env *scope, st *ir.Stmt) bool {
	switch st.Kind {
	case ir.StExpr:
		in.eval(env, st.Value)
		if isSkipCall(st.Value) {
			return true // a skip raises: the block ends here
		}
	case ir.StAssign:
		v := in.eval(env, st.Value)
		if st.Aug {
			v = unknown
		}
		for _, t := range st.Targets {
			in.assign(env, t, v)
		}
	case ir.StReturn:
		v := value(&vConst{C: ir.Const{Kind: ir.ConstNone}})
		if st.Value != nil {
			v = in.eval(env, st.Value)
		}
		in.ret = append(in.ret, v)
		return true
	case ir.StIf:
		if st.Main != nil {
			return false // runs as an entry of its own (runMainsFrom)
		}
		return in.execIf(env, st)
	case ir.StLoop:
		it := in.eval(env, st.Value)
		if s, ok := it.(*vSeq); ok && len(s.Items) == 0 && len(st.Targets) > 0 {
			in.execBody(env, st.Else) // `for x in ()`: the body never runs
			break
		}
		for _, t := range st.Targets {
			in.assign(env, t, elementOf(it))
		}
		in.execBody(env, st.Body)
		in.execBody(env, st.Else)
	case ir.StWith:
		return in.execWith(env, st)
	case ir.StTry:
		r := in.execTry(env, st)
		return in.execBody(env, st.Finally) || r
	case ir.StHandler:
		return in.execBody(env, st.Body) // run by execTry, each from the try's bindings
	case ir.StDef:
		env.set(st.Def.Name, in.defineFunc(env, st.Def))
	case ir.StClass:
		env.set(st.Class.Name, in.defineClass(env, st.Class))
	case ir.StImport:
		in.execImport(env, st.Import)
	case ir.StRaise:
		in.eval(env, st.Value)
		return true // the block ends here; the raise returns no value
	case ir.StGlobal, ir.StNonlocal:
		in.declareOuter(env, st)
	}
	return false
}

// execTry runs a try statement's body, then its except clauses and its
// else clause (not its finally), and reports whether every path ends
// there. The body may complete, and the else clause run; or it may raise
// part way, and one handler run: from the bindings before the body joined
// with those after it (where it raised is not known). The bindings after
// the statement are the join of the paths that fall through, so `try:
// from m import f` / `except ImportError: f = None` leaves f the function
// or None.
func (in *interp) execTry(env *scope, st *ir.Stmt) bool {
	var handlers, elseBody []*ir.Stmt
	for _, s := range st.Else {
		if s.Kind == ir.StHandler {
			handlers = append(handlers, s)
		} else {
			elseBody = append(elseBody, s)
		}
	}
	if len(handlers) == 0 {
		r := in.execBody(env, st.Body)
		return in.execBody(env, elseBody) || r
	}
	names := in.assignedIn(st)
	before := env.save(names)
	r := in.execBody(env, st.Body)
	afterBody := env.save(names)
	r = r || in.execBody(env, elseBody)
	var outs []saved
	if !r {
		outs = append(outs, env.save(names))
	}
	for _, h := range handlers {
		for i, n := range names {
			if v := join(before.vals[i], afterBody.vals[i]); v != nil {
				env.set(n, v)
			} else {
				env.unset(n)
			}
		}
		if !in.execBody(env, h.Body) {
			outs = append(outs, env.save(names))
		}
	}
	if len(outs) == 0 {
		return true
	}
	env.restore(outs[0])
	for _, o := range outs[1:] {
		for i, n := range names {
			if v := join(env.value(n), o.vals[i]); v != nil {
				env.set(n, v)
			}
		}
	}
	return false
}

// declareOuter runs `global x` / `nonlocal x`: the name binds in the
// module's scope, or in the nearest enclosing function scope that has it,
// through a reference left in this scope (see vScopeRef).
func (in *interp) declareOuter(env *scope, st *ir.Stmt) {
	for _, t := range st.Targets {
		var target *scope
		if st.Kind == ir.StGlobal {
			target = env
			for target.parent != nil {
				target = target.parent
			}
		} else {
			for s := env.parent; s != nil && s.parent != nil; s = s.parent {
				if _, ok := s.get(t.Name); ok && !s.classBody {
					target = s
					break
				}
			}
		}
		if target != nil && target != env {
			env.set(t.Name, &vScopeRef{s: target})
		}
	}
}

func (in *interp) execIf(env *scope, st *ir.Stmt) bool {
	if len(st.Else) == 0 && in.cur != nil && !in.cur.OneDevice && multiDeviceTest(st.Cond) && endsBlock(st.Body) {
		// `if jax.device_count() > 1: self.skipTest(...)`: the body runs
		// with several devices and ends the block; past it, one device.
		in.eval(env, st.Cond)
		in.execBody(env, st.Body)
		c := *in.cur
		c.cachedKey = "" // the copy will change
		c.OneDevice = true
		in.cur = &c
		return false
	}
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
	undo := refineTruthy(env, st.Cond, names)
	r1 := in.execBody(env, st.Body)
	env.restore(undo)
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

// refineTruthy binds, in env for the body of an `if` whose condition is
// cond, each name cond being true shows is truthy (cond itself, or an
// operand of an `and` chain, a bare name) and whose value is a plain
// Unknown, to nonEmptyUnknown; it returns the bindings to restore after
// the body. Only in function scopes, and not for names the branches
// assign (their join is the if's) or declare global or nonlocal.
// Symbols keep their identity unrefined (symbols.go compares it).
func refineTruthy(env *scope, cond *ir.Expr, assigned []string) saved {
	if env == nil || env.parent == nil || env.classBody {
		return saved{}
	}
	var names []string
	var walk func(e *ir.Expr)
	walk = func(e *ir.Expr) {
		switch {
		case e == nil:
		case e.Kind == ir.ExName:
			// (a global or nonlocal declaration binds a vScopeRef here)
			if v, ok := env.lookup(e.Name); ok && v == unknown && !slices.Contains(assigned, e.Name) && !slices.Contains(names, e.Name) {
				names = append(names, e.Name)
			}
		case e.Kind == ir.ExBoolOp && e.Op() == "and":
			for _, a := range e.Args {
				walk(a)
			}
		}
	}
	walk(cond)
	if len(names) == 0 {
		return saved{}
	}
	undo := env.save(names)
	for _, n := range names {
		env.set(n, nonEmptyUnknown)
	}
	return undo
}

// assignedIn lists the names an if statement's branches can bind
// (targets, defs, classes, imports, loop and with targets), cached.
func (in *interp) assignedIn(st *ir.Stmt) []string {
	if names, ok := in.assigned[st]; ok {
		return names
	}
	set := map[string]bool{}
	ir.WalkStmts(append(append([]*ir.Stmt{}, st.Body...), st.Else...), func(s *ir.Stmt) {
		switch s.Kind {
		case ir.StAssign, ir.StLoop:
			for _, t := range s.Targets {
				ir.BindTargets(t, set)
			}
		case ir.StWith:
			for _, it := range s.Items {
				if it.Target != nil {
					ir.BindTargets(it.Target, set)
				}
			}
		case ir.StDef:
			set[s.Def.Name] = true
		case ir.StClass:
			set[s.Class.Name] = true
		case ir.StImport:
			m := map[string]string{}
			ir.BindImport(m, s.Import)
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
func (in *interp) execWith(env *scope, st *ir.Stmt) bool {
	saved := in.cur
	for _, it := range st.Items {
		v := in.eval(env, it.Ctx)
		if m, legacy := meshOfContextManager(v); m != nil {
			c := *in.cur
			c.cachedKey = "" // the copy will change
			c.Mesh, c.MeshLegacy = m, legacy
			in.cur = &c
		}
		if expectsRaise(it.Ctx) && (!in.cur.ExpectRaise || in.cur.Expects != nil) {
			c := *in.cur
			c.cachedKey = "" // the copy will change
			c.ExpectRaise = true
			c.Expects = expectedTypes(it.Ctx)
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

// multiDeviceTest matches a condition that holds exactly when there is
// more than one device: jax.device_count() (or local_device_count(),
// len(jax.devices()), len(jax.local_devices())) compared as `> 1`,
// `>= 2` or `!= 1`.
func multiDeviceTest(e *ir.Expr) bool {
	if e == nil || e.Kind != ir.ExCompare || len(e.Args) != 2 {
		return false
	}
	c := e.Args[1].Const()
	if c == nil || c.Kind != ir.ConstInt || !isDeviceCount(e.Args[0]) {
		return false
	}
	n := c.I
	switch e.Op() {
	case ">", "!=":
		return n == 1
	case ">=":
		return n == 2
	}
	return false
}

// isDeviceCount matches jax.device_count(), jax.local_device_count(),
// len(jax.devices()) and len(jax.local_devices()).
func isDeviceCount(e *ir.Expr) bool {
	if e == nil || e.Kind != ir.ExCall || e.X == nil || len(e.Args) > 1 {
		return false
	}
	if e.X.Kind == ir.ExName && e.X.Name == "len" && len(e.Args) == 1 {
		a := e.Args[0]
		return a.Kind == ir.ExCall && len(a.Args) == 0 && jaxAttr(a.X, "devices", "local_devices")
	}
	return len(e.Args) == 0 && jaxAttr(e.X, "device_count", "local_device_count")
}

// jaxAttr matches `jax.<name>` for one of names.
func jaxAttr(e *ir.Expr, names ...string) bool {
	return e != nil && e.Kind == ir.ExAttr && isName(e.X, "jax") && slices.Contains(names, e.Name)
}

// isName matches the bare name n.
func isName(e *ir.Expr, n string) bool { return e != nil && e.Kind == ir.ExName && e.Name == n }

// endsBlock reports whether body's last statement ends the block: a
// return, a raise, or a skip (isSkipCall).
func endsBlock(body []*ir.Stmt) bool {
	if len(body) == 0 {
		return false
	}
	last := body[len(body)-1]
	return last.Kind == ir.StReturn || last.Kind == ir.StRaise || last.Kind == ir.StExpr && isSkipCall(last.Value)
}

// isSkipCall reports whether e skips the running test, which raises:
// `self.skipTest(...)` (unittest, absltest) or `pytest.skip(...)`.
func isSkipCall(e *ir.Expr) bool {
	if e == nil || e.Kind != ir.ExCall || e.X == nil || e.X.Kind != ir.ExAttr {
		return false
	}
	switch e.X.Name {
	case "skipTest":
		return true
	case "skip":
		return isName(e.X.X, "pytest")
	}
	return false
}

// expectedTypes are the exception types a raises-block e catches, when
// its first argument names specific builtin ones (`ValueError`,
// `(TypeError, ValueError)`); nil for a broad or unknown one.
func expectedTypes(e *ir.Expr) []string {
	if len(e.Args) == 0 {
		return nil
	}
	var names []string
	a := e.Args[0]
	items := []*ir.Expr{a}
	if a.Kind == ir.ExTuple {
		items = a.Args
	}
	for _, it := range items {
		switch {
		case it.Kind == ir.ExName:
			names = append(names, it.Name)
		case it.Kind == ir.ExAttr && it.Name == "JaxRuntimeError" && (isName(it.X, "errors") || jaxAttr(it.X, "errors")):
			names = append(names, it.Name) // errors.JaxRuntimeError, jax.errors.JaxRuntimeError
		default:
			return nil
		}
	}
	if !specificExceptions(names) {
		return nil
	}
	return names
}

// meshOfContextManager returns the mesh a with-item sets; legacy is set
// for a bare `with mesh:`, which only sets the resource environment: a
// jit under it still runs on one device unless its inputs or shardings
// say otherwise (the oracle: a local kernel under `with mesh:
// jax.jit(f)(x)` runs on every version, under jax.set_mesh it fails).
func meshOfContextManager(v value) (m *vMesh, legacy bool) {
	switch v := v.(type) {
	case *vMesh:
		return v, true
	case *vExtCall:
		if isSetMesh(v.Qual) && len(v.Args) > 0 {
			if m, ok := v.Args[0].(*vMesh); ok {
				return m, false
			}
			return &vMesh{}, false
		}
	}
	return nil, false
}

// assign binds a target expression; attribute targets on instances
// (self.x = v) update the object.
func (in *interp) assign(env *scope, t *ir.Expr, v value) {
	switch t.Kind {
	case ir.ExName:
		if r, ok := env.value(t.Name).(*vScopeRef); ok {
			if r.s.parent == nil {
				in.setGlobal(r.s, t.Name, v) // a module's globals: journalled
			} else {
				r.s.set(t.Name, v)
			}
			return
		}
		env.set(t.Name, v)
	case ir.ExTuple, ir.ExList:
		seq, ok := v.(*vSeq)
		star := slices.ContainsFunc(t.Args, func(e *ir.Expr) bool { return e.Kind == ir.ExStarred })
		for i, sub := range t.Args {
			item := unknown
			if ok && len(seq.Items) == len(t.Args) {
				item = seq.Items[i]
			} else if !ok && !star {
				item = derive(v, "["+strconv.Itoa(i)+"]") // unpacking a symbol (symbols.go)
			}
			in.assign(env, sub, item)
		}
	case ir.ExAttr:
		obj := in.eval(env, t.X)
		for _, o := range alts(obj) {
			switch o := o.(type) {
			case *vInstance:
				in.setAttr(o.Attrs, t.Name, join(o.Attrs[t.Name], v))
			case *vClass:
				in.setAttr(o.Attrs, t.Name, v)
			case *vModule:
				if e := in.globals(o.M); e != nil {
					in.setGlobal(e, t.Name, v)
				}
			}
		}
	case ir.ExStarred:
		in.assign(env, t.X, unknown)
	default:
		in.eval(env, t)
	}
}

// elementOf is what iterating over v yields: the join of a literal
// sequence's items (or a dict's keys), an int for range(...), pairs for
// enumerate and zip, and through list/tuple/sorted/reversed/iter what
// their argument yields. Unknown otherwise: the body still runs once.
func elementOf(v value) value {
	return elementAt(v, 4)
}

func elementAt(v value, depth int) value {
	if depth < 0 {
		return unknown
	}
	var out value
	switch v := v.(type) {
	case *vSeq:
		for _, it := range v.Items {
			out = join(out, it)
		}
	case *vDict:
		if !v.Open {
			for _, k := range v.Keys {
				out = join(out, k)
			}
		}
	case *vExtCall:
		if len(v.Kw) > 0 {
			break
		}
		switch v.Qual {
		case "builtins.range":
			return nonNone // an int, never None
		case "builtins.enumerate":
			if len(v.Args) == 1 {
				return &vSeq{Items: []value{nonNone, elementAt(v.Args[0], depth-1)}}
			}
		case "builtins.zip":
			items := make([]value, len(v.Args))
			for i, a := range v.Args {
				items[i] = elementAt(a, depth-1)
			}
			return &vSeq{Items: items}
		case "builtins.list", "builtins.tuple", "builtins.sorted", "builtins.reversed", "builtins.iter":
			if len(v.Args) == 1 {
				return elementAt(v.Args[0], depth-1)
			}
		}
	}
	if out == nil {
		return unknown
	}
	return out
}
