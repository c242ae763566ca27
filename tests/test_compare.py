"""Paired tests (hand-checkable cases) and `rougekit compare`."""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pytest

from rougekit.cli.main import main
from rougekit.stats.paired import approximate_randomization, paired_bootstrap


def test_identical_systems_are_not_different():
    a = [0.1, 0.5, 0.3, 0.9]
    assert approximate_randomization(a, a, trials=500).p_value == 1.0
    assert paired_bootstrap(a, a, trials=500).p_value == 1.0


def test_randomization_exact_on_small_case():
    # differences (+1, +1, +1): of the 8 sign patterns only +++ and --- reach |mean| >= 1,
    # so the exact two-sided p is 2/8; the Monte Carlo estimate approaches it.
    r = approximate_randomization([0, 0, 0], [1, 1, 1], trials=20000, seed=5)
    assert r.delta == 1.0
    assert r.p_value == pytest.approx(0.25, abs=0.02)


def test_bootstrap_detects_a_clear_gain_and_is_seeded():
    rng = np.random.default_rng(0)
    a = rng.uniform(0.2, 0.4, 200)
    b = a + 0.05 + rng.normal(0, 0.01, 200)
    one, two = paired_bootstrap(a, b, 2000, seed=3), paired_bootstrap(a, b, 2000, seed=3)
    assert one == two
    assert one.p_value < 0.001 and one.low > 0.04 and one.high < 0.06


def test_cli_compare(tmp_path):
    (tmp_path / "a.txt").write_text("police kill the gunman\nthe cat\nrain today\n")
    (tmp_path / "b.txt").write_text("police killed the gunman\nthe cat sat\nheavy rain today\n")
    (tmp_path / "r.txt").write_text("police killed the gunman\nthe cat sat\nheavy rain today\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert (
            main(
                [
                    "compare",
                    "-c",
                    str(tmp_path / "a.txt"),
                    "-c",
                    str(tmp_path / "b.txt"),
                    "-r",
                    str(tmp_path / "r.txt"),
                    "--measures",
                    "ROUGE-1",
                    "--format",
                    "json",
                    "--trials",
                    "500",
                ]
            )
            == 0
        )
    row = json.loads(out.getvalue())["comparisons"][0]
    # per-pair F: a = 0.75, 0.8, 0.8 ; b = 1, 1, 1
    assert row["baseline_mean"] == pytest.approx((0.75 + 0.8 + 0.8) / 3)
    assert row["delta"] == pytest.approx(1 - (0.75 + 0.8 + 0.8) / 3)
    assert 0 < row["p_randomization"] <= 1
