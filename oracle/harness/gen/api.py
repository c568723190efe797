"""How a program spells the JAX APIs it uses, and which versions have them.

A case is written the way users of some JAX versions write it: the
"modern" profile is what a 2025+ user writes (pl.semaphore_signal,
jax.shard_map, pltpu.CompilerParams, jax.make_mesh, jax.set_mesh), the
"portable" profile spells everything the oldest way that still works (the
experimental shard_map, Mesh(...), pltpu.semaphore_signal, scratch through
PrefetchScalarGridSpec, `with mesh:`), so that its cases run on as many
versions as possible. Each spelling records the feature it needs; a case
targets the versions that have all of its features (FEATURES, measured
with scripts/oracle's venvs, not read from the docs).
"""

from .. import versions as versions_lib

# feature -> the versions (of oracle/versions.txt) that have it.
FEATURES = {
    "pl.semaphore_signal": ">=0.6",
    "pltpu.semaphore_signal": "<0.11",
    "pl.DeviceIdType": ">=0.6",
    "pltpu.DeviceIdType": "<0.11",
    "jax.shard_map": ">=0.6",
    "exp.shard_map.auto": "<0.8",
    "jax.make_mesh": ">=0.4.33",
    "make_mesh.axis_types": ">=0.6",
    "jax.set_mesh": ">=0.7",
    "jax.smap": ">=0.7",
    "lax.axis_size": ">=0.6",
    "pallas_call.scratch_shapes": ">=0.4.38",
    "pltpu.CompilerParams": ">=0.6",
    "pltpu.TPUCompilerParams": ">=0.4.33,<0.7",
    "compiler_params.dict": "<0.6.1",
    "allow_collective_id_without_custom_barrier": ">=0.7",
    "pl.kernel.out_shape": ">=0.8,<0.10",
    "pl.kernel.out_type": ">=0.10",
    "pltpu.sync_copy": ">=0.6",
    "pl.loop": ">=0.6",
    "pmap.trace": "<0.7",
    "lower.lowering_platforms": ">=0.4.30",
    "pmap_shmap_merge": "<0.10",
    "pltpu.force_tpu_interpret_mode": ">=0.7",
}


class Api:
    """Spellings of one profile; collects the features a program uses."""

    def __init__(self, profile):
        assert profile in ("modern", "portable", "mid")
        self.profile = profile
        self.features = set()

    @property
    def modern(self):
        return self.profile == "modern"

    def need(self, feature):
        self.features.add(feature)
        return self

    def signal(self):
        return self._pick("pl.semaphore_signal", "pltpu.semaphore_signal")

    def wait(self):
        name = self._pick("pl.semaphore_signal", "pltpu.semaphore_signal")
        return name.replace("signal", "wait")

    def device_id_type(self):
        return self._pick("pl.DeviceIdType", "pltpu.DeviceIdType")

    def _pick(self, modern, portable):
        name = modern if self.modern else portable
        self.need(name)
        return name

    def axis_size(self, axis, size):
        if self.modern:
            self.need("lax.axis_size")
            return f'lax.axis_size("{axis}")'
        return str(size)

    def params(self, collective_id=None, allow=False):
        """The compiler_params keyword (with its leading comma), or ""."""
        if collective_id is None and not allow:
            return ""
        args = [] if collective_id is None else [f"collective_id={collective_id}"]
        if allow:
            args.append("allow_collective_id_without_custom_barrier=True")
            self.need("allow_collective_id_without_custom_barrier")
        if self.profile == "modern":
            self.need("pltpu.CompilerParams")
            return f", compiler_params=pltpu.CompilerParams({', '.join(args)})"
        if self.profile == "mid":
            self.need("pltpu.TPUCompilerParams")
            return f", compiler_params=pltpu.TPUCompilerParams({', '.join(args)})"
        self.need("compiler_params.dict")
        return f", compiler_params=dict(mosaic=dict({', '.join(args)}))"

    def mesh(self, shape, names):
        dims = ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "")
        axes = ", ".join(f'"{n}"' for n in names) + ("," if len(names) == 1 else "")
        if self.modern:
            self.need("jax.make_mesh").need("make_mesh.axis_types")
            kinds = ", ".join(["AxisType.Auto"] * len(names)) + ("," if len(names) == 1 else "")
            return f"jax.make_mesh(({dims}), ({axes}), axis_types=({kinds}))"
        return f"Mesh(np.array(jax.devices()).reshape({dims}), ({axes}))"

    def shard_map(self, f, mesh, in_specs, out_specs, manual=None, axes=("x",), check=False):
        """A shard_map of f; manual: the axes it makes manual when not
        all of axes (partial manual)."""
        partial = manual is not None and set(manual) != set(axes)
        if self.modern:
            self.need("jax.shard_map")
            mesh_kw = f", mesh={mesh}" if mesh else ""  # None: the context mesh
            extra = f", axis_names={_names(manual)}" if partial else ""
            check_kw = "" if check else ", check_vma=False"
            return (f"jax.shard_map({f}{mesh_kw}, in_specs={in_specs}, "
                    f"out_specs={out_specs}{extra}{check_kw})")
        extra = ""
        if partial:
            self.need("exp.shard_map.auto")
            extra = f", auto=frozenset({_names([a for a in axes if a not in manual])})"
        return f"shard_map({f}, {mesh}, in_specs={in_specs}, out_specs={out_specs}, check_rep=False{extra})"

    def versions_constraint(self, extra=()):
        clauses = [FEATURES[f] for f in sorted(self.features | set(extra))]
        return ",".join(c for c in clauses if c)


def _names(axes):
    return "{" + ", ".join(f'"{a}"' for a in sorted(axes)) + "}"


def targets(constraint, all_versions):
    return [v for v in all_versions if versions_lib.matches(v, constraint)]
