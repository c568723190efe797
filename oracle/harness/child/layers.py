"""Which layer raised an exception, and what to record of it.

The phase comes from where the exception passed: the oracle's wrappers
around JAX's lowering entry points mark every exception that leaves them
(lowering.py). Within lowering, the innermost frame of a known JAX file
decides:

  custom-call-lowering  jax/_src/tpu_custom_call.py (building the
                        tpu_custom_call op: partitioning checks, Replica
                        lowering, collective_id)
  pallas-lowering       jax/_src/pallas/... (the Pallas->Mosaic lowering,
                        its platform dispatch, device-id conversion)
  lowering              anything else lowered (XLA/StableHLO lowering of
                        the surrounding program)

Exceptions that never passed through lowering are `trace` (raised while
the program is built, traced or abstractly evaluated: JAX's trace-time
checks, a missing API, an error of the program itself), and `compile` for
the CPU compilation of a program without Pallas (never seen so far).
"""

import os
import re

_PHASE = "_oracle_phase"


def mark_lowering(exc):
    _mark(exc, "lowering")


def mark_compile(exc):
    _mark(exc, "compile")


def _mark(exc, phase):
    try:
        if getattr(exc, _PHASE, None) is None:
            setattr(exc, _PHASE, phase)
    except Exception:  # exceptions without a __dict__ keep no mark
        pass


def unwrap(exc):
    """The exception to report: Pallas's LoweringException (verbose errors)
    and JAX's stack-trace wrappers stand for their cause."""
    seen = set()
    while id(exc) not in seen:
        seen.add(id(exc))
        name = type(exc).__name__
        inner = exc.__cause__ or exc.__context__
        if name in ("LoweringException", *_STACK_RECORDS) and inner is not None:
            inner_phase = getattr(exc, _PHASE, None)
            if inner_phase:
                _mark(inner, inner_phase)
            exc = inner
            continue
        break
    return exc


def layer(exc, original):
    phase = getattr(exc, _PHASE, None) or getattr(original, _PHASE, None)
    if phase is None:
        return "trace"
    if phase != "lowering":
        return phase
    for path in _frames_innermost_first(original):
        if path.endswith(os.path.join("jax", "_src", "tpu_custom_call.py")):
            return "custom-call-lowering"
        if os.path.join("jax", "_src", "pallas", "") in path:
            return "pallas-lowering"
    return "lowering"


# Causes JAX attaches to record where a traced operation came from: their
# frames are the program's tracing, not where the exception was raised.
_STACK_RECORDS = ("JaxStackTraceBeforeTransformation", "UnfilteredStackTrace")


def _frames_innermost_first(exc):
    """Files of the frames of exc and of the exceptions it chains to,
    innermost (most recent) first."""
    chain, seen = [], set()
    while exc is not None and id(exc) not in seen and type(exc).__name__ not in _STACK_RECORDS:
        seen.add(id(exc))
        chain.append(exc)
        exc = exc.__cause__  # a __context__ is what was being handled, not where this came from
    files = []
    for e in reversed(chain):  # the cause was raised first, deepest
        tb, frames = e.__traceback__, []
        while tb is not None:
            frames.append(tb.tb_frame.f_code.co_filename)
            tb = tb.tb_next
        files.extend(reversed(frames))
    return files


_ADDRESS = re.compile(r"0x[0-9a-fA-F]{4,}")


def normalise(message, repo_root, site_packages):
    """What truly varies between runs and machines: absolute paths (files of
    the checkout become relative to its root, files of the venv start with
    <site-packages>/) and memory addresses (0x?)."""
    for prefix, repl in ((site_packages, "<site-packages>/"), (repo_root, "")):
        if prefix:
            message = message.replace(prefix.rstrip(os.sep) + os.sep, repl)
    return _ADDRESS.sub("0x?", message)


def record(exc, repo_root, site_packages):
    real = unwrap(exc)
    return {
        "type": type(real).__name__,
        "message": normalise(str(real), repo_root, site_packages),
        "layer": layer(real, exc),
    }
