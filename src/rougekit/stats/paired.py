"""Significance tests of the difference between two systems' scores.

Pure functions over per-pair score vectors ``a`` and ``b`` (same length, same order) or their
differences ``d``: approximate randomization and the paired bootstrap (``rougekit compare``),
the bootstrap of a mean difference with a shifted null, and the z and t tests of two means
(Lin & Hovy 2003 §4.2, :mod:`rougekit.meta.significance`).

>>> r = approximate_randomization([0.5, 0.6, 0.7, 0.8], [0.5, 0.6, 0.7, 0.8], trials=200, seed=1)
>>> r.delta, r.p_value
(0.0, 1.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rougekit import limits
from rougekit.stats.distributions import normal_sf, t_sf
from rougekit.stats.resampling import resampled_sums, tail_percentiles

#: randomization trials and bootstrap resamples of the paired tests, the one default of
#: ``rougekit compare``, ``rougekit report`` and the functions below: the Monte Carlo error of a
#: p near 0.05 is then sqrt(0.05 * 0.95 / 10000) = 0.0022 (0.0069 with 1,000), and p can reach 1e-4
DEFAULT_TRIALS = 10000

#: both p-values are two-sided: a difference in either direction counts against the null
SIDEDNESS = "two-sided"

#: the null hypothesis each test's p-value is computed under, as the outputs state it
NULL_HYPOTHESES = {
    "approximate-randomization": "the two systems' scores of each pair are exchangeable",
    "paired-bootstrap": "the mean per-pair difference (system - baseline) is 0",
}


def describe_tests(trials: int, seed: int, confidence: float) -> list[str]:
    """The lines that say what the paired tests' p-values mean (``rougekit compare``'s text output)."""
    return [
        f"p-values are {SIDEDNESS}; {trials} trials each, seed {seed}; {confidence:g}% bootstrap interval of delta",
        f"p (AR): approximate randomization, H0: {NULL_HYPOTHESES['approximate-randomization']}",
        f"p (boot): paired bootstrap, H0: {NULL_HYPOTHESES['paired-bootstrap']}",
    ]


@dataclass(frozen=True)
class PairedTest:
    """Mean difference b - a, two-sided p-value, and how it was obtained."""

    delta: float
    p_value: float
    method: str
    trials: int
    seed: int
    low: float | None = None
    high: float | None = None


def _check(trials, seed, confidence: float | None = None) -> None:
    """The documented ranges (:mod:`rougekit.limits`); OptionError outside them."""
    limits.whole("trials", trials, 1, limits.MAX_RESAMPLES)
    limits.whole("seed", seed, 0, limits.MAX_SEED)
    if confidence is not None:
        limits.fraction("confidence", confidence, 0, 100, open_ends=True)


def _vectors(a, b) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("paired tests need two vectors of the same length")
    return x, y


def approximate_randomization(a, b, trials: int = DEFAULT_TRIALS, seed: int = 0) -> PairedTest:
    """Two-sided approximate randomization (Noreen 1989; Riezler & Maxwell 2005). H0: within each
    pair the two scores are exchangeable.

    Each trial swaps the two systems' scores of every pair with probability 1/2;
    p = (1 + #{|mean diff| >= observed}) / (1 + trials).
    """
    _check(trials, seed)
    x, y = _vectors(a, b)
    observed = float(np.mean(y - x)) if len(x) else 0.0
    rng = np.random.default_rng(seed)
    diff = y - x
    hits = 0
    block = 1000
    for start in range(0, trials, block):
        size = min(block, trials - start)
        signs = rng.integers(0, 2, size=(size, len(x))) * 2 - 1
        means = (signs * diff).mean(axis=1) if len(x) else np.zeros(size)
        hits += int(np.sum(np.abs(means) >= abs(observed) - 1e-12))
    return PairedTest(observed, (hits + 1) / (trials + 1), "approximate-randomization", trials, seed)


def paired_bootstrap(a, b, trials: int = DEFAULT_TRIALS, seed: int = 0, confidence: float = 95.0) -> PairedTest:
    """Paired bootstrap (Koehn 2004) with the null-shifted, two-sided p-value of Berg-Kirkpatrick et al.
    (2012), H0: the mean difference is 0. Resample pairs; p = (1 + #{|Δ* - Δ| >= |Δ|}) / (1 + trials);
    plus a percentile interval of Δ."""
    _check(trials, seed, confidence)
    x, y = _vectors(a, b)
    n = len(x)
    observed = float(np.mean(y - x)) if n else 0.0
    if n == 0:
        return PairedTest(0.0, 1.0, "paired-bootstrap", trials, seed, 0.0, 0.0)
    rng = np.random.default_rng(seed)
    deltas = resampled_means(y - x, trials, rng)
    p = (1 + int(np.sum(np.abs(deltas - observed) >= abs(observed) - 1e-12))) / (1 + trials)
    lo, hi = np.percentile(deltas, tail_percentiles(confidence))
    return PairedTest(observed, float(p), "paired-bootstrap", trials, seed, float(lo), float(hi))


def resampled_means(values: np.ndarray, samples: int, rng: np.random.Generator) -> np.ndarray:
    """The means of ``samples`` bootstrap resamples of a vector (:func:`resampled_sums` / n)."""
    return resampled_sums(values, samples, rng) / values.size


def bootstrap_mean_test(d: np.ndarray, samples: int, rng: np.random.Generator) -> tuple[float, float]:
    """(mean of d, two-sided p of H0: mean 0): the resampled means, shifted to mean 0 (the null),
    give p = share with |shifted| >= |observed| (1 when the observed mean is 0)."""
    means = resampled_means(d, samples, rng)
    observed = float(d.mean())
    shifted = means - means.mean()
    return observed, float(np.mean(np.abs(shifted) >= abs(observed))) if observed != 0 else 1.0


def _two_sided(stat: float, df: float | None) -> float:
    if math.isnan(stat):
        return math.nan
    if df is None:
        return min(1.0, 2.0 * normal_sf(abs(stat)))
    return min(1.0, 2.0 * t_sf(abs(stat), df))


def _ratio(num: float, den: float) -> float:
    if den > 0.0:
        return num / den
    if num == 0.0:
        return 0.0  # identical scores: no evidence of a difference (p = 1)
    return math.copysign(math.inf, num)


def unpaired_test(a: np.ndarray, b: np.ndarray, test: str = "z") -> tuple[float, float, float]:
    """(statistic, two-sided p, mean a - mean b): the two-sample z test (``test="z"``, sample
    variances) or Welch's t test (``"t"``); nan when a side has fewer than 2 values."""
    na, nb = a.size, b.size
    if na < 2 or nb < 2:
        return math.nan, math.nan, math.nan
    va, vb = a.var(ddof=1), b.var(ddof=1)
    diff = float(a.mean() - b.mean())
    se2 = va / na + vb / nb
    stat = _ratio(diff, math.sqrt(se2))
    if test == "z":
        return stat, _two_sided(stat, None), diff
    # Welch-Satterthwaite degrees of freedom
    num = se2 * se2
    den = (va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1)
    df = num / den if den > 0 else float(na + nb - 2)
    return stat, _two_sided(stat, df), diff


def paired_test(d: np.ndarray, test: str = "z") -> tuple[float, float, float]:
    """(statistic, two-sided p, mean d) of the paired z (``test="z"``) or t test (``"t"``, n - 1
    degrees of freedom) on the differences ``d``; nan with fewer than 2."""
    n = d.size
    if n < 2:
        return math.nan, math.nan, math.nan
    diff = float(d.mean())
    se = math.sqrt(d.var(ddof=1) / n)
    stat = _ratio(diff, se)
    return stat, _two_sided(stat, None if test == "z" else n - 1), diff


def signed(x) -> str:
    """A difference as ``%+.5f``, one that rounds to zero as +0.00000 (never -0.00000)."""
    shown = f"{float(x):+.5f}"
    return "+0.00000" if shown == "-0.00000" else shown
