"""The Lin (2004) §6 meta-evaluation protocol: a grid of ROUGE variants against human judgments.

Lin (2004) scored every system with 17 ROUGE measures, on the original summaries (CASE), stemmed
(STEM) and with stopwords removed (STOP), against one reference and against all references, and
correlated the systems' average ROUGE scores with their average human scores (Pearson, Spearman,
Kendall), with 95% bootstrap intervals; per column the best value is marked, and so are the values
that are not significantly worse than the best. This module does the same on any dataset that
gives, for a grid of systems x instances, a candidate summary, its references and human scores.

Datasets (:class:`ProtocolDataset`):

- :func:`load_summeval`: ``summeval.jsonl`` of SummEval (16 systems x 100 CNN/DM documents, 11
  references each, the mean of 3 expert ratings of coherence, consistency, fluency, relevance).
  The text is tokenised; sentences end after a `` . ``, `` ! `` or `` ? `` token (the split used
  for the ROUGE-1.5.5 goldens next to the file). The first reference is the CNN/DM highlight.
- :func:`load_realsumm`: REALSumm (25 systems x 100 documents, one reference, LitePyramid recall).
  Sentences come from ``parity/realsumm_rouge155_parity.jsonl`` (exactly the ROUGE-1.5.5 inputs;
  each system has its own tokenisation of the reference) and the human score from
  ``scores/realsumm_summaries.jsonl``. Systems are named ``abs/<name>`` and ``ext/<name>``.
- :func:`load_jsonl`: the generic layout, one JSON object per line and per (system, instance)::

      {"system": "M0", "instance": "doc-1",
       "candidate": "first sentence\\nsecond sentence",        # or a list of sentences
       "references": ["a reference", ["its", "sentences"]],  # or one string = one reference
       "human": {"relevance": 4.3, "coherence": 3.0}}        # or "scores": {...}

  A string's lines are its sentences. Without a ``human``/``scores`` object every other top-level
  field holding a number (or null) is a human score column. ``null`` marks a missing score; a
  (system, instance) without a row is missing everywhere. The first reference in the list is the
  one used for ``refs="one"``.

:func:`run_protocol` then scores the grid (measures x variants {plain, stem, stop} x references
{one, all}) with one :class:`rougekit.Scorer` per (variant, references) setting, so that the
processed references are cached, and correlates every measure with every human column.

Intervals are percentile bootstrap intervals. The resamples are drawn exactly as
:func:`rougekit.meta.bootstrap.bootstrap_ci` draws them (``numpy.random.default_rng(seed)``, then
per sample systems and/or instances with replacement), and every cell of the table uses the same
resamples, so the intervals equal ``bootstrap_ci(X, Y, level, coefficient,
resample_unit=resample, samples=samples, seed=seed)``; the correlations of all the resamples are
computed at once by the batched coefficients of :mod:`rougekit.stats.correlation` (equal to the
scalar ones up to rounding in the last bits; a matrix with missing values is resampled whole and
correlated pairwise-complete by :func:`masked_distribution`, batched in the same way).

Marking, per column (one human score x setting x coefficient, across measures): ``best`` is the
highest correlation; ``not_worse`` is set for the others according to ``rule``:

``overlap`` (default, Lin 2004's "statistically equivalent" reading)
    the value's 95% interval overlaps the best's: ``high >= best.low``.
``paired``
    paired bootstrap on the shared resamples: the percentile interval of (best - value) over the
    resamples where both are defined contains 0 (its lower end is <= 0).
``williams``
    Williams' test (one-sided, alpha = 1 - confidence) that the best correlates better than the
    value, with the correlation between the two metrics at the same level (system or global
    level only; n = the number of systems). Meant for Pearson; applied as is to the others.

The best value itself has ``best`` True and ``not_worse`` True.
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from rougekit.api import Scorer
from rougekit.errors import InputError, OptionError
from rougekit.io import reader
from rougekit.measures import Measure
from rougekit.stats.correlation import canonical_coefficient, combine, get_coefficient, prepare
from rougekit.stats.inference import williams_test
from rougekit.stats.levels import check_level, correlate, resampled_levels, summary_mean
from rougekit.stats.resampling import check_resample, confidence_fraction, draws, percentile_interval

__all__ = [
    "DEFAULT_MEASURES",
    "REFS",
    "RULES",
    "SCORES",
    "VARIANTS",
    "ProtocolCell",
    "ProtocolDataset",
    "ProtocolResult",
    "load_dataset",
    "load_jsonl",
    "load_realsumm",
    "load_summeval",
    "run_protocol",
    "score_grid",
    "split_tokenized",
]

# Lin (2004)'s 17 measures plus ROUGE-S1/SU1 (the brief's d = 1, 4, 9, *).
DEFAULT_MEASURES = tuple(
    [f"ROUGE-{n}" for n in range(1, 10)]
    + ["ROUGE-L", "ROUGE-W-1.2"]
    + [f"ROUGE-{k}{d}" for k in ("S", "SU") for d in ("1", "4", "9", "*")]
)
VARIANTS = {
    "plain": {"stem": False, "stopwords": False},  # Lin's CASE set
    "stem": {"stem": True, "stopwords": False},  # STEM (Porter, -m)
    "stop": {"stem": False, "stopwords": True},  # STOP (SMART stopwords removed, -s)
    "stemstop": {"stem": True, "stopwords": True},  # both (-m -s), not in Lin's tables
}
DEFAULT_VARIANTS = ("plain", "stem", "stop")
REFS = ("one", "all")
RULES = ("overlap", "paired", "williams")
SCORES = ("recall", "precision", "f")
_SCORE_INDEX = {"recall": 0, "precision": 1, "f": 2}


# ============================================================================ datasets


@dataclass
class ProtocolDataset:
    """Candidates, references and human scores on a system x instance grid.

    ``candidates[s][i]`` is a summary (lines = sentences) or None when missing;
    ``references[s][i]`` is the list of its references (first = the single reference);
    ``human[column]`` is a (systems x instances) float array, NaN = missing.
    """

    name: str
    systems: list[str]
    instances: list[str]
    candidates: list[list[str | None]]
    references: list[list[list[str]]]
    human: dict[str, np.ndarray]
    notes: list[str] = field(default_factory=list)

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.systems), len(self.instances)

    def n_references(self) -> tuple[int, int]:
        """(fewest, most) references of a present cell."""
        counts = [
            len(self.references[s][i])
            for s in range(len(self.systems))
            for i in range(len(self.instances))
            if self.candidates[s][i] is not None
        ]
        return (min(counts), max(counts)) if counts else (0, 0)

    def subset(self, instances: int | None = None, systems: Sequence[str] | None = None) -> "ProtocolDataset":
        """The first ``instances`` instances and/or the named systems (in the given order)."""
        rows = list(range(len(self.systems)))
        if systems is not None:
            index = {s: k for k, s in enumerate(self.systems)}
            missing = [s for s in systems if s not in index]
            if missing:
                raise OptionError(f"unknown system(s) {', '.join(missing)} (dataset has {', '.join(self.systems)})")
            rows = [index[s] for s in systems]
        cols = list(range(len(self.instances) if instances is None else min(int(instances), len(self.instances))))
        return ProtocolDataset(
            self.name,
            [self.systems[r] for r in rows],
            [self.instances[c] for c in cols],
            [[self.candidates[r][c] for c in cols] for r in rows],
            [[self.references[r][c] for c in cols] for r in rows],
            {k: v[np.ix_(rows, cols)] for k, v in self.human.items()},
            list(self.notes),
        )


_SENT_END = re.compile(r"(?<=\s[.!?])\s+")


def split_tokenized(text: str) -> str:
    """Tokenised text to one sentence per line; a sentence ends after a ' . ', ' ! ' or ' ? '
    token."""
    text = " " + " ".join(str(text).split())
    return "\n".join(s.strip() for s in _SENT_END.split(text) if s.strip())


def _natural_key(name: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def _read_jsonl(path: Path) -> list[dict]:
    """The rows of a JSONL file (or a JSON array of objects, or column-shaped JSON), read by
    :mod:`rougekit.io.reader` (its limits, byte order marks and ``FILE, line N`` errors)."""
    rows = [r.row for r in reader.records(reader.read_text(str(path)), str(path)).rows]
    if not rows:
        raise InputError(f"{path}: no rows")
    return rows


def _score_value(v, where: str) -> float:
    if v is None:
        return math.nan
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise InputError(f"{where}: a human score must be a number or null, got {v!r}")
    return float(v)


def load_summeval(path: str | os.PathLike) -> ProtocolDataset:
    """SummEval ``summeval.jsonl`` (or the directory holding it)."""
    path = Path(path)
    if path.is_dir():
        path = path / "summeval.jsonl"
    rows = _read_jsonl(path)
    systems = sorted({s for r in rows for s in r.get("sys_summs", {})}, key=_natural_key)
    columns: list[str] = []
    for r in rows:
        for v in r.get("sys_summs", {}).values():
            for c in v.get("scores", {}):
                if c not in columns:
                    columns.append(c)
    columns.sort()
    sys_index = {s: k for k, s in enumerate(systems)}
    n_sys, n_inst = len(systems), len(rows)
    cands: list[list[str | None]] = [[None] * n_inst for _ in systems]
    refs: list[list[list[str]]] = [[[] for _ in range(n_inst)] for _ in systems]
    human = {c: np.full((n_sys, n_inst), np.nan) for c in columns}
    instances = []
    for i, r in enumerate(rows):
        where = f"{path}:{i + 1}"
        if "sys_summs" not in r or not ("ref_summs" in r or "ref_summ" in r):
            raise InputError(f"{where}: expected SummEval fields doc_id, ref_summs, sys_summs")
        instances.append(str(r.get("doc_id", i + 1)))
        ref_list = r.get("ref_summs") or [r["ref_summ"]]
        ref_texts = [split_tokenized(t) for t in ref_list]
        for s, v in r["sys_summs"].items():
            k = sys_index[s]
            cands[k][i] = split_tokenized(v["sys_summ"])
            refs[k][i] = ref_texts
            for c, x in v.get("scores", {}).items():
                human[c][k, i] = _score_value(x, where)
    return ProtocolDataset("summeval", systems, instances, cands, refs, human)


def load_realsumm(path: str | os.PathLike) -> ProtocolDataset:
    """REALSumm: the data directory (or its ``parity/realsumm_rouge155_parity.jsonl``)."""
    path = Path(path)
    if path.is_dir():
        root = path
        parity = path / "parity" / "realsumm_rouge155_parity.jsonl"
    else:
        parity = path
        root = path.parent.parent
    scores_path = root / "scores" / "realsumm_summaries.jsonl"
    prow = _read_jsonl(parity)
    human_of: dict[tuple, float] = {}
    if scores_path.exists():
        for n, r in enumerate(_read_jsonl(scores_path), 1):
            key = (r.get("subset"), r.get("system"), str(r.get("doc_id")))
            human_of[key] = _score_value(r.get("scores", {}).get("litepyramid_recall"), f"{scores_path}:{n}")
    else:
        raise InputError(f"{scores_path}: not found (REALSumm human scores)")
    systems = sorted({f"{r['subset']}/{r['system']}" for r in prow})
    instances = sorted({str(r["doc_id"]) for r in prow}, key=_natural_key)
    si = {s: k for k, s in enumerate(systems)}
    ii = {d: k for k, d in enumerate(instances)}
    cands: list[list[str | None]] = [[None] * len(instances) for _ in systems]
    refs: list[list[list[str]]] = [[[] for _ in instances] for _ in systems]
    human = np.full((len(systems), len(instances)), np.nan)
    for n, r in enumerate(prow, 1):
        try:
            s, i = si[f"{r['subset']}/{r['system']}"], ii[str(r["doc_id"])]
            cands[s][i] = "\n".join(r["peer_sentences"])
            refs[s][i] = ["\n".join(r["model_sentences"])]
        except KeyError as exc:
            raise InputError(f"{parity}:{n}: missing field {exc}") from None
        human[s, i] = human_of.get((r["subset"], r["system"], str(r["doc_id"])), math.nan)
    return ProtocolDataset(
        "realsumm",
        systems,
        instances,
        cands,
        refs,
        {"litepyramid_recall": human},
        [
            "each REALSumm system is scored against its own tokenisation of the "
            "single reference, so refs=one and refs=all coincide"
        ],
    )


_RESERVED = {"system", "instance", "candidate", "references", "human", "scores"}


def _as_text(x, where: str) -> str:
    if isinstance(x, str):
        return x
    if isinstance(x, list) and all(isinstance(t, str) for t in x):
        return "\n".join(x)
    raise InputError(f"{where}: a summary must be a string or a list of sentence strings")


def load_jsonl(path: str | os.PathLike) -> ProtocolDataset:
    """The generic layout (see the module docstring)."""
    path = Path(path)
    rows = _read_jsonl(path)
    systems: list[str] = []
    instances: list[str] = []
    seen_s: dict[str, int] = {}
    seen_i: dict[str, int] = {}
    cells: dict[tuple[int, int], tuple[str, list[str], dict[str, float]]] = {}
    columns: list[str] = []
    for n, r in enumerate(rows, 1):
        where = f"{path}:{n}"
        for key in ("system", "instance", "candidate", "references"):
            if key not in r:
                raise InputError(f"{where}: missing field {key!r}")
        s, i = str(r["system"]), str(r["instance"])
        if s not in seen_s:
            seen_s[s] = len(systems)
            systems.append(s)
        if i not in seen_i:
            seen_i[i] = len(instances)
            instances.append(i)
        key = (seen_s[s], seen_i[i])
        if key in cells:
            raise InputError(f"{where}: a second row for system {s!r}, instance {i!r}")
        cand = _as_text(r["candidate"], where)
        ref_field = r["references"]
        ref_items = [ref_field] if isinstance(ref_field, str) else ref_field
        if not isinstance(ref_items, list) or not ref_items:
            raise InputError(f"{where}: references must be a string or a non-empty list")
        ref_texts = [_as_text(x, where) for x in ref_items]
        obj = r.get("human", r.get("scores"))
        if obj is not None:
            if not isinstance(obj, dict):
                raise InputError(f"{where}: 'human' must be an object of scores")
            scores = {str(k): _score_value(v, where) for k, v in obj.items()}
        else:
            scores = {
                k: _score_value(v, where)
                for k, v in r.items()
                if k not in _RESERVED and (v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)))
            }
        for c in scores:
            if c not in columns:
                columns.append(c)
        cells[key] = (cand, ref_texts, scores)
    if not columns:
        raise InputError(f"{path}: no human score fields")
    cands: list[list[str | None]] = [[None] * len(instances) for _ in systems]
    refs: list[list[list[str]]] = [[[] for _ in instances] for _ in systems]
    human = {c: np.full((len(systems), len(instances)), np.nan) for c in columns}
    for (s, i), (cand, ref_texts, scores) in cells.items():
        cands[s][i] = cand
        refs[s][i] = ref_texts
        for c, v in scores.items():
            human[c][s, i] = v
    return ProtocolDataset(path.stem, systems, instances, cands, refs, human)


LOADERS = {"summeval": load_summeval, "realsumm": load_realsumm, "jsonl": load_jsonl}


def load_dataset(kind: str, path: str | os.PathLike) -> ProtocolDataset:
    """``kind`` is summeval, realsumm or jsonl."""
    key = str(kind).strip().lower()
    if key not in LOADERS:
        raise OptionError(f"unknown dataset kind {kind!r} (choose from {', '.join(LOADERS)})")
    if not Path(path).exists():
        raise InputError(f"{path}: no such file or directory")
    return LOADERS[key](path)


# ============================================================================ scoring


def _score_setting(task: tuple) -> tuple[np.ndarray, float]:
    """Worker: (measures, scorer options, candidates, references) -> (M x pairs x 3, seconds)."""
    measures, options, cands, refs = task
    t0 = time.perf_counter()
    scorer = Scorer(measures, bootstrap=None, **options)
    result = scorer.score(cands, refs)
    names = [m.name for m in scorer.measures]
    out = np.empty((len(names), len(cands), 3))
    for j, pair in enumerate(result.pairs):
        for k, name in enumerate(names):
            p = pair[name]
            # a single-valued measure (BLEU, Ngram(i,j), ACCY, ...) has one value: it stands for R, P and F
            out[k, j] = (p.score,) * 3 if hasattr(p, "score") else (p.recall, p.precision, p.f)
    return out, time.perf_counter() - t0


def score_grid(
    data: ProtocolDataset,
    measures: Sequence[str] = DEFAULT_MEASURES,
    variants: Sequence[str] = DEFAULT_VARIANTS,
    refs: Sequence[str] = REFS,
    *,
    multi_ref: str = "sum",
    jobs: int = 1,
    timings: dict | None = None,
) -> dict[tuple[str, str], np.ndarray]:
    """ROUGE of every present cell: ``{(variant, refs): array (measures, systems, instances, 3)}``
    holding recall, precision and F (NaN where the candidate is missing)."""
    names = [Measure.parse(m).name for m in measures]
    n_sys, n_inst = data.shape
    where = [(s, i) for s in range(n_sys) for i in range(n_inst) if data.candidates[s][i] is not None]
    cands = [data.candidates[s][i] for s, i in where]
    ref_sets = {"one": [data.references[s][i][:1] for s, i in where], "all": [data.references[s][i] for s, i in where]}
    lo, hi = data.n_references()
    same = hi <= 1  # every cell has a single reference: one == all
    tasks, keys = [], []
    for v in variants:
        for r in refs:
            if same and r == "all" and "one" in refs:
                continue
            keys.append((v, r))
            tasks.append((names, dict(VARIANTS[v], multi_ref=multi_ref), cands, ref_sets[r]))
    if jobs > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
            outs = list(pool.map(_score_setting, tasks))
    else:
        outs = [_score_setting(t) for t in tasks]
    result = {}
    rows = np.array([s for s, _ in where], dtype=int)
    cols = np.array([i for _, i in where], dtype=int)
    for key, (arr, secs) in zip(keys, outs):
        full = np.full((len(names), n_sys, n_inst, 3), np.nan)
        full[:, rows, cols, :] = arr
        result[key] = full
        if timings is not None:
            timings[f"score {key[0]}/{key[1]}"] = round(secs, 3)
    if same:
        for v in variants:
            if "all" in refs and "one" in refs:
                result[(v, "all")] = result[(v, "one")]
    return result


# ============================================================================ the protocol


@dataclass
class ProtocolCell:
    """One correlation of the table."""

    measure: str
    variant: str
    refs: str
    human: str
    coefficient: str
    value: float
    low: float
    high: float
    best: bool = False
    not_worse: bool = False
    p_value: float | None = None  # paired / williams rules: the test against the column's best

    @property
    def column(self) -> tuple[str, str, str, str]:
        return (self.human, self.variant, self.refs, self.coefficient)


@dataclass
class ProtocolResult:
    """All cells, with what produced them."""

    dataset: str
    systems: list[str]
    n_instances: int
    level: str
    score: str
    multi_ref: str
    measures: list[str]
    variants: list[str]
    refs: list[str]
    humans: list[str]
    coefficients: list[str]
    n_references: dict[str, int]
    confidence: float
    samples: int
    seed: int | None
    resample: str
    rule: str
    cells: list[ProtocolCell]
    timings: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def cell(self, measure: str, variant: str, refs: str, human: str, coefficient: str) -> ProtocolCell:
        coefficient = canonical_coefficient(coefficient)
        measure = Measure.parse(measure).name
        for c in self.cells:
            if (c.measure, c.variant, c.refs, c.human, c.coefficient) == (measure, variant, refs, human, coefficient):
                return c
        raise KeyError((measure, variant, refs, human, coefficient))

    def to_dict(self) -> dict:
        d = {k: v for k, v in asdict(self).items() if k != "cells"}
        d["n_systems"] = len(self.systems)
        d["cells"] = [{k: _json_num(v) for k, v in asdict(c).items()} for c in self.cells]
        return d


def _json_num(v):
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def _check_list(items: Sequence[str], allowed: Sequence[str], what: str) -> list[str]:
    out = []
    for x in items:
        key = str(x).strip().lower()
        if key not in allowed:
            raise OptionError(f"unknown {what} {x!r} (choose from {', '.join(allowed)})")
        if key not in out:
            out.append(key)
    if not out:
        raise OptionError(f"give at least one {what}")
    return out


def run_protocol(
    data: ProtocolDataset,
    *,
    measures: Sequence[str] = DEFAULT_MEASURES,
    variants: Sequence[str] = DEFAULT_VARIANTS,
    refs: Sequence[str] = REFS,
    humans: Sequence[str] | None = None,
    level: str = "system",
    coefficients: Sequence[str] = ("pearson", "spearman", "kendall"),
    score: str = "recall",
    multi_ref: str = "sum",
    samples: int = 1000,
    seed: int | None = 0,
    confidence: float = 95.0,
    resample: str = "systems",
    rule: str = "overlap",
    jobs: int = 1,
) -> ProtocolResult:
    """Score the grid and correlate it with the human columns (see the module docstring)."""
    timings: dict[str, float] = {}
    t_start = time.perf_counter()
    names = []
    for m in measures:
        name = Measure.parse(m).name
        if Measure.parse(m).kind == "BE":
            raise OptionError("Basic Elements are not part of the protocol grid")
        if name not in names:
            names.append(name)
    if not names:
        raise OptionError("give at least one measure")
    variants = _check_list(variants, list(VARIANTS), "variant")
    refs = _check_list(refs, REFS, "reference setting")
    score = _check_list([score], SCORES, "score")[0]
    rule = _check_list([rule], RULES, "marking rule")[0]
    level = check_level(level)
    if level not in ("system", "summary"):
        raise OptionError("the protocol correlates at system or summary level")
    if rule == "williams" and level != "system":
        raise OptionError("the Williams rule needs system level (one n); use --rule overlap or paired")
    coefs = []
    for c in coefficients:
        c = canonical_coefficient(c)
        if c not in ("pearson", "spearman", "kendall"):
            raise OptionError(f"the protocol supports pearson, spearman and kendall, got {c!r}")
        if c not in coefs:
            coefs.append(c)
    if not coefs:
        raise OptionError("give at least one coefficient")
    conf = confidence_fraction(confidence)
    resample = check_resample(resample)
    if int(samples) < 1:
        raise OptionError(f"samples must be positive, got {samples}")
    samples = int(samples)
    if humans is None:
        humans = list(data.human)
    humans = [str(h) for h in humans]
    for h in humans:
        if h not in data.human:
            raise OptionError(f"unknown human score {h!r} (dataset has {', '.join(data.human)})")
    if not humans:
        raise OptionError("give at least one human score column")
    n_sys, n_inst = data.shape
    if n_sys < 3:
        raise InputError(f"{data.name}: the protocol needs at least 3 systems, got {n_sys}")

    grid = score_grid(data, names, variants, refs, multi_ref=multi_ref, jobs=jobs, timings=timings)
    timings["scoring"] = round(time.perf_counter() - t_start, 3)
    t_corr = time.perf_counter()
    k = _SCORE_INDEX[score]
    rows, cols = draws(n_sys, n_inst, resample, samples, seed)
    human_prep: dict[tuple[str, str], tuple | None] = {}
    for h in humans:
        H = data.human[h]
        hr = None if np.isnan(H).any() else resampled_levels(H, rows, cols, level)
        for c in coefs:
            human_prep[(h, c)] = None if hr is None else prepare(hr, c)

    cells: list[ProtocolCell] = []
    dists: dict[tuple, np.ndarray] = {}
    metric_mats: dict[tuple, np.ndarray] = {}
    for v in variants:
        for r in refs:
            arr = grid[(v, r)]
            for mi, name in enumerate(names):
                X = arr[mi, :, :, k]
                metric_mats[(name, v, r)] = X
                x_ok = not np.isnan(X).any()
                xr = resampled_levels(X, rows, cols, level) if x_ok else None
                for c in coefs:
                    px = prepare(xr, c) if x_ok else None
                    for h in humans:
                        Y = data.human[h]
                        value = correlate(X, Y, level, c)
                        if px is not None and human_prep[(h, c)] is not None:
                            dist = combine(px, human_prep[(h, c)])
                            if level == "summary":  # mean over the instances with a defined value
                                dist = summary_mean(dist)
                        else:  # missing cells: pairwise-complete, on the same draws
                            dist = masked_distribution(X, Y, level, c, rows, cols)
                        low, high = percentile_interval(dist, conf)
                        cells.append(ProtocolCell(name, v, r, h, c, float(value), low, high))
                        dists[(name, v, r, h, c)] = dist
    order = {
        "m": {n: i for i, n in enumerate(names)},
        "h": {h: i for i, h in enumerate(humans)},
        "c": {c: i for i, c in enumerate(coefs)},
    }
    cells.sort(
        key=lambda x: (
            order["m"][x.measure],
            variants.index(x.variant),
            refs.index(x.refs),
            order["h"][x.human],
            order["c"][x.coefficient],
        )
    )
    _mark(cells, dists, metric_mats, data, rule, conf, level)
    timings["correlations"] = round(time.perf_counter() - t_corr, 3)
    timings["total"] = round(time.perf_counter() - t_start, 3)
    lo, hi = data.n_references()
    notes = list(data.notes)
    if lo != hi and "all" in refs:
        notes.append(f"instances have between {lo} and {hi} references")
    return ProtocolResult(
        dataset=data.name,
        systems=list(data.systems),
        n_instances=n_inst,
        level=level,
        score=score,
        multi_ref=multi_ref,
        measures=names,
        variants=variants,
        refs=refs,
        humans=humans,
        coefficients=coefs,
        n_references={"one": 1 if hi else 0, "all": hi},
        confidence=round(conf * 100.0, 10),
        samples=samples,
        seed=seed,
        resample=resample,
        rule=rule,
        cells=cells,
        timings=timings,
        notes=notes,
    )


_MASKED_BLOCK = 4_000_000  # resampled cells gathered at once by masked_distribution (32 MB a matrix)


def _resampled(M: np.ndarray, rows, cols) -> np.ndarray:
    """The resampled matrices of drawn indices, stacked: (resamples, systems, instances)."""
    if cols is None:
        return M[rows]
    if rows is None:
        return np.transpose(M[:, cols], (1, 0, 2))
    return M[rows[:, :, None], cols[:, None, :]]


def masked_distribution(X: np.ndarray, Y: np.ndarray, level: str, coefficient: str, rows, cols) -> np.ndarray:
    """The correlations of the resamples ``rows``/``cols`` (from ``draws``) of matrices with missing
    cells, pairwise-complete as :func:`rougekit.stats.levels.correlate` takes them: what
    ``bootstrap_distribution`` gives for the same seed (up to rounding in the last bits), batched.
    Only a resample where a system has no valid cell (system level) or an instance has some but
    not all systems valid (summary level) is correlated one at a time. Any other level (global)
    has no batched form here: every resample is correlated one at a time, as the library does."""
    level = check_level(level)
    func = get_coefficient(coefficient)
    n = len(rows) if rows is not None else len(cols)
    step = max(1, _MASKED_BLOCK // max(1, X.size))
    out = np.empty(n)
    for start in range(0, n, step):
        r = None if rows is None else rows[start : start + step]
        c = None if cols is None else cols[start : start + step]
        xb, yb = _resampled(X, r, c), _resampled(Y, r, c)
        if level not in ("system", "summary"):
            out[start : start + len(xb)] = [correlate(x, y, level, func) for x, y in zip(xb, yb)]
            continue
        valid = ~(np.isnan(xb) | np.isnan(yb))
        block = _system_block if level == "system" else _summary_block
        out[start : start + len(xb)] = block(xb, yb, valid, coefficient, func)
    return out


def _system_block(xb, yb, valid, coefficient: str, func) -> np.ndarray:
    counts = valid.sum(axis=2)
    xm = np.where(valid, xb, 0.0).sum(axis=2) / np.maximum(counts, 1)
    ym = np.where(valid, yb, 0.0).sum(axis=2) / np.maximum(counts, 1)
    full = (counts > 0).all(axis=1)
    out = np.empty(len(xb))
    if full.any():
        out[full] = combine(prepare(xm[full], coefficient), prepare(ym[full], coefficient))
    for b in np.flatnonzero(~full):  # systems without a valid cell are left out, as system_level does
        keep = counts[b] > 0
        out[b] = func(xm[b, keep], ym[b, keep])
    return out


def _summary_block(xb, yb, valid, coefficient: str, func) -> np.ndarray:
    xv, yv, ok = (np.transpose(a, (0, 2, 1)) for a in (xb, yb, valid))  # (resamples, instances, systems)
    n_valid = ok.sum(axis=2)
    per = np.full(n_valid.shape, np.nan)
    full = n_valid == ok.shape[2]
    if full.any():
        per[full] = combine(prepare(xv[full], coefficient), prepare(yv[full], coefficient))
    for b, j in zip(*np.nonzero((n_valid >= 2) & ~full)):  # an instance with some systems missing
        keep = ok[b, j]
        per[b, j] = func(xv[b, j, keep], yv[b, j, keep])
    return summary_mean(per)


def _mark(
    cells: list[ProtocolCell], dists: dict, metric_mats: dict, data: ProtocolDataset, rule: str, conf: float, level: str
) -> None:
    columns: dict[tuple, list[ProtocolCell]] = {}
    for c in cells:
        columns.setdefault(c.column, []).append(c)
    for (h, v, r, coef), group in columns.items():
        valid = [c for c in group if not math.isnan(c.value)]
        if not valid:
            continue
        top = max(c.value for c in valid)
        bests = [c for c in valid if c.value == top]
        best = bests[0]
        for c in bests:
            c.best = True
            c.not_worse = True
        for c in valid:
            if c.best:
                continue
            if rule == "overlap":
                c.not_worse = not math.isnan(c.high) and not math.isnan(best.low) and c.high >= best.low
            elif rule == "paired":
                d = dists[(best.measure, v, r, h, coef)] - dists[(c.measure, v, r, h, coef)]
                d = d[~np.isnan(d)]
                if d.size == 0:
                    c.not_worse = False
                    continue
                c.p_value = float(np.mean(d <= 0.0))
                low, _ = percentile_interval(d, conf)
                c.not_worse = low <= 0.0
            else:  # williams
                XA = metric_mats[(best.measure, v, r)]
                XB = metric_mats[(c.measure, v, r)]
                r23 = correlate(XA, XB, level, coef)
                n = int((~np.isnan(XA).all(axis=1)).sum())
                if n <= 3:
                    raise OptionError(f"Williams' test needs more than 3 systems, got {n}")
                _, p = williams_test(best.value, c.value, r23, n, "greater")
                c.p_value = p
                c.not_worse = not (p < 1.0 - conf)


# ============================================================================ output

_COEF_SHORT = {"pearson": "r", "spearman": "rho", "kendall": "tau"}
_VARIANT_LABEL = {"plain": "CASE", "stem": "STEM", "stop": "STOP", "stemstop": "STEM+STOP"}


def _refs_label(result: ProtocolResult, r: str) -> str:
    if r == "one":
        return "1 REF"
    n = result.n_references.get("all", 0)
    return f"{n} REFS" if n > 1 else "ALL REFS"


def _fmt(x: float, digits: int) -> str:
    return "nan" if x is None or math.isnan(x) else f"{x:.{digits}f}"


def format_text(result: ProtocolResult, *, digits: int = 3, intervals: bool = False, max_columns: int = 18) -> str:
    """Paper-style tables: rows = measures; columns = human x references x variant x coefficient.
    ``*`` marks the best of a column, ``+`` the values not significantly worse than it."""
    by_key = {(c.measure, c.human, c.refs, c.variant, c.coefficient): c for c in result.cells}
    columns = [
        (h, r, v, c) for h in result.humans for r in result.refs for v in result.variants for c in result.coefficients
    ]
    levels = [
        ("human", result.humans),
        ("refs", result.refs),
        ("variant", result.variants),
        ("coefficient", result.coefficients),
    ]
    if len(columns) > max_columns and len(result.humans) > 1:
        blocks = [[col for col in columns if col[0] == h] for h in result.humans]
    else:
        blocks = [columns]
    rule_text = {
        "overlap": "its 95% interval overlaps the best's",
        "paired": "paired bootstrap: the interval of (best - value) contains 0",
        "williams": "Williams' test does not find it worse",
    }[result.rule]
    lines = [
        f"{result.dataset}: {result.level}-level correlation of ROUGE {result.score} with human "
        f"scores ({len(result.systems)} systems, {result.n_instances} instances; multiple "
        f"references: {result.multi_ref})",
        f"{result.confidence:g}% bootstrap intervals: {result.samples} samples resampling "
        f"{result.resample}, seed {result.seed}. * = best in column; + = not significantly worse "
        f"than the best ({rule_text}).",
    ]
    for note in result.notes:
        lines.append(f"note: {note}")
    for block in blocks:
        lines.append("")
        header_rows = []
        constant = []
        for idx, (what, values) in enumerate(levels):
            present = []
            for col in block:
                if col[idx] not in present:
                    present.append(col[idx])
            labels = [_label(result, what, col[idx]) for col in block]
            if len(present) == 1:
                constant.append(labels[0])
            else:
                header_rows.append(labels)
        if constant:
            lines.append(" / ".join(constant))
        if not header_rows:
            header_rows.append([_label(result, "coefficient", col[3]) for col in block])
        body = []
        for m in result.measures:
            row = [m]
            for h, r, v, c in block:
                cell = by_key[(m, h, r, v, c)]
                mark = "*" if cell.best else ("+" if cell.not_worse else " ")
                text = _fmt(cell.value, digits) + mark
                if intervals:
                    text += f" [{_fmt(cell.low, digits)},{_fmt(cell.high, digits)}]"
                row.append(text)
            body.append(row)
        width0 = max(len("Measure"), *(len(b[0]) for b in body))
        widths = [max(len(b[j + 1]) for b in body) for j in range(len(block))]
        for hr in header_rows:
            widths = [max(w, len(x)) for w, x in zip(widths, hr)]
        for n_row, hr in enumerate(header_rows):
            # print a group label only where it changes (spanning columns)
            shown = []
            for j, x in enumerate(hr):
                is_last = n_row == len(header_rows) - 1
                shown.append(x if is_last or j == 0 or hr[j - 1] != x or _parent_changed(header_rows, n_row, j) else "")
            first = "Measure" if n_row == len(header_rows) - 1 else ""
            lines.append("  ".join([first.ljust(width0)] + [s.ljust(w) for s, w in zip(shown, widths)]).rstrip())
        for b in body:
            lines.append("  ".join([b[0].ljust(width0)] + [s.ljust(w) for s, w in zip(b[1:], widths)]).rstrip())
    return "\n".join(lines) + "\n"


def _parent_changed(header_rows: list[list[str]], n_row: int, j: int) -> bool:
    return any(header_rows[p][j] != header_rows[p][j - 1] for p in range(n_row))


def _label(result: ProtocolResult, what: str, value: str) -> str:
    if what == "refs":
        return _refs_label(result, value)
    if what == "variant":
        return _VARIANT_LABEL.get(value, value.upper())
    if what == "coefficient":
        return _COEF_SHORT.get(value, value)
    return value


CSV_FIELDS = (
    "measure",
    "variant",
    "refs",
    "human",
    "coefficient",
    "value",
    "low",
    "high",
    "best",
    "not_worse",
    "p_value",
)


def format_csv(result: ProtocolResult) -> str:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("dataset", "level", "score") + CSV_FIELDS)
    for c in result.cells:
        d = asdict(c)
        w.writerow(
            [result.dataset, result.level, result.score]
            + [
                (
                    ""
                    if d[k] is None or (isinstance(d[k], float) and math.isnan(d[k]))
                    else (
                        repr(float(d[k]))
                        if isinstance(d[k], float)
                        else (str(d[k]).lower() if isinstance(d[k], bool) else d[k])
                    )
                )
                for k in CSV_FIELDS
            ]
        )
    return buf.getvalue()


def format_json(result: ProtocolResult) -> str:
    return json.dumps(result.to_dict(), indent=1, allow_nan=False) + "\n"
