package analysis

// Env is one Python scope: module globals, a function's locals, or a class
// body. Lookups walk to the parent (the enclosing function or the module);
// class bodies are skipped by the functions defined in them, as in Python.
type Env struct {
	vars   map[string]Value
	parent *Env
	mod    *Module
	// classBody marks a class namespace: functions defined in it close
	// over the enclosing scope instead.
	classBody bool
}

func newEnv(parent *Env, mod *Module) *Env {
	return &Env{vars: map[string]Value{}, parent: parent, mod: mod}
}

func (e *Env) lookup(name string) (Value, bool) {
	for s := e; s != nil; s = s.parent { // a nil *Env is an empty scope
		if v, ok := s.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

func (e *Env) set(name string, v Value) { e.vars[name] = v }

// globals returns the module scope.
func (e *Env) globals() *Env {
	s := e
	for s.parent != nil {
		s = s.parent
	}
	return s
}

// saved holds some bindings of a scope, for restoring them.
type saved struct {
	names []string
	vals  []Value
}

// save returns the current bindings of names in this scope (nil where
// unbound).
func (e *Env) save(names []string) saved {
	out := saved{names: names, vals: make([]Value, len(names))}
	for i, n := range names {
		out.vals[i] = e.vars[n]
	}
	return out
}

// restore puts saved bindings back; names unbound then are unbound again.
func (e *Env) restore(s saved) {
	for i, n := range s.names {
		if s.vals[i] == nil {
			delete(e.vars, n)
		} else {
			e.vars[n] = s.vals[i]
		}
	}
}
