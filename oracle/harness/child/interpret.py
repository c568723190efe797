"""Keeps Pallas out of interpret mode, whatever the program asks.

Programs meant for CPU often pass `interpret=True`, `interpret=pltpu.
InterpretParams()` or `interpret=jax.default_backend() == "cpu"`, or run
under `pltpu.force_tpu_interpret_mode()`. On the oracle host those would
all be truthy and the oracle would silently test interpret mode. So the
kernel entry points of jax.experimental.pallas get `interpret=False`, and
the interpret-mode switches of jax.experimental.pallas.tpu do nothing.

The patches are applied when the program itself imports those modules (a
post-import hook), so imports happen in the program's order, as they would
without the oracle (registration of compiler params is lazy in some
versions and depends on what was imported). A case with keep_interpret
runs with ENABLED false: then nothing changes.
"""

import contextlib
import functools
import sys

from . import hooks

ENTRY_POINTS = ("pallas_call", "kernel", "core_map", "mpmd_map")

# False for a case that keeps the interpret mode it asks for (its
# keep_interpret setting); set by run.py before the program runs.
ENABLED = True
INTERPRET_SWITCHES = ("force_tpu_interpret_mode", "set_tpu_interpret_mode")


def install():
    hooks.after_import("jax.experimental.pallas", _patch_pallas)
    hooks.after_import("jax.experimental.pallas.tpu", _patch_tpu)


def _not_interpreted(fn):
    if getattr(fn, "_oracle_interpret_off", False):
        return fn

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if ENABLED and "interpret" in kwargs:
            kwargs["interpret"] = False
        return fn(*args, **kwargs)

    wrapper._oracle_interpret_off = True
    return wrapper


def _patch_pallas(module):
    for name in ENTRY_POINTS:
        fn = getattr(module, name, None)
        if callable(fn):
            wrapped = _not_interpreted(fn)
            setattr(module, name, wrapped)
            home = sys.modules.get(getattr(fn, "__module__", ""), None)
            if home is not None and getattr(home, name, None) is fn:
                setattr(home, name, wrapped)


@contextlib.contextmanager
def _no_interpret_mode(*args, **kwargs):
    yield


def _ignore(*args, **kwargs):
    return None


def _patch_tpu(module):
    for name, off in (("force_tpu_interpret_mode", _no_interpret_mode), ("set_tpu_interpret_mode", _ignore)):
        if hasattr(module, name):
            setattr(module, name, _unless_kept(getattr(module, name), off))


def _unless_kept(real, off):
    @functools.wraps(real)
    def switch(*args, **kwargs):
        return (off if ENABLED else real)(*args, **kwargs)
    return switch
