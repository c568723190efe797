# Each construct holds the call where it never runs.
from jax.experimental import pallas as pl

from kernels import SEMS, X, ring_kernel


def ring(x):
    return pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=SEMS)(x)  # want: info PAL101 "callers must run this inside jax.shard_map.*library function ring"


assert True or ring(X)
outs = [ring(x) for x in ()]
for x in ():
    ring(x)
never = lambda x: ring(x)
if False:
    ring(X)
