"""Old import paths of modules that moved to another layer keep working (the same module object).

``rougekit._core.batch`` (the batch driver) moved to ``rougekit.engine.batch`` when ``_core`` became
the kernels-only layer (docs/architecture.md). ``import rougekit._core.batch`` still gives the
engine's module itself, so code and tests written against the old path (``monkeypatch`` included)
see one module. Installed by the package's ``__init__``, the top layer, which may import any other.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys

#: old dotted path -> new dotted path
MOVED = {"rougekit._core.batch": "rougekit.engine.batch"}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path of :data:`MOVED` and loads it as the module at its new path."""

    def find_spec(self, name, path=None, target=None):
        if name not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(name, self)

    def create_module(self, spec):
        module = importlib.import_module(MOVED[spec.name])
        self._spec = module.__spec__  # the import system sets __spec__ to the old path's; put it back
        return module

    def exec_module(self, module):
        module.__spec__ = self._spec


def install() -> None:
    """Put the finder on ``sys.meta_path`` once."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.append(_Alias())
