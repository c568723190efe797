package analysis

import "slices"

// scope is one Python scope: module globals, a function's locals, or a class
// body. Lookups walk to the parent (the enclosing function or the module);
// class bodies are skipped by the functions defined in them, as in Python.
type scope struct {
	// A scope's bindings: in small while they are few (most function
	// scopes), in vars once there are more than smallEnv.
	small []binding
	vars  map[string]value

	parent *scope
	mod    *module
	// classBody marks a class namespace: functions defined in it close
	// over the enclosing scope instead.
	classBody bool
	// log journals the bindings of a module scope its own code changes
	// after its top level ran (a main block: journaledScope), so that
	// taking the entry back takes them back too; nil otherwise (a
	// module's top level binds into a scope the journal drops whole).
	log *setLog[string, value]
}

// rawScope sets a scope's bindings without its log: the place the log
// itself records in (journal.go).
type rawScope struct{ *scope }

func (r rawScope) set(name string, v value) { r.put(name, v) }
func (r rawScope) unset(name string)        { r.drop(name) }

type binding struct {
	name string
	v    value
}

// smallEnv is the most bindings a scope keeps in a slice; a linear search
// of a few names beats a map, and costs no map per call.
const smallEnv = 8

func newEnv(parent *scope, mod *module) *scope {
	return &scope{parent: parent, mod: mod}
}

func (e *scope) lookup(name string) (value, bool) {
	for s := e; s != nil; s = s.parent { // a nil *scope is an empty one
		if v, ok := s.get(name); ok {
			return v, true
		}
	}
	return nil, false
}

// get returns the binding of name in this scope only.
func (e *scope) get(name string) (value, bool) {
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
func (e *scope) value(name string) value {
	v, _ := e.get(name)
	return v
}

func (e *scope) set(name string, v value) {
	if e.log != nil {
		e.log.set(rawScope{e}, name, v)
		return
	}
	e.put(name, v)
}

func (e *scope) put(name string, v value) {
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
	e.vars = make(map[string]value, 2*smallEnv)
	for _, b := range e.small {
		e.vars[b.name] = b.v
	}
	e.small = nil
	e.vars[name] = v
}

// unset removes the binding of name from this scope.
func (e *scope) unset(name string) {
	if e.log != nil {
		e.log.unset(rawScope{e}, name)
		return
	}
	e.drop(name)
}

func (e *scope) drop(name string) {
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
func (e *scope) each(f func(name string, v value)) {
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
func (e *scope) asMap() map[string]value {
	if e.vars != nil {
		return e.vars
	}
	m := make(map[string]value, len(e.small))
	for _, b := range e.small {
		m[b.name] = b.v
	}
	return m
}

// saved holds some bindings of a scope, for restoring them.
type saved struct {
	names []string
	vals  []value
}

// save returns the current bindings of names in this scope (nil where
// unbound).
func (e *scope) save(names []string) saved {
	out := saved{names: names, vals: make([]value, len(names))}
	for i, n := range names {
		out.vals[i] = e.value(n)
	}
	return out
}

// restore puts saved bindings back; names unbound then are unbound again.
func (e *scope) restore(s saved) {
	for i, n := range s.names {
		if s.vals[i] == nil {
			e.unset(n)
		} else {
			e.set(n, s.vals[i])
		}
	}
}
