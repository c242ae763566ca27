"""Correlation coefficients: Pearson r, Spearman rho, Kendall tau-b and tau-c, once.

Two forms of the same coefficients:

- scalar (:func:`pearson`, :func:`spearman`, :func:`kendall`): two vectors, pairwise-complete
  (a position missing, NaN, on either side is dropped); undefined values are ``nan``. Their
  arithmetic is that of the scipy functions sacrerouge's published values came from, bit for bit.
- batched (:func:`prepare`, :func:`combine`, :func:`batch_correlation`): many rows at once (one
  bootstrap resample per row, no NaN), for the resampled correlations of the Lin (2004) protocol.
  Each row is turned once into a vector whose dot product with the other side's gives the
  coefficient, so a metric's resamples are prepared once and paired with every human column.
  The values equal the scalar ones up to rounding in the last bits.

>>> pearson([1, 2, 3, 4], [1, 3, 2, 4])
0.8
>>> round(float(batch_correlation([[1, 2, 3, 4]], [[1, 3, 2, 4]], "kendall")[0]), 12)
0.666666666667
"""

from __future__ import annotations

import math
from typing import Callable, NamedTuple

import numpy as np

from rougekit.errors import OptionError

__all__ = [
    "BATCHED",
    "COEFFICIENTS",
    "Prepared",
    "batch_correlation",
    "canonical_coefficient",
    "combine",
    "get_coefficient",
    "kendall",
    "pairwise_complete",
    "pearson",
    "prepare",
    "rankdata",
    "ranks",
    "spearman",
]

CorrFunc = Callable[[np.ndarray, np.ndarray], float]


# ----------------------------------------------------------------------------- scalar form


def pairwise_complete(x, y) -> tuple[np.ndarray, np.ndarray]:
    """1-D float copies of x and y with every position missing in either removed."""
    x = np.asarray(x, dtype=float).ravel()
    y = np.asarray(y, dtype=float).ravel()
    if x.shape != y.shape:
        raise OptionError(f"x and y differ in length ({x.size} vs {y.size})")
    keep = ~(np.isnan(x) | np.isnan(y))
    if keep.all():
        return x, y
    return x[keep], y[keep]


def pearson(x, y) -> float:
    """Pearson's r of the pairwise-complete values; nan when n < 2 or either side is constant."""
    x, y = pairwise_complete(x, y)
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
    x, y = pairwise_complete(x, y)
    if x.size < 2 or np.ptp(x) == 0.0 or np.ptp(y) == 0.0:
        return math.nan
    # the covariance-matrix arithmetic of numpy.corrcoef (as scipy.stats.spearmanr uses), so the
    # last bit agrees with the published sacrerouge values
    if x.size == 2:  # exactly +-1 (the fixtures' 2-system values are exact)
        return float(np.sign(x[1] - x[0]) * np.sign(y[1] - y[0]))
    r = float(np.corrcoef(rankdata(x), rankdata(y))[1, 0])
    return max(-1.0, min(1.0, r))


def _tied_pairs(sorted_values: np.ndarray) -> int:
    """The pairs of equal values in a sorted array: the sum of t(t-1)/2 over its runs of t equal values."""
    if sorted_values.size < 2:
        return 0
    starts = np.flatnonzero(np.concatenate(([True], sorted_values[1:] != sorted_values[:-1], [True])))
    runs = np.diff(starts)
    return int(np.sum(runs * (runs - 1) // 2))


def _inversions(ranks: np.ndarray) -> int:
    """The pairs i < j with ranks[i] > ranks[j] (non-negative ints), by a bottom-up merge sort whose
    levels run in numpy: each right half's elements count the larger ones of their left half."""
    n = ranks.size
    top = int(ranks.max()) + 1 if n else 1
    values = ranks.astype(np.int64)
    position = np.arange(n, dtype=np.int64)
    total = 0
    width = 1
    while width < n:
        block = position // width
        pair = block // 2
        right = (block % 2) == 1
        keys = pair * top + values  # each block sorted, and blocks in order: the left halves' keys sorted
        left_keys = keys[~right]
        ends = np.cumsum(np.bincount(pair[~right], minlength=int(pair[-1]) + 1))
        found = np.searchsorted(left_keys, keys[right], side="right")
        total += int(np.sum(ends[pair[right]] - found))
        order = np.argsort(keys, kind="stable")  # the two halves of each pair merged
        values = values[order]
        width *= 2
    return total


def _kendall_counts(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """(S, pairs untied in x, pairs untied in y) over i < j, where S = concordant - discordant.

    Knight's counting in O(n log n) (the pairwise signs took n^2: 24,000 cells, 5.8e8 pairs a call):
    sorted by (x, y), the discordant pairs are the inversions of y; S = n0 - n1 - n2 + n3 - 2 D with
    n0 all pairs, n1/n2 the pairs tied in x/y and n3 those tied in both. Whole numbers, the same as
    summing the pairs' signs."""
    n = x.size
    order = np.lexsort((y, x))
    xs, ys = x[order], y[order]
    n0 = n * (n - 1) // 2
    n1 = _tied_pairs(xs)
    n2 = _tied_pairs(np.sort(y))
    if n > 1:  # pairs tied in both: runs of equal (x, y) in the sorted order
        same = np.concatenate(([False], (xs[1:] == xs[:-1]) & (ys[1:] == ys[:-1])))
        starts = np.flatnonzero(~same)
        runs = np.diff(np.concatenate((starts, [n])))
        n3 = int(np.sum(runs * (runs - 1) // 2))
    else:
        n3 = 0
    ranks = np.unique(ys, return_inverse=True)[1].reshape(-1)
    discordant = _inversions(ranks)
    s = n0 - n1 - n2 + n3 - 2 * discordant
    return float(s), float(n0 - n1), float(n0 - n2)


def kendall(x, y, variant: str = "b") -> float:
    """Kendall's tau-b (default, ties corrected) or tau-c (Stuart's, ``variant="c"``)."""
    variant = variant.lower()
    if variant not in ("b", "c"):
        raise OptionError(f"Kendall variant must be 'b' or 'c', got {variant!r}")
    x, y = pairwise_complete(x, y)
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


# ----------------------------------------------------------------------------- batched form

BATCHED = ("pearson", "spearman", "kendall")  # the coefficients :func:`prepare` handles


class Prepared(NamedTuple):
    """One side of a batched correlation: per-row ``vectors`` whose dot products give the
    coefficient, the number of ``untied`` pairs per row (Kendall only, else None), and the rows
    where the coefficient is ``undefined`` (a constant row)."""

    vectors: np.ndarray
    untied: np.ndarray | None
    undefined: np.ndarray


def ranks(x: np.ndarray) -> np.ndarray:
    """Average ranks (ties share the mean of the ranks they span) along the last axis:
    :func:`rankdata` of every row at once."""
    less = (x[..., None, :] < x[..., :, None]).sum(axis=-1)
    equal = (x[..., None, :] == x[..., :, None]).sum(axis=-1)
    return less + (equal + 1) / 2.0


def prepare(values, coefficient: str, chunk: int = 100) -> Prepared:
    """The batched form of ``values``: the last axis holds the observations (no NaN), the others
    the rows (e.g. resamples x instances). Arrays of more than two axes are prepared in blocks of
    ``chunk`` along the first (bounded temporaries)."""
    xr = np.asarray(values, dtype=float)
    coefficient = canonical_coefficient(coefficient)
    if coefficient not in BATCHED:
        raise OptionError(f"the batched correlation supports {', '.join(BATCHED)}, got {coefficient!r}")
    if xr.ndim <= 2 or xr.shape[0] <= chunk:
        return _prepare_block(xr, coefficient)
    parts = [_prepare_block(xr[b : b + chunk], coefficient) for b in range(0, xr.shape[0], chunk)]
    return Prepared(
        np.concatenate([p.vectors for p in parts]),
        None if parts[0].untied is None else np.concatenate([p.untied for p in parts]),
        np.concatenate([p.undefined for p in parts]),
    )


def _prepare_block(xr: np.ndarray, coefficient: str) -> Prepared:
    """Pearson and Spearman: the centred (rank) vector over its norm; Kendall tau-b: the signs of
    the pairs i < j and the number of untied pairs."""
    n = xr.shape[-1]
    bad = np.ptp(xr, axis=-1) == 0
    if coefficient in ("pearson", "spearman"):
        v = ranks(xr) if coefficient == "spearman" else xr
        vm = v - v.mean(axis=-1, keepdims=True)
        norm = np.sqrt((vm * vm).sum(axis=-1))
        bad = bad | (norm == 0)
        with np.errstate(invalid="ignore", divide="ignore"):
            return Prepared(vm / norm[..., None], None, bad)
    i, j = np.triu_indices(n, 1)
    dtype = np.int8 if len(i) <= 127 else (np.int16 if len(i) <= 32767 else np.int64)
    signs = np.sign(xr[..., i] - xr[..., j]).astype(dtype)
    untied = np.count_nonzero(signs, axis=-1).astype(float)
    return Prepared(signs, untied, bad | (untied == 0))


def combine(px: Prepared, py: Prepared) -> np.ndarray:
    """The coefficient of every row from two :func:`prepare` results (nan where undefined)."""
    (ax, ux, bx), (ay, uy, by) = px, py
    if ux is None:
        with np.errstate(invalid="ignore"):
            r = np.einsum("...k,...k->...", ax, ay)
    else:
        s = np.einsum("...k,...k->...", ax, ay).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            r = s / np.sqrt(ux) / np.sqrt(uy)
    r = np.clip(r, -1.0, 1.0)
    r[bx | by] = np.nan
    return r


def batch_correlation(x, y, coefficient: str = "pearson") -> np.ndarray:
    """The coefficient of every row of ``x`` with the same row of ``y`` (no NaN allowed)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape:
        raise OptionError(f"x and y differ in shape ({x.shape} vs {y.shape})")
    if np.isnan(x).any() or np.isnan(y).any():
        raise OptionError("the batched correlation takes no missing values (use the scalar coefficients)")
    return combine(prepare(x, coefficient), prepare(y, coefficient))
