package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL201 reports compiler params of one platform on a kernel of the other.
var PAL201 = &analysis.Analyzer{
	Code: "PAL201", Name: "compiler-params-platform", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Compiler params of the other platform",
		What: "A kernel whose own markers say TPU (pltpu operations, TPU scratch or memory spaces, a TPU core mesh) " +
			"gets Triton or Mosaic GPU compiler params (pltriton.CompilerParams, plgpu.CompilerParams), or a kernel " +
			"marked GPU gets pltpu.CompilerParams. Kernels in interpret mode are not lowered and are not reported. " +
			"Before JAX 0.9.1 the params of the other platform were ignored: the finding is then an info.",
		Why: "Since JAX 0.9.1 lowering keeps a single params object and checks its class: a TPU kernel fails with " +
			"\"ValueError: Compiler params for platform gpu cannot be used for tpu lowering.\" (0.10 and later, " +
			"Triton params) or a bare AssertionError (Mosaic GPU params, and 0.9.x); a GPU kernel with TPU params " +
			"fails with \"Cannot lower pallas_call on platform: gpu ...\" or the platform message.",
		Example:   "pl.pallas_call(copy_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA],\n               compiler_params=pltriton.CompilerParams(num_warps=4))(x)",
		Fixed:     "pl.pallas_call(copy_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA])(x)",
		FixSafety: "Removing params of the other platform is unsafe: review that the kernel really targets this platform, and port the settings that matter to its params.",
		Since:     "0.2.0",
		Scaffold: `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as pltriton


def copy_kernel(x_ref, o_ref, sem):
    copy = pltpu.make_async_copy(x_ref, o_ref, sem)
    copy.start()
    copy.wait()


x = jax.numpy.ones((8, 128))
` + analysis.SnippetLine + "\n",
	},
	Run: runPAL201,
}

var platformNames = map[lowering.Backend]string{lowering.BackendTPU: "TPU", lowering.BackendGPU: "GPU"}

func paramsName(qual string) string {
	switch qual {
	case lowering.TritonParamsQual, lowering.TritonParamsOldQual:
		return "Triton"
	case lowering.GPUParamsQual, lowering.GPUParamsOldQual:
		return "Mosaic GPU"
	}
	return "TPU"
}

func runPAL201(p *analysis.Pass) {
	for _, kc := range p.KernelCalls {
		cfg := kc.Lowering
		if cfg.Params == nil || interpreted(kc) || !lowered(kc) {
			continue
		}
		kernel := cfg.BodyBackend
		if kernel == lowering.BackendUnknown && p.Options != nil && (p.Options.Platform == "tpu" || p.Options.Platform == "gpu") {
			// No markers but the params: the params pick the platform,
			// unless the platform setting says where the kernels run. (The
			// project's other evidence does not outweigh the params.)
			kernel = p.ProjectTarget().Backend
		}
		params := lowering.ParamsBackend(cfg.Params.Qual)
		if kernel == lowering.BackendUnknown || params == lowering.BackendUnknown || kernel == params {
			continue
		}
		loc, ok := paramsValueLocation(kc)
		if !ok {
			loc = calleeLocation(kc)
		}
		d := analysis.Diagnostic{Location: loc}
		why := "its own markers make"
		if cfg.BodyBackend == lowering.BackendUnknown {
			why = "the platform setting makes"
		}
		what := fmt.Sprintf("%s compiler params (`%s`) on kernel `%s`, which %s a %s kernel",
			paramsName(cfg.Params.Qual), short(cfg.Params.Qual), kc.Kernel, why, platformNames[kernel])
		if o, fails := lowering.ParamsPlatformOutcome(p.Version, cfg.Params.Qual, kernel); fails {
			d.Message = fmt.Sprintf("%s; with %s lowering fails: %s", what, version(p), errorText(o))
			d.Detail, d.JAXError = detail(p, o), jaxError(o)
		} else {
			d.Severity = analysis.SeverityInfo
			d.Message = fmt.Sprintf("%s; %s ignores them (JAX 0.9.1 and later reject them)", what, version(p))
		}
		if fix, ok := dropParamsFix(kc); ok {
			d.Fixes = append(d.Fixes, fix)
		}
		p.Report(d)
	}
}

// errorText renders an outcome whose message may be empty (a bare
// assert) or unknown (no type).
func errorText(o lowering.Outcome) string {
	switch {
	case o.Error == "":
		return "an error whose wording depends on what the process lowered before"
	case o.Message == "":
		return "a bare " + o.Error
	}
	return quoteError(o)
}

// dropParamsFix removes the compiler_params= keyword of the declaration.
func dropParamsFix(kc *analysis.KernelCall) (analysis.SuggestedFix, bool) {
	cfg := kc.Lowering
	if cfg.ParamsKeyword == nil || cfg.DeclFile == nil {
		return analysis.SuggestedFix{}, false
	}
	e, ok := dropKeywordEdit(cfg.DeclFile, cfg.DeclCall, cfg.ParamsKeyword)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	return analysis.SuggestedFix{Title: "Remove the " + paramsName(cfg.Params.Qual) + " compiler params",
		Applicability: analysis.Unsafe, Edits: []analysis.TextEdit{e}}, true
}
