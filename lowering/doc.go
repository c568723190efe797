// Package lowering is pallas-ls's knowledge of JAX: what JAX and Pallas APIs
// mean, kept as data, plus one pure function that predicts what JAX does
// with a kernel call. It imports only the standard library and knows
// nothing about Python syntax.
//
// # Place in the data flow
//
//	pyparse ──► analysis (summaries, name resolution, call graph,
//	               effect and context inference) ──► analysis/rules ──► cli / lsp
//	                      │
//	                      └── asks lowering:
//	                            Lookup(qualified name)       -> API{Role, Backend, versions}
//	                            KeywordChanges(callee)       -> renamed/removed keywords
//	                            Predict(version, ctx, effs)  -> first JAX error, or none
//
// The analysis resolves a user's spelling (import aliases such as
// `from jax.experimental.pallas import tpu as pltpu`) to a fully qualified
// name and asks Lookup what it is. It reacts to the Role (a pallas_call, a
// shard_map, a remote DMA, a transparent wrapper, ...), never to the
// spelling, so supporting a new JAX spelling is a table row here and no
// change to the engine. The Backend field is evidence for deciding whether a
// kernel is a TPU kernel at all; every outcome of Predict assumes one.
//
// # Versions
//
// Everything is version-aware because users pin JAX and JAX moves quickly:
// an API has Since, Deprecated and Removed versions, and StatusAt(v) turns
// them into what PAL301 (removed, or not yet added) and PAL302 (deprecated)
// report. A name that a project uses before it exists is StatusNotYet,
// which PAL301 reports only for an exactly known version; modules that
// early releases lack (pl.tpu_sc, pl.mosaic_gpu) are the Module table, and
// MissingError words the exception each of these raises. The version facts were read from jax-ml/jax release
// tags (module export lists, their _deprecations dicts and CHANGELOG.md);
// where the project's notes disagreed with the source, the source won and
// the table comment says so.
//
// # Predicting the error
//
// jax-semantics.md §4 is encoded by Predict, which walks JAX's three layers
// in the order they fire and returns the first failure:
//
//  1. trace: lax.axis_index on an unbound device axis (NameError), then the
//     Explicit-sharding check of pallas_call / mpmd_map (0.9.0+ / 0.11.0+);
//  2. Pallas-to-Mosaic lowering: communication without a shard_map mesh,
//     or a MESH device id that has no mesh to linearise against;
//  3. the Mosaic custom call: automatic partitioning refused under a
//     multi-device jit or a partial shard_map, and the legacy pmap replica
//     branch that refuses communicating modules (reachable below 0.8.0).
//
// Interpret mode stops after layer 1 (plus the interpret=True remote-signal
// error). Messages are worded as the predicted version words them, because
// users paste them into search engines. An unknown context predicts no
// failure: pallas-ls never reports on a guess.
//
// # Kernel configuration
//
// kernelconfig.go words the errors of a misconfigured pallas_call (block
// tiling and rank, index maps, spec trees, Python's arity TypeErrors, the
// BlockSpec argument order) per version, as the oracle recorded them.
// primitives.go says which primitive a jnp/lax API binds and whether a
// version's Mosaic lowering has a rule for it; the per-version rule table,
// mosaic_rules_gen.go, is generated from JAX itself (lowering/gen/gen.sh
// runs gen/mosaic_rules.py in each oracle venv), never typed by hand.
// kconfig.go words the errors of how a kernel is set up for lowering:
// compiler params of the other platform, collective_id and the barrier,
// MESH device ids against the mesh, memory spaces per core mesh (PAL201,
// PAL202, PAL204, PAL205); accumulators.go is check_accumulator_ref with
// tpu_info's chip table (PAL203). chips.go names the chips. vma.go is
// what a shard_map's check_vma (check_rep) does to a kernel: the output
// struct that must give vma= / manual_axis_type=, and before 0.6.1 the
// replication check that knows no pallas_call (PAL105).
//
// # shard_map's own checks
//
// shardmap.go holds the plain JAX errors shard_map raises when it is
// applied, before its body (and any kernel in it) is traced: a concrete
// mesh inside another shard_map's body (PAL106) and in_specs that differ
// from an Explicit-sharded argument's spec (PAL107), with the versions that
// make each check and jax.make_mesh's default axis types.
//
// # JAX's own test base classes
//
// testbases.go knows the methods of JAX's test base classes that forward
// to a Pallas API (pallas_test_util's PallasTest.pallas_call is
// pl.pallas_call with interpret=self.INTERPRET): the analysis never follows
// `jax` imports, even in JAX's own tree, so JAX's tests reach their kernels
// through this table.
//
// # The kernels JAX bundles
//
// kernelops.go makes APIs of the public functions of
// jax.experimental.pallas.ops.tpu that run a Mosaic kernel (flash and
// paged attention, megablox's gmm, ragged paged attention, the Pallas
// PRNGs: role kernel-op) or return a callable that does (splash
// attention's make_splash_mha: kernel-op-factory). Which functions those
// are is generated from every recorded release's source
// (kernel_ops_gen.go, by gen/kernel_ops.py through gen/gen.sh).
//
// Context is a small comparable value (the lattice point the analysis
// infers per path) and Effects a flat summary of what the kernel does; both
// keep Predict a pure table lookup that tests can enumerate exhaustively.
package lowering
