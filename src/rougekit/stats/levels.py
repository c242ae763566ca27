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

The coefficients are those of :mod:`rougekit.stats.correlation`. :func:`resampled_levels` and
:func:`summary_mean` are the batched counterparts of the levels, for bootstrap resamples.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from rougekit._sums import mean_in_order
from rougekit.errors import OptionError
from rougekit.stats.correlation import CorrFunc, get_coefficient

__all__ = [
    "LEVELS",
    "SummaryLevelResult",
    "as_matrix",
    "check_level",
    "check_pair",
    "exact_grid",
    "correlate",
    "global_level",
    "keep_ties",
    "level_size",
    "resampled_levels",
    "summary_level",
    "summary_mean",
    "system_level",
    "system_means",
    "why_undefined",
]

LEVELS = ("system", "summary", "global")


def as_matrix(a, name: str = "matrix") -> np.ndarray:
    """A float 2-D array (a 1-D input becomes one column per value: shape (n, 1))."""
    m = np.asarray(a, dtype=float)
    if m.ndim == 1:
        m = m[:, None]
    if m.ndim != 2:
        raise OptionError(f"{name} must be a 2-D system x instance matrix, got {m.ndim} dimensions")
    return m


def check_pair(X, Y) -> tuple[np.ndarray, np.ndarray]:
    """Two float matrices of the same shape (metric, human)."""
    X = as_matrix(X, "metric matrix")
    Y = as_matrix(Y, "human matrix")
    if X.shape != Y.shape:
        raise OptionError(f"metric and human matrices differ in shape ({X.shape} vs {Y.shape})")
    return X, Y


def check_level(level: str) -> str:
    """The canonical level name: system, summary or global."""
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


#: the grids exact means are taken on, finest first: decimals of up to 12 places, then decimals of up
#: to 7 places over any denominator dividing 27720 = lcm(1..12) (a mean of 3 annotators' ratings:
#: 8/3 = 2.6666666666666665); coarser ones keep the sums of long rows below 2**53
_GRIDS = ((10**12, *(10**p for p in range(11, -1, -1))), tuple(27720 * 10**p for p in range(7, -1, -1)))


def _odd_part(n: int) -> int:
    return n // (n & -n)


def exact_grid(M: np.ndarray, cells: int | None = None) -> tuple[np.ndarray, float] | None:
    """``(R, scale)`` when every number in ``M`` is the double nearest a fraction ``k / scale`` (a score
    read from text, ``0.30000``, or a mean of a few ratings, ``8/3``; see ``_GRIDS``): ``R`` holds the
    whole numbers ``k`` (NaN cells 0), so sums of up to ``cells`` of them (default: all) are exact.
    ``None`` for other numbers (``1/97``), or when a sum could pass 2**53.

    Means taken as ``sum(R) / (n * scale)`` are the exact mean correctly rounded: two systems whose
    scores have the same mean in exact arithmetic get the same double (0.1 and 0.5 vs 0.2 and 0.4:
    0.3 both, where float sums give 0.3 and 0.30000000000000004 and rank a tie as an order).
    """
    missing = np.isnan(M)
    values = M[~missing] if missing.any() else M
    cells = max(values.size if cells is None else cells, 1)
    biggest = float(np.abs(values).max()) if values.size else 0.0
    for family in _GRIDS:
        # the finest grid of a family first: a number off it is off every coarser one of the family
        for scale in family:
            if biggest * scale >= 2.0**53:  # rint cannot tell here (every double is whole): no verdict
                continue
            whole = np.rint(values * scale)
            if not np.all(whole / scale == values):
                break
            # exact sums, and an exact divisor n * scale for every n <= cells
            if biggest * scale * cells < 2.0**53 and cells * _odd_part(scale) < 2**53:
                return (np.where(missing, 0.0, np.rint(M * scale)) if values is not M else whole), float(scale)
    return None


def keep_ties(means: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """``means`` with the values whose ``exact`` mean (last axis) equals others' made one: each takes
    the float mean of the first of them (in input order), so a tie in decimal arithmetic stays a tie,
    and every other float mean, and a tie of equal float means (a system drawn twice), is left bit for
    bit as it was (sacrerouge's published system-level values depend on the last bit)."""
    order = np.argsort(exact, axis=-1, kind="stable")
    ranked = np.take_along_axis(exact, order, axis=-1)
    starts = np.ones(ranked.shape, dtype=bool)
    starts[..., 1:] = ranked[..., 1:] != ranked[..., :-1]
    positions = np.broadcast_to(np.arange(ranked.shape[-1]), ranked.shape)
    first = np.maximum.accumulate(np.where(starts, positions, 0), axis=-1)  # each one's group's first
    chosen = np.take_along_axis(np.take_along_axis(means, order, axis=-1), first, axis=-1)
    out = np.empty_like(chosen)
    np.put_along_axis(out, order, chosen, axis=-1)
    return out


def _maybe_tied(means: np.ndarray, abs_means: np.ndarray, cells: int) -> bool:
    """Whether two float means are near enough that their exact means may be equal: within the error
    bound of a float sum of ``cells`` numbers (``cells`` x 2**-52 of the sum of magnitudes), doubled.
    Non-finite means (an inf or nan cell) take the float means as they are."""
    if means.size < 2 or not np.isfinite(abs_means).all():
        return False
    order = np.argsort(means, kind="stable")
    gaps = np.diff(means[order])
    slack = 4.0 * cells * 2.0**-52 * np.maximum(abs_means[order][1:], abs_means[order][:-1])
    # equal float means are a tie already (a resampled system drawn twice): only near ones need a look
    return bool(((gaps > 0) & (gaps <= slack)).any())


def _row_means(M: np.ndarray, valid: np.ndarray, keep: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Mean of each kept row's valid cells; equal exact means of decimal scores are kept equal."""
    cells = M if valid.all() else np.where(valid, M, 0.0)  # a left-out cell adds 0 (on every grid)
    means = cells.sum(axis=1)[keep] / counts[keep]
    if not _maybe_tied(means, np.abs(cells).sum(axis=1)[keep] / counts[keep], M.shape[1]):
        return means  # no two means near enough to be equal in exact arithmetic (the common case)
    grid = exact_grid(cells, M.shape[1])
    if grid is None:  # other numbers (1/97): the correctly rounded sum of the doubles, so a row
        # holding the same values in another order still ties
        exact = np.array([math.fsum(row) for row in cells[keep]]) / counts[keep]
    else:
        R, scale = grid
        exact = R.sum(axis=1)[keep] / (counts[keep] * scale)
    if np.unique(exact).size == exact.size:  # no tie: the float means as they were
        return means
    return keep_ties(means, exact)


def system_means(X, Y) -> tuple[np.ndarray, np.ndarray]:
    """Per-system means of X and Y over the cells valid in both; systems with none are dropped.

    Scores with at most 12 decimals (every score file) are averaged exactly, so equal means are
    equal doubles and a tie stays a tie for Spearman and Kendall (:func:`exact_grid`).
    """
    X, Y = check_pair(X, Y)
    valid = ~(np.isnan(X) | np.isnan(Y))
    counts = valid.sum(axis=1)
    keep = counts > 0
    return _row_means(X, valid, keep, counts), _row_means(Y, valid, keep, counts)


def system_level(X, Y, coefficient: str | CorrFunc = "pearson") -> float:
    """Correlation of the per-system mean scores."""
    func = get_coefficient(coefficient)
    xs, ys = system_means(X, Y)
    return float(func(xs, ys))


def why_undefined(X, Y) -> str | None:
    """Why the system-level correlation of X with Y is nan, for a front end to print beside it (a nan
    is not warned here: bootstrap resamples meet constant means all the time); None when defined.

    >>> why_undefined([[0.1, 0.5], [0.2, 0.4]], [[1.0, 1.0], [2.0, 2.0]])
    "system-level correlation undefined: the metric's system means (over paired instances) are all 0.3"
    """
    xs, ys = system_means(X, Y)
    if xs.size < 2:
        return f"system-level correlation undefined: {xs.size} system(s) with paired scores, it needs 2"
    same = [(name, float(v[0])) for name, v in (("metric", xs), ("human", ys)) if np.ptp(v) == 0]
    if not same:
        return None
    said = " and ".join(f"the {name}'s system means (over paired instances) are all {v:.10g}" for name, v in same)
    return f"system-level correlation undefined: {said}"


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
    X, Y = check_pair(X, Y)
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
    value = mean_in_order(per[ok].tolist(), math.nan)
    if details:
        return SummaryLevelResult(value, n_ok, n_inst - n_ok, per, counts)
    return value


def global_level(X, Y, coefficient: str | CorrFunc = "pearson") -> float:
    """Correlation over every cell valid in both matrices."""
    func = get_coefficient(coefficient)
    X, Y = check_pair(X, Y)
    # instance by instance (column-major): the order of a summaries file grouped by instance,
    # which sacrerouge's fixtures were computed in (it matters in the last bit only)
    return float(func(X.ravel(order="F"), Y.ravel(order="F")))


def correlate(X, Y, level: str = "system", coefficient: str | CorrFunc = "pearson") -> float:
    """The correlation of X with Y at ``level`` (system, summary or global)."""
    level = check_level(level)
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
    level = check_level(level)
    X, Y = check_pair(X, Y)
    valid = ~(np.isnan(X) | np.isnan(Y))
    if level == "system":
        return int((valid.sum(axis=1) > 0).sum())
    if level == "global":
        return int(valid.sum())
    return int(summary_level(X, Y, "pearson", details=True).n_instances)


# ----------------------------------------------------------------------------- batched levels


def resampled_levels(M: np.ndarray, rows, cols, level: str) -> np.ndarray:
    """The values a level correlates, for every resample of a matrix without NaN: ``rows``
    (resamples x systems) and ``cols`` (resamples x instances) are drawn indices, None for a unit
    not resampled. System level: (resamples, systems) means; summary level: (resamples,
    instances, systems)."""
    if level == "system":
        if cols is None:
            means = M.mean(axis=1)
        else:
            means = np.stack([M[:, c].mean(axis=1) for c in cols])  # (B, systems)
        # equal exact means of decimal scores stay equal, as in system_means
        grid = exact_grid(M, M.shape[1])
        if grid is not None:
            R, scale = grid
            n = M.shape[1]
            if cols is None:
                means = keep_ties(means, R.sum(axis=1) / (n * scale))
            else:
                means = keep_ties(means, np.stack([R[:, c].sum(axis=1) / (len(c) * scale) for c in cols]))
        if cols is None:
            return means[rows]
        return means if rows is None else np.take_along_axis(means, rows, axis=1)
    if cols is None:
        return np.transpose(M[rows], (0, 2, 1))  # (B, inst, sys)
    if rows is None:
        return np.transpose(M[:, cols], (1, 2, 0))
    return np.stack([M[np.ix_(r, c)].T for r, c in zip(rows, cols)])


def summary_mean(r: np.ndarray) -> np.ndarray:
    """Summary level from per-instance correlations (last axis): the mean of the defined ones."""
    ok = ~np.isnan(r)
    n = ok.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, np.where(ok, r, 0.0).sum(axis=-1) / n, np.nan)
