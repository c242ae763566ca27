"""Confidence intervals for correlations, and tests of whether one metric correlates better.

Lin (2004, §6) estimated 95% confidence intervals of every correlation by bootstrap resampling;
Deutsch, Dror & Roth (2021, "A statistical analysis of summarization evaluation metrics using
resampling methods") showed that which units are resampled matters: ``systems`` (rows),
``instances`` (columns) or ``both`` (rows and columns drawn independently; the resampled matrix is
their cross product). All resampling is seeded with ``numpy.random.default_rng(seed)``; for each
resample the row indices are drawn before the column indices.

Intervals are percentile intervals over the resamples whose correlation is defined (a resample can
make a column constant); ``n_valid`` says how many that was. Fisher-z intervals use
``tanh(atanh(r) +- z * se)`` with se = 1/sqrt(n-3) for Pearson (exact asymptotics), and the usual
approximations for the rank coefficients: sqrt((1 + r^2/2)/(n-3)) for Spearman (Bonett & Wright
2000) and sqrt(0.437/(n-4)) for Kendall (Fieller, Hartley & Pearson 1957).

Comparing metric A with metric B against the same human scores Z (H1 by default: A correlates
better, ``alternative="greater"``):

- :func:`williams_test`: Williams (1959) t for dependent correlations sharing Z (Graham & Baldwin
  2014 form), df = n - 3; system level (n = systems) or global level (n = cells).
- :func:`permutation_test`: both metrics are standardized (z-scores over their valid cells), then
  per resample each unit (system row, instance column or cell) swaps its A and B scores with
  probability 1/2; p = share of permutations whose delta is at least the observed delta.
- :func:`bootstrap_test`: the resampled deltas, shifted to mean 0 (the null), give p = share of
  shifted deltas at least the observed delta.

Cells missing in any of A, B or Z are removed from all three before a comparison.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from rougekit import limits
from rougekit.errors import OptionError
from rougekit.stats.correlation import canonical_coefficient, get_coefficient
from rougekit.stats.distributions import normal_ppf, t_cdf, t_sf
from rougekit.stats.levels import as_matrix, check_level, check_pair, correlate, level_size
from rougekit.stats.resampling import (
    check_resample,
    confidence_fraction,
    percentile_interval,
    resample,
)

__all__ = [
    "ComparisonResult",
    "CorrelationCI",
    "bootstrap_ci",
    "bootstrap_distribution",
    "bootstrap_test",
    "correlation_ci",
    "fisher_ci",
    "fisher_interval",
    "permutation_test",
    "williams_compare",
    "williams_test",
]

ALTERNATIVES = ("greater", "less", "two-sided")


@dataclass
class CorrelationCI:
    """A correlation with an interval. ``level`` is the confidence in percent (e.g. 95.0)."""

    value: float
    low: float
    high: float
    level: float
    method: str  # "bootstrap" or "fisher"
    coefficient: str
    correlation_level: str  # system, summary or global
    resample: str | None = None
    samples: int | None = None
    seed: int | None = None
    n_valid: int | None = None  # bootstrap: resamples with a defined correlation
    n: int | None = None  # fisher: the n used

    def to_dict(self) -> dict:
        d = asdict(self)
        return {k: v for k, v in d.items() if v is not None or k in ("value", "low", "high")}


@dataclass
class ComparisonResult:
    """Whether metric A correlates better with Z than metric B does."""

    test: str
    value_a: float
    value_b: float
    delta: float  # value_a - value_b
    statistic: float  # Williams: t; resampling tests: the observed delta
    p_value: float
    alternative: str
    n: int | None = None
    samples: int | None = None
    seed: int | None = None
    resample: str | None = None


# ----------------------------------------------------------------------------- helpers


def _check_alternative(alternative: str) -> str:
    key = str(alternative).strip().lower().replace("_", "-")
    key = {"two-tailed": "two-sided", "two": "two-sided", "2": "two-sided"}.get(key, key)
    if key not in ALTERNATIVES:
        raise OptionError(f"unknown alternative {alternative!r} (choose from greater, less, two-sided)")
    return key


def _joint_nan(*matrices: np.ndarray) -> list[np.ndarray]:
    bad = np.zeros(matrices[0].shape, dtype=bool)
    for m in matrices:
        bad |= np.isnan(m)
    out = []
    for m in matrices:
        m = m.copy()
        m[bad] = np.nan
        out.append(m)
    return out


# ----------------------------------------------------------------------------- intervals


def bootstrap_distribution(
    X,
    Y,
    level: str = "system",
    coefficient: str = "pearson",
    *,
    resample_unit: str = "both",
    samples: int = 1000,
    seed: int | None = 0,
) -> np.ndarray:
    """The correlations of ``samples`` bootstrap resamples (nan where undefined)."""
    X, Y = check_pair(X, Y)
    level = check_level(level)
    func = get_coefficient(coefficient)
    samples = limits.samples(samples)
    unit = check_resample(resample_unit)
    rng = np.random.default_rng(limits.seed(seed))
    out = np.empty(samples)
    for b in range(samples):
        xs, ys = resample(rng, (X, Y), unit)
        out[b] = correlate(xs, ys, level, func)
    return out


def bootstrap_ci(
    X,
    Y,
    level: str = "system",
    coefficient: str = "pearson",
    *,
    resample_unit: str = "both",
    samples: int = 1000,
    seed: int | None = 0,
    confidence: float = 95,
) -> CorrelationCI:
    """Percentile bootstrap interval of the correlation at ``level``."""
    conf = confidence_fraction(confidence)
    unit = check_resample(resample_unit)
    name = coefficient if isinstance(coefficient, str) else getattr(coefficient, "__name__", "?")
    dist = bootstrap_distribution(X, Y, level, coefficient, resample_unit=unit, samples=samples, seed=seed)
    low, high = percentile_interval(dist, conf)
    return CorrelationCI(
        value=correlate(X, Y, level, coefficient),
        low=low,
        high=high,
        level=round(conf * 100.0, 10),
        method="bootstrap",
        coefficient=canonical_coefficient(name) if isinstance(coefficient, str) else name,
        correlation_level=check_level(level),
        resample=unit,
        samples=int(samples),
        seed=seed,
        n_valid=int(np.count_nonzero(~np.isnan(dist))),
    )


def _fisher_se(r: float, n: int, coefficient: str) -> float:
    coefficient = canonical_coefficient(coefficient)
    if coefficient == "pearson":
        return 1.0 / math.sqrt(n - 3) if n > 3 else math.nan
    if coefficient == "spearman":
        return math.sqrt((1.0 + r * r / 2.0) / (n - 3)) if n > 3 else math.nan
    return math.sqrt(0.437 / (n - 4)) if n > 4 else math.nan


def fisher_ci(r: float, n: int, confidence: float = 95, coefficient: str = "pearson") -> tuple[float, float]:
    """Fisher-z interval ``tanh(atanh(r) -+ z_{1-alpha/2} * se)`` (nan if n is too small)."""
    conf = confidence_fraction(confidence)
    if r is None or math.isnan(r):
        return math.nan, math.nan
    se = _fisher_se(r, n, coefficient)
    if math.isnan(se):
        return math.nan, math.nan
    if abs(r) >= 1.0:
        return float(r), float(r)
    z = math.atanh(r)
    crit = normal_ppf(1.0 - (1.0 - conf) / 2.0)
    return math.tanh(z - crit * se), math.tanh(z + crit * se)


def fisher_interval(
    X, Y, level: str = "system", coefficient: str = "pearson", *, confidence: float = 95
) -> CorrelationCI:
    """Fisher-z interval of the system-level or global correlation (n = systems or cells)."""
    level = check_level(level)
    if level == "summary":
        raise OptionError("Fisher intervals need one n: use --level system or global, or --ci bootstrap")
    coef = canonical_coefficient(coefficient)
    value = correlate(X, Y, level, coef)
    n = level_size(X, Y, level)
    low, high = fisher_ci(value, n, confidence, coef)
    return CorrelationCI(
        value=value,
        low=low,
        high=high,
        level=round(confidence_fraction(confidence) * 100.0, 10),
        method="fisher",
        coefficient=coef,
        correlation_level=level,
        n=n,
    )


def correlation_ci(
    X,
    Y,
    level: str = "system",
    coefficient: str = "pearson",
    *,
    method: str = "bootstrap",
    resample_unit: str = "both",
    samples: int = 1000,
    seed: int | None = 0,
    confidence: float = 95,
) -> CorrelationCI:
    """Dispatch to :func:`bootstrap_ci` or :func:`fisher_interval`."""
    method = str(method).lower()
    if method == "bootstrap":
        return bootstrap_ci(
            X, Y, level, coefficient, resample_unit=resample_unit, samples=samples, seed=seed, confidence=confidence
        )
    if method == "fisher":
        return fisher_interval(X, Y, level, coefficient, confidence=confidence)
    raise OptionError(f"unknown interval method {method!r} (choose from bootstrap, fisher)")


# ----------------------------------------------------------------------------- comparisons


def williams_test(r12: float, r13: float, r23: float, n: int, alternative: str = "greater") -> tuple[float, float]:
    """Williams' t for H0: rho12 = rho13, variable 1 shared; returns (t, p), df = n - 3.

    r12 = corr(Z, A), r13 = corr(Z, B), r23 = corr(A, B).
    """
    alternative = _check_alternative(alternative)
    if n <= 3:
        raise OptionError(f"Williams' test needs n > 3, got n = {n}")
    if any(v is None or math.isnan(v) for v in (r12, r13, r23)):
        return math.nan, math.nan
    k = 1.0 - r12 * r12 - r13 * r13 - r23 * r23 + 2.0 * r12 * r13 * r23
    denom_sq = 2.0 * k * (n - 1) / (n - 3) + ((r12 + r13) ** 2 / 4.0) * (1.0 - r23) ** 3
    num = (r12 - r13) * math.sqrt((n - 1) * (1.0 + r23))
    if denom_sq <= 0.0:
        if num == 0.0:
            return 0.0, 1.0
        t = math.copysign(math.inf, num)
    else:
        t = num / math.sqrt(denom_sq)
    df = n - 3
    if alternative == "greater":
        p = t_sf(t, df)
    elif alternative == "less":
        p = t_cdf(t, df)
    else:
        p = min(1.0, 2.0 * t_sf(abs(t), df))
    return t, p


def _prepare_comparison(XA, XB, Z):
    XA = as_matrix(XA, "metric A matrix")
    XB = as_matrix(XB, "metric B matrix")
    Z = as_matrix(Z, "human matrix")
    if not XA.shape == XB.shape == Z.shape:
        raise OptionError(f"matrices differ in shape ({XA.shape}, {XB.shape}, {Z.shape})")
    return _joint_nan(XA, XB, Z)


def williams_compare(
    XA, XB, Z, level: str = "system", coefficient: str = "pearson", *, alternative: str = "greater"
) -> ComparisonResult:
    """Williams' test that metric A correlates with Z better than metric B does."""
    level = check_level(level)
    if level == "summary":
        raise OptionError(
            "Williams' test needs one n: use level system or global (or a resampling test for summary level)"
        )
    XA, XB, Z = _prepare_comparison(XA, XB, Z)
    r12 = correlate(XA, Z, level, coefficient)
    r13 = correlate(XB, Z, level, coefficient)
    r23 = correlate(XA, XB, level, coefficient)
    n = level_size(XA, Z, level)
    t, p = williams_test(r12, r13, r23, n, alternative)
    return ComparisonResult("williams", r12, r13, r12 - r13, t, p, _check_alternative(alternative), n=n)


def _p_from_null(null: np.ndarray, observed: float, alternative: str) -> float:
    ok = null[~np.isnan(null)]
    if ok.size == 0 or math.isnan(observed):
        return math.nan
    if alternative == "greater":
        return float(np.mean(ok >= observed))
    if alternative == "less":
        return float(np.mean(ok <= observed))
    return float(np.mean(np.abs(ok) >= abs(observed)))


def _resampling_test(test, null_of, XA, XB, Z, level, coefficient, resample_unit, samples, seed, alternative):
    """A two-measure comparison whose p is read from the deltas ``null_of`` draws (seeded rng)."""
    level = check_level(level)
    unit = check_resample(resample_unit)
    alternative = _check_alternative(alternative)
    samples = limits.samples(samples)
    func = get_coefficient(coefficient)
    XA, XB, Z = _prepare_comparison(XA, XB, Z)
    ra = correlate(XA, Z, level, func)
    rb = correlate(XB, Z, level, func)
    observed = ra - rb
    null = null_of(np.random.default_rng(limits.seed(seed)), XA, XB, Z, level, unit, samples, func)
    p = _p_from_null(null, observed, alternative)
    return ComparisonResult(test, ra, rb, observed, observed, p, alternative, samples=samples, seed=seed, resample=unit)


def _standardize(m: np.ndarray) -> np.ndarray:
    vals = m[~np.isnan(m)]
    if vals.size < 2:
        return m
    sd = vals.std()
    return (m - vals.mean()) / sd if sd > 0 else m - vals.mean()


def permutation_test(
    XA,
    XB,
    Z,
    level: str = "system",
    coefficient: str = "pearson",
    *,
    resample_unit: str = "both",
    samples: int = 1000,
    seed: int | None = 0,
    alternative: str = "greater",
) -> ComparisonResult:
    """Permutation test of corr(A, Z) - corr(B, Z), swapping A and B per system/instance/cell."""
    return _resampling_test(
        "permutation", _permutation_null, XA, XB, Z, level, coefficient, resample_unit, samples, seed, alternative
    )


def bootstrap_test(
    XA,
    XB,
    Z,
    level: str = "system",
    coefficient: str = "pearson",
    *,
    resample_unit: str = "both",
    samples: int = 1000,
    seed: int | None = 0,
    alternative: str = "greater",
) -> ComparisonResult:
    """Bootstrap test of corr(A, Z) - corr(B, Z); the null is the resampled deltas shifted to 0."""
    return _resampling_test(
        "bootstrap", _bootstrap_null, XA, XB, Z, level, coefficient, resample_unit, samples, seed, alternative
    )


def _permutation_null(rng, XA, XB, Z, level, unit, samples, func) -> np.ndarray:
    """The deltas of ``samples`` permutations of the standardized A and B scores."""
    A, B = _standardize(XA), _standardize(XB)
    n_sys, n_inst = A.shape
    null = np.empty(samples)
    for s in range(samples):
        if unit == "systems":
            swap = np.broadcast_to((rng.random(n_sys) < 0.5)[:, None], A.shape)
        elif unit == "instances":
            swap = np.broadcast_to((rng.random(n_inst) < 0.5)[None, :], A.shape)
        else:
            swap = rng.random(A.shape) < 0.5
        pa = np.where(swap, B, A)
        pb = np.where(swap, A, B)
        null[s] = correlate(pa, Z, level, func) - correlate(pb, Z, level, func)
    return null


def _bootstrap_null(rng, XA, XB, Z, level, unit, samples, func) -> np.ndarray:
    """The deltas of ``samples`` bootstrap resamples, the defined ones shifted to mean 0."""
    deltas = np.empty(samples)
    for s in range(samples):
        a, b, z = resample(rng, (XA, XB, Z), unit)
        deltas[s] = correlate(a, z, level, func) - correlate(b, z, level, func)
    ok = deltas[~np.isnan(deltas)]
    return ok - ok.mean() if ok.size else ok
