"""How a program reaches its kernel: each builder returns the module code
that defines `step(x)` (which ends in the kernel call) and any helper
modules of the case."""

from . import kernels as K


def pallas_call(kernel, api, fn="kernel", x="x", grid=None, out_shape=None, extra=""):
    """The pallas_call(...) expression (not yet applied to its inputs);
    extra: more keywords, with their leading comma."""
    out_shape = out_shape or f"jax.ShapeDtypeStruct({x}.shape, {x}.dtype)"
    if kernel.core:
        return _core_call(kernel, api, fn, out_shape)
    args = [fn, f"out_shape={out_shape}"]
    grid = grid or kernel.grid
    inner = ([f"grid={grid}"] if grid else []) + \
        ([f"in_specs={kernel.in_specs.replace('x.shape', x + '.shape')}"] if kernel.in_specs else [])
    scratch = f"[{', '.join(kernel.scratch)}]"
    if not kernel.scratch:
        args += inner
    elif api.modern:
        api.need("pallas_call.scratch_shapes")
        args += inner + [f"scratch_shapes={scratch}"]
    else:
        spec = ", ".join(["num_scalar_prefetch=0", *inner, f"scratch_shapes={scratch}"])
        args.append(f"grid_spec=pltpu.PrefetchScalarGridSpec({spec})")
    params = api.params(kernel.collective_id, kernel.allow_collective_id)
    return f"pl.pallas_call({', '.join(args)}{params}{extra})"


def _core_call(kernel, api, fn, out_shape):
    scratch = f"[{', '.join(kernel.scratch)}]"
    mesh = 'pltpu.create_tensorcore_mesh("core", num_cores=2)'
    if api.modern:
        api.need("pl.kernel.out_type")
        return f"pl.kernel({fn}, out_type={out_shape}, mesh={mesh}, scratch_types={scratch})"
    api.need("pl.kernel.out_shape")
    return f"pl.kernel({fn}, out_shape={out_shape}, mesh={mesh}, scratch_shapes={scratch})"


def direct(kernel, api):
    return K.definition(kernel, api) + f"""

def step(x):
    return {pallas_call(kernel, api)}(x)
""", {}


def helper_module(kernel, api):
    ops = K.definition(kernel, api) + f"""

def launch(x):
    return {pallas_call(kernel, api)}(x)
"""
    return """import ops


def step(x):
    return ops.launch(x)
""", {"ops.py": ops}


def kernel_helper_module(kernel, api):
    ops = K.definition(kernel, api, name="exchange")
    params = ", ".join(kernel.params())
    return f"""import ops


def kernel({params}):
    ops.exchange({params})


def step(x):
    return {pallas_call(kernel, api)}(x)
""", {"ops.py": ops}


def _partial(on):
    def build(kernel, api):
        fn = f"functools.partial(kernel, communicate={on})"
        return K.definition(kernel, api, flag=True) + f"""

def step(x):
    return {pallas_call(kernel, api, fn=fn)}(x)
""", {}
    return build


def static_flag_off(kernel, api):
    return K.definition(kernel, api) + f"""

def step(x, tp_size=1):
    if tp_size == 1:  # one device per replica: nothing to exchange
        return x + 1
    return {pallas_call(kernel, api)}(x)
""", {}


def decorator(kernel, api):
    return K.definition(kernel, api) + f"""

@functools.partial(jax.jit, static_argnames=("scale",))
def step(x, scale=1):
    return {pallas_call(kernel, api)}(x) * scale
""", {}


def factory(kernel, api):
    call = pallas_call(kernel, api, out_shape="jax.ShapeDtypeStruct(shape, dtype)")
    return K.definition(kernel, api) + f"""

def make_op(shape, dtype):
    return {call}


def step(x):
    return make_op(x.shape, x.dtype)(x)
""", {}


def method(kernel, api):
    return K.definition(kernel, api) + f"""

class Exchange:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        return self._launch(x) * self.scale

    def _launch(self, x):
        return {pallas_call(kernel, api)}(x)


step = Exchange(1)
""", {}


def closure(kernel, api):
    body = K.definition(kernel, api, indent="    ").replace('"x"', "axis")
    return f"""def make_step(axis):
{body}
    def step(x):
        return {pallas_call(kernel, api)}(x)

    return step


step = make_step("x")
""", {}


def custom_vjp(kernel, api):
    local = f"pl.pallas_call(_double, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))"
    return K.definition(kernel, api) + f"""

def _double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


@jax.custom_vjp
def op(x):
    return {local}(x)


def op_fwd(x):
    return op(x), None


def op_bwd(_, g):
    return ({pallas_call(kernel, api, x="g")}(g),)


op.defvjp(op_fwd, op_bwd)


def step(x):
    return jax.grad(lambda y: op(y).sum())(x)
""", {}


def fori_loop(kernel, api):
    return K.definition(kernel, api) + f"""

def step(x):
    return lax.fori_loop(0, 2, lambda i, y: {pallas_call(kernel, api, x="y")}(y), x)
""", {}


def pl_when(kernel, api):
    params = ", ".join(kernel.params())
    body = "\n".join("        " + l for l in kernel.body(api))
    return f"""def kernel({params}):
    @pl.when(pl.program_id(0) == 0)
    def _():
{body}


def step(x):
    return {pallas_call(kernel, api, grid="(2,)")}(x)
""", {}


def out_shape_array(kernel, api):
    """out_shape given as the input array itself, as many programs write
    it: inside shard_map it carries the input's varying axes."""
    return K.definition(kernel, api) + f"""

def step(x):
    return {pallas_call(kernel, api, out_shape="x")}(x)
""", {}


def _collective_before(expr):
    """A plain collective in step's body, before the kernel runs."""
    def build(kernel, api):
        return K.definition(kernel, api) + f"""

def step(x):
    y = {expr}
    return {pallas_call(kernel, api, x="y")}(y)
""", {}
    return build


def _interpreted(extra):
    """The program asks for interpret mode; the oracle turns it off."""
    def build(kernel, api):
        return K.definition(kernel, api) + f"""

def step(x):
    return {pallas_call(kernel, api, extra=extra)}(x)
""", {}
    return build


def force_interpret(kernel, api):
    api.need("pltpu.force_tpu_interpret_mode")
    return K.definition(kernel, api) + f"""

def step(x):
    with pltpu.force_tpu_interpret_mode():
        return {pallas_call(kernel, api)}(x)
""", {}


REACHES = {
    "direct": direct,
    "helper_module": helper_module,
    "kernel_helper_module": kernel_helper_module,
    "partial_on": _partial(True),
    "partial_off": _partial(False),
    "static_flag_off": static_flag_off,
    "decorator": decorator,
    "factory": factory,
    "method": method,
    "closure": closure,
    "custom_vjp": custom_vjp,
    "fori_loop": fori_loop,
    "pl_when": pl_when,
    "out_shape_array": out_shape_array,
    "psum_before": _collective_before('lax.psum(x, "x")'),
    "all_gather_before": _collective_before('lax.all_gather(x, "x", tiled=True)[: x.shape[0]]'),
    "ppermute_before": _collective_before('lax.ppermute(x, "x", [(i, (i + 1) % 8) for i in range(8)])'),
    "interpret_true": _interpreted(", interpret=True"),
    "interpret_on_cpu": _interpreted(', interpret=jax.default_backend() == "cpu"'),
    "force_interpret": force_interpret,
}
