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

One module per job, all re-exported here: :mod:`~rougekit.meta.protocol_data` (the loaders),
:mod:`~rougekit.meta.protocol_grid` (the settings and their scores),
:mod:`~rougekit.meta.protocol_result` (the result model) and :mod:`~rougekit.meta.protocol_format`
(text, CSV, JSON); this module runs the protocol (correlations, intervals, marks).
"""

from __future__ import annotations

import math
import time
from typing import Sequence

import numpy as np

from rougekit.errors import InputError, OptionError
from rougekit.measures import Measure
from rougekit.meta.protocol_data import (
    LOADERS,
    ProtocolDataset,
    load_dataset,
    load_jsonl,
    load_realsumm,
    load_summeval,
    split_tokenized,
)
from rougekit.meta.protocol_format import CSV_FIELDS, format_csv, format_json, format_text
from rougekit.meta.protocol_grid import (
    DEFAULT_MEASURES,
    DEFAULT_VARIANTS,
    REFS,
    RULES,
    SCORE_INDEX,
    SCORES,
    VARIANTS,
    score_grid,
)
from rougekit.meta.protocol_result import ProtocolCell, ProtocolResult
from rougekit.stats.correlation import canonical_coefficient, combine, get_coefficient, prepare
from rougekit.stats.inference import williams_test
from rougekit.stats.levels import check_level, correlate, resampled_levels, summary_mean
from rougekit.stats.resampling import check_resample, confidence_fraction, draws, percentile_interval

__all__ = [
    "CSV_FIELDS",
    "DEFAULT_MEASURES",
    "LOADERS",
    "REFS",
    "RULES",
    "SCORES",
    "VARIANTS",
    "format_csv",
    "format_json",
    "format_text",
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
    k = SCORE_INDEX[score]
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
