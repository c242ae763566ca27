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
compiled highlights kernel ``batch_marks`` (``_core._batch``, marks.pxi). :func:`batch_chosen`
gives, per pair with its references, the one the multi-reference rule keeps: the twin of the
compiled ``batch_chosen`` (score.pxi: its ``_combine``'s choice).
"""

from __future__ import annotations

from rougekit._core._pure import (
    KIND_ROWS,
    kept_reference,
    lcs_union_matches,
    ngram_matches,
    reference_ranks,
    score_docs,
    skip_bigram_matches,
    wlcs_union_runs,
)
from rougekit._core.kinds import KernelSpec, Kind

__all__ = [
    "ngram_matches",
    "skip_bigram_matches",
    "lcs_union_matches",
    "wlcs_union_runs",
    "batch_marks",
    "batch_chosen",
]


def _csr_doc(toks, tok_off, utoks, sent_off, text_sents, t: int) -> tuple[list[int], list[list[int]]]:
    """Text ``t`` of the kernels' CSR arrays: (its joined tokens, its sentence units)."""
    joined = [int(x) for x in toks[tok_off[t] : tok_off[t + 1]]]
    sents = range(text_sents[t], text_sents[t + 1])
    return joined, [[int(x) for x in utoks[sent_off[k] : sent_off[k + 1]]] for k in sents]


def _rising(off, top: int) -> bool:
    """``off`` starts at 0 or above, never decreases and ends at ``top`` or below (score.pxi's)."""
    return len(off) > 0 and off[0] >= 0 and off[-1] <= top and all(a <= b for a, b in zip(off, off[1:]))


def _check_csr(toks, tok_off, utoks, sent_off, text_sents) -> int:
    """The number of texts in CSR form, after score.pxi's ``_check_csr``: offsets within their arrays,
    ids 0 or more."""
    if (
        len(text_sents) != len(tok_off)
        or not _rising(tok_off, len(toks))
        or not _rising(text_sents, len(sent_off) - 1)
        or not _rising(sent_off, len(utoks))
    ):
        raise ValueError(
            "texts: tok_off and text_sents need one entry a text and one more, sent_off one a unit "
            "and one more, each rising from 0 or more and within the array it points into"
        )
    for ids in (toks, utoks):
        for i, x in enumerate(ids):
            if x < 0:
                raise ValueError(f"token id {x} at {i}: ids are 0 or more")
    return len(tok_off) - 1


def _check_texts(index, count: int, ntext: int, name: str) -> None:
    """Each of the first ``count`` entries of ``index`` names a text (score.pxi's ``_check_texts``)."""
    if len(index) < count:
        raise ValueError(f"{name}: {len(index)} entries for {count}")
    for i in range(count):
        if index[i] < 0 or index[i] >= ntext:
            raise ValueError(f"{name}[{i}] = {index[i]}: there are {ntext} texts")


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
) -> None:
    """The pure twin of the compiled ``batch_marks`` (``rougekit._core._batch``; same arguments, same
    output; see marks.pxi): every entry through :func:`_pure.score_docs` with marks."""
    if kind not in Kind.__members__.values():
        raise ValueError(f"no highlights for kind {kind}")
    spec = KernelSpec(Kind(kind), param, weight, flags)
    ntext = _check_csr(toks, tok_off, utoks, sent_off, text_sents)
    for name, index, at, size in (
        ("peer", peer, peer_at, len(peer_marks)),
        ("model", model, model_at, len(model_marks)),
    ):
        _check_texts(index, len(peer), ntext, name)
        if len(at) < len(peer):
            raise ValueError(f"{name}_at: {len(at)} entries for {len(peer)}")
        for e in range(len(peer)):
            t = int(index[e])
            length = int(
                (tok_off[t + 1] - tok_off[t])
                if spec.space == "joined"
                else (sent_off[text_sents[t + 1]] - sent_off[text_sents[t]])
            )
            if at[e] < 0 or int(at[e]) > size - length:
                raise ValueError(f"{name}_at[{e}] = {at[e]}: {length} marks do not fit in {size}")
    if len(hits) < len(peer):
        raise ValueError(f"hits: {len(hits)} entries for {len(peer)}")

    def doc(t):
        return _csr_doc(toks, tok_off, utoks, sent_off, text_sents, t)

    for e in range(len(peer)):
        found: list = []
        (value,) = score_docs([spec], [doc(int(peer[e]))], [doc(int(model[e]))], [0, 1], found)[0]
        hits[e] = sum(value)
        pm, mm = found[0]
        for q in pm:
            peer_marks[peer_at[e] + q] = 1
        for q in mm:
            model_marks[model_at[e] + q] = 1


# fmt: off
def batch_chosen(kind, param, flags, weight, toks, tok_off, utoks, sent_off, text_sents,
                 peer, ref_off, model, mode_b, mode_max, alpha, chosen) -> None:
    # fmt: on
    """The pure twin of the compiled ``batch_chosen`` (``rougekit._core._batch``, score.pxi; same
    arguments, same output): ``chosen[p]`` the index among pair ``p``'s references (texts
    ``model[ref_off[p]:ref_off[p + 1]]``) that the rule keeps (-1: all of them, or none)."""
    n = len(peer)
    if len(ref_off) != n + 1 or len(chosen) < n or (n and ref_off[n] > len(model)):
        raise ValueError("batch_chosen: ref_off must have one more entry than peer, and model and chosen fit them")
    if kind not in Kind.__members__.values():
        raise ValueError(f"kind code {kind!r} is not one the batch scorer counts (kinds.BATCH_KINDS)")
    spec = KernelSpec(Kind(kind), param, weight, flags)
    ntext = _check_csr(toks, tok_off, utoks, sent_off, text_sents)
    _check_texts(peer, n, ntext, "peer")
    _check_texts(model, len(model), ntext, "model")
    for p in range(n):
        if ref_off[p] < 0 or ref_off[p + 1] < ref_off[p]:
            raise ValueError(f"batch_chosen: ref_off must rise from 0 or more (entry {p + 1})")
    exponent = weight if KIND_ROWS[spec.kind].weighted else None

    def doc(t):
        return _csr_doc(toks, tok_off, utoks, sent_off, text_sents, int(t))

    for p in range(len(peer)):
        models = [doc(t) for t in model[ref_off[p] : ref_off[p + 1]]]
        ranks = reference_ranks(spec, doc(peer[p]), models)
        chosen[p] = kept_reference(ranks, bool(mode_b) and not mode_max, bool(mode_max), alpha, exponent)
