"""The kernels of the corpus: one per way a kernel can (not) communicate.

Each kernel is the body of a Pallas TPU kernel over x_ref -> o_ref (the
whole (rows, 128) float32 block), written for an Api profile. Names say
what communicates: copy_* is a remote DMA (make_async_remote_copy) with
an int, tuple, dict or LOGICAL device id; ring_* computes the peer from
lax.axis_index; signal_* is a semaphore signal with each device_id form;
barrier_* use the barrier semaphore with and without collective_id;
core_* are pl.kernel programs over a TensorCoreMesh whose ids name only
the core axis, or the core axis and a device axis.
"""

import dataclasses

DMA2 = ["pltpu.SemaphoreType.DMA", "pltpu.SemaphoreType.DMA"]
REGULAR = ["pltpu.SemaphoreType.REGULAR"]


@dataclasses.dataclass(frozen=True)
class Kernel:
    name: str
    body: object  # api -> list of lines
    scratch: tuple = ()
    collective_id: object = None
    allow_collective_id: bool = False
    in_specs: str = ""  # a BlockSpec list over x (portable keywords)
    grid: str = ""
    core: bool = False  # a pl.kernel over a TensorCoreMesh
    modern_only: bool = False

    def params(self):
        names = {0: [], 1: ["sem"], 2: ["send_sem", "recv_sem"]}[len(self.scratch)]
        return ["x_ref", "o_ref", *names]


def _copy(device_id):
    def body(api):
        dev = device_id(api) if callable(device_id) else device_id
        return [f"copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, {dev})",
                "copy.start()", "copy.wait()"]
    return body


def _ring(form):
    def body(api):
        size = api.axis_size("x", 8)
        peer = "(right,)" if form == "tuple" else '{"x": right}'
        return ['me = lax.axis_index("x")', f"right = (me + 1) % {size}",
                f"copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={peer})",
                "copy.start()", "copy.wait()"]
    return body


def _signal(device_id, sem="sem"):
    def body(api):
        dev = device_id(api) if callable(device_id) else device_id
        dev = f", {dev}" if dev else ""
        return [f"{api.signal()}({sem}, 1{dev})", f"{api.wait()}({sem}, 1)", "o_ref[...] = x_ref[...]"]
    return body


def _barrier(api):
    return ["barrier = pltpu.get_barrier_semaphore()",
            f"{api.signal()}(barrier, 1, device_id=(1,))",
            f"{api.wait()}(barrier, 1)", "o_ref[...] = x_ref[...]"]


def _logical(api):
    return f"device_id=1, device_id_type={api.device_id_type()}.LOGICAL"


def _core(device_id):
    def body(api):
        api.need("pltpu.sync_copy")
        lines = [] if device_id is None else [
            f"{api.signal()}(sem, 1, device_id={device_id})", f"{api.wait()}(sem, 1)"]
        return lines + ["pltpu.sync_copy(x_ref, o_ref)"]
    return body


def _local(api):
    return ["o_ref[...] = x_ref[...] + 1"]


KERNELS = [
    Kernel("local", _local),
    Kernel("copy_int", _copy("device_id=1"), DMA2),
    Kernel("copy_tuple", _copy("device_id=(1,)"), DMA2),
    Kernel("copy_dict", _copy('device_id={"x": 1}'), DMA2),
    Kernel("copy_logical", _copy(_logical), DMA2),
    Kernel("ring_tuple", _ring("tuple"), DMA2),
    Kernel("ring_dict", _ring("dict"), DMA2),
    Kernel("axis_index_body", lambda api: ['o_ref[...] = x_ref[...] + lax.axis_index("x").astype(jnp.float32)']),
    Kernel("axis_size_body", lambda api: [f'o_ref[...] = x_ref[...] * {api.axis_size("x", 8)}'],
           modern_only=True),
    Kernel("axis_index_map", _local, grid="(1,)",
           in_specs='[pl.BlockSpec(block_shape=x.shape, index_map=lambda i: (i + lax.axis_index("x") * 0, 0))]'),
    Kernel("signal_int", _signal("device_id=1"), REGULAR),
    Kernel("signal_tuple", _signal("device_id=(1,)"), REGULAR),
    Kernel("signal_dict", _signal('device_id={"x": 1}'), REGULAR),
    Kernel("signal_logical", _signal(_logical), REGULAR),
    Kernel("signal_local", _signal(""), REGULAR),
    Kernel("barrier_cid", _barrier, collective_id=0),
    Kernel("barrier_nocid", _barrier),
    Kernel("cid_no_barrier", _local, collective_id=0),
    Kernel("cid_no_barrier_allowed", _local, collective_id=0, allow_collective_id=True, modern_only=True),
    Kernel("core_local", _core(None), REGULAR, core=True),
    Kernel("core_only_ids", _core('{"core": 1 - lax.axis_index("core")}'), REGULAR, core=True),
    Kernel("core_device_ids", _core('{"x": 1, "core": 0}'), REGULAR, core=True),
]

BY_NAME = {k.name: k for k in KERNELS}


def definition(kernel, api, flag=False, name="kernel", indent=""):
    """The kernel's def; with flag, a keyword `communicate` switches the
    communication off (the local copy runs instead)."""
    params = ", ".join(kernel.params()) + (", *, communicate" if flag else "")
    lines = [f"def {name}({params}):"]
    body = kernel.body(api)
    if flag:
        lines.append("    if communicate:")
        lines += ["        " + l for l in body]
        lines += ["    else:", "        o_ref[...] = x_ref[...]"]
    else:
        lines += ["    " + l for l in body]
    return "\n".join(indent + l for l in lines) + "\n"
