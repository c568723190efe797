import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref, sem):
    pl.semaphore_signal(sem, 1, device_id={"core": 1 - lax.axis_index("core")})
    pl.semaphore_wait(sem, 1)
    pltpu.sync_copy(x_ref, o_ref)


def step(x):
    mesh = pltpu.TensorCoreMesh("core", num_cores=2)  # want: PAL302 "create_tensorcore_mesh. is deprecated"
    return pl.kernel(kernel, out_type=jax.ShapeDtypeStruct(x.shape, x.dtype), mesh=mesh, scratch_types=[pltpu.SemaphoreType.REGULAR])(x)


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def local(x):
    return pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), compiler_params=pltpu.CompilerParams())(x)


xs = jnp.ones((8, 8, 128), jnp.float32)
# A core-mesh kernel not under vmap.
jax.block_until_ready(jax.jit(step)(xs[0]))
# pallas_call has a batching rule: vmap adds a grid dimension.
jax.block_until_ready(jax.jit(jax.vmap(local))(xs))
# A batch of one: from 0.10 it is squeezed, not batched.
jax.block_until_ready(jax.jit(jax.vmap(step))(jnp.ones((1, 8, 128), jnp.float32)))
# An unknown batch size is not judged from 0.10 (a batch of one would run).
jax.block_until_ready(jax.jit(jax.vmap(step))(xs[:1]))
# vmap of a Python loop over the core-mesh kernel is no vmap of it.
jax.block_until_ready(jnp.stack([step(x) for x in xs]))
