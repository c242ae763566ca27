"""Scoring one partition of a data set: the function every worker runs, with no Dask in it.

A partition is a ``pandas.DataFrame`` (of a Dask DataFrame, or a Spark ``mapInPandas`` batch), a
``pyarrow.RecordBatch`` or ``Table`` (a Spark ``mapInArrow`` batch), or a list of records (a Dask
Bag's partition: dicts, or ``(candidate, references)`` tuples). The
worker reads the named columns, checks every cell, and calls the engine's batch scoring through
:meth:`rougekit.Scorer.statistics`; what comes back is per-pair sufficient statistics, columnar:
an n x measures x 6 float64 array (reference count, hits, candidate count, recall, precision, f:
the columns of ``RougeResult.data``). Merged in input order, they make the very result
``rougekit.score`` gives on the gathered data (:meth:`rougekit.Scorer.result`).

For engines that move tables rather than Python objects (Spark), :func:`statistics_frame` gives
the same statistics as a ``pandas.DataFrame`` with one float64 column per measure and statistic,
and :func:`result_from_frame` turns the gathered frame back into the result.
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from rougekit.api import DEFAULT_MEASURES, Scorer
from rougekit.engine.door import inputs
from rougekit.errors import OptionError

#: the six per-pair statistics of every measure, in the order of ``RougeResult.data``'s last axis
STATISTICS = ("reference_count", "hits", "candidate_count", "recall", "precision", "f")


@dataclass(frozen=True)
class Columns:
    """Where a partition's texts are: column (or record field) names."""

    candidates: Any = "prediction"
    references: Any = "reference"  # one name, or a list of names (one reference in each)
    ids: Any = None
    sources: Any = None

    @classmethod
    def build(cls, candidates, references, ids=None, sources=None) -> "Columns":
        refs = [references] if isinstance(references, str) else list(references)
        if not refs:
            raise OptionError("references= names no column")
        named = [("candidates", candidates), ("ids", ids), ("sources", sources), *(("references", r) for r in refs)]
        for what, name in named:
            if name is not None and not isinstance(name, str):
                raise TypeError(f"{what}= must name a column (a str), got {type(name).__name__}")
        return cls(candidates, references if isinstance(references, str) else tuple(refs), ids, sources)

    @property
    def reference_names(self) -> tuple[str, ...]:
        return (self.references,) if isinstance(self.references, str) else tuple(self.references)

    @property
    def names(self) -> list[str]:
        """Every column read, in a fixed order."""
        extra = [n for n in (self.ids, self.sources) if n is not None]
        return [self.candidates, *self.reference_names, *extra]


@dataclass
class PartitionStats:
    """What a worker sends back: the statistics, BLEU's token pairs (else empty), the ids (if a column)
    and the warnings scoring raised (e.g. summaries with no tokens), for the client to show."""

    data: np.ndarray
    token_pairs: list
    ids: list[str] | None
    warnings: list[Warning] = field(default_factory=list)


def score_partition(
    part, columns: Columns, measures=DEFAULT_MEASURES, where: str = "", *, dask_strings: bool = False, **options
) -> PartitionStats:
    """Score one partition (a pandas DataFrame, a pyarrow RecordBatch or a list of records) with
    ``rougekit.score``'s options.

    ``where`` names the partition in error messages (e.g. ``"partition 3"``). ``jobs`` (threads of the
    compiled engine) defaults to 1: a cluster runs one task per worker thread (or Spark task slot).
    ``dask_strings``: the frame comes from Dask, whose ``dataframe.convert-string`` may have turned a
    column of lists into their reprs (refused; see :func:`read_partition`).
    """
    with warnings.catch_warnings():  # the options' warnings (an idle multi_ref): the driver's Scorer said them
        warnings.simplefilter("ignore")
        scorer = Scorer(measures, **{"jobs": 1, **options})
    cands, refs, sources, ids = read_partition(part, columns, where, dask_strings)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            data, token_pairs = scorer.statistics(cands, refs, sources)
    except (TypeError, ValueError) as e:  # "pair k: ..." counts from the partition's first row
        raise type(e)(f"{where}: {e}" if where else str(e)) from None
    return PartitionStats(data, token_pairs, ids, [w.message for w in caught if isinstance(w.message, Warning)])


def read_partition(
    part, columns: Columns, where: str = "", dask_strings: bool = False
) -> tuple[Any, Any, Any, list[str] | None]:
    """(candidates, references per pair, sources or None, ids or None) of a partition, every cell checked.
    An Arrow column of strings with no null holds nothing but ``str``: it is given as it is (a pyarrow
    array, which :meth:`rougekit.Scorer.statistics` reads as the list of its items).
    ``dask_strings``: refuse string cells that read back as a Python list (Dask's convert-string made
    them from a column of lists); other engines (Spark) hand text over as it is."""
    prefix = f"{where}, " if where else ""
    plain: set[str] = set()  # columns whose every cell is a str (nothing to check cell by cell)
    if isinstance(part, list):
        rows = [_record(item, columns, f"{prefix}record {k + 1}") for k, item in enumerate(part)]
        table = {name: [row[n] for row in rows] for n, name in enumerate(columns.names)}
    elif _arrow_batch(part):  # a pyarrow RecordBatch or Table (Spark's mapInArrow)
        have = part.schema.names
        missing = [n for n in columns.names if n not in have]
        if missing:
            raise OptionError(f"no column {missing[0]!r} in the data (columns: {', '.join(map(str, have))})")
        plain = {n for n in columns.names if n != columns.ids and _strings_without_nulls(part.column(n))}
        table = {n: part.column(n) if n in plain else part.column(n).to_pylist() for n in columns.names}
    else:
        import pandas as pd

        missing = [n for n in columns.names if n not in part.columns]
        if missing:
            raise OptionError(f"no column {missing[0]!r} in the data (columns: {', '.join(map(str, part.columns))})")
        table = {name: part[name].tolist() for name in columns.names}
        for name in columns.names if dask_strings else ():
            if name != columns.ids and isinstance(part[name].dtype, pd.StringDtype):
                _not_stringified_lists(table[name], name, prefix)
    cands = _summaries(table, columns.candidates, prefix, plain)
    names = columns.reference_names
    if len(names) == 1:
        refs = _summaries(table, names[0], prefix, plain, _references)
    else:  # one reference in each column
        cells = zip(*(_listed(table[n]) for n in names))
        if plain.issuperset(names):
            refs = [list(row) for row in cells]
        else:
            refs = [[_summary(v, n, prefix, k) for n, v in zip(names, row)] for k, row in enumerate(cells)]
    sources = None
    if columns.sources is not None:
        sources = _summaries(table, columns.sources, prefix, plain)
    ids = None
    if columns.ids is not None:
        ids = [pair_id(v, columns.ids, prefix, k) for k, v in enumerate(table[columns.ids])]
    return cands, refs, sources, ids


def _summaries(table: dict, column: str, prefix: str, plain: set[str], check=None):
    """A column's cells, each checked by ``check`` (:func:`_summary`); a ``plain`` column (an Arrow
    column of strings with no null) is given as it is, for the engine to read."""
    if column in plain:
        return table[column]
    check = check or _summary
    return [check(v, column, prefix, k) for k, v in enumerate(table[column])]


def _listed(cells) -> list:
    return cells if isinstance(cells, list) else cells.to_pylist()


def _arrow_batch(part) -> bool:
    return type(part).__module__.startswith("pyarrow") and type(part).__name__ in ("RecordBatch", "Table")


def _strings_without_nulls(array) -> bool:
    """An Arrow column of strings with no null: every cell reads as a ``str``."""
    import pyarrow as pa

    kind = array.type
    text = pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_string_view(kind)
    return array.null_count == 0 and text


def pair_id(value, column: str, prefix: str, k: int) -> str:
    """A pair ID cell as text; a missing value (null, NaN) is refused, not turned into "None" or "nan"."""
    if inputs.missing(value):
        raise TypeError(f"{prefix}row {k + 1}: {column!r} holds a missing value (null), not a pair ID")
    return str(value)


def _not_stringified_lists(cells: list, column: str, prefix: str) -> None:
    """Dask's ``dataframe.convert-string`` (on by default) turns a column of lists into their reprs
    ("['a', 'b']", "[5, 6, 7]"): scored as one text each, silently. Refuse a cell that reads back as a
    list of str, and a column whose every cell reads back as a list of ints (token ids: their reprs
    would be scored as the texts of numbers, a minus sign and ``ignore_ids`` lost)."""
    ints, texts, first = 0, 0, None
    for k, v in enumerate(cells):
        kind = _list_literal(v) if isinstance(v, str) and v[:1] == "[" and v[-1:] == "]" else None
        if kind == "str":
            raise _stringified(v, k, column, prefix, "a Python list")
        texts += isinstance(v, str)  # (a missing cell is refused on its own, later)
        if kind == "int":
            ints += 1
            first = (k, v) if first is None else first
    if first is not None and ints == texts:
        raise _stringified(first[1], first[0], column, prefix, "a list of token ids")


def _stringified(v: str, k: int, column: str, prefix: str, what: str) -> TypeError:
    return TypeError(
        f"{prefix}row {k + 1}: {column!r} holds the text of {what} ({v[:40]!r}...): a column of lists "
        "was turned into strings (Dask's dataframe.convert-string); make the DataFrame with "
        "dask.config.set({'dataframe.convert-string': False})"
    )


def _list_literal(text: str) -> str | None:
    """``"str"`` for the repr of a list of str (or of lists), ``"int"`` for a non-empty list of ints, else None."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None
    if not isinstance(value, list):
        return None
    if all(isinstance(x, (str, list)) for x in value):
        return "str"
    if all(type(x) is int for x in value):
        return "int"
    return None


def _record(item, columns: Columns, where: str) -> list:
    """The fields of one Bag record, in ``columns.names`` order."""
    if isinstance(item, dict):
        for name in columns.names:
            if name not in item:
                raise OptionError(f"{where}: no field {name!r} (fields: {', '.join(map(str, item))})")
        return [item[n] for n in columns.names]
    if isinstance(item, tuple) and len(item) == 2 and columns.ids is None and columns.sources is None:
        if len(columns.reference_names) > 1:
            raise OptionError(f"{where}: a (candidate, references) tuple has one references entry, not several columns")
        return list(item)
    raise TypeError(f"{where}: expected a dict of fields or a (candidate, references) tuple, got {type(item).__name__}")


def _summary(value, column: str, prefix: str, k: int):
    """One summary cell: a str, or a sequence (sentences, or token ids) that the scorer checks further."""
    if isinstance(value, str):
        return value
    if isinstance(value, np.ndarray):
        return value if value.dtype.kind in "iu" else value.tolist()  # parquet list columns come as arrays
    if isinstance(value, (list, tuple)):
        return value
    if inputs.missing(value):  # a null cell: pandas reads it as None, NaN or pd.NA
        raise TypeError(f"{prefix}row {k + 1}: {column!r} holds a missing value (null), not text")
    shown = _shown(value)
    raise TypeError(f"{prefix}row {k + 1}: {column!r} holds {shown}, not text (a str or a list of str sentences)")


def _references(value, column: str, prefix: str, k: int):
    """One references cell: one reference (a str) or a list of them."""
    if isinstance(value, np.ndarray) and value.dtype.kind not in "iu":
        value = value.tolist()
    if isinstance(value, list) and not value:
        raise TypeError(f"{prefix}row {k + 1}: {column!r} holds an empty list, not one or more references")
    return _summary(value, column, prefix, k)


def _shown(value) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text[:40]}" if text != type(value).__name__ else text


def relay_warnings(parts: list[list[Warning]], unit: str = "partition", stacklevel: int = 3) -> None:
    """Workers' warnings shown where the call was made: the first of each kind, naming its ``unit``
    (``"partition 3"``) and how many other units had one (its counts are that unit's, not the whole
    data's)."""
    first: dict[type, tuple[int, Warning]] = {}
    units: dict[type, set[int]] = {}
    for k, caught in enumerate(parts):
        for w in caught:
            first.setdefault(type(w), (k, w))
            units.setdefault(type(w), set()).add(k)
    for kind, (k, w) in first.items():
        others = len(units[kind]) - 1
        note = f" (and in {others} other {unit}{'s' if others > 1 else ''})" if others else ""
        warnings.warn(kind(f"{unit} {k + 1}: {w}{note}"), stacklevel=stacklevel)


# -- tables (Spark's mapInPandas) ----------------------------------------------------------------
def frame_columns(measures=DEFAULT_MEASURES) -> list[str]:
    """The statistics columns of :func:`statistics_frame`: ``<measure>_<statistic>`` for each measure."""
    names = [m.name for m in Scorer(measures, bootstrap=None).measures]
    return [f"{name}_{stat}" for name in names for stat in STATISTICS]


def spark_schema(measures=DEFAULT_MEASURES, keep: Sequence[str] = ()) -> str:
    """A Spark DDL schema of :func:`statistics_frame`'s output (``keep`` columns are long integers)."""
    return ", ".join([*(f"`{k}` long" for k in keep), *(f"`{c}` double" for c in frame_columns(measures))])


def statistics_frame(
    frame,
    candidates="prediction",
    references="reference",
    *,
    measures=DEFAULT_MEASURES,
    keep=(),
    sources=None,
    **options,
):
    """The per-pair statistics of a pandas DataFrame as a DataFrame (one float64 column per measure and
    statistic, :func:`frame_columns`), with the ``keep`` columns copied first (e.g. a row number).

    The batch function of a Spark ``mapInPandas`` recipe (``docs/dask.md``). BLEU's corpus value needs
    every pair's tokens, which a table does not carry: use :func:`rougekit.dask.score` for it.
    """
    import pandas as pd

    scorer = Scorer(measures, bootstrap=None)
    if any(m.family.corpus_needs_tokens for m in scorer.measures):
        raise OptionError("BLEU's corpus value needs every pair's tokens: use rougekit.dask.score, not a table")
    cols = Columns.build(candidates, references, None, sources)
    scored = score_partition(frame, cols, measures, **options)
    for w in scored.warnings:  # to the executor's log
        warnings.warn(w, stacklevel=2)
    stats = scored.data
    out = {k: frame[k].to_numpy() for k in keep}
    names = frame_columns(measures)
    flat = stats.reshape(len(frame), len(names))
    out.update({name: flat[:, c] for c, name in enumerate(names)})
    return pd.DataFrame(out, columns=[*keep, *names])


def result_from_frame(frame, *, measures=DEFAULT_MEASURES, ids=None, **options):
    """The ``RougeResult`` of gathered :func:`statistics_frame` rows (in input order), with the same
    options; ``ids`` names a column of pair IDs, or None (pairs numbered in the frame's order)."""
    scorer = Scorer(measures, **options)
    names = frame_columns(measures)
    missing = [n for n in names if n not in frame.columns]
    if missing:
        raise OptionError(f"no column {missing[0]!r}: the frame must come from statistics_frame with these measures")
    data = frame[names].to_numpy(dtype=np.float64).reshape(len(frame), len(scorer.measures), len(STATISTICS))
    pair_ids = None if ids is None else [str(v) for v in frame[ids].tolist()]
    return scorer.result(np.ascontiguousarray(data), pair_ids)
