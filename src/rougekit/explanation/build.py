"""``rougekit.explain``: which units of one candidate matched its references, measure by measure.

The texts are processed by the same :class:`rougekit.api.Scorer` that ``rougekit.score`` uses
(tokenizer, ``stem``, ``stopwords``, ``word_limit``/``byte_limit``), the per-reference counts
come from each measure's family (:meth:`Family.reference_stats`, the engine's kernels) and the
matches from the family's :meth:`Family.explain_reference` (the position twins of
``rougekit._core._explain``, walking the kernels' loops in their order). The multi-reference
rule picks the references whose matches count, as ``rougekit.scoring.pair_score`` does.
"""

from __future__ import annotations

from typing import Sequence

from rougekit.api import Scorer, check_keywords
from rougekit.engine.door import Doc, Match, RefStats, combine, inputs, kept_reference, pair_score
from rougekit.errors import InputError
from rougekit.explanation.model import PLAIN_UNITS, Explanation, MeasureExplanation, Side, weighted_units
from rougekit.measures import Measure

DEFAULT_MEASURES = ("ROUGE-1", "ROUGE-2", "ROUGE-L")


def explain(
    candidate: str | Sequence[str],
    references: str | Sequence,
    measures=DEFAULT_MEASURES,
    *,
    source: str | Sequence[str] | None = None,
    **options,
) -> Explanation:
    """Explain the scores of one candidate against its references (candidate first).

    ``candidate``: a summary (a string whose lines are its sentences, or a list of sentences).
    ``references``: one reference (a string) or a list of references (each a string or a list
    of sentences). ``source``: the original text, for SumACCY/WSumACCY. ``options``: those of
    :func:`rougekit.score` (``stem``, ``stopwords``, ``word_limit``, ``byte_limit``,
    ``multi_ref``, ``alpha``, ``tokenizer``, ``lang``, ``su_unigrams``, ``wlcs``, ``hori_units``).
    """
    # no interval and texts only: the bootstrap's options and ignore_ids would only mislabel the signature
    refused = ("fast", "bootstrap", "resamples", "confidence", "seed", "ignore_ids")
    check_keywords(options, "rougekit.explain", named=("measures", "source"), refused=refused)
    refs = _references(references)
    candidate = inputs.summary(candidate)
    _check_text(candidate, "candidate")
    source = inputs.summary(source)
    options.setdefault("bootstrap", None)
    scorer = Scorer(measures, **options, fast=False)  # one pair: the family counts it, no batch engine
    try:
        found = _explain(scorer, candidate, refs, source)
        scorer.warn_unread([candidate], [refs])  # "why 0?": the same hint as rougekit.score's (--lang zh, ...)
        return found
    except UnicodeEncodeError:  # a lone surrogate: refused as rougekit.score refuses it
        raise InputError(inputs.lone_surrogate([candidate], [refs], None if source is None else [source], 1)) from None


def _explain(scorer, candidate, refs: list, source) -> Explanation:
    cand = scorer.doc(candidate)
    ref_docs = [scorer.doc(r) for r in refs]
    src = scorer.doc(source) if source is not None else None
    names = _inverse(scorer.vocab)
    texts = [s if isinstance(s, str) else "\n".join(s) for s in [candidate, *refs]]
    words = _words(scorer, texts)
    tokenizer = getattr(scorer.pre, "tokenizer", None)
    sides = [Side.of(d, names, t, tokenizer, w) for d, t, w in zip([cand, *ref_docs], texts, words)]
    explained = {m.name: _measure(scorer, m, cand, ref_docs, src, names) for m in scorer.measures}
    return Explanation(sides[0], sides[1:], explained, str(scorer.signature))


def _references(references) -> list:
    """One reference (a str) or any container of them (see :mod:`rougekit._core.inputs`)."""
    if isinstance(references, str):
        return [str(references)]
    if isinstance(references, bytes) or not hasattr(references, "__iter__"):
        raise TypeError(f"references must be a string or a list of strings, not a {type(references).__name__}")
    refs = inputs.summaries(references, "the references")
    if not refs:
        raise InputError("give at least one reference")
    for r in refs:
        _check_text(r, "reference")
    return refs


def _check_text(summary, what: str) -> None:
    if isinstance(summary, str):
        return
    if isinstance(summary, (list, tuple)) and all(isinstance(s, str) for s in summary):
        return
    raise TypeError(f"each {what} must be a string or a list of sentence strings, not {type(summary).__name__}")


def _inverse(vocab) -> list[str]:
    names = [""] * len(vocab)
    for token, i in vocab._ids.items():
        names[i] = token
    return names


def _words(scorer, summaries) -> list:
    """The tokens before stemming, position for position (stemming never drops a token)."""
    pre = scorer.pre
    if not pre.stem:
        return [None] * len(summaries)
    from dataclasses import replace

    plain = replace(pre, stem=False)
    return [plain.process(s) for s in summaries]


def _measure(scorer, m: Measure, cand: Doc, refs: list[Doc], src: Doc | None, names) -> MeasureExplanation:
    family = m.family
    if m.single_valued:
        value = family.pair_value(m, cand, refs, src, scorer.options) if refs else 0.0
        return MeasureExplanation(m.name, family.counts_what(m), "none", score=value)
    options = scorer.options
    stats = [family.reference_stats(m, cand, r, options=options) for r in refs]
    matches = [family.explain_reference(m, cand, r, options=options) for r in refs]
    used = references_used(stats, options.mode, options.alpha, m.f_exponent)
    model_count, hits, _ = combine([stats[k] for k in used], "A")
    scored = pair_score(stats, options.mode, options.alpha, m.f_exponent)  # the engine's numbers for the pair
    positions = family.explain_positions(m)
    listed = None
    if all(found is not None for found in matches):
        listed = [(k, x) for k in used for x in matches[k]]
    return MeasureExplanation(
        m.name,
        family.counts_what(m),
        positions,
        matches=None if listed is None else [_match(k, x, names) for k, x in listed if not x.clipped],
        clipped=None if listed is None else [_match(k, x, names) for k, x in listed if x.clipped],
        hits=hits,
        reference_count=model_count,
        candidate_count=stats[0].peer_count,
        counts={"reference_count": scored.model_count, "hits": scored.hits, "candidate_count": scored.peer_count},
        recall=scored.recall,
        precision=scored.precision,
        f=scored.f,
        per_reference=[
            {"reference": k, "hits": s.hits, "reference_count": s.model_count, "candidate_count": s.peer_count}
            for k, s in enumerate(stats)
        ],
        used=used,
        weighted=m.f_exponent is not None,
        count_units=PLAIN_UNITS if m.f_exponent is None else weighted_units(m.f_exponent, options.wlcs),
    )


def references_used(stats: list[RefStats], mode: str, alpha: float, exponent) -> list[int]:
    """The references whose counts the rule keeps (the engine's ``kept_reference``): the first best
    recall (-f B), the first best F (max), else all of them (sum, jackknife)."""
    if mode not in ("B", "M") or not stats:
        return list(range(len(stats)))
    return [kept_reference(stats, mode, alpha, exponent)]


def _match(reference: int, x: Match, names: list[str]) -> dict:
    out = {
        "count": x.count,
        "tokens": [names[t] if isinstance(t, int) else t for t in x.tokens],
        "reference": reference,
        "candidate_positions": [[list(p) if isinstance(p, tuple) else p for p in occ] for occ in x.candidate],
        "reference_positions": [[list(p) if isinstance(p, tuple) else p for p in occ] for occ in x.reference],
    }
    if x.weight is not None:
        out["weight"] = x.weight
    return out
