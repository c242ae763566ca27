"""rougekit.meta.significance: Lin & Hovy (2003) §4 regression t, R^2, significance agreement."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rougekit.errors import OptionError
from rougekit.meta import significance as S

stats = pytest.importorskip("scipy.stats", reason="scipy is needed for the cross-checks")


def _p_two_sided_normal(z):
    return math.erfc(abs(z) / math.sqrt(2.0))


# ----------------------------------------------------------------------------- regression


def test_linear_regression_matches_scipy_linregress():
    rng = np.random.default_rng(0)
    for _ in range(30):
        n = int(rng.integers(3, 40))
        x = rng.normal(size=n)
        y = 2 * x + rng.normal(size=n)
        x[rng.random(n) < 0.1] = np.nan
        keep = ~np.isnan(x)
        if keep.sum() < 3:
            continue
        want = stats.linregress(x[keep], y[keep])
        got = S.linear_regression(x, y)
        assert got.n == keep.sum() and got.df == keep.sum() - 2
        assert got.slope == pytest.approx(want.slope, rel=1e-12)
        assert got.intercept == pytest.approx(want.intercept, rel=1e-10, abs=1e-12)
        assert got.r == pytest.approx(want.rvalue, rel=1e-12)
        assert got.r_squared == pytest.approx(want.rvalue**2, rel=1e-12)
        assert got.p_value == pytest.approx(want.pvalue, rel=1e-8, abs=1e-300)
        assert got.stderr == pytest.approx(want.stderr, rel=1e-10)
        assert got.t == pytest.approx(want.slope / want.stderr, rel=1e-9)


def test_regression_t_hand_computed():
    # x = 1..4, y = 1, 3, 2, 4: r = 0.8, t = 0.8 * sqrt(2) / 0.6, R^2 = 0.64
    reg = S.linear_regression([1, 2, 3, 4], [1, 3, 2, 4])
    assert reg.r == pytest.approx(0.8)
    assert reg.r_squared == pytest.approx(0.64)
    assert reg.t == pytest.approx(0.8 * math.sqrt(2) / 0.6)
    assert reg.slope == pytest.approx(0.8) and reg.intercept == pytest.approx(0.5)
    assert math.isnan(S.t_from_r(0.5, 2))
    with pytest.raises(OptionError):
        S.linear_regression([1, 1, 1], [1, 2, 3])


@pytest.mark.parametrize(
    "r,n,lr_t,cd",
    [
        (0.907, 13, 7.130, 0.822),  # Table 2, single doc 100, Ngram(1,1): 11 df
        (0.965, 15, 13.230, 0.931),  # Table 2, multi-doc all, Ngram(1,1): 13 df
        (0.295, 13, 1.025, 0.087),  # Table 2, single doc, Ngram(1,4)
        (0.773, 15, 4.390, 0.597),  # Table 2, multi-doc 400, Ngram(1,4)
    ],
)
def test_lin_hovy_table2_lr_t_and_cd(r, n, lr_t, cd):
    """The paper's LR_t and CD follow from its (rounded) Pearson values with n - 2 df."""
    assert S.t_from_r(r, n) == pytest.approx(lr_t, rel=0.01)
    assert r * r == pytest.approx(cd, abs=1.5e-3)


# ----------------------------------------------------------------------------- pairwise tests

# 3 systems x 4 instances; hand-computed z-tests (sample variance 5/3 everywhere, se = sqrt(5/6))
METRIC = np.array(
    [
        [1.0, 2.0, 3.0, 4.0],  # A: mean 2.5
        [3.0, 4.0, 5.0, 6.0],  # B: mean 4.5
        [1.1, 2.1, 3.1, 4.1],
    ]
)  # C: mean 2.6
HUMAN = np.array(
    [
        [1.0, 2.0, 3.0, 4.0],  # A: mean 2.5
        [1.5, 2.5, 3.5, 4.5],  # B: mean 3.0
        [5.0, 6.0, 7.0, 8.0],
    ]
)  # C: mean 6.5
SE = math.sqrt(5.0 / 6.0)


def test_z_test_hand_computed():
    res = S.pairwise_tests(METRIC, test="z")
    assert res.pairs == [(0, 1), (0, 2), (1, 2)]
    np.testing.assert_allclose(res.statistic, [-2 / SE, -0.1 / SE, 1.9 / SE], rtol=1e-12)
    np.testing.assert_allclose(res.p_value, [_p_two_sided_normal(z) for z in res.statistic])
    assert res.p_value[0] == pytest.approx(0.02846, abs=1e-5)
    assert res.p_value[2] == pytest.approx(0.03740, abs=1e-5)


def test_z_test_agreement_counts_hand_computed():
    # metric p: AB 0.0285, AC 0.913, BC 0.0374; human p: AB 0.584, AC 1.2e-5, BC 1.3e-4
    out = {a.alpha: a for a in S.significance_agreement(METRIC, HUMAN, alphas=(0.10, 0.05, 0.03, 0.01))}
    a = out[0.05]
    assert (a.n_pairs, a.n_as, a.n_hs, a.n_hit) == (3, 2, 2, 1)
    assert a.recall == 0.5 and a.precision == 0.5
    a = out[0.10]
    assert (a.n_as, a.n_hs, a.n_hit) == (2, 2, 1)
    a = out[0.03]
    assert (a.n_as, a.n_hs, a.n_hit, a.recall, a.precision) == (1, 2, 0, 0.0, 0.0)
    a = out[0.01]
    assert (a.n_as, a.n_hs, a.n_hit, a.recall) == (0, 2, 0, 0.0) and math.isnan(a.precision)
    # B-C: the metric says B > C, the humans say C > B: not a hit when direction must agree
    strict = S.significance_agreement(METRIC, HUMAN, alphas=(0.05,), same_direction=True)[0]
    assert strict.n_hit == 0
    assert strict.to_dict()["N_As"] == 2 and strict.to_dict()["N_Hs"] == 2


def test_default_alphas_are_the_papers():
    assert S.DEFAULT_ALPHAS == (0.10, 0.05, 0.025, 0.01, 0.005)
    assert [a.alpha for a in S.significance_agreement(METRIC, HUMAN)] == list(S.DEFAULT_ALPHAS)


def test_t_tests_match_scipy():
    rng = np.random.default_rng(1)
    M = rng.normal(size=(5, 12)) + np.arange(5)[:, None] * 0.4
    M[rng.random(M.shape) < 0.15] = np.nan
    welch = S.pairwise_tests(M, test="t")
    paired = S.pairwise_tests(M, test="t", paired=True)
    zp = S.pairwise_tests(M, test="z", paired=True)
    for k, (i, j) in enumerate(welch.pairs):
        a, b = M[i][~np.isnan(M[i])], M[j][~np.isnan(M[j])]
        want = stats.ttest_ind(a, b, equal_var=False)
        assert welch.statistic[k] == pytest.approx(want.statistic, rel=1e-10)
        assert welch.p_value[k] == pytest.approx(want.pvalue, rel=1e-8)
        both = ~(np.isnan(M[i]) | np.isnan(M[j]))
        want = stats.ttest_rel(M[i][both], M[j][both])
        assert paired.statistic[k] == pytest.approx(want.statistic, rel=1e-10)
        assert paired.p_value[k] == pytest.approx(want.pvalue, rel=1e-8)
        assert zp.p_value[k] == pytest.approx(_p_two_sided_normal(want.statistic), rel=1e-10)


def test_paired_bootstrap_is_seeded_and_sensible():
    rng = np.random.default_rng(2)
    M = rng.normal(size=(4, 40))
    M[3] += 2.0  # system 3 is clearly better
    a = S.pairwise_tests(M, test="bootstrap", samples=500, seed=3)
    b = S.pairwise_tests(M, test="bootstrap", samples=500, seed=3)
    np.testing.assert_array_equal(a.p_value, b.p_value)
    for k, (i, j) in enumerate(a.pairs):
        if j == 3:
            assert a.p_value[k] < 0.01
    # the paired t-test and the bootstrap agree on which pairs differ at 0.01
    t = S.pairwise_tests(M, test="t", paired=True)
    assert list(a.p_value < 0.01) == list(t.p_value < 0.01)
    # identical scores: never significant
    same = S.pairwise_tests(np.tile(M[0], (2, 1)), test="bootstrap", samples=100)
    assert same.p_value[0] == 1.0


def test_agreement_of_metric_with_itself_is_perfect_and_masks_are_joint():
    rng = np.random.default_rng(4)
    H = rng.normal(size=(6, 30)) + np.arange(6)[:, None] * 0.3
    for test in ("z", "t", "bootstrap"):
        for a in S.significance_agreement(H, H, test=test, samples=200):
            assert a.n_hit == a.n_as == a.n_hs
            if a.n_hs:
                assert a.recall == a.precision == 1.0
    M = H.copy()
    M[0, :5] = np.nan  # the human cells there are left out too
    H2 = H.copy()
    H2[0, :5] = np.nan
    got = S.significance_agreement(M, H)
    want = S.significance_agreement(M, H2)
    assert [x.to_dict() for x in got] == [x.to_dict() for x in want]


def test_zero_variance_and_too_few_instances():
    M = np.array([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [1.0, 1.0, 1.0], [5.0, np.nan, np.nan]])
    res = S.pairwise_tests(M, test="z")
    assert res.p_value[0] == 0.0  # constant but different: infinitely significant
    assert res.p_value[1] == 1.0  # identical constants
    assert np.isnan(res.p_value[2])  # system 3 has one value
    with pytest.raises(OptionError):
        S.pairwise_tests(M, test="wilcoxon")
    with pytest.raises(OptionError):
        S.significance_agreement(M, M, alphas=(1.5,))
