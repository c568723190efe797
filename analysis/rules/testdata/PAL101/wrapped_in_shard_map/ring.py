import jax
import numpy as np
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    my_id = jax.lax.axis_index("x")
    n = jax.lax.axis_size("x")
    copy = pltpu.make_async_remote_copy(
        x_ref, o_ref, send_sem, recv_sem, device_id={"x": (my_id + 1) % n}
    )
    copy.start()
    copy.wait()


def ring(x):
    return pl.pallas_call(
        ring_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA],
    )(x)


if __name__ == "__main__":
    mesh = Mesh(np.array(jax.devices()), ("x",))
    f = jax.jit(jax.shard_map(ring, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))
    print(f(jnp.ones((8, 128))))
