"""Lin & Hovy (2003) §4: regression statistics and significance agreement with human judgments.

§4.1 reports, besides Spearman and Pearson, the *linear regression t-test* (LR_t, with n - 2
degrees of freedom: 11 for the 13 single-document systems, 13 for the 15 multi-document ones) and
the *coefficient of determination* (CD = R^2). For a simple regression t = r sqrt(n-2)/sqrt(1-r^2),
the t of the slope, so it does not matter which variable is the regressor (Table 2 checks:
r = 0.907, n = 13 -> t = 7.13). Both are computed in :mod:`rougekit.stats.regression`.

§4.2 asks whether the metric's significance predicts the humans'. For every pair of systems
(X, Y), test whether X and Y differ at level alpha under the metric and under the human scores;

- N_As: pairs the metric finds significantly different,
- N_Hs: pairs the human scores find significantly different,
- N_hit: pairs both find significantly different,
- recall = N_hit / N_Hs, precision = N_hit / N_As.

The paper uses the z-test at alpha = 0.10, 0.05, 0.025, 0.01 and 0.005 (its text prints "0.25"
for the third level, a typo among levels in decreasing order). A hit in the paper needs only that
both tests find a difference; ``same_direction=True`` also requires the same winner.

Tests per system pair, on the per-instance scores of each system (a cell counts only when both the
metric and the human score exist, so both tests see the same summaries):

``z`` (default)
    two-sample z-test of the means, z = (m_X - m_Y)/sqrt(s_X^2/n_X + s_Y^2/n_Y) (sample
    variances); ``paired=True``: z = mean(d)/(sd(d)/sqrt(n)) over shared instances.
``t``
    Welch's two-sample t-test; ``paired=True``: paired t-test over shared instances.
``bootstrap``
    paired bootstrap over shared instances: the resampled mean differences, shifted to mean 0,
    give the two-sided p = share with |shifted| >= |observed| (seeded ``default_rng(seed)``; the
    metric and the human scores of a pair use the same resampled instances).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from rougekit import limits
from rougekit.errors import OptionError
from rougekit.stats.levels import as_matrix
from rougekit.stats.paired import bootstrap_mean_test, paired_test, unpaired_test
from rougekit.stats.regression import Regression, linear_regression, t_from_r

__all__ = [
    "DEFAULT_ALPHAS",
    "SIGNIFICANCE_TESTS",
    "Agreement",
    "PairwiseTests",
    "Regression",
    "linear_regression",
    "pairwise_tests",
    "significance_agreement",
    "t_from_r",
]

DEFAULT_ALPHAS = (0.10, 0.05, 0.025, 0.01, 0.005)
SIGNIFICANCE_TESTS = ("z", "t", "bootstrap")


# ----------------------------------------------------------------------------- pairwise tests


@dataclass
class PairwiseTests:
    """p-values of every system pair (i < j); ``diff`` = mean_i - mean_j."""

    pairs: list[tuple[int, int]]
    statistic: np.ndarray = field(repr=False)
    p_value: np.ndarray = field(repr=False)
    diff: np.ndarray = field(repr=False)
    test: str = "z"
    paired: bool = False


def _check_test(test: str) -> str:
    key = str(test).strip().lower().replace("-test", "").replace("_test", "")
    if key not in SIGNIFICANCE_TESTS:
        raise OptionError(f"unknown significance test {test!r} (choose from z, t, bootstrap)")
    return key


def _bootstrap_pairs(S: np.ndarray, samples: int, seed: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n_sys = S.shape[0]
    rng = np.random.default_rng(limits.seed(seed))
    npairs = n_sys * (n_sys - 1) // 2
    stat = np.full(npairs, np.nan)
    pval = np.full(npairs, np.nan)
    diff = np.full(npairs, np.nan)
    k = 0
    for i in range(n_sys):
        for j in range(i + 1, n_sys):
            d = S[i] - S[j]
            d = d[~np.isnan(d)]
            if d.size >= 2:
                diff[k], pval[k] = bootstrap_mean_test(d, samples, rng)
                stat[k] = diff[k]
            k += 1
    return stat, pval, diff


def pairwise_tests(
    S, *, test: str = "z", paired: bool = False, samples: int = 1000, seed: int | None = 0
) -> PairwiseTests:
    """Two-sided tests of every system pair of one system x instance matrix (NaN = missing)."""
    S = as_matrix(S, "score matrix")
    test = _check_test(test)
    n_sys = S.shape[0]
    pairs = [(i, j) for i in range(n_sys) for j in range(i + 1, n_sys)]
    if test == "bootstrap":
        stat, pval, diff = _bootstrap_pairs(S, limits.samples(samples), seed)
        return PairwiseTests(pairs, stat, pval, diff, test, True)
    stat = np.full(len(pairs), np.nan)
    pval = np.full(len(pairs), np.nan)
    diff = np.full(len(pairs), np.nan)
    rows = [S[i][~np.isnan(S[i])] for i in range(n_sys)]
    for k, (i, j) in enumerate(pairs):
        if paired:
            d = S[i] - S[j]
            stat[k], pval[k], diff[k] = paired_test(d[~np.isnan(d)], test)
        else:
            stat[k], pval[k], diff[k] = unpaired_test(rows[i], rows[j], test)
    return PairwiseTests(pairs, stat, pval, diff, test, paired)


# ----------------------------------------------------------------------------- agreement


@dataclass
class Agreement:
    """Significance agreement at one alpha (Lin & Hovy 2003 §4.2)."""

    alpha: float
    n_pairs: int  # system pairs with both tests defined
    n_hit: int
    n_hs: int
    n_as: int
    recall: float  # n_hit / n_hs (nan when n_hs = 0)
    precision: float  # n_hit / n_as (nan when n_as = 0)

    def to_dict(self) -> dict:
        return {
            "alpha": self.alpha,
            "n_pairs": self.n_pairs,
            "N_hit": self.n_hit,
            "N_Hs": self.n_hs,
            "N_As": self.n_as,
            "recall": self.recall,
            "precision": self.precision,
        }


def significance_agreement(
    metric,
    human,
    alphas: Sequence[float] = DEFAULT_ALPHAS,
    *,
    test: str = "z",
    paired: bool = False,
    same_direction: bool = False,
    samples: int = 1000,
    seed: int | None = 0,
) -> list[Agreement]:
    """N_hit, N_Hs, N_As, recall and precision of the metric's pairwise significance.

    A pair is significant at alpha when its two-sided p < alpha.

    ``metric`` and ``human`` are system x instance matrices (NaN = missing); a cell is used only
    where both have a value. A system pair counts only when both tests are defined.
    """
    M = as_matrix(metric, "metric matrix")
    H = as_matrix(human, "human matrix")
    if M.shape != H.shape:
        raise OptionError(f"metric and human matrices differ in shape ({M.shape} vs {H.shape})")
    bad = np.isnan(M) | np.isnan(H)
    M = np.where(bad, np.nan, M)
    H = np.where(bad, np.nan, H)
    for a in alphas:
        if not 0.0 < float(a) < 1.0:
            raise OptionError(f"alpha must be between 0 and 1, got {a}")
    tm = pairwise_tests(M, test=test, paired=paired, samples=samples, seed=seed)
    th = pairwise_tests(H, test=test, paired=paired, samples=samples, seed=seed)
    defined = ~(np.isnan(tm.p_value) | np.isnan(th.p_value))
    agree_dir = np.sign(tm.diff) == np.sign(th.diff)
    out = []
    for a in alphas:
        a = float(a)
        sig_m = defined & (tm.p_value < a)
        sig_h = defined & (th.p_value < a)
        hit = sig_m & sig_h
        if same_direction:
            hit &= agree_dir
        n_hit, n_hs, n_as = int(hit.sum()), int(sig_h.sum()), int(sig_m.sum())
        out.append(
            Agreement(
                alpha=a,
                n_pairs=int(defined.sum()),
                n_hit=n_hit,
                n_hs=n_hs,
                n_as=n_as,
                recall=n_hit / n_hs if n_hs else math.nan,
                precision=n_hit / n_as if n_as else math.nan,
            )
        )
    return out
