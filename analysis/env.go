package analysis

import "slices"

// Env is one Python scope: module globals, a function's locals, or a class
// body. Lookups walk to the parent (the enclosing function or the module);
// class bodies are skipped by the functions defined in them, as in Python.
type Env struct {
	// A scope's bindings: in small while they are few (most function
	// scopes), in vars once there are more than smallEnv.
	small []binding
	vars  map[string]Value

	parent *Env
	mod    *Module
	// classBody marks a class namespace: functions defined in it close
	// over the enclosing scope instead.
	classBody bool
}

type binding struct {
	name string
	v    Value
}

// smallEnv is the most bindings a scope keeps in a slice; a linear search
// of a few names beats a map, and costs no map per call.
const smallEnv = 8

func newEnv(parent *Env, mod *Module) *Env {
	return &Env{parent: parent, mod: mod}
}

func (e *Env) lookup(name string) (Value, bool) {
	for s := e; s != nil; s = s.parent { // a nil *Env is an empty scope
		if v, ok := s.get(name); ok {
			return v, true
		}
	}
	return nil, false
}

// get returns the binding of name in this scope only.
func (e *Env) get(name string) (Value, bool) {
	if e.vars != nil {
		v, ok := e.vars[name]
		return v, ok
	}
	for i := range e.small {
		if e.small[i].name == name {
			return e.small[i].v, true
		}
	}
	return nil, false
}

// value is get without the flag: nil when unbound.
func (e *Env) value(name string) Value {
	v, _ := e.get(name)
	return v
}

func (e *Env) set(name string, v Value) {
	if e.vars != nil {
		e.vars[name] = v
		return
	}
	for i := range e.small {
		if e.small[i].name == name {
			e.small[i].v = v
			return
		}
	}
	if len(e.small) < smallEnv {
		if e.small == nil {
			e.small = make([]binding, 0, 4)
		}
		e.small = append(e.small, binding{name, v})
		return
	}
	e.vars = make(map[string]Value, 2*smallEnv)
	for _, b := range e.small {
		e.vars[b.name] = b.v
	}
	e.small = nil
	e.vars[name] = v
}

// unset removes the binding of name from this scope.
func (e *Env) unset(name string) {
	if e.vars != nil {
		delete(e.vars, name)
		return
	}
	for i := range e.small {
		if e.small[i].name == name {
			e.small = slices.Delete(e.small, i, i+1)
			return
		}
	}
}

// each calls f for every binding of this scope, in no particular order.
func (e *Env) each(f func(name string, v Value)) {
	if e.vars != nil {
		for n, v := range e.vars {
			f(n, v)
		}
		return
	}
	for _, b := range e.small {
		f(b.name, b.v)
	}
}

// asMap returns the bindings of this scope as a map (a class's attributes).
func (e *Env) asMap() map[string]Value {
	if e.vars != nil {
		return e.vars
	}
	m := make(map[string]Value, len(e.small))
	for _, b := range e.small {
		m[b.name] = b.v
	}
	return m
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
		out.vals[i] = e.value(n)
	}
	return out
}

// restore puts saved bindings back; names unbound then are unbound again.
func (e *Env) restore(s saved) {
	for i, n := range s.names {
		if s.vals[i] == nil {
			e.unset(n)
		} else {
			e.set(n, s.vals[i])
		}
	}
}
