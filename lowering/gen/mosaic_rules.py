"""Prints, as one JSON line, the primitives JAX's Pallas Mosaic (TPU)
lowering has a rule for in the installed JAX: the keys of
jax._src.pallas.mosaic.lowering.lowering_rules (for the TensorCore kernel
type, where the table is keyed by kernel type). Run by gen.sh in each
oracle venv; never imported by pallas-ls."""

import json
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
from jax.experimental import pallas  # noqa: E402,F401
from jax.experimental.pallas import tpu  # noqa: E402,F401
from jax._src.pallas.mosaic import lowering  # noqa: E402

rules = lowering.lowering_rules
kernel_type = ""
if rules and all(not hasattr(k, "bind") for k in rules):
    # Keyed by kernel type (KernelType / CoreType): the TensorCore's.
    for k in rules:
        if getattr(k, "name", "") == "TC":
            kernel_type = str(k)
            rules = rules[k]
            break
    else:
        raise SystemExit("no TC kernel type in " + repr(list(rules)))
names = sorted({p.name for p in rules})
print(json.dumps({"jax": jax.__version__, "kernel_type": kernel_type, "primitives": names}))
