# Device ids that come from loop variables: range, enumerate, a literal
# tuple of id forms, lax.fori_loop's index, and a while loop whose trip
# count is not known.
import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def range_kernel(x_ref, o_ref, sem):
    for i in range(4):
        pl.semaphore_signal(sem, 1, device_id=i)
    o_ref[...] = x_ref[...]


def enumerate_kernel(x_ref, o_ref, sem):
    for hop, axis in enumerate(("x",)):
        pl.semaphore_signal(sem, 1, device_id={axis: hop})
    o_ref[...] = x_ref[...]


def forms_kernel(x_ref, o_ref, sem):
    for form in ({"x": 0}, {"x": 1}):
        pl.semaphore_signal(sem, 1, device_id=form)
    o_ref[...] = x_ref[...]


def fori_kernel(x_ref, o_ref, sem):
    def body(i, carry):
        pl.semaphore_signal(sem, 1, device_id=i)
        return carry

    jax.lax.fori_loop(0, 4, body, 0)
    o_ref[...] = x_ref[...]


def while_kernel(x_ref, o_ref, sem, *, hops):
    i = 0
    while i < hops:
        pl.semaphore_signal(sem, 1, device_id={"x": i})
        i += 1
    o_ref[...] = x_ref[...]


def ring_kernel(x_ref, o_ref, sem):
    # The look-alike: every id is relative to this device's axis_index, and
    # the kernel runs under a fully manual shard_map (sharded_silent.py).
    me = jax.lax.axis_index("x")
    n = jax.lax.axis_size("x")
    for hop in range(1, 4):
        pl.semaphore_signal(sem, 1, device_id={"x": (me + hop) % n})
    o_ref[...] = x_ref[...]


def local_kernel(x_ref, o_ref):
    # A loop variable that is only a local index: nothing communicates.
    for i in range(8):
        o_ref[i] = x_ref[i]


SEMS = [pltpu.SemaphoreType.REGULAR]
