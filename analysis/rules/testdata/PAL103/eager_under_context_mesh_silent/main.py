# Look-alikes of eager_under_context_mesh that JAX runs: the eager call
# under a one-device context mesh, under a bare `with mesh:` (which only
# sets the resource environment), and past a guard that returns when
# there is more than one device, where jax.devices() is one device.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def copy_kernel(x_ref, y_ref):
    y_ref[...] = x_ref[...]


def copy(x):
    return pl.pallas_call(copy_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          compiler_params=pltpu.CompilerParams())(x)


def single_device_only(x):
    if jax.device_count() > 1:
        return None
    replicated = NamedSharding(Mesh(jax.devices(), ("x",)), P())
    return jax.jit(copy, out_shardings=replicated)(x)


x = jnp.zeros((128, 128), jnp.float32)
with jax.set_mesh(jax.make_mesh((1,), ("x",))):
    jax.block_until_ready(copy(x))
with Mesh(jax.devices(), ("x",)):
    jax.block_until_ready(copy(x))
jax.block_until_ready(single_device_only(x))
