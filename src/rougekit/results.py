"""Results of scoring a corpus: one immutable, columnar object.

``data[i, j]`` holds pair i, measure j: (reference count, hits, candidate count, recall,
precision, f), a read-only n x measures x 6 float64 array. A single-valued measure (BLEU,
ACCY, ...) keeps its value in the last three columns and NaN counts.

Everything else is derived on demand: per-pair dicts are built when a row is read
(:meth:`RougeResult.per_pair` is a view), data frames from the columns, and the bootstrap
(the ROUGE-1.5.5 average and the intervals, ``docs/`` on the script's resampling) runs on
first access of ``intervals``, ``rouge155_averages`` or ``to_dict()``, once, for all measures
from one set of draws.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Mapping

import numpy as np

from rougekit import _late
from rougekit.engine import backend
from rougekit.engine.options import ScoringOptions
from rougekit.errors import InputError
from rougekit.measures import Measure
from rougekit.scoring import PairScore, ratios
from rougekit.signature import Signature
from rougekit.stats.perl_bootstrap import perl_bootstrap_columns, perl_bootstrap_measures
from rougekit.stats.resampling import percentile_bootstrap

if TYPE_CHECKING:  # the optional libraries of the to_* methods, for type checkers only
    import pandas
    import polars
    import pyarrow

MODEL, HITS, PEER, R, P, F = range(6)
KEYS = ("recall", "precision", "f")
# what the corpus recall/precision/f are for each ``average``
AVERAGE_NAMES = {
    "pairs": "mean of per-pair scores",
    "tokens": "ratio of summed counts (ROUGE-1.5.5 -t 1)",
    "rouge155": "ROUGE-1.5.5.pl's bootstrap average (-t 0)",
}


@dataclass(frozen=True)
class Interval:
    """A confidence interval with how it was obtained."""

    low: float
    high: float
    level: float
    method: str
    resamples: int
    seed: int | None

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class ValueScore:
    """A single-valued measure's value for one pair (BLEU, Ngram(i,j), ACCY, ...)."""

    score: float


def _count(x: float, integral: bool):
    return int(x) if integral else float(x)


class _Pairs:
    """A lazy, read-only list of ``{measure name: PairScore | ValueScore}``, one per pair."""

    def __init__(self, result: "RougeResult"):
        self._r = result

    def __len__(self) -> int:
        return self._r.data.shape[0]

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        row = self._r.data[i]
        out: dict[str, ValueScore | PairScore] = {}
        for j, m in enumerate(self._r.measures):
            v = row[j]
            if m.single_valued:
                out[m.name] = ValueScore(float(v[F]))
            else:
                whole = m.integral_counts
                out[m.name] = PairScore(
                    _count(v[MODEL], whole),
                    _count(v[HITS], whole),
                    _count(v[PEER], whole),
                    float(v[R]),
                    float(v[P]),
                    float(v[F]),
                )
        return out

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]


class PerPair(Sequence):
    """The per-pair scores as a read-only sequence of ``{measure: {"recall", "precision", "f"}}``
    (``{"score"}`` for single-valued measures), built row by row when read.

    It indexes, slices, iterates, compares equal to the list of the same dicts, and
    ``list(view)`` is that list (e.g. for ``json.dumps``).
    """

    __slots__ = ("_data", "_names", "_single")
    _ROWS = 4096  # rows converted to Python floats at once while iterating

    def __init__(self, data: np.ndarray, measures: Sequence[Measure]):
        self._data = data
        self._names = [m.name for m in measures]
        self._single = [m.single_valued for m in measures]

    def __len__(self) -> int:
        return self._data.shape[0]

    def _dicts(self, rows: list) -> list[dict]:
        """Per-pair dicts from rows of ``data[..., R:]`` as lists (recall, precision, f per measure)."""
        names, single = self._names, self._single
        if not any(single) and names:  # the common case: flat comprehensions, no call per row
            inner = iter([{"recall": r, "precision": p, "f": f} for row in rows for r, p, f in row])
            if len(names) == 3:  # the default measure set: one dict display per pair
                a, b, c = names
                return [{a: x, b: y, c: z} for x, y, z in zip(inner, inner, inner)]
            return [dict(zip(names, group)) for group in zip(*[inner] * len(names))]
        out = []
        for row in rows:
            entry = {}
            for name, one, v in zip(names, single, row):
                entry[name] = {"score": v[2]} if one else {"recall": v[0], "precision": v[1], "f": v[2]}
            out.append(entry)
        return out

    def __getitem__(self, i):
        if isinstance(i, slice):
            return self._dicts(self._data[i, :, R:].tolist())
        try:
            i = i.__index__()
        except AttributeError:
            raise TypeError(f"per-pair indices must be integers or slices, not {type(i).__name__}") from None
        return self._dicts([self._data[i, :, R:].tolist()])[0]

    def __iter__(self):
        for start in range(0, len(self), self._ROWS):
            yield from self._dicts(self._data[start : start + self._ROWS, :, R:].tolist())

    def __eq__(self, other):
        if isinstance(other, PerPair):
            return self._names == other._names and self._single == other._single and list(self) == list(other)
        if isinstance(other, (list, tuple, Sequence)) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # unhashable, like a list

    def __repr__(self) -> str:
        if len(self) > 6:
            return f"<per-pair scores of {len(self)} pairs: {self[:3]!r}...>"
        return repr(list(self))


class RougeResult:
    """Scores of a corpus: per pair (input order) and aggregated, with the options and signature.

    Immutable. Build it with the scored ``data`` (n x measures x 6) and the
    :class:`~rougekit.engine.options.ScoringOptions`; ``corpus_values`` gives single-valued measures'
    corpus numbers (corpus BLEU); ``totals``/``total_pairs`` make an aggregate-only result
    (column sums of ``total_pairs`` pairs that were not kept); with them, ``kept_rpf`` (total_pairs x
    measures x 3: each pair's recall, precision and f, ``data[:, :, 3:]``) gives that result its
    bootstrap without the counts (not with ``average='tokens'``, which resamples the counts); total_pairs
    x measures x 1, each pair's f only (``data[:, :, 5:]``): ``interval(name, "f")`` of the 1.5.5
    bootstrap only, any other interval an error.
    """

    __slots__ = (
        "options",
        "signature",
        "_data",
        "_ids",
        "_corpus_values",
        "_totals",
        "_total_pairs",
        "_rpf",
        "_lock",
        "_boot",
        "_keyed",
        "__weakref__",
    )
    options: ScoringOptions
    signature: Signature
    _data: np.ndarray
    _ids: tuple[str, ...] | None
    _corpus_values: Mapping[str, float]
    _totals: np.ndarray | None
    _total_pairs: int
    _rpf: np.ndarray | None
    _lock: threading.Lock
    _boot: tuple | None
    _keyed: dict

    def __init__(
        self,
        data: np.ndarray,
        options: ScoringOptions,
        ids: Sequence[str] | None = None,
        *,
        corpus_values: Mapping[str, float] | None = None,
        totals: np.ndarray | None = None,
        total_pairs: int = 0,
        signature: Signature | None = None,
        kept_rpf: np.ndarray | None = None,
    ):
        data = np.asarray(data, dtype=np.float64)
        if data.ndim != 3 or data.shape[1:] != (len(options.measures), 6):
            raise ValueError(f"data must be n x {len(options.measures)} x 6, got shape {data.shape}")
        if data.flags.writeable:
            data = data.view()  # a read-only view: the caller's array is left as it was
            data.flags.writeable = False
        if ids is not None:
            ids = tuple(str(i) for i in ids)
            if len(ids) != data.shape[0]:
                raise ValueError(f"{len(ids)} ids for {data.shape[0]} pairs")
            if options.average == "rouge155" and len(set(ids)) != len(ids):
                _refuse_repeated(ids)
        if totals is not None:
            totals = np.array(totals, dtype=np.float64)
            totals.flags.writeable = False
        if kept_rpf is not None:
            kept_rpf = np.asarray(kept_rpf, dtype=np.float64)
            if totals is None or options.average == "tokens":
                raise ValueError("kept_rpf is for an aggregate-only result (totals) whose average is not 'tokens'")
            if (
                kept_rpf.ndim != 3
                or kept_rpf.shape[:2] != (int(total_pairs), len(options.measures))
                or (kept_rpf.shape[2] not in (1, 3))
            ):
                raise ValueError(
                    f"kept_rpf must be {int(total_pairs)} x {len(options.measures)} x 3 (or x 1), got {kept_rpf.shape}"
                )
            if kept_rpf.flags.writeable:
                kept_rpf = kept_rpf.view()
                kept_rpf.flags.writeable = False
        s = object.__setattr__
        s(self, "options", options)
        s(self, "signature", signature or Signature.from_options(options))
        s(self, "_data", data)
        s(self, "_ids", ids)
        s(self, "_corpus_values", MappingProxyType(dict(corpus_values or {})))
        s(self, "_totals", totals)
        s(self, "_total_pairs", int(total_pairs))
        s(self, "_rpf", kept_rpf)
        s(self, "_lock", threading.Lock())
        s(self, "_boot", None)
        s(self, "_keyed", {})

    def __setattr__(self, name, value):
        raise AttributeError(f"RougeResult is immutable (cannot set {name!r})")

    def __reduce__(self):
        return (
            _restore,
            (
                np.array(self._data),
                self.options,
                self._ids,
                dict(self._corpus_values),
                None if self._totals is None else np.array(self._totals),
                self._total_pairs,
                self.signature,
                None if self._rpf is None else np.array(self._rpf),
            ),
        )

    # -- stored values ------------------------------------------------------------------------
    @property
    def data(self) -> np.ndarray:
        """The read-only n x measures x 6 array (see the module docstring for the columns)."""
        return self._data

    @property
    def measures(self) -> tuple[Measure, ...]:
        return self.options.measures

    @property
    def average(self) -> str:
        return self.options.average

    @property
    def alpha(self) -> float:
        return self.options.alpha

    @property
    def totals(self) -> np.ndarray | None:
        """Aggregate-only results: per measure, the column sums (else None)."""
        return self._totals

    @property
    def total_pairs(self) -> int:
        """How many pairs were scored: ``len(result)`` counts the per-pair rows kept, which an
        aggregate-only result (``keep_pairs=False``) has none of."""
        return self._total_pairs if self._totals is not None else self._data.shape[0]

    @property
    def corpus_values(self) -> Mapping[str, float]:
        """Corpus values of single-valued measures (corpus BLEU, mean ACCY, ...), read-only."""
        return self._corpus_values

    @property
    def ids(self) -> list[str]:
        """Pair IDs: as given, or "1", "2", ... in input order."""
        if self._ids is None:
            return [str(i) for i in range(1, self._data.shape[0] + 1)]
        return list(self._ids)

    @property
    def id_list(self) -> list[str] | None:
        """The IDs given when scoring, or None (then the pairs are numbered in input order)."""
        return None if self._ids is None else list(self._ids)

    @property
    def pairs(self) -> _Pairs:
        return _Pairs(self)

    def __len__(self) -> int:
        return self._data.shape[0]

    def _index(self, name: str) -> int:
        for j, m in enumerate(self.measures):
            if m.name == name:
                return j
        raise KeyError(name)

    def column(self, name: str) -> np.ndarray:
        """The n x 6 array of one measure (read-only)."""
        return self._data[:, self._index(name), :]

    def values(self, name: str, key: str = "f") -> np.ndarray:
        """One value of one measure for every pair, as a read-only array: ``recall``, ``precision``,
        ``f`` (or ``score`` for a single-valued measure), ``reference_count``, ``hits``, ``candidate_count``."""
        col = {"recall": R, "precision": P, "f": F, "score": F, "reference_count": MODEL, "hits": HITS}
        col["candidate_count"] = PEER
        if key not in col:
            raise KeyError(f"{key!r}: use one of {', '.join(col)}")
        return self.column(name)[:, col[key]]

    # -- corpus numbers ------------------------------------------------------------------------
    def corpus(self, name: str) -> dict[str, float]:
        """Corpus-level R/P/F: mean of the per-pair values, Σhits/Σcounts with average='tokens', or
        the script's bootstrap average with average='rouge155'.

        Single-valued measures give ``{"score"}``: corpus BLEU for BLEU, else the mean per pair.
        A result of no pairs gives NaN (there is no mean), never a zero score.
        """
        if name in self._corpus_values:
            return {"score": self._corpus_values[name]}
        if self.average == "rouge155" and name in self.rouge155_averages:
            return dict(self.rouge155_averages[name])
        if self._totals is not None:
            return self._corpus_from_totals(name, self._totals)
        col = self.column(name)
        n = col.shape[0]
        if n == 0:  # the mean of no pairs is undefined, not zero
            return {"recall": math.nan, "precision": math.nan, "f": math.nan}
        if self.average == "tokens":
            m, pc, h = (float(np.sum(col[:, k])) for k in (MODEL, PEER, HITS))
            return _ratios(m, pc, h, self.alpha)
        return {k: float(pair_sum(col[:, c]) / n) for k, c in zip(KEYS, (R, P, F))}

    def _corpus_from_totals(self, name: str, totals: np.ndarray) -> dict[str, float]:
        t, n = totals[self._index(name)], self._total_pairs
        if n == 0:  # the mean of no pairs is undefined, not zero
            return {"recall": math.nan, "precision": math.nan, "f": math.nan}
        if self.average == "tokens":
            return _ratios(float(t[MODEL]), float(t[PEER]), float(t[HITS]), self.alpha)
        return {k: float(t[c] / n) for k, c in zip(KEYS, (R, P, F))}

    # -- the bootstrap, on first access -----------------------------------------------------------
    @property
    def intervals(self) -> Mapping[str, Mapping[str, Interval]]:
        """``{measure: {"recall"|"precision"|"f": Interval}}`` for R/P/F measures (empty without a bootstrap)."""
        return self._bootstrap()[0]

    @property
    def rouge155_averages(self) -> Mapping[str, Mapping[str, float]]:
        """ROUGE-1.5.5's printed averages (the mean of the sorted resample means), with ``bootstrap='rouge155'``."""
        return self._bootstrap()[1]

    def interval(self, name: str, key: str = "f") -> Interval | None:
        """The interval of ``key`` (recall, precision or f) of one measure, or None (no bootstrap, or a
        single-valued measure). With the 1.5.5 bootstrap over per-pair values (not ``average='tokens'``)
        only the columns of ``key`` are resampled, for every measure at once, when nothing else was asked
        yet: the same numbers as :attr:`intervals`, for a third of the draws (a text report prints f's)."""
        o = self.options
        if self._boot is None and o.bootstrap == "rouge155" and o.average != "tokens" and key in KEYS:
            with self._lock:
                if key not in self._keyed:
                    self._keyed[key] = _run_key_bootstrap(self, key)
            b = self._keyed[key].get(name)
            return None if b is None else Interval(b[1], b[2], float(o.confidence), "rouge155", o.resamples, None)
        per = self.intervals.get(name)
        return None if per is None else per[key]

    def _bootstrap(self):
        boot = self._boot
        if boot is None:
            with self._lock:
                boot = self._boot
                if boot is None:
                    boot = _run_bootstrap(self)
                    object.__setattr__(self, "_boot", boot)
        return boot

    # -- views and exports ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, dict]:
        """``{measure: {"recall", "precision", "f", "interval"?, "rouge155_average"?}}`` or ``{"score"}``."""
        intervals, averages = self._bootstrap()
        out = {}
        for m in self.measures:
            entry: dict = dict(self.corpus(m.name))
            if m.name in intervals:
                entry["interval"] = {k: v.to_dict() for k, v in intervals[m.name].items()}
            if m.name in averages:
                entry["rouge155_average"] = dict(averages[m.name])
            out[m.name] = entry
        return out

    def per_pair(self) -> PerPair:
        """One ``{measure: {"recall", "precision", "f"}}`` (or ``{"score"}``) per candidate, in input
        order: a read-only sequence whose rows are built when read."""
        return PerPair(self._data, self.measures)

    def columns(self) -> dict[str, np.ndarray]:
        """One row per pair: ``instance`` (its ID), then per measure ``<measure>_recall``, ``_precision``,
        ``_f``, ``_reference_count``, ``_hits``, ``_candidate_count`` (``<measure>_score`` when single-valued).
        Counts are integers except for ROUGE-W's weighted counts."""
        out: dict[str, np.ndarray] = {"instance": np.array(self.ids, dtype=object)}
        for j, m in enumerate(self.measures):
            col = self._data[:, j, :]
            if m.single_valued:
                out[f"{m.name}_score"] = col[:, F]
                continue
            for key, c in zip(KEYS, (R, P, F)):
                out[f"{m.name}_{key}"] = col[:, c]
            for key, c in (("reference_count", MODEL), ("hits", HITS), ("candidate_count", PEER)):
                out[f"{m.name}_{key}"] = col[:, c].astype(np.int64) if m.integral_counts else col[:, c]
        return out

    def to_pandas(self) -> "pandas.DataFrame":
        """A ``pandas.DataFrame`` of :meth:`columns` (needs the ``pandas`` extra)."""
        pd = _optional("pandas", "pandas", "to_pandas")
        return pd.DataFrame(self.columns())

    def to_arrow(self) -> "pyarrow.Table":
        """A ``pyarrow.Table`` of :meth:`columns` (needs the ``pyarrow`` extra)."""
        pa = _optional("pyarrow", "pyarrow", "to_arrow")
        cols = self.columns()
        cols["instance"] = pa.array(cols["instance"].tolist(), type=pa.string())
        return pa.table(cols)

    def to_polars(self) -> "polars.DataFrame":
        """A ``polars.DataFrame`` of :meth:`columns` (needs the ``polars`` extra)."""
        pl = _optional("polars", "polars", "to_polars")
        cols = self.columns()
        cols["instance"] = pl.Series("instance", cols["instance"].tolist(), dtype=pl.Utf8)
        return pl.DataFrame(cols)

    def to_html(
        self,
        path: str | None = None,
        *,
        name: str = "system",
        others: Mapping[str, "RougeResult"] | None = None,
        candidates=None,
        references=None,
        **options,
    ) -> str | None:
        """A self-contained HTML report (:mod:`rougekit.report.html`) of this result and ``others``
        (more systems scored on the same pairs with the same options): written to ``path`` (and None
        returned), or returned as a string when no path is given.

        ``candidates`` (a list of texts, or ``{system: list}`` with ``others``) and ``references``
        add the list of examples; ``options`` are ``trials``, ``seed``, ``confidence``, ``title`` (a
        str; None: the default) and ``highlights`` (how many examples show their matched words:
        ``"all"``, the default, or a number)."""
        if "title" in options and options["title"] is None:
            del options["title"]
        if "title" in options and not isinstance(options["title"], str):
            raise TypeError(f"to_html(): title must be a str, got {type(options['title']).__name__}")
        page = _late.html_report(self, path, name, others, candidates, references, options)
        return None if path is not None else page

    def counts(self) -> list[dict[str, dict[str, float]]]:
        """Raw sufficient statistics per pair (R/P/F measures): reference count, hits, candidate count."""
        return [
            {
                name: {"reference_count": s.model_count, "hits": s.hits, "candidate_count": s.peer_count}
                for name, s in p.items()
                if isinstance(s, PairScore)
            }
            for p in self.pairs
        ]

    def rows(self) -> list[dict]:
        """Long-format rows (one per pair and measure, keyed by ``instance``), ready for ``pandas.DataFrame``.

        Counts come in one order everywhere: reference count, hits, candidate count."""
        return list(long_rows(self.measures, self._data, self.ids))

    def __str__(self) -> str:
        lines = [
            str(self.signature),
            f"corpus R/P/F of {self.total_pairs} pairs: {AVERAGE_NAMES.get(self.average, self.average)}",
        ]
        for name, v in self.to_dict().items():
            if "score" in v:
                lines.append(f"{name:12s} {v['score']:.5f}")
            else:
                lines.append(f"{name:12s} R {v['recall']:.5f}  P {v['precision']:.5f}  F {v['f']:.5f}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<RougeResult of {self.total_pairs} pairs: {self.signature}>"


ROW_KEYS = ("instance", "measure", "recall", "precision", "f", "score", "reference_count", "hits", "candidate_count")


def pair_sum(values: np.ndarray, before: np.ndarray | float = 0.0) -> np.ndarray:
    """The sum of per-pair values (axis 0) added one pair after another in pair order, as ROUGE-1.5.5
    adds its averages; ``before``, the sum of the pairs before these. So a corpus mean has the same bits
    whether its pairs were scored in one call or in chunks (``Scorer.score_stream``, a Parquet file)."""
    values = np.asarray(values, dtype=np.float64)
    out = np.array(np.broadcast_to(before, values.shape[1:]), dtype=np.float64)  # a fresh array
    kernel = backend.bootstrap_module()
    if kernel is None:  # the twin: a running sum, the last of its prefix sums
        if len(values):
            out = np.cumsum(np.concatenate((out[None], values)), axis=0)[-1]
        return out
    kernel.pair_order_sums(values.reshape(len(values), -1), out.reshape(-1))
    return out


def long_rows(measures: Sequence[Measure], data: np.ndarray, ids: Sequence[str]):
    """Yield one dict per pair and measure (keys :data:`ROW_KEYS`), ``None`` where not applicable."""
    whole = [m.integral_counts for m in measures]
    for i, row in zip(ids, data.tolist()):
        for m, integral, v in zip(measures, whole, row):
            if m.single_valued:
                yield dict(zip(ROW_KEYS, (i, m.name, None, None, None, v[F], None, None, None)))
            else:
                counts = (_count(v[MODEL], integral), _count(v[HITS], integral), _count(v[PEER], integral))
                yield dict(zip(ROW_KEYS, (i, m.name, v[R], v[P], v[F], None, *counts)))


def _ratios(model: float, peer: float, hits: float, alpha: float) -> dict[str, float]:
    return dict(zip(KEYS, (float(x) for x in ratios(model, peer, hits, alpha))))


def _run_bootstrap(result: RougeResult):
    """(intervals, rouge155 averages) of every R/P/F measure, from one set of resample draws."""
    o = result.options
    cols = [j for j, m in enumerate(o.measures) if not m.single_valued]
    n = _resampled_rows(result)
    if not o.bootstrap or not cols or n == 0:
        return MappingProxyType({}), MappingProxyType({})
    tokens = o.average == "tokens"
    fields = [MODEL, PEER, HITS] if tokens else [R, P, F]
    level = float(o.confidence)
    names = [o.measures[j].name for j in cols]
    intervals, averages = {}, {}
    if o.bootstrap == "rouge155":
        values = _columns(result, cols, fields, in_script_order=True)
        boots = perl_bootstrap_measures(values, o.resamples, level, 1 if tokens else 0, o.alpha)
        for name, b in zip(names, boots):
            intervals[name] = MappingProxyType(
                {k: Interval(b.low[i], b.high[i], level, "rouge155", o.resamples, None) for i, k in enumerate(KEYS)}
            )
            averages[name] = MappingProxyType(dict(zip(KEYS, b.average)))
    else:
        values = _columns(result, cols, fields)
        lo, hi = percentile_bootstrap(values, tokens, o.alpha, o.resamples, level, o.seed)
        for k, name in enumerate(names):
            intervals[name] = MappingProxyType(
                {
                    key: Interval(float(lo[3 * k + i]), float(hi[3 * k + i]), level, "percentile", o.resamples, o.seed)
                    for i, key in enumerate(KEYS)
                }
            )
    return MappingProxyType(intervals), MappingProxyType(averages)


def _columns(result: RougeResult, cols: list[int], fields: list[int], in_script_order: bool = False) -> np.ndarray:
    """``data[:, cols][:, :, fields]`` as one n x (cols x fields) array (one field of a run of measures
    in input order: a view of ``data``; else a C-contiguous copy), rows in the
    script's instance order when asked (reordered only when ids give another order), filled a column
    at a time: no intermediate copies (of 1,000,000 pairs, fancy indexing held 144 + 72 + 72 MB)."""
    n = _resampled_rows(result)
    order = np.asarray(_rouge155_order(result), dtype=np.intp) if in_script_order and result._ids is not None else None
    data, first = (result.data, 0) if result._rpf is None else (result._rpf, 6 - result._rpf.shape[2])
    if any(f < first for f in fields):  # kept_rpf of f only
        raise ValueError("this result kept each pair's f only: its bootstrap gives the 1.5.5 intervals of f only")
    if order is None and len(fields) == 1 and cols == list(range(cols[0], cols[0] + len(cols))):
        # one field of a run of measures: a view (the bootstrap reads it where it is; 24 MB of fresh
        # pages and 0.05 s of one thread a million pairs on a VM that faults them in from its host)
        return data[:, cols[0] : cols[0] + len(cols), fields[0] - first]
    if order is None and data is result._rpf and fields == [R, P, F] and cols == list(range(data.shape[1])):
        return data.reshape(n, -1)  # kept_rpf of R/P/F measures only: already these columns (no 72 MB copy)
    out = np.empty((n, len(cols) * len(fields)), dtype=np.float64)
    for k, (j, f) in enumerate((j, f) for j in cols for f in fields):
        column = data[:, j, f - first]
        out[:, k] = column if order is None else column[order]
    return out


def _resampled_rows(result: RougeResult) -> int:
    """How many pairs the bootstrap resamples: the rows kept (``data``, or an aggregate-only result's ``kept_rpf``)."""
    return len(result) if result._rpf is None else len(result._rpf)


def _refuse_repeated(ids: tuple[str, ...]) -> None:
    """The script's average reads one evaluation an ID: a repeated one is an error naming its pairs."""
    first: dict[str, int] = {}
    for k, i in enumerate(ids):
        if i in first:
            raise InputError(
                f"pair ID {i!r} repeats (pairs {first[i] + 1} and {k + 1}): ROUGE-1.5.5.pl would merge the two "
                "evaluations, so its average (average='rouge155', --average rouge155) needs one ID a pair"
            )
        first[i] = k


def _rouge155_order(result: RougeResult) -> list[int]:
    """The pairs in the script's instance order: it sorts "<evalID>.<peerID>" as strings; "<id>." sorts
    the same for any peer ID (unless an ID holds a "."). Without ids, the eval IDs are 01, 02, ...: input order."""
    n, ids = len(result), result._ids
    return list(range(n)) if ids is None else sorted(range(n), key=lambda i: ids[i] + ".")


def _run_key_bootstrap(result: RougeResult, key: str) -> dict[str, tuple[float, float, float]]:
    """{measure: (average, low, high)} of one of recall/precision/f of every R/P/F measure (1.5.5, -t 0)."""
    o = result.options
    cols = [j for j, m in enumerate(o.measures) if not m.single_valued]
    if not cols or _resampled_rows(result) == 0:
        return {}
    field = (R, P, F)[KEYS.index(key)]
    values = _columns(result, cols, [field], in_script_order=True)
    boots = perl_bootstrap_columns(values, o.resamples, float(o.confidence))
    return {o.measures[j].name: b for j, b in zip(cols, boots)}


def _optional(module: str, extra: str, method: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(f"RougeResult.{method}() needs {module}: pip install 'rougekit[{extra}]'") from None


def _restore(data, options, ids, corpus_values, totals, total_pairs, signature, kept_rpf=None):
    return RougeResult(
        data,
        options,
        ids,
        corpus_values=corpus_values,
        totals=totals,
        total_pairs=total_pairs,
        signature=signature,
        kept_rpf=kept_rpf,
    )
