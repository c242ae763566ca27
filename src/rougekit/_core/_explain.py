"""Where the counted units are: pure-Python twins of the counting kernels that also give positions.

Each function walks the same loops as its twin in ``_pure`` (the same DP tables and tie-breaks,
the same clipping order), so the matches it lists add up to the hits the kernel counts:

* :func:`ngram_matches`       -- ROUGE-N (and ``distinct=True``: n-gram types)
* :func:`skip_bigram_matches` -- ROUGE-S / ROUGE-SU (the script's unigrams: every token but the last)
* :func:`lcs_union_matches`   -- ROUGE-L: each scoring reference position and its aligned candidate positions
* :func:`wlcs_union_runs`     -- ROUGE-W: each run as the script weighs it, in the kernel's order

A match is ``(key, count, candidate occurrences, reference occurrences)``; an occurrence is a
tuple of token positions. Order: reference order (first occurrence in the reference).

:func:`batch_marks` runs them over many pairs at once and writes their positions as 0/1 marks:
the pure twin of the compiled highlights kernel ``batch_marks`` (``_core._batch``, marks.pxi).
"""

from __future__ import annotations

from rougekit._core._pure import (
    _DIAG,
    _UP,
    _ints,
    _lcs_back,
    _sentences,
    _unigram_table,
    _wlcs_back,
    wlcs_weight,
)
from rougekit._core.kinds import ALL_UNIGRAMS, Kind


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
    peers, models = _sentences(peer_sents), _sentences(model_sents)
    mu, pu = _unigram_table(model_tokens), _unigram_table(peer_tokens)
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
    peers, models = _sentences(peer_sents), _sentences(model_sents)
    mu, pu = _unigram_table(model_tokens), _unigram_table(peer_tokens)
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


# --------------------------------------------------------------------------- many pairs at once


def _flat(sentences: list[list[int]]) -> list[int]:
    """Offset of each sentence's first token in the flattened sentence units."""
    out, at = [], 0
    for s in sentences:
        out.append(at)
        at += len(s)
    return out


def _pair_marks(kind, param, flags, weight, peer, model, peer_units, model_units):
    """(hits, peer positions, model positions) of one entry: the twins above, their positions united."""
    pm: set[int] = set()
    mm: set[int] = set()
    if kind in (Kind.N, Kind.ND, Kind.S, Kind.SU):
        if kind in (Kind.S, Kind.SU):
            every = flags & ALL_UNIGRAMS
            found = skip_bigram_matches(peer, model, param, kind == Kind.SU and not every)
            if every:
                found += ngram_matches(peer, model, 1)
        else:
            found = ngram_matches(peer, model, param, kind == Kind.ND)
        for _, count, there, where in found:
            pm.update(p for occ in there for p in occ)
            mm.update(p for occ in where for p in occ)
        return sum(count for _, count, _, _ in found), pm, mm
    p_at, m_at = _flat(peer_units), _flat(model_units)
    if kind == Kind.LD:  # the roles swapped, the tables of types (DistinctTypes.explain_reference)
        hits, _ = lcs_union_matches(model_units, peer_units, list(dict.fromkeys(model)), list(dict.fromkeys(peer)))
        for r, j, _, aligned in hits:
            pm.add(p_at[r] + j)
            mm.update(m_at[s] + b for s, b in aligned)
        return len(hits), pm, mm
    if kind == Kind.L:
        hits, _ = lcs_union_matches(peer_units, model_units, peer, model)
        for r, j, _, aligned in hits:
            mm.add(m_at[r] + j)
            pm.update(p_at[s] + b for s, b in aligned)
        return len(hits), pm, mm
    if kind != Kind.W:
        raise ValueError(f"no highlights for kind {kind}")
    runs, value = wlcs_union_runs(peer_units, model_units, peer, model, weight)
    for r, run, _ in runs:
        for j, _, aligned in run:
            mm.add(m_at[r] + j)
            pm.update(p_at[s] + b for s, b in aligned)
    return value, pm, mm


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
    output; see marks.pxi): entry by entry, the position twins above."""
    del vocab  # the compiled kernel's dense tables only

    def joined(t):
        return [int(x) for x in toks[tok_off[t] : tok_off[t + 1]]]

    def units(t):
        return [[int(x) for x in utoks[sent_off[k] : sent_off[k + 1]]] for k in range(text_sents[t], text_sents[t + 1])]

    for e in range(len(peer)):
        p, m = int(peer[e]), int(model[e])
        value, pm, mm = _pair_marks(kind, param, flags, weight, joined(p), joined(m), units(p), units(m))
        hits[e] = value
        for q in pm:
            peer_marks[peer_at[e] + q] = 1
        for q in mm:
            model_marks[model_at[e] + q] = 1
