"""rougekit's means add left to right on every Python: 3.12's ``sum()`` of floats compensates its
rounding (Neumaier), and ``rougekit compare`` printed 0.83052 there where 3.11 prints 0.83051 (the
documented output). The tests below give ``sum`` 3.12's kind of result (an exactly rounded sum,
``math.fsum``) on any Python and check that no number moves."""

from __future__ import annotations

import builtins
import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from rougekit._sums import mean_in_order, sum_in_order

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "correlate"
_plain_sum = builtins.sum


def _compensated(iterable, start=0):
    items = list(iterable)
    if isinstance(start, int) and all(type(x) is int or type(x) is bool for x in items):
        return _plain_sum(items, start)
    return math.fsum([start, *items])


@pytest.fixture
def compensated_sum(monkeypatch):
    monkeypatch.setattr(builtins, "sum", _compensated)


def test_left_to_right_by_hand():
    assert sum_in_order([1e16, 1.0, -1e16]) == 0.0  # 1e16 + 1 rounds back to 1e16
    assert math.fsum([1e16, 1.0, -1e16]) == 1.0
    assert sum_in_order([0.1, 0.2, 0.3]) == (0.1 + 0.2) + 0.3 == 0.6000000000000001
    assert mean_in_order([], math.nan) != mean_in_order([], math.nan)  # nan
    assert mean_in_order([0.5, 0.25], 0.0) == 0.375


def _compare(capsys, tmp_path) -> dict:
    from rougekit.cli.main import main

    out = tmp_path / "compare.json"
    argv = ["compare", "-c", str(EXAMPLES / "sysA.txt"), "-c", str(EXAMPLES / "sysB.txt")]
    argv += ["-r", str(EXAMPLES / "ref.txt"), "--measures", "ROUGE-1,ROUGE-L", "--trials", "200"]
    assert main([*argv, "--seed", "0", "--format", "json", "-o", str(out)]) == 0
    capsys.readouterr()
    return json.loads(out.read_text())


def test_compare_means_do_not_depend_on_how_sum_rounds(capsys, tmp_path, monkeypatch):
    plain = _compare(capsys, tmp_path)
    monkeypatch.setattr(builtins, "sum", _compensated)
    assert _compare(capsys, tmp_path) == plain
    assert f"{plain['comparisons'][0]['baseline_mean']:.5f}" == "0.83051"  # docs/meta-evaluation.md


def test_means_of_levels_kappa_and_tables_do_not_depend_on_how_sum_rounds(monkeypatch):
    from rougekit.measures.hori import kappa
    from rougekit.stats.levels import summary_level

    rng = np.random.default_rng(0)
    X, Y = rng.random((7, 40)), rng.random((7, 40))
    per = [float(np.corrcoef(X[:, j], Y[:, j])[0, 1]) for j in range(40)]
    assert sum_in_order(per) != math.fsum(per)  # the data tell the two sums apart
    rnd = random.Random(5)
    extractions = [{rnd.randrange(30) for _ in range(12)} for _ in range(7)]
    before = (summary_level(X, Y), kappa(extractions, 30))
    monkeypatch.setattr(builtins, "sum", _compensated)
    assert (summary_level(X, Y), kappa(extractions, 30)) == before
