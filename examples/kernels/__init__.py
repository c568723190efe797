"""Kernels of the example project."""

from .local import add_one
from .ring import ring_all_reduce

__all__ = ["add_one", "ring_all_reduce"]
