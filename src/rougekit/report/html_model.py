"""What the HTML report shows, gathered from scored results (or a saved JSON result).

:class:`ReportData` holds, per system, the corpus numbers (``RougeResult.to_dict()`` shape, with
the 1.5.5 intervals from the result's lazy bootstrap) and the per-pair R/P/F columns; the texts
are optional. :func:`significance` and :func:`ranks` derive the comparisons through
:mod:`rougekit.stats.paired` (the tests of ``rougekit compare``).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from rougekit.engine.options import ScoringOptions
from rougekit.errors import InputError, OptionError
from rougekit.io import reader
from rougekit.report.formats import average_label, value_text
from rougekit.results import RougeResult
from rougekit.stats.paired import approximate_randomization, paired_bootstrap

KEYS = ("recall", "precision", "f")


@dataclass
class SystemScores:
    """One system: ``corpus[measure]`` as ``RougeResult.to_dict()`` gives it, ``values[measure]``
    the per-pair n x 3 (recall, precision, f) array, or n x 1 (score) for a single-valued measure."""

    name: str
    corpus: dict[str, dict]
    values: dict[str, np.ndarray]


@dataclass
class ReportData:
    systems: list[SystemScores]
    measures: list[str]
    single: set[str]  # single-valued measures (BLEU, ACCY, ...)
    ids: list[str]
    signature: str
    average: str  # what the corpus numbers are (formats.AVERAGE_LABELS)
    candidates: dict[str, list[str]] | None = None  # system -> one display text per pair (sentences on lines)
    references: list[list[str]] | None = None  # per pair, its references
    notes: list[str] = field(default_factory=list)
    explainable: bool = False  # the texts are text (not token ids): rougekit.explain can show their matches
    explain_options: dict = field(default_factory=dict)  # rougekit.explain's options for the scores' matches

    @property
    def size(self) -> int:
        return len(self.ids)

    def level(self) -> float | None:
        """The interval level of the tables (percent), when there are intervals."""
        for s in self.systems:
            for v in s.corpus.values():
                if "interval" in v:
                    return float(v["interval"]["f"]["level"])
        return None

    def value_key(self, measure: str) -> str:
        return "score" if measure in self.single else "f"

    def main_values(self, system: SystemScores, measure: str) -> np.ndarray:
        """The per-pair values compared and plotted: F, or the score of a single-valued measure."""
        v = system.values[measure]
        return v[:, -1]


def display_text(summary) -> str:
    """A summary as shown: sentences on lines; a list of sentences joined; token ids as numbers."""
    if isinstance(summary, str):
        return summary
    if isinstance(summary, np.ndarray):
        summary = summary.tolist()
    parts = []
    for part in summary:
        if isinstance(part, (list, tuple, np.ndarray)):
            parts.append(" ".join(str(x) for x in part))
        else:
            parts.append(str(part))
    if summary and not isinstance(summary[0], (str, list, tuple, np.ndarray)):
        return " ".join(parts)  # a flat list of token ids: one sentence
    return "\n".join(parts)


_NOT_MATCHING = {"measures", "average", "bootstrap", "resamples", "confidence", "seed"}  # corpus-level options


def explain_options(options: ScoringOptions) -> dict:
    """The keyword options of :func:`rougekit.explain` that give the matches behind ``options``' scores."""
    out = {f.name: getattr(options, f.name) for f in dataclasses.fields(options) if f.name not in _NOT_MATCHING}
    if out.get("lang") is not None:
        del out["tokenizer"]  # the language preset sets it (and refuses both)
    return out


def _is_text(summary) -> bool:
    return isinstance(summary, str) or (isinstance(summary, (list, tuple)) and all(isinstance(s, str) for s in summary))


def _reference_list(entry) -> list[str]:
    if isinstance(entry, str):
        return [entry]
    entry = list(entry)
    if entry and not isinstance(entry[0], (str, list, tuple, np.ndarray)):
        return [display_text(entry)]  # one reference given as token ids
    return [display_text(r) for r in entry]


def from_results(
    results: Mapping[str, RougeResult],
    candidates: Mapping[str, Sequence] | None = None,
    references: Sequence | None = None,
) -> ReportData:
    """The report of systems scored on the same references with the same options."""
    if not results:
        raise OptionError("the report needs at least one system")
    first = next(iter(results.values()))
    for name, r in results.items():
        if not isinstance(r, RougeResult):
            raise TypeError(f"system {name!r}: expected a RougeResult, got {type(r).__name__}")
        if r.signature != first.signature:
            raise OptionError(f"system {name!r} was scored with other options ({r.signature} vs {first.signature})")
        if len(r) != len(first) or r.ids != first.ids:
            raise OptionError(f"system {name!r} was scored on other pairs than {next(iter(results))!r}")
        if r.totals is not None and len(r) == 0:
            raise OptionError(f"system {name!r} kept no per-pair scores (aggregate-only result)")
    measures = [m.name for m in first.measures]
    single = {m.name for m in first.measures if m.single_valued}
    systems = []
    for name, r in results.items():
        values = {}
        for j, m in enumerate(r.measures):
            col = r.data[:, j, 3:6]
            values[m.name] = col[:, 2:3] if m.single_valued else col
        systems.append(SystemScores(str(name), r.to_dict(), values))
    cands = None
    if candidates is not None:
        cands = {}
        for name in results:
            if name not in candidates:
                raise OptionError(f"no candidate texts for system {name!r}")
            texts = list(candidates[name])
            if len(texts) != len(first):
                raise OptionError(f"system {name!r}: {len(texts)} candidate texts for {len(first)} scored pairs")
            cands[str(name)] = [display_text(t) for t in texts]
    refs = None
    explainable = False
    if references is not None:
        references = list(references)
        refs = [_reference_list(e) for e in references]
        if len(refs) != len(first):
            raise OptionError(f"{len(refs)} reference entries for {len(first)} scored pairs")
        explainable = candidates is not None and all(
            _is_text(e) or (isinstance(e, (list, tuple)) and all(_is_text(r) for r in e)) for e in references
        )
        explainable = explainable and all(_is_text(t) for name in results for t in candidates[name])
    return ReportData(
        systems,
        measures,
        single,
        first.ids,
        str(first.signature),
        average_label(first),
        cands,
        refs,
        explainable=explainable,
        explain_options=explain_options(first.options),
    )


def from_saved(path: str) -> ReportData:
    """The report of a saved result: ``rougekit score --format json --per-pair`` output (texts are not in it)."""
    try:
        saved = json.loads(reader.read_text(path, "result"))  # a byte order mark is read as such
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not a JSON result of `rougekit score --format json` ({exc})") from None
    except RecursionError:
        raise InputError(f"{path}: not a JSON result of `rougekit score --format json` (nested too deeply)") from None
    if not isinstance(saved, dict) or not isinstance(saved.get("systems"), dict) or not saved["systems"]:
        raise InputError(f'{path}: not a JSON result of `rougekit score --format json` (no "systems")')
    per_pair = saved.get("per_pair")
    if not isinstance(per_pair, dict):
        raise InputError(f"{path}: the result has no per-pair scores: save it with `rougekit score --per-pair`")
    names = list(saved["systems"])
    first = saved["systems"][names[0]]
    if not isinstance(first, dict) or not first or not all(isinstance(v, dict) for v in first.values()):
        raise InputError(f"{path}: system {names[0]!r} has no measures (each a JSON object of its values)")
    measures = list(first)
    single = {m for m in measures if "score" in first[m]}
    systems, ids = [], None
    for name in names:
        rows = per_pair.get(name)
        corpus = saved["systems"][name]
        if not isinstance(rows, list) or not isinstance(corpus, dict) or list(corpus) != measures:
            raise InputError(f"{path}: system {name!r} has other measures or no per-pair rows")
        corpus = {m: _corpus_values(path, name, m, corpus[m], ("score",) if m in single else KEYS) for m in measures}
        these = [str(row.get("instance")) if isinstance(row, dict) else None for row in rows]
        if ids is None:
            ids = these
        elif these != ids:
            raise InputError(f"{path}: system {name!r} has other instances than {names[0]!r}")
        values = {}
        for m in measures:
            keys = ("score",) if m in single else KEYS
            try:
                values[m] = np.array([[float(row[m][k]) for k in keys] for row in rows], dtype=np.float64).reshape(
                    len(rows), len(keys)
                )
            except (KeyError, TypeError, ValueError):
                raise InputError(f"{path}: system {name!r}: a per-pair row lacks {m} {'/'.join(keys)}") from None
        systems.append(SystemScores(str(name), corpus, values))
    return ReportData(
        systems,
        measures,
        single,
        ids or [],
        str(saved.get("signature", "")),
        str(saved.get("average", "")),
        notes=[f"from the saved result {path} (no texts)"],
    )


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _corpus_values(path: str, name: str, measure: str, value, keys: tuple[str, ...]) -> dict:
    """A saved system's corpus values of one measure, checked: every key a number, an interval
    (when there is one) a low, high and level per key; InputError naming what is missing."""
    where = f"{path}: system {name!r}, {measure}"
    if not isinstance(value, dict):
        raise InputError(f"{where}: the corpus values are not a JSON object")
    missing = [k for k in keys if not _number(value.get(k))]
    if missing:
        raise InputError(f"{where}: the corpus values lack a number for {'/'.join(missing)}")
    out = {k: value[k] for k in keys}
    if "interval" in value:
        interval = value["interval"]
        if not isinstance(interval, dict) or not all(
            isinstance(iv, dict) and all(_number(iv.get(b)) for b in ("low", "high", "level"))
            for iv in interval.values()
        ):
            raise InputError(f"{where}: the interval lacks a number for low/high/level")
        if keys == KEYS and "f" not in interval:
            raise InputError(f"{where}: the interval lacks f")
        out["interval"] = interval
    return out


# ----------------------------------------------------------------------------- comparisons


def ranks(data: ReportData, measure: str) -> list[int]:
    """Rank of each system by its corpus F (score) as the table prints it: 1 = best, ties share a rank."""
    key = data.value_key(measure)
    shown = [float(value_text(s.corpus[measure][key])) for s in data.systems]
    return [1 + sum(other > mine for other in shown) for mine in shown]


@dataclass(frozen=True)
class Comparison:
    """System ``b`` against system ``a`` on one measure: the mean per-pair difference b - a, the
    approximate randomization p-value and the paired bootstrap p-value and interval."""

    measure: str
    a: int
    b: int
    delta: float
    p_randomization: float
    p_bootstrap: float
    low: float
    high: float


def significance(data: ReportData, trials: int, seed: int, confidence: float) -> list[Comparison]:
    """Every pair of systems (a before b in input order), every measure, on the per-pair F (score)."""
    out = []
    for measure in data.measures:
        for i in range(len(data.systems)):
            for j in range(i + 1, len(data.systems)):
                a = data.main_values(data.systems[i], measure)
                b = data.main_values(data.systems[j], measure)
                ar = approximate_randomization(a, b, trials, seed)
                bs = paired_bootstrap(a, b, trials, seed, confidence)
                out.append(Comparison(measure, i, j, ar.delta, ar.p_value, bs.p_value, bs.low, bs.high))
    return out
