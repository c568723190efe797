import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

HBM = getattr(pltpu, "HBM", None)  # pltpu.HBM since 0.6.2; None is the default space


def copy_half(x_hbm, o_ref, buf, sem):
    cp = pltpu.make_async_copy(x_hbm, buf, sem)
    cp.start()
    cp.wait()
    o_ref[...] = buf[...]


# A block in HBM is windowed like one in ANY: the whole array or nothing
# (checked since JAX 0.7).
x = jnp.ones((256, 512), jnp.float32)
y = pl.pallas_call(
    copy_half,
    out_shape=jax.ShapeDtypeStruct((256, 512), jnp.float32),
    grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=0,
        grid=(2,),
        in_specs=[pl.BlockSpec(block_shape=(128, 512), index_map=lambda i: (i, 0), memory_space=HBM)],  # want: PAL211 "in memory space HBM is not the whole array"
        out_specs=pl.BlockSpec(block_shape=(128, 512), index_map=lambda i: (i, 0)),
        scratch_shapes=[pltpu.VMEM((128, 512), jnp.float32), pltpu.SemaphoreType.DMA(())],
    ),
)(x)
