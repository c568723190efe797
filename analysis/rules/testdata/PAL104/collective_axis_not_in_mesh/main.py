# A reference computation shard_mapped over a mesh with one axis, "i",
# whose helper gathers over "j" (a renamed axis, written nowhere else):
# the mesh has no such axis, so tracing the body fails on the all_gather.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl  # noqa: F401
from jax.sharding import Mesh, PartitionSpec as P

AXIS = "i"


def reference(x):
    return lax.all_gather(x, axis_name="j", tiled=True)  # want: PAL104 "`lax.all_gather` names axis `j`, inside a shard_map whose mesh has no such axis \(mesh axes: i\).*NameError: unbound axis name: j"


def run(mesh, expected_fn, shapes):
    for shape in shapes:
        @jax.jit
        @jax.shard_map(mesh=mesh, in_specs=(P(AXIS),), out_specs=P(AXIS), check_vma=False)
        def compute(x):
            return expected_fn(x)

        jax.block_until_ready(compute(jnp.ones((shape[0] * len(jax.devices()), shape[1]))))


def main():
    mesh = Mesh(np.array(jax.devices()), (AXIS,))
    run(mesh, reference, ((8, 128),))


if __name__ == "__main__":
    main()
