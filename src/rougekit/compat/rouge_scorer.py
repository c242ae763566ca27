"""Drop-in for ``rouge_score.rouge_scorer`` (Google's rouge-score 0.1.2).

Switch by changing one import::

    # from rouge_score import rouge_scorer, scoring
    from rougekit.compat import rouge_scorer, scoring

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"],
                                      use_stemmer=True)
    scores = scorer.score(target, prediction)   # reference FIRST, as in rouge-score

**Argument order.** ``score(target, prediction)`` takes the *reference first*,
exactly as rouge-score does, so existing code keeps working.  rougekit's own API
is the other way round (candidates first); do not mix the two up.

The numbers are those of rouge-score 0.1.2 (the test suite checks equality to
1e-12 on thousands of pairs; they are in fact bit-identical):

* tokens: lower-case, non-``[a-z0-9]`` to spaces, split, and with
  ``use_stemmer=True`` NLTK's default Porter variant on tokens longer than three
  characters (:mod:`rougekit.compat._tokenize`, :mod:`rougekit.compat._porter_nltk`);
* ``rougeN`` (``rouge1`` .. ``rouge9``): clipped n-gram overlap; precision
  ``hits / max(#prediction n-grams, 1)``, recall ``hits / max(#target n-grams, 1)``;
* ``rougeL``: longest common subsequence of the two whole token sequences
  (newlines ignored); all zeros if either side has no token;
* ``rougeLsum``: summary-level LCS over sentences.  Sentences are the lines
  of the text (split on ``"\\n"``, empty lines dropped).  For each target
  sentence, one LCS with every prediction sentence is traced and the target
  positions are united; the tokens at the united positions, left to right,
  count as hits while both the target's and the prediction's remaining counts
  of that token are positive (each hit decrements both).  recall = hits /
  #target tokens, precision = hits / #prediction tokens;
* F-measure ``2 * p * r / (p + r)``, or ``0.0`` when ``p + r == 0``.

The ROUGE-1.5.5 differences of rouge-score are kept on purpose (no ``-m``
WordNet exceptions, its own stemmer and tokenizer, LCS tie-breaking that matches
the Perl script's trace-back).  Use rougekit's own API for ROUGE-1.5.5.pl numbers.

**split_summaries.** With ``split_summaries=True``, rouge-score splits each text
for ``rougeLsum`` with ``nltk.sent_tokenize`` (Punkt), whatever newlines it has.
rougekit must not depend on nltk, so it uses a small rule-based splitter
instead (:func:`rougekit.compat._tokenize.split_sentences`).  It agrees with
Punkt on ordinary prose, but **rougeLsum with split_summaries=True may differ
from rouge-score** where the two splitters disagree (abbreviations, initials,
numbers, ellipses).  Without ``split_summaries`` the numbers are exact.

Implementation: with the default tokenizer, a text's tokens (and its rougeLsum sentences) are
interned once to ints from one vocabulary kept by the scorer and remembered by text (the last
4,096 texts used; the vocabulary starts afresh past 2**21 distinct tokens); each pair
is counted by one engine call (:func:`rougekit.measures.pair.pair_counts`: the ROUGE-N and ROUGE-L
kernels of the measures without their per-call setup; a custom tokenizer goes through
:func:`~rougekit.measures.ngram.ngram_counts` and :func:`~rougekit.measures.lcs.lcs_hits` per type). The union
LCS traces the same LCS as rouge-score (a match goes diagonal; otherwise "up" --
drop the target token -- wins ties), and its count clipping is rouge-score's, so its
hits are rouge-score's. With a single sentence on each side the union of one LCS is
that LCS, whose tokens are never clipped, so the same measure gives the plain LCS
length for rougeL. The tests hold the engine to rouge-score's own functions.
"""

from __future__ import annotations

import functools
import gc
import re
from contextlib import contextmanager
from itertools import chain, repeat
from typing import Dict, Iterable, List, Optional, Sequence

from rougekit import limits
from rougekit.engine.door import (
    SEQUENCE_LCS,
    Kind,
    available_cores,
    inputs,
    kernel_spec,
    lcs_hits,
    ngram_counts,
    pair_counts,
    plan,
)
from rougekit.measures import Measure
from rougekit.text.intern import interner

from . import scoring, tokenizers  # noqa: F401  (rouge_score.rouge_scorer.tokenizers)
from ._tokenize import DefaultTokenizer, Tokenizer, line_tokens, lowered_text, split_sentences, tokenize
from .scoring import Score

__all__ = [
    "RougeScorer",
    "Score",
    "Tokenizer",
    "DefaultTokenizer",
    "tokenize",
]

_ROUGE_N = re.compile(r"rouge[0-9]$")  # as rouge-score: re.match, so "rouge1\n" passes too
_CACHE_SIZE = 1 << 12  # texts whose token ids a scorer remembers (about 16 bytes per token each)
_VOCAB_LIMIT = 1 << 21  # distinct tokens a scorer numbers before it starts afresh


def parse_type(name):
    """rouge-score's reading of one type name, the one parser of compat's rouge types: its n (an int,
    0 to 9) for ``"rouge0"`` .. ``"rouge9"``, ``"L"`` for ``"rougeL"``, ``"Lsum"`` for ``"rougeLsum"``,
    None for anything else. As rouge-score's ``re.match``, ``"rouge1\\n"`` is rouge1."""
    if name == "rougeL":
        return "L"
    if name == "rougeLsum":
        return "Lsum"
    if isinstance(name, bytes):  # six.ensure_str's reading, for the order's pattern only (b"rouge1")
        name = name.decode("utf-8")
    elif not isinstance(name, str):
        raise TypeError(f"not expecting type '{type(name)}'")  # six.ensure_str's error
    if _ROUGE_N.match(name):
        return int(name[5:])
    return None


def _all_str(texts: Sequence) -> bool:
    """True when every text is a str (what the compiled batch reads); bytes and others go one by one."""
    return set(map(type, texts)) <= {str}


class RougeScorer(scoring.BaseScorer):
    """ROUGE scores of a prediction against a target, exactly as rouge-score 0.1.2.

    Args:
        rouge_types: the score types to compute: ``"rouge1"`` .. ``"rouge9"``,
            ``"rougeL"``, ``"rougeLsum"``.  An unknown type raises
            ``ValueError`` when scoring (as in rouge-score).
        use_stemmer: stem tokens longer than three characters with NLTK's
            default Porter stemmer variant (re-implemented; nltk is not needed).
            Ignored when ``tokenizer`` is given.
        split_summaries: for ``rougeLsum``, split the texts into sentences with
            a rule-based splitter instead of on newlines.  rouge-score uses
            ``nltk.sent_tokenize`` here, so results **may differ** from
            rouge-score for this option (see the module documentation).
        tokenizer: an object with a ``tokenize(text)`` method returning a list
            of hashable tokens, used instead of the default tokenizer.

    ``score(target, prediction)`` takes the reference *first* (rouge-score's
    order; rougekit's own API is candidates-first).
    """

    def __init__(self, rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None):
        self.rouge_types = rouge_types
        if tokenizer:
            self._tokenizer = tokenizer
        else:
            self._tokenizer = DefaultTokenizer(use_stemmer)
        self._split_summaries = split_summaries
        self._batch = None  # the compiled batch scorer, made on the first score_batch (False: none fits)
        # token ids by text, from one vocabulary kept by the scorer, with the default tokenizer (a
        # user's tokenizer may not be a pure function of the text)
        self._vocab: dict = {}
        self._ids = interner(self._vocab)
        self._cached_ids = functools.lru_cache(maxsize=_CACHE_SIZE)(self._ids_of) if not tokenizer else None

    # ------------------------------------------------------------------ public API

    def score(self, target, prediction) -> Dict[str, Score]:
        """Scores of ``prediction`` against ``target`` (reference first!).

        Returns ``{rouge_type: Score(precision, recall, fmeasure)}`` in the
        order of ``rouge_types``.
        """
        return self._score(target, prediction, None)

    def score_multi(self, targets: Iterable, prediction) -> Dict[str, Score]:
        """Scores against several targets: per type, the target with the highest F-measure.

        Ties go to the first such target; an empty ``targets`` raises ``ValueError``.
        """
        cache: dict = {}
        per_target = [self._score(t, prediction, cache) for t in targets]
        if not per_target:
            raise ValueError("score_multi needs at least one target")
        best = {}
        for rouge_type in self.rouge_types:
            chosen = per_target[0][rouge_type]
            for scores in per_target[1:]:
                if scores[rouge_type].fmeasure > chosen.fmeasure:
                    chosen = scores[rouge_type]
            best[rouge_type] = chosen
        return best

    def score_batch(self, targets: Sequence, predictions: Sequence, jobs: int | None = None) -> List[Dict[str, Score]]:
        """``[self.score(t, p) for t, p in zip(targets, predictions)]``, computed in one compiled call.

        Reference first, as :meth:`score` (and rouge-score-rs's ``score_batch``). With the default
        tokenizer and ``split_summaries=False`` the pairs are tokenized, stemmed and scored in C on
        ``jobs`` threads (default: every core this process may use), with the same numbers as
        :meth:`score`; otherwise (a custom tokenizer, ``split_summaries``, no compiled kernels)
        pairs are scored one by one.
        """
        targets, predictions = inputs.summaries(targets, "targets"), inputs.summaries(predictions, "predictions")
        if len(targets) != len(predictions):
            raise ValueError(f"{len(targets)} targets but {len(predictions)} predictions")
        batch = self._batch_scorer()
        if batch is None or not _all_str(targets) or not _all_str(predictions):
            # one by one: a list or None as a text raises what rouge-score's score raises
            return [self.score(t, p) for t, p in zip(targets, predictions)]
        import numpy as np

        counts = engine_counts(batch, predictions, targets, jobs or available_cores())
        make = tuple.__new__  # Score(*v) without the namedtuple's Python-level __new__
        columns = []
        with _gc_paused():  # hundreds of thousands of new containers, none of them cyclic
            for j, measure in enumerate(batch.measures):
                tgt_n, pred_n = counts[:, j, 0], counts[:, j, 2]
                lcs = kernel_spec(measure).kind in (Kind.L, Kind.LSEQ)
                precision, recall, f = scoring.prf_arrays(counts[:, j, :3], lcs)
                column = list(map(make, repeat(Score), zip(precision.tolist(), recall.tolist(), f.tolist())))
                if lcs:  # an empty side: rouge-score's Score(0, 0, 0), with int zeros (not 0.0)
                    for i in np.flatnonzero((tgt_n == 0) | (pred_n == 0)).tolist():
                        column[i] = Score(0, 0, 0)
                columns.append(column)
            return list(map(dict, map(zip, repeat(list(self.rouge_types)), zip(*columns))))

    def _batch_scorer(self):
        """The compiled batch scorer for these options, or None when the pairs must go one by one."""
        if self._batch is not None:
            return self._batch or None
        self._batch = False
        if self._split_summaries or type(self._tokenizer) is not DefaultTokenizer:
            return None
        if isinstance(self.rouge_types, str) or not self.rouge_types:
            return None
        read = _read_types(self.rouge_types)  # None: an invalid type, whose error score() raises
        if read is None or any(isinstance(what, int) and name != f"rouge{what}" for name, what in read):
            return None  # ("rouge1\n": one by one)
        kinds = {"L": SEQUENCE_LCS, "Lsum": Measure.parse("ROUGE-L")}
        measures = [kinds[what] if isinstance(what, str) else Measure.rouge_n(what) for _, what in read]
        self._batch = plan(measures, stem=self._tokenizer._use_stemmer, **ENGINE_OPTIONS).batch or False
        return self._batch or None

    # ------------------------------------------------------------------ internals

    def _sentences(self, text) -> List[str]:
        if not isinstance(text, (str, bytes)):  # as rouge-score's six.ensure_str
            raise TypeError(f"not expecting type '{type(text)}'")
        if self._split_summaries:
            sents = split_sentences(text.decode("utf-8") if isinstance(text, bytes) else text)
        else:
            sents = (text.decode("utf-8") if isinstance(text, bytes) else text).split("\n")
        return [s for s in sents if s]

    def _ids_of(self, text: str) -> tuple:
        """``(token ids, rougeLsum sentences as token ids)`` of a str ``text`` (default tokenizer)."""
        ids = self._ids
        if self._split_summaries:
            tokenize_ = self._tokenizer.tokenize
            return ids(tokenize_(text)), tuple(map(ids, map(tokenize_, self._sentences(text))))
        sentences = tuple(map(ids, line_tokens(text, self._tokenizer._use_stemmer)))
        # the lines' tokens joined are the text's (_tokenize.line_tokens)
        return (sentences[0] if len(sentences) == 1 else tuple(chain.from_iterable(sentences))), sentences

    def _score(self, target, prediction, cache) -> Dict[str, Score]:
        """``score`` with an optional per-prediction cache (used by ``score_multi``)."""
        if self._cached_ids is not None and type(target) is str and type(prediction) is str:
            counted = plan_of(self.rouge_types)
            if counted is not None:  # (an invalid type: its error below, where rouge-score raises it)
                if len(self._vocab) > _VOCAB_LIMIT:
                    self._vocab = {}
                    self._ids = interner(self._vocab)
                    self._cached_ids.cache_clear()
                tgt, tgt_sents = self._cached_ids(target)
                pred, pred_sents = self._cached_ids(prediction)
                orders, lcs, lsum, entries = counted
                counts = pair_counts(pred, tgt, orders, lcs, pred_sents if lsum else None, tgt_sents if lsum else None)
                return scores_of_plan(entries, counts)
        rouge_types = self.rouge_types
        tokenize_ = self._tokenizer.tokenize
        ids = interner({}, skip_empty=False)  # a user's tokens: every one counts, as in rouge-score

        # Prediction tokens are the same for every target of score_multi: tokenize once.
        def pred_tokens():
            if cache is None:
                return tokenize_(prediction)
            if "tokens" not in cache:
                cache["tokens"] = tokenize_(prediction)
            return cache["tokens"]

        def pred_sent_tokens():
            if cache is None:
                return [tokenize_(s) for s in self._sentences(prediction)]
            if "sents" not in cache:
                cache["sents"] = [tokenize_(s) for s in self._sentences(prediction)]
            return cache["sents"]

        only_lsum = len(rouge_types) == 1 and rouge_types[0] == "rougeLsum"
        if not only_lsum:
            tgt = ids(tokenize_(target))
            pred = ids(pred_tokens())
        result: Dict[str, Score] = {}
        for rouge_type in rouge_types:
            what = parse_type(rouge_type)
            if what == "L":
                hits = lcs_hits([pred], [tgt], pred, tgt) if tgt and pred else 0
                result[rouge_type] = scoring.score_of_counts(hits, len(tgt), len(pred), lcs=True)
            elif what == "Lsum":
                tgt_sents = [ids(s) for s in (tokenize_(x) for x in self._sentences(target))]
                pred_sents = [ids(s) for s in pred_sent_tokens()]
                result[rouge_type] = summary_lcs_score(tgt_sents, pred_sents)
            else:
                _check_order(rouge_type, what)
                result[rouge_type] = scoring.score_of_counts(*ngram_counts(pred, tgt, what))
        return result


def _plan(rouge_types) -> Optional[tuple]:
    """What :func:`rougekit.measures.pair.pair_counts` counts for ``rouge_types`` -- ``(orders, lcs,
    lsum, entries)``, ``entries`` being ``(type, offset of its counts, an LCS?)`` -- or None when a
    type is invalid (rouge-score's ``re.match``: ``"rouge1\\n"`` is rouge1)."""
    named = _read_types(rouge_types)
    if named is None:
        return None
    orders = list(dict.fromkeys(what for _, what in named if isinstance(what, int)))
    lcs = any(what == "L" for _, what in named)
    lsum = any(what == "Lsum" for _, what in named)
    at = {n: 3 * i for i, n in enumerate(orders)}
    at["L"] = 3 * len(orders)
    at["Lsum"] = 3 * len(orders) + 3 * lcs
    entries = tuple((rouge_type, at[what], isinstance(what, str)) for rouge_type, what in named)
    return tuple(orders), lcs, lsum, entries


def _read_types(rouge_types) -> Optional[list]:
    """``[(type, what it counts)]`` (:func:`parse_type`) or None when a type is not one rougekit
    counts (invalid, or an order outside 1 to ``limits.MAX_ORDER``)."""
    read = []
    for name in rouge_types:
        what = parse_type(name)
        if what is None or (isinstance(what, int) and not 1 <= what <= limits.MAX_ORDER):
            return None
        read.append((name, what))
    return read


def plan_of(rouge_types) -> Optional[tuple]:
    """:func:`_plan` of ``rouge_types``, remembered for lists and tuples of hashable type names."""
    if type(rouge_types) is not list and type(rouge_types) is not tuple:
        return _plan(rouge_types)
    key = tuple(rouge_types)
    try:
        return _remembered_plan(key)
    except TypeError:  # an unhashable "type": planned each time (it is invalid: None)
        return _plan(key)


@functools.lru_cache(maxsize=256)
def _remembered_plan(key: tuple) -> Optional[tuple]:
    return _plan(key)


def scores_of_plan(entries, counts) -> Dict[str, Score]:
    """rouge-score's Scores from :func:`rougekit.measures.pair.pair_counts`'s (hits, model count, peer
    count) triples (:func:`rougekit.compat.scoring.score_of_counts`)."""
    score = scoring.score_of_counts
    return {rouge_type: score(counts[j], counts[j + 1], counts[j + 2], lcs) for rouge_type, j, lcs in entries}


@contextmanager
def _gc_paused():
    """Pause the cyclic garbage collector (if it runs) while many acyclic objects are built."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def raise_invalid_type(rouge_types) -> None:
    """Raise the error rouge-score raises for the first invalid type of ``rouge_types`` (the types
    before it are counted there first, which nothing can observe); return when none is invalid."""
    for name in rouge_types:
        what = parse_type(name)
        if what not in ("L", "Lsum"):
            _check_order(name, what)


def _check_order(name, n) -> None:
    """rouge-score's error for the type ``name`` read as ``n`` by :func:`parse_type` when it is not a
    ROUGE-N order rougekit counts (1 to ``limits.MAX_ORDER``): an invalid type, n <= 0, or too high."""
    if n is None:
        raise ValueError("Invalid rouge type: %s" % name)
    if n <= 0:
        raise ValueError("rougen requires positive n: %s" % name)
    if n > limits.MAX_ORDER:
        Measure.rouge_n(n)  # its one-line error


def summary_lcs_score(tgt_sents: List[Sequence[int]], pred_sents: List[Sequence[int]]) -> Score:
    """rouge-score's rougeLsum of one pair, its sentences as token ids (target first): the union LCS."""
    tgt_flat = [t for s in tgt_sents for t in s]
    pred_flat = [t for s in pred_sents for t in s]
    hits = lcs_hits(pred_sents, tgt_sents, pred_flat, tgt_flat) if tgt_flat and pred_flat else 0
    return scoring.score_of_counts(hits, len(tgt_flat), len(pred_flat), lcs=True)


#: rouge-score's (precision, recall, F) arrays of (target count, hits, prediction count) rows
prf_of_counts = scoring.prf_arrays


# the batch engine's options for rouge-score's text handling: its lower-casing (str.lower, the
# Kelvin sign becomes "k"), its [a-z0-9] tokens and NLTK's Porter when stemming
ENGINE_OPTIONS = dict(stemmer="nltk", lowercase="unicode", to_text=lowered_text)


def engine_counts(batch, predictions: list, targets: list, jobs: int, *args):
    """``batch.score_arrays`` of texts read as rouge-score reads them; ``batch`` made with
    :data:`ENGINE_OPTIONS` (in that mode the engine reads a lone surrogate as a separator, as
    rouge-score's tokenizer reads any character outside ``[a-z0-9]``)."""
    return batch.score_arrays(predictions, targets, jobs, *args)
