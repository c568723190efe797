# The workspace's mesh: it writes "model" and "data", so PAL104's
# unwritten-name warning stays out of layers.py.
import jax

mesh = jax.make_mesh((2, 4), ("data", "model"))
