"""Correlation of an automatic measure with human judgments over system x instance matrices.

Every function takes matrices with one row per system and one column per instance (document or
document set); ``NaN`` marks a missing score. A cell takes part only when *both* matrices have a
value there (pairwise-complete), which equals sacrerouge's behaviour whenever the two matrices have
their NaNs in the same places (sacrerouge asserts that they do).

Levels (as in sacrerouge and the SummEval / REALSumm papers):

``system``
    mean of each system's valid cells, then one correlation across systems (Lin 2004 §6: "systems'
    average ROUGE scores and their human assigned average coverage scores"). Systems with no valid
    cell are left out.
``summary``
    one correlation per instance across the systems that have a value there, then the plain mean
    over instances. An instance whose correlation is undefined (fewer than 2 valid systems or a
    constant column) is skipped, exactly as sacrerouge skips NaN correlations. Two valid systems
    give +-1 and are *kept* (the sacrerouge fixture with 2 references per instance needs that).
``global``
    one correlation over all valid cells.

Coefficients: Pearson r, Spearman rho (Pearson of average ranks), Kendall tau-b (the scipy
default, used by sacrerouge) or tau-c (Stuart). Undefined values are ``nan`` (sacrerouge: None).

Also here, because the sibling modules need them: the normal distribution (from the standard
library) and Student's t (from scipy, the ``stats`` extra, imported only when a t test runs).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Callable

import numpy as np

from rougekit.errors import OptionError

__all__ = [
    "COEFFICIENTS",
    "LEVELS",
    "SummaryLevelResult",
    "as_matrix",
    "correlate",
    "get_coefficient",
    "global_level",
    "kendall",
    "normal_cdf",
    "normal_ppf",
    "pearson",
    "rankdata",
    "spearman",
    "summary_level",
    "system_level",
    "system_means",
    "t_cdf",
    "t_ppf",
    "t_sf",
]

LEVELS = ("system", "summary", "global")

CorrFunc = Callable[[np.ndarray, np.ndarray], float]


# ----------------------------------------------------------------------------- input helpers


def as_matrix(a, name: str = "matrix") -> np.ndarray:
    """A float 2-D array (a 1-D input becomes one column per value: shape (n, 1))."""
    m = np.asarray(a, dtype=float)
    if m.ndim == 1:
        m = m[:, None]
    if m.ndim != 2:
        raise OptionError(f"{name} must be a 2-D system x instance matrix, got {m.ndim} dimensions")
    return m


def _pair(x, y) -> tuple[np.ndarray, np.ndarray]:
    """1-D float copies of x and y with every position missing in either removed."""
    x = np.asarray(x, dtype=float).ravel()
    y = np.asarray(y, dtype=float).ravel()
    if x.shape != y.shape:
        raise OptionError(f"x and y differ in length ({x.size} vs {y.size})")
    keep = ~(np.isnan(x) | np.isnan(y))
    if keep.all():
        return x, y
    return x[keep], y[keep]


def _check_pair(X, Y) -> tuple[np.ndarray, np.ndarray]:
    X = as_matrix(X, "metric matrix")
    Y = as_matrix(Y, "human matrix")
    if X.shape != Y.shape:
        raise OptionError(f"metric and human matrices differ in shape ({X.shape} vs {Y.shape})")
    return X, Y


# ----------------------------------------------------------------------------- coefficients


def pearson(x, y) -> float:
    """Pearson's r of the pairwise-complete values; nan when n < 2 or either side is constant."""
    x, y = _pair(x, y)
    n = x.size
    if n < 2:
        return math.nan
    if np.ptp(x) == 0.0 or np.ptp(y) == 0.0:
        return math.nan
    if n == 2:  # exactly +-1, as scipy.stats.pearsonr returns
        return float(np.sign(x[1] - x[0]) * np.sign(y[1] - y[0]))
    xm = x - x.mean()
    ym = y - y.mean()
    # the textbook form sum(xy) / sqrt(sum(xx) * sum(yy)), the arithmetic of the scipy pearsonr
    # that produced sacrerouge's expected values (bit for bit on all the fixtures)
    den = math.sqrt(float(np.add.reduce(xm * xm)) * float(np.add.reduce(ym * ym)))
    if den == 0.0:
        return math.nan
    r = float(np.add.reduce(xm * ym)) / den
    return max(-1.0, min(1.0, r))


def rankdata(a) -> np.ndarray:
    """Ranks 1..n of a 1-D array, ties sharing the mean of the ranks they span."""
    a = np.asarray(a, dtype=float).ravel()
    n = a.size
    order = np.argsort(a, kind="mergesort")
    sorted_a = a[order]
    # start index of each run of equal values, and the run each sorted position belongs to
    new_run = np.empty(n, dtype=bool)
    if n:
        new_run[0] = True
        new_run[1:] = sorted_a[1:] != sorted_a[:-1]
    run_id = np.cumsum(new_run) - 1
    starts = np.flatnonzero(new_run)
    ends = np.append(starts[1:], n)  # exclusive
    mean_rank = (starts + 1 + ends) / 2.0  # mean of ranks starts+1 .. ends
    ranks = np.empty(n, dtype=float)
    ranks[order] = mean_rank[run_id]
    return ranks


def spearman(x, y) -> float:
    """Spearman's rho: Pearson's r of the average ranks (ties averaged)."""
    x, y = _pair(x, y)
    if x.size < 2 or np.ptp(x) == 0.0 or np.ptp(y) == 0.0:
        return math.nan
    # the covariance-matrix arithmetic of numpy.corrcoef (as scipy.stats.spearmanr uses), so the
    # last bit agrees with the published sacrerouge values
    if x.size == 2:  # exactly +-1 (the fixtures' 2-system values are exact)
        return float(np.sign(x[1] - x[0]) * np.sign(y[1] - y[0]))
    r = float(np.corrcoef(rankdata(x), rankdata(y))[1, 0])
    return max(-1.0, min(1.0, r))


def _kendall_counts(x: np.ndarray, y: np.ndarray, chunk: int = 2048) -> tuple[float, float, float]:
    """(S, pairs untied in x, pairs untied in y) over i < j, where S = concordant - discordant."""
    n = x.size
    s = 0.0
    untied_x = 0.0
    untied_y = 0.0
    for start in range(0, n, chunk):
        stop = min(n, start + chunk)
        dx = np.sign(x[start:stop, None] - x[None, :])
        dy = np.sign(y[start:stop, None] - y[None, :])
        s += float(np.sum(dx * dy))
        untied_x += float(np.count_nonzero(dx))
        untied_y += float(np.count_nonzero(dy))
    # every unordered pair was seen twice (i, j) and (j, i) with the same product
    return s / 2.0, untied_x / 2.0, untied_y / 2.0


def kendall(x, y, variant: str = "b") -> float:
    """Kendall's tau-b (default, ties corrected) or tau-c (Stuart's, ``variant="c"``)."""
    variant = variant.lower()
    if variant not in ("b", "c"):
        raise OptionError(f"Kendall variant must be 'b' or 'c', got {variant!r}")
    x, y = _pair(x, y)
    n = x.size
    if n < 2 or np.ptp(x) == 0.0 or np.ptp(y) == 0.0:
        return math.nan
    s, untied_x, untied_y = _kendall_counts(x, y)
    if variant == "b":
        if untied_x == 0.0 or untied_y == 0.0:
            return math.nan
        tau = s / math.sqrt(untied_x) / math.sqrt(untied_y)
    else:
        m = min(np.unique(x).size, np.unique(y).size)
        tau = 2.0 * s / (n * n * (m - 1) / m)
    return max(-1.0, min(1.0, tau))


def _kendall_c(x, y) -> float:
    return kendall(x, y, "c")


COEFFICIENTS: dict[str, CorrFunc] = {
    "pearson": pearson,
    "spearman": spearman,
    "kendall": kendall,
    "kendall_b": kendall,
    "kendall_c": _kendall_c,
}

_ALIASES = {
    "r": "pearson",
    "rho": "spearman",
    "tau": "kendall",
    "tau_b": "kendall",
    "tau-b": "kendall",
    "kendall-b": "kendall",
    "kendall_tau_b": "kendall",
    "tau_c": "kendall_c",
    "tau-c": "kendall_c",
    "kendall-c": "kendall_c",
    "kendall_tau_c": "kendall_c",
}


def canonical_coefficient(name: str) -> str:
    """The canonical coefficient name: ``pearson``, ``spearman``, ``kendall`` or ``kendall_c``."""
    key = str(name).strip().lower()
    key = _ALIASES.get(key, key)
    if key == "kendall_b":
        key = "kendall"
    if key not in COEFFICIENTS:
        raise OptionError(
            f"unknown correlation coefficient {name!r} (choose from pearson, spearman, kendall, kendall_c)"
        )
    return key


def get_coefficient(coefficient: str | CorrFunc) -> CorrFunc:
    """A coefficient function from its name (or the function itself)."""
    if callable(coefficient):
        return coefficient
    return COEFFICIENTS[canonical_coefficient(coefficient)]


def _check_level(level: str) -> str:
    key = str(level).strip().lower().replace("-", "_")
    key = {
        "system_level": "system",
        "summary_level": "summary",
        "global_level": "global",
        "input": "summary",
        "instance": "summary",
    }.get(key, key)
    if key not in LEVELS:
        raise OptionError(f"unknown correlation level {level!r} (choose from system, summary, global)")
    return key


# ----------------------------------------------------------------------------- levels


def system_means(X, Y) -> tuple[np.ndarray, np.ndarray]:
    """Per-system means of X and Y over the cells valid in both; systems with none are dropped."""
    X, Y = _check_pair(X, Y)
    valid = ~(np.isnan(X) | np.isnan(Y))
    counts = valid.sum(axis=1)
    keep = counts > 0
    xs = np.where(valid, X, 0.0).sum(axis=1)[keep] / counts[keep]
    ys = np.where(valid, Y, 0.0).sum(axis=1)[keep] / counts[keep]
    return xs, ys


def system_level(X, Y, coefficient: str | CorrFunc = "pearson") -> float:
    """Correlation of the per-system mean scores."""
    func = get_coefficient(coefficient)
    xs, ys = system_means(X, Y)
    return float(func(xs, ys))


@dataclass
class SummaryLevelResult:
    """A summary-level correlation with its parts."""

    value: float
    n_instances: int  # instances whose correlation was defined and averaged
    n_skipped: int  # instances skipped (undefined correlation)
    per_instance: np.ndarray = field(repr=False)  # one value per instance column, nan = skipped
    n_systems: np.ndarray = field(repr=False)  # valid systems per instance column


def summary_level(
    X, Y, coefficient: str | CorrFunc = "pearson", *, details: bool = False
) -> float | SummaryLevelResult:
    """Mean over instances of the correlation across systems; undefined instances are skipped.

    With ``details=True`` returns a :class:`SummaryLevelResult`.
    """
    func = get_coefficient(coefficient)
    X, Y = _check_pair(X, Y)
    valid = ~(np.isnan(X) | np.isnan(Y))
    n_inst = X.shape[1]
    per = np.full(n_inst, np.nan)
    counts = valid.sum(axis=0)
    for j in range(n_inst):
        if counts[j] < 2:
            continue
        keep = valid[:, j]
        per[j] = func(X[keep, j], Y[keep, j])
    ok = ~np.isnan(per)
    n_ok = int(ok.sum())
    # a plain left-to-right mean in instance order, the way sacrerouge averages its list
    value = sum(per[ok].tolist()) / n_ok if n_ok else math.nan
    if details:
        return SummaryLevelResult(value, n_ok, n_inst - n_ok, per, counts)
    return value


def global_level(X, Y, coefficient: str | CorrFunc = "pearson") -> float:
    """Correlation over every cell valid in both matrices."""
    func = get_coefficient(coefficient)
    X, Y = _check_pair(X, Y)
    # instance by instance (column-major): the order of a summaries file grouped by instance,
    # which sacrerouge's fixtures were computed in (it matters in the last bit only)
    return float(func(X.ravel(order="F"), Y.ravel(order="F")))


def correlate(X, Y, level: str = "system", coefficient: str | CorrFunc = "pearson") -> float:
    """The correlation of X with Y at ``level`` (system, summary or global)."""
    level = _check_level(level)
    if level == "system":
        return system_level(X, Y, coefficient)
    if level == "summary":
        return float(summary_level(X, Y, coefficient))
    return global_level(X, Y, coefficient)


def level_size(X, Y, level: str) -> int:
    """The n a parametric test uses at ``level``: valid systems, or valid cells (global).

    Summary level has no single n; it returns the number of instances with a defined value
    under Pearson (informational only).
    """
    level = _check_level(level)
    X, Y = _check_pair(X, Y)
    valid = ~(np.isnan(X) | np.isnan(Y))
    if level == "system":
        return int((valid.sum(axis=1) > 0).sum())
    if level == "global":
        return int(valid.sum())
    return int(summary_level(X, Y, "pearson", details=True).n_instances)


# ----------------------------------------------------------------------------- distributions

_STD_NORMAL = NormalDist()


def normal_cdf(z: float) -> float:
    """P(Z <= z) for a standard normal Z."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z (accurate in the upper tail)."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def normal_ppf(p: float) -> float:
    """The standard normal quantile."""
    if not 0.0 < p < 1.0:
        if p == 0.0:
            return -math.inf
        if p == 1.0:
            return math.inf
        return math.nan
    return _STD_NORMAL.inv_cdf(p)


def _scipy_t():
    """scipy's Student t distribution (the ``stats`` extra), imported when first needed."""
    try:
        from scipy import stats
    except ImportError:  # pragma: no cover - depends on the installation
        raise OptionError("this statistic needs scipy: pip install 'rougekit[stats]'") from None
    return stats.t


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom (scipy)."""
    return float(_scipy_t().sf(t, df))


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom (scipy)."""
    return float(_scipy_t().cdf(t, df))


def t_ppf(p: float, df: float) -> float:
    """The Student t quantile (scipy)."""
    return float(_scipy_t().ppf(p, df))
