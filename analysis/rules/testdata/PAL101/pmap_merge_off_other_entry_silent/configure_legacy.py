# A script of its own: the option it sets lives in its own process only.
import jax

jax.config.update("jax_pmap_shmap_merge", False)
