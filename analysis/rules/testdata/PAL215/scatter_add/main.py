import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

DNUMS = jax.lax.ScatterDimensionNumbers(
    update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)
)


def add_rows(x_ref, i_ref, o_ref):
    updates = jnp.ones((2, 128), jnp.float32)
    o_ref[...] = jax.lax.scatter_add(x_ref[...], i_ref[...], updates, DNUMS)  # want: PAL215 "scatter-add"


x = jnp.zeros((8, 128), jnp.float32)
idx = jnp.array([[1], [3]], jnp.int32)
y = pl.pallas_call(
    add_rows,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=0,
        grid=(1,),
        in_specs=[
            pl.BlockSpec(block_shape=(8, 128), index_map=lambda i: (0, 0)),
            pl.BlockSpec(block_shape=(2, 1), index_map=lambda i: (0, 0)),
        ],
        out_specs=pl.BlockSpec(block_shape=(8, 128), index_map=lambda i: (0, 0)),
    ),
)(x, idx)
