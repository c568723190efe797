import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def kernel(x_ref, o_ref, sem):
    me = jax.lax.axis_index("y")

    @pl.when(me == 0)
    def _():
        @pl.loop(0, 4)
        def _(i):
            pl.semaphore_signal(sem, 1, device_id={"y": i})


def run(x):
    mesh = jax.make_mesh((jax.device_count(),), ("y",))
    return jax.shard_map(pl.pallas_call(kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.REGULAR]), mesh=mesh, in_specs=P("y"), out_specs=P("y"), check_vma=False)(x)  # want: PAL101 "unbound axis name: y"


run(jnp.ones((8, 128)))
