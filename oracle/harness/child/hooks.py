"""Patches applied right after a module executes (a post-import hook), so
the program imports modules in its own order, as it would without the
oracle."""

import importlib.abc
import importlib.machinery
import sys

_PATCHES = {}


def after_import(name, patch):
    """Runs patch(module) right after module `name` executes, or now if it
    already has."""
    if name in sys.modules:
        patch(sys.modules[name])
        return
    _PATCHES.setdefault(name, []).append(patch)
    if not any(isinstance(f, _PostImportHook) for f in sys.meta_path):
        sys.meta_path.insert(0, _PostImportHook())


class _PostImportHook(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        patches = _PATCHES.get(name)
        if not patches:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _PatchingLoader(spec.loader, patches)
        return spec


class _PatchingLoader(importlib.abc.Loader):
    def __init__(self, loader, patches):
        self._loader = loader
        self._patches = patches

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        for patch in self._patches:
            patch(module)

    def __getattr__(self, name):
        return getattr(self._loader, name)
