"""Drop-in for ``rouge_score.scoring`` (rouge-score 0.1.2): scores and bootstrap aggregation.

``Score``, ``AggregateScore``, ``BaseScorer``, ``BootstrapAggregator`` and ``fmeasure`` behave as
rouge-score's, bit for bit: :class:`BootstrapAggregator` draws from numpy's global random state
as rouge-score does, so after ``np.random.seed(s)`` both give the very same intervals (and leave
the global state in the same place). Reproducible draws that leave the global state alone are an
explicit option: ``BootstrapAggregator(seed=...)`` (rouge-score has no such argument).
"""

from __future__ import annotations

import abc
import collections
from contextlib import contextmanager
from typing import Dict, Iterator

import numpy as np

from rougekit.stats.resampling import resampled_sums

__all__ = ["Score", "AggregateScore", "BaseScorer", "BootstrapAggregator", "fmeasure", "global_seed"]


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
_ZERO = Score(precision=0, recall=0, fmeasure=0)  # rouge-score's score of an LCS with an empty side (int zeros)


def score_of_counts(hits, model_count, peer_count, lcs: bool = False) -> Score:
    """rouge-score's :class:`Score` of one type from its counts, compat's one statistics-to-score step:
    precision ``hits / peer_count``, recall ``hits / model_count`` (each count at least 1 for ROUGE-N;
    an LCS with an empty side is ``Score(0, 0, 0)``, int zeros as rouge-score's), F :func:`fmeasure`.
    The model is the target (reference), the peer the prediction. :func:`prf_arrays` is its array twin.

    >>> score_of_counts(2, 4, 3)
    Score(precision=0.6666666666666666, recall=0.5, fmeasure=0.5714285714285715)
    >>> score_of_counts(0, 0, 0), score_of_counts(0, 0, 5, lcs=True)
    (Score(precision=0.0, recall=0.0, fmeasure=0.0), Score(precision=0, recall=0, fmeasure=0))
    """
    if lcs:
        if not model_count or not peer_count:
            return _ZERO
        precision, recall = hits / peer_count, hits / model_count
    else:
        precision, recall = hits / (peer_count or 1), hits / (model_count or 1)
    return _tuple_new(Score, (precision, recall, fmeasure(precision, recall)))


def prf_arrays(counts: np.ndarray, lcs: bool):
    """:func:`score_of_counts` over rows: the (precision, recall, F) arrays of per-pair (target count,
    hits, prediction count) rows, each value from the same float operations (an LCS with an empty
    side: zeros)."""
    tgt_n, hits, pred_n = counts[:, 0], counts[:, 1], counts[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        if lcs:
            precision, recall = hits / pred_n, hits / tgt_n
        else:
            precision, recall = hits / np.maximum(pred_n, 1), hits / np.maximum(tgt_n, 1)
        total = precision + recall
        f = np.where(total > 0, 2 * precision * recall / total, 0.0)
    if lcs:
        empty = (tgt_n == 0) | (pred_n == 0)
        if empty.any():
            precision, recall, f = (np.where(empty, 0.0, v) for v in (precision, recall, f))
    return precision, recall, f


class BootstrapAggregator:
    """Bootstrap confidence intervals of mean scores, as rouge-score's aggregator.

    For each score type added with :meth:`add_scores` (in the order the types were first added),
    :meth:`aggregate` stacks the ``N`` score tuples into an ``N x 3`` matrix and draws
    ``n_samples`` resamples of ``N`` rows with replacement: resample ``i`` is the rows
    ``np.random.choice(np.arange(N), size=N)``, drawn from numpy's global random state one resample
    after the other, as rouge-score draws them. The mean of each resample is taken, and each
    measure's bounds are ``numpy.percentile`` (linear interpolation) of the ``n_samples`` resample
    means at::

        low  = 100 * (1 - confidence_interval) / 2
        mid  = 50
        high = 100 * (1 + confidence_interval) / 2

    So ``mid`` is the **median of the bootstrap resample means**, as in rouge-score, *not* the plain
    mean of the scores (the two are close but usually not equal), and the numbers change from run
    to run unless numpy's global state is seeded (``np.random.seed(0)``) first.

    Args:
        confidence_interval: coverage of the ``[low, high]`` interval, in ``[0, 1]``.
        n_samples: number of bootstrap resamples (positive).
        seed: rougekit's option, not rouge-score's: ``None`` (the default) draws from numpy's global
            state exactly as rouge-score; an int draws from ``numpy.random.default_rng(seed)``, a
            fresh generator per score type (``rng.integers(0, N, size=N)`` per resample), and leaves
            the global state alone: the same numbers on every call, whatever else draws.
    """

    def __init__(self, confidence_interval=0.95, n_samples=1000, seed=None):
        if confidence_interval < 0 or confidence_interval > 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")
        self._confidence_interval = confidence_interval
        self._n_samples = n_samples
        self._seed = seed
        self._scores = collections.defaultdict(list)

    def add_scores(self, scores):
        """Add one sample: a dict mapping score types to score tuples (e.g. :class:`Score`)."""
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self):
        """Return ``{score_type: AggregateScore(low, mid, high)}``.

        Each bound is a tuple of the same class as the first score added for that type (normally
        :class:`Score`), holding numpy floats, as rouge-score's.
        """
        result = {}
        for score_type, scores in self._scores.items():
            bounds = self._bootstrap_resample(np.vstack(tuple(scores)))
            cls = scores[0].__class__
            low, mid, high = (cls(*bounds[j, :]) for j in range(3))
            result[score_type] = AggregateScore(low=low, mid=mid, high=high)
        return result

    def _resample_means(self, matrix: np.ndarray) -> np.ndarray:
        """``n_samples x measures`` matrix of bootstrap resample means (see the class doc)."""
        if self._seed is None:
            return global_resample_means(matrix, self._n_samples)
        # rng.integers(0, N, size=(n_samples, N)) gives the same rows as n_samples calls of size N
        return resampled_sums(matrix, int(self._n_samples), np.random.default_rng(self._seed)) / matrix.shape[0]

    def _bootstrap_resample(self, matrix: np.ndarray) -> np.ndarray:
        """``3 x measures`` matrix: rows are the low, mid and high percentiles."""
        means = self._resample_means(matrix)
        delta = (1 - self._confidence_interval) / 2
        q = 100 * np.array([delta, 0.5, 1 - delta])
        return np.percentile(means, q, axis=0)


def global_resample_means(matrix: np.ndarray, n_samples: int, block_cells: int = 1 << 20) -> np.ndarray:
    """``n_samples x measures`` bootstrap means drawn from numpy's global state as rouge-score draws.

    rouge-score draws ``np.random.choice(np.arange(N), size=N)`` per resample and takes the column
    means of those rows. ``np.random.choice`` on a range is ``np.random.randint(0, N, size=N)``, so
    the same draws come from ``np.random.randint(0, N, size=(k, N))`` in blocks of ``k`` rows, and
    the block means along axis 1 add the rows in the same order (the tests hold the two equal to
    rouge-score's own loop, to the bit).
    """
    n = matrix.shape[0]
    sample_mean = np.zeros((n_samples, matrix.shape[1]))  # a float n_samples: TypeError, as rouge-score
    rows = max(1, block_cells // n)
    for start in range(0, n_samples, rows):
        stop = min(n_samples, start + rows)
        index = np.random.randint(0, n, size=(stop - start, n))
        sample_mean[start:stop, :] = np.mean(matrix[index, :], axis=1)
    return sample_mean


@contextmanager
def global_seed(seed) -> Iterator[None]:
    """``numpy.random.seed(seed)`` for the block, numpy's global state put back after it (as evaluate's
    ``compute`` seeds rouge-score's draws): the default :class:`BootstrapAggregator` inside it gives
    ``np.random.seed(seed); rouge_score.scoring.BootstrapAggregator().aggregate()``'s numbers."""
    state = np.random.get_state()
    np.random.seed(seed)
    try:
        yield
    finally:
        np.random.set_state(state)
