"""Pure-Python reference implementation of the ROUGE-1.5.5 counting kernels.

Every function here has a compiled twin in ``_batch.pyx`` (``pair.pxi``: the batch
engine's ``_score_pair`` on one pair; ``textids.pxi``: intern_ids, split_marked) with the
same signature and *bit-for-bit* the same results.  This module is the readable
reference: straightforward loops, no tricks.

Tokens arrive already processed and interned as non-negative ints.  A
"sequence" is anything indexable with ``len`` that yields ints: a ``list``, an
``array.array('i')`` or an int32 ``numpy`` array.  A list of sentences is a
list (or other iterable) of such sequences.

The behaviour is described in ``docs/rouge155/measures.md``:

* :func:`ngram_stats`        -- ROUGE-N counts
* :func:`skip_bigram_stats`  -- ROUGE-S / ROUGE-SU counts
* :func:`lcs_union_hits`     -- ROUGE-L summary-level union LCS hits
* :func:`wlcs_union_hits`    -- ROUGE-W weighted union LCS hits
* :func:`pair_counts`        -- several of them on one pair (ROUGE-N orders, LCS, union LCS)
* :func:`kind_counts`        -- several rows of the kind table (``kinds.py``) on one pair
* :func:`intern_ids`         -- tokens to ids (what the front ends hand the kernels)
* :func:`split_marked`       -- a text cut at marked characters (a tokenizer's split)
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Iterable, Sequence

from rougekit._core.kinds import Kind

__all__ = [
    "ngram_stats",
    "skip_bigram_stats",
    "lcs_union_hits",
    "wlcs_union_hits",
    "wlcs_weight",
    "pair_counts",
    "kind_counts",
    "intern_ids",
    "split_marked",
]

# Direction codes of the LCS back-pointer table.
_DIAG = 1  # match: go diagonal, mark the model position
_UP = 2  # drop the model (reference) token
_LEFT = 3  # drop the peer token


def _ints(seq) -> list[int]:
    """Return ``seq`` as a plain list of Python ints (numpy scalars become ints)."""
    return [int(t) for t in seq]


# --------------------------------------------------------------------------- ROUGE-N


def _ngram_counts(tokens: list[int], n: int) -> Counter:
    """Count the windows of ``n`` consecutive tokens (``max(0, L-n+1)`` of them)."""
    counts: Counter = Counter()
    for i in range(len(tokens) - n + 1):
        counts[tuple(tokens[i : i + n])] += 1
    return counts


def ngram_stats(peer: Sequence[int], model: Sequence[int], n: int, distinct: bool = False) -> tuple[int, int, int]:
    """ROUGE-N statistics of one peer against one model (docs/rouge155/measures.md#rouge-n--n-n).

    The n-grams are the windows of ``n`` consecutive tokens of the whole
    sequence (they cross sentence boundaries).

    Returns ``(hits, model_count, peer_count)`` where the counts are
    ``max(0, L - n + 1)`` and ``hits`` is the clipped overlap
    ``sum over model n-gram types g of min(count_model(g), count_peer(g))``.

    ``distinct=True`` counts n-gram *types* instead (sets, as the pltrdy ``rouge``
    package's ``exclusive=True``): the counts are the numbers of distinct n-grams
    and ``hits`` the number of n-grams found in both.
    """
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    p = _ints(peer)
    m = _ints(model)
    peer_counts = _ngram_counts(p, n)
    model_counts = _ngram_counts(m, n)
    if distinct:
        return len(model_counts.keys() & peer_counts.keys()), len(model_counts), len(peer_counts)
    hits = 0
    for gram, cm in model_counts.items():
        cp = peer_counts.get(gram, 0)
        hits += cm if cm < cp else cp
    return hits, max(0, len(m) - n + 1), max(0, len(p) - n + 1)


# --------------------------------------------------------------------------- ROUGE-S / SU


def _skip_bigram_counts(tokens: list[int], max_skip: int, with_unigrams: bool) -> tuple[Counter, int]:
    """Skip-bigram (and optional unigram) units of one sequence, as the script builds them.

    The outer loop runs over ``i = 0 .. L-2`` (so the last token never starts a
    pair and, in SU mode, never gets a unigram).  The pair ``(t_i, t_j)`` is
    counted for ``i < j <= i + max_skip + 1``; ``max_skip < 0`` means no limit.
    Unigram keys are 1-tuples and bigram keys 2-tuples, so they never collide.
    """
    counts: Counter = Counter()
    total = 0
    last = len(tokens) - 1
    for i in range(last):  # i = 0 .. L-2
        a = tokens[i]
        if with_unigrams:
            counts[(a,)] += 1
            total += 1
        j_max = last if max_skip < 0 else min(last, i + max_skip + 1)
        for j in range(i + 1, j_max + 1):
            counts[(a, tokens[j])] += 1
            total += 1
    return counts, total


def skip_bigram_stats(
    peer: Sequence[int], model: Sequence[int], max_skip: int, with_unigrams: bool
) -> tuple[int, int, int]:
    """ROUGE-S / ROUGE-SU statistics of one peer against one model (see docs/rouge155/measures.md).

    ``max_skip`` is the largest number of tokens allowed *between* the two
    words of a pair (``-2 d``); a negative value means unlimited (``S*``).
    ``with_unigrams`` selects ROUGE-SU: the unigram ``t_i`` is added inside the
    outer loop ``i = 0 .. L-2``, so the last token never gets a unigram and a
    1-token sequence has no units at all.

    Returns ``(hits, model_count, peer_count)`` with clipped hits.
    """
    p = _ints(peer)
    m = _ints(model)
    peer_counts, peer_total = _skip_bigram_counts(p, max_skip, with_unigrams)
    model_counts, model_total = _skip_bigram_counts(m, max_skip, with_unigrams)
    hits = 0
    for key, cm in model_counts.items():
        cp = peer_counts.get(key, 0)
        hits += cm if cm < cp else cp
    return hits, model_total, peer_total


# --------------------------------------------------------------------------- ROUGE-L


def _mark_lcs(mask: list[int], back: list[list[int]], a: int, b: int) -> None:
    """Trace the back-pointer table from ``(a, b)`` while both indices are > 0.

    A diagonal step marks the model position it lands on.
    """
    while a != 0 and b != 0:
        d = back[a][b]
        if d == _DIAG:
            a -= 1
            b -= 1
            mask[a] = 1
        elif d == _UP:
            a -= 1
        else:
            b -= 1


def _lcs_mark(model: list[int], peer: list[int], mask: list[int]) -> None:
    """Plain LCS DP between one model sentence (rows) and one peer sentence (columns).

    A match always goes diagonal; otherwise "up" wins ties
    (``c[a-1][b] >= c[a][b-1]``).  The traced LCS is OR-ed into ``mask``.
    """
    if model:
        _mark_lcs(mask, _lcs_back(model, peer), len(model), len(peer))


def _lcs_back(model: list[int], peer: list[int]) -> list[list[int]]:
    """The back-pointer table of the plain LCS DP (see :func:`_lcs_mark`)."""
    m = len(model)
    n = len(peer)
    c = [[0] * (n + 1) for _ in range(m + 1)]
    back = [[0] * (n + 1) for _ in range(m + 1)]
    for a in range(1, m + 1):
        t = model[a - 1]
        row, prev, brow = c[a], c[a - 1], back[a]
        for b in range(1, n + 1):
            if t == peer[b - 1]:
                row[b] = prev[b - 1] + 1
                brow[b] = _DIAG
            elif prev[b] >= row[b - 1]:
                row[b] = prev[b]
                brow[b] = _UP
            else:
                row[b] = row[b - 1]
                brow[b] = _LEFT
    return back


def _unigram_table(tokens: Iterable[int]) -> dict[int, int]:
    table: dict[int, int] = {}
    for t in tokens:
        t = int(t)
        table[t] = table.get(t, 0) + 1
    return table


def _sentences(sents) -> list[list[int]]:
    return [_ints(s) for s in sents]


def lcs_union_hits(peer_sents, model_sents, peer_tokens, model_tokens) -> int:
    """ROUGE-L summary-level union-LCS hits with the script's clipping (see docs/rouge155/measures.md).

    For each model sentence (in order), the LCS with every peer sentence is
    traced and the marked model positions are united.  Then the positions are
    walked left to right: a marked position with token ``t`` is one hit only
    if ``Mu[t] > 0`` and ``Pu[t] > 0`` (then both are decremented).  ``Mu`` is
    built from ``model_tokens`` and ``Pu`` from ``peer_tokens``, fresh for this
    call, and shared by all model sentences of the call.

    Returns the number of hits (an int).  The model count (``sum |r_i|``) and
    the peer count (``len(peer_tokens)``) are left to the caller.
    """
    peers = _sentences(peer_sents)
    models = _sentences(model_sents)
    mu = _unigram_table(model_tokens)
    pu = _unigram_table(peer_tokens)
    hits = 0
    for model in models:
        mask = [0] * len(model)
        for peer in peers:
            _lcs_mark(model, peer, mask)
        for j, t in enumerate(model):
            if mask[j] and mu.get(t, 0) > 0 and pu.get(t, 0) > 0:
                hits += 1
                mu[t] -= 1
                pu[t] -= 1
    return hits


# --------------------------------------------------------------------------- ROUGE-W


def wlcs_weight(k, w: float) -> float:
    """The ROUGE-W weighting function ``f(k) = k ** w``, computed with C ``pow``.

    Perl's ``**`` on these operands gives the same double as C ``pow`` (for
    integral ``w`` Perl multiplies exactly, and ``pow`` is exact there too).
    """
    return math.pow(k, w)


def _wlcs_mark(model: list[int], peer: list[int], mask: list[int], weight: float) -> None:
    """Weighted LCS DP (ROUGE-W in docs/rouge155/measures.md); the traced path is OR-ed into ``mask``.

    On a match: ``k = l[a-1][b-1]``, ``c = (c[a-1][b-1] + f(k+1)) - f(k)`` (in
    exactly this order of floating-point operations), ``l = k + 1``, diagonal.
    Otherwise "up" if ``c[a-1][b] >= c[a][b-1]`` else "left", with ``l = 0``.
    """
    if model:
        _mark_lcs(mask, _wlcs_back(model, peer, weight), len(model), len(peer))


def _wlcs_back(model: list[int], peer: list[int], weight: float) -> list[list[int]]:
    """The back-pointer table of the weighted LCS DP (see :func:`_wlcs_mark`)."""
    m = len(model)
    n = len(peer)
    c = [[0.0] * (n + 1) for _ in range(m + 1)]
    run = [[0] * (n + 1) for _ in range(m + 1)]
    back = [[0] * (n + 1) for _ in range(m + 1)]
    for a in range(1, m + 1):
        t = model[a - 1]
        row, prev = c[a], c[a - 1]
        lrow, lprev = run[a], run[a - 1]
        brow = back[a]
        for b in range(1, n + 1):
            if t == peer[b - 1]:
                k = lprev[b - 1]
                row[b] = prev[b - 1] + wlcs_weight(k + 1, weight) - wlcs_weight(k, weight)
                brow[b] = _DIAG
                lrow[b] = k + 1
            elif prev[b] >= row[b - 1]:
                row[b] = prev[b]
                brow[b] = _UP
                lrow[b] = 0
            else:
                row[b] = row[b - 1]
                brow[b] = _LEFT
                lrow[b] = 0
    return back


def wlcs_union_hits(peer_sents, model_sents, peer_tokens, model_tokens, weight: float) -> float:
    """ROUGE-W weighted union-LCS hits with the script's clipping and run walk (docs/rouge155/measures.md).

    The mask of each model sentence is the union of the WLCS trace-backs
    against every peer sentence.  The positions are then walked left to
    right with a run length ``run`` (0 at each sentence start).  For each
    marked position that passes the same ``Mu``/``Pu`` clipping as ROUGE-L
    (and decrements them): ``run += 1``; then if the next position exists and
    is unmarked, or if this is the last position, ``hits += f(run)`` and
    ``run = 0``.  Positions that fail the clipping do nothing at all (they
    neither break nor end a run).

    Returns ``sum f(run)`` accumulated in the script's order (a float).
    The base ``sum f(|r_i|)`` and the peer count are left to the caller.
    """
    peers = _sentences(peer_sents)
    models = _sentences(model_sents)
    mu = _unigram_table(model_tokens)
    pu = _unigram_table(peer_tokens)
    hits = 0.0
    for model in models:
        m = len(model)
        mask = [0] * m
        for peer in peers:
            _wlcs_mark(model, peer, mask, weight)
        run = 0
        for j, t in enumerate(model):
            if mask[j] and mu.get(t, 0) > 0 and pu.get(t, 0) > 0:
                run += 1
                if j + 1 < m and not mask[j + 1]:
                    hits += wlcs_weight(run, weight)
                    run = 0
                elif j + 1 == m:
                    hits += wlcs_weight(run, weight)
                    run = 0
                mu[t] -= 1
                pu[t] -= 1
    return hits


# --------------------------------------------------------------------------- several at once


def pair_counts(peer, model, orders, lcs: bool, peer_sents=None, model_sents=None) -> tuple[int, ...]:
    """The counts of several measures of one pair, one flat tuple of ``(hits, model count, peer count)``:

    for each ``n`` of ``orders`` :func:`ngram_stats` of the tokens; then, if ``lcs``, the LCS of the
    two token sequences (:func:`lcs_union_hits` of one sentence each) with their lengths; then, if
    sentences are given, :func:`lcs_union_hits` of the sentences, clipped by the counts of their
    tokens joined, with the joined lengths.
    """
    out: list[int] = []
    for n in orders:
        out += ngram_stats(peer, model, n)
    if lcs:
        out += (lcs_union_hits([peer], [model], peer, model), len(model), len(peer))
    if peer_sents is not None:
        if model_sents is None:
            raise ValueError("peer_sents and model_sents go together")
        pf = [t for s in peer_sents for t in s]
        mf = [t for s in model_sents for t in s]
        out += (lcs_union_hits(peer_sents, model_sents, pf, mf), len(mf), len(pf))
    return tuple(out)


def kind_counts(peer, model, specs, peer_sents=None, model_sents=None) -> tuple[int, ...]:
    """The counts of several rows of the kind table on one pair, one flat tuple of ``(hits, model
    count, peer count)`` per spec ``(kind code, n or skip, weight)`` (any kind but ROUGE-W): N and
    ND of the tokens (:func:`ngram_stats`), S/SU (:func:`skip_bigram_stats`), L the union LCS of the
    sentences (one sentence of the tokens when None; counts: the model's sentence tokens and the
    peer's tokens), LSEQ the LCS of the token sequences, LD the distinct tokens on the union LCS
    with the roles swapped, clipped by each side's distinct tokens (the counts).
    """
    ps = _sentences(peer_sents) if peer_sents is not None else [_ints(peer)]
    ms = _sentences(model_sents) if model_sents is not None else [_ints(model)]
    out: list[int] = []
    for kind, n, _weight in specs:
        if kind in (Kind.N, Kind.ND):
            if n < 1:
                raise ValueError(f"n must be >= 1, got {n}")
            out += ngram_stats(peer, model, n, kind == Kind.ND)
        elif kind in (Kind.S, Kind.SU):
            out += skip_bigram_stats(peer, model, n, kind == Kind.SU)
        elif kind == Kind.L:
            out += (lcs_union_hits(ps, ms, peer, model), sum(map(len, ms)), len(peer))
        elif kind == Kind.LSEQ:
            out += (lcs_union_hits([peer], [model], peer, model), len(model), len(peer))
        elif kind == Kind.LD:
            pt, mt = list(dict.fromkeys(_ints(peer))), list(dict.fromkeys(_ints(model)))
            out += (lcs_union_hits(ms, ps, mt, pt), len(mt), len(pt))
        else:
            raise ValueError(f"kind code {kind!r} is not one kind_counts counts (ROUGE-W: wlcs_union_hits)")
    return tuple(out)


def intern_ids(vocab: dict, tokens, skip_empty: bool = True) -> tuple[int, ...]:
    """The ids of the ``tokens`` in ``vocab`` (token -> id), empty ones (falsy) left out unless not
    ``skip_empty``; a token not in it yet is added with the id ``len(vocab)``."""
    out = []
    for t in tokens:
        if t or not skip_empty:
            out.append(vocab.setdefault(t, len(vocab)))
    return tuple(out)


def split_marked(marks: bytes, text: str) -> list[str]:
    """The runs of ``text`` between the characters whose code point ``c`` has bit ``c & 7`` of byte
    ``c >> 3`` set in ``marks`` (those characters are dropped; a code point past the end is unmarked)."""
    out = []
    start = -1
    for i, ch in enumerate(text):
        c = ord(ch)
        if c >> 3 < len(marks) and (marks[c >> 3] >> (c & 7)) & 1:
            if start >= 0:
                out.append(text[start:i])
                start = -1
        elif start < 0:
            start = i
    if start >= 0:
        out.append(text[start:])
    return out
