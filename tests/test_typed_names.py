"""The public names ``import rougekit`` loads on first use are typed for type checkers: each is imported
under ``TYPE_CHECKING`` from the module it loads from, as an explicit re-export (``X as X``); without it
``rougekit.score(...)`` was ``Any`` to mypy (the lazy ``__getattr__``)."""

from __future__ import annotations

import ast
import types
from pathlib import Path

import rougekit

INIT = Path(rougekit.__file__)


def _type_checking_imports() -> dict[str, str]:
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom)
                for alias in imp.names:
                    assert alias.asname == alias.name, f"{alias.name}: re-export it as '{alias.name} as {alias.name}'"
                    found[alias.name] = imp.module or ""
    return found


def test_every_lazy_name_is_typed_from_its_module():
    assert _type_checking_imports() == rougekit._LAZY


def test_the_lazy_names_are_the_objects_of_their_modules():
    import importlib

    for name, module in rougekit._LAZY.items():
        ours, theirs = getattr(rougekit, name), getattr(importlib.import_module(module), name)
        if isinstance(ours, types.ModuleType):  # rougekit.variants once the submodule is imported: callable
            assert ours.__name__ == f"rougekit.{name}" and callable(ours)
        else:
            assert ours is theirs
