"""`rougekit protocol` with missing cells: the batched pairwise-complete bootstrap equals the library's
``bootstrap_distribution`` (issue 25: a 4-row JSONL took 17.7 s, one scalar correlation per resample)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import rougekit.meta.protocol as protocol
from rougekit.meta.protocol import load_jsonl, masked_distribution, run_protocol
from rougekit.stats.inference import bootstrap_distribution
from rougekit.stats.resampling import draws


def _matrices(seed: int):
    rng = np.random.default_rng(seed)
    X, Y = rng.random((5, 4)), rng.integers(1, 6, (5, 4)).astype(float)  # Y with ties, as human scores have
    X[1, 2] = np.nan  # a missing summary
    Y[3, 0] = Y[3, 3] = np.nan  # missing judgments
    Y[4, :] = np.nan  # a system never judged: left out at system level
    return X, Y


@pytest.mark.parametrize("level", ["system", "summary"])
@pytest.mark.parametrize("unit", ["systems", "instances", "both"])
@pytest.mark.parametrize("coefficient", ["pearson", "spearman", "kendall"])
def test_masked_distribution_is_the_library_bootstrap(level, unit, coefficient):
    for seed in range(3):
        X, Y = _matrices(seed)
        rows, cols = draws(5, 4, unit, 300, seed)
        ours = masked_distribution(X, Y, level, coefficient, rows, cols)
        want = bootstrap_distribution(X, Y, level, coefficient, resample_unit=unit, samples=300, seed=seed)
        np.testing.assert_allclose(ours, want, rtol=0, atol=1e-9, equal_nan=True)
        assert not np.isnan(want).all()


@pytest.mark.parametrize("unit", ["systems", "instances", "both"])
def test_masked_distribution_at_global_level_is_the_library_bootstrap(unit):
    # global level has no batched form: it must not be computed as summary level (it was)
    X, Y = _matrices(0)
    rows, cols = draws(5, 4, unit, 200, 0)
    ours = masked_distribution(X, Y, "global", "pearson", rows, cols)
    want = bootstrap_distribution(X, Y, "global", "pearson", resample_unit=unit, samples=200, seed=0)
    np.testing.assert_allclose(ours, want, rtol=0, atol=1e-12, equal_nan=True)
    assert not np.isnan(want).all()


def test_protocol_with_missing_cells_is_batched(tmp_path, monkeypatch):
    """The 4-row file of the report: 3 systems x 2 instances, one cell missing."""
    texts = ["the cat sat", "a cat on a mat", "the dog", "cat mat sat"]
    rows = [
        {"system": f"s{k % 3}", "instance": str(k // 3), "candidate": t, "references": ["the cat sat on the mat"]}
        | {"rel": k}
        for k, t in enumerate(texts)
    ]
    path = tmp_path / "four.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))

    def one_resample_at_a_time(*args, **kwargs):
        raise AssertionError("the scalar bootstrap ran")

    monkeypatch.setattr(protocol, "bootstrap_distribution", one_resample_at_a_time, raising=False)
    data = load_jsonl(path)
    assert np.isnan(data.human["rel"][1, 1])
    res = run_protocol(data, measures=["ROUGE-1", "ROUGE-L"], variants=["plain"], refs=["all"], samples=200)
    assert len(res.cells) == 2 * 3
