"""Forces TPU lowering of every computation that holds a Pallas kernel and
simulates its execution.

JAX picks the lowering platform from the devices of a computation:
`lowering_platforms or (backend.platform,)` in pxla's lower_sharding_computation
(jit, eager dispatch, shard_map) and lower_parallel_callable (pmap, before
pmap became jit+shard_map in 0.8). Both take a `lowering_platforms`
argument, the one `jit(f).trace(x).lower(lowering_platforms=('tpu',))`
passes. The oracle wraps both: when the caller left the platforms unset and
the jaxpr holds a Pallas primitive, it passes ('tpu',), exactly as that
explicit call would. The 8 CPU devices stay the device assignment, so
shardings, meshes and shard_map contexts are the real ones.

A TPU module cannot be compiled on a CPU host, so compile() of such a
computation returns a SimulatedExecutable whose outputs are zeros of the
output types, on the output shardings: the program goes on as if the
kernel had run. Computations without Pallas lower and run on CPU as usual.
"""

import dataclasses
import inspect

import jax
import numpy as np
from jax._src.interpreters import pxla

from . import layers

# Primitives whose lowering is Pallas/Mosaic: the kernel entry points of
# every version (pallas_call; core_map for pl.kernel/pl.core_map; mpmd_map
# for multi-mesh pl.kernel).
PALLAS_PRIMITIVES = frozenset({"pallas_call", "core_map", "mpmd_map"})



def install():
    pxla.lower_sharding_computation = _forcing(pxla.lower_sharding_computation)
    if hasattr(pxla, "lower_parallel_callable"):
        pxla.lower_parallel_callable = _forcing(pxla.lower_parallel_callable)
    for name in ("MeshComputation", "PmapComputation"):
        cls = getattr(pxla, name, None)
        if cls is not None:
            cls.compile = _simulating(cls.compile)


def _forcing(lower):
    params = inspect.signature(lower).parameters
    by_platforms = "lowering_platforms" in params

    def wrapper(*args, **kwargs):
        force = _unset(kwargs, by_platforms) and _has_pallas(_jaxpr_of(args, kwargs))
        if force:
            _force(kwargs, by_platforms)
        try:
            computation = lower(*args, **kwargs)
        except BaseException as e:
            layers.mark_lowering(e)
            raise
        if force:
            computation._oracle_simulated = True
        return computation

    wrapper.__wrapped__ = lower
    return wrapper


def _unset(kwargs, by_platforms):
    if by_platforms:
        return kwargs.get("lowering_platforms") is None
    lp = kwargs.get("lowering_parameters")
    return lp is None or getattr(lp, "platforms", None) is None


def _force(kwargs, by_platforms):
    if by_platforms:
        kwargs["lowering_platforms"] = ("tpu",)
    else:  # 0.4.29: platforms live in mlir.LoweringParameters
        from jax._src.interpreters import mlir
        lp = kwargs.get("lowering_parameters") or mlir.LoweringParameters()
        kwargs["lowering_parameters"] = dataclasses.replace(lp, platforms=("tpu",))


def _jaxpr_of(args, kwargs):
    for value in (kwargs.get("closed_jaxpr"), *args, *kwargs.values()):
        if hasattr(value, "eqns") or hasattr(getattr(value, "jaxpr", None), "eqns"):
            return value
    return None


def _has_pallas(jaxpr, seen=None):
    if jaxpr is None:
        return False
    jaxpr = jaxpr.jaxpr if hasattr(jaxpr, "jaxpr") and not hasattr(jaxpr, "eqns") else jaxpr
    seen = set() if seen is None else seen
    if id(jaxpr) in seen:
        return False
    seen.add(id(jaxpr))
    for eqn in jaxpr.eqns:
        if eqn.primitive.name in PALLAS_PRIMITIVES:
            return True
        if any(_has_pallas(sub, seen) for sub in _subjaxprs(eqn.params.values())):
            return True
    return False


def _subjaxprs(values):
    for v in values:
        if hasattr(v, "eqns") or hasattr(getattr(v, "jaxpr", None), "eqns"):
            yield v
        elif isinstance(v, (tuple, list)):
            yield from _subjaxprs(v)


def _simulating(compile_):
    def compile(self, *args, **kwargs):
        if getattr(self, "_oracle_simulated", False):
            return SimulatedExecutable(self)
        try:
            return compile_(self, *args, **kwargs)
        except BaseException as e:
            layers.mark_compile(e)
            raise

    compile.__wrapped__ = compile_
    return compile


class SimulatedExecutable:
    """Stands for the executable of a TPU computation: calling it returns
    zeros of the output types. Not a MeshExecutable, so JAX's C++ fast path
    never caches it and every call comes back through Python."""

    def __init__(self, computation):
        self._computation = computation
        args = getattr(computation, "compile_args", {})
        self._out_avals = list(args.get("global_out_avals") or _pmap_out_avals(args))
        self._out_shardings = list(args.get("out_shardings") or [None] * len(self._out_avals))
        self._devices = _devices_of(computation, args)
        self._auto_spmd_lowering = False
        self.in_avals = args.get("global_in_avals")
        self.out_avals = self._out_avals

    def unsafe_call(self, *args):
        return [_zeros(a, s, self._devices) for a, s in zip(self._out_avals, self._out_shardings)]

    __call__ = unsafe_call
    call = unsafe_call

    def shard_const_args(self, const_args):
        return list(const_args)

    def create_cpp_call(self, *args, **kwargs):
        return None

    def runtime_executable(self):
        return None

    fingerprint = None


def _pmap_out_avals(args):
    """pmap's outputs: the per-device avals with the mapped axis put back."""
    shards, pci = args.get("shards"), args.get("pci")
    if shards is None or pci is None:
        return []
    out = []
    for aval, axis in zip(shards.out_sharded_avals, pci.out_axes_thunk()):
        shape = tuple(aval.shape)
        if axis is not None:
            shape = shape[:axis] + (pci.global_axis_size,) + shape[axis:]
        out.append(jax.ShapeDtypeStruct(shape, aval.dtype))
    return out


def _devices_of(computation, args):
    for source in (getattr(computation, "_device_list", None), args.get("device_assignment"),
                   args.get("devices")):
        source = getattr(source, "device_assignment", source)
        if source is not None:
            try:
                return list(source)
            except TypeError:
                continue
    return [jax.devices()[0]]


def _zeros(aval, sharding, devices):
    shape = getattr(aval, "shape", ())
    value = np.zeros(shape, dtype=np.dtype(aval.dtype))
    if not isinstance(sharding, jax.sharding.Sharding):
        sharding = _replicated(devices)
    try:
        return jax.device_put(value, sharding)
    except Exception:
        return jax.device_put(value, _replicated(devices))


def _replicated(devices):
    if len(devices) == 1:
        return jax.sharding.SingleDeviceSharding(devices[0])
    mesh = jax.sharding.Mesh(np.array(devices), ("_oracle",))
    return jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec())
