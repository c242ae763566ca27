"""``rougekit.spark.cdist``, ``extract`` and ``dedup``: :mod:`rougekit.process` over blocks, in Spark tasks.

The texts are sent to the executors once (broadcast); each task scores one block (a slice of the
queries against a slice of the choices) with :func:`rougekit.process.cdist` in its Python worker.
Every number depends only on its pair, so the blocks are exactly the single-process matrix's:
``cdist`` returns the same matrix, ``extract`` the same matches (each block's best, merged in
:mod:`rougekit.process.topk`), and ``dedup`` the same decisions (the pairs above the threshold found
in the tasks, the rule applied to them in input order on the driver, as ``rougekit.dask.dedup``).
An error in a task (a text the tokenizer refuses) comes back as data and is raised on the driver,
naming the text by its index in the whole input.
"""

from __future__ import annotations

import re
from functools import partial

import numpy as np

from rougekit.api import check_keywords
from rougekit.errors import InputError, OptionError, RougeKitError
from rougekit.process import DedupResult, Match
from rougekit.process import cdist as process_cdist
from rougekit.process.blocks import InOrder, PrefixIndex
from rougekit.process.cluster import block_shape, checked_call, checked_limit, pairs_above
from rougekit.process.core import dedup_decided, dedup_from_pairs, dedup_threshold
from rougekit.process.encode import NOT_HERE, ROUGE_SCORE_L, Encoder, check_texts, measure_name
from rougekit.process.topk import block_best, merged_matches

_INDEX_BLOCK = 8000  # dedup rougeL: new texts a task (1M texts, local[2]: 2,000 -> 8,000 took 43 -> 34 s)
_ERRORS = {"TypeError": TypeError, "ValueError": ValueError, "InputError": InputError, "OptionError": OptionError}
_NAMED = (  # how process names a text: by its index, or by its number counted from 1
    re.compile(r"^(?P<side>queries|choices|texts)\[(?P<at>\d+)\]"),
    re.compile(r"^(?P<side>queries|choices|texts): text (?P<at>\d+)"),
)


# for the hint of a misspelt keyword
_MATRIX_KEYWORDS = ("spark", "measure", "stat", "score_cutoff", "dtype", "block_size")
_DEDUP_KEYWORDS = ("spark", "threshold", "measure", "keep", "block_size")


def cdist(
    queries,
    choices,
    *,
    spark=None,
    measure="ROUGE-L",
    stat: str = "f",
    score_cutoff: float | None = None,
    dtype=np.float32,
    block_size: tuple[int, int] = (1000, 10000),
    **options,
) -> np.ndarray:
    """:func:`rougekit.process.cdist` computed block by block in Spark tasks; the same
    ``len(queries) x len(choices)`` matrix. ``queries``/``choices``: texts, or a one-column Spark
    DataFrame (collected in its order); ``spark``: the session (default: the active one);
    ``block_size``: (query rows, choice columns) per task, each task one thread."""
    check_keywords(options, "rougekit.spark.cdist", named=_MATRIX_KEYWORDS, refused=NOT_HERE)
    session = _session(spark)
    rows, cols, queries, choices = checked_call(queries, choices, measure, block_size, options, _texts)
    call = dict(measure=measure, stat=stat, score_cutoff=score_cutoff, dtype=dtype, **options)
    out = np.zeros((len(queries), len(choices)), dtype=np.dtype(dtype))
    for r0, c0, block in _run(session, queries, choices, rows, cols, partial(_cdist_task, call=call)):
        out[r0 : r0 + block.shape[0], c0 : c0 + block.shape[1]] = block
    return out


def extract(
    queries,
    choices,
    *,
    spark=None,
    limit: int | None = 5,
    score_cutoff: float | None = None,
    measure="ROUGE-L",
    stat: str = "f",
    block_size: tuple[int, int] = (1000, 10000),
    **options,
) -> list[list[Match]]:
    """:func:`rougekit.process.extract` for every query, in Spark tasks: per query, its best ``limit``
    choices (all with None), best first, the lower index on ties, none below ``score_cutoff``; the
    same matches as the single-process call. Options as :func:`cdist`."""
    check_keywords(options, "rougekit.spark.extract", named=("limit", *_MATRIX_KEYWORDS), refused=NOT_HERE)
    session = _session(spark)
    limit = checked_limit(limit, score_cutoff)
    rows, cols, queries, choices = checked_call(queries, choices, measure, block_size, options, _texts)
    call = dict(measure=measure, stat=stat, score_cutoff=score_cutoff, dtype=np.float64, **options)
    task = partial(_extract_task, call=call, limit=limit, score_cutoff=score_cutoff)
    return merged_matches(choices, len(queries), _run(session, queries, choices, rows, cols, task), limit)


def dedup(
    texts,
    *,
    spark=None,
    threshold: float = 0.7,
    measure="rougeL",
    keep: str = "first",
    block_size: int | None = None,
    **options,
) -> DedupResult:
    """:func:`rougekit.process.dedup` with the pairs above ``threshold`` found in Spark tasks; the same
    ``kept`` and ``dropped``. rougeL: each task the next ``block_size`` texts (default 8,000: a
    Spark task costs tens of milliseconds) against the texts before them through one broadcast
    prefix index; other measures: ``block_size`` x ``block_size`` blocks (default 2,000) of the
    lower triangle."""
    check_keywords(options, "rougekit.spark.dedup", named=_DEDUP_KEYWORDS, refused=NOT_HERE)
    session = _session(spark)
    threshold = dedup_threshold(threshold, keep)
    encoder = Encoder(measure, **options)
    if block_size is None:
        block_size = _INDEX_BLOCK if encoder.measure == ROUGE_SCORE_L else 2000
    size, _ = block_shape((block_size, block_size))
    texts = _texts(texts, "texts")
    name = measure_name(encoder.measure)
    if encoder.measure == ROUGE_SCORE_L:  # one prefix index, broadcast; each task a block of new texts
        index = PrefixIndex(encoder.encode(texts, "texts"), threshold, skip_repeats=True)
        return dedup_decided(_index_run(session, index, size).result(), threshold, name)
    task = partial(pairs_above, threshold=threshold, measure=measure, options=options)
    found = _run(session, texts, texts, size, size, task, lower=True)
    return dedup_from_pairs(len(texts), [f[2] for f in found], threshold, name)


def _index_run(session, index: PrefixIndex, size: int) -> InOrder:
    """The rule over blocks of ``size`` new texts, found in Spark tasks from the broadcast index
    against every text before them but those already dropped: a job a wave of blocks, each wave
    told the texts the driver has dropped so far (fewer pairs to find, the same decisions)."""
    n = len(index)
    order = InOrder(n, index.threshold)
    if not n:
        return order
    sc = session.sparkContext
    shared = sc.broadcast(index)
    blocks = [(j0, min(n, j0 + size)) for j0 in range(0, n, size)]
    width = max(1, sc.defaultParallelism)  # a task a core: the next wave knows more texts dropped
    try:
        for w in range(0, len(blocks), width):
            wave = blocks[w : w + width]
            task = partial(_index_block, shared=shared, dropped=order.dropped())
            for (j0, j1), pairs in zip(wave, sc.parallelize(wave, len(wave)).map(task).collect()):
                order.add(j0, j1, pairs)
        return order
    finally:
        shared.unpersist()


def _index_block(block: tuple[int, int], shared, dropped):
    return shared.value.pairs_above(*block, dropped)  # one index per Python worker, built once there


def _cdist_task(queries: list, choices: list, r0: int, c0: int, call: dict):
    return process_cdist(queries, choices, workers=1, **call)


def _extract_task(queries: list, choices: list, r0: int, c0: int, call: dict, limit, score_cutoff):
    scores = process_cdist(queries, choices, workers=1, **call)
    return block_best(scores, c0, limit, score_cutoff)


def _run(session, queries: list, choices: list, rows: int, cols: int, task, lower: bool = False) -> list:
    """``task(query block, choice block, r0, c0)`` on every block, in Spark tasks: (r0, c0, its value)
    per block. ``lower``: only the blocks with c0 <= r0 (dedup's lower triangle; queries are choices)."""
    sc = session.sparkContext
    q = sc.broadcast(queries)
    c = q if queries is choices else sc.broadcast(choices)
    try:
        blocks = [
            (r0, c0)
            for r0 in range(0, len(queries), rows)
            for c0 in range(0, len(choices), cols)
            if not lower or c0 <= r0
        ]
        if not blocks:
            return []
        run = partial(_block, q=q, c=c, rows=rows, cols=cols, task=task, lower=lower)
        done = sc.parallelize(blocks, len(blocks)).map(run).collect()
    finally:
        q.unpersist()
        if c is not q:
            c.unpersist()
    errors = [_error(value, r0, c0, lower) for r0, c0, value in done if isinstance(value, str)]
    if errors:
        raise min(errors, key=lambda e: e[0])[1]
    return done


def _block(spec: tuple[int, int], q, c, rows: int, cols: int, task, lower: bool):
    """The executor's side: one block; an error comes back as text (``kind|message``)."""
    r0, c0 = spec
    queries, choices = q.value[r0 : r0 + rows], c.value[c0 : c0 + cols]
    try:
        if lower:  # dedup: the earlier block is the candidate side (old), the later the new texts
            return r0, c0, task(choices, queries, c0, r0)
        return r0, c0, task(queries, choices, r0, c0)
    except (TypeError, ValueError, RougeKitError) as e:
        return r0, c0, f"{type(e).__name__}|{e}"


def _error(note: str, r0: int, c0: int, lower: bool) -> tuple[tuple[int, int], Exception]:
    """A task's error for the driver, the text named by its index in the whole input; with the key
    that orders errors as the single process meets them (every query before any choice, by index)."""
    kind, _, message = note.partition("|")
    key = (2, 0)
    for pattern in _NAMED:
        hit = pattern.match(message)
        if hit:
            side = hit["side"]
            offset = (c0 if side == "queries" else r0) if lower else (r0 if side == "queries" else c0)
            at = int(hit["at"]) + offset
            key = (0 if lower or side == "queries" else 1, at)
            side = "texts" if lower else side
            named = hit[0].replace(hit["side"], side, 1).replace(hit["at"], str(at), 1)
            message = named + message[hit.end() :]
            break
    return key, _ERRORS.get(kind, ValueError)(message)


def _texts(texts, where: str) -> list:
    """Texts from a sequence or a one-column Spark DataFrame (collected in its order), checked."""
    if hasattr(texts, "rdd") and hasattr(texts, "columns"):
        if len(texts.columns) != 1:
            raise OptionError(
                f"{where}: a DataFrame with one column is needed, got {len(texts.columns)} "
                f"({', '.join(texts.columns)}): select the text column first"
            )
        texts = [row[0] for row in texts.collect()]
    return check_texts(texts, where)


def _session(spark):
    if spark is not None:
        return spark
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise ImportError("rougekit.spark needs pyspark: pip install 'rougekit[spark]'") from None
    return SparkSession.getActiveSession() or SparkSession.builder.getOrCreate()
