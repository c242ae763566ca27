"""Block-level building blocks of :mod:`rougekit.process`, on pre-tokenized id arrays.

Distributed front ends (``rougekit.dask``) call these on blocks of the matrix:

* :func:`cdist_block` -- the scores of a block of queries against a block of choices;
* :class:`Greedy` -- the Self-Instruct rule run incrementally: :meth:`Greedy.feed` takes the
  next block of texts in input order and returns their decisions, remembering what it kept;
* :func:`greedy_from_pairs` -- the same decisions from every pair (new, earlier) scoring above
  the threshold, however they were found (e.g. :func:`cdist_block` with ``score_cutoff`` on the
  blocks of the lower triangle, in parallel): the sequential part is then a pass over those pairs;
* :class:`PrefixIndex` -- those pairs for a block of new texts against every text before them,
  from the compiled all-pairs index of the whole input (phase 1 on a cluster).

All go to the kernels the backend chose (``rougekit._core._process`` or its pure-Python twin).
"""

from __future__ import annotations

import threading

import numpy as np

from rougekit.engine.door import available_cores, process_kernels, run_tasks
from rougekit.errors import OptionError

from .encode import Encoded

#: what cdist computes per pair: rouge-score's F, precision, recall, or the LCS length itself
STATS = {"f": 0, "precision": 1, "recall": 2, "hits": -1}
_ROWS_PER_TASK = 16
_PROBE_BLOCK = 256  # texts Greedy probes on threads at once, then decides in order
_FORGET_EVERY = 1 << 15  # PrefixIndex forgets the dropped texts when this many more are decided


def workers_count(workers) -> int:
    """``workers``: a positive number of threads, or -1 for every core this process may use. More
    than the cores are counted as the cores: each thread holds a scratch the size of the vocabulary
    and gains nothing past them (a million would start a million threads)."""
    if workers == -1 or workers is None:
        return available_cores()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise OptionError(f"workers must be a positive integer or -1 (every core), got {workers!r}")
    return min(workers, available_cores())


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
    order = InOrder(n, threshold)
    order.add(0, n, (new, old, score))
    return order.result()


def check_threshold(threshold, name: str = "threshold") -> float:
    """A threshold in [0, 1] (``OptionError`` naming ``name`` otherwise)."""
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float, np.floating, np.integer)):
        raise OptionError(f"{name} must be a number within 0 and 1, got {threshold!r}")
    value = float(threshold)
    if not 0.0 <= value <= 1.0:  # also refuses nan
        raise OptionError(f"{name} must be within 0 and 1, got {threshold!r}")
    return value


class PrefixIndex:
    """Phase 1 of the rule for any block of new texts against all the texts before them
    (:meth:`pairs_above`): the compiled all-pairs index (``_AllPairs``: the prefixes of every text
    over one rarity order, with the length, positional and signature bounds of :class:`Greedy`'s,
    the LCS only on the survivors). Built on the client or driver from the token ids; a pickled
    index carries only the ids and the rank, and is rebuilt once where it lands (each worker).

    ``skip_repeats``: an exact repeat of an earlier text is left out of the earlier side (with a
    threshold below 1 it is always dropped, so it is never a kept match: :func:`greedy_from_pairs`
    needs none of its pairs as the earlier text). ``probes_from``: the texts from that index on are
    only ever the new side (:class:`rougekit.process.nearest.Nearest`: queries after the choices).

    >>> from rougekit.process.encode import Encoder
    >>> e = Encoder("rougeL").encode(["the cat sat on the mat", "the cat sat on a mat", "dogs bark"])
    >>> new, old, f = PrefixIndex(e, 0.7).pairs_above(1, 3)
    >>> new.tolist(), old.tolist(), round(float(f[0]), 4)
    ([1], [0], 0.8333)
    """

    def __init__(
        self, encoded: Encoded, threshold: float, *, skip_repeats: bool = False, probes_from: int | None = None
    ) -> None:
        from .encode import rank_by_frequency

        self.threshold = check_threshold(threshold)
        start, stop = int(encoded.off[0]), int(encoded.off[-1])
        self.ids = np.ascontiguousarray(encoded.ids[start:stop], np.int32)
        self.off = np.ascontiguousarray(encoded.off - start, np.int64)
        self.vocab = encoded.vocab
        self.rank = np.ascontiguousarray(rank_by_frequency(encoded, vocab=self.vocab), np.int32)
        self.indexed = np.ones(len(encoded), dtype=np.uint8)
        if skip_repeats and self.threshold < 1.0:
            self.indexed[_repeats(self.ids, self.off)] = 0
        if probes_from is not None:  # texts from here on only probe: never the earlier side of a pair
            self.indexed[probes_from:] = 0
        self._kernel = None
        self._unbuilt()

    def _unbuilt(self) -> None:
        self._gate = threading.Condition()  # probes share the index; forgetting dropped texts does not
        self._probing = 0
        self._forgotten = 0  # the texts before this have had their dropped ones forgotten

    def __len__(self) -> int:
        return len(self.off) - 1

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        for key in ("_kernel", "_gate", "_probing", "_forgotten"):
            del state[key]  # rebuilt where it is unpickled, on first use
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._kernel = None
        self._unbuilt()

    @property
    def kernel(self):
        """The compiled index (built on first use)."""
        with self._gate:
            if self._kernel is None:
                self._kernel = process_kernels()._AllPairs(self.threshold, self.rank, self.ids, self.off, self.indexed)
        return self._kernel

    def pairs_above(
        self, j0: int, j1: int, dropped: tuple[np.ndarray, int] | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(new, old, F) of every pair old < new, new in ``j0:j1``, with rouge-score's rougeL F above
        the threshold (:func:`greedy_from_pairs` takes them). ``dropped``: :meth:`InOrder.dropped`,
        the texts already dropped, left out of the old side (a dropped text is never a kept match)."""
        kernel = self.kernel
        if dropped is None:
            return kernel.pairs(j0, j1)
        bits, count = dropped
        skip = np.unpackbits(bits, count=count)
        with self._gate:
            if count - self._forgotten >= max(_FORGET_EVERY, len(self) // 16):
                while self._probing:  # the index changes: no probe meanwhile
                    self._gate.wait()
                kernel.forget(skip)  # the dropped texts' entries, read by every later probe, go
                self._forgotten = count
            self._probing += 1
        try:
            return kernel.pairs(j0, j1, skip)
        finally:
            with self._gate:
                self._probing -= 1
                self._gate.notify_all()


class InOrder:
    """Phase 2 as phase 1's blocks come in, in any order: each block's pairs above the threshold
    (:meth:`PrefixIndex.pairs_above`) are resolved by the rule as soon as every block before it is.

    :meth:`dropped` says which texts are dropped so far: a block found after passing it to
    :meth:`PrefixIndex.pairs_above` leaves them out, which saves most of the work and changes no
    decision (only kept texts match). Blocks must tile ``0:n``; :meth:`result` is then
    :func:`greedy_from_pairs`'s (kept, match, score).

    >>> order = InOrder(3, 0.7)
    >>> order.add(2, 3, ([2], [1], [0.9]))
    >>> order.decided
    0
    >>> order.add(0, 2, ([1], [0], [0.8]))
    >>> order.decided, [a.tolist() for a in order.result()]
    (3, [[True, False, True], [-1, 0, -1], [0.0, 0.8, 0.0]])
    """

    def __init__(self, n: int, threshold: float) -> None:
        self.threshold = check_threshold(threshold)
        self.keep = np.ones(n, dtype=np.uint8)
        self.match = np.full(n, -1, dtype=np.int64)
        self.best = np.zeros(n, dtype=np.float64)
        self.decided = 0  # texts 0:decided are decided
        self._waiting: dict[int, tuple[int, tuple]] = {}

    def add(self, j0: int, j1: int, pairs) -> None:
        """The pairs (new, old, F) of new texts ``j0:j1``, every pair with F above the threshold."""
        if j0 in self._waiting or not 0 <= j0 <= j1 <= len(self.keep) or j0 < self.decided:
            raise ValueError(f"block {j0}:{j1} given twice or outside the texts")
        self._waiting[j0] = (j1, pairs)
        while self.decided in self._waiting and self.decided < len(self.keep):
            stop, pairs = self._waiting.pop(self.decided)
            self._resolve(self.decided, stop, *pairs)
            self.decided = stop

    def _resolve(self, j0: int, j1: int, new, old, score) -> None:
        new, old = np.asarray(new, dtype=np.int64), np.asarray(old, dtype=np.int64)
        score = np.asarray(score, dtype=np.float64)
        if not len(new) == len(old) == len(score):
            raise ValueError("new, old and score must have one entry per pair")
        if len(new) and (np.any(old >= new) or np.any(old < 0) or np.any(new < j0) or np.any(new >= j1)):
            raise ValueError(f"every pair must be (new, old) with 0 <= old < new and {j0} <= new < {j1}")
        above = score > self.threshold
        new, old, score = new[above], old[above], score[above]
        order = np.lexsort((old, new))  # by new text, then the earlier text in input order
        process_kernels().greedy_pairs(
            np.ascontiguousarray(new[order]),
            np.ascontiguousarray(old[order]),
            np.ascontiguousarray(score[order]),
            self.keep,
            self.match,
            self.best,
        )

    def dropped(self) -> tuple[np.ndarray, int]:
        """The texts dropped among the decided ones, as (bits packed by ``np.packbits``, count)."""
        return np.packbits(self.keep[: self.decided] == 0), self.decided

    def result(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(kept: bool, match: input index or -1, score) of every text, once all are decided."""
        if self.decided < len(self.keep):
            raise ValueError(f"texts {self.decided}:{len(self.keep)} are not decided yet")
        return self.keep.astype(bool), self.match, self.best


def _repeats(ids: np.ndarray, off: np.ndarray) -> np.ndarray:
    """Indices of the non-empty texts equal (as token sequences) to an earlier text."""
    seen: set[bytes] = set()
    out = []
    raw, bounds = ids.view(np.uint8), (off * 4).tolist()
    for i in range(len(bounds) - 1):
        if bounds[i + 1] == bounds[i]:
            continue
        key = raw[bounds[i] : bounds[i + 1]].tobytes()
        if key in seen:
            out.append(i)
        else:
            seen.add(key)
    return np.array(out, dtype=np.int64)
