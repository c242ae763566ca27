"""The explanation of one pair: its processed texts and, per measure, the matches and counts."""

from __future__ import annotations

from dataclasses import dataclass, field

from rougekit.explanation import surface, views


@dataclass(frozen=True)
class Side:
    """One summary as the measures saw it: the joined tokens (ROUGE-N, S, SU) and the sentence
    units (ROUGE-L, W), after tokenizing, stopwords, stemming and truncation. ``words`` and
    ``sentence_words`` are the same tokens before stemming (None without ``stem``). ``text`` is
    the summary as given (sentences joined by line breaks) and ``spans`` the ``[start, end]`` of
    each of ``tokens`` in it (None where the tokenizer's runs cannot be aligned, see
    :mod:`rougekit.explanation.surface`)."""

    tokens: list[str]
    sentences: list[list[str]]
    words: list[str] | None = None
    sentence_words: list[list[str]] | None = None
    text: str = ""
    spans: list[list[int]] | None = None

    @classmethod
    def of(cls, doc, names: list[str], text: str, tokenizer, words=None) -> "Side":
        tokens = [names[t] for t in doc.tokens]
        sentences = [[names[t] for t in s] for s in doc.sentences]
        where = surface.spans(text, tokens if words is None else list(words[0]), tokenizer)
        if words is None:
            return cls(tokens, sentences, text=text, spans=where)
        return cls(tokens, sentences, list(words[0]), [list(u) for u in words[1]], text, where)

    def to_dict(self) -> dict:
        out: dict = {"tokens": list(self.tokens), "sentences": [list(s) for s in self.sentences]}
        if self.words is not None:
            out["words"] = list(self.words)
            out["sentence_words"] = [list(s) for s in self.sentence_words or []]
        out["text"] = self.text
        out["spans"] = None if self.spans is None else [list(s) for s in self.spans]
        return out


#: what the hits and counts of a measure that is not weighted are
PLAIN_UNITS = "plain counts of the units counts_what names"


@dataclass(frozen=True)
class MeasureExplanation:
    """One measure on one pair.

    ``matches``: dicts with ``count``, ``tokens``, ``reference`` (its index), and the occurrences
    ``candidate_positions``/``reference_positions`` (each a list of positions: token indices
    when ``positions == "tokens"``, ``[sentence, index]`` pairs when ``"sentences"``), plus
    ``weight`` = f(k) for ROUGE-W runs; only the references the multi-reference rule keeps
    (``used``). None for a measure whose units are not itemised (its ``counts_what`` says what it
    counts). ``hits``/``reference_count`` are summed over the used references,
    ``candidate_count`` counts the candidate once; ``counts`` are the engine's per-pair numbers
    (``RougeResult.counts()``). ``count_units`` says what those numbers are: plain counts, or
    for ROUGE-W weighted units, f(tokens) with f(k) = k^w (see :func:`weighted_units`).
    """

    name: str
    counts_what: str
    positions: str
    matches: list[dict] | None = None
    clipped: list[dict] | None = None
    hits: int | float | None = None
    reference_count: int | float | None = None
    candidate_count: int | float | None = None
    counts: dict | None = None
    recall: float | None = None
    precision: float | None = None
    f: float | None = None
    score: float | None = None
    per_reference: list[dict] = field(default_factory=list)
    used: list[int] = field(default_factory=list)
    weighted: bool = False
    count_units: str = PLAIN_UNITS

    def to_dict(self) -> dict:
        if self.score is not None:
            return {"counts_what": self.counts_what, "score": self.score, "matches": None}
        out = {
            "counts_what": self.counts_what,
            "positions": self.positions,
            "matches": self.matches,
            "candidate_count": self.candidate_count,
            "reference_count": self.reference_count,
            "hits": self.hits,
            "count_units": self.count_units,
            "counts": dict(self.counts or {}),
            "recall": self.recall,
            "precision": self.precision,
            "f": self.f,
            "references_used": list(self.used),
            "per_reference": [dict(r) for r in self.per_reference],
        }
        if self.clipped:
            out["clipped"] = self.clipped
        return out


@dataclass(frozen=True)
class Explanation:
    """What :func:`rougekit.explain` returns: ``str()`` a text view, ``to_dict()`` JSON-ready,
    ``_repr_html_()`` for notebooks."""

    candidate: Side
    references: list[Side]
    measures: dict[str, MeasureExplanation]
    signature: str

    def __getitem__(self, name: str) -> MeasureExplanation:
        return self.measures[name]

    def to_dict(self) -> dict:
        return {
            "candidate": self.candidate.to_dict(),
            "references": [r.to_dict() for r in self.references],
            "measures": {name: m.to_dict() for name, m in self.measures.items()},
            "signature": self.signature,
        }

    def __str__(self) -> str:
        return views.text(self)

    def _repr_html_(self) -> str:
        return views.html(self)


def weighted_units(exponent: float, wlcs: str) -> str:
    """What ROUGE-W's hits and counts are: not tokens but f(tokens), f(k) = k^w (ROUGE-1.5.5's
    -w; ``wlcs="paper"``: Lin's WLCS value over f of the token counts)."""
    f = f"f(k) = k^{exponent:g}"
    if wlcs == "paper":
        return f"weighted, {f}: hits = the weighted LCS, reference = f(its tokens), candidate = f(its tokens)"
    return (
        f"weighted, {f}: hits = sum of f(run length), reference = f(sum over its sentences of f(sentence "
        f"tokens)) (summed over the references used), candidate = f(its tokens); R = f^-1(hits / reference), "
        f"P = f^-1(hits / candidate)"
    )
