package rules

import (
	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL301 reports names and keywords the configured JAX version no longer has.
var PAL301 = &analysis.Analyzer{
	Code: "PAL301", Name: "removed-api", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "JAX or Pallas API removed in the configured JAX version",
		What: "An attribute, import or keyword argument that the configured JAX version no longer has: for example " +
			"`pltpu.semaphore_signal` or `pltpu.DeviceIdType` on 0.11, `pltpu.TPUCompilerParams` on 0.7.2 and later, " +
			"`shard_map(auto=...)` on 0.8 and later. Also one it does not have yet, when the version is known exactly " +
			"(`--jax-version`, the `jax-version` setting or a `jax==` pin; not a `>=` floor or the default): " +
			"`jax.shard_map` before 0.6.1, `pltpu.CompilerParams` before 0.6.2, `pl.pallas_call(scratch_shapes=...)` " +
			"before 0.4.34, the `pl.tpu_sc` module before 0.7.2. Names are resolved through the file's imports, so " +
			"aliases count and a function of your own with the same name does not.",
		Why: "The code fails at run time with AttributeError, ImportError or TypeError; the finding's jax_error " +
			"names it where the wording is known.",
		Example:   "from jax.experimental.pallas import tpu as pltpu\npltpu.semaphore_signal(sem, 1, device_id=d)",
		Fixed:     "from jax.experimental import pallas as pl\npl.semaphore_signal(sem, 1, device_id=d)",
		FixSafety: "Safe: the new spelling is the same API; the fix adds the import it needs.",
		Since:     "0.1.0",
	},
	RunFile:       func(p *analysis.Pass, s *ir.Summary) { apiHistory(p, s, lowering.StatusRemoved) },
	Triggers:      historyTriggers,
	ExactTriggers: sinceTriggers,
}
