package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL103 warns about TPU kernels under a jit that spans several devices.
var PAL103 = &analysis.Analyzer{
	Code: "PAL103", Name: "kernel-under-multi-device-jit", Severity: analysis.SeverityWarning,
	Doc: analysis.Doc{
		Title: "Kernel called under a multi-device jit without shard_map",
		What: "Any Pallas TPU kernel (communicating or not) is called under jax.jit with evidence that the " +
			"computation spans more than one device (NamedSharding in in_shardings/out_shardings, an argument " +
			"placed with jax.device_put(x, NamedSharding(...)), with_sharding_constraint, a context mesh from " +
			"jax.set_mesh; a bare `with mesh:` is not enough) and no shard_map around the call. A kernel called eagerly " +
			"under jax.set_mesh with a mesh of several devices counts too: JAX runs the eager op as a jit over the context mesh. " +
			"A kernel JAX bundles counts as any other: a call of flash_attention, paged_attention, megablox's gmm, " +
			"ragged_paged_attention (jax.experimental.pallas.ops.tpu) or of the callable splash attention's make_splash_mha returns. " +
			"Past a guard that ends the block when there is more than one device (`if jax.device_count() > 1: " +
			"self.skipTest(...)`), jax.devices() is one device. Communicating kernels are " +
			"reported by PAL101 instead. In a library function with no caller in the workspace, the jit's " +
			"evidence gives an info-level hint instead: its callers decide; but when its shardings name a literal mesh axis, " +
			"a warning, since jit refuses a sharding over an axis that a caller's shard_map makes manual, so no caller can make " +
			"the call work (the same holds, for PAL101, of a communicating kernel).",
		Why: "A Mosaic kernel cannot be partitioned by XLA: lowering raises \"Mosaic kernels cannot be " +
			"automatically partitioned. Please wrap the call in a shard_map.\" (or, with an Explicit mesh and an " +
			"operand or result whose type is sharded over it, \"pallas_call requires all mesh axes to be Manual\", at trace " +
			"time; replicated operands, such as jnp.ones(...) built without out_sharding=, pass that check).",
		Example:   "step = jax.jit(lambda x: kernel_call(x), in_shardings=NamedSharding(mesh, P(\"x\")))",
		Fixed:     "step = jax.jit(jax.shard_map(kernel_call, mesh=mesh, in_specs=P(\"x\"), out_specs=P(\"x\")))",
		FixSafety: "Wrapping in shard_map changes sharding; unsafe.",
		Since:     "0.1.0",
		Scaffold: `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def kernel_call(x):
    return pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)


mesh = Mesh(jax.devices(), ("x",))
` + analysis.SnippetLine + `
step(jax.numpy.ones((8, 128)))
`,
	},
	Run: runPAL103,
}

func runPAL103(p *analysis.Pass) {
	for _, kc := range p.KernelCalls {
		t, tpu := onTPU(p, kc)
		if !tpu {
			continue
		}
		if _, _, bad := failingReach(p.Version, kc); bad && kc.Effects.Communicates() {
			continue // PAL101 reports it
		}
		for _, r := range allReaches(kc) {
			if r.Kind != lowering.CtxJitMulti {
				continue
			}
			o := lowering.Predict(p.Version, reachContext(kc, r), kc.Effects)
			if !o.Fails {
				continue
			}
			o, first := firstError(p, kc, r, o)
			if r.Catches(o.Error) {
				continue // the raises-block around it expects this error
			}
			var fixes []analysis.SuggestedFix
			if fix, ok := wrapFix(p, kc, r); ok {
				fixes = append(fixes, fix)
			}
			p.Report(targeted(p, t, analysis.Diagnostic{
				Fixes:    fixes,
				Location: kc.Site,
				Message: fmt.Sprintf("kernel `%s` is called under a jit spanning several devices (%s) without shard_map%s; %s%s: %s",
					kc.Kernel, r.Multi, suffix(where(r)), fails(p, t), first, quoteError(o)),
				Related: pathRelated(r),
				Detail:  detail(p, o), JAXError: jaxError(o),
			}))
			break
		}
		// A library function (no caller in the workspace) that jits the
		// kernel with shardings: whether it fails depends on its callers,
		// so a hint, as PAL101 gives for communicating kernels.
		if r, ok := notManualReach(kc); ok && r.Multi != "" && !kc.Effects.Communicates() &&
			reportNotManual(p, kc, r, fmt.Sprintf("kernel `%s` is called under a jit spanning several devices (%s) without shard_map", kc.Kernel, r.Multi), nil) {
			continue
		}
		if r, ok := onlyUnknown(kc); ok && r.Library && r.Multi != "" && !kc.Effects.Communicates() {
			p.Report(analysis.Diagnostic{
				Location: kc.Site, Severity: analysis.SeverityInfo,
				Message: fmt.Sprintf("kernel `%s` is called under a jit spanning several devices (%s): callers must run it inside jax.shard_map, or XLA cannot partition it (%s)",
					kc.Kernel, r.Multi, r.Entry),
				Related: pathRelated(r),
			})
		}
	}
}
