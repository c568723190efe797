package analysis

import (
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// Symbolic unknowns: in a library entry (no caller in the workspace) the
// parameters' values are unknown, but the same parameter read twice is
// the same value. A library function that constrains an operand to
// P(..., in_axis) and later reduces over in_axis names one axis twice,
// whatever it is: PAL104 can then tell, for the collective, that its axis
// is not manual (context.go: Unmanual), though no literal name appears.
//
// A symbol is an Unknown with an identity: one per parameter of each
// function a library entry runs in its unknown context
// (interp.paramSymbol), and one per
// attribute, constant index or unpacked position of another
// (interp.derive: weight_sharding.spec[0]). Everywhere else a symbol is
// Unknown (isUnknown); only the evidence of context.go and collective.go
// compares identities. A join of symbols is a vUnion whose identity is
// that of the variable holding it (both uses read the same object).

// symbol is the identity of a symbolic Unknown.
type symbol struct {
	desc     string               // for messages: "weight_sharding[0]"
	children map[string]*vUnknown // derived symbols, by part (".spec", "[0]")
	depth    int                  // parts from the parameter
}

// maxSymbolDepth bounds a derivation (self.config.axes[0] is 3 parts):
// beyond it a part is plain Unknown, so a hostile chain of attributes
// costs neither memory nor time.
const maxSymbolDepth = 6

// symKey is a symbol's place in interp.syms: parameter name of def, or
// attribute name of inst (dynamicAttr).
type symKey struct {
	def  *ir.FuncDef
	inst *vInstance
	name string
}

// isUnknown reports whether v is Unknown, symbolic or not.
func isUnknown(v value) bool {
	_, ok := v.(*vUnknown)
	return ok
}

// paramSymbol is parameter name of def as a symbol, when the run is a
// library entry's; plain Unknown otherwise.
func (in *interp) paramSymbol(def *ir.FuncDef, name string) value {
	if def == nil || !in.symbolsRead() {
		return unknown
	}
	return in.symbolAt(symKey{def: def, name: name}, name)
}

// symbolsRead reports whether the run is where symbols are read: the
// unknown context of a library entry (a kernel body or a shard_map inside
// it has its own). Elsewhere they would only split memo entries.
func (in *interp) symbolsRead() bool {
	return len(in.stack) > 0 && in.stack[0].library && in.cur != nil && in.cur.Kind == ctxUnknown
}

// symbolAt is the symbol at k, made (and journaled) on first use.
func (in *interp) symbolAt(k symKey, desc string) value {
	if s, ok := in.syms[k]; ok {
		return s
	}
	s := &vUnknown{sym: &symbol{desc: desc}}
	in.h.journal.syms.add(k, s) // undone with the entry that made it (resume.go)
	return s
}

// getattrAt is attribute name of v read at site (`v.name`,
// `getattr(v, "name")`): getattr's answer, or, for an instance that holds
// no such attribute, what its class's __getattr__ returns for it, as
// Python computes it.
func (in *interp) getattrAt(v value, name string, site *ir.Expr) value {
	r := in.getattr(v, name)
	o, ok := v.(*vInstance)
	if !ok || r != unknown {
		return r
	}
	f, ok := in.userGetattr(o, name).(*vFunc)
	if !ok {
		return unknown
	}
	b := *f
	b.Self = o
	r = in.call(&b, args{pos: []value{&vConst{C: ir.Const{Kind: ir.ConstStr, S: name}}}}, site)
	if r == unknown || slices.Contains(alts(r), unknown) {
		// Not known here (or known only in part), but one value all the
		// same: the object's __getattr__ chooses it, the same each read
		// (dynamicAttr).
		return in.symbolAt(symKey{inst: o, name: name}, dynamicDesc(o, name))
	}
	return r
}

// userGetattr is the __getattr__ o's workspace class defines, which
// Python calls for attribute name (not a dunder name, which it looks up
// on the type); nil if there is none.
func (in *interp) userGetattr(o *vInstance, name string) value {
	if o.Class == nil || strings.HasPrefix(name, "__") {
		return nil
	}
	return in.classAttr(o.Class, "__getattr__", 0)
}

// dynamicAttr is attribute name of o, which neither o nor its class
// holds, when its class defines __getattr__: a value chosen at run time
// (tpu-inference's LazyShardingAxisName picks one of two classes of axis
// names from the environment), but the same one each time it is read.
// So `P(AXES.DATA)` in a jit's in_shardings and `lax.axis_index(AXES.DATA)`
// name one axis, whatever it is. nil where symbols are not read, or the
// class has no __getattr__.
func (in *interp) dynamicAttr(o *vInstance, name string) value {
	if !in.symbolsRead() || in.userGetattr(o, name) == nil {
		return nil
	}
	return in.symbolAt(symKey{inst: o, name: name}, dynamicDesc(o, name))
}

// dynamicDesc describes attribute name of o for messages: "Lazy().DATA".
func dynamicDesc(o *vInstance, name string) string {
	desc := "." + name
	if o.Class.Def != nil {
		desc = o.Class.Def.Name + "()" + desc
	}
	return desc
}

// derive is part (".attr", "[i]") of v when v is a symbol or a join of
// symbols; Unknown otherwise.
func derive(v value, part string) value {
	switch t := v.(type) {
	case *vUnknown:
		if t.sym == nil || t.sym.depth >= maxSymbolDepth {
			return unknown
		}
		if c, ok := t.sym.children[part]; ok {
			return c
		}
		if t.sym.children == nil {
			t.sym.children = map[string]*vUnknown{}
		}
		c := &vUnknown{sym: &symbol{desc: t.sym.desc + part, depth: t.sym.depth + 1}}
		t.sym.children[part] = c
		return c
	case *vUnion:
		var out value
		for _, a := range t.Alts {
			d := derive(a, part)
			if d == unknown {
				return unknown
			}
			out = join(out, d)
		}
		return out
	}
	return unknown
}

// symbolic reports whether v is a symbol, or a join of symbols and
// literal strings: a value whose identity names axes.
func symbolic(v value) bool {
	switch t := v.(type) {
	case *vUnknown:
		return t.sym != nil
	case *vUnion:
		for _, a := range t.Alts {
			if _, ok := constStr(a); !ok && !symbolic(a) {
				return false
			}
		}
		return true
	}
	return false
}

// specSymbols lists the symbolic entries of a literal PartitionSpec, or of
// a literal sequence of them: P(None, in_axis) names whatever in_axis is.
func specSymbols(v value, depth int) []value {
	if s, ok := v.(*vSeq); ok && depth < 4 {
		var out []value
		for _, it := range s.Items {
			out = append(out, specSymbols(it, depth+1)...)
		}
		return out
	}
	c, ok := pspecCall(v)
	if !ok {
		return nil
	}
	var out []value
	for _, it := range c.Args {
		if symbolic(it) {
			out = append(out, it)
		}
	}
	return out
}

// hasUnmanualSymbol reports whether v is one of the symbolic axes the
// context shows are not manual (the same value: the same identity).
func (c *spmdCtx) hasUnmanualSymbol(v value) bool {
	return slices.Contains(c.UnmanualSyms, v)
}
