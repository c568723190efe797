# A script of its own: the option it sets lives in its own process only.
import jax

if hasattr(jax.config, "jax_pmap_shmap_merge"):  # the option is gone from 0.10.0
    jax.config.update("jax_pmap_shmap_merge", False)
