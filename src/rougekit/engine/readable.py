"""The readable path: from processed token sequences to per-pair counts and to R/P/F, the ROUGE-1.5.5 way.

The one home of the statistics-to-score step (:func:`final_scores`, :func:`ratios`, :func:`f_measure`
and their numpy twins); :mod:`rougekit.scoring` is its public name and front ends reach it through
:mod:`rougekit.engine.door`.

One pair is a candidate (peer) and its references (models). For each reference a measure gives
sufficient statistics (hits, reference count, candidate count); ``-f A`` sums them over the
references, ``-f B`` keeps the reference with the best recall. R and P are rounded to five
decimals (``%7.5f``) and F is computed from the rounded values, as the script does. See
docs/rouge155/multiple-references.md and docs/rouge155/rounding-and-f.md.

>>> from rougekit.measures import Measure
>>> peer = Doc(tokens=[0, 1, 2, 3], sentences=[[0, 1, 2, 3]])          # police kill the gunman
>>> ref = Doc(tokens=[0, 4, 2, 3], sentences=[[0, 4, 2, 3]])           # police killed the gunman
>>> score_pair(Measure.rouge_n(1), peer, [ref]).recall
0.75
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rougekit._core._pure import kept_reference as _kept
from rougekit.measures.counts import Doc as Doc
from rougekit.measures.counts import RefStats as RefStats
from rougekit.measures.counts import ratio_stats as ratio_stats
from rougekit.measures.counts import round5 as _round5
from rougekit.measures.counts import round5_array as round5_array
from rougekit.measures.counts import wlcs_paper_value as wlcs_paper_value

if TYPE_CHECKING:
    from rougekit.measures import Measure


@dataclass(frozen=True)
class PairScore:
    """The script's six numbers for one pair: counts, and R/P/F rounded to 5 decimals.

    ``model_count``/``peer_count`` are the script's names of the reference and candidate counts.
    """

    model_count: int | float
    hits: int | float
    peer_count: int | float
    recall: float
    precision: float
    f: float

    @property
    def reference_count(self) -> int | float:
        return self.model_count

    @property
    def candidate_count(self) -> int | float:
        return self.peer_count


def f_measure(recall: float, precision: float, alpha: float) -> float:
    """F = P·R / ((1-α)·P + α·R), 0 when the denominator is not positive (``-p`` is α)."""
    denom = (1 - alpha) * precision + alpha * recall
    if denom > 0:
        return (precision * recall) / denom
    return 0.0


def ratios(model_count, peer_count, hits, alpha: float) -> tuple[float, float, float]:
    """Unrounded R = hits / reference count, P = hits / candidate count (0 for an empty side) and
    their F: the script's ``-t 1`` rule on summed counts (corpus averages, bootstrap resamples)."""
    recall = hits / model_count if model_count > 0 else 0.0
    precision = hits / peer_count if peer_count > 0 else 0.0
    return recall, precision, f_measure(recall, precision, alpha)


def f_measure_array(recall, precision, alpha: float):
    """:func:`f_measure` of numpy arrays, element by element (the same arithmetic)."""
    import numpy as np

    recall, precision = np.asarray(recall, dtype=float), np.asarray(precision, dtype=float)
    denom = (1 - alpha) * precision + alpha * recall
    return np.divide(precision * recall, denom, out=np.zeros(denom.shape), where=denom > 0)


def ratios_array(model_count, peer_count, hits, alpha: float):
    """:func:`ratios` of numpy arrays, element by element: (recall, precision, f) arrays."""
    import numpy as np

    model_count, peer_count = np.asarray(model_count, dtype=float), np.asarray(peer_count, dtype=float)
    hits = np.asarray(hits, dtype=float)
    shape = np.broadcast_shapes(model_count.shape, peer_count.shape, hits.shape)
    recall = np.divide(hits, model_count, out=np.zeros(shape), where=model_count > 0)
    precision = np.divide(hits, peer_count, out=np.zeros(shape), where=peer_count > 0)
    return recall, precision, f_measure_array(recall, precision, alpha)


def reference_stats(
    measure: Measure, peer: Doc, model: Doc, model_sentences: Doc | None = None, options=None
) -> RefStats:
    """Counts of one candidate against one reference for one measure (its registry family counts).

    ``model_sentences`` supplies the reference's sentence units where they are processed
    differently from its tokens (ROUGE-W under ``-M``); by default ``model`` gives both.
    ``options`` (a ScoringOptions) selects the paper's variants (``su_unigrams``, ``wlcs``).
    """
    return measure.family.reference_stats(measure, peer, model, model_sentences=model_sentences, options=options)


def kept_reference(stats: list[RefStats], mode: str, alpha: float = 0.5, exponent: float | None = None) -> int:
    """Which reference the multi-reference rule keeps: -f B (``mode`` 'B') the first with the best
    recall, max ('M') the first with the best rounded F, else -1 (all of them); the engine's rule
    (``_core._pure.kept_reference``, the twin of score.pxi's ``_combine``)."""
    ranks = [(s.hits, s.model_count, s.peer_count, s.score) for s in stats]
    return _kept(ranks, mode == "B", mode == "M", alpha, exponent)


def combine(stats: list[RefStats], mode: str = "A") -> tuple[int | float, int | float, int | float]:
    """Multi-reference rule (``-f``): 'B' keeps the first best-recall reference; anything else sums.

    Returns (model count, hits, peer count).
    """
    hits = mcount = pcount = 0
    if mode == "B":
        k = kept_reference(stats, mode)
        return (stats[k].model_count, stats[k].hits, stats[k].peer_count) if k >= 0 else (0, 0, 0)
    for s in stats:  # sequential sums, in reference order, as the script adds them
        hits += s.hits
        mcount += s.model_count
        pcount += s.peer_count
    return mcount, hits, pcount


def final_scores(model_count, hits, peer_count, alpha: float = 0.5, weight: float | None = None) -> PairScore:
    """Counts to the rounded R, P and F. ROUGE-W passes the ratios through f⁻¹(x) = x^(1/w)."""
    if weight is None:
        recall = _round5(hits / model_count) if model_count != 0 else 0.0
        precision = _round5(hits / peer_count) if peer_count != 0 else 0.0
    else:
        recall = _round5((hits / model_count) ** (1 / weight)) if model_count != 0 else 0.0
        precision = _round5((hits / peer_count) ** (1 / weight)) if peer_count != 0 else 0.0
    return PairScore(model_count, hits, peer_count, recall, precision, _round5(f_measure(recall, precision, alpha)))


def pair_score(stats: list[RefStats], mode: str, alpha: float = 0.5, exponent: float | None = None) -> PairScore:
    """One pair's numbers from its per-reference statistics under a multi-reference rule.

    ``mode``: 'A' sums (``-f A``), 'B' keeps the first best-ranked reference (``-f B``), 'M' keeps
    the first reference with the best F, each scored as if alone (``multi_ref="max"``), 'J' is
    the paper's jackknife over the per-reference scores (counts: the sums). ``exponent`` is
    ROUGE-W's weight (see :func:`final_scores`).
    """
    if not stats:
        return final_scores(0, 0, 0, alpha)
    if mode == "M":
        s = stats[kept_reference(stats, mode, alpha, exponent)]
        return final_scores(s.model_count, s.hits, s.peer_count, alpha, exponent)
    if mode == "J":
        singles = [final_scores(s.model_count, s.hits, s.peer_count, alpha, exponent) for s in stats]
        mcount, hits, pcount = combine(stats, "A")
        return PairScore(mcount, hits, pcount, *jackknife(singles))
    mcount, hits, pcount = combine(stats, mode)
    return final_scores(mcount, hits, pcount, alpha, exponent)


def score_pair(
    measure: Measure,
    peer: Doc,
    models: list[Doc],
    *,
    mode: str = "A",
    alpha: float = 0.5,
    model_sentences: list[Doc] | None = None,
    options=None,
) -> PairScore:
    """Score one candidate against its references for one measure (the script's per-evaluation step)."""
    units = model_sentences or [None] * len(models)
    stats = [reference_stats(measure, peer, m, u, options) for m, u in zip(models, units)]
    return pair_score(stats, mode, alpha, measure.f_exponent)


def jackknife(scores: list[PairScore]) -> tuple[float, float, float]:
    """The paper's jackknifing (Lin 2004, §2.1): mean over the M leave-one-out sets of the best score.

    With one reference it is that reference's score. Applied to R, P and F separately.
    """
    if len(scores) == 1:
        s = scores[0]
        return s.recall, s.precision, s.f
    out = []
    for attr in ("recall", "precision", "f"):
        values = [getattr(s, attr) for s in scores]
        best = [max(values[:i] + values[i + 1 :]) for i in range(len(values))]
        total = 0.0
        for b in best:
            total += b
        out.append(total / len(best))
    return tuple(out)
