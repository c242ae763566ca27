"""Every example in rougekit's docstrings runs and prints what it shows (doctest)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import rougekit

# rougekit.__main__ runs the command line when imported
MODULES = sorted(m.name for m in pkgutil.walk_packages(rougekit.__path__, "rougekit.") if m.name != "rougekit.__main__")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ImportError as exc:  # an optional extra (matplotlib, scipy) or an unbuilt kernel
        pytest.skip(f"{name} not importable here: {exc}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} docstring examples failed in {name}"


def test_some_examples_exist():
    attempted = 0
    for name in MODULES:
        try:
            attempted += doctest.testmod(importlib.import_module(name), verbose=False).attempted
        except ImportError:
            continue
    assert attempted >= 20
