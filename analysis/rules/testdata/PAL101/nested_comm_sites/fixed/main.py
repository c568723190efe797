import dataclasses
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


@dataclasses.dataclass(frozen=True)
class Ring:
    axis: str

    def send(self, src, dst, sem, recv):
        me = jax.lax.axis_index(self.axis)
        pltpu.make_async_remote_copy(src, dst, sem, recv, device_id={self.axis: me + 1}).start()


def scoped_kernel(x_ref, o_ref):
    def body(sem, recv):
        def step(i, carry):
            Ring("x").send(x_ref, o_ref, sem, recv)
            return carry

        jax.lax.fori_loop(0, 4, step, 0)

    pl.run_scoped(body, pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA)


def pipelined_kernel(x_hbm, o_hbm, sem, recv):
    def inner(x_ref, o_ref):
        pl.semaphore_signal(sem, 1, device_id={"y": 0})

    pltpu.emit_pipeline(inner, grid=(4,), in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
                        out_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))])(x_hbm, o_hbm)


def run(x):
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    a = jax.shard_map(pl.pallas_call(scoped_kernel, out_shape=x), mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(x)  # want: PAL101 "`scoped_kernel`.*unbound axis name: x"
    mesh = jax.make_mesh((jax.device_count(),), ("y",))
    return jax.shard_map(pl.pallas_call(pipelined_kernel, out_shape=x,  # want: PAL101 "`pipelined_kernel`"
                          scratch_shapes=[pltpu.SemaphoreType.REGULAR] * 2), mesh=mesh, in_specs=P("y"), out_specs=P("y"), check_vma=False)(a)


run(jnp.ones((8, 128)))
