import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.experimental import pallas as pl
from jax.sharding import Mesh, PartitionSpec as P


def add_one_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    return pl.pallas_call(add_one_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


def test_plain_struct_is_rejected():
    # The test wants the error: nothing to report.
    mesh = Mesh(np.array(jax.devices()).reshape(8), ("x",))
    f = jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x")))
    with pytest.raises(ValueError, match="check_vma=True"):
        f(jnp.ones((64, 128)))
