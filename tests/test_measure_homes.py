"""The papers' measure math has one home each, next to its registry family (issue 24, item 5).

``rougekit.metrics.hori`` and ``rougekit.metrics.lin_hovy`` stay importable (documented in
docs/measures/*.md) but hold no code: every public name is the very object of the family module.
"""

from __future__ import annotations

import inspect

import pytest

import rougekit.measures.hori as hori_home
import rougekit.measures.lin_hovy as lin_hovy_home
import rougekit.metrics as metrics
import rougekit.metrics.hori as hori_alias
import rougekit.metrics.lin_hovy as lin_hovy_alias


@pytest.mark.parametrize(("alias", "home"), [(hori_alias, hori_home), (lin_hovy_alias, lin_hovy_home)])
def test_alias_module_names_are_the_family_modules_objects(alias, home):
    assert alias.__all__ == home.__all__
    for name in alias.__all__:
        obj = getattr(alias, name)
        assert obj is getattr(home, name), name
        assert obj.__module__ == home.__name__, name


def test_alias_modules_define_nothing():
    for alias in (hori_alias, lin_hovy_alias, metrics):
        source = inspect.getsource(alias)
        assert "\ndef " not in source and "\nclass " not in source, alias.__name__


def test_package_level_names_are_the_family_modules_objects():
    assert metrics.accy is hori_home.accy and metrics.kappa is hori_home.kappa
    assert metrics.bleu is lin_hovy_home.bleu and metrics.ngram_score is lin_hovy_home.ngram_score
    # ACCY of "a b c" against "a x c": one substitution, (3 - 1) / 3
    assert metrics.accy("a b c".split(), "a x c".split()) == 2 / 3
