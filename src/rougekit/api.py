"""The Python API: ``rougekit.score(candidates, references, ...)`` and the reusable ``Scorer``.

Candidates come first, references second. Defaults reproduce ROUGE-1.5.5: the per-pair numbers
equal ``rougekit rouge155 -d`` on the same texts.

>>> r = score(["police kill the gunman"], [["police killed the gunman"]], measures=["ROUGE-1", "ROUGE-L"])
>>> r.per_pair()[0]["ROUGE-1"]["recall"]
0.75
>>> r.to_dict()["ROUGE-L"]["f"]
0.75
"""

from __future__ import annotations

import difflib
import inspect
import re
import threading
import warnings
from typing import Iterable, Iterator, Sequence, Sized

import numpy as np

from rougekit.engine.door import (
    VOCABULARY_LIMIT,  # a Scorer's too: it starts afresh between chunks
    Doc,
    PairScore,
    available_cores,
    backend_name,
    ids_without_kernel,
    inputs,
    plan,
    score_pair,
)
from rougekit.engine.options import ScoringOptions
from rougekit.errors import (
    BlankReferencesWarning,
    IdleOptionWarning,
    InputError,
    OptionError,
    PaddingWarning,
    UnusedSourcesWarning,
    caller_stacklevel,
)
from rougekit.measures import Measure
from rougekit.results import F, R, RougeResult, pair_sum
from rougekit.signature import Signature
from rougekit.text import empty, markers, presets
from rougekit.text.intern import Vocabulary
from rougekit.text.tokenizers import Preprocessor, Tokenizer

DEFAULT_MEASURES = ("ROUGE-1", "ROUGE-2", "ROUGE-L")
REFERENCE_CACHE = 100_000  # processed references kept by a Scorer's readable path


class _SilentTally(empty.Tally):
    """A tally that counts but says nothing: the texts were said once already (``Scorer.warn_unread(once=True)``)."""

    def warn(self, stacklevel: int = 3) -> None:
        return None


def _blank_references(references: list[list], first: int) -> list[int]:
    """The pairs (from ``first``) with a blank reference (empty or white space): it has no words and its
    pair scores 0, most often a missing or shifted row, so it is said (as the command line says it of
    files), naming the pairs."""
    return [
        first + k
        for k, refs in enumerate(references)
        if any(not (r if isinstance(r, str) else "".join(map(str, r))).strip() for r in refs)
    ]


def _blank_arrow_references(pieces: list[tuple]) -> list[int]:
    """The pairs (from 1) of Arrow (candidates, references) pieces whose references hold a blank one,
    read from the buffers (:func:`rougekit.io.arrow.blank_rows`)."""
    from rougekit.io.arrow import blank_rows

    found, first = [], 1
    for _, refs in pieces:
        found += [first + k for k in blank_rows(refs)]
        first += len(refs)
    return found


class _FirstPairs:
    """Pairs found over a stream: the first 10 kept (what the warning shows), all counted (an endless
    stream keeps no growing list)."""

    def __init__(self) -> None:
        self.first: list[int] = []
        self.count = 0

    def extend(self, pairs) -> None:
        pairs = list(pairs)
        self.count += len(pairs)
        self.first += pairs[: max(0, 10 - len(self.first))]

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index):
        return self.first[index]


def _say_blank_references(blank) -> None:
    if blank:
        shown = ", ".join(map(str, blank[:10])) + (f", ... ({len(blank)} in all)" if len(blank) > 10 else "")
        warnings.warn(
            BlankReferencesWarning(
                f"{len(blank)} pair(s) have a blank reference (empty or white space: no words), and score 0 against "
                f"it: pair {shown}"
            ),
            stacklevel=_callers_level(),
        )


def _callers_level() -> int:
    """The ``stacklevel`` for a tally's ``warn`` (EmptyTokensWarning's, the markers') called beside this
    by a Scorer method: it names the first frame outside rougekit, the caller's file, whatever the path."""
    return caller_stacklevel()  # this frame stands where the tally's warn will


# what the engine's fast read of lists raises when the call must be read the checked way (an entry to
# convert first, or an input error the checks report first): nothing else is retried
_READ_CHECKED = (inputs.NotPlain, InputError, OptionError, TypeError)


class Scorer:
    """Scores candidates against references; processed references are cached for reuse.

    Options (the ROUGE-1.5.5 flag each mirrors):
      measures     names such as ROUGE-1, ROUGE-L, ROUGE-W-1.2, ROUGE-SU4, ROUGE-S* (-n, -w, -2, -u)
      stem         WordNet exceptions + the script's Porter (-m)
      stopwords    remove the SMART stopwords (-s)
      word_limit, byte_limit   truncate every summary (-l, -b)
      multi_ref    "sum" (-f A), "best" (-f B), "max" (best F per pair, as rouge-score's score_multi)
                   or "jackknife" (the paper); max and jackknife are not in the script
      alpha        F weight (-p)
      average      the corpus number: "pairs" (mean of per-pair scores), "tokens" (ratio of summed
                   counts, -t 1) or "rouge155" (the bootstrap average ROUGE-1.5.5.pl prints with -t 0,
                   over the pairs in input order, or sorted as strings by their ids when ids are given)
      tokenizer    "rouge155" (exact, the default), "unicode", "cjk" or a callable
      lang         a language preset: tokenizer, word segmenter, stemmer and stopwords of a language,
                   by ISO 639-1 code, English name or XL-Sum name ("zh", "german", "chinese_simplified", ...); "en" is
                   the script's own; see docs/languages.md (not with tokenizer=)
      su_unigrams  "rouge155" (every token but the summary's last) or "all" (the paper's marker)
      wlcs         "rouge155" (the script's ROUGE-W) or "paper" (equations 13-15)
      bootstrap    "rouge155" (the script's seeded resampling, -r/-c), "percentile", or None
      resamples, confidence, seed   bootstrap settings (seed for the percentile bootstrap); ranges:
                   2 <= resamples <= 100000, 0 < confidence < 100 (see :mod:`rougekit.limits`)
      hori_units   units of ACCY/NrstACCY/PREC-n/SumACCY/WSumACCY: "word" or "sentence"
      ignore_ids   token ids (an int or a collection of them) dropped from every token-id summary before
                   counting: the padding (and EOS) of a padded batch; recorded in the signature (ignore:0)
      jobs         threads for the compiled batch path (default: every core this process may use);
                   results do not depend on it. fast=False forces the readable Python path
    """

    def __init__(
        self,
        measures=DEFAULT_MEASURES,
        *,
        stem: bool = False,
        stopwords: bool = False,
        word_limit: int = 0,
        byte_limit: int = 0,
        multi_ref: str = "sum",
        alpha: float = 0.5,
        average: str = "pairs",
        tokenizer: Tokenizer | None = None,
        lang: str | None = None,
        su_unigrams: str = "rouge155",
        wlcs: str = "rouge155",
        bootstrap: str | None = "rouge155",
        resamples: int = 1000,
        confidence: float = 95.0,
        seed: int = 0,
        hori_units: str = "word",
        ignore_ids=None,
        jobs: int | None = None,
        fast: bool = True,
    ):
        self.options = ScoringOptions.build(
            measures,
            stem=stem,
            stopwords=stopwords,
            word_limit=word_limit,
            byte_limit=byte_limit,
            multi_ref=multi_ref,
            alpha=float(alpha),
            average=average,
            tokenizer=tokenizer,
            lang=lang,
            su_unigrams=su_unigrams,
            wlcs=wlcs,
            bootstrap=bootstrap,
            resamples=resamples,
            confidence=confidence,
            seed=seed,
            hori_units=hori_units,
            ignore_ids=ignore_ids,
        )
        self.measures = list(self.options.measures)
        idle = Measure.idle_multi_ref(self.measures, self.options.multi_ref)
        if idle:  # BLEU, Ngram(i,j) and the Hori measures pool their references their own way
            warnings.warn(IdleOptionWarning(idle), stacklevel=caller_stacklevel())
        self.hori_units = hori_units
        self._unread_said = False  # warn_unread(once=True) said the run's texts: calls count them silently
        #: blank references are said by score() (a reader that names their files and lines sets it False)
        self.blank_references_unsaid = True
        o = self.options
        if o.lang:
            self.pre = presets.preprocessor(o.lang, o.stem, o.stopwords, o.word_limit, o.byte_limit)
        else:
            self.pre = Preprocessor(o.tokenizer, o.stem, o.stopwords, o.word_limit, o.byte_limit)
        self.multi_ref, self.alpha, self.average = multi_ref, float(alpha), average
        self.su_unigrams, self.wlcs = su_unigrams, wlcs
        self.bootstrap, self.resamples, self.confidence, self.seed = bootstrap, resamples, confidence, seed
        self.vocab = Vocabulary()
        if jobs is None:
            jobs = available_cores()
        if not isinstance(jobs, int) or jobs < 1:
            raise OptionError(f"jobs must be an integer >= 1, got {jobs!r}")
        self.jobs = jobs
        self._plan = plan(self.options, fast=fast)
        self._cache: dict[str, Doc] = {}
        self.signature = Signature.from_options(self.options)
        self._only_ids = True  # every summary scored so far was token ids (see _idle_give)

    # -- processing ---------------------------------------------------------------------------
    def doc(self, summary: str | Sequence[str], cache: bool = False, kind: str = "text", where: str = "summary") -> Doc:
        """One processed summary: text (``kind="text"``) or token ids (``kind="ids"``, see ``inputs``);
        ``where`` names it in errors (``"pair 3: reference 2"``, as the compiled engine does)."""
        summary = inputs.summary(summary)
        inputs.check_kind(summary, kind, where)
        if kind == "ids":
            sentences = inputs.id_sentences(summary, self.pre.word_limit, where)
            return Doc([t for s in sentences for t in s], sentences)
        if isinstance(summary, str):
            key = summary
        elif isinstance(summary, (list, tuple)) and all(isinstance(s, str) for s in summary):
            key = "\n".join(summary)
        else:
            raise TypeError(inputs.not_text(summary, where))
        if cache and key in self._cache:
            return self._cache[key]
        tokens, units = self.pre.process(key)
        d = Doc(self.vocab.ids(tokens), [self.vocab.ids(u) for u in units])
        if cache:
            if len(self._cache) >= REFERENCE_CACHE:
                self._cache.clear()  # keeps memory flat on endless streams
            self._cache[key] = d
        return d

    def score_one_measure(self, m: Measure, candidate: Doc, references: list[Doc]) -> PairScore:
        """One ROUGE measure for one candidate: per-reference counts, the multi-reference rule, R/P/F."""
        return score_pair(m, candidate, references, mode=self.options.mode, alpha=self.alpha, options=self.options)

    def _single(self, m: Measure, cand: Doc, refs: list[Doc], source: Doc | None) -> float:
        """A single-valued measure (Lin & Hovy 2003, Hori et al. 2004) on the processed tokens."""
        if not refs:
            return 0.0
        return m.family.pair_value(m, cand, refs, source, self.options)

    # -- corpus -------------------------------------------------------------------------------
    def score(
        self,
        candidates: Iterable[str],
        references: Iterable,
        ids: Sequence[str] | None = None,
        sources: Iterable[str] | None = None,
        jobs: int | None = None,
    ) -> RougeResult:
        """Score each candidate against its references (one string or a list of strings each).

        Any container a list means may hold them (a tuple, a generator, a numpy array of strings, a
        pandas or polars Series, read by position: pandas Series with different indexes are an
        ``OptionError``); a str, dict, set, DataFrame, pyarrow Table or 1-d integer array in its place
        is a ``TypeError``, no pairs an ``InputError`` (see :mod:`rougekit._core.inputs`).

        Summaries may be token ids instead of text, all of them (see :mod:`rougekit._core.inputs`):
        a list of ints or a 1-d integer array (or a list of them, its sentences) per summary.

        ``sources`` (the original texts, one per candidate) are needed by SumACCY and WSumACCY.
        ``jobs`` threads share the compiled batch path (default: the scorer's ``jobs``).
        """
        inputs.same_index(candidates=candidates, references=references, sources=sources, ids=ids)
        if (type(candidates) is not list or type(references) is not list) and not self.options.ignore_ids:
            _warn_padding(candidates=candidates, references=references)  # a padded batch (numpy, torch)
        if type(candidates) is not list and not inputs.holds_arrow(candidates):  # a list (and a column in Arrow
            # memory, from its buffers when it can) is read by statistics
            candidates = inputs.summaries(candidates, "candidates", "candidate")
        assert isinstance(candidates, Sized)
        if ids is not None:
            ids = [_pair_id(i, k) for k, i in enumerate(inputs.summaries(ids, "ids"))]
            if len(ids) != len(candidates):
                raise OptionError(f"{len(ids)} ids for {len(candidates)} candidates")
        data, token_pairs = self.statistics(candidates, references, sources, jobs)
        return self.result(data, ids, token_pairs)

    def statistics(
        self, candidates: Iterable, references: Iterable, sources: Iterable[str] | None = None, jobs: int | None = None
    ) -> tuple[np.ndarray, list]:
        """The counting part of :meth:`score`: per-pair statistics (an n x measures x 6 array, columns as
        ``RougeResult.data``) and the token pairs corpus BLEU needs (empty without BLEU). Scored
        elsewhere (``rougekit.dask``'s workers), they become the result with :meth:`result`.

        pyarrow ``string``/``large_string`` columns (Arrays or ChunkedArrays; references may be a ``list``
        of strings a row) with no nulls are read by the compiled engine from their UTF-8 buffers, no
        Python str per row, with the same numbers and warnings; so are the columns whose text is in Arrow
        memory (polars and Arrow-backed pandas Series, ``datasets`` columns: see
        :func:`rougekit._core.inputs.arrow_column`); other columns as lists."""
        pieces = self._arrow_pieces(candidates, references, sources)
        if pieces is not None:
            self._only_ids = False
            tally, found = self._tally(), markers.MarkerTally()
            data = self._plan.score_arrow(pieces, jobs or self.jobs, tally, found, self.options.stem)
            tally.warn(stacklevel=_callers_level())
            found.warn(stacklevel=_callers_level())
            if self.blank_references_unsaid:
                _say_blank_references(_blank_arrow_references(pieces))
            return data, []
        # the compiled engine alone reads the texts of every measure (it tokenizes them itself, see
        # reads_arrow): a summary needs no check before it reaches the engine
        if type(candidates) is list and type(references) is list and self.reads_arrow():
            try:  # each summary checked as the engine reads it (a str as it is), not in passes of their own
                return self._statistics(candidates, references, sources, jobs, engine_reads=True)
            except _READ_CHECKED:  # an entry to convert first (NotPlain) or an input error: nothing was
                pass  # warned; read again with every summary checked first, which raises the error the
                # checks find first (a dict at pair 3 before a lone surrogate at pair 1: as for a tuple);
                # any other exception is a bug, raised as it is (not hidden by a second read)
        return self._statistics(candidates, references, sources, jobs)

    def _statistics(self, candidates, references, sources, jobs, engine_reads: bool = False):
        if not engine_reads:
            candidates = inputs.summaries(candidates, "candidates", "candidate")
        kind, references = inputs.normalize(candidates, references, engine_reads)
        if len(candidates) != len(references):
            raise OptionError(f"{len(candidates)} candidates but {len(references)} reference entries")
        source_list = inputs.summaries(sources, "sources", "source") if sources is not None else None
        if source_list is not None and len(source_list) != len(candidates):
            raise OptionError(f"{len(candidates)} candidates but {len(source_list)} sources")
        self._check_sources(source_list is not None, "pass sources=")
        tally = self._tally()
        found = markers.MarkerTally()
        scored = self._score_arrays(candidates, references, source_list, jobs, kind=kind, tally=tally, found=found)
        tally.warn(stacklevel=_callers_level())
        found.warn(stacklevel=_callers_level())
        return scored

    def reads_arrow(self) -> bool:
        """True when the compiled engine counts every measure from text it tokenizes itself, so that it
        can read pyarrow string columns from their buffers (:meth:`arrow_chunks`)."""
        return self._plan.reads_arrow() and not any(m.single_valued for m in self.measures)

    def _arrow_pieces(self, candidates, references, sources=None) -> list | None:
        """Aligned (candidates, references) pyarrow arrays when the engine reads both columns from their
        buffers for every measure (see ``EnginePlan.reads_arrow``), else None (read as lists)."""
        if sources is not None or not inputs.holds_arrow(candidates) or not inputs.holds_arrow(references):
            return None
        candidates, references = inputs.arrow_column(candidates), inputs.arrow_column(references)
        if candidates is None or references is None:
            return None
        if any(m.single_valued for m in self.measures) or not len(candidates) or len(candidates) != len(references):
            return None
        p = self._plan
        cands = getattr(candidates, "chunks", [candidates])
        refs = getattr(references, "chunks", [references])
        if all(p.reads_arrow(c) for c in cands) and all(p.reads_arrow(r, lists=True) for r in refs):
            return p.arrow_pieces(candidates, references)
        return None

    def arrow_chunks(
        self,
        batches,
        chunk_size: int = 20000,
        jobs: int | None = None,
        progress=None,
        blank=None,
        before_warnings=None,
        into=None,
        scratch=None,
    ) -> Iterator[np.ndarray]:
        """:meth:`score_chunks` of (candidates, references) pyarrow arrays of the same rows (a reader's
        record batches: each column one the engine reads, see ``EnginePlan.reads_arrow``), read from their
        buffers and cut into the same chunks, with the same warnings. ``blank`` (a list) gets the 0-based
        rows whose candidate is empty or white space; ``before_warnings()`` runs after the last row is
        read, before the chunks' warnings are given. ``into`` (a zeroed rows x measures x 6 float64
        array, see :meth:`collect`): each chunk is scored into its rows there and is a view of it (a
        chunk past its end gets an array of its own). ``scratch`` (a C-contiguous chunk_size x measures x 6
        float64 array; not with ``into``): every chunk is scored into its first rows, zeroed again first,
        and is a view of it, good until the next chunk is asked for (the pages of one chunk, faulted in
        once, instead of fresh ones each chunk)."""
        if scratch is not None and (into is not None or len(scratch) < chunk_size):
            raise ValueError("scratch needs chunk_size rows, and no into")
        tally, found = self._tally(), markers.MarkerTally()
        done, rows = 0, 0
        pieces: list[tuple] = []

        def flush():
            nonlocal done, rows
            seen: list[int] | None = [] if blank is not None else None
            try:
                out = into[done : done + rows] if into is not None and done + rows <= len(into) else None
                if scratch is not None:
                    out = scratch[:rows]
                    out.fill(0.0)
                data = self._plan.score_arrow(pieces, jobs or self.jobs, tally, found, self.options.stem, seen, out)
            except (TypeError, InputError) as e:
                raise _counted_from(e, done + 1) from None
            if seen:
                blank.extend(k + done for k in seen)
            done += rows
            rows = 0
            pieces.clear()
            if progress:
                progress(done)
            return data

        for cands, refs in batches:
            at = 0
            while at < len(cands):
                take = min(len(cands) - at, chunk_size - rows)
                pieces.append((cands.slice(at, take), refs.slice(at, take)))
                rows += take
                at += take
                if rows >= chunk_size:
                    yield flush()
        if rows:
            yield flush()
        if before_warnings is not None:
            before_warnings()
        tally.warn(stacklevel=_callers_level())
        found.warn(stacklevel=_callers_level())

    def score_stream(
        self,
        pairs: Iterable[tuple[str, Sequence[str]]],
        chunk_size: int = 20000,
        jobs: int | None = None,
        progress=None,
        keep_pairs: bool = True,
        ids: Sequence[str] | None = None,
    ) -> RougeResult:
        """Score (candidate, references) pairs read lazily, ``chunk_size`` at a time: the texts are
        never all in memory, only the per-pair numbers. ``progress(n)`` is called after each chunk.
        An item may be a (candidate, references, source) triple, for the measures that need the
        source text (SumACCY, ...); then every item must be one.

        ``keep_pairs=False`` keeps only running sums (flat memory for any number of pairs): the
        result then has corpus numbers but no per-pair rows and no intervals.
        ``ids``: the pairs' IDs in order, as :func:`rougekit.score`'s (they order the 1.5.5 bootstrap
        and average); a list may be filled while the pairs are read (read when the last pair is).
        """
        if not keep_pairs and (self.bootstrap or any(m.family.corpus_needs_tokens for m in self.measures)):
            raise OptionError("keep_pairs=False needs bootstrap=None and no BLEU (they need every pair)")
        # the chunks' warnings name the caller of score_stream (the first frame outside rougekit)
        return self.collect(self._chunks(pairs, chunk_size, jobs, progress), keep_pairs, ids=ids)

    def collect(
        self,
        parts: Iterable[tuple[np.ndarray, list]],
        keep_pairs: bool = True,
        rows: int | None = None,
        whole: np.ndarray | None = None,
        ids: Sequence[str] | None = None,
    ) -> RougeResult:
        """The result of (per-pair statistics, BLEU token pairs) chunks in input order (see :meth:`score_stream`).
        ``rows``, the number of pairs when known (a Parquet file's metadata), lets the chunks be copied
        into one array as they come instead of concatenated at the end (half the peak memory).
        ``whole``, that array made by the caller (rows x measures x 6 float64, C-contiguous), whose
        chunks may already be its rows in place (``arrow_chunks(into=whole)``): those are not copied.
        ``ids``: the pairs' IDs (see :meth:`score_stream`)."""
        bleu_pairs: list = []
        done = 0
        chunks: list[np.ndarray] = []
        totals = np.zeros((len(self.measures), 6))
        if whole is None:
            whole = np.empty((rows, len(self.measures), 6)) if keep_pairs and rows else None
        elif not keep_pairs or whole.shape[1:] != (len(self.measures), 6) or not whole.flags.c_contiguous:
            raise ValueError("whole must be a C-contiguous rows x measures x 6 array, with keep_pairs")
        for data, bp in parts:
            if whole is not None and done + len(data) <= len(whole):
                if not _rows_of(data, whole, done):
                    whole[done : done + len(data)] = data
                chunks = [whole[: done + len(data)]]
            elif keep_pairs:
                whole = None  # more rows than said: kept as they come
                chunks.append(data)
            else:
                totals = pair_sum(data, totals)
            bleu_pairs.extend(bp)
            done += len(data)
        if not done:
            raise InputError(_NO_PAIRS)
        if not keep_pairs:
            _ids_of(ids, done)  # checked as with kept pairs, though no row keeps them
            return self._aggregate(totals, done)
        data = np.concatenate(chunks) if len(chunks) != 1 else chunks[0]
        del chunks
        return self.result(data, _ids_of(ids, done), bleu_pairs)

    def collect_rpf(self, chunks: Iterable[np.ndarray], rows: int | None = None, f_only: bool = False) -> RougeResult:
        """The result of per-pair statistics chunks in input order (no BLEU; not with ``average='tokens'``)
        keeping of each pair only its recall, precision and f: an aggregate-only result (column sums, the
        corpus numbers of :meth:`collect`'s, bit for bit) whose bootstrap reads those (``kept_rpf``). Half
        the memory of every pair's statistics (what a report of the corpus numbers and intervals reads).
        ``rows``, the number of pairs when known; each chunk is copied before the next is asked for.
        ``f_only``: each pair's f only (a sixth of the statistics), for ``interval(name, "f")`` of the 1.5.5
        bootstrap and the corpus numbers (a text report); other intervals are then an error."""
        if f_only and (self.options.bootstrap != "rouge155" or self.options.average != "pairs"):
            raise OptionError(
                "f_only keeps what the 1.5.5 bootstrap's f intervals read: bootstrap='rouge155', average='pairs'"
            )
        measures = len(self.measures)
        first = F if f_only else R
        totals = np.zeros((measures, 6))
        kept = np.empty((rows or 0, measures, 6 - first))
        more: list[np.ndarray] = []  # rows past ``rows``
        done = 0
        for data in chunks:
            totals = pair_sum(data, totals)
            fits = max(0, min(len(data), len(kept) - done))
            kept[done : done + fits] = data[:fits, :, first:]
            if fits < len(data):
                more.append(np.array(data[fits:, :, first:]))
            done += len(data)
        if not done:
            raise InputError(_NO_PAIRS)
        if done < len(kept) or more:
            kept = np.concatenate([kept[: min(done, len(kept))], *more])
        return self._aggregate(totals, done, kept)

    def _aggregate(self, totals: np.ndarray, pairs: int, kept_rpf: np.ndarray | None = None) -> RougeResult:
        """An aggregate-only result: the column sums of ``pairs`` pairs (and, for its bootstrap, each
        pair's R/P/F or f: ``kept_rpf``)."""
        values = {m.name: float(totals[j, F] / pairs) for j, m in enumerate(self.measures) if m.single_valued}
        return RougeResult(
            np.zeros((0, len(self.measures), 6)),
            self.options,
            corpus_values=values,
            totals=totals,
            total_pairs=pairs,
            signature=self.signature,
            kept_rpf=kept_rpf,
        )

    def score_chunks(
        self, pairs: Iterable[tuple], chunk_size: int = 20000, jobs: int | None = None, progress=None
    ) -> Iterator[np.ndarray]:
        """Score pairs as :meth:`score_stream` reads them, and yield each chunk's per-pair numbers as
        soon as it is scored (an n x measures x 6 array, columns as ``RougeResult.data``), keeping
        nothing: for writing per-pair rows of any number of pairs in flat memory."""
        for data, _ in self._chunks(pairs, chunk_size, jobs, progress):
            yield data

    def _chunks(self, pairs, chunk_size: int, jobs, progress):
        """(data, BLEU token pairs) of each ``chunk_size`` pairs read from ``pairs``."""
        _not_a_string(pairs, "pairs", "(candidate, references) tuples, e.g. [(candidate, [reference])]")
        tally = self._tally()
        found = markers.MarkerTally()
        blank = _FirstPairs()  # pairs with a blank reference, said once after the last chunk
        done = 0
        cands: list[str] = []
        refs: list = []
        srcs: list[str] = []

        def flush():
            nonlocal done
            if srcs and len(srcs) != len(cands):
                raise OptionError("give a source with every pair, or with none")
            if not done:
                self._check_sources(bool(srcs), "pass (candidate, references, source) triples")
            candidates = inputs.summaries(cands, "candidates", "candidate")
            kind, split = inputs.normalize(candidates, refs)
            sources = inputs.summaries(srcs, "sources", "source") if srcs else None
            scored = self._score_arrays(
                candidates, split, sources, jobs, first=done + 1, kind=kind, tally=tally, found=found, blank=blank
            )
            done += len(cands)
            cands.clear()
            refs.clear()
            srcs.clear()
            if progress:
                progress(done)
            return scored

        for item in pairs:
            # a tuple (the file readers' pairs) is the common case: its length is the one check
            size = len(item) if type(item) is tuple else _pair_length(item)
            if not 2 <= size <= 3:
                raise TypeError(
                    f"pair {done + len(cands) + 1}: each pair must be a (candidate, references) or "
                    f"(candidate, references, source) tuple, got {_shown(item)}"
                )
            cand, ref = item[0], item[1]
            if size > 2:
                srcs.append(item[2])
            cands.append(cand)
            refs.append(ref)
            if len(cands) >= chunk_size:
                yield flush()
        if cands:
            yield flush()
        tally.warn(stacklevel=_callers_level())
        found.warn(stacklevel=_callers_level())
        _say_blank_references(blank)

    def _tally(self) -> empty.Tally:
        quiet = self._unread_said
        return (_SilentTally if quiet else empty.Tally)(self.options.tokenizer_name)

    def warn_unread(self, candidates: list, references: list[list], once: bool = False) -> None:
        """The warnings :meth:`score` gives for these summaries (words that came out as no tokens, letters
        dropped, unspaced scripts: which option reads them), for callers that count them otherwise
        (``rougekit.explain``). ``once``: the texts are all a run will score (``rougekit.process``
        scores them pair by pair): said here, with their counts, and not again by later calls."""
        tally = empty.Tally(self.options.tokenizer_name)
        self._count_unreadable(candidates, references, tally)
        tally.warn(stacklevel=_callers_level())
        self._unread_said = self._unread_said or once

    def _check_sources(self, given: bool, how: str) -> None:
        """Original texts are read by SumACCY and WSumACCY only: refused missing for them (``how`` says how
        to give them), said once when given and no measure reads them (streamed (id, candidate,
        references) items are read as (candidate, references, source): a mistake to name)."""
        needed = any(m.needs_source for m in self.measures)
        if needed and not given:
            raise OptionError(f"SumACCY and WSumACCY need the original texts: {how}")
        if given and not needed:
            warnings.warn(
                UnusedSourcesWarning(
                    "original texts (sources) are given, but no measure reads them (only SumACCY and WSumACCY do); "
                    "streamed (candidate, references, source) triples whose first item is an ID: pass ids= instead",
                    cli="the original texts are given, but no measure reads them (only SumACCY and WSumACCY do)",
                ),
                stacklevel=caller_stacklevel(),
            )

    def _score_arrays(
        self,
        candidates: list,
        references: list[list],
        source_list,
        jobs,
        first: int = 1,
        kind="text",
        tally=None,
        found=None,
        blank: "list[int] | _FirstPairs | None" = None,
    ):
        """Score the pairs; texts are then checked for unreadable words (``tally``) and sentence
        markers (``found``), with the engine's counts saying when there is nothing to look for.
        ``blank`` (a list): gets the pairs with a blank reference, said by the caller (once for a
        stream of chunks); without it they are said here."""
        if kind == "ids":  # token ids: options that only apply to text are refused
            self._check_ids()
            drop = self.options.ignore_ids
            kernel = ids_without_kernel() if drop else None
            candidates, references = inputs.id_pairs(candidates, references, drop, kernel)
        else:
            if self.options.ignore_ids:
                raise OptionError("ignore_ids applies to token ids: it cannot be used with text inputs")
            self._only_ids = False
        try:
            counts: dict = {}
            scored = self._score_arrays_of(candidates, references, source_list, jobs, kind, counts, first)
            # the number of summaries, counted once for both
            size = len(candidates) + sum(map(len, references)) if kind == "text" else 0
            if tally is not None and kind == "text":
                self._count_unreadable(
                    candidates, references, tally, counts.get("empty"), counts.get("non_ascii"), summaries=size
                )
            if found is not None and kind == "text":
                found.add(candidates, references, counts.get("marked"), summaries=size)
            if kind == "text" and counts.get("empty") != 0 and self.blank_references_unsaid:
                found_blank = _blank_references(references, first)  # (the engine saw no empty summary: none is)
                if blank is None:
                    _say_blank_references(found_blank)
                else:
                    blank.extend(found_blank)
            return scored
        except UnicodeEncodeError:  # only a lone surrogate not escaping a byte (U+D800-U+DC7F, U+DD00-U+DFFF)
            raise InputError(inputs.lone_surrogate(candidates, references, source_list, first)) from None

    def _score_arrays_of(
        self, candidates: list, references: list[list], source_list, jobs, kind: str = "text", counts=None, first=1
    ):
        """Per-pair statistics and BLEU's token pairs; ``counts`` (a dict) gets the engine's
        ``"empty"`` count when the engine read every summary as text."""
        if len(self.vocab) > VOCABULARY_LIMIT:  # a scorer kept for an endless stream: ids live per chunk
            self.vocab = Vocabulary()
            self._cache.clear()
        batch = self._batch()
        batch_cols = [j for j, m in enumerate(self.measures) if not m.single_valued] if batch else []
        slow = [j for j in range(len(self.measures)) if j not in batch_cols]
        every = bool(candidates) and len(batch_cols) == len(self.measures)  # the engine's array is the result
        data = None if every else np.zeros((len(candidates), len(self.measures), 6), dtype=np.float64)
        feed_ids = bool(batch_cols) and self._plan.feed == "ids" and kind == "text"
        # processed once, here, when the engine's id feed or the readable path beside the engine needs
        # them (every measure on the readable path: read pair by pair below, as they are counted)
        read_first = feed_ids or (slow and batch_cols)
        cand_docs, ref_docs = self._docs(candidates, references, kind, first) if read_first else ([], [])
        if batch_cols and candidates:
            if feed_ids:  # tokenized here, counted by the engine
                candidates_in = [d.sentences for d in cand_docs]
                references_in = [[r.sentences for r in refs] for refs in ref_docs]
            else:
                candidates_in, references_in = candidates, references
            fed = "ids" if self._plan.feed == "ids" else kind
            try:
                scored = batch.score_arrays(
                    candidates_in, references_in, jobs or self.jobs, fed, counts if fed == "text" else None
                )
            except (TypeError, InputError) as e:  # the engine counts this chunk's pairs from 1
                raise _counted_from(e, first) from None
            if data is None:
                data = scored  # every measure from the engine: its array is the result (no copy)
            else:
                data[:, batch_cols, :] = scored
        bleu_pairs = []
        if slow:
            assert data is not None  # (allocated: not every measure is the engine's)
            # every measure here: each pair read, then counted, before the next is read, so that an
            # error names the first bad pair in input order (as the engine's, whatever its kind)
            pairs = zip(cand_docs, ref_docs) if batch_cols else self._pairs_read(candidates, references, kind, first)
            for k, (cand_doc, refs) in enumerate(pairs):
                at = f"pair {first + k}: source"
                src = self.doc(source_list[k], kind == "text", kind, at) if source_list is not None else None
                try:
                    for j in slow:
                        data[k, j] = self._row(self.measures[j], cand_doc, refs, src)
                except InputError as e:  # a count the measure refuses (ROUGE-W of an empty reference)
                    if _PAIR_NAMED.match(str(e)):
                        raise
                    raise InputError(f"pair {first + k}: {e}") from None
                if any(self.measures[j].family.corpus_needs_tokens for j in slow):
                    bleu_pairs.append((cand_doc.tokens, [r.tokens for r in refs]))
        assert data is not None
        return data, bleu_pairs

    def _docs(self, candidates: list, references: list[list], kind: str, first: int) -> tuple[list, list]:
        """The processed candidates and references, pair by pair in input order (an error names the
        first bad summary as the compiled engine does: ``pair 3: reference 2``)."""
        cand_docs, ref_docs = [], []
        for cand_doc, refs in self._pairs_read(candidates, references, kind, first):
            cand_docs.append(cand_doc)
            ref_docs.append(refs)
        return cand_docs, ref_docs

    def _pairs_read(self, candidates: list, references: list[list], kind: str, first: int):
        """(processed candidate, processed references) of each pair, read when asked for, in input order."""
        cache = kind == "text"
        for k, (cand, refs) in enumerate(zip(candidates, references)):
            at = f"pair {first + k}"
            yield (
                self.doc(cand, False, kind, f"{at}: candidate"),
                [self.doc(r, cache, kind, f"{at}: reference {j + 1}") for j, r in enumerate(refs)],
            )

    def _count_unreadable(
        self,
        candidates: list,
        references: list[list],
        tally: empty.Tally,
        engine_empty: int | None = None,
        engine_non_ascii: int | None = None,
        summaries: int | None = None,
    ) -> None:
        """Count the summaries with words that came out as no tokens (or that the English stemmer cannot stem).

        ``engine_empty``: the engine's count of summaries that came out with no token (None: it did
        not read them all); a text the script's tokenizer cannot read always comes out empty.
        ``engine_non_ascii``: the engine's count of texts holding a character outside ASCII (None: unknown).
        ``summaries``: their number, when the caller counted it."""
        o = self.options
        tally.total += len(candidates) + sum(map(len, references)) if summaries is None else summaries
        if o.tokenizer == "rouge155":  # ASCII text always keeps its letters and digits: only the rest is read
            empty.count_rouge155(
                candidates, references, tally, stem=o.stem, engine_empty=engine_empty, engine_non_ascii=engine_non_ascii
            )
            return
        texts = [empty.as_text(t) for t in candidates]
        texts += [empty.as_text(r) for refs in references for r in refs]
        if not isinstance(o.tokenizer, str):  # a callable may drop words; the built-in ones keep every word
            for text in texts:
                if not self.doc(text, cache=True).tokens and empty.has_words(text):
                    tally.add_empty(text)
        else:  # a script written without spaces that neither the tokenizer nor the preset cuts into words
            runs = empty.unspaced_runs(o.tokenizer, o.lang)
            for text in texts if runs is not None else ():
                found = None if text.isascii() else runs.search(text)
                if found:
                    tally.add_unspaced(found.group())
        if o.stem and not o.lang:  # the script's English stemmer on a Unicode tokenizer
            tally.unstemmed += sum(1 for text in texts if empty.non_latin(text))

    def _check_ids(self) -> None:
        if self.options.lang:
            raise OptionError("lang applies to text only: it cannot be used with token-id inputs")
        p = self.pre
        inputs.check_id_options(stem=p.stem, stopwords=p.stopwords, byte_limit=p.byte_limit, tokenizer=p.tokenizer)
        for m in self.measures:
            if m.family.needs_text:
                raise OptionError(f"{m.name} needs text (its units are parsed from it), not token ids")

    def result(self, data: np.ndarray, ids: Sequence[str] | None = None, bleu_pairs=()) -> RougeResult:
        """The result of per-pair statistics (from :meth:`statistics`, in input order) and BLEU's token
        pairs; its bootstrap (intervals, the 1.5.5 average) runs when first asked for. No pairs is an
        ``InputError`` (the mean of no scores is undefined: never a NaN result)."""
        if not len(data):
            raise InputError(_NO_PAIRS)
        values = {}
        for j, m in enumerate(self.measures):
            if m.family.corpus_needs_tokens:  # corpus BLEU: from every pair's tokens
                values[m.name] = m.family.corpus_value(m, [], bleu_pairs)
            elif m.single_valued:
                col = data[:, j, F]
                values[m.name] = float(pair_sum(col) / len(col))
        return RougeResult(data, self.options, ids, corpus_values=values, signature=self.signature)

    def _row(self, m: Measure, cand: Doc, refs: list[Doc], src: Doc | None) -> tuple:
        if m.single_valued:
            v = self._single(m, cand, refs, src)
            return (np.nan, np.nan, np.nan, v, v, v)
        s = self.score_one_measure(m, cand, refs)
        return (s.model_count, s.hits, s.peer_count, s.recall, s.precision, s.f)

    def _batch(self):
        """The compiled batch scorer the planner chose for these options, or None (readable path)."""
        return self._plan.batch


def _warn_padding(**given) -> None:
    """A :class:`PaddingWarning` when some of ``given`` (by name) are 2-d integer arrays or tensors whose
    rows end in runs of one id (see :func:`rougekit._core.inputs.padding_id`)."""
    found: dict[int, list[str]] = {}
    for name, value in given.items():
        pad = inputs.padding_id(value)
        if pad is not None:
            found.setdefault(pad, []).append(name)
    for pad, names in found.items():
        warnings.warn(
            PaddingWarning(
                f"{' and '.join(names)}: 2-d arrays of token ids whose rows end in runs of id {pad}, counted as "
                f"tokens: if it is padding (or EOS), pass ignore_ids={pad} (e.g. the tokenizer's pad_token_id)"
            ),
            stacklevel=caller_stacklevel(),
        )


def _pair_length(item) -> int:
    """The length of what may be one pair; -1 for a text or a mapping (never a pair) and for what has none."""
    return -1 if isinstance(item, (str, bytes, dict)) else _length(item)


def _length(item) -> int:
    try:
        return len(item)
    except TypeError:
        return -1


def _shown(item) -> str:
    n = _length(item)
    return f"{type(item).__name__} of length {n}" if n >= 0 else type(item).__name__


def _rows_of(data: np.ndarray, whole: np.ndarray, at: int) -> bool:
    """True when ``data`` is ``whole[at : at + len(data)]`` itself (its rows already in place)."""
    return (
        data.dtype == whole.dtype
        and data.shape[1:] == whole.shape[1:]
        and data.flags.c_contiguous
        and data.__array_interface__["data"][0] == whole.__array_interface__["data"][0] + at * whole.strides[0]
    )


def _counted_from(error: Exception, first: int) -> Exception:
    """``error`` with its ``pair k:`` counted from pair ``first`` (a stream's chunk), as the readable path does."""
    found = re.match(r"pair (\d+): ", str(error))
    if first == 1 or not found:
        return error
    return type(error)(f"pair {int(found.group(1)) + first - 1}: {str(error)[found.end() :]}")


_PAIR_NAMED = re.compile(r"pair \d+: ")

_NO_PAIRS = "no pairs to score: candidates and references are empty (a mean of no scores is undefined)"


def _ids_of(ids: Sequence[str] | None, pairs: int) -> list[str] | None:
    """The IDs given with streamed pairs, checked as :meth:`Scorer.score`'s (one a pair)."""
    if ids is None:
        return None
    if isinstance(ids, str):
        raise TypeError("ids: expected a sequence of pair IDs, got a str")
    ids = [_pair_id(i, k) for k, i in enumerate(ids)]
    if len(ids) != pairs:
        raise OptionError(f"{len(ids)} ids for {pairs} pairs")
    return ids


def _pair_id(value, k: int) -> str:
    """A pair ID as text; a missing one (None, NaN, ``pd.NA``) is refused rather than named "None" or "nan"."""
    if inputs.missing(value):
        raise TypeError(f"ids: item {k + 1} is a missing value ({value!r}), not a pair ID")
    text = str(value)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # no output could write it
            raise InputError(f"ids: item {k + 1} holds a lone surrogate (not valid Unicode text)") from None
    return text


def _not_a_string(value, name: str, what: str) -> None:
    """A bare string where a list of summaries is expected would be scored character by character."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be {what}, not a {type(value).__name__}")


def check_keywords(
    options: dict,
    caller: str,
    *,
    named: tuple[str, ...] = (),
    also: tuple[str, ...] = (),
    refused: tuple[str, ...] = (),
) -> None:
    """TypeError naming ``caller`` (the function the user called, not :class:`Scorer` behind it) for a
    keyword that is neither one of :class:`Scorer`'s options nor in ``also`` (the caller's keywords it
    hands on), or is in ``refused`` (an option the caller sets itself). A misspelt one is told the
    nearest of those and of ``named`` (the caller's own keywords)."""
    if not refused and _SCORER_KEYWORDS.issuperset(options):  # every call of score() with good keywords
        return
    allowed = _SCORER_KEYWORDS.union(also).difference(refused)
    for key in options:
        if key not in allowed:
            near = [] if key in refused else difflib.get_close_matches(str(key), sorted(allowed.union(named)), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near and near[0] != key else ""
            raise TypeError(f"{caller}() got an unexpected keyword argument {key!r}{hint}")


def score(
    candidates: Iterable[str],
    references: Iterable,
    *,
    measures=DEFAULT_MEASURES,
    ids: Sequence[str] | None = None,
    sources: Iterable[str] | None = None,
    **options,
) -> RougeResult:
    """Score candidates (first) against references (second): a :class:`~rougekit.results.RougeResult`.

    The defaults count as ROUGE-1.5.5.pl does (``-f A -p 0.5``, intervals by its bootstrap ``-c 95
    -r 1000``): ``per_pair()`` equals ``rougekit rouge155 -d`` on the same texts. Every option below
    is a keyword of :class:`Scorer` too.

    Args:
        candidates: the system summaries, one string each (a summary's sentences are its lines), or
            token ids (a list of ints or a 1-d integer array each).
        references: one entry per candidate: a string, or a list of strings (several references).
        measures: names such as ``"ROUGE-1"``, ``"ROUGE-L"``, ``"ROUGE-W-1.2"``, ``"ROUGE-SU4"``,
            ``"ROUGE-S*"`` (the script's ``-n``, ``-w``, ``-2``, ``-u``); default ROUGE-1, ROUGE-2,
            ROUGE-L. Other packages' names (``rougeLsum``, ``R-1``) are refused with the one to use.
        ids: one id per pair, for the output and the script's ``-t 0`` order (optional).
        sources: the original texts, one per candidate (SumACCY and WSumACCY need them).

    Keyword Args:
        stem: WordNet exceptions and the script's Porter stemmer (``-m``); default False.
        stopwords: remove the SMART stopwords (``-s``); default False.
        word_limit, byte_limit: keep only the first words / bytes of every summary (``-l``, ``-b``).
        multi_ref: ``"sum"`` (``-f A``, default), ``"best"`` (``-f B``), ``"max"`` (best F per pair,
            as rouge-score's ``score_multi``) or ``"jackknife"`` (the paper).
        alpha: the F weight (``-p``); default 0.5.
        average: the corpus number: ``"pairs"`` (mean of per-pair scores, default), ``"tokens"``
            (ratio of summed counts, ``-t 1``) or ``"rouge155"`` (the script's ``-t 0`` average).
        tokenizer: ``"rouge155"`` (the script's, ASCII letters and digits; default), ``"unicode"``,
            ``"cjk"`` or a callable.
        lang: a language preset (tokenizer, segmenter, stemmer and stopwords of the language) by ISO
            639-1 code, English name or XL-Sum name (``"de"``, ``"german"``, ``"chinese_simplified"``);
            not with ``tokenizer``. See docs/languages.md.
        su_unigrams: ``"rouge155"`` (every token but the summary's last) or ``"all"``.
        wlcs: ``"rouge155"`` (the script's ROUGE-W) or ``"paper"``.
        bootstrap: ``"rouge155"`` (the script's seeded resampling, ``-r``/``-c``; default),
            ``"percentile"`` or None (no intervals: faster).
        resamples, confidence, seed: bootstrap settings (2 to 100,000 resamples; 0 < confidence < 100;
            the seed of the percentile bootstrap, recorded in the signature).
        hori_units: units of ACCY, NrstACCY, PREC-n, SumACCY and WSumACCY: ``"word"`` or ``"sentence"``.
        ignore_ids: token ids dropped from every token-id summary before counting (an int or a
            collection of ints): the padding id of a padded batch (a 2-d array, one summary per row),
            an EOS id. Recorded in the signature (``ignore:0``). Text inputs refuse it.
        jobs: threads of the compiled engine (default: every core this process may use); the
            numbers never depend on it.
        fast: False forces the readable pure-Python path (the same numbers).

    Returns:
        A :class:`~rougekit.results.RougeResult`: ``per_pair()``, ``to_dict()``, ``interval()``,
        ``to_pandas()``, ``to_html()`` and the ``signature`` that says how the numbers were made.

    Raises:
        InputError: a text that cannot be scored (names the pair).
        OptionError: a bad option value (names the option and the accepted values).
        TypeError: a container that is not a list of summaries (a bare string, ...).

    Warns:
        EmptyTokensWarning, LettersDroppedWarning, StemmerWarning: summaries the tokenizer or the
        stemmer cannot read as meant (e.g. German under the default tokenizer: pass ``lang="de"``).

    Examples:
        >>> result = score(["police kill the gunman"], [["police killed the gunman"]], measures=["ROUGE-1"])
        >>> result.to_dict()["ROUGE-1"]["f"]
        0.75
    """
    check_keywords(options, "rougekit.score", named=("measures", "ids", "sources"))
    key = _idle_key(measures, options)
    if type(candidates) is list and candidates and type(candidates[0]) is str:
        key = None  # text: its scorer is never kept, so it leaves the idle one to the next call of ids
    scorer = _idle_take(key, options)
    if scorer is None:
        scorer = Scorer(measures, **options)
    result = scorer.score(candidates, references, ids=ids, sources=sources)
    _idle_give(key, scorer)  # (not after an exception: that scorer is dropped)
    return result


#: the options of Scorer (and of score(), beside measures)
_SCORER_KEYWORDS = frozenset(
    p.name for p in inspect.signature(Scorer.__init__).parameters.values() if p.kind is p.KEYWORD_ONLY
)


# Idle scorers of score(), by their options: a call of token ids (an RL reward's step) reuses the
# scorer an earlier call with the same options made, instead of parsing the measures and options and
# making a plan, signature and batch scorer again (~45-100 us a call). Taken out while in use (a
# concurrent call with the same options makes its own), given back only when every summary it ever
# scored was token ids (the engines' reference caches, kept for texts, stay empty: no caller's text
# kept alive) and it runs on at most 16 threads (it holds an engine per thread used: ~0.4 MB each
# after 256 x 1,024 ids, measured by RSS). Its processed-summary cache and vocabulary are emptied when
# given back, as a new scorer's would be, and its engines' id tables once past the pool's bound (a few
# calls of random ids up to 2**31 had grown one to 4 million types, 260 MB); no number depends on them.
_IDLE: dict = {}
_IDLE_LOCK = threading.Lock()
_IDLE_KEYS = 4  # option sets kept (the least recently given back dropped first)
_IDLE_JOBS = 16  # threads of a scorer kept (engines held, with their tables)
_PLAIN = (str, int, float, bool, type(None))


def _idle_key(measures, options: dict) -> tuple | None:
    """The key of score()'s options when they are plain values (measure names, strings, numbers,
    None) that fully determine the scorer; None otherwise (a callable tokenizer, Measure objects)."""
    if type(measures) not in (list, tuple) or not all(type(m) is str for m in measures):
        return None
    items = []
    for name, value in options.items():
        if name == "ignore_ids" and type(value) in (list, tuple) and all(type(v) is int for v in value):
            value = tuple(value)  # (a list of ints: the padding and EOS ids of a reward's every call)
        elif type(value) not in _PLAIN:
            return None
        items.append((name, type(value).__name__, value))  # the type too: True and 1 are equal keys
    return (backend_name(), tuple(measures), tuple(sorted(items)))  # a plan is its backend's


def _idle_take(key, options: dict) -> Scorer | None:
    if key is None:
        return None
    with _IDLE_LOCK:
        scorer = _IDLE.pop(key, None)
    if scorer is not None and options.get("jobs") is None:
        scorer.jobs = available_cores()  # as a new scorer would count them now
    return scorer


def _idle_give(key, scorer: Scorer) -> None:
    if key is None or not scorer._only_ids or scorer.jobs > _IDLE_JOBS:
        return
    if scorer._cache:
        scorer._cache.clear()
    if len(scorer.vocab):
        scorer.vocab = Vocabulary()
    scorer._plan.trim()  # its engines' id tables: at most what the engine pool keeps
    with _IDLE_LOCK:
        _IDLE.pop(key, None)
        _IDLE[key] = scorer  # last: the most recently used
        while len(_IDLE) > _IDLE_KEYS:
            del _IDLE[next(iter(_IDLE))]
