"""Several measures of one pair in one kernel call, for front ends that score one pair at a time.

:func:`pair_counts` gives what :func:`rougekit.measures.ngram.ngram_counts` (for each order) and
:func:`rougekit.measures.lcs.lcs_hits` (the LCS of the whole token sequences, and the union LCS
of the sentences) give, from one call of ``rougekit._core.pair_counts``: both sides' token ids
are read once, and the engine's pooled working state is reused (no per-call allocation).
:func:`kind_counts` does the same for any measures with a row of the kind table (but ROUGE-W).
"""

from __future__ import annotations

from typing import Optional, Sequence

from rougekit import _core, limits
from rougekit.errors import InputError
from rougekit.measures.lcs import _check_trace_size

__all__ = ["pair_counts", "kind_counts"]

_MAX_CELLS = limits.MAX_TRACE_CELLS


def pair_counts(
    peer: Sequence[int],
    model: Sequence[int],
    orders: Sequence[int],
    lcs: bool,
    peer_sents: Optional[Sequence[Sequence[int]]] = None,
    model_sents: Optional[Sequence[Sequence[int]]] = None,
) -> tuple:
    """``(hits, model count, peer count)`` per measure, one flat tuple: ROUGE-N of the token ids for
    each n of ``orders`` (``1 <= n <= limits.MAX_ORDER``, at most 14 orders: the caller's check), then
    if ``lcs`` the LCS of the two sequences, then if sentences are given their union LCS, clipped by
    the counts of the sentences' tokens joined (whose lengths are its counts).

    A sentence pair larger than :data:`rougekit.limits.MAX_TRACE_CELLS` raises ``InputError``, as
    :func:`rougekit.measures.lcs.lcs_hits` does (the union LCS's check is the compiled kernel's own,
    so that it costs nothing per call).
    """
    if lcs and len(peer) * len(model) > _MAX_CELLS:
        _check_trace_size([peer], [model])
    try:
        return _core.pair_counts(peer, model, orders, lcs, peer_sents, model_sents)
    except InputError:  # the compiled kernel's refusal of a sentence pair: lcs_hits's message
        if peer_sents is not None and model_sents is not None:
            _check_trace_size(peer_sents, model_sents)
        raise


def kind_counts(
    peer: Sequence[int],
    model: Sequence[int],
    measures: Sequence,
    peer_sents: Optional[Sequence[Sequence[int]]] = None,
    model_sents: Optional[Sequence[Sequence[int]]] = None,
) -> tuple:
    """``(hits, model count, peer count)`` of each measure (a :class:`~rougekit.measures.Measure`
    whose ``kernel_spec`` is a row of the kind table, not ROUGE-W), one flat tuple, from one call of
    ``rougekit._core.kind_counts``: each equals the family's ``reference_stats`` of the pair (with
    the sentences, or the tokens as one sentence)."""
    specs = [m.kernel_spec.batch for m in measures]
    return _core.kind_counts(peer, model, specs, peer_sents, model_sents)
