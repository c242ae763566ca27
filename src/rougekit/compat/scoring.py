"""Drop-in for ``rouge_score.scoring`` (rouge-score 0.1.2): scores and bootstrap aggregation.

``Score``, ``AggregateScore``, ``BaseScorer``, ``BootstrapAggregator`` and
``fmeasure`` behave as rouge-score's, with one deliberate difference:
:class:`BootstrapAggregator` takes a ``seed`` (default ``0``) and draws from
``numpy.random.default_rng(seed)``, so its results are reproducible, whereas
rouge-score draws from numpy's global, unseeded random state.  Bootstrap
intervals therefore agree with rouge-score's only statistically, never digit
for digit.
"""

from __future__ import annotations

import abc
import collections
from typing import Dict

import numpy as np

from rougekit.stats.resampling import resampled_sums

__all__ = ["Score", "AggregateScore", "BaseScorer", "BootstrapAggregator", "fmeasure"]


class Score(collections.namedtuple("Score", ["precision", "recall", "fmeasure"])):
    """Precision, recall and F-measure of one comparison."""

    __slots__ = ()


class AggregateScore(collections.namedtuple("AggregateScore", ["low", "mid", "high"])):
    """Bootstrap interval of a score: ``low`` and ``high`` bounds and the ``mid`` point."""

    __slots__ = ()


class BaseScorer(abc.ABC):
    """Interface of a scorer: ``score(target, prediction) -> {score_type: Score}``."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> Dict[str, Score]:
        """Score ``prediction`` against ``target`` (note: reference first)."""


def fmeasure(precision, recall):
    """Harmonic mean of precision and recall; ``0.0`` when both are zero.

    Computed as ``2 * precision * recall / (precision + recall)``, in that
    order of operations, so the result is bit-identical to rouge-score's.
    """
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


_tuple_new = tuple.__new__


def _score_of(precision, recall) -> Score:
    """``Score(precision, recall, fmeasure(precision, recall))``, made without namedtuple's Python ``__new__``."""
    return _tuple_new(Score, (precision, recall, fmeasure(precision, recall)))


class BootstrapAggregator:
    """Bootstrap confidence intervals of mean scores, as rouge-score's aggregator.

    For each score type added with :meth:`add_scores`, :meth:`aggregate`
    stacks the ``N`` score tuples into an ``N x 3`` matrix and draws
    ``n_samples`` resamples of ``N`` rows with replacement.  Resample ``i`` uses
    the row indices ``rng.integers(0, N, size=N)`` (the ``i``-th such call on
    ``rng = numpy.random.default_rng(seed)``; a fresh generator is made for
    every score type, so with a fixed seed all score types with the same
    ``N`` share the same resamples and the result does not depend on the order
    of the score types).  The mean of each resample is taken, and each
    measure's bounds are ``numpy.percentile`` (linear interpolation) of the
    ``n_samples`` resample means at::

        low  = 100 * (1 - confidence_interval) / 2
        mid  = 50
        high = 100 * (1 + confidence_interval) / 2

    So ``mid`` is the **median of the bootstrap resample means**, as in
    rouge-score, *not* the plain mean of the scores (the two are close but
    usually not equal).

    Args:
        confidence_interval: coverage of the ``[low, high]`` interval, in ``[0, 1]``.
        n_samples: number of bootstrap resamples (positive).
        seed: seed of ``numpy.random.default_rng``; default ``0`` (reproducible).
            Pass ``None`` for fresh OS entropy on every :meth:`aggregate` call.
            rouge-score itself has no seed and uses ``np.random.choice`` on the
            global state, so its numbers vary from run to run.
    """

    def __init__(self, confidence_interval=0.95, n_samples=1000, seed=0):
        if confidence_interval < 0 or confidence_interval > 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")
        self._confidence_interval = confidence_interval
        self._n_samples = int(n_samples)
        self._seed = seed
        self._scores = collections.defaultdict(list)

    def add_scores(self, scores):
        """Add one sample: a dict mapping score types to score tuples (e.g. :class:`Score`)."""
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self):
        """Return ``{score_type: AggregateScore(low, mid, high)}``.

        Each bound is a tuple of the same class as the first score added for
        that type (normally :class:`Score`), holding Python floats.
        """
        result = {}
        for score_type, scores in self._scores.items():
            matrix = np.vstack([np.asarray(s, dtype=np.float64) for s in scores])
            bounds = self._bootstrap_resample(matrix)
            cls = scores[0].__class__
            low, mid, high = (cls(*(float(v) for v in bounds[j])) for j in range(3))
            result[score_type] = AggregateScore(low=low, mid=mid, high=high)
        return result

    def _resample_means(self, matrix: np.ndarray) -> np.ndarray:
        """``n_samples x measures`` matrix of bootstrap resample means (see the class doc)."""
        # rng.integers(0, N, size=(n_samples, N)) gives the same rows as n_samples calls of size N
        return resampled_sums(matrix, self._n_samples, np.random.default_rng(self._seed)) / matrix.shape[0]

    def _bootstrap_resample(self, matrix: np.ndarray) -> np.ndarray:
        """``3 x measures`` matrix: rows are the low, mid and high percentiles."""
        means = self._resample_means(matrix)
        delta = (1 - self._confidence_interval) / 2
        q = 100 * np.array([delta, 0.5, 1 - delta])
        return np.percentile(means, q, axis=0)
