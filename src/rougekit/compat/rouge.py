"""Drop-in for the pltrdy ``rouge`` package 1.0.1 (``from rouge import Rouge, FilesRouge``).

Switch by changing one import::

    # from rouge import Rouge, FilesRouge
    from rougekit.compat.rouge import Rouge, FilesRouge

    scores = Rouge().get_scores(hyps, refs)            # hypothesis FIRST, as in ``rouge``
    averages = Rouge().get_scores(hyps, refs, avg=True)

The numbers are those of ``rouge`` 1.0.1 to the last float bit (the tests compare with the
installed package), with its text handling and its counting, which is not ROUGE-1.5.5's:

* sentences: the text split on ``"."``, empty pieces dropped, runs of whitespace in a piece
  joined by one space; words: each sentence split on ``" "`` (a blank piece, as in
  ``"a. . b"``, gives one empty word). No lower-casing, no stemming, punctuation other than
  ``"."`` stays in the words;
* ``exclusive=True`` (the default): n-grams and words are *sets*, so a repeated n-gram
  counts once (the engine's ``ROUGE-<n>-DISTINCT`` and ``ROUGE-L-DISTINCT``, see
  ``docs/measures/distinct.md``); ``exclusive=False``: ROUGE-N is the usual clipped count;
* ``rouge-l``: one LCS per reference sentence and hypothesis sentence; with ``exclusive``
  the hits are the distinct words of all those LCSs together, without it the sum of their
  lengths (so it can exceed the number of words). R = hits / reference words,
  P = hits / hypothesis words;
* F = ``2 * (P * R / (P + R + 1e-8))`` for every metric; P (R) is 0.0 when the hypothesis
  (reference) has no n-gram.

Counting runs through rougekit's engine (the registry's measures: with ``exclusive`` every metric
of a pair in one kernel call, :func:`rougekit.measures.pair.kind_counts`; without it
:func:`rougekit.scoring.reference_stats`); only this text handling and the F formula live here.

Errors are ``rouge``'s: ``AssertionError`` when ``hyps`` is not an instance of the type of ``refs``
(a list with a tuple, a numpy array with a list) or the lengths differ; ``AttributeError`` for a
text that is not a string; ``ValueError`` for a text with no sentence or when ``ignore_empty``
leaves no pair; ``ZeroDivisionError`` for ``avg=True`` over no pair. With ``ignore_empty=True``,
``rouge`` pairs the lists with ``zip``, so the longer one is cut to the shorter silently: this
module returns the same numbers and says so with a
:class:`~rougekit.compat.torchmetrics.DroppedInputWarning`.

The one difference: pltrdy's recursive LCS trace-back dies (``RecursionError``) on sentences of
about a thousand words; this module scores them.
"""

from __future__ import annotations

import io
import os
from itertools import chain

from rougekit.compat._dropped import DroppedInputWarning, warn_dropped
from rougekit.engine.door import Doc, kind_counts, lcs_hits, reference_stats
from rougekit.measures import Measure
from rougekit.text.intern import interner

__all__ = ["Rouge", "FilesRouge", "DroppedInputWarning"]

_ROUGE_L_DISTINCT = Measure.parse("ROUGE-L-DISTINCT")
_DISTINCT = {n: Measure.parse(f"ROUGE-{n}-DISTINCT") for n in range(1, 6)}  # rouge-1 .. rouge-5
_ORDERS = {n: Measure.rouge_n(n) for n in range(1, 6)}


class Rouge:
    """ROUGE as the pltrdy ``rouge`` package 1.0.1 computes it.

    Args:
        metrics: names among ``AVAILABLE_METRICS`` (case ignored); default
            ``["rouge-1", "rouge-2", "rouge-l"]``. An unknown name raises ``ValueError``.
        stats: among ``"r"``, ``"p"``, ``"f"`` (case ignored), in the order the results
            list them; default ``["r", "p", "f"]``. An unknown one raises ``ValueError``.
        return_lengths: add ``"lengths": {"hyp": words, "ref": words}`` to each result.
        raw_results: the counts ``{"hyp", "ref", "overlap"}`` (ints) instead of R/P/F
            (``stats`` is then ignored; with ``avg=True`` this raises ``KeyError``, as ``rouge``).
        exclusive: count n-grams and words as sets (the default, as ``rouge``).
    """

    DEFAULT_METRICS = ["rouge-1", "rouge-2", "rouge-l"]
    #: metric name -> n of ROUGE-N, or "l"
    AVAILABLE_METRICS = {"rouge-1": 1, "rouge-2": 2, "rouge-3": 3, "rouge-4": 4, "rouge-5": 5, "rouge-l": "l"}
    DEFAULT_STATS = ["r", "p", "f"]
    AVAILABLE_STATS = ["r", "p", "f"]

    def __init__(self, metrics=None, stats=None, return_lengths=False, raw_results=False, exclusive=True):
        self.return_lengths = return_lengths
        self.raw_results = raw_results
        self.exclusive = exclusive
        self.metrics = _chosen(metrics, Rouge.DEFAULT_METRICS, Rouge.AVAILABLE_METRICS, "metric")
        if raw_results:
            self.stats = ["hyp", "ref", "overlap"]
        else:
            self.stats = _chosen(stats, Rouge.DEFAULT_STATS, Rouge.AVAILABLE_STATS, "stat")

    def get_scores(self, hyps, refs, avg=False, ignore_empty=False):
        """Scores of each hypothesis against the reference at the same index (hypothesis first).

                ``hyps`` and ``refs`` are two strings (one pair) or two sequences of strings of the same
                type and length (``AssertionError`` otherwise, as ``rouge``; a list and a tuple are two
                types). Returns a list of
                ``{metric: {stat: value}}`` dicts, or with ``avg=True`` one dict of the means
                (``ZeroDivisionError`` when there is no pair). ``ignore_empty`` drops the pairs where
                either string is empty (``ValueError`` if none is left); it pairs the lists as ``rouge`` does, with
        ``zip``, so the longer list is cut to the shorter (a ``DroppedInputWarning`` says so). A hypothesis or reference
                with no sentence (``""``, ``"..."``) raises ``ValueError`` as in ``rouge``.
        """
        if isinstance(hyps, str):
            hyps, refs = [hyps], [refs]
        if ignore_empty:  # as rouge: zip (the longer list is cut), then zip(*kept) makes two tuples
            hyps, refs = list(hyps), list(refs)
            kept = [(h, r) for h, r in zip(hyps, refs) if len(h) > 0 and len(r) > 0]
            if len(hyps) != len(refs):
                shorter = min(len(hyps), len(refs))
                longer = "hypotheses" if len(hyps) > len(refs) else "references"
                warn_dropped(
                    "rouge 1.0.1 with ignore_empty=True",
                    [f"{len(hyps)} hypotheses but {len(refs)} references: {longer} {shorter} on (counted from 0)"],
                    stacklevel=2,
                )
            if not kept:
                raise ValueError("get_scores(ignore_empty=True): every pair has an empty hypothesis or reference")
            hyps = tuple(h for h, _ in kept)
            refs = tuple(r for _, r in kept)
        if not isinstance(hyps, type(refs)):
            raise AssertionError(
                f"get_scores: hyps is a {type(hyps).__name__} but refs a {type(refs).__name__} "
                "(rouge asserts that hyps is an instance of refs' type)"
            )
        if len(hyps) != len(refs):
            raise AssertionError(f"get_scores: {len(hyps)} hypotheses but {len(refs)} references")
        if avg:
            return self._average(hyps, refs)
        results = []
        for hyp, ref in zip(hyps, refs):
            result = self._pair(hyp, ref, self.raw_results)
            if self.return_lengths:
                result["lengths"] = {"hyp": _length(_sentences(hyp)), "ref": _length(_sentences(ref))}
            results.append(result)
        return results

    # ------------------------------------------------------------------ internals

    def _pair(self, hyp, ref, raw):
        """One pair's ``{metric: {stat: value}}``, metrics and stats in the order asked."""
        ids = interner({}, skip_empty=False)
        hyp_doc, ref_doc = _doc(_sentences(hyp), ids), _doc(_sentences(ref), ids)
        result = {}
        counts = None
        if self.exclusive:  # every metric of the pair in one call: (hits, ref count, hyp count) each
            which = [Rouge.AVAILABLE_METRICS[metric] for metric in self.metrics]
            measures = [_ROUGE_L_DISTINCT if w == "l" else _DISTINCT[w] for w in which]
            counts = kind_counts(hyp_doc.tokens, ref_doc.tokens, measures, hyp_doc.sentences, ref_doc.sentences)
        for k, metric in enumerate(self.metrics):
            found = counts[3 * k : 3 * k + 3] if counts is not None else None
            values = _metric(Rouge.AVAILABLE_METRICS[metric], hyp_doc, ref_doc, self.exclusive, raw, found)
            result[metric] = {stat: values[stat] for stat in self.stats}  # raw stats of R/P/F: KeyError
        return result

    def _average(self, hyps, refs):
        """Means over the pairs, each summed in pair order starting from int 0 (as ``rouge``)."""
        totals = {metric: {stat: 0 for stat in self.stats} for metric in self.metrics}
        hyp_words = ref_words = count = 0
        for hyp, ref in zip(hyps, refs):
            scores = self._pair(hyp, ref, raw=False)  # with raw_results: KeyError, as ``rouge``
            for metric in self.metrics:
                totals[metric] = {stat: totals[metric][stat] + scores[metric][stat] for stat in self.stats}
            if self.return_lengths:
                hyp_words += _length(_sentences(hyp))
                ref_words += _length(_sentences(ref))
            count += 1
        means = {metric: {stat: totals[metric][stat] / count for stat in self.stats} for metric in self.metrics}
        if self.return_lengths:
            means["lengths"] = {"hyp": hyp_words / count, "ref": ref_words / count}
        return means


class FilesRouge:
    """``Rouge`` over two files of one text per line (arguments as :class:`Rouge`)."""

    def __init__(self, *args, **kwargs):
        self.rouge = Rouge(*args, **kwargs)

    def get_scores(self, hyp_path, ref_path, avg=False, ignore_empty=False):
        """Scores of line i of ``hyp_path`` against line i of ``ref_path`` (hypothesis file first).

        As ``rouge``: the files must exist and have the same number of lines
        (``AssertionError`` naming them otherwise); they are read as UTF-8 text and the last
        character of every line is dropped (its newline, or its last character on a last line
        without one).
        """
        for path in (hyp_path, ref_path):
            if not os.path.isfile(path):
                raise AssertionError(f"{path}: no such file")
        hyp_lines, ref_lines = _binary_line_count(hyp_path), _binary_line_count(ref_path)
        if hyp_lines != ref_lines:
            raise AssertionError(f"{hyp_path} has {hyp_lines} lines but {ref_path} has {ref_lines}")
        hyps, refs = _read_lines(hyp_path), _read_lines(ref_path)
        return self.rouge.get_scores(hyps, refs, avg=avg, ignore_empty=ignore_empty)


def _chosen(names, default: list, available, what: str) -> list:
    """``names`` lower-cased (``default`` when None), each one of ``available``: pltrdy's check, and
    its ``ValueError("Unknown metric 'x'")`` (or ``stat``)."""
    if names is None:
        return list(default)
    chosen = [name.lower() for name in names]
    for name in chosen:
        if name not in available:
            raise ValueError("Unknown %s '%s'" % (what, name))
    return chosen


def _binary_line_count(path) -> int:
    with open(path, "rb") as handle:
        return sum(1 for _ in handle)


def _read_lines(path) -> list:
    with io.open(path, encoding="utf-8", mode="r") as handle:  # universal newlines, as ``rouge``
        return [line[:-1] for line in handle]


def _sentences(text) -> list:
    """``rouge``'s sentences: pieces between dots, whitespace runs joined by one space."""
    return [" ".join(piece.split()) for piece in text.split(".") if len(piece) > 0]


def _length(sentences) -> int:
    """``rouge``'s lengths: the non-empty words."""
    return len(" ".join(sentences).split())


def _doc(sentences, ids) -> Doc:
    """Words (``sentence.split(" ")``, empty ones kept) interned to ids by ``ids`` (:func:`interner`)."""
    sentence_ids = [ids(sentence.split(" ")) for sentence in sentences]
    return Doc(list(chain.from_iterable(sentence_ids)), sentence_ids)


def _metric(which, hyp: Doc, ref: Doc, exclusive: bool, raw: bool, found=None) -> dict:
    """One metric of one pair: ``{"hyp", "ref", "overlap"}`` counts, or ``{"f", "p", "r"}``;
    ``found``: its ``(hits, ref count, hyp count)`` when ``exclusive`` (:func:`kind_counts`)."""
    if which == "l":
        if not hyp.sentences or not ref.sentences:
            raise ValueError("Collections must contain at least 1 sentence.")
    elif not hyp.sentences:
        raise ValueError("Hypothesis is empty.")
    elif not ref.sentences:
        raise ValueError("Reference is empty.")
    if exclusive:
        overlap, ref_count, hyp_count = found
    elif which == "l":
        overlap = 0
        for ref_sentence in ref.sentences:
            for hyp_sentence in hyp.sentences:
                overlap += _lcs_length(hyp_sentence, ref_sentence)
        hyp_count, ref_count = len(hyp.tokens), len(ref.tokens)
    else:
        stats = reference_stats(_ORDERS[which], hyp, ref)
        hyp_count, ref_count, overlap = stats.peer_count, stats.model_count, stats.hits
    hyp_count, ref_count, overlap = int(hyp_count), int(ref_count), int(overlap)
    if raw:
        return {"hyp": hyp_count, "ref": ref_count, "overlap": overlap}
    precision = overlap / hyp_count if hyp_count else 0.0
    recall = overlap / ref_count if ref_count else 0.0
    return {"f": 2.0 * ((precision * recall) / (precision + recall + 1e-8)), "p": precision, "r": recall}


def _lcs_length(a: list, b: list) -> int:
    """The engine's LCS length of two word-id sequences (ROUGE-L with one sentence each side)."""
    return lcs_hits([a], [b], a, b)
