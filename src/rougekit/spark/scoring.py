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
from rougekit.dask.partition import (
    STATISTICS,
    Columns,
    frame_columns,
    pair_id,
    relay_warnings,
    result_from_frame,
    spark_schema,
    statistics_frame,
)
from rougekit.errors import InputError, OptionError, RougeKitError
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
    if not len(stats):
        raise InputError("the DataFrame has no rows: nothing to score")
    return result_from_frame(stats, measures=measures, ids=None if ids is None else IDS, **worker_options)


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
    extra = [f"`{IDS}` string"] if columns.ids is not None else []
    schema = ", ".join([spark_schema(measures, keep=[ROW]), *extra, f"`{NOTE}` string"])

    def batches(frames: Iterator) -> Iterator:
        yield from _score_batches(frames, columns, measures, options)

    stats = table.mapInPandas(batches, schema=schema).toPandas()
    stats = stats.sort_values(ROW, kind="stable").reset_index(drop=True)
    notes = stats[NOTE].notna()
    failed = notes & stats[names[0]].isna()
    if failed.any():
        _raise_first(stats[failed].iloc[0], stats[~failed])
    relay_warnings([_warnings(note) for note in stats[NOTE][notes]], unit="Arrow batch", stacklevel=4)
    return stats


def _score_batches(frames: Iterator, columns: Columns, measures, options: dict) -> Iterator:
    """The executor's side: each Arrow batch scored, its warnings noted on its first row; a bad batch
    ends the partition with one row naming the error (its row number, the pair within the partition)."""
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
            if columns.ids is not None:
                cells = frame[columns.ids].tolist()
                scored[IDS] = [pair_id(v, columns.ids, "", k) for k, v in enumerate(cells)]
        except (TypeError, ValueError, RougeKitError) as e:
            message = str(e)
            hit = _PAIR.match(message)
            first = done + int(hit[2]) - 1 if hit else done
            row = int(frame[ROW].iloc[min(first - done, len(frame) - 1)])
            word = hit[1] if hit else "pair"
            note = f"{type(e).__name__}|{word}|{first}|{message[hit.end() :] if hit else message}"
            error = {ROW: [row], **{c: [np.nan] for c in names}}
            if columns.ids is not None:
                error[IDS] = [None]
            yield pd.DataFrame({**error, NOTE: [note]})
            return
        messages = [f"{type(w.message).__name__}|{w.message}" for w in caught if isinstance(w.message, Warning)]
        notes: list = [None] * len(scored)
        if messages and notes:
            notes[0] = "\n".join(messages)
        scored[NOTE] = notes
        done += len(frame)
        yield scored


def _raise_first(error, scored) -> None:
    """The error of the first bad row in DataFrame order, its row counted from the DataFrame's first row:
    every row of the partitions before it was scored (it is the first error), so they are counted here."""
    kind, word, local, message = str(error[NOTE]).split("|", 3)
    partition = int(error[ROW]) >> 33
    before = int(((scored[ROW].to_numpy() >> 33) < partition).sum())
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
