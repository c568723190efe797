# An eager ppermute on concrete values: the primitive has no eager rule, so
# JAX fails with NotImplementedError before it looks at the axis name.
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)

X = jnp.ones((8,), jnp.float32)
Y = lax.ppermute(X, "x", perm=[(0, 1)])  # want: PAL104 "NotImplementedError: Evaluation rule for 'ppermute' not implemented"
