"""Every file of this workspace is in one package, pkg/: its tests import
it by its own name, as pytest (which puts the directory above pkg/ on
sys.path) and an installed package do."""
import jax
import jax.numpy as jnp

from pkg import kernels


def test_ring_under_jit():
    jax.jit(kernels.ring)(jnp.ones((8, 128)))
