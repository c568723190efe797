package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL101 reports communicating kernels called where no fully manual
// shard_map surrounds them.
var PAL101 = &analysis.Analyzer{
	Code: "PAL101", Name: "comm-outside-shard-map", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Communicating kernel called outside a fully manual shard_map",
		What: "A Pallas TPU kernel that talks to other devices (remote DMA, remote semaphore signal, " +
			"lax.axis_index on a mesh axis) is called on a path from a concrete entry point (module top level, " +
			"`if __name__ == \"__main__\":`, a test, a pmap) with no fully manual jax.shard_map around it. " +
			"A communicating kernel whose function has no caller in the workspace gets an info-level hint instead, " +
			"or a warning when the function itself shards over a literal mesh axis on the way (a jit's " +
			"in_shardings/out_shardings, a with_sharding_constraint), which JAX refuses where a caller's shard_map " +
			"makes that axis manual: no caller can then run it in a fully manual shard_map. " +
			"For a pl.kernel or core_map, an axis of its core mesh is no mesh axis (also when the mesh is one of " +
			"several core meshes the program chooses at run time: a name none of them has is a device axis), and neither " +
			"is an axis of a core mesh its output or scratch types are placed on (`pltpu.VMEM(shape, dtype) @ tc_mesh`, " +
			"the MPMD form): a device id naming it addresses a core of the same chip. " +
			"A call under pytest.raises or assertRaises is expected to fail and not reported, unless the block catches only " +
			"specific builtin exceptions (ValueError, NotImplementedError, ...) and the error predicted is of another type, " +
			"which escapes it (the same holds for PAL103, and for PAL104's kernel axes). " +
			"Before JAX 0.4.33 a kernel whose only lax.axis_index on a mesh axis is in a BlockSpec index_map is reported " +
			"inside shard_map too: Pallas then looked for communication in the kernel body alone and lowered without " +
			"the device mesh (AttributeError on `mesh_shape`).",
		Why: "JAX fails at trace or lowering time, on the TPU slice, with the first of: " +
			"\"NameError: Found an unbound axis name\", \"Cannot use communication in pallas_call without shard_map.\", " +
			"\"Mosaic kernels cannot be automatically partitioned. Please wrap the call in a shard_map.\" or, " +
			"under pmap before JAX 0.8, \"Replica lowering for Mosaic kernels not implemented.\" " +
			"A MESH-typed device id in a kernel with no lax.axis_index fails earlier, on the mesh Pallas lacks: " +
			"an AttributeError on `mesh_strides` before 0.7, a bare AssertionError to 0.8.1, then \"Number of device " +
			"ids must match the number of mesh axes, but got 1 ids for a 0D mesh.\"; with interpret=True the remote " +
			"copy's discharge fails instead (\"device_id (1) and mesh (0) must have same length.\", an IndexError for " +
			"LOGICAL ids). " +
			"The message names the error your configured JAX version raises first: a collective on an unbound axis " +
			"name earlier in the same trace (PAL104) fails before the kernel is lowered, and the message says so.",
		Example: "def ring(x):\n    return pl.pallas_call(ring_kernel, out_shape=...)(x)\n\nring(x)  # top level",
		Fixed: "ring_sharded = jax.shard_map(ring, mesh=mesh, in_specs=P(\"x\"), out_specs=P(\"x\"), check_vma=False)\n" +
			"ring_sharded(x)",
		FixSafety: "Wrapping in shard_map changes how inputs are split across devices; such fixes are unsafe and must be reviewed.",
		Since:     "0.1.0",
		Scaffold: `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": 1})
    copy.start()


def ring(x):
    return pl.pallas_call(ring_kernel, out_shape=...)(x)


mesh = jax.make_mesh((4,), ("x",))
x = jax.numpy.ones((8, 128))
` + analysis.SnippetLine + "\n",
	},
	Run: runPAL101,
}

func runPAL101(p *analysis.Pass) {
	for _, kc := range p.KernelCalls {
		t, tpu := onTPU(p, kc)
		if !tpu || !kc.Effects.Communicates() && !kc.MaybeComm {
			continue
		}
		if r, o, ok := failingReach(p.Version, kc); ok && kc.Effects.Communicates() {
			var fixes []analysis.SuggestedFix
			if fix, ok := wrapFix(p, kc, r); ok {
				fixes = append(fixes, fix)
			}
			if fix, ok := decorateFix(p, kc, r); ok {
				fixes = append(fixes, fix)
			}
			o, first := firstError(p, kc, r, o)
			p.Report(targeted(p, t, analysis.Diagnostic{
				Fixes:    fixes,
				Location: kc.Site,
				Message: fmt.Sprintf("communicating kernel `%s` (%s) is called outside a fully manual jax.shard_map%s; %s%s: %s",
					kc.Kernel, opSummary(kc), suffix(where(r)), fails(p, t), first, quoteError(o)),
				Related: append(opsRelated(kc), pathRelated(r)...),
				Detail:  detail(p, o), JAXError: jaxError(o),
			}))
			continue
		}
		if r, o, ok := indexMapReach(p.Version, kc); ok {
			o, first := firstError(p, kc, r, o)
			p.Report(targeted(p, t, analysis.Diagnostic{
				Location: kc.Site,
				Message: fmt.Sprintf("kernel `%s` calls lax.axis_index on a mesh axis only in a BlockSpec index_map%s: "+
					"before JAX 0.4.33 Pallas looks for communication in the kernel body alone, so it lowers the kernel "+
					"without the device mesh even inside the shard_map; %s%s: %s",
					kc.Kernel, suffix(where(r)), fails(p, t), first, quoteError(o)),
				Related: append(opsRelated(kc), pathRelated(r)...),
				Detail:  detail(p, o), JAXError: jaxError(o),
			}))
			continue
		}
		if r, ok := notManualReach(kc); ok && kc.Effects.Communicates() &&
			reportNotManual(p, kc, r, fmt.Sprintf("communicating kernel `%s` (%s)", kc.Kernel, opSummary(kc)), opsRelated(kc)) {
			continue
		}
		if r, ok := onlyUnknown(kc); ok && r.Library {
			p.Report(analysis.Diagnostic{
				Location: kc.Site, Severity: analysis.SeverityInfo,
				Message: fmt.Sprintf("communicating kernel `%s` (%s): callers must run this inside jax.shard_map with every mesh axis manual (%s)",
					kc.Kernel, opSummary(kc), r.Entry),
				Related: opsRelated(kc),
			})
		}
	}
}

func suffix(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// failingReach returns the first non-SPMD context the call is reached in
// whose predicted outcome is an error (inside a raises-block, one it
// does not catch).
func failingReach(v lowering.Version, kc *analysis.KernelCall) (analysis.Reach, lowering.Outcome, bool) {
	for _, r := range allReaches(kc) {
		switch r.Kind {
		case lowering.CtxEagerSingle, lowering.CtxJitMulti, lowering.CtxPmap:
			o := lowering.Predict(v, reachContext(kc, r), kc.Effects)
			if o.Fails && !r.Catches(o.Error) {
				return r, o, true
			}
		}
	}
	return analysis.Reach{}, lowering.Outcome{}, false
}

// allReaches are kc's reaches, then those inside a raises-block that
// catches specific exception types (KernelCall.ExpectReaches), for the
// rules that report what such a block lets escape.
func allReaches(kc *analysis.KernelCall) []analysis.Reach {
	if len(kc.ExpectReaches) == 0 {
		return kc.Reaches
	}
	return append(kc.Reaches[:len(kc.Reaches):len(kc.Reaches)], kc.ExpectReaches...)
}

// indexMapReach returns a shard_map context in which the kernel's index
// map axis_index fails for want of the mesh (lowering.IndexMapAxisUnseen).
func indexMapReach(v lowering.Version, kc *analysis.KernelCall) (analysis.Reach, lowering.Outcome, bool) {
	if !lowering.IndexMapAxisUnseen(v, kc.Effects) {
		return analysis.Reach{}, lowering.Outcome{}, false
	}
	for _, r := range kc.Reaches {
		switch r.Kind {
		case lowering.CtxShardMapFull, lowering.CtxShardMapPartial:
			if o := lowering.Predict(v, reachContext(kc, r), kc.Effects); o.Fails && o.Layer == lowering.LayerPallasLowering {
				return r, o, true
			}
		}
	}
	return analysis.Reach{}, lowering.Outcome{}, false
}

// onlyUnknown reports a call reached only from library entries.
func onlyUnknown(kc *analysis.KernelCall) (analysis.Reach, bool) {
	for _, r := range kc.Reaches {
		if r.Kind != lowering.CtxUnknown {
			return r, false
		}
	}
	if len(kc.Reaches) == 0 {
		return analysis.Reach{}, false
	}
	return kc.Reaches[0], true
}
