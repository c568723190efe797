# pl.kernel with its body given by keyword, and in the MPMD form (one body
# per mesh): the kernel communicates if any body does.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import tpu_sc as plsc


def vector_body(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def scalar_body(x_ref, o_ref, send_sem, recv_sem):
    peer = 1 - jax.lax.axis_index("x")
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": peer})
    copy.start()
    copy.wait()


def exchange(x):
    meshes = [
        plsc.VectorSubcoreMesh(core_axis_name="core", subcore_axis_name="subcore", num_cores=2),
        plsc.ScalarSubcoreMesh(axis_name="core", num_cores=2),
    ]
    return pl.kernel(  # want: PAL101 "communicating kernel `\[vector_body, scalar_body\]`"
        body=[vector_body, scalar_body],
        mesh=meshes,
        out_type=jax.ShapeDtypeStruct(x.shape, x.dtype),
        scratch_types=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA],
    )(x)


def ring(x):
    return pl.kernel(  # want: PAL101 "communicating kernel `scalar_body`"
        body=scalar_body,
        mesh=plsc.ScalarSubcoreMesh(axis_name="core", num_cores=2),
        out_type=jax.ShapeDtypeStruct(x.shape, x.dtype),
        scratch_types=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA],
    )(x)


@jax.jit
def step(x):
    return exchange(x) + ring(x)


if __name__ == "__main__":
    step(jnp.ones((8, 128)))
