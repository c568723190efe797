# The project has Triton kernels too: an unmarked kernel may run on GPU,
# where XLA replicates it and nothing fails (jax-errors.md section 9.5).
try:
    from jax.experimental.pallas import triton as pltriton
except ImportError:  # before JAX 0.4.31 Triton was jax.experimental.pallas.gpu
    from jax.experimental.pallas import gpu as pltriton

TRITON = pltriton
