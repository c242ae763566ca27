"""N-gram co-occurrence measures of Lin & Hovy (2003), and the BLEU they start from.

Source: Chin-Yew Lin and Eduard Hovy, "Automatic Evaluation of Summaries Using
N-gram Co-Occurrence Statistics", HLT-NAACL 2003. Formulas, choices and worked
examples: docs/measures/ngram.md and docs/measures/bleu.md.

Everything here is a pure function over already tokenized text: a *candidate* (the
peer summary or translation) is a sequence of hashable tokens, a *reference* (a model
summary, a model unit or a reference translation) is another such sequence.

* :func:`ngram_coverage` -- ``C_n`` of eq. (5): clipped n-gram matches divided by the
  number of n-grams **on the reference (model) side**.  Despite being introduced "by
  analogy" with BLEU's precision, ``C_n`` is a *recall* measure (the paper says so in
  the paragraph after eq. 5).
* :func:`ngram_cooccurrence_precisions` -- the tuple ``(C_i, ..., C_j)``; the name
  follows the paper's "n-gram co-occurrence" vocabulary, the values are the recall-like
  ``C_n`` above.
* :func:`ngram_score` -- ``Ngram(i, j) = BB * exp(sum_n w_n log C_n)`` of eq. (6).
* :func:`sentence_bleu` and :func:`bleu` -- BLEU of eqs. (2)-(4), for one candidate and
  for a corpus.

Zero counts
-----------
``log 0`` is taken as ``-inf`` with a positive weight, so any ``C_n = 0`` (or ``p_n = 0``)
with ``w_n > 0`` makes the geometric mean -- and the score -- exactly ``0.0``.  That is the
paper's own reading: in §4.1 a candidate with trigram and 4-gram scores of 0 gets a
weighted average n-gram score of 0.  A ratio whose denominator is 0 (no n-grams of that
order on the side that forms the denominator) is defined as ``0.0``.  A weight of ``0``
removes its order from the product, even when that order's ratio is 0.  No smoothing is
applied anywhere.

The registry families ``Bleu`` and ``NgramCooccurrence`` (one value per pair, on the
processed tokens) are at the end; the corpus BLEU is computed from every pair's tokens
(``corpus_needs_tokens``), not as a mean of pair values. ``rougekit.metrics.lin_hovy`` is
the same functions under their documented older path.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass

from rougekit import limits
from rougekit.errors import InputError, OptionError
from rougekit.limits import shown
from rougekit.measures.base import Family, Measure
from rougekit.measures.registry import register

__all__ = [
    "BleuScore",
    "bleu",
    "brevity_penalty",
    "ngram_counts",
    "ngram_coverage",
    "ngram_cooccurrence_precisions",
    "ngram_score",
    "sentence_bleu",
]

Tokens = Sequence[Hashable]


def _tokens(value, name: str, func: str):
    """``value`` when it is a sequence of tokens; a str (or bytes) is refused: it would be read as
    its characters (``ngram_coverage("a b", ...)`` counted character bigrams)."""
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"{func}: {name} is a {type(value).__name__}; give a sequence of tokens (for example text.split()),"
            " not the text itself, which would be read as its characters"
        )
    return value


def _token_lists(references, name: str, func: str) -> list:
    """``references`` as a list of token sequences, each checked by :func:`_tokens`."""
    _tokens(references, name, func)
    return [_tokens(r, f"{name}[{k}]", func) for k, r in enumerate(references)]


def ngram_counts(tokens: Tokens, n: int, stopwords: Collection[Hashable] | None = None) -> Counter:
    """Multiset of the contiguous n-grams of ``tokens`` (as tuples).

    With ``stopwords``, an n-gram that contains any stopword is *dropped*; the tokens
    are not removed first, so no n-gram is formed across a removed stopword.  This is
    what reproduces the numbers of Lin & Hovy (2003) §4.1 (see :func:`ngram_coverage`).

    >>> sorted(ngram_counts(["a", "b", "a", "b"], 2).items())
    [(('a', 'b'), 2), (('b', 'a'), 1)]
    >>> sorted(ngram_counts(["x", "and", "y", "z"], 2, stopwords={"and"}))
    [('y', 'z')]
    """
    if n < 1:
        raise OptionError(f"n-gram order must be >= 1, got {n}")
    grams = (tuple(tokens[k : k + n]) for k in range(len(tokens) - n + 1))
    if stopwords:
        stop = frozenset(stopwords)
        return Counter(g for g in grams if stop.isdisjoint(g))
    return Counter(grams)


def _ratio(num: float, den: float) -> float:
    return num / den if den else 0.0


def _weighted_log_mean(values: Sequence[float], weights: Sequence[float]) -> float:
    """``exp(sum w log v)`` with ``log 0 = -inf`` (so the result is 0) for ``w > 0``."""
    total = 0.0
    for v, w in zip(values, weights):
        if w == 0:
            continue
        if v <= 0.0:
            return 0.0
        total += w * math.log(v)
    return math.exp(total)


def _check_weights(weights: Sequence[float] | None, k: int) -> tuple[float, ...]:
    if weights is None:
        return (1.0 / k,) * k
    weights = tuple(float(w) for w in weights)
    if len(weights) != k:
        raise OptionError(f"expected {k} weights, got {len(weights)}")
    if any(w < 0 for w in weights):
        raise OptionError("weights must be non-negative")
    return weights


# --------------------------------------------------------------------------- C_n, eq. (5)


def ngram_coverage(
    candidate: Tokens,
    references: Iterable[Tokens],
    n: int,
    *,
    stopwords: Collection[Hashable] | None = None,
) -> float:
    """Average n-gram coverage ``C_n``, Lin & Hovy (2003) eq. (5).

    .. math::

        C_n = \\frac{\\sum_{C \\in \\{Model\\ Units\\}} \\sum_{g \\in C} Count_{match}(g)}
                   {\\sum_{C \\in \\{Model\\ Units\\}} \\sum_{g \\in C} Count(g)}

    ``Count_match(g)`` is the number of times ``g`` co-occurs in the peer (``candidate``)
    and the model unit, i.e. ``min(count in candidate, count in model unit)``;
    ``Count(g)`` is the count of ``g`` in the model unit.  The denominator counts the
    n-grams of the **references**, so ``C_n`` is recall-like, not a precision.

    Each element of ``references`` is one model unit (the paper sums over model units of
    one model summary).  Pass a whole model summary as one reference to clip at summary
    level, or its units (e.g. sentences) as separate references to clip per unit as
    eq. (5) is written; several model summaries are handled the same way -- their
    matches and counts are summed, each clipped against the same candidate.

    ``stopwords``: n-grams containing any of these tokens are dropped on both sides
    (§4.1 "when the stopword 'and' is ignored").  A zero denominator gives ``0.0``.

    Lin & Hovy §4.1: model "United States, Japan, and Taiwan", candidate "United States,
    Taiwan, and Japan", "and" ignored: unigram 1, bigram 0.5, trigram 0.

    >>> model = "United States Japan and Taiwan".split()
    >>> peer = "United States Taiwan and Japan".split()
    >>> [ngram_coverage(peer, [model], n, stopwords={"and"}) for n in (1, 2, 3, 4)]
    [1.0, 0.5, 0.0, 0.0]
    """
    _tokens(candidate, "candidate", "ngram_coverage")
    references = _token_lists(references, "references", "ngram_coverage")
    matches = 0
    total = 0
    cand = ngram_counts(candidate, n, stopwords)
    for ref in references:
        ref_counts = ngram_counts(ref, n, stopwords)
        total += sum(ref_counts.values())
        matches += sum(min(c, cand[g]) for g, c in ref_counts.items())
    return _ratio(matches, total)


def ngram_cooccurrence_precisions(
    candidate: Tokens,
    references: Iterable[Tokens],
    i: int = 1,
    j: int = 4,
    *,
    stopwords: Collection[Hashable] | None = None,
) -> tuple[float, ...]:
    """``(C_i, C_{i+1}, ..., C_j)`` of eq. (5) of Lin & Hovy (2003).

    The values are the recall-like coverages of :func:`ngram_coverage` (the n-gram
    co-occurrence statistics of the paper), whatever the historical word "precision".

    >>> ngram_cooccurrence_precisions("a b c".split(), ["a b d".split()], 1, 3)
    (0.6666666666666666, 0.5, 0.0)
    """
    if not 1 <= i <= j:
        raise OptionError(f"need 1 <= i <= j, got i={i}, j={j}")
    _tokens(candidate, "candidate", "ngram_cooccurrence_precisions")
    references = [list(r) for r in _token_lists(references, "references", "ngram_cooccurrence_precisions")]
    return tuple(ngram_coverage(candidate, references, n, stopwords=stopwords) for n in range(i, j + 1))


def ngram_score(
    candidate: Tokens,
    references: Iterable[Tokens],
    i: int,
    j: int,
    brevity_bonus: float = 1.0,
    weights: Sequence[float] | None = None,
    *,
    stopwords: Collection[Hashable] | None = None,
) -> float:
    """``Ngram(i, j)`` of Lin & Hovy (2003) eq. (6).

    .. math::

        Ngram(i, j) = BB \\cdot \\exp\\Big(\\sum_{n=i}^{j} w_n \\log C_n\\Big)

    with ``C_n`` from :func:`ngram_coverage`, ``w_n = 1/(j-i+1)`` unless ``weights``
    (one per order ``i..j``) is given, and the brevity bonus ``BB`` (the paper sets it to
    1 in all experiments).  ``Ngram(k, k)`` is just ``C_k``.  Any ``C_n = 0`` with a
    positive weight gives ``0.0`` (log 0 = -inf); see the module docstring.

    >>> model = "United States Japan and Taiwan".split()
    >>> peer = "United States Taiwan and Japan".split()
    >>> ngram_score(peer, [model], 1, 1, stopwords={"and"})
    1.0
    >>> ngram_score(peer, [model], 1, 4, stopwords={"and"})
    0.0
    >>> round(ngram_score(peer, [model], 1, 2, stopwords={"and"}), 6)  # sqrt(1 * 0.5)
    0.707107
    """
    if not 1 <= i <= j:
        raise OptionError(f"need 1 <= i <= j, got i={i}, j={j}")
    _tokens(candidate, "candidate", "ngram_score")
    w = _check_weights(weights, j - i + 1)
    cs = ngram_cooccurrence_precisions(candidate, references, i, j, stopwords=stopwords)
    return float(brevity_bonus) * _weighted_log_mean(cs, w)


# --------------------------------------------------------------------------- BLEU, eqs. (2)-(4)


@dataclass(frozen=True)
class BleuScore:
    """BLEU and its parts (eqs. 2-4 of Lin & Hovy 2003, after Papineni et al.).

    ``precisions`` are the modified n-gram precisions ``p_1..p_N``; ``matches`` and
    ``totals`` their clipped numerators and denominators; ``candidate_length`` is
    ``|c|`` and ``reference_length`` the effective ``|r|``.  ``float(score)`` works.
    """

    score: float
    precisions: tuple[float, ...]
    brevity_penalty: float
    candidate_length: int
    reference_length: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]

    def __float__(self) -> float:
        return self.score


def brevity_penalty(candidate_length: int, reference_length: int) -> float:
    """BP of eq. (3): 1 if ``|c| > |r|``, else ``exp(1 - |r|/|c|)``; 0 when ``|c| = 0``.

    (At ``|c| = |r|`` both branches give 1.  ``|c| = 0`` is the limit of ``exp(1 - r/c)``.)

    >>> brevity_penalty(5, 4), brevity_penalty(4, 4)
    (1.0, 1.0)
    >>> round(brevity_penalty(2, 4), 6)  # exp(1 - 4/2) = exp(-1)
    0.367879
    """
    if candidate_length > reference_length:
        return 1.0
    if candidate_length == 0:
        return 0.0
    return math.exp(1.0 - reference_length / candidate_length)


_REF_LENGTH_RULES = ("closest", "shortest")


def _effective_ref_length(cand_len: int, ref_lens: Sequence[int], rule: str) -> int:
    if not ref_lens:
        raise InputError("BLEU needs at least one reference per candidate")
    if rule == "closest":
        # best match length; ties go to the shorter reference
        return min(ref_lens, key=lambda r: (abs(r - cand_len), r))
    if rule == "shortest":
        return min(ref_lens)
    raise OptionError(f"ref_length must be one of {_REF_LENGTH_RULES}, got {rule!r}")


def _clipped_counts(candidate: Tokens, references: Sequence[Tokens], n: int) -> tuple[int, int]:
    cand = ngram_counts(candidate, n)
    max_ref: Counter = Counter()
    for ref in references:
        for g, c in ngram_counts(ref, n).items():
            if c > max_ref[g]:
                max_ref[g] = c
    return sum(min(c, max_ref[g]) for g, c in cand.items()), sum(cand.values())


def bleu(
    candidates: Sequence[Tokens],
    references_per_candidate: Sequence[Sequence[Tokens]],
    *,
    max_n: int = 4,
    weights: Sequence[float] | None = None,
    ref_length: str = "closest",
) -> BleuScore:
    """Corpus-level BLEU, eqs. (2)-(4) of Lin & Hovy (2003) (after Papineni et al. 2001).

    .. math::

        p_n = \\frac{\\sum_{C} \\sum_{g \\in C} Count_{clip}(g)}
                   {\\sum_{C} \\sum_{g \\in C} Count(g)}
        \\qquad
        BLEU = BP \\cdot \\exp\\Big(\\sum_{n=1}^{N} w_n \\log p_n\\Big)

    ``Count_clip(g) = min(count of g in the candidate, max count of g in any one
    reference of that candidate)``; numerators and denominators are summed over the whole
    corpus before dividing.  ``N = max_n = 4`` and ``w_n = 1/N`` by default.

    Brevity penalty (eq. 3) with ``|c|`` the total candidate length and ``|r|`` the sum
    over candidates of an effective reference length.  The paper only says "the length of
    the reference translation"; with several references we use, by default,
    ``ref_length="closest"``: the reference length closest to the candidate's (ties to
    the shorter one), i.e. Papineni et al.'s "best match length".
    ``ref_length="shortest"`` uses the shortest reference instead.

    Zero handling: ``p_n = 0`` (or ``0/0``, when no candidate has an n-gram of that
    order) makes BLEU ``0.0``; no smoothing.  An empty corpus gives ``0.0`` throughout.

    >>> cands = ["the cat sat on the mat".split(), "a dog".split()]
    >>> refs = [["the cat sat on the mat".split()], ["a dog barked".split()]]
    >>> r = bleu(cands, refs, max_n=2)
    >>> r.matches, r.totals, r.candidate_length, r.reference_length
    ((8, 6), (8, 6), 8, 9)
    >>> round(r.score, 6)  # exp(1 - 9/8) * exp(0.5*log 1 + 0.5*log 1)
    0.882497
    """
    if max_n < 1:
        raise OptionError(f"max_n must be >= 1, got {max_n}")
    _tokens(candidates, "candidates", "bleu")
    _tokens(references_per_candidate, "references_per_candidate", "bleu")
    if len(candidates) != len(references_per_candidate):
        raise InputError(f"{len(candidates)} candidates but {len(references_per_candidate)} reference sets")
    w = _check_weights(weights, max_n)
    matches = [0] * max_n
    totals = [0] * max_n
    c_len = 0
    r_len = 0
    for k, (cand, refs) in enumerate(zip(candidates, references_per_candidate)):
        _tokens(cand, f"candidates[{k}]", "bleu")
        refs = [list(r) for r in _token_lists(refs, f"references_per_candidate[{k}]", "bleu")]
        c_len += len(cand)
        r_len += _effective_ref_length(len(cand), [len(r) for r in refs], ref_length)
        for k in range(max_n):
            m, t = _clipped_counts(cand, refs, k + 1)
            matches[k] += m
            totals[k] += t
    precisions = tuple(_ratio(m, t) for m, t in zip(matches, totals))
    bp = brevity_penalty(c_len, r_len)
    return BleuScore(
        score=bp * _weighted_log_mean(precisions, w),
        precisions=precisions,
        brevity_penalty=bp,
        candidate_length=c_len,
        reference_length=r_len,
        matches=tuple(matches),
        totals=tuple(totals),
    )


def sentence_bleu(
    candidate: Tokens,
    references: Sequence[Tokens],
    *,
    max_n: int = 4,
    weights: Sequence[float] | None = None,
    ref_length: str = "closest",
) -> BleuScore:
    """BLEU of one candidate against its references: :func:`bleu` on a one-item corpus.

    Same formulas (eqs. 2-4 of Lin & Hovy 2003), same ``|r|`` rule and zero handling.

    >>> r = sentence_bleu("the the the the".split(), ["the cat is on the mat".split()], max_n=1)
    >>> r.precisions  # clipped: "the" occurs at most twice in the reference
    (0.5,)
    >>> round(r.score, 6)  # BP = exp(1 - 6/4)
    0.303265
    """
    _tokens(candidate, "candidate", "sentence_bleu")
    _token_lists(references, "references", "sentence_bleu")
    return bleu([candidate], [references], max_n=max_n, weights=weights, ref_length=ref_length)


# -------------------------------------------------------------------------- the registry family


class Bleu(Family):
    kinds = ("BLEU",)
    pattern = re.compile(r"BLEU")
    examples = ("BLEU",)
    doc = "docs/measures/bleu.md"
    single_valued = True
    corpus_needs_tokens = True

    def from_match(self, match, name):
        return Measure("BLEU", n=4)

    def name(self, m):
        return "BLEU"

    def pair_value(self, m, candidate, references, source, options):
        return sentence_bleu(candidate.tokens, [r.tokens for r in references]).score

    def references_rule(self, m):
        return "n-grams clipped by their largest count in any reference, the closest reference length"

    def counts_what(self, m):
        return "BLEU: clipped 1- to 4-gram precisions against all references, geometric mean, brevity penalty"

    def corpus_what(self, m):
        return "corpus BLEU (every pair's clipped n-gram counts and lengths summed, not a mean of per-pair BLEU)"

    def corpus_value(self, m, values, token_pairs):
        usable = [(c, r) for c, r in token_pairs if r]
        if not usable:
            return 0.0
        return bleu([c for c, _ in usable], [r for _, r in usable]).score


class NgramCooccurrence(Family):
    kinds = ("NGRAM",)
    pattern = re.compile(r"NGRAM\(([0-9]+),([0-9]+)\)")
    examples = ("Ngram(1,4)",)
    doc = "docs/measures/ngram.md"
    single_valued = True

    def from_match(self, match, name):
        return Measure("NGRAM", n=int(match[1]), skip=int(match[2]))

    def check(self, m, given=None):
        i, j = m.n, m.skip
        if (
            not all(isinstance(x, int) and not isinstance(x, bool) for x in (i, j))
            or not 1 <= i <= j <= limits.MAX_ORDER
        ):
            raise OptionError(f"Ngram(i,j) needs 1 <= i <= j <= {limits.MAX_ORDER}, got {shown(given or m.name)}")

    def name(self, m):
        return f"Ngram({m.n},{m.skip})"

    def pair_value(self, m, candidate, references, source, options):
        return ngram_score(candidate.tokens, [r.tokens for r in references], m.n, m.skip)

    def references_rule(self, m):
        return "matches and counts summed over all references"

    def counts_what(self, m):
        return f"Lin & Hovy (2003) Ngram({m.n},{m.skip}): n-gram coverage of the references for n = {m.n}..{m.skip}"


register(Bleu())
register(NgramCooccurrence())
