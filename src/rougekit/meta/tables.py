"""Reading metric and human score tables, and aligning them into system x instance matrices.

A table is CSV (header row) or JSON, chosen by the file suffix (``.csv``/``.tsv`` vs
``.jsonl``/``.json``/``.ndjson``) or by ``fmt``; JSON is JSONL (one object per line), a JSON array of
objects or column-shaped (one object whose values are lists of one length); the path ``-`` is
standard input (JSON when it starts with ``{`` or ``[``, else CSV). A Parquet or Arrow IPC file
(known by its first bytes: ``score --per-pair --format parquet``) is read with pyarrow. Files are read by
:mod:`rougekit.io.reader` (its size limits and byte order marks). It has a ``system`` column,
an optional ``instance`` column (without it, each row is one system's overall score) and score
columns. Missing values: an empty cell, ``NA``, ``NaN``, ``-`` (any case) or JSON ``null``.

JSONL rows may nest scores the sacrerouge way: nested objects are flattened with ``_`` (so
``{"rouge-1": {"precision": 0.4}}`` is column ``rouge-1_precision``), a top-level ``metrics``
object is flattened without a prefix, and a list of numbers is replaced by its mean (``grade:
[2, 3, 3]`` -> 2.667). This reads sacrerouge's ``metrics.jsonl`` with
``system_column="summarizer_id", instance_column="instance_id"``.

Bad input raises :class:`rougekit.errors.InputError` with a one-line message naming the file and
line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import numpy as np

from rougekit._sums import mean_in_order
from rougekit.errors import InputError, OptionError
from rougekit.io import arrow, reader

__all__ = [
    "MISSING_TOKENS",
    "Alignment",
    "ScoreTable",
    "align_tables",
    "parse_value",
    "read_table",
]

MISSING_TOKENS = frozenset({"", "na", "nan", "-", "n/a", "null", "none"})
# "n/a", "null", "none" are accepted as well; the documented set is empty, NA, NaN and -.


@dataclass
class ScoreTable:
    """Scores of one file as matrices: ``values[column]`` has shape (systems, instances)."""

    path: str
    systems: list[str]
    instances: list[str] | None  # None: the file has no instance column (one column of scores)
    columns: list[str]
    values: dict[str, np.ndarray] = field(repr=False)

    def matrix(self, column: str) -> np.ndarray:
        try:
            return self.values[column]
        except KeyError:
            raise OptionError(
                f"{self.path}: no score column {column!r} (has {', '.join(self.columns) or 'none'})"
            ) from None


@dataclass
class Alignment:
    """Two tables restricted to the systems (and instances) they share."""

    systems: list[str]
    instances: list[str] | None
    metric: dict[str, np.ndarray] = field(repr=False)
    human: dict[str, np.ndarray] = field(repr=False)
    systems_only_in_metric: list[str]
    systems_only_in_human: list[str]
    instances_only_in_metric: list[str]
    instances_only_in_human: list[str]
    collapsed: str | None = None  # which table was averaged to system level, if any

    def report(self) -> list[str]:
        """One line per kind of thing left out (empty list when nothing was)."""
        lines = []

        def fmt(items: list[str]) -> str:
            shown = ", ".join(items[:10])
            return shown + (f", ... ({len(items)} in all)" if len(items) > 10 else "")

        if self.systems_only_in_metric:
            lines.append(
                f"dropped {len(self.systems_only_in_metric)} system(s) with no human "
                f"scores: {fmt(self.systems_only_in_metric)}"
            )
        if self.systems_only_in_human:
            lines.append(
                f"dropped {len(self.systems_only_in_human)} system(s) with no metric "
                f"scores: {fmt(self.systems_only_in_human)}"
            )
        if self.instances_only_in_metric:
            lines.append(
                f"dropped {len(self.instances_only_in_metric)} instance(s) with no human "
                f"scores: {fmt(self.instances_only_in_metric)}"
            )
        if self.instances_only_in_human:
            lines.append(
                f"dropped {len(self.instances_only_in_human)} instance(s) with no metric "
                f"scores: {fmt(self.instances_only_in_human)}"
            )
        if self.collapsed:
            lines.append(f"{self.collapsed} table has no instance column: both were averaged per system")
        for which, table in (("metric", self.metric), ("human", self.human)):
            for column, values in table.items():
                cells = self._missing(values)
                if cells:
                    lines.append(
                        f"{len(cells)} (system, instance) cell(s) of {which} column {column!r} have no score "
                        f"(a missing row or an empty/NA/NaN cell), left out (those systems' means are over their "
                        f"other instances): {fmt(cells)}"
                    )
        return lines

    def _missing(self, values: np.ndarray) -> list[str]:
        """``system/instance`` of the cells of a shared system and instance with no score."""
        if self.instances is None or values.ndim != 2:
            return []
        rows, cols = np.nonzero(np.isnan(values))
        return [f"{self.systems[r]}/{self.instances[c]}" for r, c in zip(rows.tolist(), cols.tolist())]


def parse_value(raw, path: str, line: int, column: str) -> float:
    """A score from a cell: float, nan for a missing token, InputError otherwise."""
    return _value(raw, f"{reader.label(str(path))}, line {line}", column)


def _value(raw, where: str, column: str) -> float:
    """:func:`parse_value` of the cell at ``where`` (the file and its line or item)."""
    if raw is None:
        return math.nan
    if isinstance(raw, bool):
        raise InputError(f"{where}: column {column!r}: {raw!r} is not a number")
    if isinstance(raw, (int, float)):
        return float(raw)
    if isinstance(raw, list):
        vals = [_value(v, where, column) for v in raw]
        vals = [v for v in vals if not math.isnan(v)]
        return mean_in_order(vals, math.nan)
    if isinstance(raw, str):
        text = raw.strip()
        if text.lower() in MISSING_TOKENS:
            return math.nan
        try:
            value = float(text)
        except ValueError:
            raise InputError(f"{where}: column {column!r}: {_short(raw)!r} is not a number") from None
        if math.isinf(value):
            raise InputError(f"{where}: column {column!r}: {_short(raw)!r} is not finite")
        return value
    raise InputError(f"{where}: column {column!r}: a {type(raw).__name__} is not a number")


def _numeric(raw) -> bool:
    """Whether a raw cell holds a number (a missing token does not count)."""
    if raw is None or isinstance(raw, bool):
        return False
    if isinstance(raw, (int, float)):
        return True
    if isinstance(raw, list):
        return any(_numeric(v) for v in raw)
    if isinstance(raw, str):
        text = raw.strip()
        if text.lower() in MISSING_TOKENS:
            return False
        try:
            float(text)
        except ValueError:
            return False
        return True
    return False


def _is_label_column(values: list) -> bool:
    has_text = False
    for raw in values:
        if _numeric(raw):
            return False
        if isinstance(raw, str) and raw.strip().lower() not in MISSING_TOKENS:
            has_text = True
        elif isinstance(raw, (bool, dict)):
            has_text = True
    return has_text


def _short(text: str, limit: int = 40) -> str:
    text = str(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _flatten(obj: Mapping, prefix: str = "") -> dict:
    out: dict = {}
    for key, value in obj.items():
        key = str(key)
        name = f"{prefix}_{key}" if prefix else key
        if isinstance(value, Mapping):
            out.update(_flatten(value, "" if (not prefix and key == "metrics") else name))
        else:
            out[name] = value
    return out


_STDIN_TEXT: list[str] = []  # standard input, read once (a table may be read twice)


def _text(path: Path) -> str:
    """The file's text (:mod:`rougekit.io.reader`: limits, byte order marks, errors naming the line)."""
    if str(path) != "-":
        return reader.read_text(str(path))
    if not _STDIN_TEXT:
        _STDIN_TEXT.append(reader.read_text("-"))
    return _STDIN_TEXT[0]


def _detect_format(path: Path, fmt: str | None) -> str:
    if fmt:
        fmt = fmt.lower()
        if fmt not in ("csv", "tsv", "jsonl", "json"):
            raise OptionError(f"unknown table format {fmt!r} (choose from csv, tsv, jsonl, json)")
        return "jsonl" if fmt == "json" else fmt
    if str(path) == "-":  # standard input: JSON if it starts with an object or an array
        return "jsonl" if reader.looks_like_json(_text(path)) else "csv"
    # Parquet (score --per-pair --format parquet) or Arrow, by its first bytes: of a regular file only (a
    # pipe's bytes read here would be gone for the CSV reader: review21b R2)
    found = arrow.sniff(str(path)) if path.is_file() else None
    if found is not None:
        return found
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".json", ".ndjson"):
        return "jsonl"
    if suffix == ".tsv":
        return "tsv"
    return "csv"


def _rows_csv(path: Path, delimiter: str) -> Iterable[reader.Record]:
    """The rows of a CSV/TSV file (:func:`rougekit.io.reader.csv_records`), keyed by the header's
    names stripped; an empty or repeated name is an error."""
    text = _text(path)
    if not text.strip():
        raise InputError(f"{reader.label(str(path))}, line 1: empty file (expected a header row)")
    found = reader.csv_records(text, str(path), delimiter)
    header = [h.strip() for h in found.names or []]
    if any(not h for h in header):
        raise InputError(f"{reader.label(str(path))}, line 1: empty column name in the header")
    dup = sorted({h for h in header if header.count(h) > 1})
    if dup:
        raise InputError(f"{reader.label(str(path))}, line 1: duplicate column name {_short(dup[0])!r} in the header")
    for record in found.rows:
        record.row = dict(zip(header, record.row.values()))
        yield record


def _rows_jsonl(path: Path) -> Iterable[reader.Record]:
    """JSONL, a JSON array of objects or column-shaped JSON (one object of equal-length lists)."""
    for record in reader.records(_text(path), str(path)).rows:
        try:
            record.row = _flatten(record.row)
        except RecursionError:
            raise InputError(f"{record.where}: JSON nested too deeply") from None
        yield record


def _label(raw, where: str, column: str) -> str:
    if raw is None or isinstance(raw, (dict, list)):
        raise InputError(f"{where}: column {column!r} must be a plain value")
    text = str(raw).strip()
    if not text:
        raise InputError(f"{where}: empty {column!r}")
    return text


def _no_system_column(name: str, kind: str, at: str, column: str, names: list) -> InputError:
    """The error for a table without the system column: a CSV's header (line 1) and the columns it
    names (a ';'-separated or header-less file shows as one odd column)."""
    if kind not in ("csv", "tsv"):
        return InputError(f"{at}: no {column!r} column ({reader.header_names([str(n) for n in names])})")
    where = f"{reader.label(name)}, line 1 (the header): no {column!r} column"
    if len(names) == 1 and ";" in names[0]:  # one column named 'system;instance;rel'
        shown = reader.header_names(names[0].split(";"))
        return InputError(
            f"{where}: its one column is separated by ';' ({shown}): give the file with ',' (CSV) or tabs (.tsv)"
        )
    if any(_numeric(n) for n in names):
        return InputError(
            f"{where} ({reader.header_names(names)}): line 1 reads as data: "
            f"the file needs a header row naming {column!r}"
        )
    return InputError(f"{where} ({reader.header_names(names)})")


def read_table(
    path: str | Path,
    *,
    system_column: str = "system",
    instance_column: str | None = "instance",
    columns: Sequence[str] | None = None,
    where: Mapping[str, str] | None = None,
    fmt: str | None = None,
) -> ScoreTable:
    """Read a CSV or JSONL table of scores.

    ``columns`` selects the score columns (default: every column except the system and instance
    columns and the ``where`` keys). ``instance_column`` is optional: if the file has no such column
    every system must appear once. ``where`` keeps only rows whose column equals the given text
    (e.g. ``{"summarizer_type": "peer"}``). A repeated (system, instance) is an error.
    """
    p = Path(path)
    name = str(path)
    kind = _detect_format(p, fmt)
    if kind in ("parquet", "arrow"):
        rows = arrow.table_records(name, kind, f"reading {name} (a {kind.capitalize()} file)")
    else:
        rows = _rows_jsonl(p) if kind == "jsonl" else _rows_csv(p, "\t" if kind == "tsv" else ",")
    where = dict(where or {})

    systems: dict[str, int] = {}
    instances: dict[str, int] = {}
    cells: dict[tuple[int, int], tuple[int, dict[str, float]]] = {}
    has_instance: bool | None = None
    score_columns: list[str] | None = list(columns) if columns is not None else None
    seen_columns: dict[str, None] = {}
    n_rows = 0
    for record in rows:
        row, at = record.row, record.where
        n_rows += 1
        if system_column not in row:
            raise _no_system_column(name, kind, at, system_column, list(row))
        if has_instance is None:
            has_instance = instance_column is not None and instance_column in row
        if has_instance and instance_column not in row:
            raise InputError(f"{at}: no {instance_column!r} column")
        skip = False
        for key, wanted in where.items():
            if key not in row:
                raise InputError(f"{at}: no {key!r} column (used by a filter)")
            if str(row[key]).strip() != wanted:
                skip = True
        if skip:
            continue
        system = _label(row[system_column], at, system_column)
        instance = _label(row[instance_column], at, instance_column) if has_instance else ""
        if score_columns is not None:
            wanted_cols = score_columns
            missing = [c for c in wanted_cols if c not in row]
            if missing and kind != "jsonl":
                raise InputError(f"{at}: no column {missing[0]!r}")
        else:
            wanted_cols = [
                c
                for c in row
                if c != system_column and c != (instance_column if has_instance else None) and c not in where
            ]
        raw = {col: row.get(col) for col in wanted_cols}
        for col in wanted_cols:
            seen_columns.setdefault(col, None)
        si = systems.setdefault(system, len(systems))
        ii = instances.setdefault(instance, len(instances))
        if (si, ii) in cells:
            first = cells[(si, ii)][0]
            what = f"system {system!r}" + (f", instance {instance!r}" if has_instance else "")
            why = ""
            if not has_instance and instance_column is not None:  # rows per instance under another column name
                why = (
                    f" (the file has no {instance_column!r} column: if its rows are per instance, name their column"
                    " with --instance-column, instance_column= in Python)"
                )
            raise InputError(f"{at}: {what} repeats {first.at}{why}")
        cells[(si, ii)] = (record, raw)
    if n_rows == 0:
        raise InputError(f"{reader.label(name)}, line 1: no rows")
    if not cells:
        raise InputError(
            f"{reader.label(name)}, line 1: no rows left after the filter "
            + ", ".join(f"{k}={v}" for k, v in where.items())
        )
    if score_columns is not None:
        col_names = list(score_columns)
    else:
        # automatic choice: a column with text and no number is a label column (e.g.
        # "summarizer_type") and is left out; an all-missing column stays (all nan); a column
        # mixing numbers and text is an error at its first bad line
        col_names = [c for c in seen_columns if not _is_label_column([raw.get(c) for _, raw in cells.values()])]
    if not col_names:
        raise InputError(f"{reader.label(name)}, line 1: no score columns")
    shape = (len(systems), len(instances))
    values = {c: np.full(shape, np.nan) for c in col_names}
    for (si, ii), (record, raw) in sorted(cells.items(), key=lambda kv: kv[1][0].line):
        for col in col_names:
            values[col][si, ii] = _value(raw.get(col), record.where, col)
    if score_columns is not None and kind == "jsonl":
        absent = [c for c in col_names if np.isnan(values[c]).all()]
        if absent:
            raise InputError(f"{reader.label(name)}, line 1: no values for column {absent[0]!r}")
    return ScoreTable(
        path=name,
        systems=list(systems),
        instances=list(instances) if has_instance else None,
        columns=list(col_names),
        values=values,
    )


def _collapse(table: ScoreTable) -> dict[str, np.ndarray]:
    out = {}
    for col, m in table.values.items():
        valid = ~np.isnan(m)
        counts = valid.sum(axis=1)
        sums = np.where(valid, m, 0.0).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[col] = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)[:, None]
    return out


def _shared(first: list[str], second: list[str]) -> tuple[list[str], list[str], list[str], list[int], list[int]]:
    """The names in both lists (in ``first``'s order), those only in ``first``, those only in
    ``second``, and the positions of the shared ones in ``first`` and in ``second``."""
    in_first, in_second = set(first), set(second)
    shared = [x for x in first if x in in_second]
    first_at = {x: k for k, x in enumerate(first)}
    second_at = {x: k for k, x in enumerate(second)}
    return (
        shared,
        [x for x in first if x not in in_second],
        [x for x in second if x not in in_first],
        [first_at[x] for x in shared],
        [second_at[x] for x in shared],
    )


def align_tables(metric: ScoreTable, human: ScoreTable) -> Alignment:
    """Restrict both tables to their common systems (in the metric table's order) and instances.

    If exactly one table lacks an instance column, the other is averaged per system first (noted
    in the report). Raises InputError when no system (or no instance) is shared.
    """
    systems, only_m, only_h, mi, hi = _shared(metric.systems, human.systems)
    if not systems:
        raise InputError(f"{metric.path} and {human.path} share no system")

    collapsed = None
    m_vals, h_vals = metric.values, human.values
    if (metric.instances is None) != (human.instances is None):
        collapsed = "human" if human.instances is None else "metric"
        m_vals = _collapse(metric) if metric.instances is not None else metric.values
        h_vals = _collapse(human) if human.instances is not None else human.values
        instances = None
        only_mi: list[str] = []
        only_hi: list[str] = []
        mj = hj = [0]
    elif metric.instances is None:
        instances = None
        only_mi, only_hi = [], []
        mj = hj = [0]
    else:
        instances, only_mi, only_hi, mj, hj = _shared(metric.instances, human.instances)
        if not instances:
            raise InputError(f"{metric.path} and {human.path} share no instance")

    m_out = {c: v[np.ix_(mi, mj)] for c, v in m_vals.items()}
    h_out = {c: v[np.ix_(hi, hj)] for c, v in h_vals.items()}
    return Alignment(
        systems=systems,
        instances=instances,
        metric=m_out,
        human=h_out,
        systems_only_in_metric=only_m,
        systems_only_in_human=only_h,
        instances_only_in_metric=only_mi,
        instances_only_in_human=only_hi,
        collapsed=collapsed,
    )
