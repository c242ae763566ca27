"""Where the counted units are: pure-Python twins of the counting kernels that also give positions.

The twins live in ``_pure`` beside the counts they walk (the same DP tables and tie-breaks, the
same clipping order, so the matches they list add up to the hits the kernel counts):

* :func:`ngram_matches`       -- ROUGE-N (and ``distinct=True``: n-gram types)
* :func:`skip_bigram_matches` -- ROUGE-S / ROUGE-SU (the script's unigrams: every token but the last)
* :func:`lcs_union_matches`   -- ROUGE-L: each scoring reference position and its aligned candidate positions
* :func:`wlcs_union_runs`     -- ROUGE-W: each run as the script weighs it, in the kernel's order

A match is ``(key, count, candidate occurrences, reference occurrences)``; an occurrence is a
tuple of token positions. Order: reference order (first occurrence in the reference).

:func:`batch_marks` runs the rows' marks functions (``_pure.KIND_ROWS``) over many pairs at once
through ``_pure.score_docs`` and writes their positions as 0/1 marks: the pure twin of the
compiled highlights kernel ``batch_marks`` (``_core._batch``, marks.pxi).
"""

from __future__ import annotations

from rougekit._core._pure import (
    lcs_union_matches,
    ngram_matches,
    score_docs,
    skip_bigram_matches,
    wlcs_union_runs,
)
from rougekit._core.kinds import KernelSpec, Kind

__all__ = ["ngram_matches", "skip_bigram_matches", "lcs_union_matches", "wlcs_union_runs", "batch_marks"]


def batch_marks(
    kind,
    param,
    flags,
    weight,
    toks,
    tok_off,
    utoks,
    sent_off,
    text_sents,
    peer,
    model,
    peer_at,
    model_at,
    hits,
    peer_marks,
    model_marks,
    vocab,
) -> None:
    """The pure twin of the compiled ``batch_marks`` (``rougekit._core._batch``; same arguments, same
    output; see marks.pxi): every entry through :func:`_pure.score_docs` with marks."""
    del vocab  # the compiled kernel's dense tables only
    if kind not in Kind.__members__.values():
        raise ValueError(f"no highlights for kind {kind}")
    spec = KernelSpec(Kind(kind), param, weight, flags)

    def doc(t):
        joined = [int(x) for x in toks[tok_off[t] : tok_off[t + 1]]]
        sents = range(text_sents[t], text_sents[t + 1])
        units = [[int(x) for x in utoks[sent_off[k] : sent_off[k + 1]]] for k in sents]
        return joined, units

    for e in range(len(peer)):
        found: list = []
        (value,) = score_docs([spec], [doc(int(peer[e]))], [doc(int(model[e]))], [0, 1], found)[0]
        hits[e] = sum(value)
        pm, mm = found[0]
        for q in pm:
            peer_marks[peer_at[e] + q] = 1
        for q in mm:
            model_marks[model_at[e] + q] = 1
