package analysis

import "github.com/pallas-ls/pallas-ls/analysis/ir"

// Eager memory-space refs (PAL217). jax.new_ref(x, memory_space=M) with M
// known not to be None, called on a path from a concrete entry while
// nothing traces (plain eager code: not under jit, shard_map, vmap, a lax
// control-flow body or a kernel), is recorded: JAX makes refs in a memory
// space only inside a jit. Code under pytest.raises / assertRaises, and
// library entries, are not recorded.

// refUse is one such call, as recorded.
type refUse struct {
	site *ir.Expr
	file *ir.Summary
	rs   *reachState
}

func (in *interp) newRef(api string, a args, site *ir.Expr) {
	c := in.cur
	if c == nil || site == nil || c.Kind != ctxPlain || c.Traced || c.ExpectRaise || c.TraceOnly {
		return
	}
	if len(in.stack) == 0 || in.stack[0].library {
		return
	}
	ms, ok := a.kw["memory_space"]
	if !ok {
		return
	}
	switch ms.(type) {
	case *vExternal, *vExtCall:
	default:
		if !definitelyNotNone(ms) {
			return // perhaps None: the default memory
		}
	}
	// An entry logs every call it meets, even one an earlier entry
	// recorded (as smapply.go's applications): when that entry's run is
	// taken back (a resume), a replay of this one's log must still report it.
	if _, seen := in.refs[site]; seen && in.h.log == nil {
		return
	}
	u := &refUse{site: site, file: in.file, rs: in.reach()}
	in.addRef(u)
	if in.h.log != nil {
		in.h.log.refs = append(in.h.log.refs, u)
	}
}

func (in *interp) addRef(u *refUse) {
	if _, seen := in.refs[u.site]; seen {
		return
	}
	in.h.journal.refs.add(u.site, u)
	in.refOrder = append(in.refOrder, u)
}

// refFacts renders the recorded calls.
func (in *interp) refFacts() []*EagerRef {
	out := make([]*EagerRef, 0, len(in.refOrder))
	for _, u := range in.refOrder {
		out = append(out, &EagerRef{Location: Locate(u.file, u.site.Span), API: "jax.new_ref", Reach: u.rs.render()})
	}
	return out
}
