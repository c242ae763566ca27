"""The one door from the front ends to counting.

Front ends (``rougekit.api``, ``rougekit.rouge155``, ``rougekit.compat``, ``rougekit.process``,
``rougekit.explanation``, ``rougekit.variants``, ``rougekit.report``, the command line) describe
what they want and ask this module; none of them imports the planner, :mod:`rougekit.scoring`'s
counting functions, a ``_core`` module or the backend's kernel getters (``tests/test_layers.py``
holds them to the names of :data:`__all__`). The choice between the compiled path (the batch
engine, the compiled kernels) and the readable path (the pure-Python twins) is made here and in
:mod:`rougekit.engine.planner` behind it, once per plan:

* :func:`plan` -- an :class:`EnginePlan` for a :class:`~rougekit.engine.options.ScoringOptions`
  or for measures and text options: ``score_arrays``/``score_rows`` (the compiled batch scorer,
  None-safe through ``compiled``), ``pair_counts`` (one pair, every rouge-score type in one call),
  ``score_pair`` (one pair on the readable path), ``marks`` (the highlights kernel), ``chosen``
  (the reference each pair's multi-reference rule keeps, the engine's own choice) and the
  statistics-to-score step (``final_scores``);
* the statistics-to-score formula (:func:`final_scores`, :func:`pair_score`, :func:`ratios`,
  :func:`f_measure_array`, :func:`combine`), one home: :mod:`rougekit.engine.readable`;
* the per-pair counts of one reference (:func:`reference_stats`, :func:`ngram_counts`,
  :func:`lcs_hits`, :func:`pair_counts`) and the process kernels (:func:`process_kernels`);
* the backend in use (:func:`backend_name`), input normalisation (:data:`inputs`) and the
  engine's limits (:data:`VOCABULARY_LIMIT`, :func:`available_cores`, :func:`check_trace_size`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rougekit._core import inputs as inputs
from rougekit._core.kinds import Kind as Kind
from rougekit.engine import arrowcols, backend, planner
from rougekit.engine.batch import SEQUENCE_LCS as SEQUENCE_LCS  # rouge-score's ``rougeL``
from rougekit.engine.batch import VOCABULARY_LIMIT as VOCABULARY_LIMIT
from rougekit.engine.batch import kernel_spec as kernel_spec
from rougekit.engine.cores import available_cores as available_cores
from rougekit.engine.options import ScoringOptions
from rougekit.engine.readable import Doc as Doc
from rougekit.engine.readable import PairScore as PairScore
from rougekit.engine.readable import RefStats as RefStats
from rougekit.engine.readable import combine as combine
from rougekit.engine.readable import f_measure_array as f_measure_array
from rougekit.engine.readable import final_scores as final_scores
from rougekit.engine.readable import kept_reference as kept_reference
from rougekit.engine.readable import pair_score as pair_score
from rougekit.engine.readable import ratios as ratios
from rougekit.engine.readable import reference_stats as reference_stats
from rougekit.engine.readable import round5_array as round5_array
from rougekit.engine.readable import score_pair as score_pair
from rougekit.engine.threads import on_threads as on_threads
from rougekit.engine.threads import run_tasks as run_tasks
from rougekit.measures.base import Match as Match
from rougekit.measures.lcs import _check_trace_size as check_trace_size
from rougekit.measures.lcs import lcs_hits as lcs_hits
from rougekit.measures.ngram import ngram_counts as ngram_counts
from rougekit.measures.pair import kind_counts as kind_counts
from rougekit.measures.pair import pair_counts as pair_counts

if TYPE_CHECKING:
    from rougekit.engine.batch import BatchScorer

__all__ = [
    "EnginePlan",
    "plan",
    "process_kernels",
    "ids_without_kernel",
    "inputs",
    "Kind",
    "kernel_spec",
    "SEQUENCE_LCS",
    "VOCABULARY_LIMIT",
    "available_cores",
    "on_threads",
    "run_tasks",
    "check_trace_size",
    "Doc",
    "PairScore",
    "RefStats",
    "Match",
    "combine",
    "f_measure_array",
    "round5_array",
    "final_scores",
    "kept_reference",
    "pair_score",
    "ratios",
    "reference_stats",
    "score_pair",
    "lcs_hits",
    "ngram_counts",
    "pair_counts",
    "kind_counts",
    "backend_name",
]

#: "compiled" or "python": the backend the plans made now use (``ROUGEKIT_BACKEND``)
backend_name = backend.name


class EnginePlan:
    """How a set of measures is counted, decided once by :func:`plan`.

    ``batch`` is the compiled batch scorer, or None when the readable path runs (``compiled`` says
    which). ``feed`` says what the batch scorer is given: ``"text"`` (it tokenizes, stems and limits
    in C) or ``"ids"`` (rougekit's Python preprocessor makes the tokens, the engine counts their
    interned ids). The readable path's entry points (``score_pair``, ``pair_counts``) and the
    statistics-to-score step (``final_scores``) are the same functions for every plan.
    """

    __slots__ = ("batch", "feed")

    #: one pair on the readable path: per-reference counts, the multi-reference rule, R/P/F
    score_pair = staticmethod(score_pair)
    #: one pair's rouge-score counts, every n-gram order and the LCS in one call
    pair_counts = staticmethod(pair_counts)
    #: the statistics-to-score step: counts to the rounded R, P and F
    final_scores = staticmethod(final_scores)

    def __init__(self, batch: BatchScorer | None = None, feed: str = "text") -> None:
        self.batch = batch
        self.feed = feed

    @property
    def compiled(self) -> bool:
        """True when the compiled batch engine counts these measures."""
        return self.batch is not None

    def trim(self) -> None:
        """Let go of the large tables a plan kept between calls need not hold (see
        :meth:`rougekit.engine.batch.BatchScorer.trim`)."""
        if self.batch is not None:
            self.batch.trim()

    @property
    def measures(self) -> list:
        """The measures the batch scorer counts, in its column order (empty on the readable path)."""
        return list(self.batch.measures) if self.batch is not None else []

    def score_arrays(self, candidates, references, jobs: int, *args):
        """The batch scorer's per-pair statistics (pairs x measures x 6) of ``candidates`` against
        ``references`` on ``jobs`` threads (see :meth:`rougekit.engine.batch.BatchScorer.score_arrays`)."""
        return self._batch().score_arrays(candidates, references, jobs, *args)

    #: (candidates, references) arrays of the same rows from two pyarrow Arrays or ChunkedArrays
    arrow_pieces = staticmethod(arrowcols.aligned)

    def reads_arrow(self, array=None, lists: bool = False) -> bool:
        """True when the batch scorer reads ``array`` (a pyarrow Array of strings, or with ``lists`` a
        list of them) from its buffers: see :mod:`rougekit.engine.arrowcols`. With no ``array``: when
        it reads Arrow text columns from their buffers at all (the compiled engine tokenizes the text
        itself, ASCII lower-casing)."""
        if self.batch is None or self.feed != "text" or self.batch.lowercase != "ascii":
            return False
        return array is None or arrowcols.readable(array, lists)

    def score_arrow(self, pieces, jobs: int, tally=None, found=None, stem: bool = False, blank=None, out=None):
        """Per-pair statistics of (candidates, references) pyarrow arrays read from their buffers, with
        the str path's warning counts (see :func:`rougekit.engine.arrowcols.score`)."""
        return arrowcols.score(self._batch(), pieces, jobs, tally, found, stem, blank, out)

    def score_rows(self, candidates, references, jobs: int):
        """:meth:`score_arrays` of texts, one row per pair (see ``BatchScorer.score_rows``)."""
        return self._batch().score_rows(candidates, references, jobs=jobs)

    @staticmethod
    def marks(*args):
        """The highlights of a batch of pairs (the backend's ``batch_marks``, compiled or its twin)."""
        return backend.marks_kernel().batch_marks(*args)

    @staticmethod
    def chosen(*args):
        """The reference each pair's multi-reference rule keeps, as the engine counts and chooses
        (the backend's ``batch_chosen``: score.pxi's, or its twin in ``_core._explain``)."""
        return backend.marks_kernel().batch_chosen(*args)

    def _batch(self) -> BatchScorer:
        if self.batch is None:
            raise RuntimeError("this plan runs the readable path: it has no batch scorer (check .compiled)")
        return self.batch


def plan(what=None, /, *, fast: bool = True, **options) -> EnginePlan:
    """The plan for ``what``: a :class:`ScoringOptions` (its R/P/F measures; ``fast=False`` forces
    the readable path), or a list of measures with the batch engine's options (``tokenizer``,
    ``stem``, ``stopwords``, ``word_limit``, ``byte_limit``, ``multi_ref``, ``su_unigrams``,
    ``wlcs``, ``alpha``, ``stemmer``, ``lowercase``, ``to_text``: see
    :func:`rougekit.engine.planner.batch_scorer`).

    The compiled batch scorer is used when the backend is compiled and it gives exactly the
    readable path's numbers for these options; otherwise the plan's ``batch`` is None.
    """
    if not fast:
        return EnginePlan(None)
    if isinstance(what, ScoringOptions):
        if options:
            raise TypeError("plan(options) takes no other options")
        chosen = planner.for_options(what)
        return EnginePlan(chosen.batch, chosen.feed)
    return EnginePlan(planner.batch_scorer(list(what or ()), **options))


def ids_without_kernel():
    """The compiled engine's ``ids_without`` (a flat list of token ids without some, in one C loop),
    or None on the readable path (the caller filters with numpy)."""
    if backend.name() != "compiled":
        return None
    from rougekit._core import _batch

    return _batch.ids_without


def process_kernels():
    """The kernels of :mod:`rougekit.process` (``cdist_rows``, ``lcs_pairs``, ``_Greedy``): the
    compiled ``_process`` module or its pure-Python twin, as the backend chose."""
    return backend.process_kernels()
