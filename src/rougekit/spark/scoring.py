"""``rougekit.spark.score`` and ``per_pair``: a Spark DataFrame counted in the executors.

The rows keep their DataFrame order through a row number (``monotonically_increasing_id``: the
partition in its high bits, the row within it in its low bits), so the pair IDs, the corpus numbers
and the seeded bootstrap are those of ``rougekit.score`` on ``df.collect()``. What goes wrong in an
executor (a bad cell, a lone surrogate) comes back as data, not as a JVM traceback: the driver raises
the first error in DataFrame order, naming the pair as ``rougekit.score`` would.
"""

from __future__ import annotations

import re
import warnings
from typing import Any, Iterator

import numpy as np

from rougekit.api import DEFAULT_MEASURES, Scorer
from rougekit.dask.partition import STATISTICS, Columns, frame_columns, statistics_frame
from rougekit.errors import InputError, OptionError
from rougekit.results import RougeResult

ROW = "__rougekit_row"
IDS = "__rougekit_id"
NOTE = "__rougekit_note"  # an executor's warnings (first row of a batch) or its error (a row of its own)
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
    worker_options = {"jobs": 1, **options}
    driver = Scorer(measures, **worker_options)  # every option checked before any work is sent
    _no_bleu(driver)
    columns = Columns.build(candidates, references, ids, sources)
    _check_columns(df, columns)
    stats = _gather(df, columns, measures, worker_options)
    names = frame_columns(measures)
    data = stats[names].to_numpy(dtype=np.float64).reshape(len(stats), len(driver.measures), len(STATISTICS))
    if not len(data):
        raise InputError("the DataFrame has no rows: nothing to score")
    pair_ids = None if ids is None else stats[IDS].tolist()
    return driver.result(np.ascontiguousarray(data), pair_ids)


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
    ``precision``, ``f``), computed lazily in the executors like any other column."""
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

    def batches(frames: Iterator) -> Iterator:
        for frame in frames:
            scored = statistics_frame(
                frame, columns.candidates, _refs(columns), measures=measures, sources=columns.sources, **worker_options
            )
            yield frame.assign(**{c: scored[c].to_numpy() for c in added})

    return df.mapInPandas(batches, schema=out)


def _refs(columns: Columns):
    return columns.references if isinstance(columns.references, str) else list(columns.references)


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


def _gather(df, columns: Columns, measures, options: dict):
    """Every row's statistics (a pandas DataFrame in the DataFrame's order); raises the first error."""
    from pyspark.sql import functions as F

    names = frame_columns(measures)
    keep = [F.monotonically_increasing_id().alias(ROW)] + [F.col(f"`{n}`") for n in dict.fromkeys(columns.names)]
    table = df.select(*keep)
    id_column = f"`{IDS}` string, " if columns.ids is not None else ""
    schema = f"`{ROW}` long, {id_column}`{NOTE}` string, " + ", ".join(f"`{c}` double" for c in names)

    def batches(frames: Iterator) -> Iterator:
        yield from _score_batches(frames, columns, measures, options)

    stats = table.mapInPandas(batches, schema=schema).toPandas()
    stats = stats.sort_values(ROW, kind="stable").reset_index(drop=True)
    notes = stats[NOTE].notna()
    errors = stats[notes & stats[names[0]].isna()]
    if len(errors):
        _raise_first(df, errors)
    _show_warnings(stats[notes][NOTE].tolist())
    return stats


def _score_batches(frames: Iterator, columns: Columns, measures, options: dict) -> Iterator:
    """The executor's side: each Arrow batch scored, its warnings noted; a bad batch ends the partition
    with one row naming the error (its row number, the pair within the partition)."""
    import pandas as pd

    done = 0
    names = frame_columns(measures)
    for frame in frames:
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                scored = statistics_frame(
                    frame, columns.candidates, _refs(columns), measures=measures, keep=[ROW],
                    sources=columns.sources, **options,
                )  # fmt: skip
        except (TypeError, ValueError) as e:
            message = str(e)
            hit = _PAIR.match(message)
            first = done + int(hit[2]) - 1 if hit else done
            row = int(frame[ROW].iloc[min(first - done, len(frame) - 1)])
            word = hit[1] if hit else "pair"
            note = f"{type(e).__name__}|{word}|{first}|{message[hit.end() :] if hit else message}"
            error = {ROW: [row], NOTE: [note], **{c: [np.nan] for c in names}}
            if columns.ids is not None:
                error[IDS] = [None]
            yield pd.DataFrame(error)
            return
        if columns.ids is not None:
            scored.insert(1, IDS, frame[columns.ids].astype(str).to_numpy())
        messages = [f"{type(w.message).__name__}|{w.message}" for w in caught if isinstance(w.message, Warning)]
        notes = [None] * len(scored)
        if messages and notes:
            notes[0] = "\n".join(messages)
        scored.insert(2 if columns.ids is not None else 1, NOTE, notes)
        done += len(frame)
        yield scored


def _raise_first(df, errors) -> None:
    """The first error in DataFrame order, its pair counted from the DataFrame's first row."""
    first = errors.iloc[0]
    kind, word, local, message = str(first[NOTE]).split("|", 3)
    partition = int(first[ROW]) >> 33
    before = 0
    if partition:
        sizes = df.rdd.mapPartitionsWithIndex(lambda i, rows: [(i, sum(1 for _ in rows))]).collect()
        before = sum(n for i, n in sizes if i < partition)
    raise _ERRORS.get(kind, ValueError)(f"{word} {before + int(local) + 1}: {message}")


def _show_warnings(notes: list[str]) -> None:
    """The executors' warnings on the driver: the first of each kind, with how many batches had one."""
    first: dict[str, str] = {}
    count: dict[str, int] = {}
    for note in notes:
        for line in note.split("\n"):
            kind, _, text = line.partition("|")
            first.setdefault(kind, text)
            count[kind] = count.get(kind, 0) + 1
    for kind, text in first.items():
        others = count[kind] - 1
        more = f" (and in {others} other batch{'es' if others > 1 else ''})" if others else ""
        category = next((c for c in _warning_kinds() if c.__name__ == kind), UserWarning)
        warnings.warn(category(f"{text}{more}"), stacklevel=4)


def _warning_kinds() -> list[type]:
    from rougekit import errors

    return [v for v in vars(errors).values() if isinstance(v, type) and issubclass(v, Warning)]
