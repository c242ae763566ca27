"""rougekit.stats: the batched correlations against the scalar ones, the F twin against the scalar F,
and the resampling helpers against their definitions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rougekit.errors import OptionError
from rougekit.scoring import f_measure, ratios, ratios_array
from rougekit.stats import correlation as C
from rougekit.stats.levels import resampled_levels, summary_level, summary_mean, system_level
from rougekit.stats.resampling import draws, percentile_interval, resample, tail_percentiles

COEFS = C.BATCHED


def _rows(rng, shape, kind):
    """Random rows: continuous, heavily tied (3 values), or with constant rows mixed in."""
    if kind == "continuous":
        return rng.normal(size=shape)
    if kind == "ties":
        return rng.integers(0, 3, size=shape).astype(float)
    x = rng.normal(size=shape)
    const = rng.random(shape[:-1]) < 0.3
    x[const] = 1.5  # a constant row: the coefficient is undefined
    return x


@pytest.mark.parametrize("coef", COEFS)
@pytest.mark.parametrize("kind", ["continuous", "ties", "constant"])
@pytest.mark.parametrize("n", [2, 3, 7, 16])
def test_batched_equals_scalar(coef, kind, n):
    rng = np.random.default_rng([COEFS.index(coef), ["continuous", "ties", "constant"].index(kind), n])
    x, y = _rows(rng, (60, n), kind), _rows(rng, (60, n), kind)
    y[:10] = 2 * x[:10] + 1  # some perfectly correlated rows
    y[10:15] = -x[10:15]  # and perfectly anti-correlated ones
    got = C.batch_correlation(x, y, coef)
    scalar = C.get_coefficient(coef)
    want = np.array([scalar(a, b) for a, b in zip(x, y)])
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    assert ok.sum() > 0
    np.testing.assert_allclose(got[ok], want[ok], rtol=0, atol=1e-12)


@pytest.mark.parametrize("coef", COEFS)
def test_batched_blocks_of_three_axes(coef):
    # (resamples, instances, systems): prepared in blocks along the first axis, same values
    rng = np.random.default_rng(7)
    x = rng.integers(0, 4, size=(230, 5, 6)).astype(float)
    y = rng.integers(0, 4, size=(230, 5, 6)).astype(float)
    got = C.combine(C.prepare(x, coef, chunk=100), C.prepare(y, coef, chunk=100))
    whole = C.combine(C.prepare(x, coef, chunk=1000), C.prepare(y, coef, chunk=1000))
    assert np.array_equal(got, whole, equal_nan=True)
    scalar = C.get_coefficient(coef)
    want = np.array([[scalar(a, b) for a, b in zip(xa, ya)] for xa, ya in zip(x, y)])
    assert np.array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got[~np.isnan(want)], want[~np.isnan(want)], rtol=0, atol=1e-12)


def test_batched_ranks_equal_rankdata():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, size=(40, 9)).astype(float)
    assert np.array_equal(C.ranks(x), np.array([C.rankdata(r) for r in x]))
    # by hand: 2 ties for ranks 2-3 share 2.5
    assert C.ranks(np.array([[10.0, 20.0, 20.0, 5.0]])).tolist() == [[2.0, 3.5, 3.5, 1.0]]


def test_batched_refuses_what_it_does_not_compute():
    with pytest.raises(OptionError, match="batched correlation supports"):
        C.prepare(np.zeros((2, 3)), "kendall_c")
    with pytest.raises(OptionError, match="no missing values"):
        C.batch_correlation([[1.0, np.nan, 3.0]], [[1.0, 2.0, 3.0]])


@pytest.mark.parametrize("coef", COEFS)
@pytest.mark.parametrize("level", ["system", "summary"])
def test_resampled_levels_equal_the_levels_of_the_resampled_matrices(coef, level):
    rng = np.random.default_rng(11)
    X = rng.normal(size=(7, 9))
    Y = np.round(X + rng.normal(size=(7, 9)), 1)
    rows, cols = draws(7, 9, "both", 25, seed=4)
    got = C.combine(
        C.prepare(resampled_levels(X, rows, cols, level), coef),
        C.prepare(resampled_levels(Y, rows, cols, level), coef),
    )
    if level == "summary":
        got = summary_mean(got)
    rng2 = np.random.default_rng(4)
    for b in range(25):
        xs, ys = resample(rng2, (X, Y), "both")
        want = system_level(xs, ys, coef) if level == "system" else summary_level(xs, ys, coef)
        assert got[b] == pytest.approx(want, abs=1e-12, nan_ok=True)


def test_draws_are_the_draws_of_resample():
    M = np.arange(20.0).reshape(4, 5)
    for unit in ("systems", "instances", "both"):
        rows, cols = draws(4, 5, unit, 6, seed=9)
        rng = np.random.default_rng(9)
        for b in range(6):
            (one,) = resample(rng, (M,), unit)
            r = np.arange(4) if rows is None else rows[b]
            c = np.arange(5) if cols is None else cols[b]
            assert np.array_equal(one, M[np.ix_(r, c)])


def test_percentile_interval_and_tails():
    assert tail_percentiles(95) == (2.5, 97.5)
    assert tail_percentiles(0.9, fraction=True) == pytest.approx((5.0, 95.0))
    values = np.array([4.0, np.nan, 1.0, 3.0, 2.0, 5.0])
    # the 25th and 75th percentiles of 1..5 by linear interpolation: 2 and 4
    assert percentile_interval(values, 0.5) == (2.0, 4.0)
    assert all(math.isnan(v) for v in percentile_interval(np.array([np.nan]), 0.95))


def test_f_twin_equals_scalar_f_bit_for_bit():
    rng = np.random.default_rng(5)
    model = rng.integers(0, 6, 500).astype(float)
    peer = rng.integers(0, 6, 500).astype(float)
    hits = np.minimum(rng.integers(0, 6, 500), np.minimum(model, peer))
    for alpha in (0.0, 0.2, 0.5, 1.0):
        r, p, f = ratios_array(model, peer, hits, alpha)
        for k in range(500):
            assert (r[k], p[k], f[k]) == ratios(model[k], peer[k], hits[k], alpha)
            assert f[k] == f_measure(r[k], p[k], alpha)
    # by hand: 2 hits of 4 reference and 2 candidate tokens -> R 0.5, P 1, F = 0.5 / (0.5 * 1 + 0.5 * 0.5)
    assert ratios(4, 2, 2, 0.5) == (0.5, 1.0, 0.5 / 0.75)
    assert ratios(0, 0, 0, 0.5) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize("shape", [(7,), (1001,), (5, 3)])
def test_resampled_sums_are_the_sums_of_one_draw_per_resample(monkeypatch, shape):
    # the definition (rouge-score's aggregator loop): resample i sums the rows of the i-th
    # rng.integers(0, n, size=n); blocks of any size give the same draws
    from rougekit.stats import resampling

    values = np.random.default_rng(2).random(shape)
    n = shape[0]
    rng = np.random.default_rng(8)
    want = np.array([values[rng.integers(0, n, size=n)].sum(axis=0) for _ in range(37)])
    for block in (10**9, 3 * n * (shape[1] if len(shape) > 1 else 1)):  # one block; blocks of 3 resamples
        monkeypatch.setattr(resampling, "_BLOCK", block)
        got = resampling.resampled_sums(values, 37, np.random.default_rng(8))
        assert np.array_equal(got, want)
