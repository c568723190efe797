import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def kernel(x_ref, o_ref, sem):
    pl.semaphore_signal(sem, 1, device_id={"data": 0, "model": 1})


def f(x):
    return jax.shard_map(pl.pallas_call(kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.REGULAR]), mesh=None, in_specs=P(("data", "model")), out_specs=P(("data", "model")), check_vma=False)(x)  # want: PAL101 "kernel"


f(jnp.ones((8, 128)))
