"""Block-level building blocks of :mod:`rougekit.process`, on pre-tokenized id arrays.

Distributed front ends (``rougekit.dask``) call these on blocks of the matrix:

* :func:`cdist_block` -- the scores of a block of queries against a block of choices;
* :class:`Greedy` -- the Self-Instruct rule run incrementally: :meth:`Greedy.feed` takes the
  next block of texts in input order and returns their decisions, remembering what it kept;
* :func:`greedy_from_pairs` -- the same decisions from every pair (new, earlier) scoring above
  the threshold, however they were found (e.g. :func:`cdist_block` with ``score_cutoff`` on the
  blocks of the lower triangle, in parallel): the sequential part is then a pass over those pairs.

Both go to the kernels the backend chose (``rougekit._core._process`` or its pure-Python twin).
"""

from __future__ import annotations

import numpy as np

from rougekit.engine.door import available_cores, process_kernels, run_tasks
from rougekit.errors import OptionError

from .encode import Encoded

#: what cdist computes per pair: rouge-score's F, precision, recall, or the LCS length itself
STATS = {"f": 0, "precision": 1, "recall": 2, "hits": -1}
_ROWS_PER_TASK = 16
_PROBE_BLOCK = 256  # texts Greedy probes on threads at once, then decides in order


def workers_count(workers) -> int:
    """``workers``: a positive number of threads, or -1 for every core this process may use."""
    if workers == -1 or workers is None:
        return available_cores()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise OptionError(f"workers must be a positive integer or -1 (every core), got {workers!r}")
    return workers


def _run_rows(nrows: int, workers: int, job) -> None:
    """Call ``job(r0, r1)`` over the row ranges, on ``workers`` threads (the kernels release the GIL),
    this one included: the engine's :func:`~rougekit.engine.threads.run_tasks` (Ctrl-C as there)."""
    run_tasks([(r, min(nrows, r + _ROWS_PER_TASK)) for r in range(0, nrows, _ROWS_PER_TASK)], workers, job)


def cdist_block(
    queries: Encoded,
    choices: Encoded,
    *,
    stat: str = "f",
    score_cutoff: float | None = None,
    dtype=np.float64,
    workers: int = 1,
    vocab: int | None = None,
) -> np.ndarray:
    """rouge-score's rougeL ``stat`` of every query (candidate) against every choice (reference).

    ``stat`` is ``"f"``, ``"precision"``, ``"recall"`` (a ``dtype`` matrix, 0 below
    ``score_cutoff``; pairs whose length bound cannot reach it are not computed) or ``"hits"``
    (the LCS lengths, an int32 matrix). ``vocab``: one more than the largest id of both blocks.
    """
    if stat not in STATS:
        raise OptionError(f"stat must be one of {', '.join(STATS)}, got {stat!r}")
    kernels = process_kernels()
    nq, nc = len(queries), len(choices)
    vocab = vocab if vocab is not None else max(queries.vocab, choices.vocab)
    cutoff = float(score_cutoff) if score_cutoff is not None else -1.0
    code = STATS[stat]
    q_ids, q_off = np.ascontiguousarray(queries.ids, np.int32), np.ascontiguousarray(queries.off, np.int64)
    c_ids, c_off = np.ascontiguousarray(choices.ids, np.int32), np.ascontiguousarray(choices.off, np.int64)
    if code < 0:
        out = np.zeros((nq, nc), dtype=np.int32)
        dummy = np.zeros((1, 1), dtype=np.float64)

        def job(r0: int, r1: int) -> None:
            kernels.cdist_rows(q_ids, q_off, c_ids, c_off, r0, r1, -1, 0.0, dummy, out[r0:r1], vocab)

    else:
        out = np.zeros((nq, nc), dtype=np.dtype(dtype))
        if out.dtype not in (np.float32, np.float64):
            raise OptionError(f"dtype must be float32 or float64, got {out.dtype}")
        hits = np.zeros((1, 1), dtype=np.int32)

        def job(r0: int, r1: int) -> None:
            kernels.cdist_rows(q_ids, q_off, c_ids, c_off, r0, r1, code, cutoff, out, hits, vocab)

    if nq and nc:
        _run_rows(nq, workers_count(workers), job)
    return out


def lcs_pairs(a: Encoded, b: Encoded, ia, ib, vocab: int | None = None) -> np.ndarray:
    """LCS lengths of the pairs (text ``ia[k]`` of a, text ``ib[k]`` of b), int32."""
    ia, ib = np.ascontiguousarray(ia, np.int64), np.ascontiguousarray(ib, np.int64)
    out = np.zeros(len(ia), dtype=np.int32)
    vocab = vocab if vocab is not None else max(a.vocab, b.vocab)
    process_kernels().lcs_pairs(
        np.ascontiguousarray(a.ids, np.int32), a.off, np.ascontiguousarray(b.ids, np.int32), b.off, ia, ib, out, vocab
    )
    return out


class Greedy:
    """The Self-Instruct rule over blocks fed in input order (rouge-score's rougeL F).

    A text is kept iff its F against every text kept before it is at most ``threshold``; a
    dropped text's match is the kept text with the best F (the first in input order on ties).
    ``rank`` orders the token ids for the prefix index (:func:`~rougekit.process.encode.rank_by_frequency`
    of all the texts is the fast choice; any order gives the same decisions); every id fed must be
    below ``len(rank)``. ``workers`` threads (-1: every core) probe the index for a block of
    texts at once; the block is then decided in input order: the same decisions for any number.

    >>> from rougekit.process.encode import Encoder, rank_by_frequency
    >>> enc = Encoder("rougeL")
    >>> texts = enc.encode(["the cat sat on the mat", "the cat sat on a mat", "dogs bark"])
    >>> g = Greedy(0.7, rank_by_frequency(texts))
    >>> keep, match, score = g.feed(texts)
    >>> keep.tolist(), match.tolist(), round(float(score[1]), 4)
    ([True, False, True], [-1, 0, -1], 0.8333)
    """

    def __init__(self, threshold: float, rank, workers: int = 1) -> None:
        self.threshold = check_threshold(threshold)
        self.rank = np.ascontiguousarray(rank, dtype=np.int32)
        self.workers = workers_count(workers)
        self._state = process_kernels()._Greedy(self.threshold, self.rank)
        self._state.set_workers(self.workers)

    @property
    def seen(self) -> int:
        """Texts decided so far (the input index of the next text fed)."""
        return self._state.seen_count

    @property
    def kept(self) -> int:
        return self._state.kept_count

    @property
    def lcs_computed(self) -> int:
        """Pairs whose LCS was computed (after the index and the bounds)."""
        return self._state.pairs_lcs

    def feed(self, block: Encoded) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Decide the next texts: (kept: bool, match: input index or -1, score: float64) arrays."""
        n = len(block)
        keep = np.zeros(n, dtype=np.uint8)
        match = np.full(n, -1, dtype=np.int64)
        score = np.zeros(n, dtype=np.float64)
        if n:
            start = int(block.off[0])
            ids = np.ascontiguousarray(block.ids[start : int(block.off[-1])], np.int32)
            off = np.ascontiguousarray(block.off - start, np.int64)
            if self.workers > 1:
                self._feed_on_threads(ids, off, keep, match, score)
            else:
                self._state.feed(ids, off, keep, match, score)
        return keep.astype(bool), match, score

    def _feed_on_threads(self, ids, off, keep, match, score) -> None:
        """Blocks of texts: each probed on the threads against the texts kept before it (the index is
        only read meanwhile), then decided in input order with the texts kept earlier in the block."""
        state, workers = self._state, self.workers
        for a in range(0, len(off) - 1, _PROBE_BLOCK):
            b = min(len(off) - 1, a + _PROBE_BLOCK)
            part_ids, part_off = ids[off[a] : off[b]], np.ascontiguousarray(off[a : b + 1] - off[a])
            slot, best = np.full(b - a, -1, dtype=np.int64), np.zeros(b - a, dtype=np.float64)
            state.prepare(part_off)

            def probe(k: int, part_ids=part_ids, part_off=part_off, slot=slot, best=best) -> None:
                state.probe(part_ids, part_off, k, workers, k, slot, best)

            run_tasks([(k,) for k in range(workers)], workers, probe)
            state.resolve(part_ids, part_off, slot, best, keep[a:b], match[a:b], score[a:b])


def greedy_from_pairs(n: int, new, old, score, threshold: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The Self-Instruct decisions of ``n`` texts from the pairs above the threshold.

    ``new[k] > old[k]`` are input indices and ``score[k]`` the F of text ``new[k]`` against the
    earlier ``old[k]``; every pair with F > ``threshold`` must be given (others are ignored).
    Returns what :meth:`Greedy.feed` returns for all ``n`` texts: (kept, match, score).

    >>> keep, match, best = greedy_from_pairs(4, [1, 2, 3, 3], [0, 1, 2, 0], [0.8, 0.9, 0.75, 0.75], 0.7)
    >>> keep.tolist(), match.tolist(), best.tolist()
    ([True, False, True, False], [-1, 0, -1, 0], [0.0, 0.8, 0.0, 0.75])
    """
    threshold = check_threshold(threshold)
    new, old = np.asarray(new, dtype=np.int64), np.asarray(old, dtype=np.int64)
    score = np.asarray(score, dtype=np.float64)
    if len(new) and (np.any(old >= new) or np.any(old < 0) or np.any(new >= n)):
        raise ValueError("every pair must be (new, old) with 0 <= old < new < n")
    above = score > threshold
    new, old, score = new[above], old[above], score[above]
    order = np.lexsort((old, new))  # by new text, then the earlier text in input order
    new, old, score = new[order].tolist(), old[order].tolist(), score[order].tolist()
    keep = np.ones(n, dtype=bool)
    match = np.full(n, -1, dtype=np.int64)
    best = np.zeros(n, dtype=np.float64)
    k = 0
    while k < len(new):
        i, top, arg = new[k], -1.0, -1
        while k < len(new) and new[k] == i:
            if keep[old[k]] and score[k] > top:  # the first of the best kept texts
                top, arg = score[k], old[k]
            k += 1
        if arg >= 0:
            keep[i], match[i], best[i] = False, arg, top
    return keep, match, best


def check_threshold(threshold) -> float:
    """A threshold in [0, 1] (``OptionError`` otherwise)."""
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float, np.floating, np.integer)):
        raise OptionError(f"threshold must be a number within 0 and 1, got {threshold!r}")
    value = float(threshold)
    if not 0.0 <= value <= 1.0:  # also refuses nan
        raise OptionError(f"threshold must be within 0 and 1, got {threshold!r}")
    return value


def _prefix_elements(e: Encoded, rank: np.ndarray, threshold: float, width: int) -> tuple[np.ndarray, np.ndarray]:
    """(element key, text) of the prefix of every text: its tokens as a bag, each occurrence an element
    ``(token, k)`` (the k-th time it is in the text), ordered by the token's rank then k; a text of
    n tokens keeps the first ``n - o + 1`` where ``o`` is a lower bound of the LCS of any pair with F
    above ``threshold`` (``LCS > t n / (2 - t)``, at least 1), so two texts with F above the threshold
    share an element of their prefixes (prefix filtering; the bag overlap bounds the LCS)."""
    n = len(e)
    lengths = e.lengths.astype(np.int64)
    text = np.repeat(np.arange(n, dtype=np.int64), lengths)
    ids = np.ascontiguousarray(e.ids[int(e.off[0]) : int(e.off[-1])], dtype=np.int64)
    order = np.lexsort((np.arange(len(ids)), ids, text))  # by text, token, position
    tok, txt = ids[order], text[order]
    start = np.ones(len(tok), dtype=bool)
    start[1:] = (tok[1:] != tok[:-1]) | (txt[1:] != txt[:-1])
    first = np.maximum.accumulate(np.where(start, np.arange(len(tok)), 0))
    occurrence = np.arange(len(tok)) - first
    key = tok * width + occurrence  # the element (token, occurrence)
    by_rank = np.lexsort((occurrence, rank[tok].astype(np.int64), txt))  # each text's elements rarest first
    key, txt = key[by_rank], txt[by_rank]
    low = np.floor(threshold * lengths / (2.0 - threshold) - 1e-6).astype(np.int64)
    keep_n = lengths - np.maximum(low, 1) + 1
    text_start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=text_start[1:])
    place = np.arange(len(key)) - text_start[txt]
    inside = place < keep_n[txt]
    return key[inside], txt[inside]


class PrefixIndex:
    """The prefix elements of every text of a corpus, sorted by element: phase 1 of the rule for any
    block of new texts against all the texts before them (:meth:`pairs_above`), without the block
    matrix. Built once (on the client or the driver), shipped to the workers with the token ids.

    >>> from rougekit.process.encode import Encoder
    >>> e = Encoder("rougeL").encode(["the cat sat on the mat", "the cat sat on a mat", "dogs bark"])
    >>> new, old, f = PrefixIndex(e, 0.7).pairs_above(1, 3)
    >>> new.tolist(), old.tolist(), round(float(f[0]), 4)
    ([1], [0], 0.8333)
    """

    def __init__(self, encoded: Encoded, threshold: float) -> None:
        from .encode import rank_by_frequency

        self.threshold = check_threshold(threshold)
        self.encoded = encoded
        self.vocab = encoded.vocab
        rank = rank_by_frequency(encoded, vocab=self.vocab)
        self.width = int(encoded.lengths.max(initial=0)) + 1
        key, text = _prefix_elements(encoded, rank, self.threshold, self.width)
        # by element then text: (element, text) as one int64, so a lookup takes only the earlier texts
        self._n = max(1, len(encoded))
        order = np.argsort(key, kind="stable")
        self.key, self.text = key[order] * self._n + text[order], text[order]
        self._sig = _signatures(encoded)
        # the same elements by text, to find a block's own
        by_text = np.argsort(text, kind="stable")
        self._own_key = key[by_text]
        self._own_start = np.searchsorted(text[by_text], np.arange(len(encoded) + 1))

    def candidates(self, j0: int, j1: int) -> tuple[np.ndarray, np.ndarray]:
        """(new, old) of the pairs old < new, new in ``j0:j1``, sharing a prefix element and passing
        the length bound."""
        s0, s1 = int(self._own_start[j0]), int(self._own_start[j1])
        keys = self._own_key[s0:s1]
        owner = np.repeat(np.arange(j0, j1, dtype=np.int64), np.diff(self._own_start[j0 : j1 + 1]))
        lo = np.searchsorted(self.key, keys * self._n, side="left")
        hi = np.searchsorted(self.key, keys * self._n + owner, side="left")  # the texts before the owner
        count = hi - lo
        total = int(count.sum())
        new = np.repeat(owner, count)
        old = self.text[np.repeat(lo, count) + (np.arange(total) - np.repeat(np.cumsum(count) - count, count))]
        if len(new):  # each pair once (a pair shares several elements): sorted, repeats dropped
            pair = np.sort(new * len(self.encoded) + old)
            first = np.ones(len(pair), dtype=bool)
            first[1:] = pair[1:] != pair[:-1]
            pair = pair[first]
            new, old = pair // len(self.encoded), pair % len(self.encoded)
        lengths = self.encoded.lengths
        m, n = lengths[old], lengths[new]
        # the signature bound on the bag overlap (so on the LCS): a bit of y's signature missing in
        # x's is a token of y missing in x; F = 2 LCS / (m + n) (the margin keeps rounding out of it)
        xs, ys = self._sig[new], self._sig[old]
        ub = np.minimum(m - _popcount(ys & ~xs), n - _popcount(xs & ~ys))
        fits = 2.0 * ub / np.maximum(m + n, 1) > self.threshold - 1e-9
        return new[fits], old[fits]

    def pairs_above(self, j0: int, j1: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(new, old, F) of every pair old < new, new in ``j0:j1``, with rouge-score's rougeL F above
        the threshold (:func:`greedy_from_pairs` takes them)."""
        new, old = self.candidates(j0, j1)
        if not len(new):
            return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
        f = _f_of_pairs(self.encoded, self.encoded, old, new, self.vocab)
        above = f > self.threshold
        return new[above], old[above], f[above]


def _f_of_pairs(a: Encoded, b: Encoded, ia: np.ndarray, ib: np.ndarray, vocab: int) -> np.ndarray:
    """rouge-score's rougeL F of the pairs (``a[ia]`` the prediction, ``b[ib]`` the target)."""
    lcs = lcs_pairs(a, b, ia, ib, vocab).astype(np.float64)
    p, r = lcs / a.lengths[ia], lcs / b.lengths[ib]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(p + r > 0, 2 * p * r / (p + r), 0.0)


_BITS = np.array([bin(v).count("1") for v in range(256)], dtype=np.int64)


def _popcount(words: np.ndarray) -> np.ndarray:
    """Bits set in each row of a (k, 2) uint64 array."""
    if hasattr(np, "bitwise_count"):  # numpy 2
        return np.bitwise_count(words).sum(axis=1, dtype=np.int64)
    return _BITS[np.ascontiguousarray(words).view(np.uint8).reshape(len(words), -1)].sum(axis=1)


def _signatures(e: Encoded) -> np.ndarray:
    """A 128-bit signature of each text's tokens, (n, 2) uint64: the bit of a token is the top 7 bits
    of its id times a Fibonacci-hashing constant (mod 2**64)."""
    n = len(e)
    out = np.zeros((n, 2), dtype=np.uint64)
    ids = e.ids[int(e.off[0]) : int(e.off[-1])].astype(np.uint64)
    if not len(ids):
        return out
    with np.errstate(over="ignore"):
        bit = (ids * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(57)
    text = np.repeat(np.arange(n), e.lengths)
    high = bit >= 64
    word = np.left_shift(np.uint64(1), bit % np.uint64(64))
    for half, mask in ((0, ~high), (1, high)):
        np.bitwise_or.at(out[:, half], text[mask], word[mask])
    return out
