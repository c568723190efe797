"""Training entry point of the example project."""

import functools

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

from kernels import add_one, ring_all_reduce


def train_step(grads):
    # Wrong: the all-reduce runs under jit, but nothing makes the "x" axis
    # manual, so JAX cannot bind the kernel's axis_index.
    return ring_all_reduce(grads)


def sharded_step(grads, mesh):
    # Right: shard_map makes every mesh axis manual around the kernel.
    body = functools.partial(ring_all_reduce, axis_name="x")
    return jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(grads)


def partly_manual(grads, mesh2d):
    # Wrong: only "data" is manual; Mosaic kernels need every axis manual.
    return jax.shard_map(add_one, mesh=mesh2d, in_specs=P("data"), out_specs=P("data"),
                         axis_names={"data"})(grads)


if __name__ == "__main__":
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    mesh2d = jax.make_mesh((2, jax.device_count() // 2), ("data", "model"))
    grads = jnp.ones((jax.device_count() * 8, 128))

    jax.jit(train_step)(grads)
    jax.jit(sharded_step, static_argnums=1)(grads, mesh)
    partly_manual(grads, mesh2d)

    # Wrong: a local kernel, but the jit spans every device.
    step = jax.jit(add_one, in_shardings=NamedSharding(mesh, P("x")))
    step(grads)
