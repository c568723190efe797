"""Which compositions the corpus holds.

The full product of kernels x reaches x contexts x modes x spellings is
far too large, so the corpus takes slices of it:

* kernels: every kernel in the core contexts (eager, 1-device jit,
  8-device jit, full shard_map, pmap), in both spellings;
* contexts: the communicating kernels that matter in every other context
  (context meshes, Explicit and default make_mesh axes, shard_map eager,
  with check_vma, 2-D, partial, nested, auto=, smap, pmap without the
  shmap merge, vmap with axis_name);
* reaches: three communicating kernels reached every way (helpers across
  modules, partial, static flags, decorator, factory, method, closure,
  custom_vjp backward, fori_loop, pl.when) in four contexts;
* modes: .lower(), .trace(), eval_shape and the explicit TPU lowering;
* claims: a plain collective before the kernel, interpret-mode idioms,
  the TPUCompilerParams era of collective_id, out_shape given as the input
  array (which carries shard_map's varying axes) in shard_map and smap.
"""

from . import contexts as C, kernels as K, reaches as R
from .program import Scenario

CORE_CONTEXTS = ("eager", "jit1", "jit8_in", "shmap_full", "pmap")
EXT_KERNELS = ("local", "copy_int", "copy_logical", "copy_dict", "ring_tuple", "axis_index_body",
               "signal_dict", "barrier_nocid", "core_only_ids", "core_device_ids")
REACH_KERNELS = ("ring_tuple", "copy_logical", "signal_dict")
REACH_CONTEXTS = ("eager", "jit8_in", "shmap_full", "pmap")
MODE_KERNELS = ("local", "ring_tuple", "copy_logical", "signal_dict")
MODE_CONTEXTS = ("eager", "jit1", "jit8_in", "shmap_full", "shmap_partial", "explicit", "pmap")
MODES = ("lower", "trace", "eval_shape", "lower_tpu")
CLAIM_REACHES = ("psum_before", "all_gather_before", "ppermute_before")
INTERPRET_REACHES = ("interpret_true", "interpret_on_cpu", "force_interpret")
ARRAY_OUT_CONTEXTS = ("eager", "jit8_in", "shmap_full", "shmap_vma", "shmap_partial", "smap1", "smap2")
SPECIAL_REACHES = set(CLAIM_REACHES) | set(INTERPRET_REACHES) | {"out_shape_array"}


def _profiles(kernel, context="eager"):
    if K.BY_NAME[kernel].modern_only or context in C.MODERN_ONLY:
        return ("modern",)
    return ("modern", "portable")


def kernels_slice():
    for k in K.KERNELS:
        for ctx in CORE_CONTEXTS:
            for api in _profiles(k.name):
                yield Scenario(k.name, context=ctx, api=api)


def contexts_slice():
    for k in EXT_KERNELS:
        for ctx in C.CONTEXTS:
            if ctx in CORE_CONTEXTS:
                continue
            for api in _profiles(k, ctx):
                yield Scenario(k, context=ctx, api=api)


def reaches_slice():
    for k in REACH_KERNELS:
        for reach in R.REACHES:
            if reach == "direct" or reach in SPECIAL_REACHES:
                continue
            for ctx in REACH_CONTEXTS:
                yield Scenario(k, reach=reach, context=ctx)
                if k != "signal_dict" and ctx == "pmap":  # the Replica era spells it this way
                    yield Scenario(k, reach=reach, context=ctx, api="portable")


def modes_slice():
    for k in MODE_KERNELS:
        for ctx in MODE_CONTEXTS:
            for mode in MODES:
                yield Scenario(k, context=ctx, mode=mode)
            if ctx not in C.MODERN_ONLY:
                yield Scenario(k, context=ctx, mode="lower_tpu", api="portable")


def claims_slice():
    for k in ("local", "ring_tuple"):
        for reach in CLAIM_REACHES:
            for ctx in ("eager", "jit1", "jit8_in", "shmap_full"):
                yield Scenario(k, reach=reach, context=ctx)
    for k in ("ring_tuple", "copy_logical"):
        for reach in INTERPRET_REACHES:
            for ctx in ("eager", "jit8_in", "pmap"):
                yield Scenario(k, reach=reach, context=ctx)
    for k in ("barrier_cid", "barrier_nocid", "cid_no_barrier"):
        for ctx in CORE_CONTEXTS:
            yield Scenario(k, context=ctx, api="mid")
    for k in ("local", "ring_tuple"):
        for ctx in ARRAY_OUT_CONTEXTS:
            yield Scenario(k, reach="out_shape_array", context=ctx)


def all_scenarios():
    seen, out = set(), []
    for slice_ in (kernels_slice, contexts_slice, reaches_slice, modes_slice, claims_slice):
        for s in slice_():
            if s.name not in seen:
                seen.add(s.name)
                out.append(s)
    return out
