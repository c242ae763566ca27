"""Seeded resampling: bootstrap index draws, percentile intervals, the percentile bootstrap of R/P/F.

Every draw comes from ``numpy.random.default_rng(seed)``. For a system x instance matrix a
resample draws system (row) indices, then instance (column) indices, each with replacement;
``unit`` says which are resampled: ``systems``, ``instances`` or ``both`` (the resampled matrix is
then the cross product). The script's own bootstrap (``-r``/``-c``, Perl's generator) is
:mod:`rougekit.stats.perl_bootstrap`.

>>> rows, cols = draws(3, 2, "both", samples=2, seed=0)
>>> rows.shape, cols.shape
((2, 3), (2, 2))
>>> percentile_interval(np.array([1.0, 2.0, np.nan, 3.0]), 0.5)
(1.5, 2.5)
"""

from __future__ import annotations

import math

import numpy as np

from rougekit import limits
from rougekit.errors import OptionError
from rougekit.scoring import ratios_array

__all__ = [
    "RESAMPLE_UNITS",
    "check_resample",
    "confidence_fraction",
    "draw",
    "draws",
    "percentile_bootstrap",
    "percentile_interval",
    "resample",
    "resampled_sums",
    "tail_percentiles",
    "take",
]

RESAMPLE_UNITS = ("systems", "instances", "both")
_BLOCK = 8_000_000  # values gathered at once by resampled_sums (64 MB)


def confidence_fraction(confidence: float) -> float:
    """95 or 0.95 -> 0.95. Values >= 1 are percentages."""
    c = float(confidence)
    if c >= 1.0:
        c /= 100.0
    if not 0.0 < c < 1.0:
        raise OptionError(f"confidence must be between 0 and 100 (exclusive), got {confidence}")
    return c


def check_resample(unit: str) -> str:
    """The canonical resampling unit: systems, instances or both."""
    key = str(unit).strip().lower()
    key = {"system": "systems", "instance": "instances", "inputs": "instances", "input": "instances"}.get(key, key)
    if key not in RESAMPLE_UNITS:
        raise OptionError(f"unknown resampling unit {unit!r} (choose from systems, instances, both)")
    return key


# ----------------------------------------------------------------------------- index draws


def draw(rng: np.random.Generator, n_rows: int, n_cols: int, unit: str):
    """One resample's (row indices, column indices); None for a unit not resampled."""
    rows = rng.integers(0, n_rows, n_rows) if unit in ("systems", "both") else None
    cols = rng.integers(0, n_cols, n_cols) if unit in ("instances", "both") else None
    return rows, cols


def draws(n_rows: int, n_cols: int, unit: str, samples: int, seed: int | None):
    """The indices of ``samples`` resamples at once: (samples x rows or None, samples x columns or
    None), the same draws as ``samples`` calls of :func:`draw` on ``default_rng(seed)``."""
    unit = check_resample(unit)
    samples = limits.samples(samples)
    rng = np.random.default_rng(limits.seed(seed))
    rows = np.empty((samples, n_rows), dtype=int) if unit in ("systems", "both") else None
    cols = np.empty((samples, n_cols), dtype=int) if unit in ("instances", "both") else None
    for b in range(samples):
        r, c = draw(rng, n_rows, n_cols, unit)
        if rows is not None:
            rows[b] = r
        if cols is not None:
            cols[b] = c
    return rows, cols


def take(matrices, rows, cols) -> list[np.ndarray]:
    """The resampled matrices for drawn indices (None = that unit kept whole)."""
    if cols is None:
        return [m[rows] for m in matrices]
    if rows is None:
        return [m[:, cols] for m in matrices]
    return [m[np.ix_(rows, cols)] for m in matrices]


def resample(rng: np.random.Generator, matrices, unit: str) -> list[np.ndarray]:
    """One bootstrap resample of parallel system x instance matrices."""
    unit = check_resample(unit)
    n_rows, n_cols = matrices[0].shape
    return take(matrices, *draw(rng, n_rows, n_cols, unit))


# ----------------------------------------------------------------------------- percentile intervals


def tail_percentiles(confidence: float, fraction: bool = False) -> tuple[float, float]:
    """The percentiles (0-100) bounding the central ``confidence`` interval, ``confidence`` in
    percent (95) or, with ``fraction``, as a fraction (0.95); the tail is computed in the unit
    given, so no conversion rounds it."""
    if fraction:
        tail = (1.0 - confidence) / 2.0
        return 100.0 * tail, 100.0 * (1.0 - tail)
    tail = (100 - confidence) / 2
    return tail, 100 - tail


def percentile_interval(values: np.ndarray, confidence: float) -> tuple[float, float]:
    """The percentile interval (linear interpolation) at ``confidence`` (a fraction: 0.95) of the
    values that are not NaN; (nan, nan) when there are none."""
    ok = values[~np.isnan(values)]
    if ok.size == 0:
        return math.nan, math.nan
    low, high = np.percentile(ok, tail_percentiles(confidence, fraction=True))
    return float(low), float(high)


def resampled_sums(values: np.ndarray, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Sums over the drawn rows of ``resamples`` bootstrap resamples of ``values`` (n, or n x k):
    the indices are ``rng.integers(0, n, size=(resamples, n))``, drawn a block of resamples at a
    time (the same draws, in bounded memory for any n). Divided by n: the resample means."""
    n = values.shape[0]
    width = int(np.prod(values.shape[1:], dtype=int))
    block = max(1, _BLOCK // max(1, n * width))
    sums = np.empty((resamples, *values.shape[1:]))
    for start in range(0, resamples, block):
        idx = rng.integers(0, n, size=(min(block, resamples - start), n))
        sums[start : start + len(idx)] = values[idx].sum(axis=1)
    return sums


def percentile_bootstrap(
    values: np.ndarray, tokens: bool, alpha: float, resamples: int, confidence: float, seed: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap over pairs of R/P/F at ``confidence`` percent: the (low, high) arrays
    of every column.

    ``values`` is n x 3k, a triple of columns per measure: (R, P, F) per pair, averaged; or with
    ``tokens`` (model count, peer count, hits), summed and turned into R, P, F. The resample indices
    are drawn once (``default_rng(seed)``, resamples x n) and shared by every measure, a block of
    resamples at a time (the same draws, in bounded memory for any n).
    """
    n, width = values.shape
    sums = resampled_sums(values, resamples, np.random.default_rng(seed))
    if tokens:
        rpf = ratios_array(sums[:, 0::3], sums[:, 1::3], sums[:, 2::3], alpha)
        stats = np.stack(rpf, axis=2).reshape(resamples, width)
    else:
        stats = sums / n
    lo, hi = np.percentile(stats, tail_percentiles(confidence), axis=0)
    return lo, hi
