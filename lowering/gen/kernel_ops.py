"""Prints, as one JSON line, the public functions of the installed JAX's
bundled Pallas TPU ops (jax/experimental/pallas/ops/tpu/**) that run a
Mosaic kernel when called ("kernels"), or return an object whose call runs
one ("factories", such as splash attention's make_splash_mha), and those
that wrap themselves in shard_map ("self_wrapping").

It reads the package's source with `ast` (nothing of it is imported or
run): a definition runs a kernel when its body names pallas_call or a
definition of the package that does (a name it calls, decorates with or
passes on, through the package's own imports and re-exports); a class
does when its __call__ does; a factory returns a call of such a class or
of another factory. Run by gen.sh in each oracle venv; never imported by
pallas-ls."""

import ast
import json
import os

import jax

PKG = "jax.experimental.pallas.ops.tpu"


def modules():
    root = os.path.join(os.path.dirname(jax.__file__), "experimental", "pallas", "ops", "tpu")
    out = {}
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), root)[:-3].split(os.sep)
            is_pkg = rel[-1] == "__init__"
            if is_pkg:
                rel = rel[:-1]
            name = ".".join([PKG] + rel)
            with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                out[name] = (ast.parse(fh.read()), is_pkg)
    return out


class Module:
    def __init__(self, name, tree, is_pkg):
        self.name, self.is_pkg = name, is_pkg
        self.defs = {}  # name -> node (FunctionDef, ClassDef, or the value of `name = ...`)
        self.imports = {}  # local name -> (module, attr or None)
        base = name if is_pkg else name.rsplit(".", 1)[0]
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.defs[node.name] = node
            elif isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        self.defs[t.id] = node.value
            elif isinstance(node, ast.ImportFrom):
                mod = node.module or ""
                if node.level:
                    parts = base.split(".")
                    parts = parts[: len(parts) - (node.level - 1)]
                    mod = ".".join(parts + ([mod] if mod else []))
                for a in node.names:
                    self.imports[a.asname or a.name] = (mod, a.name)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        self.imports[a.asname] = (a.name, None)


def dotted(e):
    parts = []
    while isinstance(e, ast.Attribute):
        parts.append(e.attr)
        e = e.value
    if isinstance(e, ast.Name):
        parts.append(e.id)
        return parts[::-1]
    return None


def main():
    mods = {n: Module(n, t, p) for n, (t, p) in modules().items()}

    def resolve(mod, path, depth=0):
        """The package definition (module, name) a dotted reference in mod
        names, or None."""
        if depth > 10 or not path:
            return None
        m = mods.get(mod)
        if m is None:
            return None
        head = path[0]
        if head in m.defs and len(path) == 1:
            return (mod, head)
        if head in m.imports:
            src, attr = m.imports[head]
            if attr is None:
                target = src
            elif src + "." + attr in mods:
                target = src + "." + attr
            else:
                return resolve(src, [attr] + path[1:], depth + 1)
            return resolve(target, path[1:], depth + 1) if len(path) > 1 else None
        return None

    # refs: what each definition names; direct: names pallas_call or shard_map.
    refs, direct, wraps, methods_of = {}, set(), set(), {}
    for mn, m in mods.items():
        for name, node in m.defs.items():
            key = (mn, name)
            out = set()
            nodes = [node]
            if isinstance(node, ast.ClassDef):
                calls = [b for b in node.body if isinstance(b, ast.FunctionDef) and b.name == "__call__"]
                methods_of[key] = {b.name: b for b in node.body if isinstance(b, ast.FunctionDef)}
                nodes = calls
            seen_methods = set()
            while nodes:
                n = nodes.pop()
                for sub in ast.walk(n):
                    p = dotted(sub) if isinstance(sub, (ast.Name, ast.Attribute)) else None
                    if not p:
                        continue
                    if p[-1] == "pallas_call":
                        direct.add(key)
                    if p[-1] == "shard_map":
                        wraps.add(key)
                    if isinstance(node, ast.ClassDef) and len(p) == 2 and p[0] == "self":
                        meth = methods_of[key].get(p[1])
                        if meth is not None and p[1] not in seen_methods:
                            seen_methods.add(p[1])
                            nodes.append(meth)
                        continue
                    r = resolve(mn, p)
                    if r and r != key:
                        out.add(r)
            refs[key] = out

    kernel = set(direct)
    changed = True
    while changed:
        changed = False
        for key, rs in refs.items():
            if key not in kernel and rs & (kernel - wraps):
                kernel.add(key)
                changed = True

    classes = {k for k in kernel if isinstance(mods[k[0]].defs[k[1]], ast.ClassDef)}

    def made_by(mn, e):
        """The definition a call or partial e of module mn makes its
        result with: what `return C(...)` or `f = partial(g, ...)` names."""
        if not isinstance(e, ast.Call):
            return None
        p = dotted(e.func)
        if p and p[-1] == "partial" and e.args:
            q = dotted(e.args[0])
            return resolve(mn, q) if q else None
        return resolve(mn, p) if p else None

    factory = set()
    changed = True
    while changed:
        changed = False
        for mn, m in mods.items():
            for name, node in m.defs.items():
                key = (mn, name)
                if key in factory or isinstance(node, ast.ClassDef):
                    continue
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    made = [made_by(mn, sub.value) for sub in ast.walk(node) if isinstance(sub, ast.Return)]
                else:
                    made = [made_by(mn, node)]
                if any(r in classes or r in factory for r in made):
                    factory.add(key)
                    changed = True

    def public_names(want):
        names = set()
        for mn, m in mods.items():
            if any(part.startswith("_") for part in mn.split(".")):
                continue
            for name in list(m.defs) + (list(m.imports) if m.is_pkg else []):
                if name.startswith("_"):
                    continue
                key = (mn, name) if name in m.defs else resolve(mn, [name])
                if key in want:
                    names.add(mn + "." + name)
        return sorted(names)

    wrapping = {k for k in kernel if k in wraps}

    def callable_kernel(key):
        """A definition by assignment runs a kernel only as another name,
        a partial or a jit/custom_vjp of a kernel function: a value built
        otherwise (a PRNGImpl holding kernels) is not called with arrays."""
        node = mods[key[0]].defs[key[1]]
        if not isinstance(node, ast.expr):
            return True
        if isinstance(node, (ast.Name, ast.Attribute)):
            p = dotted(node)
            return bool(p) and resolve(key[0], p) in kernel
        if isinstance(node, ast.Call) and node.args:
            p = dotted(node.func)
            q = dotted(node.args[0])
            return bool(p) and p[-1] in ("partial", "jit", "custom_vjp", "custom_jvp") and bool(q) and resolve(key[0], q) in kernel
        return False

    funcs = {k for k in kernel if k not in classes and k not in factory and k not in wrapping and callable_kernel(k)}
    print(json.dumps({
        "jax": jax.__version__,
        "kernels": public_names(funcs),
        "factories": public_names(factory - wrapping),
        "self_wrapping": public_names(wrapping),
    }))


if __name__ == "__main__":
    main()
