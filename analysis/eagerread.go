package analysis

import (
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// Collective results read as Python values (PAL104, library code). A
// library function that calls `.item()` (or float(), int(), .tolist()) on
// a collective's result needs that result concrete, which no trace gives:
// under jit or inside a shard_map the read raises ConcretizationTypeError.
// So the function works only eagerly, and eagerly no shard_map binds the
// collective's axis: it fails wherever it runs, whoever calls it (a
// shard_map decorator removed from a helper run for its value, the way
// code asks every device for its free memory). The collective's result
// is the vExtCall opaque made of it; an item of it (`r[0]`) stays one,
// under a Qual of its own ("jax.lax.pmin[]") that no array rule reads.

// eagerReads are the methods and builtins that need a concrete value.
var eagerReads = map[string]bool{"item": true, "tolist": true, "builtins.float": true, "builtins.int": true, "builtins.bool": true}

// collectiveResult returns the collective call whose result, or an item
// of it, v is.
func collectiveResult(v value) (*vExtCall, bool) {
	r, ok := v.(*vExtCall)
	if !ok || r.Site == nil {
		return nil, false
	}
	api, ok := lowering.Lookup(strings.TrimSuffix(r.Qual, "[]"))
	return r, ok && api.Role == lowering.RoleCollective
}

// itemOf is r[i] of a collective's result: still its result.
func itemOf(r *vExtCall) value {
	if strings.HasSuffix(r.Qual, "[]") {
		return r
	}
	return &vExtCall{Qual: r.Qual + "[]", Args: r.Args, Kw: r.Kw, Site: r.Site, File: r.File}
}

// eagerRead records, when v is a collective's result read as a Python
// value at site in a library entry, the collective as failing there (its
// axis recorded as unbound by the library context: collective.go).
func (in *interp) eagerRead(v value, site *ir.Expr) {
	r, ok := collectiveResult(v)
	if !ok || site == nil || len(in.stack) == 0 || !in.stack[0].library || in.cur == nil || in.cur.Kind != ctxUnknown {
		return
	}
	names, ok := strList(argAt(args{pos: r.Args, kw: r.Kw}, 1, "axis_name"))
	if !ok {
		return
	}
	for _, n := range names {
		u, ok := in.colls[collKey{r.Site, n, false}]
		if !ok || !u.rs.r.Library || u.eagerAt.site != nil {
			continue // bound where it ran (not recorded), or already read
		}
		k := collKey{r.Site, n, true}
		if _, seen := in.colls[k]; seen {
			return
		}
		e := *u
		e.eagerAt = quoted(in.file, site, false)
		e.eager = true
		in.recordColl(&e)
		return
	}
}
