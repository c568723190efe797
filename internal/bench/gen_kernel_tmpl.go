package main

// Templates of Pallas TPU code: kernels, launchers, JAX helpers.

const kernelHeader = `
"""Pallas TPU kernels: $what."""

import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

_BLOCK_ROWS = $rows
_BLOCK_COLS = 128
`

// ringFlagTmpl is a ring kernel whose communication a static flag,
// bound with functools.partial, switches off.
const ringFlagTmpl = `
def _ring_kernel_$k(x_ref, o_ref, buf_ref, send_sem, recv_sem, *, axis_name, remote, steps):
    o_ref[...] = x_ref[...]
    if not remote:
        return
    my_id = lax.axis_index(axis_name)
    num_devices = lax.axis_size(axis_name)
    right = lax.rem(my_id + 1, num_devices)

    def step(i, carry):
        copy = pltpu.make_async_remote_copy(
            src_ref=o_ref,
            dst_ref=buf_ref,
            send_sem=send_sem,
            recv_sem=recv_sem,
            device_id={axis_name: right},
        )
        copy.start()
        copy.wait()
        o_ref[...] = o_ref[...] + buf_ref[...]
        return carry + 1

    lax.fori_loop(0, steps, step, 0)

    @pl.when(my_id == 0)
    def _():
        o_ref[...] = o_ref[...] * $scale


def $ring(x, *, axis_name="x", remote=True, steps=$steps):
    kernel = functools.partial(_ring_kernel_$k, axis_name=axis_name, remote=remote, steps=steps)
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
        out_specs=pl.BlockSpec(memory_space=pl.ANY),
        scratch_shapes=[
            pltpu.VMEM(x.shape, x.dtype),
            pltpu.SemaphoreType.DMA,
            pltpu.SemaphoreType.DMA,
        ],
        compiler_params=pltpu.CompilerParams(collective_id=$cid),
    )(x)
`

// ringLiteralTmpl always communicates on mesh axis "x".
const ringLiteralTmpl = `
def _gather_kernel_$k(x_ref, o_ref, send_sem, recv_sem):
    me = lax.axis_index("x")
    n = lax.axis_size("x")

    def body(j, carry):
        peer = lax.rem(me + j + 1, n)
        copy = pltpu.make_async_remote_copy(
            x_ref, o_ref.at[me], send_sem, recv_sem, device_id={"x": peer}
        )
        copy.start()
        copy.wait()
        return carry + 1

    lax.fori_loop(0, $steps, body, 0)


def $ring(x):
    return pl.pallas_call(
        _gather_kernel_$k,
        out_shape=jax.ShapeDtypeStruct((8,) + x.shape, x.dtype),
        in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
        out_specs=pl.BlockSpec(memory_space=pl.ANY),
        scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA],
    )(x)
`

// localTmpl is a gridded kernel that never leaves the chip.
const localTmpl = `
def _local_kernel_$k(x_ref, y_ref, o_ref, *, scale):
    row = pl.program_id(0)

    def body(j, acc):
        return acc + x_ref[j, :] * y_ref[j, :]

    acc = lax.fori_loop(0, x_ref.shape[0], body, jnp.zeros((x_ref.shape[1],), jnp.float32))
    o_ref[...] = jnp.broadcast_to(acc * scale, o_ref.shape).astype(o_ref.dtype)

    @pl.when(row == 0)
    def _():
        o_ref[0, :] = o_ref[0, :] + 1.0


def $local(x, y, *, scale=$scale):
    grid = (x.shape[0] // _BLOCK_ROWS,)
    return pl.pallas_call(
        functools.partial(_local_kernel_$k, scale=scale),
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=grid,
        in_specs=[
            pl.BlockSpec((_BLOCK_ROWS, _BLOCK_COLS), lambda r: (r, 0)),
            pl.BlockSpec((_BLOCK_ROWS, _BLOCK_COLS), lambda r: (r, 0)),
        ],
        out_specs=pl.BlockSpec((_BLOCK_ROWS, _BLOCK_COLS), lambda r: (r, 0)),
    )(x, y)


def $ref(x, y, scale=$scale):
    acc = jnp.sum(x.reshape(-1, _BLOCK_ROWS, x.shape[-1]) * y.reshape(-1, _BLOCK_ROWS, y.shape[-1]), axis=1)
    return jnp.repeat(acc * scale, _BLOCK_ROWS, axis=0)
`

// jaxHelperTmpls are JAX (not Pallas) helpers that pad JAX modules.
var jaxHelperTmpls = []string{`
def $fn(x, axis=-1, eps=1e-6):
    mean = jnp.mean(x, axis=axis, keepdims=True)
    var = jnp.var(x, axis=axis, keepdims=True)
    return (x - mean) * lax.rsqrt(var + eps)
`, `
def $fn(shape, block=($n, 128)):
    rows, cols = shape[-2], shape[-1]
    if rows % block[0] or cols % block[1]:
        raise ValueError(f"shape {shape} is not a multiple of block {block}")
    return rows // block[0], cols // block[1]
`, `
def $fn(x, k=$n):
    scores = jnp.abs(x).sum(axis=-1)
    top = lax.top_k(scores, k)[1]
    mask = jnp.zeros(scores.shape, jnp.bool_).at[top].set(True)
    return jnp.where(mask[:, None], x, 0.0)
`, `
def _scale_kernel_$n(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0 + jnp.float32($n)


def $fn(x):
    return pl.pallas_call(
        _scale_kernel_$n,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // _BLOCK_ROWS,),
        in_specs=[pl.BlockSpec((_BLOCK_ROWS, _BLOCK_COLS), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((_BLOCK_ROWS, _BLOCK_COLS), lambda i: (i, 0)),
    )(x)
`, `
def $fn(params, grads, lr=1e-3, clip=$n.0):
    norm = jnp.sqrt(sum(jnp.sum(g * g) for g in jax.tree_util.tree_leaves(grads)))
    factor = jnp.minimum(1.0, clip / (norm + 1e-6))
    return jax.tree_util.tree_map(lambda p, g: p - lr * factor * g, params, grads)
`}
