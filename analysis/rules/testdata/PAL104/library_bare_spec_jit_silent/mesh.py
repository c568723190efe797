# The workspace's mesh: it writes "data" and "model".
import jax

mesh = jax.make_mesh((2, 4), ("data", "model"))
