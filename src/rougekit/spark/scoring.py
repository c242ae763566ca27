"""``rougekit.spark.score`` and ``per_pair``: a Spark DataFrame counted in the executors.

The executors read Arrow batches (``mapInArrow``: no pandas on either side) and send each batch's
statistics back as one row of bytes. The rows keep their DataFrame order through a row number
(``monotonically_increasing_id``: the partition in its high bits, the row within it in its low bits),
so the pair IDs, the corpus numbers and the seeded bootstrap are those of ``rougekit.score`` on
``df.collect()``. What goes wrong in an
executor (a bad cell, a lone surrogate) comes back as data, not as a JVM traceback: the driver raises
the first error in DataFrame order, naming the pair as ``rougekit.score`` would.
"""

from __future__ import annotations

import re
import warnings
from typing import Any, Iterator

import numpy as np

from rougekit.api import DEFAULT_MEASURES, Scorer, check_keywords
from rougekit.dask.partition import STATISTICS, Columns, relay_warnings, score_partition
from rougekit.errors import InputError, OptionError, RougeKitError
from rougekit.results import RougeResult

ROW = "__rougekit_row"
PAIRS = "__rougekit_pairs"  # the pairs of an Arrow batch (its statistics are one bytes cell)
STATS = "__rougekit_stats"
IDS = "__rougekit_ids"
NOTE = "__rougekit_note"  # an Arrow batch's warnings, or its error (a row with no statistics)
_ERRORS = {"TypeError": TypeError, "ValueError": ValueError, "InputError": InputError, "OptionError": OptionError}
_PAIR = re.compile(r"^(pair|row) (\d+): ")


def score(
    df,
    candidates: str = "prediction",
    references: Any = "reference",
    *,
    measures=DEFAULT_MEASURES,
    ids: str | None = None,
    sources: str | None = None,
    **options,
) -> RougeResult:
    """Score a Spark DataFrame in the executors; the same result as ``rougekit.score`` on the
    collected rows (per pair, corpus, intervals, signature).

    ``candidates``, ``references``, ``ids`` and ``sources`` name columns; a references cell is one
    reference or an array of them, or give a list of columns, one reference each. Every other option
    is ``rougekit.score``'s; ``jobs`` (engine threads in each Python worker) defaults to 1, as Spark
    runs one task per core. BLEU's corpus value needs every pair's tokens: use ``rougekit.score``
    or ``rougekit.dask.score`` for it.
    """
    check_keywords(options, "rougekit.spark.score", named=("candidates", "references", "measures", "ids", "sources"))
    worker_options = {"jobs": 1, **options}
    driver = Scorer(measures, **worker_options)  # every option checked before any work is sent
    _no_bleu(driver)
    columns = Columns.build(candidates, references, ids, sources)
    _check_columns(df, columns)
    data, pair_ids = _gather(df, columns, measures, worker_options, len(driver.measures))
    if not len(data):
        raise InputError("the DataFrame has no rows: nothing to score")
    return driver.result(data, pair_ids)


def per_pair(
    df,
    candidates: str = "prediction",
    references: Any = "reference",
    *,
    measures=DEFAULT_MEASURES,
    stats: tuple[str, ...] = ("recall", "precision", "f"),
    sources: str | None = None,
    **options,
):
    """``df`` with per-pair scores added as double columns named ``<measure>_<stat>`` (e.g.
    ``ROUGE-L_f``; ``stats`` from ``reference_count``, ``hits``, ``candidate_count``, ``recall``,
    ``precision``, ``f``), computed lazily in the executors like any other column. The other columns
    pass through as Arrow arrays, as Spark gave them (``mapInArrow``: no pandas conversion)."""
    check_keywords(  # per-pair values: no interval, so none of the bootstrap's options
        options,
        "rougekit.spark.per_pair",
        named=("candidates", "references", "measures", "stats", "sources"),
        refused=("bootstrap", "resamples", "confidence", "seed"),
    )
    worker_options = {"jobs": 1, "bootstrap": None, **options}
    scorer = Scorer(measures, **worker_options)
    _no_bleu(scorer)
    bad = [s for s in stats if s not in STATISTICS]
    if bad or not stats:
        raise OptionError(f"stats= takes some of {', '.join(STATISTICS)}, got {bad or list(stats)}")
    columns = Columns.build(candidates, references, None, sources)
    _check_columns(df, columns)
    added = [f"{m.name}_{s}" for m in scorer.measures for s in stats]
    taken = [c for c in added if c in df.columns]
    if taken:
        raise OptionError(f"the DataFrame already has a column {taken[0]!r}")
    from pyspark.sql.types import DoubleType, StructField, StructType

    out = StructType(list(df.schema.fields) + [StructField(c, DoubleType(), False) for c in added])
    picked = [j * len(STATISTICS) + STATISTICS.index(s) for j in range(len(scorer.measures)) for s in stats]

    def batches(arrow_batches: Iterator) -> Iterator:
        import pyarrow as pa

        for batch in arrow_batches:
            if not batch.num_rows:
                continue
            scored = score_partition(batch, columns, measures, **worker_options)
            for w in scored.warnings:  # to the executor's log
                warnings.warn(w, stacklevel=2)
            flat = scored.data.reshape(batch.num_rows, -1)
            scores = [pa.array(flat[:, c], pa.float64()) for c in picked]
            yield pa.RecordBatch.from_arrays([*batch.columns, *scores], names=[*batch.schema.names, *added])

    return df.mapInArrow(batches, schema=out)


def _no_bleu(scorer: Scorer) -> None:
    if any(m.family.corpus_needs_tokens for m in scorer.measures):
        raise OptionError("BLEU's corpus value needs every pair's tokens: use rougekit.score or rougekit.dask.score")


def _check_columns(df, columns: Columns) -> None:
    have = list(df.columns)
    for name in columns.names:
        if name not in have:
            raise OptionError(f"no column {name!r} in the DataFrame (columns: {', '.join(have)})")
    types = dict(df.dtypes)
    for name in (n for n in columns.names if n != columns.ids):
        kind = types[name]
        if not (kind == "string" or kind.startswith("array<")):
            raise TypeError(f"column {name!r} holds {kind}, not text (a string or an array of strings)")


def _gather(df, columns: Columns, measures, options: dict, width: int) -> tuple[np.ndarray, list[str] | None]:
    """Every pair's statistics (an n x measures x 6 array in the DataFrame's order) and the pair IDs
    (None without an ``ids`` column); raises the first error. An Arrow batch comes back as ONE row
    holding its statistics as bytes (float64, C order): no per-pair row through the JVM."""
    from pyspark.sql import functions as F

    keep = [F.monotonically_increasing_id().alias(ROW)] + [F.col(f"`{n}`") for n in dict.fromkeys(columns.names)]
    table = df.select(*keep)
    extra = [f"`{IDS}` array<string>"] if columns.ids is not None else []
    schema = ", ".join([f"`{ROW}` long", f"`{PAIRS}` long", f"`{STATS}` binary", *extra, f"`{NOTE}` string"])

    def batches(arrow_batches: Iterator) -> Iterator:
        yield from _score_batches(arrow_batches, columns, measures, options)

    rows = sorted(table.mapInArrow(batches, schema=schema).collect(), key=lambda r: r[ROW])
    failed = [r for r in rows if r[STATS] is None]
    if failed:
        _raise_first(failed[0], rows)
    relay_warnings([_warnings(r[NOTE]) if r[NOTE] else [] for r in rows], unit="Arrow batch", stacklevel=4)
    parts = [np.frombuffer(r[STATS], dtype=np.float64).reshape(r[PAIRS], width, len(STATISTICS)) for r in rows]
    data = np.concatenate(parts) if parts else np.zeros((0, width, len(STATISTICS)))
    ids = None if columns.ids is None else [i for r in rows for i in r[IDS]]
    return data, ids


def _score_batches(batches: Iterator, columns: Columns, measures, options: dict) -> Iterator:
    """The executor's side (``mapInArrow``): each Arrow batch scored by the Dask workers' batch function,
    sent back as one row (its first row number, its pair count, its statistics as bytes, its warnings);
    a bad batch ends the partition with a row naming the error (its row number, the pair within the
    partition) and no statistics."""
    import pyarrow as pa

    done = 0
    for batch in batches:
        if not batch.num_rows:
            continue
        try:
            scored = score_partition(batch, columns, measures, **options)
        except (TypeError, ValueError, RougeKitError) as e:
            message = str(e)
            hit = _PAIR.match(message)
            first = done + int(hit[2]) - 1 if hit else done
            row = batch.column(ROW)[min(first - done, batch.num_rows - 1)].as_py()
            word = hit[1] if hit else "pair"
            note = f"{type(e).__name__}|{word}|{first}|{message[hit.end() :] if hit else message}"
            yield _out(pa, columns, row, None, None, None, note)
            return
        notes = "\n".join(f"{type(w).__name__}|{w}" for w in scored.warnings) or None
        row = batch.column(ROW)[0].as_py()
        yield _out(pa, columns, row, batch.num_rows, scored.data.tobytes(), scored.ids, notes)
        done += batch.num_rows


def _out(pa, columns: Columns, row: int, pairs, stats, ids, note):
    """One row of :func:`_score_batches`' output, as an Arrow batch of the schema ``_gather`` declares."""
    arrays = [pa.array([row], pa.int64()), pa.array([pairs], pa.int64()), pa.array([stats], pa.binary())]
    names = [ROW, PAIRS, STATS]
    if columns.ids is not None:
        arrays.append(pa.array([ids], pa.list_(pa.string())))
        names.append(IDS)
    return pa.RecordBatch.from_arrays([*arrays, pa.array([note], pa.string())], names=[*names, NOTE])


def _raise_first(error, rows: list) -> None:
    """The error of the first bad row in DataFrame order, its row counted from the DataFrame's first row:
    every row of the partitions before it was scored (it is the first error), so they are counted here."""
    kind, word, local, message = str(error[NOTE]).split("|", 3)
    partition = error[ROW] >> 33
    before = sum(r[PAIRS] for r in rows if r[STATS] is not None and r[ROW] >> 33 < partition)
    raise _ERRORS.get(kind, ValueError)(f"{word} {before + int(local) + 1}: {message}")


def _warnings(note: str) -> list[Warning]:
    """An Arrow batch's warnings, rebuilt from its note (``Kind|text`` lines) with their categories."""
    from rougekit import errors

    out = []
    for line in note.split("\n"):
        kind, _, text = line.partition("|")
        category = getattr(errors, kind, None)
        if not (isinstance(category, type) and issubclass(category, Warning)):
            category = UserWarning
        out.append(category(text))
    return out
