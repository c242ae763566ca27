"""What the blocked runs on a cluster (``rougekit.dask``, ``rougekit.spark``) share: the checks of a
call before any work is sent, and one task of ``dedup``'s search for the pairs above the threshold."""

from __future__ import annotations

import numpy as np

from rougekit.errors import OptionError
from rougekit.process.blocks import check_threshold
from rougekit.process.core import cdist as process_cdist
from rougekit.process.core import check_limit
from rougekit.process.encode import Encoder, check_texts


def pairs_above(old: list, new: list, o0: int, n0: int, threshold: float, measure, options: dict):
    """(new, old, score) input indices and F of the pairs of a block above ``threshold``, old < new;
    each old text is the candidate and the new one its reference, as in ``process.dedup``.
    (The measures other than rouge-score's rougeL, which goes through :class:`PrefixIndex`.)"""
    f = process_cdist(old, new, measure=measure, score_cutoff=threshold, dtype=np.float64, workers=1, **options)
    lo, ln = np.nonzero(f > threshold)
    earlier = lo + o0 < ln + n0  # the diagonal block: only the texts before the new one
    lo, ln = lo[earlier], ln[earlier]
    return (ln + n0).astype(np.int64), (lo + o0).astype(np.int64), f[lo, ln]


def checked_call(queries, choices, measure, block_size, options: dict, texts=check_texts) -> tuple:
    """(rows, cols, queries, choices) of a blocked cdist or extract, every option checked before any
    work is sent; ``texts`` reads and checks each side."""
    rows, cols = block_shape(block_size)
    queries, choices = texts(queries, "queries"), texts(choices, "choices")
    Encoder(measure, **options)
    return rows, cols, queries, choices


def checked_limit(limit, score_cutoff):
    """extract's ``limit``, checked with its ``score_cutoff``."""
    limit = check_limit(limit)
    if score_cutoff is not None:
        check_threshold(score_cutoff, "score_cutoff")
    return limit


def block_shape(value) -> tuple[int, int]:
    """``block_size`` as (rows, cols), both positive integers."""
    rows, cols = value
    for v in (rows, cols):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise OptionError(f"block_size must be positive integers, got {value!r}")
    return rows, cols
