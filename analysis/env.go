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
	for s := e; s != nil; s = s.parent {
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

// snapshot copies the bindings of this scope only, for branch merging.
func (e *Env) snapshot() map[string]Value {
	m := make(map[string]Value, len(e.vars))
	for k, v := range e.vars {
		m[k] = v
	}
	return m
}

// mergeBranches sets every name either branch bound to the join of both.
func (e *Env) mergeBranches(before, a, b map[string]Value) {
	for k := range a {
		e.vars[k] = join(pick(a, before, k), pick(b, before, k))
	}
	for k := range b {
		if _, done := a[k]; !done {
			e.vars[k] = join(pick(a, before, k), pick(b, before, k))
		}
	}
}

func pick(m, before map[string]Value, k string) Value {
	if v, ok := m[k]; ok {
		return v
	}
	return before[k]
}
