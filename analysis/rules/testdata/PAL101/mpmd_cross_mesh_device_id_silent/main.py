# An MPMD pair of kernels, as JAX's own MPMD tests write them: a
# scalar-subcore kernel copies into VMEM that lives on a TensorCore mesh
# (its out_type is placed there with `@ tc_mesh`), and its device id
# {"tc": 0} names that mesh's axis: a core of the same chip, not another
# device, so no shard_map is needed: with one subcore mesh (g), and with
# one chosen at run time between two spellings (f), which must not make
# "tc" a device axis either.
import os

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import tpu_sc as plsc

if os.environ.get("NAMED_SUBCORE"):
    mesh = plsc.ScalarSubcoreMesh(axis_name="subcore", num_cores=1)
else:
    mesh = plsc.ScalarSubcoreMesh(axis_name="core", num_cores=1)
tc_mesh = pltpu.TensorCoreMesh(axis_name="tc", num_cores=1)


def scalar_subcore_fn(x_ref, out_tc_vmem_ref, tc_sem, sem):
    pltpu.async_remote_copy(x_ref, out_tc_vmem_ref, sem, tc_sem, device_id={"tc": 0}).wait_send()


def tc_fn(x_ref, out_tc_vmem_ref, tc_sem):
    pltpu.make_async_copy(x_ref, out_tc_vmem_ref, tc_sem).wait()
    out_tc_vmem_ref[...] += 1


def copy_to_tc(x, mesh):
    x_ref = jax.new_ref(x)
    out, sem = pl.kernel(
        mesh=mesh,
        out_type=(pltpu.VMEM(x.shape, x.dtype) @ tc_mesh, pltpu.SemaphoreType.DMA(()) @ tc_mesh),
        scratch_types=[pltpu.SemaphoreType.DMA(())],
    )(scalar_subcore_fn)(x_ref)
    out_ref = jax.new_ref(out, memory_space=pltpu.VMEM @ tc_mesh)
    sem_ref = jax.new_ref(sem, memory_space=pltpu.SEMAPHORE @ tc_mesh)
    pl.kernel(mesh=tc_mesh)(tc_fn)(x_ref, out_ref, sem_ref)
    return out_ref[...]


sc_mesh = plsc.ScalarSubcoreMesh(axis_name="core", num_cores=1)


@jax.jit
def g(x):
    x_ref = jax.new_ref(x)
    out, _ = pl.kernel(
        mesh=sc_mesh,
        out_type=(pltpu.VMEM(x.shape, x.dtype) @ tc_mesh, pltpu.SemaphoreType.DMA(()) @ tc_mesh),
        scratch_types=[pltpu.SemaphoreType.DMA(())],
    )(scalar_subcore_fn)(x_ref)
    return out


f = jax.jit(lambda x: copy_to_tc(x, mesh))
jax.block_until_ready(f(jnp.ones((8, 128), jnp.int32)))
jax.block_until_ready(g(jnp.ones((8, 128), jnp.int32)))
