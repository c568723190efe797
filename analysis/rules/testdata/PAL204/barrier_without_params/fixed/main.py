import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def sync_with_right(i):
    barrier = pltpu.get_barrier_semaphore()
    right = (i + 1) % jax.lax.axis_size("x")
    pl.semaphore_signal(barrier, 1, device_id=(right,))
    pl.semaphore_wait(barrier, 1)


def kernel(x_ref, o_ref):
    i = jax.lax.axis_index("x")

    # Traced even if it never runs: the barrier is in the Mosaic module.
    @pl.when(i > 100)
    def _():
        sync_with_right(i)

    o_ref[...] = x_ref[...]


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), compiler_params=pltpu.CompilerParams(collective_id=0))(x)  # want: PAL204 "uses the barrier semaphore \(line \d+\)"


mesh = Mesh(np.array(jax.devices()), ("x",))
out = jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(jnp.ones((64, 128)))
jax.block_until_ready(out)
