from jax.experimental import pallas as pl

from kernels import SEMS, X, ring_kernel
import jax
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("x",))
outs = [jax.shard_map(pl.pallas_call(k, out_shape=X, scratch_shapes=SEMS), mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(X) for k in (ring_kernel,)]  # want: PAL101 "lax.axis_index.*outside a fully manual"
