"""The protocol's grid: its settings (measures, variants, references) and their scores, one
:class:`rougekit.Scorer` per (variant, references) setting.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from typing import Sequence

import numpy as np

from rougekit.api import Scorer
from rougekit.measures import Measure
from rougekit.meta.protocol_data import ProtocolDataset

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
SCORE_INDEX = {"recall": 0, "precision": 1, "f": 2}


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
