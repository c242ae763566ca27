"""rougekit.meta.correlation and .bootstrap: scipy cross-checks and the sacrerouge fixtures."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from _paths import SHARED, shared_missing

from rougekit.errors import OptionError
from rougekit.meta import bootstrap as B
from rougekit.meta import correlation as C
from rougekit.meta.tables import read_table

stats = pytest.importorskip("scipy.stats", reason="scipy is needed for the cross-checks")

FIXTURES = SHARED / "data" / "sacrerouge-fixtures"


# ----------------------------------------------------------------------------- helpers


def _ref(name, x, y):
    """scipy's value on pairwise-complete data, nan when undefined."""
    keep = ~(np.isnan(x) | np.isnan(y))
    x, y = x[keep], y[keep]
    if x.size < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return math.nan
    if name == "pearson":
        return stats.pearsonr(x, y)[0]
    if name == "spearman":
        return stats.spearmanr(x, y)[0]
    if name == "kendall":
        return stats.kendalltau(x, y)[0]
    return stats.kendalltau(x, y, variant="c")[0]


def _random_pair(rng, n_sys, n_inst, nan_frac=0.15, ties=False):
    if ties:
        X = rng.integers(0, 4, (n_sys, n_inst)).astype(float)
        Y = rng.integers(0, 3, (n_sys, n_inst)).astype(float)
    else:
        X = rng.normal(size=(n_sys, n_inst))
        Y = 0.5 * X + rng.normal(size=(n_sys, n_inst))
    X[rng.random(X.shape) < nan_frac] = np.nan
    Y[rng.random(Y.shape) < nan_frac] = np.nan
    return X, Y


COEFS = ["pearson", "spearman", "kendall", "kendall_c"]


# ----------------------------------------------------------------------------- coefficients


@pytest.mark.parametrize("coef", COEFS)
@pytest.mark.parametrize("ties", [False, True])
def test_coefficients_match_scipy_with_nans(coef, ties):
    rng = np.random.default_rng(7 + ties)
    func = C.get_coefficient(coef)
    for _ in range(150):
        n = int(rng.integers(2, 60))
        X, Y = _random_pair(rng, n, 1, 0.2, ties)
        got, want = func(X[:, 0], Y[:, 0]), _ref(coef, X[:, 0], Y[:, 0])
        if math.isnan(want):
            assert math.isnan(got)
        else:
            assert got == pytest.approx(want, rel=1e-12, abs=1e-14)


def test_rankdata_matches_scipy():
    rng = np.random.default_rng(3)
    for _ in range(50):
        a = rng.integers(0, 6, int(rng.integers(1, 40))).astype(float)
        np.testing.assert_array_equal(C.rankdata(a), stats.rankdata(a))


def test_undefined_cases_are_nan():
    assert math.isnan(C.pearson([1.0], [2.0]))
    assert math.isnan(C.pearson([1, 1, 1], [1, 2, 3]))
    assert math.isnan(C.spearman([1, 2, 3], [5, 5, 5]))
    assert math.isnan(C.kendall([1, 2, 3], [5, 5, 5]))
    assert math.isnan(C.kendall([1, 2, 3], [5, 5, 5], "c"))
    assert math.isnan(C.pearson([1, np.nan, 3], [np.nan, 2, 3]))  # 1 complete pair
    assert C.pearson([1, 2], [3, 1]) == -1.0  # two points: +-1, kept
    assert C.kendall([1, 2], [3, 4]) == 1.0


def test_kendall_variant_and_names():
    assert C.get_coefficient("tau-c")([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(
        stats.kendalltau([1, 2, 3, 4], [1, 3, 2, 4], variant="c")[0]
    )
    with pytest.raises(OptionError):
        C.get_coefficient("cosine")
    with pytest.raises(OptionError):
        C.kendall([1, 2], [1, 2], "a")
    with pytest.raises(OptionError):
        C.correlate(np.ones((2, 2)), np.ones((2, 2)), "corpus")


# ----------------------------------------------------------------------------- levels


def _ref_summary(coef, X, Y):
    vals = []
    for j in range(X.shape[1]):
        r = _ref(coef, X[:, j], Y[:, j])
        if not math.isnan(r):
            vals.append(r)
    return sum(vals) / len(vals) if vals else math.nan


def _ref_system(coef, X, Y):
    valid = ~(np.isnan(X) | np.isnan(Y))
    keep = valid.any(axis=1)
    xs = np.array([X[i, valid[i]].mean() for i in range(X.shape[0]) if keep[i]])
    ys = np.array([Y[i, valid[i]].mean() for i in range(X.shape[0]) if keep[i]])
    return _ref(coef, xs, ys)


@pytest.mark.parametrize("coef", COEFS)
@pytest.mark.parametrize("ties", [False, True])
def test_levels_match_scipy(coef, ties):
    rng = np.random.default_rng(11 + ties)
    for _ in range(25):
        X, Y = _random_pair(rng, int(rng.integers(3, 12)), int(rng.integers(1, 15)), 0.2, ties)
        for level, ref in (
            ("summary", _ref_summary),
            ("system", _ref_system),
            ("global", lambda c, a, b: _ref(c, a.ravel(), b.ravel())),
        ):
            got, want = C.correlate(X, Y, level, coef), ref(coef, X, Y)
            if math.isnan(want):
                assert math.isnan(got)
            else:
                assert got == pytest.approx(want, rel=1e-12, abs=1e-14), (level, coef)


def test_summary_level_skips_undefined_instances():
    X = np.array([[1.0, 1.0, 1.0, 0.3], [2.0, 1.0, np.nan, 0.1], [3.0, 1.0, np.nan, 0.2]])
    Y = np.array([[1.0, 2.0, 5.0, 0.0], [3.0, 1.0, 4.0, 1.0], [2.0, 3.0, 6.0, 2.0]])
    res = C.summary_level(X, Y, "pearson", details=True)
    # column 1: X constant -> skipped; column 2: one valid system -> skipped
    assert res.n_instances == 2 and res.n_skipped == 2
    assert res.value == pytest.approx(
        (stats.pearsonr([1, 2, 3], [1, 3, 2])[0] + stats.pearsonr([0.3, 0.1, 0.2], [0, 1, 2])[0]) / 2
    )
    assert list(res.n_systems) == [3, 3, 1, 3]
    assert math.isnan(C.summary_level(np.ones((3, 2)), Y[:, :2]))  # nothing defined


def test_system_level_uses_cells_valid_in_both_and_drops_empty_systems():
    X = np.array([[1.0, 9.0], [2.0, 2.0], [3.0, 5.0], [np.nan, np.nan]])
    Y = np.array([[1.0, np.nan], [2.0, 3.0], [4.0, 4.0], [1.0, 2.0]])
    xs, ys = C.system_means(X, Y)
    np.testing.assert_allclose(xs, [1.0, 2.0, 4.0])
    np.testing.assert_allclose(ys, [1.0, 2.5, 4.0])
    assert C.system_level(X, Y) == pytest.approx(stats.pearsonr(xs, ys)[0])


# ----------------------------------------------------------------------------- sacrerouge fixtures

_LEVEL = {"summary_level": "summary", "system_level": "system", "global": "global"}


def _fixture_tests():
    path = FIXTURES / "expected_correlations_multiling2011.json"
    if not path.exists():
        return []
    data = json.loads(path.read_text())
    return [(name, t) for name, t in data["tests"].items()]


@pytest.mark.skipif(not FIXTURES.exists(), reason=shared_missing(FIXTURES))
@pytest.mark.parametrize("name,spec", _fixture_tests() or [("none", None)])
def test_sacrerouge_expected_correlations(name, spec):
    if spec is None:
        pytest.skip(shared_missing(FIXTURES / "expected_correlations_multiling2011.json"))
    metric, human = spec["metrics"]
    where = {} if spec["summarizer_type"] == "all" else {"summarizer_type": spec["summarizer_type"]}
    table = read_table(
        FIXTURES / "multiling2011" / "metrics.jsonl",
        system_column="summarizer_id",
        instance_column="instance_id",
        columns=[metric, human],
        where=where,
    )
    X, Y = table.matrix(metric), table.matrix(human)
    for exp in spec["expected"]:
        got = C.correlate(X, Y, _LEVEL[exp["level"]], exp["coef"])
        value = exp["value"]
        if round(value, 4) == value and abs(value) not in (0.0, 1.0):
            # the source test states these to 4 decimals (e.g. 0.3333)
            assert got == pytest.approx(value, abs=5e-5), exp
        else:
            assert got == value, exp  # bit for bit
    valid = ~(np.isnan(X) | np.isnan(Y))
    counts = {c["level"]: c["value"] for c in spec["counts"]}
    assert C.summary_level(X, Y, "pearson", details=True).n_instances == counts["summary_level"]
    assert int(valid.any(axis=1).sum()) == counts["system_level"]
    assert int(valid.sum()) == counts["global"]


# ----------------------------------------------------------------------------- distributions


def test_distributions_match_scipy():
    for df in (1, 2, 3.5, 8, 30, 500):
        for t in (-40.0, -3.0, -0.5, 0.0, 0.7, 2.2, 12.0):
            assert C.t_sf(t, df) == pytest.approx(stats.t.sf(t, df), rel=1e-10, abs=1e-300)
            assert C.t_cdf(t, df) == pytest.approx(stats.t.cdf(t, df), rel=1e-10, abs=1e-300)
        for p in (0.0005, 0.025, 0.2, 0.5, 0.9, 0.975, 0.995):
            assert C.t_ppf(p, df) == pytest.approx(stats.t.ppf(p, df), rel=1e-9, abs=1e-12)
    for p in (1e-6, 0.025, 0.5, 0.975):
        assert C.normal_ppf(p) == pytest.approx(stats.norm.ppf(p), rel=1e-12)
    assert C.normal_cdf(1.3) == pytest.approx(stats.norm.cdf(1.3), rel=1e-14)


def test_paper_critical_value():
    """Lin 2004 §6: the 95% critical value of Pearson's r with 8 df is 0.632 (two-sided)."""
    for df, crit in ((8, 0.632), (10, 0.576), (12, 0.532), (14, 0.497), (16, 0.468)):
        t = C.t_ppf(0.975, df)
        assert t / math.sqrt(df + t * t) == pytest.approx(crit, abs=6e-4)


# ----------------------------------------------------------------------------- bootstrap


def test_bootstrap_ci_is_seeded_and_brackets_the_value():
    rng = np.random.default_rng(0)
    X, Y = _random_pair(rng, 12, 20, 0.1)
    for unit in B.RESAMPLE_UNITS:
        a = B.bootstrap_ci(X, Y, "system", "pearson", resample_unit=unit, samples=200, seed=5)
        b = B.bootstrap_ci(X, Y, "system", "pearson", resample_unit=unit, samples=200, seed=5)
        assert (a.low, a.high) == (b.low, b.high)
        assert a.low <= a.value <= a.high
        assert a.level == 95 and a.resample == unit and a.seed == 5 and a.n_valid == 200
    c = B.bootstrap_ci(X, Y, "system", "pearson", samples=200, seed=6)
    assert (c.low, c.high) != (a.low, a.high)


def test_bootstrap_distribution_follows_the_documented_resampling():
    rng = np.random.default_rng(1)
    X, Y = _random_pair(rng, 6, 5, 0.0)
    dist = B.bootstrap_distribution(X, Y, "global", "spearman", resample_unit="both", samples=20, seed=42)
    g = np.random.default_rng(42)
    for value in dist:
        rows, cols = g.integers(0, 6, 6), g.integers(0, 5, 5)
        want = C.correlate(X[np.ix_(rows, cols)], Y[np.ix_(rows, cols)], "global", "spearman")
        assert value == pytest.approx(want)
    pct = np.percentile(dist, [2.5, 97.5])
    ci = B.bootstrap_ci(X, Y, "global", "spearman", samples=20, seed=42)
    assert (ci.low, ci.high) == (pytest.approx(pct[0]), pytest.approx(pct[1]))


def test_fisher_ci_matches_scipy_pearson_interval():
    rng = np.random.default_rng(2)
    x = rng.normal(size=15)
    y = x + rng.normal(size=15)
    res = stats.pearsonr(x, y)
    if not hasattr(res, "confidence_interval"):
        pytest.skip("scipy too old for pearsonr(...).confidence_interval")
    want = res.confidence_interval(0.9)
    low, high = B.fisher_ci(res[0], 15, confidence=90)
    assert (low, high) == (pytest.approx(want.low, rel=1e-9), pytest.approx(want.high, rel=1e-9))
    # by hand
    r, n = 0.6, 28
    z = math.atanh(r)
    assert B.fisher_ci(r, n, 0.95) == (
        pytest.approx(math.tanh(z - 1.959963984540054 / 5)),
        pytest.approx(math.tanh(z + 1.959963984540054 / 5)),
    )
    lo, hi = B.fisher_ci(0.6, 28, 95, "kendall")
    se = math.sqrt(0.437 / 24)
    assert lo == pytest.approx(math.tanh(z - 1.959963984540054 * se))
    assert all(math.isnan(v) for v in B.fisher_ci(0.5, 3))


def test_fisher_interval_matrices_and_summary_refusal():
    rng = np.random.default_rng(3)
    X, Y = _random_pair(rng, 10, 4, 0.0)
    ci = B.fisher_interval(X, Y, "system", "pearson", confidence=95)
    assert ci.n == 10 and ci.low < ci.value < ci.high
    assert B.fisher_interval(X, Y, "global").n == 40
    with pytest.raises(OptionError):
        B.fisher_interval(X, Y, "summary")


def test_williams_hand_computed():
    r12, r13, r23, n = 0.8, 0.6, 0.5, 20
    k = 1 - 0.64 - 0.36 - 0.25 + 2 * 0.8 * 0.6 * 0.5  # 0.23
    denom = math.sqrt(2 * k * 19 / 17 + (1.4**2 / 4) * 0.5**3)
    t_hand = 0.2 * math.sqrt(19 * 1.5) / denom
    assert t_hand == pytest.approx(1.40760, abs=1e-5)
    t, p = B.williams_test(r12, r13, r23, n)
    assert t == pytest.approx(t_hand, rel=1e-12)
    assert p == pytest.approx(stats.t.sf(t_hand, 17), rel=1e-10)
    _, p2 = B.williams_test(r12, r13, r23, n, "two-sided")
    assert p2 == pytest.approx(2 * p)
    _, pl = B.williams_test(r12, r13, r23, n, "less")
    assert pl == pytest.approx(1 - p)
    assert B.williams_test(0.5, 0.5, 0.3, 10)[0] == 0.0
    with pytest.raises(OptionError):
        B.williams_test(0.5, 0.4, 0.3, 3)


def test_williams_compare_uses_system_correlations():
    rng = np.random.default_rng(4)
    Z = rng.normal(size=(15, 8))
    A = Z + 0.3 * rng.normal(size=Z.shape)
    Bm = Z + 3.0 * rng.normal(size=Z.shape)
    res = B.williams_compare(A, Bm, Z, "system", "pearson")
    r12 = C.system_level(A, Z)
    r13 = C.system_level(Bm, Z)
    r23 = C.system_level(A, Bm)
    assert res.statistic == pytest.approx(B.williams_test(r12, r13, r23, 15)[0])
    assert res.n == 15 and res.delta == pytest.approx(r12 - r13)
    with pytest.raises(OptionError):
        B.williams_compare(A, Bm, Z, "summary")


@pytest.mark.parametrize("test", [B.permutation_test, B.bootstrap_test])
def test_resampling_comparisons(test):
    rng = np.random.default_rng(5)
    Z = rng.normal(size=(12, 10))
    good = Z + 0.2 * rng.normal(size=Z.shape)
    bad = rng.normal(size=Z.shape)
    for unit in B.RESAMPLE_UNITS:
        res = test(good, bad, Z, "system", "pearson", resample_unit=unit, samples=200, seed=1)
        assert res.delta > 0.5 and res.p_value < 0.05
        again = test(good, bad, Z, "system", "pearson", resample_unit=unit, samples=200, seed=1)
        assert again.p_value == res.p_value
        rev = test(bad, good, Z, "system", "pearson", resample_unit=unit, samples=200, seed=1)
        assert rev.p_value > 0.9
    same = test(good, good, Z, "summary", "kendall", samples=50, seed=0)
    assert same.delta == 0.0 and same.p_value >= 0.5
