import jax
from jax.experimental import pallas as pl
from jax.experimental.shard_map import shard_map  # want: PAL302 "deprecated"


def body(x):
    return x


def run(mesh, spec, k):
    shard_map(body, mesh, in_specs=spec, out_specs=spec, auto=frozenset({"y"}))  # want: PAL301 "auto=" PAL302 "shard_map"
    return pl.pallas_call(k, out_shape=spec, backend="mosaic_tpu")  # want: PAL301 "backend="
