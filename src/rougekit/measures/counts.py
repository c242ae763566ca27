"""What a family's counting takes and gives: processed summaries and per-reference statistics.

A :class:`Doc` is one processed summary (token ids, joined and by sentence); a family's
``reference_stats`` returns a :class:`RefStats` (hits, reference count, candidate count, and the
rank ``-f B`` keeps the best reference by). :mod:`rougekit.scoring` turns them into R/P/F under
the multi-reference rules (and gives these names too).

>>> ratio_stats(3, 4, 5).score
0.75
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rougekit._core._pure import round5 as round5


@dataclass
class Doc:
    """One processed summary: joined tokens (readText) and sentence tokens (readText_LCS)."""

    tokens: list[int]
    sentences: list[list[int]]
    be_keys: dict[str, int] | None = field(default=None)


@dataclass(frozen=True)
class RefStats:
    """Statistics of a candidate against one reference; ``score`` ranks references for ``-f B``."""

    hits: int | float
    model_count: int | float
    peer_count: int | float
    score: float


def round5_array(values):
    """Each value (0 or more) as ``float("%7.5f" % value)``, vectorised: the scaled value's nearest
    whole number, divided back (one correctly rounded division, as the string is read back); where
    the scaled value lies within 1e-6 of a half (a tie or the product's rounding could decide), the
    string itself."""
    import numpy as np  # here: rougekit rouge155 loads this module without numpy

    scaled = np.asarray(values, dtype=np.float64) * 100000.0
    whole = np.floor(scaled)
    fraction = scaled - whole
    out = (whole + (fraction > 0.5)) / 100000.0
    near = np.nonzero(np.abs(fraction - 0.5) < 1e-6)[0]
    for i in near.tolist():
        out[i] = float("%7.5f" % values[i])
    return out


def ratio_stats(hits, model_count, peer_count) -> RefStats:
    """Statistics ranked (``-f B``) by the recall rounded as the script prints it."""
    return RefStats(hits, model_count, peer_count, round5(hits / model_count) if model_count else 0.0)


def wlcs_paper_value(x: list[int], y: list[int], weight: float) -> float:
    """The paper's WLCS value (Lin 2004, §4): runs must be consecutive in both sequences."""
    if not x or not y:
        return 0.0
    prev_c = [0.0] * (len(y) + 1)
    prev_run = [0] * (len(y) + 1)
    for xi in x:
        cur_c = [0.0] * (len(y) + 1)
        cur_run = [0] * (len(y) + 1)
        for j, yj in enumerate(y, start=1):
            if xi == yj:
                k = prev_run[j - 1]
                cur_c[j] = prev_c[j - 1] + (k + 1) ** weight - k**weight
                cur_run[j] = k + 1
            elif prev_c[j] > cur_c[j - 1]:
                cur_c[j] = prev_c[j]
            else:
                cur_c[j] = cur_c[j - 1]
        prev_c, prev_run = cur_c, cur_run
    return prev_c[-1]
