"""Batch scoring of many (candidate, references) pairs with the compiled ``_batch`` extension.

The results are exactly those of :func:`rougekit.scoring.score_pair` over documents from
:class:`rougekit.text.tokenizers.Preprocessor` (tokenizer ``"rouge155"``), for the measures
ROUGE-N (any n), ROUGE-L, ROUGE-W (any weight), ROUGE-S and ROUGE-SU (any skip, ``-1`` = no
limit), ``-f A`` (sum) and ``-f B`` (best), ``-l``/``-b`` limits, stemming and stopwords.

>>> from rougekit.measures import Measure
>>> if AVAILABLE:
...     bs = BatchScorer([Measure.rouge_n(1)], stem=False, stopwords=False, word_limit=0,
...                      byte_limit=0, mode="A", alpha=0.5)
...     float(bs.score_arrays(["police kill the gunman"], [["police killed the gunman"]])[0, 0, 3])
... else:
...     0.75
0.75
"""

from __future__ import annotations

import functools
import itertools
import threading
import time
import weakref
from array import array
from types import SimpleNamespace
from typing import TYPE_CHECKING, Sequence

from rougekit._core import inputs
from rougekit._core.kinds import KernelSpec, Kind, counted
from rougekit.engine.cores import available_cores
from rougekit.engine.threads import on_threads as _on_threads
from rougekit.errors import OptionError
from rougekit.measures import Measure
from rougekit.text.stemming import load_exceptions
from rougekit.text.stopwords import load_smart_stopwords

try:  # the compiled extension is optional (pure-Python installs fall back to the slow path)
    from rougekit._core import _batch
except ImportError:  # pragma: no cover - depends on the build
    _batch = None

AVAILABLE = _batch is not None

if TYPE_CHECKING:  # numpy only where an ndarray is asked for (rougekit rouge155 runs without it)
    import numpy as np

__all__ = ["AVAILABLE", "BatchScorer", "batch_supported", "available_cores", "COLUMNS", "SEQUENCE_LCS"]

COLUMNS = ("model_count", "hits", "peer_count", "recall", "precision", "f")
#: a pseudo-measure, its row of the kind table: the LCS of the two whole token sequences, sentences
#: ignored (rouge-score's ``rougeL``; ROUGE-1.5.5's ROUGE-L is the summary-level union LCS)
SEQUENCE_LCS = KernelSpec(Kind.LSEQ)
_STEMMERS = {"rouge155": 1, "nltk": 2, "rouge155-porter": 1}  # -porter: an empty exception DB
_CHUNK = 2048  # pairs processed (tokenized, then scored) at a time, at most
_CHUNKS_PER_JOB = 4  # a small call is cut finer, so that every job gets work
# token ids in a call of int32 arrays below which it is scored on the calling thread alone: starting
# and waiting for a second thread costs about 45 us here, the ids' work at this size about as much
# (2 cores, quiet: 16,384 ids 104 us on one thread, 129 us on two; 65,536 ids 206 us, 186 us)
_ONE_THREAD_IDS = 24_000
_FILL_PARTS = 8  # parts in which a threaded call's lists of ids are copied, scored as they come
_CACHE_SIZE = 20_000  # processed references kept per job, keyed by the reference string (LRU)


def _as_measure(m):
    if isinstance(m, (Measure, KernelSpec)):  # a KernelSpec: a row of the kind table (SEQUENCE_LCS)
        return m
    return Measure.parse(str(m))


def kernel_spec(m, options=None) -> KernelSpec | None:
    """What the engine counts for ``m`` (a :class:`Measure` or a row of the kind table) under
    ``options`` (``su_unigrams``, ``wlcs``: the family's ``kernel_spec``), or None."""
    return m if isinstance(m, KernelSpec) else m.family.kernel_spec(m, options)


def _measure_ok(m, options=None) -> bool:
    spec = kernel_spec(m, options)
    return spec is not None and all(row.batch is not None for row in counted(spec))


def _engine_rows(measures, su_unigrams: str) -> tuple[list, list]:
    """The engine's rows ((kind code, n, weight, fold) each) for ``measures`` and, per measure, the
    index of its row holding its numbers: its one row, or for ROUGE-SU with ``su_unigrams="all"``
    (its spec split as kinds.py's ``counted``: ROUGE-S's skip-bigrams and ROUGE-1's unigrams) the
    second, the first flagged ``fold``: the engine adds its counts of each reference to the second's
    before the multi-reference rule (score.pxi), so sum, best and max all see the summed counts."""
    options = SimpleNamespace(su_unigrams=su_unigrams, wlcs="rouge155")
    rows: list = []
    last: list = []
    for m in measures:
        split = counted(kernel_spec(m, options))
        rows += [(*row.batch, int(k + 1 < len(split))) for k, row in enumerate(split)]
        last.append(len(rows) - 1)
    return rows, last


def batch_supported(measures, *, tokenizer, word_limit, byte_limit, multi_ref, su_unigrams, wlcs) -> bool:
    """True when :class:`BatchScorer` gives exactly the slow path's results for these options
    (every measure's ``kernel_spec`` under ``su_unigrams`` and ``wlcs`` a kind the engine counts)."""
    if not AVAILABLE:
        return False
    if not isinstance(tokenizer, str) or tokenizer != "rouge155":
        return False
    if (
        multi_ref not in ("sum", "best", "max")
        or su_unigrams not in ("rouge155", "all")
        or wlcs not in ("rouge155", "paper")
    ):
        return False
    options = SimpleNamespace(su_unigrams=su_unigrams, wlcs=wlcs)
    word_limit, byte_limit = int(word_limit or 0), int(byte_limit or 0)
    if word_limit < 0 or byte_limit < 0 or (word_limit and byte_limit):
        return False
    if word_limit >= 2**31 or byte_limit >= 2**31:
        return False
    try:
        return all(_measure_ok(_as_measure(m), options) for m in measures)
    except (OptionError, ValueError, TypeError):
        return False


#: token types an engine (and an api.Scorer, which imports it) interns before it starts afresh (at a
#: chunk boundary): a scorer kept for an endless stream stays within a few hundred MB
VOCABULARY_LIMIT = 1 << 22


def _bound_vocabulary(engine) -> None:
    """Reset an engine whose vocabulary passed :data:`VOCABULARY_LIMIT` (ids live for one chunk only)."""
    if engine.vocabulary_size > VOCABULARY_LIMIT or engine.id_count > VOCABULARY_LIMIT:
        engine.reset_vocabulary()


# Idle engines, by configuration. Making an engine costs a millisecond or more (the -m exception
# table is built in C) and its first pairs fault in fresh tables; ``rougekit.score`` makes a new
# Scorer, hence a new BatchScorer, at every call. A BatchScorer takes idle engines of its
# configuration from here and gives them back when it is collected, with their vocabulary and
# tables (ids are private to an engine; no number depends on them) but not their reference
# cache (it would keep the caller's texts alive after the call).
_POOL: dict = {}
_POOL_LOCK = threading.RLock()  # re-entrant: a finalizer may run (GC) while this thread holds it
_POOL_PER_KEY = 4  # idle engines kept per configuration (one per job)
_POOL_ENGINES = 8  # idle engines kept in all (least recently returned configurations dropped first)
# an engine that interned more types than this is not kept: a type costs about 200 bytes, so the
# idle engines hold at most about 100 MB however many calls and configurations came before
_POOL_VOCABULARY = 1 << 16


def _take(key) -> tuple | None:
    with _POOL_LOCK:
        idle = _POOL.get(key)
        return idle.pop() if idle else None


def _give_back(key, engines: list, works: list) -> None:
    """Return a collected BatchScorer's engines (and workspaces) to the pool, their caches emptied."""
    kept = [
        (e, w)
        for e, w in zip(engines, works)
        if e.vocabulary_size <= _POOL_VOCABULARY and e.id_count <= _POOL_VOCABULARY
    ]
    for e, _ in kept:
        e.clear_cache()
    with _POOL_LOCK:
        idle = _POOL.pop(key, [])  # re-inserted last: the most recently used configuration
        # taken from the end, job 0's engine last: the next scorer's job k gets job k's engine. Job 0
        # scores on the calling thread at every call; another job's thread may start after every chunk
        # is taken (a loaded machine), and its engine then comes back with an empty vocabulary
        idle.extend(reversed(kept[: max(0, _POOL_PER_KEY - len(idle))]))
        _POOL[key] = idle
        while sum(map(len, _POOL.values())) > _POOL_ENGINES:
            del _POOL[next(iter(_POOL))]


def _reader(engine, ids):
    """The engine's reader of a chunk of pairs: of token ids (``ids`` True), of texts (False), or of
    Arrow string columns (``"arrow"``: :func:`_batch.arrow_prepare`)."""
    if ids == "arrow":
        return functools.partial(_batch.arrow_prepare, engine)
    return engine.prepare_ids if ids else engine.prepare


def _fill_id_job(job, n: int, others: int) -> None:
    """Fill a job made ``later`` in _FILL_PARTS parts; after each, while the ``others`` engines'
    threads have not all started scoring it, the GIL is let go a moment for them (up to 0.1 ms
    after the first part, a few us after the next: a thread started after an idle spell here
    may wait ~2 ms for its core, and this thread has better to do than wait)."""
    for part in range(1, _FILL_PARTS + 1):
        if not job.fill(n * part // _FILL_PARTS):
            return
        if part < _FILL_PARTS:
            deadline = time.perf_counter() + (1e-4 if part == 1 else 0.0)
            while not job.let_in(others, 500) and time.perf_counter() < deadline:
                pass


def _jobs_and_chunk(n: int, jobs) -> tuple[int, int]:
    """The engines (threads) that ``n`` pairs are scored on, at most ``jobs``, and the pairs a chunk."""
    jobs = max(1, min(int(jobs or 1), n))
    chunk = max(1, min(_CHUNK, -(-n // (jobs * _CHUNKS_PER_JOB)))) if jobs > 1 else _CHUNK
    return min(jobs, -(-n // chunk)), chunk


class BatchScorer:
    """Score many pairs per call; keeps its vocabulary, stem cache and reference cache between calls.

    ``mode`` is ``"A"`` (sum over references, ``-f A``), ``"B"`` (the first reference with the best
    recall, ``-f B``) or ``"M"`` (the first reference with the best F: ``multi_ref="max"``, each
    reference scored as if it were the only one). Not safe to call from
    several threads at once (calls are serialised by a lock); use ``jobs`` for parallelism.

    ``stemmer`` is ``"rouge155"`` (the script's ``-m``: WordNet exceptions, then its Porter),
    ``"rouge155-porter"`` (``-m`` with an empty exception DB, as files2rouge installs it) or
    ``"nltk"`` (NLTK's default Porter, as rouge-score uses it); ``lowercase="unicode"`` lower-cases
    a non-ASCII text with ``str.lower`` before the tokenizer (rouge-score), ``"ascii"`` only
    A-Z (ROUGE-1.5.5). With ``stemmer="nltk"`` a token whose stem is empty is dropped (rouge-score).
    ``to_text`` turns a summary that is not a ``str`` into one (default: its sentences joined by
    newlines).
    """

    def __init__(
        self,
        measures: list,
        *,
        stem: bool,
        stopwords: bool,
        word_limit: int,
        byte_limit: int,
        mode: str,
        alpha: float,
        cache_size: int = _CACHE_SIZE,
        stemmer: str = "rouge155",
        lowercase: str = "ascii",
        to_text=None,
        su_unigrams: str = "rouge155",
    ):
        if not AVAILABLE:
            raise ImportError("rougekit._core._batch is not built (install with a C compiler and Cython)")
        self.measures = [_as_measure(m) for m in measures]
        for m in self.measures:
            if not _measure_ok(m):
                raise OptionError(f"{getattr(m, 'name', m)} is not supported by the batch scorer")
        if stemmer not in _STEMMERS:
            raise OptionError(f"unknown stemmer {stemmer!r} (rouge155, rouge155-porter or nltk)")
        if lowercase not in ("ascii", "unicode"):
            raise OptionError(f"unknown lowercase mode {lowercase!r} (ascii or unicode)")
        if word_limit and byte_limit:
            raise OptionError("give word_limit or byte_limit, not both (as ROUGE-1.5.5's -l and -b)")
        if word_limit < 0 or byte_limit < 0:
            raise OptionError("word_limit and byte_limit must be >= 0")
        self.mode = mode if mode in ("B", "M") else "A"
        spec, self._last = _engine_rows(self.measures, su_unigrams)
        self._split = len(spec) != len(self.measures)
        self.lowercase = lowercase
        self.alpha = float(alpha)
        self.stem = bool(stem)
        self.stopwords = bool(stopwords)
        stopset = None
        exceptions = None
        stem_code = _STEMMERS[stemmer] if self.stem else 0
        if self.stopwords:
            stopset = sorted(load_smart_stopwords())
        if stem_code == 1:
            exceptions = load_exceptions() if stemmer == "rouge155" else {}
        self._args = (
            spec,
            stopset,
            stem_code,
            exceptions,
            int(word_limit),
            int(byte_limit),
            self.mode == "B",
            self.alpha,
            int(cache_size),
            lowercase == "unicode",
            stemmer == "nltk",
            to_text,
            self.mode == "M",
        )
        # one engine (vocabulary, reference cache) and one workspace per job: a job's thread owns
        # them, so tokenizing and scoring both run without the GIL and without locks
        self._engines: list = []
        self._works: list = []
        self._lock = threading.Lock()  # one score_arrays at a time
        # the configuration's key in the engine pool (to_text by identity: a callable)
        self._key = (
            tuple(tuple(x) for x in spec),
            self.stopwords,
            stem_code,
            stemmer,
            int(word_limit),
            int(byte_limit),
            self.mode,
            self.alpha,
            int(cache_size),
            lowercase,
            to_text,
        )
        self._slot(0)
        weakref.finalize(self, _give_back, self._key, self._engines, self._works).atexit = False

    @property
    def _engine(self):
        return self._engines[0]

    @property
    def vocabulary_size(self) -> int:
        """Token types interned by the first job's engine."""
        return self._engines[0].vocabulary_size

    def _run_id_job(self, job, jobs: int, fill: bool = False) -> int:
        """Every engine on its own thread (job 0 on this one) until the job's chunks are all taken;
        the index of the first chunk in error (its pairs are then read again one at a time), or -1.
        ``fill``: the job is filled here first, part by part, the other engines scoring meanwhile."""
        if jobs <= 1:  # no thread to start or wait for
            self._engines[0].run_id_job(job, self._works[0])
            return self._id_job_error(job)
        errors: list[BaseException] = []
        job_pairs = job.pairs

        def run(k: int) -> None:
            try:
                if k == 0 and fill:
                    _fill_id_job(job, job_pairs, jobs - 1)
                self._engines[k].run_id_job(job, self._works[k])
            except BaseException as exc:  # noqa: BLE001 - re-raised in the caller
                job.halt()  # (an engine waiting for pairs never filled leaves)
                errors.append(exc)

        _on_threads(run, jobs, lambda exc: job.halt())
        if errors:
            raise errors[0]
        return self._id_job_error(job)

    @staticmethod
    def _id_job_error(job) -> int:
        """(every engine done) The first chunk of ``job`` in error, or -1."""
        try:
            job.raise_first_error()
        except Exception:
            return job.error_chunk
        return -1

    def tokens(self, summary) -> list[int]:
        """The interned token ids of one summary, its sentences joined (what sequence LCS reads)."""
        return self._engines[0].process(summary)[0]

    def process(self, summary) -> tuple[list[int], list[list[int]]]:
        """(joined token ids, sentence-unit token ids) of one summary, as the engine scores it."""
        return self._engines[0].process(summary)

    def trim(self) -> None:
        """Start afresh the vocabulary of each engine that interned more types than an idle engine of
        the pool may hold (:data:`_POOL_VOCABULARY`): a scorer kept between calls (``rougekit.score``'s)
        then holds at most what the pool does, however many ids its calls brought (ids are private to an
        engine: no number depends on them)."""
        for e in self._engines:
            if e.vocabulary_size > _POOL_VOCABULARY or e.id_count > _POOL_VOCABULARY:
                e.reset_vocabulary()

    def _slot(self, k: int):
        while len(self._engines) <= k:
            idle = _take(self._key)
            engine, work = idle if idle is not None else (None, None)
            if engine is None:
                engine = _batch._Engine(*self._args)
                work = _batch._Work(engine)
            self._engines.append(engine)
            self._works.append(work)
        return self._engines[k], self._works[k]

    def score_arrays(
        self,
        candidates: Sequence[str],
        references: Sequence[Sequence[str]],
        jobs: int = 1,
        kind: str | None = None,
        counts: dict | None = None,
    ) -> np.ndarray:
        """Per pair and measure: (model_count, hits, peer_count, recall, precision, f), float64.

        ``references[i]`` is the sequence of reference strings of ``candidates[i]`` (a bare string
        is taken as one reference). A summary's non-empty lines are its sentences.  Summaries may
        instead be token ids (all of them, see :mod:`rougekit._core.inputs`): a flat sequence of
        ints or a 1-d integer array (``references[i]``: one such reference or a list of them),
        scored with no tokenizer, stemmer or stopwords (``OptionError`` if those are set).
        ``kind`` (``"text"`` or ``"ids"``) says which, when the caller knows; else it is inferred.
        ``counts``, a dict, receives ``"empty"``: 0 when no summary came out with no tokens (else
        at least one; a front end then looks for texts the tokenizer could not read), and
        ``"non_ascii"`` and ``"marked"``: 0 when no text holds a character outside ASCII, or a
        ``<`` (else at least one: a front end then reads the texts for dropped letters, or
        sentence markers). Text inputs only.
        """
        import numpy as np

        out = np.zeros((len(candidates), len(self.measures), 6), dtype=np.float64)
        return self._score_into(out, candidates, references, jobs, kind, counts)

    def score_rows(self, candidates: Sequence[str], references: Sequence[Sequence[str]], jobs: int = 1) -> memoryview:
        """:meth:`score_arrays` without numpy: a (pairs x measures x 6) float64 memoryview."""
        n = len(candidates)
        out = memoryview(array("d", bytes(8 * 6 * len(self.measures) * n))).cast("B")
        return self._score_into(out.cast("d", (n, len(self.measures), 6)), candidates, references, jobs)

    def _score_into(self, out, candidates, references, jobs, kind=None, counts=None):
        n = len(candidates)
        if len(references) != n:
            raise ValueError(f"{n} candidates but {len(references)} reference lists")
        if counts is not None:
            counts.update(empty=0, non_ascii=0, marked=0)
        if n == 0 or not self.measures:
            return out
        ids = (kind or inputs.input_kind(candidates, references)) == "ids"
        if ids:
            inputs.check_id_options(stem=self.stem, stopwords=self.stopwords, byte_limit=self._args[5])
        jobs, chunk = _jobs_and_chunk(n, jobs)
        with self._lock:
            self._slot(jobs - 1)
            for eng in self._engines[:jobs]:
                eng.empty_summaries = eng.non_ascii_summaries = eng.marked_summaries = 0
            self._run_jobs(out, candidates, references, n, jobs, chunk, ids, self._rows_of(out))
            if counts is not None:
                used = self._engines[:jobs]
                counts["empty"] = sum(eng.empty_summaries for eng in used)
                counts["non_ascii"] = sum(eng.non_ascii_summaries for eng in used)
                counts["marked"] = sum(eng.marked_summaries for eng in used)
        return out

    def score_arrow(self, candidates, references, out, jobs: int = 1, extra=None) -> int:
        """Score the rows of two Arrow text columns into ``out`` (rows x measures x 6, C-contiguous
        float64): ``candidates`` and ``references`` are ``_batch._ArrowText`` views of the same
        number of rows (see :mod:`rougekit.engine.arrowcols`), read from their buffers with no
        Python str per row; the numbers are :meth:`score_arrays`'s on the same texts.  Returns the
        number of summaries that came out with no token (``counts["empty"]`` of score_arrays).
        ``extra``, a list of tasks (callables that catch their own errors) that the jobs take in turn
        once out of chunks: the caller's other work on the same rows done on the engine's threads
        while the last chunks are scored, not after them with one thread."""
        n = candidates.rows
        if references.rows != n or len(out) != n:
            raise ValueError(f"{n} candidates but {references.rows} reference rows and {len(out)} output rows")
        if self._args[9]:
            raise OptionError("Arrow columns are read as their bytes: not with lowercase='unicode'")
        if n == 0 or not self.measures:
            return 0
        jobs, chunk = _jobs_and_chunk(n, jobs)
        with self._lock:
            self._slot(jobs - 1)
            for eng in self._engines[:jobs]:
                eng.empty_summaries = 0
            self._run_jobs(out, candidates, references, n, jobs, chunk, "arrow", self._rows_of(out), extra)
            return sum(eng.empty_summaries for eng in self._engines[:jobs])

    def _rows_of(self, out):
        """Where the engine writes its rows: ``out`` itself, or (a measure split into two rows) a
        scratch array whose measures' last rows :meth:`_run_jobs` copies into ``out``."""
        if not self._split:
            return out
        import numpy as np

        return np.zeros((len(out), len(self._args[0]), 6), dtype=np.float64)

    def _run_jobs(self, out, candidates, references, n, jobs, chunk, ids, rows=None, extra=None) -> None:
        """Score pairs 0:n into ``out`` in chunks, with ``jobs`` engines on as many threads (the
        engine's rows into ``rows`` when a measure is split: the engine folds its rows, each
        measure's numbers are in its last row); ``extra`` (not with ``ids is True``): tasks the jobs
        take once out of chunks (see :meth:`score_arrow`)."""
        if rows is not None and rows is not out:
            self._run_jobs(rows, candidates, references, n, jobs, chunk, ids, extra=extra)
            import numpy as np

            np.asarray(out)[:n] = rows[:n, self._last, :]
            return
        if ids is True:  # every summary an int32 array: the engines claim chunks without the GIL between them
            for eng in self._engines[:jobs]:
                _bound_vocabulary(eng)
            # lists of ints are copied (GIL held, ~1.4 ns an id); with threads the job is filled part
            # by part while the other jobs score the parts already copied
            later = jobs > 1 and n >= _FILL_PARTS and type(candidates[0]) in (list, tuple)
            job = _batch._IdJob(candidates, references, 0, n, chunk, out, later)
            if job.ok:
                threads = jobs if job.ids >= _ONE_THREAD_IDS else 1
                if later and threads == 1:
                    job.fill(n)
                bad = self._run_id_job(job, threads, later and threads > 1)
                if job.ok:  # (else a part held another kind of input: read below, in order)
                    if bad >= 0:
                        self._first_bad_pair(out, candidates, references, bad * chunk, min(n, bad * chunk + chunk), ids)
                        job.raise_first_error()
                    return
        if jobs == 1:
            eng, work = self._slot(0)
            prepare = _reader(eng, ids)
            for start in range(0, n, chunk):
                _bound_vocabulary(eng)
                try:
                    prepare(candidates, references, start, min(n, start + chunk), work, out)  # and scored
                    continue
                except Exception as exc:  # noqa: BLE001 - re-raised below, unless a pair before fails first
                    error = exc
                # outside the except block: the first bad pair's error has no other one as its context
                self._first_bad_pair(out, candidates, references, start, min(n, start + chunk), ids)
                raise error
            for task in extra or ():
                task()
            return
        count = -(-n // chunk)
        errors: list[tuple[int, BaseException]] = []  # (chunk, its error)
        failed = [count]  # the first chunk in error: no later chunk is taken (earlier ones are)
        stopped: list[BaseException] = []  # an interrupt: no chunk is taken
        claimed = bytearray(count)
        claim_lock = threading.Lock()

        def claim(i: int) -> bool:
            with claim_lock:
                if claimed[i]:
                    return False
                claimed[i] = 1
                return True

        def run(k: int) -> None:
            # job k first takes its own chunks k, k + jobs, ... (the same references go to the
            # same job and its reference cache on every call with the same pairs), then helps
            # with the others' not yet taken, from the end: a job whose thread lost its core
            # holds nobody up. Which job scores a chunk never changes a number.
            eng, work = self._engines[k], self._works[k]
            own = range(k, count, jobs)
            others = (i for i in range(count - 1, -1, -1) if i % jobs != k)
            for i in itertools.chain(own, others):
                if stopped:
                    return
                if i > failed[0] or not claim(i):
                    continue
                start = i * chunk
                try:
                    _bound_vocabulary(eng)
                    prepare = _reader(eng, ids)
                    # read (tokenized) and scored in one section without the GIL: one hand-over
                    # of the GIL per chunk (a thread waiting for it may miss a short release)
                    prepare(candidates, references, start, min(n, start + chunk), work, out)
                except Exception as exc:  # noqa: BLE001 - re-raised in the caller
                    with claim_lock:
                        errors.append((i, exc))
                        failed[0] = min(failed[0], i)
                except BaseException as exc:  # noqa: BLE001 - re-raised in the caller
                    stopped.append(exc)
                    return
            while extra and not stopped:  # then the extra tasks, in turn
                with claim_lock:
                    task = next(extras, None)
                if task is None:
                    return
                task()

        extras = iter(extra or ())
        _on_threads(run, jobs, stopped.append)  # a job stops before its next chunk once stopped has one
        if stopped:
            raise stopped[0]
        if errors:  # the first bad pair in input order, whichever job met which error first
            i, exc = min(errors, key=lambda e: e[0])
            self._first_bad_pair(out, candidates, references, i * chunk, min(n, i * chunk + chunk), ids)
            raise exc

    def _first_bad_pair(self, out, candidates, references, start: int, end: int, ids: bool) -> None:
        """Pairs start:end (a chunk in error) one at a time: raises the error of the first bad pair,
        so that the pair an error names (and its type) never depends on jobs or chunks."""
        eng, work = self._slot(0)
        prepare = _reader(eng, ids)
        for p in range(start, end):
            prepare(candidates, references, p, p + 1, work, out)
