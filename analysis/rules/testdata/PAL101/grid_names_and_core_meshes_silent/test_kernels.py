import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import tpu_sc as plsc


class GridNamesTest:
    def test_grid_names(self):
        def kernel(x, y):
            y[:] = x[:] + jax.lax.axis_index("foo") + jax.lax.axis_index("bar")

        @jax.jit
        def f(x):
            return pl.pallas_call(
                kernel,
                grid_spec=pl.GridSpec(
                    grid=(("foo", 2), ("bar", 4)),
                    in_specs=[pl.BlockSpec((8, 128), lambda i, j: (i, j))],
                    out_specs=pl.BlockSpec((8, 128), lambda i, j: (i, j)),
                ),
                interpret=pltpu.InterpretParams(),
                out_shape=jax.ShapeDtypeStruct((16, 512), jnp.float32),
            )(x)

        f(jnp.zeros((16, 512)))

    def test_core_mesh_chosen_by_match(self, core_type):
        match core_type:
            case pltpu.CoreType.TC:
                mesh = pltpu.create_tensorcore_mesh("x")
            case _:
                mesh = plsc.ScalarSubcoreMesh(axis_name="x", num_cores=1)

        @jax.jit
        def f(x):
            @pl.kernel(out_type=jax.ShapeDtypeStruct((1, 128), jnp.int32), mesh=mesh)
            def kernel(x_ref, out_ref):
                idx = jax.lax.axis_index("x")
                pltpu.sync_copy(x_ref.at[0], out_ref.at[idx])

            return kernel(x)

        f(jnp.zeros((4, 128), jnp.int32))

    def test_mesh_from_parameter(self, mesh):
        @pl.kernel(out_type=jax.ShapeDtypeStruct((1, 128), jnp.int32), mesh=mesh)
        def kernel(x_ref, out_ref):
            pl.semaphore_signal(out_ref, 1, device_id={"core": 1 - jax.lax.axis_index("core")})

        kernel(jnp.zeros((4, 128), jnp.int32))
