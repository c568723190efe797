import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

ANY = getattr(pl, "ANY", None) or getattr(pltpu, "ANY")  # pl.ANY since 0.4.31, pltpu.ANY until 0.9


def copy_any(x_hbm, o_ref, buf, sem):
    cp = pltpu.make_async_copy(x_hbm, buf, sem)
    cp.start()
    cp.wait()
    o_ref[...] = buf[...]


def any_space(x):
    # pl.ANY: no block, the kernel copies by hand.
    return pl.pallas_call(
        copy_any,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            in_specs=[pl.BlockSpec(memory_space=ANY)],
            out_specs=pl.BlockSpec(block_shape=x.shape, index_map=lambda: (0, 0)),
            scratch_shapes=[pltpu.VMEM(x.shape, x.dtype), pltpu.SemaphoreType.DMA(())],
        ),
    )(x)


any_space(jnp.ones((10, 130), jnp.float32))
