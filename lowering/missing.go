package lowering

import (
	"strings"
	"unicode"
)

// Module is a JAX module that some releases do not have. Importing it (or
// a name from it) before Since fails at import time, before any other
// error the program could raise.
type Module struct {
	Name  string  // fully qualified module name
	Since Version // first release that ships it
}

// modules: jax/experimental/pallas/*.py of the release wheels (0.4.34 has
// neither mosaic_gpu.py nor triton.py, 0.4.35 both; 0.7.1 has no tpu_sc.py,
// 0.7.2 has it), agreeing with the oracle's ImportErrors.
var modules = []Module{
	{Name: pl + "mosaic_gpu", Since: V(0, 4, 35)},
	{Name: pl + "triton", Since: V(0, 4, 35)},
	{Name: pl + "tpu_sc", Since: V(0, 7, 2)},
}

// LookupModule finds a module of the table by its qualified name.
func LookupModule(q string) (Module, bool) {
	for _, m := range modules {
		if m.Name == q {
			return m, true
		}
	}
	return Module{}, false
}

// Modules returns the table (for tests and the history triggers).
func Modules() []Module { return append([]Module(nil), modules...) }

// MissingModuleAt reports the table module that q is, or lies in, when
// that module does not exist yet at v.
func MissingModuleAt(q string, v Version) (Module, bool) {
	for _, m := range modules {
		if (q == m.Name || strings.HasPrefix(q, m.Name+".")) && v.Less(m.Since) {
			return m, true
		}
	}
	return Module{}, false
}

// isModule reports whether q names a Python module rather than a class or
// function: the modules users reach JAX names through. Only attribute
// errors on modules have the "module 'X' has no attribute 'Y'" wording.
func isModule(q string) bool {
	switch q {
	case "jax", "jax.lax", "jax.numpy", "jax.sharding", "jax.experimental",
		"jax.experimental.shard_map", "jax.experimental.pjit",
		"jax.experimental.pallas", pl + "tpu", pl + "gpu",
		"jax._src.test_util": // JAX's test helpers (TestUtilCreateMesh)
		return true
	}
	_, ok := LookupModule(q)
	return ok
}

// MissingError is the exception a release raises for a name it does not
// have: the module attribute (AttributeError), `from M import N`
// (ImportError, the module's file path left as a placeholder) or a keyword
// argument (TypeError). ok is false when the wording is not knowable: the
// owner is a class, or `import a.b.c` of a missing module.
func MissingError(kind MissingKind, qual, keyword string) (typ, msg string, ok bool) {
	i := strings.LastIndexByte(qual, '.')
	if i < 0 {
		return "", "", false
	}
	owner, name := qual[:i], qual[i+1:]
	switch kind {
	case MissingAttribute:
		if isModule(owner) {
			return "AttributeError", "module '" + owner + "' has no attribute '" + name + "'", true
		}
	case MissingFromImport:
		if isModule(owner) {
			return "ImportError", "cannot import name '" + name + "' from '" + owner + "' ({path})", true
		}
	case MissingKeyword:
		// A function's own name; a class words it through __init__ or
		// __new__, known for the classes initClasses lists.
		if name != "" && !unicode.IsUpper(rune(name[0])) {
			return "TypeError", name + "() got an unexpected keyword argument '" + keyword + "'", true
		}
		if initClasses[qual] {
			return "TypeError", name + ".__init__() got an unexpected keyword argument '" + keyword + "'", true
		}
	}
	return "", "", false
}

// initClasses are the classes whose constructor is their own __init__
// (dataclasses, ShapeDtypeStruct), so that an unknown keyword is worded
// through it; the oracle records "CompilerParams.__init__() got an
// unexpected keyword argument ..." on 0.6.2 (PAL204/allow_on_old_jax) and
// "ShapeDtypeStruct.__init__() got an unexpected keyword argument 'vma'"
// on 0.10.2-0.12 (PAL105/vma_keyword_silent).
var initClasses = map[string]bool{
	pltpu + "CompilerParams": true,
	"jax.ShapeDtypeStruct":   true,
}

// MissingKind is how a program reaches a name.
type MissingKind int

// Ways to reach a name.
const (
	MissingAttribute  MissingKind = iota // module.attr in code
	MissingFromImport                    // from module import name
	MissingKeyword                       // callee(keyword=...)
)

// finalizedUntil: JAX keeps a removed name's deprecation entry (message,
// None) for one release line, so accessing it raises AttributeError with
// that message; after, the module has no such attribute at all. Only the
// names that moved from pltpu to pl are recorded: their entries say
// "pltpu.X was deprecated in JAX v0.10.0, and removed in JAX v0.11.0. Use
// pl.X instead." in 0.11.2 (jax/experimental/pallas/tpu.py), and 0.12.0.1
// has none (the oracle records both, PAL101/pmap_old_jax_logical).
var finalizedUntil = V(0, 12, 0)

// RemovedError is the AttributeError for reading a removed API as a module
// attribute at v, where its wording is known.
func RemovedError(a API, v Version) (typ, msg string, ok bool) {
	if a.StatusAt(v) != StatusRemoved {
		return "", "", false
	}
	i := strings.LastIndexByte(a.Name, '.')
	owner, name := a.Name[:i], a.Name[i+1:]
	if owner+"." != pltpu || a.ReplacedBy != pl+name || a.Removed != V(0, 11, 0) {
		return "", "", false
	}
	if v.Less(finalizedUntil) {
		return "AttributeError", "pltpu." + name + " was deprecated in JAX v0.10.0, and removed in JAX v0.11.0. Use pl." +
			name + " instead.", true
	}
	return MissingError(MissingAttribute, a.Name, "")
}
