package rules

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// Library code: a function no entry of the workspace reaches runs in a
// context its callers choose, so an axis name it uses may be bound by any
// of them. One case is still certain enough to warn about: a literal axis
// name that the workspace writes nowhere else (Pass.WrittenInWorkspace). Every
// binder JAX has (a mesh's axis_names, shard_map's axis_names, vmap's
// axis_name, a core mesh's or a named grid's axis) takes the name as a
// value the program writes, so such a name (typically a renamed or
// misspelt axis) can be bound only by a caller outside the workspace that
// builds its own mesh with it. The finding is a warning, worded
// conditionally; the error it names is the one JAX raises when the code
// runs inside a shard_map whose mesh lacks the name (a collective's usual
// home).

// A second case is certain too: the library function itself shards over
// the axis before it names it (UnboundCollective.NotManual: a jit's
// in_shardings/out_shardings or a with_sharding_constraint naming it;
// not a device_put, which JAX runs there too). JAX refuses such a sharding inside a shard_map that makes
// the axis manual, so wherever the function runs, either that call fails
// or nothing binds the axis at the collective: the shard_map around it
// was removed, or turned into a jit with shardings. This is a warning
// too (nothing in the workspace may call the function), and it names the
// error of the usual case, a caller under jit with the axis automatic.

// libraryCollective reports u, reached only from a library entry, when
// its axis is written nowhere else, or the path shows it is not manual.
func libraryCollective(p *analysis.Pass, u *analysis.UnboundCollective, shown map[analysis.Location]bool) {
	if u.NotManual != nil {
		notManualCollective(p, u)
		return
	}
	if u.EagerRead != nil {
		eagerReadCollective(p, u)
		return
	}
	if shown[u.Location] || p.WrittenInWorkspace(u.Axis, u.File, u.Span) {
		return
	}
	o := lowering.NotInMeshCollective(p.Version, u.API, true, u.ConstArg, u.Axis)
	if !o.Fails {
		return
	}
	warnUnwritten(p, u.Location, fmt.Sprintf("`%s` names axis `%s`", shortAPI(u.API), u.Axis),
		"no mesh or binder", "a caller outside the workspace", u.Reach, o)
}

// notManualCollective reports u, whose library path shards over its axis
// first (u.NotManual).
func notManualCollective(p *analysis.Pass, u *analysis.UnboundCollective) {
	o := lowering.UnboundCollective(p.Version, u.API, u.Eager, u.Axis)
	if !o.Fails {
		return
	}
	first := ""
	if strings.Contains(u.NotManual.Message, "with_sharding_constraint") && p.Version.AtLeast(lowering.V(0, 9, 0)) {
		first = " (over a mesh with Explicit axes, the with_sharding_constraint raises first)"
	}
	p.Report(analysis.Diagnostic{
		Location: u.Location, Severity: analysis.SeverityWarning,
		Message: fmt.Sprintf("`%s` names %s, which cannot be manual here: %s at %s:%d, which JAX refuses inside a shard_map that makes it manual, so no shard_map binds it%s; with %s this fails%s: %s",
			shortAPI(u.API), axisPhrase(u), u.NotManual.Message, filepath.Base(u.NotManual.File), u.NotManual.Pos.Line, suffix(u.Reach.Entry), version(p), first, quoteError(o)),
		Related: append([]analysis.Related{*u.NotManual}, pathRelated(u.Reach)...),
		Detail:  detail(p, o), JAXError: jaxError(o),
	})
}

// eagerReadCollective reports u, whose result the library path reads as
// a Python value (u.EagerRead): that works only eagerly, where nothing
// binds the axis; under a trace the read itself fails.
func eagerReadCollective(p *analysis.Pass, u *analysis.UnboundCollective) {
	o := lowering.UnboundCollective(p.Version, u.API, true, u.Axis)
	if !o.Fails {
		return
	}
	p.Report(analysis.Diagnostic{
		Location: u.Location, Severity: analysis.SeverityWarning,
		Message: fmt.Sprintf("`%s` names %s, and %s at %s:%d, which no trace gives (under jit or a shard_map that read raises ConcretizationTypeError), so this runs eagerly, where no shard_map binds the axis%s; with %s this fails: %s",
			shortAPI(u.API), axisPhrase(u), u.EagerRead.Message, filepath.Base(u.EagerRead.File), u.EagerRead.Pos.Line, suffix(u.Reach.Entry), version(p), quoteError(o)),
		Related: append([]analysis.Related{*u.EagerRead}, pathRelated(u.Reach)...),
		Detail:  detail(p, o), JAXError: jaxError(o),
	})
}

// axisPhrase names u's axis: "axis `model`", or for an axis known only
// as a value, "the axis in `in_axis`".
func axisPhrase(u *analysis.UnboundCollective) string {
	if u.Axis == "" {
		return "the axis in `" + u.AxisText + "`"
	}
	return "axis `" + u.Axis + "`"
}

// warnUnwritten reports PAL104's conditional warning at loc: what (a
// collective or kernel op) names an axis that nothing else in the
// workspace writes, so whose (the binders that could have it) lack it;
// unless what the message names instead binds it, JAX raises o.
func warnUnwritten(p *analysis.Pass, loc analysis.Location, what, whose, unless string, r analysis.Reach, o lowering.Outcome) {
	p.Report(analysis.Diagnostic{
		Location: loc, Severity: analysis.SeverityWarning,
		Message: fmt.Sprintf("%s, which nothing else in the workspace writes, so %s here has it%s; unless %s binds it, with %s this fails: %s",
			what, whose, suffix(r.Entry), unless, version(p), quoteError(o)),
		Related: pathRelated(r),
		Detail:  detail(p, o), JAXError: jaxError(o),
	})
}

// unwrittenKernelAxis reports a kernel call reached only from library
// entries, or only inside shard_maps whose mesh is not known here (an
// attribute, a parameter), whose body (or index map) asks lax.axis_index
// or lax.axis_size of a name that is no axis of the kernel's core mesh and
// that the workspace writes nowhere else (a named grid axis is written
// where the grid is): no mesh the workspace builds can have it either.
func unwrittenKernelAxis(p *analysis.Pass, kc *analysis.KernelCall) {
	r, ok := unknownMeshOnly(kc)
	if !ok {
		return
	}
	for _, op := range append(kc.Ops[:len(kc.Ops):len(kc.Ops)], kc.SizeOps...) {
		if op.Kind != "axis_index" && op.Kind != "axis_size" || op.UnknownAxis {
			continue
		}
		for _, a := range op.Axes {
			if contains(kc.CoreAxes, a) || contains(r.Bound, a) || p.WrittenInWorkspace(a, op.File, op.Span) {
				continue
			}
			o := lowering.UnboundCollective(p.Version, op.API, false, a)
			if !o.Fails {
				continue
			}
			warnUnwritten(p, op.Location, fmt.Sprintf("`%s` in kernel `%s` names axis `%s`", shortAPI(op.API), kc.Kernel, a),
				"no mesh, core mesh or grid", "a mesh or caller from outside the workspace", r, o)
			return
		}
	}
}

// unknownMeshOnly returns the first reach of kc when every reach is a
// library entry's or a shard_map's whose mesh axes are unknown, and none
// binds every name.
func unknownMeshOnly(kc *analysis.KernelCall) (analysis.Reach, bool) {
	if len(kc.Reaches) == 0 {
		return analysis.Reach{}, false
	}
	for _, r := range kc.Reaches {
		switch {
		case r.BoundAny:
			return analysis.Reach{}, false
		case r.Kind == lowering.CtxUnknown && r.Library:
		case (r.Kind == lowering.CtxShardMapFull || r.Kind == lowering.CtxShardMapPartial) && r.MeshAxes == nil:
		default:
			return analysis.Reach{}, false
		}
	}
	return kc.Reaches[0], true
}
