package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL217 reports jax.new_ref calls with a memory space that run eagerly.
var PAL217 = &analysis.Analyzer{
	Code: "PAL217", Name: "eager-memory-space-ref", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Memory-space ref (jax.new_ref) made outside a jit",
		What: "`jax.new_ref(x, memory_space=M)`, with M known not to be None (pltpu.HBM, pltpu.VMEM, a memory " +
			"space on a core mesh), runs on a path from a concrete entry point in eager code: not under jax.jit, " +
			"shard_map, vmap or a lax control-flow body. It typically appears when a kernel launcher that builds " +
			"its refs is called directly instead of through its jit. Calls whose memory space may be None, code " +
			"under pytest.raises or assertRaises, and library functions no entry calls are not reported.",
		Why: "Eagerly, jax.new_ref runs its implementation rule, which only makes refs in the default memory: " +
			"\"NotImplementedError: array ref with memory space only works inside of a `jit`.\" (every release " +
			"with jax.new_ref, 0.7.2 on). Inside a jit the ref is traced and placed where asked.",
		Example:    "x_ref = jax.new_ref(x, memory_space=pltpu.HBM)",
		Fixed:      "x_ref = jax.jit(lambda x: jax.freeze(jax.new_ref(x, memory_space=pltpu.HBM)))(x)",
		FixSafety:  "No mechanical fix: which computation the jit should enclose is the program's choice.",
		Since:      "0.2.0",
		JAXVersion: "0.8",
		Scaffold: `import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl  # noqa: F401
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
` + analysis.SnippetLine + `
`,
	},
	Run: runPAL217,
}

func runPAL217(p *analysis.Pass) {
	if p.Version.Less(lowering.NewRefSince) {
		return // no jax.new_ref: PAL301's
	}
	o := lowering.EagerMemorySpaceRef(p.Version)
	for _, u := range p.EagerRefs {
		p.Report(analysis.Diagnostic{
			Location: u.Location,
			Message: fmt.Sprintf("`jax.new_ref` with a memory space runs eagerly, outside any jit%s; with %s this fails: %s",
				suffix(where(u.Reach)), version(p), quoteError(o)),
			Related: pathRelated(u.Reach),
			Detail:  detail(p, o), JAXError: jaxError(o),
		})
	}
}
