# The same keyword routes under a fully manual shard_map: nothing to report.
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.sharding import Mesh, PartitionSpec as P

from kernels import SEMS, cfg_kernel, trampoline

OPTS = {"axis": "x"}


def ring(x, **opts):
    kernel = functools.partial(trampoline, **opts)
    return pl.pallas_call(kernel, out_shape=x, scratch_shapes=SEMS)(x)


def ring_cfg(x):
    kernel = functools.partial(cfg_kernel, cfg=dict(OPTS))
    return pl.pallas_call(kernel, out_shape=x, scratch_shapes=SEMS)(x)


mesh = Mesh(jax.devices(), ("x",))
smap = functools.partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)
jax.jit(smap(functools.partial(ring, **OPTS)))(jnp.ones((8 * jax.device_count(), 128)))
jax.jit(smap(ring_cfg))(jnp.ones((8 * jax.device_count(), 128)))
