"""Finds the entry files of a case directory from its source.

Rules, in order, for each .py file (a `fixed/` directory holds golden
outputs of fixes and is skipped, and so is `_oracle/`, the drivers of
library cases, which oracle/fixtures.toml names as entries):
1. test_*.py / *_test.py with test functions or classes: a pytest entry.
2. A file with an `if __name__ == "__main__":` block: a script.
3. A file with calls at module level (an expression statement, or an
   assignment or `with` whose value calls something) that no other file of
   the case imports: a script. A module that others import runs as part of
   them instead.
"""

import ast
import os


def entries(case_dir):
    files = _python_files(case_dir)
    trees = {f: _parse(os.path.join(case_dir, f)) for f in files}
    imported = _imported_modules(trees)
    out = []
    for f in files:
        tree = trees[f]
        if tree is None:
            continue
        if _is_test_file(f) and _has_tests(tree):
            out.append((f, "pytest"))
        elif _has_main_block(tree) or (_has_module_calls(tree) and not _is_imported(f, imported)):
            out.append((f, "script"))
    return out


def kind_of(path):
    return "pytest" if _is_test_file(os.path.basename(path)) else "script"


def _python_files(case_dir):
    out = []
    for root, dirs, files in os.walk(case_dir):
        dirs[:] = sorted(d for d in dirs if d not in ("fixed", "__pycache__", "_oracle"))
        for name in sorted(files):
            if name.endswith(".py"):
                out.append(os.path.relpath(os.path.join(root, name), case_dir).replace(os.sep, "/"))
    return sorted(out)


def _parse(path):
    try:
        with open(path, "rb") as f:
            return ast.parse(f.read())
    except (SyntaxError, ValueError):
        return None


def _is_test_file(rel):
    name = os.path.basename(rel)
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def _has_tests(tree):
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            return True
        if isinstance(node, ast.ClassDef) and (node.name.startswith("Test") or node.bases):
            return True
    return False


def _has_main_block(tree):
    for node in tree.body:
        if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test) \
                and "__main__" in ast.unparse(node.test):
            return True
    return False


def _has_module_calls(tree):
    return any(_is_action(node) for node in tree.body)


def _is_action(node):
    if isinstance(node, ast.Expr):
        value = node.value
    elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        value = node.value
    elif isinstance(node, ast.With):
        value = node
    else:
        return False
    return value is not None and any(
        isinstance(n, ast.Call) and not _definition_call(n) for n in ast.walk(value))


# Calls that module-level definitions make without running anything.
_DEFINITION_CALLS = {"functools.partial", "partial", "TypeVar", "os.environ.get", "os.getenv",
                     "dataclasses.field", "field", "namedtuple", "collections.namedtuple",
                     "logging.getLogger"}


def _definition_call(call):
    return ast.unparse(call.func) in _DEFINITION_CALLS


def _imported_modules(trees):
    """Dotted names (and their last parts) the case's files import."""
    out = set()
    for tree in trees.values():
        if tree is None:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                out.add(base)
                out.update(f"{base}.{a.name}".lstrip(".") for a in node.names)
    # Relative imports are not resolved: the last parts stand for them.
    return out | {name.rsplit(".", 1)[-1] for name in out}


def _is_imported(rel, imported):
    mod = rel[:-3].replace("/", ".")
    mod = mod[:-len(".__init__")] if mod.endswith(".__init__") else mod
    return mod in imported or mod.rsplit(".", 1)[-1] in imported
