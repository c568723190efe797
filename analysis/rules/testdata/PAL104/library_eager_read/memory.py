# A library helper whose shard_map decorator was removed: it reduces over
# every device and reads the result as a Python number. Nothing in the
# workspace calls it, but `.item()` needs a concrete value, which no
# trace gives (under jit or inside a shard_map it raises
# ConcretizationTypeError), so it can only run eagerly, and eagerly no
# shard_map binds "device". The oracle's driver (_oracle/free_memory.py)
# calls it as a caller outside the workspace would: NameError at the
# pmin, as predicted, 0.8 to 0.12. (The module names a NamedSharding and
# a collective, so its functions run as library entries.)
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec


def min_free_memory(local_free):
    mesh = jax.make_mesh((jax.device_count(),), ("device",))

    def _min_over_devices(a):
        return jax.lax.pmin(a, axis_name="device")  # want: warning PAL104 "`lax.pmin` names axis `device`, and `global_min.item\(\)` reads the result as a Python value at memory.py:\d+, which no trace gives \(under jit or a shard_map that read raises ConcretizationTypeError\), so this runs eagerly, where no shard_map binds the axis \(library function min_free_memory\); with JAX 0.11 this fails: NameError: Found an unbound axis name: device. To fix this, please call psum under `jax.shard_map`."

    avail = jnp.array([local_free], dtype=jnp.float32)
    global_min = _min_over_devices(avail)[0]
    return global_min.item()


def replicated(mesh):
    return jax.sharding.NamedSharding(mesh, PartitionSpec())
