"""Lets Pallas see a TPU chip where it asks the device for one.

Pallas asks the default device for its kind and core count: tpu_info
(block-shape rules for rank 1 since 0.9.2, SparseCore and memory limits),
TensorCoreMesh's default num_cores, pipelining helpers. A CPU device says
"cpu" and has no num_cores, which a TPU never does, so the oracle would
record "Unsupported TPU device kind: cpu" or a bare AttributeError where a
user on a TPU host gets on with the lowering.

The device class answers `device_kind` with EMULATED_KIND and `num_cores`
with EMULATED_CORES, but only to code of Pallas itself (jax/_src/pallas,
jax/experimental/pallas, jax/_src/tpu_info.py): everything else, jax.
make_mesh's device-mesh builder above all, still sees the CPU device.
Inside shard_map and other mesh contexts Pallas asks the context's
AbstractDevice instead, which JAX builds from the CPU device ("cpu", no
cores): tpu_info's get_device_kind / get_num_device_cores and TensorCore
meshes' default core count map those answers to the emulated chip too.
"""

import os
import sys

from . import hooks

EMULATED_KIND = "TPU v6 lite"  # a TPU v6e (Trillium) chip: one TensorCore, SparseCores
EMULATED_CORES = 1

_PALLAS_DIRS = (
    os.path.join("jax", "_src", "pallas", ""),
    os.path.join("jax", "experimental", "pallas", ""),
    os.path.join("jax", "_src", "tpu_info.py"),
)


def install():
    from jax._src.lib import xla_client  # the device class, without creating a backend
    device_class = xla_client.Device
    real_kind = device_class.device_kind

    def device_kind(self):
        kind = real_kind.__get__(self)
        if kind == "cpu" and _asked_by_pallas():
            return EMULATED_KIND
        return kind

    def num_cores(self):
        if _asked_by_pallas():
            return EMULATED_CORES
        raise AttributeError("num_cores")

    device_class.device_kind = property(device_kind)
    if not hasattr(device_class, "num_cores"):
        device_class.num_cores = property(num_cores)
    for module in ("jax._src.tpu_info", "jax._src.pallas.mosaic.tpu_info"):
        hooks.after_import(module, _patch_tpu_info)
    hooks.after_import("jax._src.pallas.mosaic.core", _patch_default_cores)


def _emulated(fn, fallback, bad):
    def wrapper(*args, **kwargs):
        try:
            got = fn(*args, **kwargs)
        except AttributeError:
            return fallback
        return fallback if got in bad else got

    wrapper.__wrapped__ = fn
    return wrapper


def _patch_tpu_info(module):
    if hasattr(module, "get_device_kind"):
        module.get_device_kind = _emulated(module.get_device_kind, EMULATED_KIND, ("cpu",))
    if hasattr(module, "get_num_device_cores"):
        module.get_num_device_cores = _emulated(module.get_num_device_cores, EMULATED_CORES, (None,))


def _patch_default_cores(module):
    if hasattr(module, "_get_default_num_cores"):
        module._get_default_num_cores = _emulated(module._get_default_num_cores, EMULATED_CORES, (None,))


def _asked_by_pallas():
    caller = sys._getframe(2).f_code.co_filename
    return any(d in caller for d in _PALLAS_DIRS)
