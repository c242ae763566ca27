"""``rougekit.dask.cdist``, ``extract`` and ``dedup``: :mod:`rougekit.process` over blocks of the matrix.

Each task scores one block (a slice of the queries against a slice of the choices) with
:func:`rougekit.process.cdist` in a worker; a block's texts are tokenized in that task, and
every number depends only on its pair, so the blocks are exactly the single-process matrix's.

``dedup`` runs the Self-Instruct rule the same way as :func:`rougekit.process.dedup` decides it:
the workers find, on the blocks of the lower triangle (each text against the texts before it),
every pair scoring above the threshold (rougeL: by prefix filtering, the LCS only on the pairs
that share a prefix token and pass the bounds, the compiled :class:`rougekit.process.blocks.PrefixIndex`);
the client then applies the rule to those pairs in input order
(:func:`rougekit.process.greedy_from_pairs`), which needs no other pair.
"""

from __future__ import annotations

import numpy as np

from rougekit.api import check_keywords
from rougekit.dask.scoring import _dask
from rougekit.engine.door import available_cores
from rougekit.process import DedupResult, Match
from rougekit.process import cdist as process_cdist
from rougekit.process.blocks import InOrder, PrefixIndex
from rougekit.process.cluster import block_shape, checked_call, checked_limit, pairs_above
from rougekit.process.core import dedup_decided, dedup_from_pairs, dedup_threshold
from rougekit.process.encode import NOT_HERE, ROUGE_SCORE_L, Encoder, check_texts, measure_name
from rougekit.process.topk import block_best, merged_matches

_MATRIX_KEYWORDS = ("measure", "stat", "score_cutoff", "dtype", "block_size")  # for the hint of a misspelt one
_DEDUP_KEYWORDS = ("threshold", "measure", "keep", "block_size")


def cdist(
    queries,
    choices,
    *,
    measure="ROUGE-L",
    stat: str = "f",
    score_cutoff: float | None = None,
    dtype=np.float32,
    block_size: tuple[int, int] = (1000, 10000),
    **options,
) -> np.ndarray:
    """:func:`rougekit.process.cdist` computed block by block on the current Dask scheduler; the same
    ``len(queries) x len(choices)`` matrix. ``block_size`` is (query rows, choice columns) per task;
    each task uses one thread (``workers=1``)."""
    check_keywords(options, "rougekit.dask.cdist", named=_MATRIX_KEYWORDS, refused=NOT_HERE)
    dask = _dask()
    rows, cols, queries, choices = checked_call(queries, choices, measure, block_size, options)
    q_blocks = _blocks(dask, queries, rows)
    c_blocks = _blocks(dask, choices, cols)
    call = dict(measure=measure, stat=stat, score_cutoff=score_cutoff, dtype=dtype, workers=1, **options)
    tasks = [[dask.delayed(process_cdist)(q, c, **call) for _, c in c_blocks] for _, q in q_blocks]
    out = np.zeros((len(queries), len(choices)), dtype=np.dtype(dtype))
    done = dask.compute(*[t for row in tasks for t in row])
    k = 0
    for r0, _ in q_blocks:
        for c0, _ in c_blocks:
            block = done[k]
            out[r0 : r0 + block.shape[0], c0 : c0 + block.shape[1]] = block
            k += 1
    return out


def extract(
    queries,
    choices,
    *,
    limit: int | None = 5,
    score_cutoff: float | None = None,
    measure="ROUGE-L",
    stat: str = "f",
    block_size: tuple[int, int] = (1000, 10000),
    **options,
) -> list[list[Match]]:
    """:func:`rougekit.process.extract` for every query, block by block on the current Dask scheduler:
    per query, its best ``limit`` choices (all with None), best first, the lower index on ties, none
    below ``score_cutoff``; each block's best merged (:mod:`rougekit.process.topk`), so the matches are
    the single-process call's."""
    check_keywords(options, "rougekit.dask.extract", named=("limit", *_MATRIX_KEYWORDS), refused=NOT_HERE)
    dask = _dask()
    limit = checked_limit(limit, score_cutoff)
    rows, cols, queries, choices = checked_call(queries, choices, measure, block_size, options)
    call = dict(measure=measure, stat=stat, score_cutoff=score_cutoff, **options)
    q_blocks = _blocks(dask, queries, rows)
    c_blocks = _blocks(dask, choices, cols)
    tasks = [dask.delayed(_best)(q, c, c0, limit, call) for _, q in q_blocks for c0, c in c_blocks]
    done = iter(dask.compute(*tasks))
    blocks = [(r0, c0, next(done)) for r0, _ in q_blocks for c0, _ in c_blocks]
    return merged_matches(choices, len(queries), blocks, limit)


def _best(queries: list, choices: list, c0: int, limit, call: dict) -> list:
    scores = process_cdist(queries, choices, dtype=np.float64, workers=1, **call)
    return block_best(scores, c0, limit, call["score_cutoff"])


def dedup(
    texts, *, threshold: float = 0.7, measure="rougeL", keep: str = "first", block_size: int = 2000, **options
) -> DedupResult:
    """:func:`rougekit.process.dedup` with the pairs above ``threshold`` found by the Dask workers; the
    same ``kept`` and ``dropped``. rougeL: the texts are tokenized here into one prefix index
    (:class:`rougekit.process.blocks.PrefixIndex`), each task the ``block_size`` next texts against
    every text before them; other measures: ``block_size`` x ``block_size`` blocks of the lower triangle."""
    check_keywords(options, "rougekit.dask.dedup", named=_DEDUP_KEYWORDS, refused=NOT_HERE)
    dask = _dask()
    threshold = dedup_threshold(threshold, keep)
    size, _ = block_shape((block_size, block_size))
    texts = check_texts(texts, "texts")
    encoder = Encoder(measure, **options)
    name = measure_name(encoder.measure)
    if encoder.measure == ROUGE_SCORE_L:  # one prefix index, each task a block of new texts against it
        index = PrefixIndex(encoder.encode(texts, "texts"), threshold, skip_repeats=True)
        return dedup_decided(_index_dedup(dask, index, size).result(), threshold, name)
    blocks = _blocks(dask, texts, size)
    tasks = [
        dask.delayed(pairs_above)(old, new, o0, n0, threshold, measure, options)
        for n0, new in blocks
        for o0, old in blocks
        if o0 <= n0
    ]
    return dedup_from_pairs(len(texts), list(dask.compute(*tasks)), threshold, name)


def _index_dedup(dask, index: PrefixIndex, size: int) -> InOrder:
    """The rule over blocks of ``size`` new texts, each found by a task against every text before
    it but those already dropped: the client decides the blocks in order as they come and passes
    the texts dropped so far to the next tasks (fewer pairs to find, the same decisions)."""
    n = len(index)
    order = InOrder(n, index.threshold)
    blocks = [(j0, min(n, j0 + size)) for j0 in range(0, n, size)]
    client = _client()
    if client is not None:  # a pipeline: a new task as soon as one ends, two per worker thread
        shipped = client.scatter(index, broadcast=True, hash=False)  # each worker builds its index once
        return _pipeline(client, shipped, blocks, order)
    shipped = dask.delayed(index, traverse=False)
    width = len(blocks) if _processes(dask) else 4 * available_cores()  # processes get the index each wave
    for w in range(0, len(blocks), width):
        wave, dropped = blocks[w : w + width], order.dropped()
        found = dask.compute(*[dask.delayed(_index_pairs)(shipped, j0, j1, dropped) for j0, j1 in wave])
        for (j0, j1), pairs in zip(wave, found):
            order.add(j0, j1, pairs)
    return order


def _pipeline(client, shipped, blocks: list, order: InOrder) -> InOrder:
    from distributed import as_completed

    where: dict = {}

    def submit(block):
        future = client.submit(_index_pairs, shipped, *block, order.dropped(), pure=False)
        where[future.key] = block
        return future

    todo = iter(blocks)
    slots = 2 * max(1, sum(client.nthreads().values()))
    running = as_completed([submit(b) for _, b in zip(range(slots), todo)], with_results=True)
    for future, pairs in running:
        order.add(*where.pop(future.key), pairs)
        block = next(todo, None)
        if block is not None:
            running.add(submit(block))
    return order


def _processes(dask) -> bool:
    """Whether the local scheduler of processes runs the tasks."""
    from dask.base import get_scheduler

    try:
        import dask.multiprocessing
    except ImportError:
        return False
    return get_scheduler() is dask.multiprocessing.get


def _client():
    """The ``distributed`` client the computation runs on, or None (another scheduler)."""
    try:
        from dask.base import get_scheduler
        from distributed import get_client

        client = get_client()
    except (ImportError, ValueError):
        return None
    if getattr(get_scheduler(), "__self__", None) is not client:  # another scheduler asked for (config)
        return None
    return client


def _index_pairs(index: PrefixIndex, j0: int, j1: int, dropped):
    """The pairs above the threshold of new texts ``j0:j1`` against every text before them but the
    ``dropped`` ones."""
    return index.pairs_above(j0, j1, dropped)


def _blocks(dask, texts: list, size: int) -> list[tuple[int, object]]:
    """(start, delayed list of texts) per block: each block is sent once to each worker that needs it."""
    return [(s, dask.delayed(texts[s : s + size], traverse=False)) for s in range(0, len(texts), size)]
