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
* :func:`score_docs`         -- the one entry (the twin of score.pxi's ``score_docs``, a C function):
  rows of the kind table on pairs of documents, their counts or, with ``marks``, their highlights
* :func:`kind_counts`        -- several rows of the kind table (``kinds.py``) on one pair
* :func:`count_error`        -- the errors of the counting (ROUGE-W of an empty reference, a
  sentence pair above the trace-back limit), for the compiled engine and the readable path
* :func:`intern_ids`         -- tokens to ids (what the front ends hand the kernels)
* :func:`split_marked`       -- a text cut at marked characters (a tokenizer's split)
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Callable, Iterable, NamedTuple, Sequence

from rougekit._core.kinds import WITH_N, KernelSpec, Kind, counted
from rougekit.errors import InputError

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


def _union_inputs(peer_sents, model_sents, peer_tokens, model_tokens) -> tuple[list, list, dict, dict]:
    """What the union LCS and WLCS walk: (candidate sentences, reference sentences, the reference's
    unigram table, the candidate's), fresh for each call."""
    return _sentences(peer_sents), _sentences(model_sents), _unigram_table(model_tokens), _unigram_table(peer_tokens)


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
    peers, models, mu, pu = _union_inputs(peer_sents, model_sents, peer_tokens, model_tokens)
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
    peers, models, mu, pu = _union_inputs(peer_sents, model_sents, peer_tokens, model_tokens)
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


# --------------------------------------------------------------------------- where the counted units are
# The twins above that also give positions (``_explain`` re-exports them): each walks the same
# loops as its count twin (the same DP tables and tie-breaks, the same clipping order), so the
# matches it lists add up to the hits the kernel counts. A match is ``(key, count, candidate
# occurrences, reference occurrences)``; an occurrence is a tuple of token positions, in reference
# order (first occurrence in the reference).


def _occurrences(tokens: list[int], n: int) -> dict[tuple, list[tuple[int, ...]]]:
    """Every window of ``n`` tokens, by n-gram, with its positions (in order of first occurrence)."""
    out: dict[tuple, list[tuple[int, ...]]] = {}
    for i in range(len(tokens) - n + 1):
        out.setdefault(tuple(tokens[i : i + n]), []).append(tuple(range(i, i + n)))
    return out


def ngram_matches(peer, model, n: int, distinct: bool = False) -> list[tuple]:
    """ROUGE-N matches: each n-gram of the model found in the peer, with its clipped count
    ``min(count_model, count_peer)`` (1 with ``distinct=True``), as ``_pure.ngram_stats`` counts."""
    p, m = _ints(peer), _ints(model)
    peer_occ = _occurrences(p, n)
    out = []
    for gram, where in _occurrences(m, n).items():
        there = peer_occ.get(gram)
        if there:
            count = 1 if distinct else min(len(where), len(there))
            out.append((gram, count, there, where))
    return out


def _skip_units(tokens: list[int], max_skip: int, with_unigrams: bool, keep: set) -> dict[tuple, list[tuple[int, ...]]]:
    """The units of ``_pure._skip_bigram_counts`` with their positions: i = 0 .. L-2 starts pairs
    (and, for SU, gives the unigram t_i); the pair (t_i, t_j) for i < j <= i + max_skip + 1.
    Only units made of tokens in ``keep`` (those of both texts, the only ones that can match)."""
    out: dict[tuple, list[tuple[int, ...]]] = {}
    last = len(tokens) - 1
    idx = [i for i, t in enumerate(tokens) if t in keep]
    for n, i in enumerate(idx):
        if i >= last:
            break
        a = tokens[i]
        if with_unigrams:
            out.setdefault((a,), []).append((i,))
        j_max = last if max_skip < 0 else min(last, i + max_skip + 1)
        for m in range(n + 1, len(idx)):
            j = idx[m]
            if j > j_max:
                break
            out.setdefault((a, tokens[j]), []).append((i, j))
    return out


def skip_bigram_matches(peer, model, max_skip: int, with_unigrams: bool) -> list[tuple]:
    """ROUGE-S/SU matches: skip-bigrams (2-tuples) and the script's unigrams (1-tuples), clipped."""
    p, m = _ints(peer), _ints(model)
    common = set(p) & set(m)
    peer_units = _skip_units(p, max_skip, with_unigrams, common)
    out = []
    for key, where in _skip_units(m, max_skip, with_unigrams, common).items():
        there = peer_units.get(key)
        if there:
            out.append((key, min(len(where), len(there)), there, where))
    return out


def _trace(back: list[list[int]], a: int, b: int) -> list[tuple[int, int]]:
    """The walk of ``_pure._mark_lcs``: the (model, peer) positions of its diagonal steps."""
    out = []
    while a != 0 and b != 0:
        d = back[a][b]
        if d == _DIAG:
            a -= 1
            b -= 1
            out.append((a, b))
        elif d == _UP:
            a -= 1
        else:
            b -= 1
    return out


def _aligned(model: list[int], peers: list[list[int]], table) -> dict[int, list[tuple[int, int]]]:
    """Model position -> the (peer sentence, peer position) pairs every trace aligns it with."""
    aligned: dict[int, list[tuple[int, int]]] = {}
    if not model:
        return aligned
    for s, peer in enumerate(peers):
        for a, b in reversed(_trace(table(model, peer), len(model), len(peer))):
            aligned.setdefault(a, []).append((s, b))
    return aligned


def lcs_union_matches(peer_sents, model_sents, peer_tokens, model_tokens) -> tuple[list[tuple], list[tuple]]:
    """ROUGE-L: ``(hits, clipped)``, each a list of ``(model sentence, model position, token,
    aligned peer (sentence, position) pairs)``. ``hits`` are the positions ``_pure.lcs_union_hits``
    counts (one each); ``clipped`` the marked positions the unigram tables refused."""
    peers, models, mu, pu = _union_inputs(peer_sents, model_sents, peer_tokens, model_tokens)
    hits, clipped = [], []
    for r, model in enumerate(models):
        aligned = _aligned(model, peers, _lcs_back)
        for j, t in enumerate(model):
            if j not in aligned:
                continue
            if mu.get(t, 0) > 0 and pu.get(t, 0) > 0:
                hits.append((r, j, t, aligned[j]))
                mu[t] -= 1
                pu[t] -= 1
            else:
                clipped.append((r, j, t, aligned[j]))
    return hits, clipped


def wlcs_union_runs(peer_sents, model_sents, peer_tokens, model_tokens, weight: float) -> tuple[list[tuple], float]:
    """ROUGE-W: ``(runs, hits)``. Each run is ``(model sentence, [(position, token, aligned peer
    pairs)], f(run))`` in the order ``_pure.wlcs_union_hits`` closes them; ``hits`` is the sum of
    the f(run) values added in that order (so it equals the kernel's float bit for bit)."""
    peers, models, mu, pu = _union_inputs(peer_sents, model_sents, peer_tokens, model_tokens)
    runs, hits = [], 0.0
    for r, model in enumerate(models):
        m = len(model)
        aligned = _aligned(model, peers, lambda x, y: _wlcs_back(x, y, weight))
        run: list[tuple] = []
        for j, t in enumerate(model):
            if j in aligned and mu.get(t, 0) > 0 and pu.get(t, 0) > 0:
                run.append((j, t, aligned[j]))
                if j + 1 == m or (j + 1) not in aligned:
                    value = wlcs_weight(len(run), weight)
                    hits += value
                    runs.append((r, run, value))
                    run = []
                mu[t] -= 1
                pu[t] -= 1
    return runs, hits


def count_error(code: int, where: str = "", cells: float = 0, sizes: tuple[int, int] | None = None) -> Exception:
    """The one text of each counting error, as an exception to raise: ``code`` -2 ROUGE-W of a
    reference with no tokens, -3 a sentence pair above the trace-back limit ``cells``
    (MAX_TRACE_CELLS; ``sizes``: the longest reference and candidate sentences, when known), any
    other code out of memory (the compiled engine's codes, score.pxi: _count_error). ``where``
    names the pair (``"pair 3: "``)."""
    if code == -2:
        return InputError(
            f"{where}ROUGE-W is undefined for a reference with no tokens "
            "(ROUGE-1.5.5 dies with a division by zero here)"
        )
    if code == -3:
        size = (
            f"{sizes[0]} x {sizes[1]} tokens, above"
            if sizes is not None
            else "longest reference sentence x longest candidate sentence above"
        )
        return InputError(
            f"{where}a sentence pair too long for the ROUGE-L/W trace-back ({size} {cells:.0f} token pairs, "
            "docs/limits.md); split the summaries into sentences or limit their length (word_limit / -l)"
        )
    return MemoryError()


# --------------------------------------------------------------------------- the kind table


class KindRow(NamedTuple):
    """One kind's twins, as kinds.pxi's ``KIND_ROWS`` holds the compiled ones.

    ``count(peer, model, n, weight, peer_sents, model_sents)``: ``(hits, model count, peer count)``
    (None: not counted by :func:`kind_counts`; ROUGE-W's float hits are :func:`wlcs_union_hits`').
    ``marks(peer, model, peer_units, model_units, n, weight)``: the highlights, ``(hits, candidate
    positions, reference positions)`` (None: the kind has none, ``kinds.NO_MARKS``).
    ``rank(peer, model, n, weight, peer_sents, model_sents)``: ``(hits, model count, peer count,
    -f B's score)``, what the compiled row writes for one reference (rh, rm, rp, rs; ROUGE-W's
    counts through f(k) = k ** weight). ``weighted``: R and P through x ** (1 / weight) (ROW_WEIGHTED)."""

    count: Callable | None
    marks: Callable | None
    rank: Callable
    weighted: bool = False


def round5(x: float) -> float:
    """``x`` rounded to five decimals as the script prints it (``float("%7.5f" % x)``), as
    rounding.pxi's ``_round5``; the one Python rounding (``measures.counts.round5``)."""
    return float("%7.5f" % x)


def _rounded_recall(count: Callable) -> Callable:
    """The rank of N, S/SU, ND, LD: the recall rounded like %7.5f (score.pxi: ``_recall_b``)."""

    def rank(*args):
        hits, mcount, pcount = count(*args)
        return hits, mcount, pcount, round5(hits / mcount) if mcount != 0 else 0.0

    return rank


def _recall(count: Callable) -> Callable:
    """The rank of L and LSEQ: the recall, not rounded (lcs.pxi)."""

    def rank(*args):
        hits, mcount, pcount = count(*args)
        return hits, mcount, pcount, hits / mcount if mcount > 0 else 0.0

    return rank


def _rank_w(peer, model, n, weight, ps, ms):
    """ROUGE-W's (lcs.pxi: ``_count_w``): -2 for a reference without tokens."""
    base = 0.0
    for sentence in ms:
        base += float(len(sentence)) ** weight
    if base == 0:
        raise count_error(-2)
    hits = wlcs_union_hits(ps, ms, peer, model, weight)
    return hits, base**weight, float(len(peer)) ** weight, (hits / base) ** (1 / weight)


def _count_l(peer, model, n, weight, ps, ms):
    return lcs_union_hits(ps, ms, peer, model), sum(map(len, ms)), len(peer)


def _count_lseq(peer, model, n, weight, ps, ms):
    return lcs_union_hits([peer], [model], peer, model), len(model), len(peer)


def _count_ld(peer, model, n, weight, ps, ms):
    pt, mt = list(dict.fromkeys(_ints(peer))), list(dict.fromkeys(_ints(model)))
    return lcs_union_hits(ms, ps, mt, pt), len(mt), len(pt)


def _found_marks(found: list[tuple]) -> tuple[int, set[int], set[int]]:
    """Unit matches (:func:`ngram_matches`, :func:`skip_bigram_matches`) as highlights."""
    pm = {p for _, _, there, _ in found for occ in there for p in occ}
    mm = {p for _, _, _, where in found for occ in where for p in occ}
    return sum(count for _, count, _, _ in found), pm, mm


def _flat(sentences: list[list[int]]) -> list[int]:
    """Offset of each sentence's first token in the flattened sentence units."""
    out, at = [], 0
    for s in sentences:
        out.append(at)
        at += len(s)
    return out


def _lcs_marks(peer_units, model_units, peer, model) -> tuple[int, set[int], set[int]]:
    """ROUGE-L's highlights: the reference positions the union LCS counts, the candidate
    positions the traces aligned with them (positions of the flattened sentence units)."""
    p_at, m_at = _flat(peer_units), _flat(model_units)
    hits, _ = lcs_union_matches(peer_units, model_units, peer, model)
    mm = {m_at[r] + j for r, j, _, _ in hits}
    pm = {p_at[s] + b for _, _, _, aligned in hits for s, b in aligned}
    return len(hits), pm, mm


def _ld_marks(peer, model, peer_units, model_units, n, weight):
    """LD's: ROUGE-L's with the roles swapped, each side's distinct tokens as its clipping table."""
    hits, pm, mm = _lcs_marks(model_units, peer_units, list(dict.fromkeys(model)), list(dict.fromkeys(peer)))
    return hits, mm, pm


def _w_marks(peer, model, peer_units, model_units, n, weight):
    """ROUGE-W's: the reference positions of the runs it weighs and their aligned candidate positions."""
    p_at, m_at = _flat(peer_units), _flat(model_units)
    runs, value = wlcs_union_runs(peer_units, model_units, peer, model, weight)
    mm = {m_at[r] + j for r, run, _ in runs for j, _, _ in run}
    pm = {p_at[s] + b for _, run, _ in runs for _, _, aligned in run for s, b in aligned}
    return value, pm, mm


#: the pure rows of the kind table, by kind (tests/test_kinds.py holds them to kinds.pxi's)
def _count_n(peer, model, n, weight, ps, ms):
    return ngram_stats(peer, model, n)


def _count_nd(peer, model, n, weight, ps, ms):
    return ngram_stats(peer, model, n, True)


def _count_s(peer, model, n, weight, ps, ms):
    return skip_bigram_stats(peer, model, n, False)


def _count_su(peer, model, n, weight, ps, ms):
    return skip_bigram_stats(peer, model, n, True)


#: the pure rows of the kind table, by kind (tests/test_kinds.py holds them to kinds.pxi's)
KIND_ROWS: dict[Kind, KindRow] = {
    Kind.N: KindRow(
        _count_n,
        lambda peer, model, pu, mu, n, weight: _found_marks(ngram_matches(peer, model, n)),
        _rounded_recall(_count_n),
    ),
    Kind.ND: KindRow(
        _count_nd,
        lambda peer, model, pu, mu, n, weight: _found_marks(ngram_matches(peer, model, n, True)),
        _rounded_recall(_count_nd),
    ),
    Kind.S: KindRow(
        _count_s,
        lambda peer, model, pu, mu, n, weight: _found_marks(skip_bigram_matches(peer, model, n, False)),
        _rounded_recall(_count_s),
    ),
    Kind.SU: KindRow(
        _count_su,
        lambda peer, model, pu, mu, n, weight: _found_marks(skip_bigram_matches(peer, model, n, True)),
        _rounded_recall(_count_su),
    ),
    Kind.L: KindRow(
        _count_l, lambda peer, model, pu, mu, n, weight: _lcs_marks(pu, mu, peer, model), _recall(_count_l)
    ),
    Kind.W: KindRow(None, _w_marks, _rank_w, weighted=True),
    Kind.LSEQ: KindRow(_count_lseq, None, _recall(_count_lseq)),
    Kind.LD: KindRow(_count_ld, _ld_marks, _rounded_recall(_count_ld)),
}


def score_docs(specs, peers, refs, roff, marks: list | None = None) -> list[list[tuple]]:
    """The pure twin of the engine's one entry (score.pxi: ``score_docs``): pair ``i`` is the
    candidate ``peers[i]`` and the references ``refs[roff[i]:roff[i + 1]]``, each document a pair
    ``(tokens, sentences)`` (sentences None: the tokens as one sentence); every :class:`KernelSpec`
    of ``specs`` is counted by its rows of :data:`KIND_ROWS` (``kinds.counted``).

    Returns per pair, per reference, the flat ``(hits, model count, peer count)`` of every spec;
    with ``marks`` (a list) the rows' marks functions run instead: per pair and reference the hits
    of every spec, and ``marks`` receives its (candidate positions, reference positions)."""
    rows = [(KIND_ROWS[s.kind], s) for spec in specs for s in counted(spec)]
    for row, s in rows:
        if (row.count if marks is None else row.marks) is None:
            if marks is not None:
                raise ValueError(f"no highlights for kind {int(s.kind)}")
            raise ValueError(f"kind code {int(s.kind)!r} is not one kind_counts counts (ROUGE-W: wlcs_union_hits)")
    out = []
    for i, (peer, peer_sents) in enumerate(peers):
        ps = _sentences(peer_sents) if peer_sents is not None else [_ints(peer)]
        per_ref = []
        for model, model_sents in refs[roff[i] : roff[i + 1]]:
            ms = _sentences(model_sents) if model_sents is not None else [_ints(model)]
            if marks is None:
                per_ref.append(tuple(c for row, s in rows for c in row.count(peer, model, s.n, s.weight, ps, ms)))
                continue
            pm: set[int] = set()
            mm: set[int] = set()
            hits = []
            for row, s in rows:
                h, a, b = row.marks(_ints(peer), _ints(model), ps, ms, s.n, s.weight)
                hits.append(h)
                pm |= a
                mm |= b
            marks.append((pm, mm))
            per_ref.append(tuple(hits))
        out.append(per_ref)
    return out


def reference_ranks(spec: KernelSpec, peer, models) -> list[tuple]:
    """Per reference (each document ``(tokens, sentences)``) of the candidate ``peer``: ``(hits,
    model count, peer count, -f B's score)`` of the spec's rows (:data:`KIND_ROWS`' ``rank``); a
    split spec's rows summed and ranked by the summed recall, rounded (score.pxi: ``_fold``)."""
    rows = [(KIND_ROWS[s.kind].rank, s) for s in counted(spec)]
    ps = _sentences(peer[1]) if peer[1] is not None else [_ints(peer[0])]
    out = []
    for model, model_sents in models:
        ms = _sentences(model_sents) if model_sents is not None else [_ints(model)]
        got = [rank(peer[0], model, s.n, s.weight, ps, ms) for rank, s in rows]
        if len(got) > 1:
            hits, mcount, pcount = (sum(g[k] for g in got) for k in range(3))
            got = [(hits, mcount, pcount, round5(hits / mcount) if mcount != 0 else 0.0)]
        out.append(got[0])
    return out


def kept_reference(ranks, mode_b: bool, mode_max: bool, alpha: float, weight: float | None) -> int:
    """The twin of score.pxi's ``_combine``'s choice over :func:`reference_ranks`: -f B the first
    reference with the best score, max the first with the best rounded F (R and P rounded, through
    x ** (1 / ``weight``) when given), else -1 (all of them)."""
    best, pick = -1.0, -1
    for r, (hits, mcount, pcount, rank) in enumerate(ranks):
        if mode_max:
            recall = hits / mcount if mcount != 0 else 0.0
            precision = hits / pcount if pcount != 0 else 0.0
            if weight is not None:
                recall, precision = recall ** (1 / weight), precision ** (1 / weight)
            recall = round5(recall) if mcount != 0 else 0.0
            precision = round5(precision) if pcount != 0 else 0.0
            denom = (1.0 - alpha) * precision + alpha * recall
            rank = round5((precision * recall) / denom if denom > 0 else 0.0)
        elif not mode_b:
            return -1
        if rank > best:
            best, pick = rank, r
    return pick


def kind_counts(peer, model, specs, peer_sents=None, model_sents=None) -> tuple[int, ...]:
    """The counts of several rows of the kind table on one pair, one flat tuple of ``(hits, model
    count, peer count)`` per spec ``(kind code, n or skip, weight)`` (any kind but ROUGE-W), through
    :func:`score_docs`: N and ND of the tokens (:func:`ngram_stats`), S/SU
    (:func:`skip_bigram_stats`), L the union LCS of the sentences (one sentence of the tokens when
    None; counts: the model's sentence tokens and the peer's tokens), LSEQ the LCS of the token
    sequences, LD the distinct tokens on the union LCS with the roles swapped, clipped by each
    side's distinct tokens (the counts).
    """
    rows = []
    for kind, n, weight in specs:
        if kind not in KIND_ROWS.keys() or KIND_ROWS[Kind(kind)].count is None:
            raise ValueError(f"kind code {kind!r} is not one kind_counts counts (ROUGE-W: wlcs_union_hits)")
        if kind in WITH_N and n < 1:
            raise ValueError(f"n must be >= 1, got {n}")
        rows.append(KernelSpec(Kind(kind), n, weight))
    if not rows:
        return ()
    return score_docs(rows, [(peer, peer_sents)], [(model, model_sents)], [0, 1])[0][0]


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
